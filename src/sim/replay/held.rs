//! A whole record held for the replay window: its steps read up front, played forward and
//! checked once, and stepped back from the state kept every [`SNAPSHOT_EVERY`] lines.

use super::read::{ReplayData, ReplayError, read_line, read_step, start};
use super::step::Step;
use crate::sim::record::{self, Header};
use crate::sim::world::World;
use std::io::BufRead;

/// The replay window keeps the world's state every this many lines (five simulated seconds), so
/// a step back runs at most this many lines again.
pub const SNAPSHOT_EVERY: usize = 300;

/// A whole record held for the window: its steps, the run's state at any of them, and the state
/// kept every [`SNAPSHOT_EVERY`] lines for stepping back.
pub struct Replay {
    pub file: String,
    pub header: Header,
    steps: Vec<Step>,
    /// FNV-1a of each step's line as recorded (with its newline).
    hashes: Vec<u64>,
    /// `snapshots[k]`: the world after `k * SNAPSHOT_EVERY` steps (the start is `snapshots[0]`).
    snapshots: Vec<World>,
    pub world: World,
    /// Steps run: 0 is the start, `len()` the end.
    pub pos: usize,
    /// Steps below this were checked against the record once already.
    checked: usize,
    /// The record line of the state `world` is in (empty at the start).
    pub shown: Vec<u8>,
    /// The first fault: in the record, read up front (the replay ends before that line), or in
    /// the run, found while playing (the replay ends at that line).
    pub error: Option<ReplayError>,
}

impl Replay {
    /// Read a whole record held in memory (see [`Replay::read`]).
    pub fn open(file: &str, text: &[u8], data: &ReplayData) -> Result<Replay, ReplayError> {
        Replay::read(file, text, data)
    }

    /// Read a whole record, line by line, each at most [`MAX_LINE_BYTES`]. A bad header is an
    /// error; a bad line later ends the replay before it and is kept in `error`.
    pub fn read(
        file: &str,
        mut input: impl BufRead,
        data: &ReplayData,
    ) -> Result<Replay, ReplayError> {
        let mut raw = Vec::new();
        let fail_at = |line: usize, message: String| ReplayError {
            file: file.to_string(),
            line,
            message,
        };
        read_line(&mut input, &mut raw).map_err(|m| fail_at(1, m))?;
        let first = std::str::from_utf8(&raw)
            .map_err(|e| fail_at(1, format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
        let (header, world) = start(file, first, data)?;
        let mut steps = Vec::new();
        let mut hashes = Vec::new();
        let mut error = None;
        for i in 0.. {
            let fail = |message: String| fail_at(i + 2, message);
            match read_line(&mut input, &mut raw) {
                Ok(0) => break,
                Ok(_) => {}
                Err(m) => {
                    error = Some(fail(m));
                    break;
                }
            }
            let parsed = std::str::from_utf8(&raw)
                .map_err(|e| fail(format!("not UTF-8 text (byte {})", e.valid_up_to())))
                .and_then(|t| {
                    t.strip_suffix('\n')
                        .ok_or_else(|| fail("cut short: the line has no end".to_string()))
                })
                .and_then(|t| read_step(t, data).map_err(fail));
            match parsed {
                Ok(step) => {
                    steps.push(step);
                    hashes.push(crate::data::fnv1a64(&raw));
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        Ok(Replay {
            file: file.to_string(),
            header,
            steps,
            hashes,
            snapshots: vec![world.clone()],
            world,
            pos: 0,
            checked: 0,
            shown: Vec::new(),
            error,
        })
    }

    /// Steps the record holds (its lines after the header).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the step the world is at ran a tick while the window was paused.
    pub fn paused_here(&self) -> bool {
        self.pos > 0 && self.steps[self.pos - 1].paused
    }

    /// Run one step forward; false at the end.
    pub fn forward(&mut self) -> bool {
        if self.pos >= self.steps.len() {
            return false;
        }
        let step = &self.steps[self.pos];
        if let Err(message) = step.run(&mut self.world) {
            // A command the world cannot take: the replay ends before this line, and says so.
            self.error = Some(ReplayError {
                file: self.file.clone(),
                line: self.pos + 2,
                message,
            });
            self.steps.truncate(self.pos);
            // The world ran part of the refused line: back to the state before it.
            let here = self.pos;
            self.pos += 1;
            self.seek(here, usize::MAX);
            return false;
        }
        self.shown.clear();
        record::write_line(&mut self.shown, &mut self.world, step.paused)
            .expect("writing to memory cannot fail");
        if self.pos >= self.checked {
            if crate::data::fnv1a64(&self.shown) != self.hashes[self.pos] {
                // The run left the record here: the replay ends at this line, and says so.
                self.error = Some(ReplayError {
                    file: self.file.clone(),
                    line: self.pos + 2,
                    message: "the replayed run differs from the record here (`sim --replay` \
                              names the field)"
                        .to_string(),
                });
                self.steps.truncate(self.pos + 1);
            }
            self.checked = self.pos + 1;
        }
        self.pos += 1;
        if self.pos.is_multiple_of(SNAPSHOT_EVERY)
            && self.snapshots.len() == self.pos / SNAPSHOT_EVERY
        {
            let mut kept = self.world.clone();
            kept.forget_log();
            self.snapshots.push(kept);
        }
        true
    }

    /// Move towards step `target` (clamped to the record), running at most `budget` steps;
    /// true when there. Going back starts from the nearest kept state at or before `target`.
    pub fn seek(&mut self, target: usize, budget: usize) -> bool {
        let target = target.min(self.steps.len());
        if target < self.pos {
            // From a state strictly before the target (unless it is the start), so that the
            // last step run writes the line shown.
            let k = (target.saturating_sub(1) / SNAPSHOT_EVERY).min(self.snapshots.len() - 1);
            self.world = self.snapshots[k].clone();
            self.pos = k * SNAPSHOT_EVERY;
            self.shown.clear();
        }
        let mut left = budget;
        // (A refused line shortens the record: `forward` then says there is no more.)
        while self.pos < target && left > 0 && self.forward() {
            left -= 1;
        }
        self.pos == target.min(self.steps.len())
    }
}
