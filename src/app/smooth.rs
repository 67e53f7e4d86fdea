//! Heading smoothing (`Y`; Buckland's `Smoother`): an agent is drawn facing the mean of its last
//! [`SAMPLES`] velocity directions rather than its velocity's own, which takes out the tick-to-
//! tick jitter of a heading pushed about by several forces. Drawing only: the simulation, its
//! record and its summary never see it.

use crate::sim::world::World;
use glam::Vec2;

/// How many of the latest ticks' headings are averaged.
pub const SAMPLES: usize = 10;
/// What `Y` does, as the help of the game and of the replay window says it.
pub const HELP: &str = "heading smoothing: agents drawn facing their last 10 headings' mean";

/// The latest headings of every agent, and whether `Y` has smoothing on.
#[derive(Debug, Clone, Default)]
pub struct Headings {
    pub on: bool,
    /// Per agent, its last [`SAMPLES`] headings (a ring, written at `next`).
    rings: Vec<[Vec2; SAMPLES]>,
    next: usize,
    filled: usize,
}

impl Headings {
    /// Note every agent's heading after a tick (nothing while smoothing is off).
    pub fn record(&mut self, world: &World) {
        if !self.on {
            return;
        }
        if self.rings.len() != world.agents.len() {
            // A new crowd: start afresh.
            self.rings = world
                .agents
                .iter()
                .map(|a| [a.body.heading; SAMPLES])
                .collect();
            self.filled = SAMPLES;
        }
        for (ring, a) in self.rings.iter_mut().zip(&world.agents) {
            ring[self.next] = a.body.heading;
        }
        self.next = (self.next + 1) % SAMPLES;
    }

    /// `Y`: on or off (off forgets what it had seen).
    pub fn toggle(&mut self) {
        self.on = !self.on;
        self.forget();
    }

    /// Forget the headings seen so far (the next [`Headings::record`] starts afresh from the
    /// agents' own).
    pub fn forget(&mut self) {
        self.rings.clear();
        self.next = 0;
        self.filled = 0;
    }

    /// Agent `i`'s smoothed heading, if smoothing is on and it has one.
    pub fn of(&self, i: usize) -> Option<Vec2> {
        if !self.on || self.filled == 0 {
            return None;
        }
        let ring = self.rings.get(i)?;
        ring.iter().copied().sum::<Vec2>().try_normalize()
    }
}
