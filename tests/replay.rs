//! Replay: a record runs again to the same bytes, and every fault in one is a one-line error
//! naming the file and the line.
//!
//! - every mode, with and without `--evade-flip`: `sim --record`, then `sim --replay --record`
//!   writes the same bytes and prints the same summary;
//! - a record made through commands (mode, flip, obstacles, tuning, agents, reset, notes, paused
//!   lines, the keyboard's input) replays to the same bytes;
//! - every cut inside a line is an error naming that line, and a cut between lines replays the
//!   lines before it; every value of a line's state changed is an error naming that line; the
//!   header's version, seed, mode, agents and data hashes changed, another arena, a data file
//!   given as the record: each an error naming line 1; exit 2, one line, never a panic;
//! - the replay steps back and forth (from its kept states) onto the record's own lines.

mod common;

use common::{bin, scratch};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::Output;
use steering_arena::data::DataSources;
use steering_arena::sim::command::Command;
use steering_arena::sim::headless;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::path::Order;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::replay::{Replay, ReplayData, SNAPSHOT_EVERY};
use steering_arena::sim::space::shape::Obstacle;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// Exit 2, nothing on stdout, one line on stderr (no panic message); returns the line.
fn one_line_error(o: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{what}: exit code; stderr: {err}");
    assert!(o.stdout.is_empty(), "{what}: printed to stdout");
    assert_eq!(
        err.matches('\n').count(),
        1,
        "{what}: not one line: {err:?}"
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    err.trim_end().to_string()
}

/// The data the tests' worlds and replays run on: the crate's assets, as `sim` finds them.
fn data() -> ReplayData {
    ReplayData::load(DataSources::resolve(None, None, None)).expect("the assets are valid")
}

/// Replay `record` in the library; the lines it writes, or the one-line error.
fn replay(record: &[u8], data: &ReplayData) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut recorder = Recorder::new(&mut out);
    headless::replay("rec.jsonl", record, data, Some(&mut recorder))?;
    Ok(out)
}

/// A record made the way the window makes one: the keyboard's input, then commands between the
/// ticks — every kind there is — and lines written while paused.
fn commanded_record(data: &ReplayData) -> Vec<u8> {
    let config = WorldConfig {
        mode: Mode::TileChase,
        script: Script::Keys,
        seed: 7,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data.data, config);
    world.events.push(format!("mode:{}", world.mode.name()));
    let mut out = Vec::new();
    let mut rec = Recorder::new(&mut out);
    rec.header(&world, &data.hashes).expect("to memory");
    let ticks = |world: &mut World, rec: &mut Recorder<&mut Vec<u8>>, n: usize, dir: (f32, f32)| {
        for _ in 0..n {
            world.tick(&Input {
                move_dir: glam::Vec2::new(dir.0, dir.1),
            });
            rec.write(world, false).expect("to memory");
        }
    };
    ticks(&mut world, &mut rec, 6, (1.0, 0.0));
    world.apply(Command::Mode(Mode::Intercept));
    ticks(&mut world, &mut rec, 4, (1.0, -1.0));
    world.apply(Command::Flip(true));
    world.apply(Command::AddObstacle(Obstacle::Circle {
        center: glam::Vec2::new(700.3, 300.7),
        radius: 24.0,
    }));
    ticks(&mut world, &mut rec, 3, (0.0, 1.0));
    world.apply(Command::tune("player.max_speed", 287.123_4).expect("a slider"));
    world.apply(Command::Agents(7));
    ticks(&mut world, &mut rec, 3, (-1.0, 0.0));
    // Paused: lines with no tick, then a single step.
    rec.write(&mut world, true).expect("to memory");
    world.apply(Command::RemoveObstacle(glam::Vec2::new(701.0, 301.0)));
    rec.write(&mut world, true).expect("to memory");
    world.tick(&Input::default());
    rec.write(&mut world, true).expect("to memory");
    world.apply(Command::Reset);
    world.apply(Command::Note("demo:on".to_string()));
    world.player.script = Script::Flee;
    ticks(&mut world, &mut rec, 3, (0.0, 0.0));
    world.apply(Command::Note("demo:off".to_string()));
    world.player.script = Script::Keys;
    world.apply(Command::Mode(Mode::Patterns));
    ticks(&mut world, &mut rec, 3, (0.0, -1.0));
    // `V` in pathfind: the next search, recorded by name.
    world.apply(Command::Mode(Mode::Pathfind));
    ticks(&mut world, &mut rec, 2, (1.0, 0.0));
    world.apply(Command::Search(Order::Dijkstra));
    ticks(&mut world, &mut rec, 3, (1.0, 0.0));
    out
}

