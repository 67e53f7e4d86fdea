//! Soak: every mode, in each of its forms (the `E`, `V` and `T` alternates too), with twice its
//! default agents, through `headless::run` as `sim` runs it. The summary's safety fields must
//! hold over every tick: nothing non-finite, no agent centre outside the arena, no agent
//! overlapping an obstacle, and no continuous agent moving faster than its top speed allows
//! (within `MAX_STEP_RATIO`; tile agents jump a tile per step by design and are not measured).
//!
//! Each mode has two tests: half a simulated minute in the default run, and ten simulated minutes
//! (36,000 ticks) ignored by default — `cargo test -- --include-ignored` runs them (CI does).
//! A few outcomes need the long run (the fsm's guards lose and find the player again and again);
//! the ten-minute tests check those. Each test is its own, so the harness runs them on every
//! core; each prints its time.

mod common;

use common::world;
use std::time::Instant;
use steering_arena::data::built_in;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::WorldConfig;

/// Ten simulated minutes: the long soak.
const SECONDS: f64 = 600.0;
/// Half a simulated minute: the soak of the default run.
const QUICK_SECONDS: f64 = 30.0;
/// Why the long soaks are left out of a plain `cargo test`.
macro_rules! long {
    () => {
        "needs a long soak: run with --include-ignored (CI does)"
    };
}
/// The same bound as the property tests: the vehicle model's own clamp, with room for f32
/// rounding and a collision's 0.01 px push-out.
const MAX_STEP_RATIO: f32 = 1.05;

/// A player that keeps every behaviour busy: hunted by chasers (so they catch it and respawn),
/// hunting the agents that flee (so they are tagged and respawn).
fn player_for(mode: Mode, flip: bool) -> Script {
    match (mode, flip) {
        (Mode::Evade | Mode::Hide, _) => Script::Hunt,
        (Mode::TileChase | Mode::TileLos | Mode::LosChase | Mode::Intercept, true) => Script::Hunt,
        _ => Script::Circle,
    }
}

fn soak_one(mode: Mode, flip: bool, seconds: f64) -> Summary {
    let data = built_in();
    let agents = mode.default_agents() * 2;
    let config = WorldConfig {
        mode,
        flip,
        seed: 1,
        agents: Some(agents),
        script: player_for(mode, flip),
        ..WorldConfig::default()
    };
    let started = Instant::now();
    let s = world::summary(&data, config, seconds);
    let what = format!(
        "{mode}{} with {} agents for {seconds} s",
        if flip { " (alternate)" } else { "" },
        s.agents
    );
    println!(
        "{what}: {:.1} s wall; catches {}, tags {}, min clearance {:?}, max step ratio {:.4}, \
         stuck {}",
        started.elapsed().as_secs_f64(),
        s.catches,
        s.tags,
        s.min_obstacle_clearance,
        s.max_step_ratio,
        s.stuck_agents
    );
    assert_eq!(s.ticks, (seconds * 60.0).round() as u64, "{what}");
    assert!(
        !s.non_finite,
        "{what}: a position or velocity went non-finite"
    );
    assert_eq!(s.out_of_bounds, 0, "{what}: agent centres left the arena");
    // In the default arena even the tile agents (radius 10 on 32 px tiles) never overlap.
    assert_eq!(
        s.obstacle_overlaps, 0,
        "{what}: agents overlapped obstacles"
    );
    assert!(
        s.max_step_ratio <= MAX_STEP_RATIO,
        "{what}: a continuous agent moved {} times its top speed in a tick",
        s.max_step_ratio
    );
    // (Galaga: two squadrons of the data's stage.)
    assert_eq!(s.agents, agents, "{what}");
    s
}

/// The mode in its plain form and, if it has one, its alternate.
fn soak(mode: Mode, seconds: f64) {
    soak_one(mode, false, seconds);
    if mode.has_flip() {
        soak_one(mode, true, seconds);
    }
}

#[test]
fn every_mode_is_soaked() {
    // Each mode below has its two tests; a new mode needs them too.
    assert_eq!(Mode::ALL.len(), 18);
}

