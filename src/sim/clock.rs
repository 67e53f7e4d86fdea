//! Fixed-timestep clock ("Fix Your Timestep"): frame times go into an accumulator that is drained
//! in whole ticks; long frames are clamped so a stall never causes a spiral of death; what remains
//! is the interpolation factor for rendering between the previous and the current state.

/// Simulation rate.
pub const TICK_HZ: f32 = 60.0;
/// Most ticks run for one frame; anything beyond is dropped (the game slows down instead).
pub const MAX_TICKS_PER_FRAME: u32 = 8;

#[derive(Debug, Clone)]
pub struct Clock {
    pub dt: f32,
    accumulator: f32,
}

/// What a frame should do: run `ticks` ticks, then draw at `alpha` between previous and current.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub ticks: u32,
    pub alpha: f32,
}

impl Clock {
    pub fn new(hz: f32) -> Self {
        Clock {
            dt: 1.0 / hz,
            accumulator: 0.0,
        }
    }

    /// Feed one frame's wall time, scaled by the time scale. Bad values (negative, NaN, infinite:
    /// a minimised window can report anything) count as zero or as the clamp.
    pub fn advance(&mut self, frame_seconds: f32, time_scale: f32) -> Frame {
        let scaled = frame_seconds * time_scale;
        let scaled = if scaled.is_nan() || scaled < 0.0 {
            0.0
        } else {
            scaled
        };
        let cap = self.dt * MAX_TICKS_PER_FRAME as f32;
        self.accumulator = (self.accumulator + scaled).min(cap + self.dt);
        let mut ticks = 0;
        while self.accumulator >= self.dt && ticks < MAX_TICKS_PER_FRAME {
            self.accumulator -= self.dt;
            ticks += 1;
        }
        if ticks == MAX_TICKS_PER_FRAME {
            // Clamped: drop the backlog rather than carry it into the next frame.
            self.accumulator = self.accumulator.min(self.dt * 0.999);
        }
        Frame {
            ticks,
            alpha: (self.accumulator / self.dt).clamp(0.0, 1.0),
        }
    }

    /// Forget any partial tick (after pause, reset or a mode change).
    pub fn reset(&mut self) {
        self.accumulator = 0.0;
    }
}

/// The window's time-scale steps for `[` and `]`.
pub const TIME_SCALES: [f32; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];