fn lines(record: &[u8]) -> Vec<&[u8]> {
    record.split_inclusive(|&b| b == b'\n').collect()
}

#[test]
fn every_mode_replays_to_the_same_bytes_with_and_without_the_flip() {
    let dir = scratch::folder("every-mode");
    for mode in Mode::ALL {
        for flip in [false, true] {
            let what = format!("{} flip {flip}", mode.name());
            let mut args = vec![
                "sim",
                "--mode",
                mode.name(),
                "--player",
                "line",
                "--seconds",
                "4",
                "--record",
                "a.jsonl",
            ];
            if flip {
                args.push("--evade-flip");
            }
            let first = bin::run_in(&dir, &args);
            assert_eq!(first.status.code(), Some(0), "{what}");
            let again = bin::run_in(&dir, ["sim", "--replay", "a.jsonl", "--record", "b.jsonl"]);
            assert_eq!(
                again.status.code(),
                Some(0),
                "{what}: {}",
                String::from_utf8_lossy(&again.stderr)
            );
            let a = std::fs::read(dir.join("a.jsonl")).expect("the record");
            let b = std::fs::read(dir.join("b.jsonl")).expect("the replay's record");
            assert_eq!(lines(&a).len(), 241, "{what}: the header and 240 ticks");
            assert!(a == b, "{what}: the replay's record differs");
            assert_eq!(
                bin::summary_without_tick_ms(&first),
                bin::summary_without_tick_ms(&again),
                "{what}: the summaries differ"
            );
            let header: Value = serde_json::from_slice(lines(&a)[0]).expect("JSON");
            assert_eq!(header["mode"], mode.name(), "{what}");
            assert_eq!(header["flip"], flip && mode.has_flip(), "{what}");
            assert_eq!(header["player"], "line", "{what}");
            assert_eq!(header["version"], env!("CARGO_PKG_VERSION"), "{what}");
        }
    }
}

#[test]
fn a_record_of_commands_and_keys_replays_to_the_same_bytes() {
    let data = data();
    let record = commanded_record(&data);
    let text = String::from_utf8_lossy(&record);
    for expected in [
        r#""commands":[{"mode":"intercept"}]"#,
        r#""commands":[{"flip":true},{"add-obstacle":{"circle":[700.3,300.7,24.0]}}]"#,
        r#""commands":[{"tune":["player.max_speed",287.1234]},{"agents":7}]"#,
        r#""commands":[{"remove-obstacle":[701.0,301.0]}]"#,
        r#""commands":["reset",{"note":"demo:on"}]"#,
        r#""input":[1.0,-1.0]"#,
        r#""input":"flee""#,
        r#""paused":true"#,
        r#""input":null"#,
    ] {
        assert!(text.contains(expected), "the record has no {expected}");
    }
    let again = replay(&record, &data).expect("the record replays");
    assert!(again == record, "the replay wrote other bytes");
}

/// Cuts of the commanded record (see below), one in `stride` of them tried: a cut inside a line
/// names that line, a cut between lines replays the lines before it.
fn cuts_name_their_line(stride: usize) {
    let data = data();
    let record = commanded_record(&data);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            record
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    // Every byte of the header, of the lines with an obstacle added or removed (the second one
    // paused, no tick) and of the line with a slider's value; of every other line the cuts next
    // to its ends and in its middle. (Each cut replays every line before it again: every byte of
    // every line would take minutes in a debug build.)
    let mut cuts = Vec::new();
    for w in starts.windows(2) {
        let (start, end) = (w[0], w[1]);
        let text = String::from_utf8_lossy(&record[start..end]);
        if start == 0 || ["-obstacle", "tune"].iter().any(|c| text.contains(c)) {
            cuts.extend(start..end);
        } else {
            cuts.extend([start, start + 1, (start + end) / 2, end - 2, end - 1]);
        }
    }
    assert!(cuts.len() > 1500, "only {} cuts", cuts.len());
    let cuts: Vec<usize> = cuts.into_iter().step_by(stride).collect();
    let mut errors = 0;
    for &cut in &cuts {
        let part = &record[..cut];
        let line = starts.iter().filter(|&&s| s <= cut).count();
        match replay(part, &data) {
            Ok(out) => {
                assert!(
                    starts.contains(&cut) && cut > 0,
                    "a cut at byte {cut} (line {line}) replayed without an error"
                );
                assert!(
                    out == part,
                    "a cut at byte {cut}: the replay wrote other bytes"
                );
            }
            Err(e) => {
                errors += 1;
                assert!(!e.contains('\n'), "not one line: {e}");
                let want = format!("rec.jsonl: line {line}: ");
                assert!(
                    e.starts_with(&want),
                    "a cut at byte {cut}: {e} (expected {want})"
                );
                assert!(
                    !starts.contains(&cut) || cut == 0,
                    "a cut between lines, at byte {cut}: {e}"
                );
            }
        }
    }
    // The cuts between lines (but the one before the header) replay; every other fails.
    let between = cuts
        .iter()
        .filter(|&&c| c > 0 && starts.contains(&c))
        .count();
    assert_eq!(errors, cuts.len() - between);
}

