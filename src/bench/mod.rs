//! `steering-arena bench`: time the simulation at scale, without a window, metrics or record.
//!
//! Each run builds a world, lets it settle, then times every tick. `ns_per_agent_tick` is the
//! mean tick divided by the agents; `floor_ns_per_agent_tick` is the cost of only integrating the
//! same agents' positions in place (`pos += vel · dt` over the same `Vec<Agent>`), the memory
//! floor every figure can be read against.
//!
//! Runs compared with each other (a mode at 2,000 against 20,000 agents, `avoid` among 25 against
//! 400 obstacles) are timed side by side, in turns of about `SLICE_MS` (40 ms) each: the speed of a
//! shared machine drifts by tens of percent over seconds, and timed one after the other two runs
//! would each catch a different stretch of it. The first tick of every turn is run untimed: it
//! brings its world back into the caches the other world's turn (or set-up) has filled, as no
//! tick of a world running alone has to. With several rounds the whole set is timed once per
//! round, and each run reports its median round.

mod case;
mod report;
mod search;
mod timing;

pub use case::{Case, Form, PLAYER, default_cases};
pub use report::{Growth, ObstacleGrowth, Report, Run, TickMs};
pub use search::search_us;

use crate::data::DataSet;
use crate::data::combine::Method;
use crate::data::walkers::CrowdScene;
use crate::sim::mode::Mode;
use crate::sim::path::Order;
use crate::sim::player::Script;
use crate::sim::space::arena::Arena;
use case::side_by_side;
use report::{density_growth, growth, median_round, obstacle_growth};
use timing::{Timing, time_in_turns};

/// What the command line sets for every case: the alternate form (`--evade-flip`), the search
/// (`--algorithm`), how forces combine (`--combine`; `None`: each mode's own way) and the
/// crowd's scene (`--scene`; `None`: the crossing, whose two streams scale — a circle of 20,000
/// does not fit the arena and starts as one pile).
#[derive(Debug, Clone, Copy, Default)]
pub struct Forms {
    pub flip: bool,
    pub order: Order,
    pub combine: Option<Method>,
    pub scene: Option<CrowdScene>,
}

/// Time every case for `seconds` of simulated time, `rounds` times over.
pub fn run(
    data: &DataSet,
    cases: &[Case],
    seed: u64,
    seconds: f64,
    player: Script,
    forms: Forms,
    rounds: u32,
) -> Report {
    let mut timed: Vec<Vec<Run>> = vec![Vec::new(); cases.len()];
    let groups = side_by_side(cases);
    for _ in 0..rounds.max(1) {
        for group in &groups {
            let mut timings: Vec<Timing> = group
                .iter()
                .map(|&c| Timing::new(data, &cases[c], seed, seconds, player, forms))
                .collect();
            time_in_turns(&mut timings);
            for (&c, timing) in group.iter().zip(timings) {
                timed[c].push(timing.finish(&cases[c]));
            }
        }
    }
    let growth = growth(cases, &timed);
    let obstacle_growth = obstacle_growth(cases, &timed);
    let density_growth = density_growth(cases, &timed);
    let runs: Vec<Run> = timed.into_iter().map(median_round).collect();
    let floor = runs
        .iter()
        .max_by_key(|r| r.agents)
        .map_or(0.0, |r| r.floor_ns_per_agent_tick);
    Report {
        threads: crate::sim::threads::current(),
        seed,
        seconds,
        rounds: rounds.max(1),
        floor_ns_per_agent_tick: floor,
        growth,
        obstacle_growth,
        density_growth,
        runs,
        search_us: cases
            .iter()
            .any(|c| c.mode == Mode::Pathfind)
            .then(|| search_us(&Arena::from_data(&data.arena), seed)),
    }
}
