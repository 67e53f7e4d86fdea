//! The command line given wrong values: every flag of `sim`, `bench` and the window with
//! non-numbers, negatives, zero, absurdly large numbers, unknown mode and script names, and a
//! directory or a missing file where a data file goes. Each must exit 2 with exactly one line on
//! stderr, nothing on stdout, and no panic.
//!
//! The window's bad arguments must fail before a window opens, so these runs have no display
//! (`DISPLAY` and `WAYLAND_DISPLAY` removed): a run that got as far as opening a window would
//! fail differently. Every run has a deadline, so a value wrongly accepted cannot hang the test.

mod common;

use common::bin::BIN;
use common::scratch;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A bad argument fails at once; this only stops a run that wrongly got going.
const DEADLINE: Duration = Duration::from_secs(30);

/// How a run ended.
struct Ended {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
}

/// Run the binary in `dir` (a scratch folder, so no `assets/` folder is found) without a
/// display, killing it at the deadline.
fn run(dir: &Path, args: &[OsString]) -> Ended {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the steering-arena binary");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut stdout);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    Ended {
        status,
        stdout,
        stderr,
    }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Why a run is not the expected usage error (exit 2, one line on stderr, nothing on stdout, no
/// panic), or `None` when it is.
fn usage_error_problem(e: &Ended) -> Option<String> {
    let problem = if e.status.is_none() {
        "still running at the deadline".to_string()
    } else if e.stderr.contains("panicked") {
        "panicked".to_string()
    } else if e.status.and_then(|s| s.code()) != Some(2) {
        format!("exit status {:?}", e.status)
    } else if !e.stdout.is_empty() {
        "printed to stdout".to_string()
    } else if e.stderr.trim().is_empty() {
        "said nothing on stderr".to_string()
    } else if !e.stderr.ends_with('\n') || e.stderr.matches('\n').count() != 1 {
        "not one line on stderr".to_string()
    } else {
        return None;
    };
    Some(format!(
        "{problem}; stderr {:?}; stdout {:?}",
        first_chars(&e.stderr, 600),
        first_chars(&e.stdout, 200)
    ))
}

fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Run every argument list and collect the ones that are not a clean usage error; the one line
/// must also contain `mentions` (what was wrong).
fn expect_usage_errors(dir: &Path, cases: &[(Vec<OsString>, String)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (args, mentions) in cases {
        let e = run(dir, args);
        let shown = format!("{args:?}");
        match usage_error_problem(&e) {
            Some(problem) => failures.push(format!("{shown}: {problem}")),
            None if !e.stderr.contains(mentions.as_str()) => failures.push(format!(
                "{shown}: the message does not mention {mentions:?}: {:?}",
                e.stderr.trim_end()
            )),
            None => {}
        }
    }
    failures
}

fn assert_none_failed(what: &str, runs: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} of {runs} runs were not a one-line exit 2:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// The three ways to run: the window (no subcommand), `sim` and `bench`.
const COMMANDS: [&[&str]; 3] = [&[], &["sim"], &["bench"]];

/// A bad value for each flag every command takes, and what the message must mention.
fn bad_common_values() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut cases = Vec::new();
    for (flag, values) in [
        (
            "--seed",
            &[
                "abc",
                "",
                "-1",
                "1.5",
                "1e3",
                "0x10",
                "18446744073709551616",
                "99999999999999999999999999",
                " 5",
                "NaN",
            ][..],
        ),
        (
            "--agents",
            &[
                "abc",
                "",
                "-1",
                "-0.5",
                "2.5",
                "20001",
                "1000000000",
                "18446744073709551616",
                "inf",
            ],
        ),
        (
            "--mode",
            &[
                "nope",
                "",
                "11",
                "-1",
                "10",
                "LOS_CHASE",
                "los_chase",
                "3 ",
                "0x3",
                "tile",
            ],
        ),
        (
            "--player",
            &["nope", "", "KEYZ", "still ", "flee,hunt", "0"],
        ),
    ] {
        for v in values {
            cases.push((flag, *v, *v));
        }
    }
    cases
}

#[test]
fn every_common_flag_with_a_wrong_value_exits_2_with_one_line_in_every_command() {
    let dir = scratch::folder("common");
    let mut cases = Vec::new();
    for command in COMMANDS {
        for (flag, value, _) in bad_common_values() {
            let mut args = os(command);
            args.push(format!("{flag}={value}").into());
            // The message names the flag or quotes the value.
            let mentions = if value.trim().is_empty() {
                flag
            } else {
                value.trim()
            };
            cases.push((args, mentions.to_string()));
        }
        // A flag without its value, twice, or with a value it does not take.
        for (args, mentions) in [
            (&["--seed"][..], "--seed"),
            (&["--mode"][..], "--mode"),
            (&["--seed", "1", "--seed", "2"][..], "--seed"),
            (&["--evade-flip=yes"][..], "--evade-flip"),
            (&["--no-such-flag"][..], "--no-such-flag"),
        ] {
            let mut all = os(command);
            all.extend(os(args));
            cases.push((all, mentions.to_string()));
        }
    }
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("common flags", cases.len(), &failures);
}

#[test]
fn second_counts_and_obstacle_counts_out_of_range_exit_2_with_one_line() {
    let dir = scratch::folder("seconds");
    let bad_seconds = [
        "abc", "", "0", "-0", "-5", "-0.001", "nan", "inf", "-inf", "1e400", "86401", "1e308",
        "0x10", "5s",
    ];
    let mut cases = Vec::new();
    for command in [&["sim"][..], &["bench"]] {
        for v in bad_seconds {
            let mut args = os(command);
            args.push(format!("--seconds={v}").into());
            cases.push((args, if v.is_empty() { "--seconds" } else { v }.to_string()));
        }
    }
    // Window-only flags: --quit-after and --idle-seconds take seconds too.
    for flag in ["--quit-after", "--idle-seconds"] {
        for v in bad_seconds {
            cases.push((
                os(&[&format!("{flag}={v}")]),
                if v.is_empty() { flag } else { v }.to_string(),
            ));
        }
    }
    for v in [
        "abc",
        "",
        "-1",
        "1.5",
        "10001",
        "18446744073709551616",
        "1e3",
    ] {
        cases.push((
            os(&["bench", &format!("--obstacles={v}")]),
            if v.is_empty() { "--obstacles" } else { v }.to_string(),
        ));
    }
    // Flags that belong to another command.
    for (args, mentions) in [
        (&["sim", "--obstacles", "5"][..], "--obstacles"),
        (&["--seconds", "5"][..], "--seconds"),
        (&["sim", "--quit-after", "5"][..], "--quit-after"),
        (&["bench", "--idle-seconds", "5"][..], "--idle-seconds"),
        (&["nosuchcommand"][..], "nosuchcommand"),
    ] {
        cases.push((os(args), mentions.to_string()));
    }
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("seconds and counts", cases.len(), &failures);
}

#[test]
fn a_missing_file_or_a_directory_as_a_data_file_exits_2_naming_it_for_sim_and_bench() {
    let dir = scratch::folder("data-files");
    std::fs::create_dir_all(dir.join("a-directory")).expect("mkdir");
    let mut cases = Vec::new();
    for command in [&["sim"][..], &["bench"]] {
        for flag in ["--arena", "--tuning", "--patterns"] {
            for path in ["missing.json", "a-directory", "no/such/dir/file.json", ""] {
                let mut args = os(command);
                args.push(flag.into());
                args.push(path.into());
                // The line starts with the path (or, for an empty path, names the flag).
                let mentions = if path.is_empty() {
                    flag.to_string()
                } else {
                    format!("{path}: ")
                };
                cases.push((args, mentions));
            }
        }
        // A record file that cannot be written (sim writes one; bench does not use it).
        if command == ["sim"] {
            for path in ["a-directory", "no/such/dir/run.jsonl"] {
                cases.push((
                    os(&["sim", "--record", path, "--seconds", "0.1"]),
                    path.to_string(),
                ));
            }
        }
    }
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("data files", cases.len(), &failures);
}

#[test]
fn an_unwritable_record_fails_before_the_window_opens() {
    let dir = scratch::folder("window-record");
    std::fs::create_dir_all(dir.join("a-directory")).expect("mkdir");
    let cases: Vec<(Vec<OsString>, String)> = ["a-directory", "no/such/dir/run.jsonl"]
        .iter()
        .map(|p| (os(&["--record", p, "--quit-after", "1"]), p.to_string()))
        .collect();
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("window --record", cases.len(), &failures);
}

#[test]
fn arguments_that_are_not_utf8_exit_2_with_one_line() {
    let dir = scratch::folder("not-utf8");
    let bad = OsString::from_vec(vec![b'x', 0xff, b'y']);
    let mut cases = Vec::new();
    for command in COMMANDS {
        for flag in ["--mode", "--player", "--seed", "--agents"] {
            let mut args = os(command);
            args.push(flag.into());
            args.push(bad.clone());
            // clap does not say which argument; it says what is wrong with one.
            cases.push((args, "UTF-8".to_string()));
        }
    }
    // As a data file's path it is a file that does not exist.
    let mut args = os(&["sim", "--arena"]);
    args.push(bad.clone());
    cases.push((args, "cannot read".to_string()));
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("non-UTF-8 arguments", cases.len(), &failures);
}

#[test]
fn the_agent_limit_is_enforced_with_a_clear_message() {
    let dir = scratch::folder("agents");
    let cases = vec![
        (
            os(&["sim", "--agents", "20001"]),
            "at most 20000 agents".to_string(),
        ),
        (
            os(&["bench", "--agents", "20001"]),
            "at most 20000 agents".to_string(),
        ),
        (
            os(&["--agents", "20001"]),
            "at most 20000 agents".to_string(),
        ),
    ];
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("the agent limit", cases.len(), &failures);
    // The limit itself is allowed (one tick, so the run is quick).
    let e = run(
        &dir,
        &os(&[
            "sim",
            "--agents",
            "20000",
            "--mode",
            "los-chase",
            "--seconds",
            "0.016",
        ]),
    );
    assert_eq!(
        e.status.and_then(|s| s.code()),
        Some(0),
        "sim --agents 20000: {}",
        e.stderr
    );
    assert!(e.stdout.contains("\"agents\":20000"), "{}", e.stdout);
}

#[test]
fn zero_is_a_valid_seed_agent_count_and_obstacle_count() {
    let dir = scratch::folder("zero");
    for args in [
        &["sim", "--seed", "0", "--seconds", "0.1"][..],
        &["sim", "--agents", "0", "--seconds", "0.1"],
        &[
            "sim",
            "--agents",
            "0",
            "--mode",
            "galaga",
            "--seconds",
            "0.1",
        ],
        &[
            "sim",
            "--agents",
            "0",
            "--mode",
            "mixed",
            "--seconds",
            "0.1",
        ],
        &[
            "bench",
            "--mode",
            "avoid",
            "--agents",
            "10",
            "--obstacles",
            "0",
            "--seconds",
            "0.05",
        ],
    ] {
        let e = run(&dir, &os(args));
        assert_eq!(
            e.status.and_then(|s| s.code()),
            Some(0),
            "{args:?}: {}",
            e.stderr
        );
        assert!(!e.stderr.contains("panicked"), "{args:?}: {}", e.stderr);
        let v: serde_json::Value = serde_json::from_str(e.stdout.trim())
            .unwrap_or_else(|err| panic!("{args:?}: not JSON ({err}): {}", e.stdout));
        assert!(v.is_object(), "{args:?}: {v}");
    }
}

/// With no display, miniquad panics inside `Window::from_config` (`XOpenDisplay() failed!`) and
/// the process would exit 101 with a backtrace. `app::run` checks for a display first
/// (`DISPLAY`/`WAYLAND_DISPLAY` on Linux) and turns a panic into an error, so the window fails
/// with one line and exit 2, like an unwritable record.
#[test]
fn the_window_without_a_display_fails_with_one_line_instead_of_panicking() {
    let dir = scratch::folder("no-display");
    let e = run(&dir, &os(&["--quit-after", "1"]));
    let problem = usage_error_problem(&e);
    assert!(
        problem.is_none(),
        "no display: {}",
        problem.unwrap_or_default()
    );
}

/// A data file's path with a line break in it is escaped at the front of the error
/// (`DataError`'s `Display`), so the message stays one line. (A rare path, but the same escaping
/// serves names with line breaks.)
#[test]
fn a_data_file_path_with_a_line_break_is_reported_on_one_line() {
    let dir = scratch::folder("newline-path");
    let cases = vec![(
        os(&["sim", "--arena", "two\nlines.json"]),
        "lines.json".to_string(),
    )];
    let failures = expect_usage_errors(&dir, &cases);
    assert_none_failed("a path with a line break", cases.len(), &failures);
}
