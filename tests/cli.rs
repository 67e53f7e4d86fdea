//! The command line, run as the built binary: the `sim` summary and its fields, determinism of the
//! summary and the record, exit codes and one-line messages for bad data files and bad arguments.
//!
//! Every run uses a fresh scratch directory as its working directory, so no `assets/` folder is
//! found and the built-in data is used unless a test puts one there or passes a file.

mod common;

use common::bin::{run_in, stderr, stdout};
use common::scratch;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// SPEC §2's summary fields, in the SPEC's order.
const SUMMARY_KEYS: [&str; 21] = [
    "mode",
    "seed",
    "agents",
    "player",
    "seconds",
    "dt",
    "ticks",
    "catches",
    "first_catch_s",
    "tags",
    "mean_distance_to_player",
    "min_obstacle_clearance",
    "obstacle_overlaps",
    "out_of_bounds",
    "stuck_agents",
    "max_speed",
    "max_turn_rate_deg_s",
    "max_step_ratio",
    "non_finite",
    "tick_ms",
    "extra",
];

/// Runs `sim` with `args`, expects success, and returns the single line it printed.
fn sim(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    let o = run_in(dir, &all);
    assert_eq!(
        o.status.code(),
        Some(0),
        "sim {args:?} failed: {}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(out.ends_with('\n'), "no final newline: {out:?}");
    assert_eq!(
        out.matches('\n').count(),
        1,
        "not exactly one line: {out:?}"
    );
    out.trim_end().to_string()
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// Expects exit code 2, nothing on stdout, and exactly one non-empty line on stderr; returns it.
fn expect_usage_error(o: &Output, what: &str) -> String {
    assert_eq!(
        o.status.code(),
        Some(2),
        "{what}: exit code; stderr: {}",
        stderr(o)
    );
    assert!(
        o.stdout.is_empty(),
        "{what}: printed to stdout: {}",
        stdout(o)
    );
    let err = stderr(o);
    assert!(err.ends_with('\n'), "{what}: stderr {err:?}");
    assert_eq!(
        err.matches('\n').count(),
        1,
        "{what}: not one line: {err:?}"
    );
    let line = err.trim_end().to_string();
    assert!(!line.trim().is_empty(), "{what}: empty message");
    line
}

/// The keys of the outermost JSON object in `text`, in the order written.
fn object_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0;
    let mut expect_key = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' | '[' => {
                depth += 1;
                expect_key = depth == 1 && c == '{';
            }
            '}' | ']' => depth -= 1,
            ',' if depth == 1 => expect_key = true,
            '"' => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            s.push(c);
                            s.extend(chars.next());
                        }
                        '"' => break,
                        _ => s.push(c),
                    }
                }
                if depth == 1 && expect_key {
                    keys.push(s);
                    expect_key = false;
                }
            }
            _ => {}
        }
    }
    keys
}

/// The summary line with its `tick_ms` object (the one wall-clock field) cut out.
fn without_tick_ms(line: &str) -> String {
    let start = line.find("\"tick_ms\":{").expect("has tick_ms");
    let end = start + line[start..].find('}').expect("tick_ms closes") + 1;
    format!("{}{}", &line[..start], &line[end..])
}