#[test]
fn every_seventh_cut_inside_a_line_names_that_line_and_a_cut_between_lines_replays_the_rest() {
    // (Seven is prime to the five cuts of a plain line: each of its cut places is tried.)
    cuts_name_their_line(7);
}

#[test]
#[ignore = "needs a long fuzz run: run with --include-ignored (CI does)"]
fn every_cut_inside_a_line_names_that_line_and_a_cut_between_lines_replays_the_rest() {
    cuts_name_their_line(1);
}

/// Every value in a JSON value, with its path, changed one at a time.
fn changed_leaves(v: &Value) -> Vec<(String, Value)> {
    fn walk(v: &Value, root: &Value, path: &mut Vec<Value>, out: &mut Vec<(String, Value)>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(Value::String(k.clone()));
                    walk(x, root, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(Value::from(i));
                    walk(x, root, path, out);
                    path.pop();
                }
            }
            leaf => {
                let changed = match leaf {
                    Value::Number(n) => Value::from(n.as_f64().expect("a number") + 1.0),
                    Value::String(s) => Value::String(format!("{s}x")),
                    Value::Bool(b) => Value::Bool(!b),
                    _ => Value::from(0),
                };
                let mut copy = root.clone();
                let mut at = &mut copy;
                for p in path.iter() {
                    at = match p {
                        Value::String(k) => &mut at[k.as_str()],
                        Value::Number(i) => &mut at[i.as_u64().expect("an index") as usize],
                        _ => unreachable!("paths hold keys and indices"),
                    };
                }
                *at = changed;
                let name: Vec<String> = path.iter().map(|p| p.to_string()).collect();
                out.push((name.join("."), copy));
            }
        }
    }
    let mut out = Vec::new();
    walk(v, v, &mut Vec::new(), &mut out);
    out
}

