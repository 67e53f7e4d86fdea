//! Running the world without a window: the `sim` command's loop.

use crate::data::DataSet;
use crate::sim::metrics::{Metrics, Summary};
use crate::sim::record::Recorder;
use crate::sim::world::{Input, World, WorldConfig};
use std::io::{self, Write};
use std::time::Instant;

/// Run for `seconds` of simulated time, recording every tick if asked; returns the summary.
pub fn run(
    data: &DataSet,
    config: WorldConfig,
    seconds: f64,
    mut record: Option<&mut Recorder<impl Write>>,
) -> io::Result<Summary> {
    let mut world = World::new(data, config);
    let ticks = (seconds * f64::from(world.config.tick_hz)).round() as u64;
    let mut metrics = Metrics::new();
    let input = Input::default();
    world.events.push(format!("mode:{}", world.mode.name()));
    for _ in 0..ticks {
        let started = Instant::now();
        world.tick(&input);
        let ms = started.elapsed().as_secs_f32() * 1000.0;
        metrics.observe(&world, ms);
        match record.as_deref_mut() {
            Some(r) => r.write(&mut world, false)?,
            None => world.events.clear(),
        }
    }
    if let Some(r) = record {
        r.flush()?;
    }
    let script = world.config.script.name();
    Ok(metrics.summary(&world, script, seconds))
}