fn manifest_file(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

// --- the summary ------------------------------------------------------------------------------

#[test]
fn sim_prints_one_json_object_with_every_spec_field_in_order() {
    let dir = scratch::folder("fields");
    let line = sim(&dir, &["--mode", "los-chase", "--player", "still"]);
    assert_eq!(object_keys(&line), SUMMARY_KEYS, "{line}");
    let tick_ms = &line[line.find("\"tick_ms\":").expect("tick_ms") + "\"tick_ms\":".len()..];
    assert_eq!(object_keys(tick_ms), ["mean", "p99", "max"], "{line}");

    let s = parse(&line);
    assert_eq!(s["mode"], "los-chase");
    assert_eq!(s["seed"], 1);
    assert_eq!(s["agents"], 4);
    assert_eq!(s["player"], "still");
    assert_eq!(s["seconds"].as_f64(), Some(30.0));
    let dt = s["dt"].as_f64().expect("dt is a number");
    assert!((dt - 1.0 / 60.0).abs() < 1e-6, "dt {dt}");
    for key in [
        "ticks",
        "catches",
        "tags",
        "obstacle_overlaps",
        "out_of_bounds",
        "stuck_agents",
    ] {
        assert!(s[key].is_u64(), "{key} is not a count: {}", s[key]);
    }
    for key in [
        "mean_distance_to_player",
        "min_obstacle_clearance",
        "max_speed",
        "max_turn_rate_deg_s",
        "max_step_ratio",
    ] {
        assert!(
            s[key].is_f64() || s[key].is_u64(),
            "{key} is not a number: {}",
            s[key]
        );
    }
    assert!(s["first_catch_s"].is_number() || s["first_catch_s"].is_null());
    assert_eq!(s["non_finite"], false);
    assert!(s["tick_ms"]["mean"].as_f64().is_some_and(|v| v >= 0.0));
    assert!(s["tick_ms"]["p99"].as_f64().is_some_and(|v| v >= 0.0));
    assert!(s["extra"].is_object());
}

#[test]
fn sim_los_chase_catches_a_still_player() {
    // Seed 1, built-in data: the player stands at the centre (640, 384); the four chasers start
    // within 40 px (per axis) of the spawns (64,64), (640,48), (1216,64), (48,384). Measured:
    // first catch at 5.5 s (5.0–6.35 s over seeds 1–10), 9 catches in 30 s.
    //
    // Upper bound: the corner chaser at (64,64) is at most |(576,320)| + 40·√2 = 716 px away and
    // must close to the catch reach 12 + 10 = 22 px: 694 px at 160 px/s is 4.3 s, plus 1 s lost
    // getting up to speed (the lag m·s of seek from rest with max_force ≥ max_speed, i.e. m
    // seconds), plus sliding round the 48 px circle at (320,224) on its way, about half of its
    // 58 px-radius rim at full speed, 1.1 s: 6.5 s. Allow 8 s.
    // Lower bound: no chaser starts closer than 336 − 57 = 279 px, so no catch can come before
    // (279 − 22) / 160 = 1.6 s; an earlier one would mean a teleport.
    let dir = scratch::folder("catches");
    let s = parse(&sim(&dir, &["--mode", "los-chase", "--player", "still"]));
    let catches = s["catches"].as_u64().expect("catches");
    assert!(catches >= 1, "no catch: {s}");
    let first = s["first_catch_s"].as_f64().expect("a first catch time");
    assert!((1.5..=8.0).contains(&first), "first catch at {first} s");
    assert_eq!(s["tags"], 0);
    // A chaser that has caught respawns far away and comes back: more than one catch in 30 s.
    assert!(catches >= 2, "only {catches} catches in 30 s");
    // Nothing teleports, leaves the arena, overlaps an obstacle or outruns its max speed.
    assert_eq!(s["out_of_bounds"], 0);
    assert_eq!(s["obstacle_overlaps"], 0);
    assert_eq!(s["non_finite"], false);
    let max_speed = s["max_speed"].as_f64().expect("max_speed");
    assert!(
        max_speed > 100.0 && max_speed <= 160.0 + 1e-3,
        "max_speed {max_speed}"
    );
    let ratio = s["max_step_ratio"].as_f64().expect("max_step_ratio");
    assert!(ratio > 0.5 && ratio <= 1.0 + 1e-3, "max_step_ratio {ratio}");
    let clearance = s["min_obstacle_clearance"].as_f64().expect("clearance");
    assert!(clearance >= 0.0, "clearance {clearance}");
}

#[test]
fn sim_runs_sixty_ticks_per_simulated_second() {
    let dir = scratch::folder("ticks");
    let s = parse(&sim(&dir, &["--mode", "los-chase", "--player", "still"]));
    assert_eq!(s["ticks"], 1800, "default 30 s");
    let s = parse(&sim(&dir, &["--mode", "los-chase", "--seconds", "30"]));
    assert_eq!(s["ticks"], 1800);
    assert_eq!(s["seconds"].as_f64(), Some(30.0));
    let s = parse(&sim(&dir, &["--seconds", "2.5"]));
    assert_eq!(s["ticks"], 150);
    let s = parse(&sim(&dir, &["--seconds", "0.5"]));
    assert_eq!(s["ticks"], 30);
}

#[test]
fn the_mode_digit_and_name_run_the_same_simulation() {
    let dir = scratch::folder("digit");
    let by_name = sim(&dir, &["--mode", "los-chase", "--player", "line"]);
    let by_digit = sim(&dir, &["--mode", "3", "--player", "line"]);
    assert_eq!(without_tick_ms(&by_name), without_tick_ms(&by_digit));
    assert_eq!(parse(&by_digit)["mode"], "los-chase");
}

#[test]
fn the_same_command_twice_gives_identical_records_and_summaries() {
    let dir = scratch::folder("determinism");
    let args = |record: &'static str| {
        [
            "--mode",
            "los-chase",
            "--player",
            "zigzag",
            "--seed",
            "7",
            "--agents",
            "6",
            "--seconds",
            "20",
            "--record",
            record,
        ]
    };
    let first = sim(&dir, &args("a.jsonl"));
    let second = sim(&dir, &args("b.jsonl"));
    assert_eq!(without_tick_ms(&first), without_tick_ms(&second));
    let a = std::fs::read(dir.join("a.jsonl")).expect("first record");
    let b = std::fs::read(dir.join("b.jsonl")).expect("second record");
    assert!(!a.is_empty());
    assert!(a == b, "the two records differ");
    // A different seed really is a different run (so the equality above means something).
    let other = sim(
        &dir,
        &[
            "--mode",
            "los-chase",
            "--player",
            "zigzag",
            "--seed",
            "8",
            "--agents",
            "6",
            "--seconds",
            "20",
        ],
    );
    assert_ne!(without_tick_ms(&first), without_tick_ms(&other));
}