#[test]
fn any_value_of_a_line_changed_is_an_error_naming_that_line() {
    let data = data();
    let record = commanded_record(&data);
    let all = lines(&record);
    let mut checked = 0;
    for n in [2, 8, 12, 18, 20, all.len()] {
        let line: Value = serde_json::from_slice(all[n - 1]).expect("JSON");
        let mut state = line.clone();
        // The state the run writes: every value there must come out of the run again. (`paused`
        // is the window's pause key as the line was written, which the run does not decide.)
        for k in ["input", "commands", "paused"] {
            state.as_object_mut().expect("an object").remove(k);
        }
        for (path, changed) in changed_leaves(&state) {
            let mut line = line.clone();
            for (k, v) in changed.as_object().expect("an object") {
                line[k.as_str()] = v.clone();
            }
            let mut bad = Vec::new();
            for (i, l) in all.iter().enumerate() {
                if i + 1 == n {
                    bad.extend_from_slice(line.to_string().as_bytes());
                    bad.push(b'\n');
                } else {
                    bad.extend_from_slice(l);
                }
            }
            let e = replay(&bad, &data).expect_err(&format!("line {n}: {path} changed"));
            assert!(
                e.starts_with(&format!("rec.jsonl: line {n}: ")) && !e.contains('\n'),
                "line {n}, {path}: {e}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} values changed");
    // The inputs and commands: a key direction, a crowd size, a mode name, a slider's path.
    for (from, to) in [
        (r#""input":[1.0,-1.0]"#, r#""input":[0.0,-1.0]"#),
        (r#"{"agents":7}"#, r#"{"agents":8}"#),
        (r#"{"mode":"intercept"}"#, r#"{"mode":"interceptx"}"#),
        (r#""player.max_speed""#, r#""player.top_speed""#),
    ] {
        let text = String::from_utf8_lossy(&record);
        let at = text.find(from).expect("the record has it");
        let n = text[..at].matches('\n').count() + 1;
        let bad = text.replacen(from, to, 1);
        let e = replay(bad.as_bytes(), &data).expect_err(to);
        assert!(
            e.starts_with(&format!("rec.jsonl: line {n}: ")),
            "{to}: {e}"
        );
    }
}

#[test]
fn a_header_from_another_run_version_or_data_is_an_error_naming_line_1() {
    let data = data();
    let record = commanded_record(&data);
    let text = String::from_utf8_lossy(&record).into_owned();
    let header = text.lines().next().expect("a header");
    for (from, to, says) in [
        (r#""seed":7"#, r#""seed":8"#, "line 2: "),
        (r#""mode":"tile-chase""#, r#""mode":"tile-los""#, "line 2: "),
        (r#""agents":4"#, r#""agents":5"#, "line 2: "),
        (
            r#""version":""#,
            r#""version":"9."#,
            "line 1: made by steering-arena 9.",
        ),
        (
            r#""record":"steering-arena""#,
            r#""record":"other""#,
            "line 1: not a steering-arena record",
        ),
        (
            r#""arena.json":""#,
            r#""arena.json":"1"#,
            "line 1: data.\"arena.json\": made with another arena.json",
        ),
        (r#""seed":7"#, r#""seed":-7"#, "line 1: seed: "),
    ] {
        assert!(header.contains(from), "the header has {from}");
        let bad = text.replacen(from, to, 1);
        let e = replay(bad.as_bytes(), &data).expect_err(to);
        assert!(
            e.starts_with(&format!("rec.jsonl: {says}")) && !e.contains('\n'),
            "{to}: {e}"
        );
    }
}

#[test]
fn a_flock_grown_past_a_files_longest_side_replays_to_the_same_bytes() {
    // A file 16,384 px wide, as wide as a file may be: 1,000 boids grow it 1.4 times over, as
    // the header's mode, count and arena hash say again on replay.
    let dir = scratch::folder("grown-past-a-file");
    let wide = r#"{"width":16384,"height":1024,"tile_size":32,
        "obstacles":[{"shape":"circle","x":8000,"y":500,"radius":60}],
        "spawns":[[100,100]],"player_start":[8192,512]}"#;
    scratch::write(&dir, "wide.json", wide);
    let made = bin::run_in(
        &dir,
        [
            "sim",
            "--mode",
            "flock",
            "--agents",
            "1000",
            "--arena",
            "wide.json",
            "--player",
            "still",
            "--seconds",
            "1",
            "--record",
            "a.jsonl",
        ],
    );
    assert_eq!(made.status.code(), Some(0), "{}", bin::stderr(&made));
    let again = bin::run_in(
        &dir,
        [
            "sim",
            "--arena",
            "wide.json",
            "--replay",
            "a.jsonl",
            "--record",
            "b.jsonl",
        ],
    );
    assert_eq!(again.status.code(), Some(0), "{}", bin::stderr(&again));
    let a = std::fs::read(dir.join("a.jsonl")).expect("the record");
    let b = std::fs::read(dir.join("b.jsonl")).expect("the replay's record");
    assert!(a == b, "the replay's record differs");
    let last: Value = serde_json::from_slice(lines(&a).last().expect("a line")).expect("JSON");
    let xs: Vec<f64> = last["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| a["x"].as_f64().expect("x"))
        .collect();
    let farthest = xs.iter().copied().fold(0.0, f64::max);
    assert!(
        (16_384.0..23_000.0).contains(&farthest),
        "the farthest boid at x = {farthest}"
    );
}

#[test]
fn another_arena_or_a_data_file_as_the_record_exits_2_naming_line_1() {
    let dir = scratch::folder("other-arena");
    let arena =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/arena.json"))
            .expect("the arena asset");
    let mut other: Value = serde_json::from_str(&arena).expect("JSON");
    other["obstacles"].as_array_mut().expect("obstacles").pop();
    let mut f = std::fs::File::create(dir.join("other.json")).expect("write");
    writeln!(f, "{other}").expect("write");
    let made = bin::run_in(
        &dir,
        [
            "sim",
            "--arena",
            "other.json",
            "--seconds",
            "1",
            "--record",
            "rec.jsonl",
        ],
    );
    assert_eq!(made.status.code(), Some(0));
    // With the built-in arena: refused, naming the arena.
    let o = bin::run_in(&dir, ["sim", "--replay", "rec.jsonl"]);
    let e = one_line_error(&o, "another arena");
    assert!(
        e.starts_with("rec.jsonl: line 1: data.\"arena.json\": made with another arena.json")
            && e.contains("built-in arena.json"),
        "{e}"
    );
    // With the arena it was made with: the same run.
    let o = bin::run_in(
        &dir,
        ["sim", "--arena", "other.json", "--replay", "rec.jsonl"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A data file is not a record; nor is nothing.
    let o = bin::run_in(&dir, ["sim", "--replay", "other.json"]);
    let e = one_line_error(&o, "a data file as the record");
    assert!(e.starts_with("other.json: line 1: "), "{e}");
    std::fs::write(dir.join("empty.jsonl"), "").expect("write");
    let o = bin::run_in(&dir, ["sim", "--replay", "empty.jsonl"]);
    let e = one_line_error(&o, "an empty record");
    assert!(e.starts_with("empty.jsonl: line 1: empty"), "{e}");
    // A cut and a changed value, through the command line.
    let text = std::fs::read_to_string(dir.join("rec.jsonl")).expect("the record");
    std::fs::write(dir.join("cut.jsonl"), &text[..text.len() / 2]).expect("write");
    let line = text[..text.len() / 2].matches('\n').count() + 1;
    let o = bin::run_in(
        &dir,
        ["sim", "--arena", "other.json", "--replay", "cut.jsonl"],
    );
    let e = one_line_error(&o, "a cut record");
    assert!(e.starts_with(&format!("cut.jsonl: line {line}: ")), "{e}");
    let changed = text.replacen(r#""tick":30,"t":0.5"#, r#""tick":30,"t":0.25"#, 1);
    std::fs::write(dir.join("changed.jsonl"), changed).expect("write");
    let o = bin::run_in(
        &dir,
        ["sim", "--arena", "other.json", "--replay", "changed.jsonl"],
    );
    let e = one_line_error(&o, "a changed value");
    assert!(
        e.starts_with("changed.jsonl: line 31: the replayed run differs from the record at t"),
        "{e}"
    );
    // The record is never written over by its own replay.
    let o = bin::run_in(
        &dir,
        ["sim", "--replay", "rec.jsonl", "--record", "./rec.jsonl"],
    );
    let e = one_line_error(&o, "--record naming the record replayed");
    assert!(e.contains("would overwrite"), "{e}");
    assert_eq!(
        std::fs::read_to_string(dir.join("rec.jsonl"))
            .ok()
            .as_deref(),
        Some(&*text)
    );
    // The run is the record's: options that would start another one are refused.
    let o = bin::run_in(&dir, ["sim", "--replay", "rec.jsonl", "--mode", "avoid"]);
    let e = one_line_error(&o, "--mode with --replay");
    assert!(e.contains("--mode"), "{e}");
}

#[test]
fn stepping_back_and_forth_lands_on_the_records_own_lines() {
    let data = data();
    // A long record of every kind at once, with a scripted player (made as `sim` makes it).
    let config = WorldConfig {
        mode: Mode::Mixed,
        script: Script::Circle,
        ..WorldConfig::default()
    };
    let mut out = Vec::new();
    let mut rec = Recorder::new(&mut out);
    headless::run_recorded(&data.data, &data.hashes, config, 20.0, Some(&mut rec))
        .expect("to memory");
    let all = lines(&out);
    let mut r = Replay::open("rec.jsonl", &out, &data).expect("a good record");
    assert_eq!(r.len(), 1200);
    assert!(r.error.is_none());
    let at = |r: &Replay, pos: usize| {
        assert_eq!(r.pos, pos);
        assert!(
            r.shown.as_slice() == all[pos],
            "at step {pos} the replay shows another state than the record's line {}",
            pos + 1
        );
    };
    // Forward one at a time, then jumps both ways across the kept states.
    for pos in 1..=40 {
        assert!(r.seek(pos, 1));
        at(&r, pos);
    }
    for &pos in &[
        1000,
        999,
        SNAPSHOT_EVERY + 1,
        SNAPSHOT_EVERY,
        SNAPSHOT_EVERY - 1,
        1,
        2 * SNAPSHOT_EVERY,
        1200,
        1199,
        650,
        651,
        650,
    ] {
        assert!(r.seek(pos, usize::MAX));
        at(&r, pos);
    }
    // A seek a slice at a time arrives too.
    let mut slices = 0;
    while !r.seek(1100, 64) {
        slices += 1;
    }
    assert_eq!(slices, (1100 - 650) / 64);
    at(&r, 1100);
    assert!(r.seek(0, 1));
    assert!(r.shown.is_empty() && r.world.tick == 0);
    assert!(r.error.is_none());
}
