//! The steering-arena binary run as a player runs it, and what it prints read back.

use serde_json::Value;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_steering-arena");

/// The binary run with `args` from the package's folder, where it finds `assets/`.
pub fn run(args: impl IntoIterator<Item = impl AsRef<OsStr>>) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("run the steering-arena binary")
}

/// The binary run with `args` in `dir` (a scratch folder: no `assets/` unless the test wrote one).
pub fn run_in(dir: &Path, args: impl IntoIterator<Item = impl AsRef<OsStr>>) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the steering-arena binary")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// The JSON summary a run printed.
pub fn summary(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).expect("the summary is JSON")
}

/// The JSON summary a run printed, without `tick_ms` (the one field that is wall time).
pub fn summary_without_tick_ms(o: &Output) -> Value {
    let mut v = summary(o);
    v.as_object_mut().expect("an object").remove("tick_ms");
    v
}
