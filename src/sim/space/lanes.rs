//! Several rays tested against one bounding circle at once: the inner loop of a fan of feelers
//! (`Arena::sweep_fan`), where a crowded arena puts a dozen obstacles or more under every cast.
//! It is `Entry::may_meet`'s arithmetic, lane by lane, written as passes over fixed arrays of four
//! — one SSE register — with no branch, which the compiler turns into packed instructions and a
//! sign-mask without any `unsafe`: about 30 instructions for all four rays. Kept out of line:
//! inlined into the fan's loop, its lanes are split into scalars by the compiler (8 % more
//! instructions per agent-tick among 400 obstacles).

use glam::Vec2;

/// How many rays one test takes.
pub const LANES: usize = 4;

/// Up to [`LANES`] rays, one to a lane: origin, unit direction, and how far along each a meeting
/// still matters. Unused lanes are masked off by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Lanes {
    pub ox: [f32; LANES],
    pub oy: [f32; LANES],
    pub dx: [f32; LANES],
    pub dy: [f32; LANES],
    pub within: [f32; LANES],
}

impl Lanes {
    /// Bit `k` set when something moving along ray `k` could come within `reach` of `center`
    /// before it has gone `within[k]`: the ray passes the centre no farther than `reach` to the
    /// side, and the closest approach lies no more than `reach` before the start or past the end.
    #[inline(never)]
    pub fn may_meet(&self, center: Vec2, reach: f32) -> u32 {
        let mut along = [0.0f32; LANES];
        let mut aside = [0.0f32; LANES];
        for k in 0..LANES {
            let (mx, my) = (center.x - self.ox[k], center.y - self.oy[k]);
            along[k] = mx * self.dx[k] + my * self.dy[k];
            aside[k] = mx * self.dy[k] - my * self.dx[k];
        }
        let mut kept = 0;
        for k in 0..LANES {
            let may = (aside[k].abs() <= reach)
                & (along[k] + reach >= 0.0)
                & (along[k] - reach <= self.within[k]);
            kept |= u32::from(may) << k;
        }
        kept
    }
}