#[test]
fn the_record_has_one_line_per_tick_with_the_catches() {
    let dir = scratch::folder("record");
    let s = parse(&sim(
        &dir,
        &[
            "--mode",
            "los-chase",
            "--player",
            "still",
            "--record",
            "run.jsonl",
        ],
    ));
    let text = std::fs::read_to_string(dir.join("run.jsonl")).expect("record written");
    // The header first (what the run started from), then a line a tick.
    let header = parse(text.lines().next().expect("a header line"));
    assert_eq!(header["record"], "steering-arena");
    assert_eq!(header["mode"], "los-chase");
    assert_eq!(header["agents"], 4);
    let lines: Vec<Value> = text.lines().skip(1).map(parse).collect();
    assert_eq!(lines.len(), 1800);
    let mut catch_events = 0;
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["tick"], i as u64 + 1);
        assert_eq!(l["mode"], "los-chase");
        assert_eq!(l["paused"], false);
        let t = l["t"].as_f64().expect("t");
        assert!((t - (i + 1) as f64 / 60.0).abs() < 1e-9, "line {i}: t {t}");
        assert_eq!(l["player"]["x"].as_f64(), Some(640.0));
        assert_eq!(l["player"]["y"].as_f64(), Some(384.0));
        let agents = l["agents"].as_array().expect("agents");
        assert_eq!(agents.len(), 4);
        for a in agents {
            for k in ["x", "y", "vx", "vy"] {
                assert!(a[k].is_number(), "line {i}: {k} = {}", a[k]);
            }
            assert_eq!(a["kind"], "los-chase");
            assert!(a["state"].is_string());
        }
        for e in l["events"].as_array().expect("events") {
            if e.as_str().is_some_and(|e| e.starts_with("catch:")) {
                catch_events += 1;
            }
        }
    }
    assert_eq!(lines[0]["events"][0], "mode:los-chase");
    assert_eq!(catch_events, s["catches"].as_u64().expect("catches"));
}

