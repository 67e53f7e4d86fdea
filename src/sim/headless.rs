//! Running the world without a window: the `sim` command's loop, and `sim --replay`'s.

use crate::data::{DataHashes, DataSet};
use crate::sim::metrics::{Metrics, Summary};
use crate::sim::record::Recorder;
use crate::sim::replay::{self, Reader, ReplayData};
use crate::sim::world::{Input, World, WorldConfig};
use std::io::BufRead;
use std::io::{self, Write};
use std::time::Instant;

/// Run for `seconds` of simulated time, recording every tick (without a header) if asked;
/// returns the summary.
pub fn run(
    data: &DataSet,
    config: WorldConfig,
    seconds: f64,
    record: Option<&mut Recorder<impl Write>>,
) -> io::Result<Summary> {
    run_from(data, None, config, seconds, record)
}

/// [`run`] as `sim` runs it: the record starts with its header, which names the data by
/// `hashes`, so the record can be replayed.
pub fn run_recorded(
    data: &DataSet,
    hashes: &DataHashes,
    config: WorldConfig,
    seconds: f64,
    record: Option<&mut Recorder<impl Write>>,
) -> io::Result<Summary> {
    run_from(data, Some(hashes), config, seconds, record)
}

fn run_from(
    data: &DataSet,
    hashes: Option<&DataHashes>,
    config: WorldConfig,
    seconds: f64,
    mut record: Option<&mut Recorder<impl Write>>,
) -> io::Result<Summary> {
    let mut world = World::new(data, config);
    let ticks = (seconds * f64::from(world.config.tick_hz)).round() as u64;
    let mut metrics = Metrics::new();
    let input = Input::default();
    world.events.push(format!("mode:{}", world.mode.name()));
    if let Some(r) = record.as_deref_mut()
        && let Some(hashes) = hashes
    {
        r.header(&world, hashes)?;
    }
    for _ in 0..ticks {
        let started = Instant::now();
        world.tick(&input);
        let ms = started.elapsed().as_secs_f32() * 1000.0;
        metrics.observe(&world, ms);
        match record.as_deref_mut() {
            Some(r) => r.write(&mut world, false)?,
            None => world.forget_log(),
        }
    }
    if let Some(r) = record {
        r.flush()?;
    }
    let script = world.config.script.name();
    Ok(metrics.summary(&world, script, seconds))
}

/// Run a record's lines again (`file` names it in errors), checking each against the line the
/// run writes and recording them if asked; returns the summary of the ticks run. Any fault is one
/// line naming the file and the line.
pub fn replay(
    file: &str,
    mut input: impl BufRead,
    data: &ReplayData,
    mut record: Option<&mut Recorder<impl Write>>,
) -> Result<Summary, String> {
    let out_error = |e: io::Error| format!("cannot write the record: {e}");
    let read_error = |line: usize, message: String| {
        replay::ReplayError {
            file: file.to_string(),
            line,
            message,
        }
        .to_string()
    };
    let mut line = Vec::new();
    replay::read_line(&mut input, &mut line).map_err(|m| read_error(1, m))?;
    let header = String::from_utf8_lossy(&line).into_owned();
    let mut reader = Reader::new(file, &header, data).map_err(|e| e.to_string())?;
    if let Some(r) = record.as_deref_mut() {
        r.header(&reader.world, &data.hashes).map_err(out_error)?;
    }
    let mut metrics = Metrics::new();
    let mut ticks = 0u64;
    loop {
        if replay::read_line(&mut input, &mut line).map_err(|m| read_error(reader.line + 1, m))?
            == 0
        {
            break;
        }
        let started = Instant::now();
        let ticked = reader.next(&line).map_err(|e| e.to_string())?;
        if ticked {
            ticks += 1;
            let ms = started.elapsed().as_secs_f32() * 1000.0;
            metrics.observe(&reader.world, ms);
        }
        if let Some(r) = record.as_deref_mut() {
            r.raw(&reader.written).map_err(out_error)?;
        }
    }
    if let Some(r) = record {
        r.flush().map_err(out_error)?;
    }
    let seconds = ticks as f64 / f64::from(reader.world.config.tick_hz);
    Ok(metrics.summary(&reader.world, reader.header.player.name(), seconds))
}
