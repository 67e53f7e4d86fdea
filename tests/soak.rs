//! Soak: every mode, in each of its forms (the `E`, `V` and `T` alternates too), for 10 simulated
//! minutes with twice its default agents, through `headless::run` as `sim` runs it. The summary's
//! safety fields must hold over all 36,000 ticks: nothing non-finite, no agent centre outside the
//! arena, no agent overlapping an obstacle, and no continuous agent moving faster than its top
//! speed allows (within `MAX_STEP_RATIO`; tile agents jump a tile per step by design and are not
//! measured).
//!
//! Each mode is its own test, so the harness runs them on every core: in a debug build the
//! sixteen runs take about 35 s of CPU in all, about 20 s of wall time on two cores (each test
//! prints its time).

mod common;

use common::world;
use std::time::Instant;
use steering_arena::data::built_in;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::WorldConfig;

/// Ten simulated minutes.
const SECONDS: f64 = 600.0;
/// The same bound as the property tests: the vehicle model's own clamp, with room for f32
/// rounding and a collision's 0.01 px push-out.
const MAX_STEP_RATIO: f32 = 1.05;

/// A player that keeps every behaviour busy: hunted by chasers (so they catch it and respawn),
/// hunting the agents that flee (so they are tagged and respawn).
fn player_for(mode: Mode, flip: bool) -> Script {
    match (mode, flip) {
        (Mode::Evade, _) => Script::Hunt,
        (Mode::TileChase | Mode::TileLos | Mode::LosChase | Mode::Intercept, true) => Script::Hunt,
        _ => Script::Circle,
    }
}

fn soak_one(mode: Mode, flip: bool) -> Summary {
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
    let s = world::summary(&data, config, SECONDS);
    let what = format!(
        "{mode}{} with {} agents for {SECONDS} s",
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
    assert_eq!(s.ticks, 36_000, "{what}");
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
fn soak(mode: Mode) {
    soak_one(mode, false);
    if mode.has_flip() {
        soak_one(mode, true);
    }
}

#[test]
fn every_mode_is_soaked() {
    // Each mode below has its test; a new mode needs one too.
    assert_eq!(Mode::ALL.len(), 14);
}

#[test]
fn tile_chase_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::TileChase);
}

#[test]
fn tile_los_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::TileLos);
}

#[test]
fn los_chase_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::LosChase);
}

#[test]
fn intercept_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Intercept);
}

#[test]
fn evade_soaks_ten_minutes_with_twice_its_agents() {
    let s = soak_one(Mode::Evade, false);
    assert!(s.tags > 0, "a hunting player tags evaders in ten minutes");
}

#[test]
fn wander_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Wander);
}

#[test]
fn avoid_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Avoid);
}

#[test]
fn flock_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Flock);
}

#[test]
fn swarm_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Swarm);
}

#[test]
fn galaga_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Galaga);
}

#[test]
fn patterns_soak_ten_minutes_with_twice_their_agents() {
    soak(Mode::Patterns);
}

#[test]
fn mixed_soaks_ten_minutes_with_twice_its_agents() {
    soak(Mode::Mixed);
}

#[test]
fn pathfind_soaks_ten_minutes_with_twice_its_agents() {
    let s = soak_one(Mode::Pathfind, false);
    assert!(
        s.catches > 0,
        "chasers that plan catch a circling player in ten minutes"
    );
}

#[test]
fn fsm_soaks_ten_minutes_with_twice_its_guards() {
    let s = soak_one(Mode::Fsm, false);
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