#[test]
fn explicit_asset_files_give_the_same_run_as_the_built_in_copies() {
    let dir = scratch::folder("explicit-assets");
    let built_in = sim(&dir, &["--mode", "los-chase", "--player", "circle"]);
    let arena = manifest_file("assets/arena.json");
    let tuning = manifest_file("assets/tuning.json");
    let explicit = sim(
        &dir,
        &[
            "--mode",
            "los-chase",
            "--player",
            "circle",
            "--arena",
            &arena,
            "--tuning",
            &tuning,
        ],
    );
    assert_eq!(without_tick_ms(&built_in), without_tick_ms(&explicit));
}

#[test]
fn an_assets_folder_in_the_working_directory_is_used() {
    let dir = scratch::folder("assets-folder");
    std::fs::create_dir_all(dir.join("assets")).expect("mkdir assets");
    let mut tuning: Value = serde_json::from_str(
        &std::fs::read_to_string(manifest_file("assets/tuning.json")).expect("read"),
    )
    .expect("tuning is JSON");
    tuning["chaser"]["max_speed"] = 40.0.into();
    std::fs::write(dir.join("assets/tuning.json"), tuning.to_string()).expect("write");
    let s = parse(&sim(&dir, &["--mode", "los-chase", "--player", "still"]));
    let max_speed = s["max_speed"].as_f64().expect("max_speed");
    assert!(
        max_speed > 30.0 && max_speed <= 40.0 + 1e-3,
        "max_speed {max_speed}"
    );
}

#[test]
fn evade_flip_against_a_hunting_player_gets_tagged_and_never_catches() {
    // Reversed, the chasers flee; the player runs at the nearest one (at 200 px/s against their
    // 160) and tags it. Measured with seed 1: 19 tags in 60 s.
    let dir = scratch::folder("evade-flip");
    let s = parse(&sim(
        &dir,
        &[
            "--mode",
            "los-chase",
            "--evade-flip",
            "--player",
            "hunt",
            "--seconds",
            "60",
        ],
    ));
    assert_eq!(s["ticks"], 3600);
    assert_eq!(s["catches"], 0, "{s}");
    assert!(s["first_catch_s"].is_null(), "{s}");
    let tags = s["tags"].as_u64().expect("tags");
    assert!(tags > 0, "no tags: {s}");
    assert_eq!(s["out_of_bounds"], 0);
    assert_eq!(s["non_finite"], false);
}

// --- bad data files ---------------------------------------------------------------------------

#[test]
fn an_arena_file_with_a_syntax_error_exits_2_naming_file_line_and_column() {
    let dir = scratch::folder("syntax-error");
    std::fs::write(
        dir.join("bad.json"),
        "{\n  \"width\": 1280,\n  \"height\": 768 x\n}\n",
    )
    .expect("write");
    let o = run_in(&dir, ["sim", "--arena", "bad.json"]);
    let line = expect_usage_error(&o, "syntax error");
    assert!(line.starts_with("bad.json: "), "{line}");
    assert!(line.contains("line 3 column 17"), "{line}");
}

#[test]
fn an_arena_file_with_an_invalid_value_exits_2_naming_file_and_field() {
    let dir = scratch::folder("invalid-value");
    let mut arena: Value = serde_json::from_str(
        &std::fs::read_to_string(manifest_file("assets/arena.json")).expect("read"),
    )
    .expect("arena is JSON");
    arena["obstacles"][1]["radius"] = (-3.0).into();
    let path = dir.join("neg.json");
    std::fs::write(&path, arena.to_string()).expect("write");
    let path = path.display().to_string();
    let o = run_in(&dir, ["sim", "--arena", &path]);
    let line = expect_usage_error(&o, "invalid value");
    assert!(
        line.starts_with(&format!("{path}: obstacles[1].radius: ")),
        "{line}"
    );
}

