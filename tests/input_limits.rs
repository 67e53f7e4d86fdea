//! What the program reads cannot break a run: each case is a reproduction of a fault once found
//! by fuzzing records, data files and flags.
//!
//! - an added obstacle that overflows, or lies far outside the arena, is refused by `sim
//!   --replay` and the replay window alike, naming the record line and the command's field path;
//!   an arena already holding the most obstacles a file may hold takes no more;
//! - data files and record lines have size limits (`/dev/zero`, `/dev/urandom`, a padded file),
//!   while the largest legitimate record (20,000 agents) replays;
//! - a message quotes at most a short excerpt of what was read;
//! - `--record` never writes over an input of the same run, whatever path or link names it;
//! - names in any case, negative numbers told the range, and the window refusing a bad data file
//!   with the same line as `sim`.

mod common;

use common::scratch;
use serde_json::Value;
use std::path::Path;
use std::process::{Command as Process, Output};
use steering_arena::data::DataSources;
use steering_arena::sim::command::Command;
use steering_arena::sim::headless;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::replay::{Replay, ReplayData};
use steering_arena::sim::world::{Input, World, WorldConfig};

/// The limits docs/command-line.md states.
const DATA_FILE_LIMIT: usize = 16 << 20;
const RECORD_LINE_LIMIT: usize = 16 << 20;
/// The most bytes an error line may take (400 characters, a few of them three bytes long).
const MESSAGE_BYTES: usize = 600;

