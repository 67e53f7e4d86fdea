//! `steering-arena bench` prints one JSON object with every field (a short run; the figures
//! themselves are measured for the README, never asserted here).

use serde_json::Value;
use std::process::Command;

fn bench(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_steering-arena"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "bench failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(text.lines().count(), 1, "one line of JSON: {text}");
    serde_json::from_str(&text).expect("valid JSON")
}

#[test]
fn bench_prints_every_field_for_one_run() {
    let v = bench(&["--mode", "wander", "--agents", "300", "--seconds", "0.2"]);
    for key in ["seed", "seconds", "floor_ns_per_agent_tick", "runs"] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    let runs = v["runs"].as_array().expect("runs is a list");
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(r["mode"], "wander");
    assert_eq!(r["agents"], 300);
    assert_eq!(r["ticks"], 12, "0.2 s at 60 Hz");
    for key in ["mean", "p50", "p99"] {
        assert!(
            r["tick_ms"][key].as_f64().is_some_and(|x| x >= 0.0),
            "tick_ms.{key}: {r}"
        );
    }
    for key in [
        "ns_per_agent_tick",
        "floor_ns_per_agent_tick",
        "ratio_to_floor",
    ] {
        assert!(
            r[key].as_f64().is_some_and(|x| x.is_finite() && x >= 0.0),
            "{key}: {r}"
        );
    }
    assert!(r["obstacles"].as_u64().is_some());
}

#[test]
fn bench_generates_the_obstacles_it_is_asked_for() {
    let v = bench(&[
        "--mode",
        "avoid",
        "--agents",
        "100",
        "--obstacles",
        "40",
        "--seconds",
        "0.1",
    ]);
    assert_eq!(v["runs"][0]["obstacles"], 40, "{v}");
    assert_eq!(v["runs"][0]["mode"], "avoid");
}

#[test]
fn bench_rejects_a_bad_obstacle_count_on_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_steering-arena"))
        .args(["bench", "--obstacles", "many"])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--obstacles"), "{err}");
}