#[test]
fn a_tuning_file_with_an_invalid_value_exits_2_naming_file_and_field() {
    let dir = scratch::folder("invalid-tuning");
    let mut tuning: Value = serde_json::from_str(
        &std::fs::read_to_string(manifest_file("assets/tuning.json")).expect("read"),
    )
    .expect("tuning is JSON");
    tuning["player"]["max_speed"] = 0.into();
    std::fs::write(dir.join("t.json"), tuning.to_string()).expect("write");
    let o = run_in(&dir, ["sim", "--tuning", "t.json"]);
    let line = expect_usage_error(&o, "invalid tuning");
    assert!(line.starts_with("t.json: player.max_speed: "), "{line}");
}

#[test]
fn a_bad_file_in_the_assets_folder_exits_2_naming_it() {
    let dir = scratch::folder("bad-assets-folder");
    std::fs::create_dir_all(dir.join("assets")).expect("mkdir assets");
    std::fs::write(dir.join("assets/arena.json"), "{ \"width\": }").expect("write");
    let o = run_in(&dir, ["sim"]);
    let line = expect_usage_error(&o, "bad assets/arena.json");
    assert!(
        line.starts_with("assets/arena.json: line 1 column 12"),
        "{line}"
    );
}

#[test]
fn a_missing_data_file_or_a_directory_exits_2_with_one_line() {
    let dir = scratch::folder("missing-file");
    std::fs::create_dir_all(dir.join("adir")).expect("mkdir");
    for (flag, path) in [
        ("--arena", "nope.json"),
        ("--tuning", "nope.json"),
        ("--arena", "adir"),
    ] {
        let o = run_in(&dir, ["sim", flag, path]);
        let line = expect_usage_error(&o, &format!("{flag} {path}"));
        assert!(line.starts_with(&format!("{path}: ")), "{line}");
    }
}

#[test]
fn an_unwritable_record_file_exits_2_with_one_line() {
    let dir = scratch::folder("bad-record");
    let o = run_in(&dir, ["sim", "--record", "no/such/dir/run.jsonl"]);
    let line = expect_usage_error(&o, "unwritable record");
    assert!(line.contains("no/such/dir/run.jsonl"), "{line}");
}

// --- bad arguments ----------------------------------------------------------------------------

#[test]
fn bad_arguments_exit_2_with_one_line_on_stderr() {
    let dir = scratch::folder("bad-args");
    for (args, mentions) in [
        (&["sim", "--seed", "abc"][..], "--seed"),
        (&["sim", "--seed", "-1"][..], "-1"),
        (&["sim", "--mode", "nope"][..], "nope"),
        (&["sim", "--mode", "42"][..], "42"),
        (&["sim", "--seconds", "0"][..], "--seconds"),
        (&["sim", "--seconds", "-5"][..], "-5"),
        (&["sim", "--seconds", "nan"][..], "--seconds"),
        (&["sim", "--seconds", "inf"][..], "--seconds"),
        (&["sim", "--player", "nope"][..], "nope"),
        (&["sim", "--agents", "999999999"][..], "--agents"),
        (&["sim", "--agents", "-1"][..], "-1"),
        (&["sim", "--bogus"][..], "--bogus"),
        (&["sim", "--seconds"][..], "--seconds"),
        (&["nosuchcommand"][..], "nosuchcommand"),
    ] {
        let o = run_in(&dir, args);
        let line = expect_usage_error(&o, &format!("{args:?}"));
        assert!(line.contains(mentions), "{args:?}: {line}");
    }
}

#[test]
fn help_exits_0_and_lists_the_sim_command() {
    let dir = scratch::folder("help");
    for args in [&["--help"][..], &["sim", "--help"][..]] {
        let o = run_in(&dir, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("Usage"), "{out}");
        assert!(out.contains("--mode") && out.contains("--seed"), "{out}");
    }
    let out = stdout(&run_in(&dir, ["--help"]));
    assert!(out.contains("sim"), "{out}");
    let out = stdout(&run_in(&dir, ["sim", "--help"]));
    assert!(out.contains("--seconds"), "{out}");
}
