//! A tile agent's walk: the tile it stands on, the one it stepped from, and its step clock.

use glam::IVec2;

/// A tile agent's position and step timing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileWalk {
    /// The logical tile (where the agent is, for catches and the record).
    pub tile: IVec2,
    /// The tile it last stepped from (equal to `tile` while waiting); drawing slides between them.
    pub from: IVec2,
    /// Seconds since the last step.
    pub clock: f32,
}

impl TileWalk {
    pub fn new(tile: IVec2) -> Self {
        TileWalk {
            tile,
            from: tile,
            clock: 0.0,
        }
    }

    /// Advance the step clock; true when a step is due.
    pub(super) fn due(&mut self, dt: f32, rate: f32) -> bool {
        let period = 1.0 / rate.max(f32::EPSILON);
        self.clock += dt;
        if self.clock + 1e-6 >= period {
            self.clock = (self.clock - period).clamp(0.0, period);
            true
        } else {
            false
        }
    }

    /// Fraction of the current step's slide that has been drawn (0…1).
    pub fn progress(&self, rate: f32) -> f32 {
        (self.clock * rate).clamp(0.0, 1.0)
    }

    /// Step to `next` (or stay, when there is none): the tile stepped from is noted for the
    /// slide.
    pub(super) fn step(&mut self, next: Option<IVec2>) {
        self.from = self.tile;
        if let Some(to) = next {
            self.tile = to;
        }
    }
}