/// The binary run in `dir` with no display, so a run that would open the window refuses before
/// it could.
fn run(dir: &Path, args: &[&str]) -> Output {
    Process::new(common::bin::BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run the steering-arena binary")
}

/// Exit 2, nothing on stdout, one short line on stderr; returns the line.
fn one_line_error(o: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{what}: exit code; stderr: {}",
        &err[..err.len().min(2000)]
    );
    assert!(o.stdout.is_empty(), "{what}: printed to stdout");
    assert!(
        err.len() <= MESSAGE_BYTES,
        "{what}: a {}-byte message: {}…",
        err.len(),
        &err[..err.len().min(2000)]
    );
    assert_eq!(
        err.matches('\n').count(),
        1,
        "{what}: not one line: {err:?}"
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    err.trim_end().to_string()
}

fn data() -> ReplayData {
    ReplayData::load(DataSources::resolve(None, None, None)).expect("the assets are valid")
}

/// A record made as the window makes one: the command applied before the first tick, then
/// `ticks` ticks of the `line` script.
fn record_with(data: &ReplayData, mode: Mode, command: Command, ticks: usize) -> Vec<u8> {
    let config = WorldConfig {
        mode,
        script: Script::Line,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data.data, config);
    world.events.push(format!("mode:{}", world.mode.name()));
    let mut out = Vec::new();
    let mut rec = Recorder::new(&mut out);
    rec.header(&world, &data.hashes).expect("to memory");
    world.apply(command);
    for _ in 0..ticks {
        world.tick(&Input::default());
        rec.write(&mut world, false).expect("to memory");
    }
    out
}

fn command_from(json: &str) -> Command {
    serde_json::from_str(json).expect("a command as a record has it")
}

/// The obstacle the fuzzing found: a rectangle from -3e38 to 3e38 each way, whose corners are
/// finite and whose sides are not. (Made by growing a small one, as no record can hold it.)
fn overflowing_rect() -> Command {
    let Command::AddObstacle(small) = command_from(r#"{"add-obstacle":{"rect":[0,0,1,1]}}"#) else {
        panic!("an obstacle");
    };
    Command::AddObstacle(small.inflated(3e38))
}

fn replay(record: &[u8], data: &ReplayData) -> Result<Value, String> {
    headless::replay(
        "rec.jsonl",
        record,
        data,
        None::<&mut Recorder<std::io::Sink>>,
    )
    .map(|s| serde_json::to_value(&s).expect("a summary"))
}

/// The window's replay: open the record and play it to its end; the error it shows, if any.
fn window_replay(record: &[u8], data: &ReplayData) -> Option<String> {
    let mut r = match Replay::open("rec.jsonl", record, data) {
        Ok(r) => r,
        Err(e) => return Some(e.to_string()),
    };
    r.seek(usize::MAX, usize::MAX);
    r.error.map(|e| e.to_string())
}

fn arena_size() -> (f32, f32) {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/arena.json"))
            .expect("assets/arena.json");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    (
        v["width"].as_f64().expect("a width") as f32,
        v["height"].as_f64().expect("a height") as f32,
    )
}

#[test]
fn an_overflowing_obstacle_is_refused_with_its_line_and_field_path_in_every_mode() {
    let data = data();
    let mut accepted = Vec::new();
    let mut non_finite = Vec::new();
    for &mode in Mode::ALL {
        let record = record_with(&data, mode, overflowing_rect(), 30);
        match replay(&record, &data) {
            Ok(summary) => {
                accepted.push(mode.name());
                if summary["non_finite"] == Value::Bool(true) {
                    non_finite.push(mode.name());
                }
            }
            Err(e) => {
                assert_eq!(
                    e,
                    "rec.jsonl: line 2: commands[0].add-obstacle: a coordinate out of range",
                    "{}",
                    mode.name()
                );
                assert_eq!(
                    window_replay(&record, &data).as_deref(),
                    Some(e.as_str()),
                    "{}: the window shows the same error",
                    mode.name()
                );
            }
        }
    }
    assert_eq!(
        non_finite,
        Vec::<&str>::new(),
        "modes whose agents went non-finite"
    );
    assert_eq!(
        accepted,
        Vec::<&str>::new(),
        "modes that replayed the shape"
    );
    assert_eq!(Mode::ALL.len(), 18);
}

#[test]
fn shapes_are_refused_past_the_arena_grown_by_its_size_and_overflowing_ones_at_reading() {
    let data = data();
    let (w, h) = arena_size();
    // Shapes at the far corners of what is allowed (the arena and its size again on each side)
    // run, finite, in every mode.
    let corners = format!(
        r#"{{"add-obstacle":{{"rect":[{},{},{},{}]}}}}"#,
        -w,
        -h,
        -w + 8.0,
        -h + 8.0
    );
    let far = format!(
        r#"{{"add-obstacle":{{"circle":[{},{},8]}}}}"#,
        2.0 * w - 8.0,
        2.0 * h - 8.0
    );
    for &mode in Mode::ALL {
        for command in [&corners, &far] {
            let summary = replay(&record_with(&data, mode, command_from(command), 10), &data)
                .unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
            assert_eq!(summary["non_finite"], Value::Bool(false), "{}", mode.name());
        }
    }
    // The largest allowed, over the whole arena: the agents stay finite.
    let edge = format!(
        r#"{{"add-obstacle":{{"rect":[{},{},{},{}]}}}}"#,
        -w,
        -h,
        2.0 * w,
        2.0 * h
    );
    for &mode in Mode::ALL {
        let summary = replay(&record_with(&data, mode, command_from(&edge), 10), &data)
            .unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        assert_eq!(summary["non_finite"], Value::Bool(false), "{}", mode.name());
    }
    // One pixel further, in each direction and for circles too.
    let beyond = [
        format!(r#"{{"rect":[{},0,10,10]}}"#, -w - 1.0),
        format!(r#"{{"rect":[0,{},10,10]}}"#, -h - 1.0),
        format!(r#"{{"rect":[0,0,{},10]}}"#, 2.0 * w + 1.0),
        format!(r#"{{"rect":[0,0,10,{}]}}"#, 2.0 * h + 1.0),
        format!(r#"{{"circle":[{},100,{}]}}"#, 2.0 * w, 1.0),
        format!(r#"{{"circle":[100,{},2]}}"#, -h),
    ];
    for shape in &beyond {
        let command = format!(r#"{{"add-obstacle":{shape}}}"#);
        let record = record_with(&data, Mode::Avoid, command_from(&command), 2);
        let e = replay(&record, &data).expect_err(&command);
        assert_eq!(window_replay(&record, &data).as_deref(), Some(e.as_str()));
        let field = if shape.contains("rect") {
            "rect"
        } else {
            "circle"
        };
        assert_eq!(
            e,
            format!(
                "rec.jsonl: line 2: commands[0].add-obstacle.{field}: outside the arena grown by its \
                 own size on each side (x from {} to {}, y from {} to {})",
                -w,
                2.0 * w,
                -h,
                2.0 * h
            ),
            "{command}"
        );
    }
    // Finite corners whose width overflows are not even read as a command.
    for command in [
        r#"{"add-obstacle":{"rect":[-3e38,0,3e38,10]}}"#,
        r#"{"add-obstacle":{"circle":[3e38,0,3e38]}}"#,
    ] {
        assert!(
            serde_json::from_str::<Command>(command).is_err(),
            "{command}"
        );
    }
}

#[test]
fn an_arena_holding_the_most_obstacles_takes_no_more_from_a_record() {
    let dir = scratch::folder("obstacle-cap");
    // 10,000 small circles on a 100 x 100 grid, inside a 16,384 px arena.
    let obstacles: Vec<String> = (0..10_000)
        .map(|i| {
            let (x, y) = (100 + (i % 100) * 160, 100 + (i / 100) * 160);
            format!(r#"{{"shape":"circle","x":{x},"y":{y},"radius":4}}"#)
        })
        .collect();
    let arena = format!(
        r#"{{"width":16384,"height":16384,"tile_size":64,"obstacles":[{}],"spawns":[[50,50]],"player_start":[8000,8050],"pickups":[]}}"#,
        obstacles.join(",")
    );
    std::fs::write(dir.join("full.json"), arena).expect("write");
    let made = run(
        &dir,
        &[
            "sim",
            "--arena",
            "full.json",
            "--mode",
            "wander",
            "--agents",
            "2",
            "--seconds",
            "0.05",
            "--record",
            "a.jsonl",
        ],
    );
    assert_eq!(
        made.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let text = std::fs::read_to_string(dir.join("a.jsonl")).expect("the record");
    let edited = text.replacen(
        r#""commands":[]"#,
        r#""commands":[{"add-obstacle":{"circle":[60,8000,4]}}]"#,
        1,
    );
    std::fs::write(dir.join("b.jsonl"), edited).expect("write");
    let o = run(
        &dir,
        &["sim", "--replay", "b.jsonl", "--arena", "full.json"],
    );
    assert_eq!(
        one_line_error(&o, "an obstacle past the cap"),
        "b.jsonl: line 2: commands[0].add-obstacle: the arena holds 10000 obstacles already, the \
         most it may hold (10000)"
    );
}

#[test]
fn a_record_line_past_the_limit_is_an_error_naming_the_file_line_and_limit() {
    let dir = scratch::folder("record-lines");
    let made = run(
        &dir,
        &[
            "sim",
            "--mode",
            "avoid",
            "--seconds",
            "0.05",
            "--record",
            "a.jsonl",
        ],
    );
    assert_eq!(made.status.code(), Some(0));
    let text = std::fs::read(dir.join("a.jsonl")).expect("the record");
    let header_end = text.iter().position(|&b| b == b'\n').expect("a header") + 1;
    // Line 2 one byte past the limit, newline included.
    let mut long = text[..header_end].to_vec();
    long.extend(std::iter::repeat_n(b' ', RECORD_LINE_LIMIT));
    long.push(b'\n');
    std::fs::write(dir.join("long.jsonl"), &long).expect("write");
    let o = run(&dir, &["sim", "--replay", "long.jsonl"]);
    assert_eq!(
        one_line_error(&o, "a long line"),
        "long.jsonl: line 2: longer than the limit of 16 MiB a record line may have"
    );
    // The window reads it the same way: the replay ends before that line and says so.
    let data = data();
    let mut r = Replay::open("long.jsonl", &long, &data).expect("the header is good");
    assert_eq!(r.len(), 0);
    assert_eq!(
        r.error.take().map(|e| e.to_string()).as_deref(),
        Some("long.jsonl: line 2: longer than the limit of 16 MiB a record line may have")
    );
    // A device that never ends a line stops at the limit, never holding more.
    let o = run(&dir, &["sim", "--replay", "/dev/zero"]);
    assert_eq!(
        one_line_error(&o, "/dev/zero"),
        "/dev/zero: line 1: longer than the limit of 16 MiB a record line may have"
    );
}

#[test]
fn the_largest_legitimate_records_replay_within_the_limit() {
    let dir = scratch::folder("large-records");
    for mode in ["fsm", "mixed"] {
        let made = run(
            &dir,
            &[
                "sim",
                "--mode",
                mode,
                "--agents",
                "20000",
                "--seconds",
                "0.05",
                "--record",
                "a.jsonl",
            ],
        );
        assert_eq!(made.status.code(), Some(0), "{mode}");
        let text = std::fs::read(dir.join("a.jsonl")).expect("the record");
        let longest = text
            .split(|&b| b == b'\n')
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0);
        assert!(longest > 1 << 20, "{mode}: a line of {longest} bytes");
        assert!(
            longest * 4 < RECORD_LINE_LIMIT,
            "{mode}: a line of {longest} bytes"
        );
        let again = run(&dir, &["sim", "--replay", "a.jsonl"]);
        assert_eq!(
            again.status.code(),
            Some(0),
            "{mode}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
    }
}

#[test]
fn a_data_file_past_the_limit_is_an_error_naming_the_file_and_limit() {
    let dir = scratch::folder("data-files");
    let arena = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/arena.json"))
        .expect("assets/arena.json");
    // The arena padded with spaces to the limit is read; one byte more is not.
    let mut padded = arena.clone();
    padded.resize(DATA_FILE_LIMIT, b' ');
    std::fs::write(dir.join("at.json"), &padded).expect("write");
    padded.push(b' ');
    std::fs::write(dir.join("past.json"), &padded).expect("write");
    let o = run(&dir, &["sim", "--arena", "at.json", "--seconds", "0.05"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&dir, &["sim", "--arena", "past.json", "--seconds", "0.05"]);
    assert_eq!(
        one_line_error(&o, "a padded arena"),
        "past.json: larger than the limit of 16 MiB"
    );
    for (flag, device) in [("--fsm", "/dev/urandom"), ("--tuning", "/dev/zero")] {
        let o = run(&dir, &["sim", flag, device, "--seconds", "0.05"]);
        assert_eq!(
            one_line_error(&o, device),
            format!("{device}: larger than the limit of 16 MiB")
        );
    }
}

#[test]
fn messages_quote_a_short_excerpt_of_what_was_read() {
    let dir = scratch::folder("excerpts");
    let made = run(
        &dir,
        &[
            "sim",
            "--mode",
            "avoid",
            "--seconds",
            "0.05",
            "--record",
            "a.jsonl",
        ],
    );
    assert_eq!(made.status.code(), Some(0));
    let text = std::fs::read_to_string(dir.join("a.jsonl")).expect("the record");
    let big = "A".repeat(6 << 20);
    // A 6 MB script name, a 6 MB event the run does not write, and a 6 MB arena value.
    let named = text.replacen(r#""input":"still""#, &format!(r#""input":"{big}""#), 1);
    let evented = text.replacen(
        r#""events":["mode:avoid"]"#,
        &format!(r#""events":["{big}"]"#),
        1,
    );
    std::fs::write(dir.join("named.jsonl"), &named).expect("write");
    std::fs::write(dir.join("evented.jsonl"), &evented).expect("write");
    std::fs::write(dir.join("arena.json"), format!(r#"{{"width":"{big}"}}"#)).expect("write");
    let e = one_line_error(
        &run(&dir, &["sim", "--replay", "named.jsonl"]),
        "a long script name",
    );
    assert!(e.starts_with("named.jsonl: line 2: "), "{e}");
    let e = one_line_error(
        &run(&dir, &["sim", "--replay", "evented.jsonl"]),
        "a long event",
    );
    assert!(
        e.starts_with(
            "evented.jsonl: line 2: the replayed run differs from the record at events[0]"
        ),
        "{e}"
    );
    let e = one_line_error(
        &run(&dir, &["sim", "--arena", "arena.json"]),
        "a long value",
    );
    assert!(e.starts_with("arena.json: width: "), "{e}");
    // The window's replay holds the same short message.
    let data = data();
    let shown = window_replay(named.as_bytes(), &data).expect("an error");
    assert!(shown.len() <= MESSAGE_BYTES, "{} bytes", shown.len());
}

#[test]
fn record_never_overwrites_an_input_of_the_same_run() {
    let dir = scratch::folder("same-file");
    let made = run(
        &dir,
        &[
            "sim",
            "--mode",
            "avoid",
            "--seconds",
            "0.1",
            "--record",
            "a.jsonl",
        ],
    );
    assert_eq!(made.status.code(), Some(0));
    let record = std::fs::read(dir.join("a.jsonl")).expect("the record");
    std::fs::hard_link(dir.join("a.jsonl"), dir.join("b.jsonl")).expect("a hard link");
    let o = run(&dir, &["sim", "--replay", "a.jsonl", "--record", "b.jsonl"]);
    assert_eq!(
        one_line_error(&o, "a hard link to the record"),
        "b.jsonl: --record would overwrite the record being replayed"
    );
    let o = run(&dir, &["replay", "a.jsonl", "--record", "b.jsonl"]);
    assert_eq!(
        one_line_error(&o, "the window, a hard link to the record"),
        "b.jsonl: --record would overwrite the record being replayed"
    );
    assert!(std::fs::read(dir.join("a.jsonl")).expect("the record") == record);

    let arena = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/arena.json"))
        .expect("assets/arena.json");
    std::fs::write(dir.join("X.json"), &arena).expect("write");
    std::fs::hard_link(dir.join("X.json"), dir.join("Y.json")).expect("a hard link");
    for (args, line) in [
        (
            &["sim", "--arena", "X.json", "--record", "X.json"][..],
            "X.json: --record would overwrite X.json, a data file this run reads",
        ),
        (
            &["sim", "--arena", "X.json", "--record", "./Y.json"],
            "./Y.json: --record would overwrite X.json, a data file this run reads",
        ),
        (
            &["sim", "--fsm", "X.json", "--record", "Y.json"],
            "Y.json: --record would overwrite X.json, a data file this run reads",
        ),
        (
            &["--arena", "X.json", "--record", "X.json"],
            "X.json: --record would overwrite X.json, a data file this run reads",
        ),
    ] {
        let o = run(&dir, args);
        assert_eq!(one_line_error(&o, &args.join(" ")), line);
        assert!(std::fs::read(dir.join("X.json")).expect("the arena") == arena);
    }
    // The data files found in assets/ are inputs too.
    std::fs::create_dir_all(dir.join("assets")).expect("assets/");
    std::fs::write(dir.join("assets/tuning.json"), b"{}").expect("write");
    let o = run(&dir, &["sim", "--record", "assets/tuning.json"]);
    assert!(one_line_error(&o, "assets/tuning.json").contains("--record would overwrite"));
    assert_eq!(
        std::fs::read(dir.join("assets/tuning.json")).expect("tuning"),
        b"{}"
    );
}

#[test]
fn names_in_any_case_and_negative_numbers_told_the_range() {
    let dir = scratch::folder("arguments");
    let o = run(
        &dir,
        &[
            "sim",
            "--mode",
            "Flock",
            "--player",
            "HUNT",
            "--algorithm",
            "Dijkstra",
            "--seconds",
            "0.05",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary: Value = serde_json::from_slice(&o.stdout).expect("a summary");
    assert_eq!(summary["mode"], "flock");
    assert_eq!(summary["player"], "hunt");
    let o = run(
        &dir,
        &[
            "sim",
            "--mode",
            "PathFind",
            "--algorithm",
            "BEST-FIRST",
            "--seconds",
            "0.05",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (args, range) in [
        (
            &["sim", "--agents", "-5"][..],
            "--agents <N>': out of range (allowed: at least 0, at most 20000 agents)",
        ),
        (
            &["--agents", "-5"],
            "--agents <N>': out of range (allowed: at least 0, at most 20000 agents)",
        ),
        (
            &["sim", "--seed", "-1"],
            "--seed <N>': out of range (allowed: at least 0, at most 18446744073709551615)",
        ),
        (
            &["sim", "--seconds", "-3"],
            "--seconds <S>': out of range (allowed: more than 0, at most 86400 seconds)",
        ),
        (
            &["--quit-after", "-1"],
            "--quit-after <S>': out of range (allowed: more than 0, at most 86400 seconds)",
        ),
        (
            &["bench", "--rounds", "-2"],
            "--rounds <R>': out of range (allowed: at least 1, at most 25 rounds)",
        ),
        (
            &["bench", "--obstacles", "-2"],
            "--obstacles <K>': out of range (allowed: at least 0, at most 10000 obstacles)",
        ),
        (
            &["sim", "--agents", "x"],
            "--agents <N>': not a whole number (allowed: at least 0, at most 20000 agents)",
        ),
    ] {
        let e = one_line_error(&run(&dir, args), &args.join(" "));
        assert!(e.ends_with(range), "{}: {e}", args.join(" "));
        assert!(!e.contains("unexpected argument"), "{e}");
    }
}

#[test]
fn the_window_refuses_a_bad_data_file_with_the_line_sim_gives() {
    let dir = scratch::folder("window-data");
    std::fs::write(dir.join("bad.json"), r#"{"width":-4}"#).expect("write");
    for flag in ["--arena", "--tuning", "--patterns", "--fsm"] {
        let sim = one_line_error(&run(&dir, &["sim", flag, "bad.json"]), flag);
        let window = one_line_error(&run(&dir, &[flag, "bad.json"]), flag);
        assert_eq!(window, sim, "{flag}");
        assert!(window.starts_with("bad.json: "), "{window}");
        let replay = one_line_error(
            &run(&dir, &["replay", "none.jsonl", flag, "bad.json"]),
            flag,
        );
        assert_eq!(replay, sim, "replay {flag}");
    }
}
