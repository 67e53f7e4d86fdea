//! Worlds for the behaviour tests: one agent placed by hand, ticks with no key held, and a run
//! as `sim` makes it, down to its summary.

use glam::Vec2;
use steering_arena::data::DataSet;
use steering_arena::sim::headless;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// `seconds` of `config` on `data` as `sim` runs them, without a record: the summary.
pub fn summary(data: &DataSet, config: WorldConfig, seconds: f64) -> Summary {
    headless::run(data, config, seconds, None::<&mut Recorder<std::io::Sink>>)
        .expect("a run without a record does no I/O")
}

/// A world of `config` on `data` holding one agent, placed at `pos` moving at `vel`.
pub fn one_agent(data: &DataSet, config: WorldConfig, pos: Vec2, vel: Vec2) -> World {
    let mut world = World::new(
        data,
        WorldConfig {
            agents: Some(1),
            ..config
        },
    );
    world.place_agent(0, pos, vel);
    world
}

/// `ticks` ticks with no key held.
pub fn idle(world: &mut World, ticks: u64) {
    for _ in 0..ticks {
        world.tick(&Input::default());
    }
}