#[test]
fn tile_chase_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::TileChase, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn tile_chase_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::TileChase, SECONDS);
}

#[test]
fn tile_los_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::TileLos, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn tile_los_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::TileLos, SECONDS);
}

#[test]
fn los_chase_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::LosChase, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn los_chase_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::LosChase, SECONDS);
}

#[test]
fn intercept_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Intercept, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn intercept_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Intercept, SECONDS);
}

/// A hunting player tags evaders.
fn evade(seconds: f64) {
    let s = soak_one(Mode::Evade, false, seconds);
    assert!(s.tags > 0, "a hunting player tags evaders in {seconds} s");
}

#[test]
fn evade_soaks_half_a_minute_with_twice_its_agents() {
    evade(QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn evade_soaks_ten_minutes_with_twice_its_agents() {
    evade(SECONDS);
}

#[test]
fn wander_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Wander, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn wander_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Wander, SECONDS);
}

#[test]
fn avoid_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Avoid, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn avoid_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Avoid, SECONDS);
}

#[test]
fn flock_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Flock, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn flock_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Flock, SECONDS);
}

#[test]
fn swarm_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Swarm, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn swarm_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Swarm, SECONDS);
}

#[test]
fn galaga_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Galaga, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn galaga_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Galaga, SECONDS);
}

#[test]
fn patterns_soak_half_a_minute_with_twice_their_agents() {
    soak(Mode::Patterns, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn patterns_soak_ten_minutes_with_twice_their_agents() {
    soak(Mode::Patterns, SECONDS);
}

#[test]
fn mixed_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Mixed, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn mixed_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Mixed, SECONDS);
}

/// Chasers that plan catch a circling player.
fn pathfind(seconds: f64) {
    let s = soak_one(Mode::Pathfind, false, seconds);
    assert!(
        s.catches > 0,
        "chasers that plan catch a circling player in {seconds} s"
    );
}

#[test]
fn pathfind_soaks_half_a_minute_with_twice_its_agents() {
    pathfind(QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn pathfind_soaks_ten_minutes_with_twice_its_agents() {
    pathfind(SECONDS);
}

#[test]
fn fsm_soaks_half_a_minute_with_twice_its_guards() {
    let s = soak_one(Mode::Fsm, false, QUICK_SECONDS);
    assert!(
        s.catches > 0,
        "guards catch a circling player in half a minute"
    );
}

#[test]
#[ignore = long!()]
fn fsm_soaks_ten_minutes_with_twice_its_guards() {
    let s = soak_one(Mode::Fsm, false, SECONDS);
    // The circling player is seen, chased and lost again and again (38 transitions, 15 catches).
    assert!(
        s.catches > 0,
        "guards catch a circling player in ten minutes"
    );
    let fired = s.extra["transitions"]
        .as_object()
        .map_or(0, |t| t.values().filter_map(|n| n.as_u64()).sum::<u64>());
    assert!(fired > 30, "{:?}", s.extra);
}

#[test]
fn hide_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Hide, QUICK_SECONDS);
}

#[test]
fn crowd_soaks_half_a_minute_with_twice_its_walkers() {
    let s = soak_one(Mode::Crowd, false, QUICK_SECONDS);
    assert_eq!(
        s.catches + s.tags,
        0,
        "walkers neither catch nor are tagged"
    );
}

#[test]
#[ignore = long!()]
fn hide_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Hide, SECONDS);
}

#[test]
#[ignore = long!()]
fn crowd_soaks_ten_minutes_with_twice_its_walkers() {
    soak_one(Mode::Crowd, false, SECONDS);
}

#[test]
fn formation_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Formation, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn formation_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Formation, SECONDS);
}

#[test]
fn pathway_soaks_half_a_minute_with_twice_its_agents() {
    soak(Mode::Pathway, QUICK_SECONDS);
}

#[test]
#[ignore = long!()]
fn pathway_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Pathway, SECONDS);
}
