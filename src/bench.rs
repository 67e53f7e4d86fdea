//! `steering-arena bench`: time the simulation at scale, without a window, metrics or record.
//!
//! Each run builds a world, lets it settle, then times every tick. `ns_per_agent_tick` is the
//! mean tick divided by the agents; `floor_ns_per_agent_tick` is the cost of only integrating the
//! same agents' positions in place (`pos += vel · dt` over the same `Vec<Agent>`), the memory
//! floor every figure can be read against.

use crate::data::DataSet;
use crate::data::arena::with_spaced_obstacles;
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::world::{Input, World, WorldConfig};
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// Ticks run before timing starts (spawns settle, stages launch).
const WARM_UP_TICKS: u32 = 30;
/// Smallest gap between generated obstacles (px): they never overlap; some gaps are too narrow
/// to pass, as in any crowded field.
const OBSTACLE_GAP: f32 = 4.0;

/// One timed configuration.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub mode: Mode,
    pub agents: usize,
    /// Generated obstacles replacing the arena's own; `None` keeps the arena file's.
    pub obstacles: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TickMs {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub mode: String,
    pub agents: usize,
    pub obstacles: usize,
    pub ticks: u32,
    pub tick_ms: TickMs,
    pub ns_per_agent_tick: f64,
    pub floor_ns_per_agent_tick: f64,
    /// `ns_per_agent_tick / floor_ns_per_agent_tick`.
    pub ratio_to_floor: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub seed: u64,
    pub seconds: f64,
    /// The floor of the largest run (most agents), the headline figure.
    pub floor_ns_per_agent_tick: f64,
    pub runs: Vec<Run>,
}

/// The default set: every mode at 2,000 and 20,000 agents, and `avoid` at 20,000 with 25 and
/// with 400 generated obstacles.
pub fn default_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for &mode in Mode::ALL {
        for agents in [2_000, 20_000] {
            cases.push(Case {
                mode,
                agents,
                obstacles: None,
            });
        }
    }
    for obstacles in [25, 400] {
        cases.push(Case {
            mode: Mode::Avoid,
            agents: 20_000,
            obstacles: Some(obstacles),
        });
    }
    cases
}

/// The player bench runs against unless `--player` says otherwise: one that moves keeps every
/// behaviour busy (chasers chase, evaders flee).
pub const PLAYER: Script = Script::Circle;

/// Time every case for `seconds` of simulated time.
pub fn run(
    data: &DataSet,
    cases: &[Case],
    seed: u64,
    seconds: f64,
    player: Script,
    flip: bool,
) -> Report {
    let runs: Vec<Run> = cases
        .iter()
        .map(|c| time_case(data, c, seed, seconds, player, flip))
        .collect();
    let floor = runs
        .iter()
        .max_by_key(|r| r.agents)
        .map_or(0.0, |r| r.floor_ns_per_agent_tick);
    Report {
        seed,
        seconds,
        floor_ns_per_agent_tick: floor,
        runs,
    }
}

fn time_case(
    data: &DataSet,
    case: &Case,
    seed: u64,
    seconds: f64,
    player: Script,
    flip: bool,
) -> Run {
    let mut data = data.clone();
    if let Some(k) = case.obstacles {
        let mut bare = data.arena.clone();
        bare.obstacles.clear();
        data.arena = with_spaced_obstacles(&bare, k, seed, OBSTACLE_GAP);
    }
    let config = WorldConfig {
        mode: case.mode,
        seed,
        agents: Some(case.agents),
        flip,
        script: player,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data, config);
    let input = Input::default();
    for _ in 0..WARM_UP_TICKS {
        world.tick(&input);
        world.events.clear();
    }
    let ticks = ((seconds * f64::from(world.config.tick_hz)).round() as u32).max(1);
    let mut times = Vec::with_capacity(ticks as usize);
    for _ in 0..ticks {
        let started = Instant::now();
        world.tick(&input);
        times.push(started.elapsed().as_secs_f64() * 1e3);
        // What the window and `sim` do with each tick's events (record or drop them), untimed.
        world.events.clear();
    }
    let agents = world.agents.len().max(1);
    let floor = floor_ns(&mut world, ticks);
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let pick = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ns = mean * 1e6 / agents as f64;
    Run {
        mode: case.mode.name().to_string(),
        agents: world.agents.len(),
        obstacles: world.arena.obstacles().len(),
        ticks,
        tick_ms: TickMs {
            mean: round3(mean),
            p50: round3(pick(0.5)),
            p99: round3(pick(0.99)),
        },
        ns_per_agent_tick: round1(ns),
        floor_ns_per_agent_tick: round1(floor),
        ratio_to_floor: round1(ns / floor.max(1e-9)),
    }
}

/// Nanoseconds per agent to integrate every agent's position in place, over the same agents.
fn floor_ns(world: &mut World, ticks: u32) -> f64 {
    let dt = world.dt;
    let agents = world.agents.len().max(1);
    let started = Instant::now();
    for _ in 0..ticks {
        for a in world.agents.iter_mut() {
            a.body.pos += a.body.vel * dt;
        }
        black_box(&world.agents);
    }
    started.elapsed().as_secs_f64() * 1e9 / (f64::from(ticks) * agents as f64)
}

fn round3(v: f64) -> f64 {
    (v * 1e3).round() / 1e3
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}
