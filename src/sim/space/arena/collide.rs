//! Collisions: a body that has just moved is swept along its step, pushed out of every obstacle
//! it overlaps and kept inside the walls, its velocity sliding or bouncing at each contact.

use super::Arena;
use super::grid::{BLANK, MAX_SWEEP_RADIUS};
use crate::sim::space::field::ROUNDING;
use crate::sim::space::shape::{Response, sweep_reach};
use glam::Vec2;

/// How far a collision pushes a body beyond the surface, so rounding never leaves it touching.
const SKIN: f32 = 0.01;
/// Push-out passes per collision; bodies wedged between touching obstacles need several.
const COLLIDE_PASSES: usize = 16;
/// A collision whose body radius plus step length is at most this (px) finds every obstacle it
/// could touch in the list of the cell it starts in (a pixel inside [`MAX_SWEEP_RADIUS`], for
/// rounding).
const SHORT_STEP_REACH: f32 = MAX_SWEEP_RADIUS - 1.0;
/// A collision keeps up to this many obstacles its step can reach (more: it looks at the cell's
/// whole list).
const FEW_NEAR: usize = 8;

impl Arena {
    /// Move a body of radius `r` that has just moved from `from` to `pos` out of every obstacle
    /// it overlaps and back inside the walls, changing the velocity's inward component per
    /// `response`. A body wedged where it does not fit goes back to `from` (when that was clear)
    /// and stops. Returns the last contact normal.
    #[inline(always)]
    pub fn collide(
        &self,
        from: Vec2,
        pos: &mut Vec2,
        vel: &mut Vec2,
        r: f32,
        response: Response,
    ) -> Option<Vec2> {
        // The common case, kept small enough to inline: well inside the walls, and the field
        // proves the whole step clear (every point of it lies within the step's length of `pos`,
        // so the body never comes within SKIN of a surface on the way).
        if self.holds(*pos, r) && self.field.clear_within(*pos, r + pos.distance(from) + SKIN) {
            return None;
        }
        self.collide_near(from, pos, vel, r, response)
    }

    /// [`Arena::collide`] for a body the field cannot vouch for.
    #[inline(never)]
    fn collide_near(
        &self,
        from: Vec2,
        pos: &mut Vec2,
        vel: &mut Vec2,
        r: f32,
        response: Response,
    ) -> Option<Vec2> {
        if !pos.is_finite() {
            *pos = if from.is_finite() {
                from
            } else {
                self.center()
            };
        }
        let inside = self.holds(*pos, r);
        let step = *pos - from;
        let length = step.length();
        // A short step (the usual one): every obstacle the body could touch on the way or at
        // either end lies within MAX_SWEEP_RADIUS of `from`, so the list of the cell holding
        // `from` names them all, and the sweep and the first push-out need look nowhere else.
        // Of those, only the ones whose bounding circle the body can reach this step count.
        let mut kept = [BLANK; FEW_NEAR + 1];
        let near = (r + length <= SHORT_STEP_REACH && self.contains(from)).then(|| {
            let cell = self.grid.cell_at(from);
            let reach = sweep_reach(r) + length + SKIN + ROUNDING;
            let mut n = 0;
            for e in cell {
                // Branch-free: every entry is written, the count moves on past the kept ones
                // (the last slot takes the rest).
                kept[n.min(FEW_NEAR)] = *e;
                let limit = e.reach + reach;
                n += usize::from(from.distance_squared(e.center) <= limit * limit);
            }
            if n <= FEW_NEAR { &kept[..n] } else { cell }
        });
        let nothing_near = match near {
            Some(cell) => cell.is_empty(),
            None => {
                let reach = if r <= MAX_SWEEP_RADIUS { 0.0 } else { r };
                !self.anything_near(*pos - reach, *pos + reach)
            }
        };
        if inside && nothing_near {
            return None;
        }
        let mut contact = None;
        let mut hit = |normal: Vec2, vel: &mut Vec2| {
            let into = vel.dot(normal);
            if into < 0.0 {
                *vel -= normal
                    * into
                    * match response {
                        Response::Slide => 1.0,
                        Response::Bounce => 2.0,
                    };
            }
            contact = Some(normal);
        };
        // Sweep the move: a body that meets an obstacle on the way stops at the contact and slides
        // the rest of its step along the surface, so a fast body cannot pass through a thin
        // obstacle, and rounding a corner never carries it farther than its step.
        // (A body that starts overlapping is left to the push-out below; that is rare, so it is
        // checked only when the sweep meets something.)
        if length > 1e-6 && self.contains(from) {
            let dir = step / length;
            let met = match near {
                Some(cell) => {
                    // As `sweep_obstacles` would: only the part of the step inside the walls.
                    let within = length.min(self.to_wall(from, dir));
                    let mut best = None;
                    if within > 0.0 {
                        self.sweep_among(cell, from, dir, within, r, &mut best);
                    }
                    best.map(|(t, normal, _)| (t, normal))
                }
                None => self
                    .sweep_obstacles(from, dir, length, r)
                    .map(|h| (h.t, h.normal)),
            };
            if let Some((t, normal)) = met
                && t < length
                // A start inside an obstacle meets it at once, so a later meeting means a clear
                // start (for a radius the sweep takes whole).
                && ((t > 0.0 && r <= MAX_SWEEP_RADIUS) || self.is_clear(from, r))
            {
                let reached = dir * (t - SKIN).max(0.0);
                let rest = step - reached;
                let into = rest.dot(normal).min(0.0);
                *pos = from + reached + (rest - normal * into);
                hit(normal, vel);
            }
        }
        // A few passes settle bodies wedged between obstacles that touch each other. (After a
        // short step the body is still within its length of `from`: the first pass looks only
        // at the cell's list.)
        for pass in 0..COLLIDE_PASSES {
            let mut moved = false;
            let surface = match near {
                Some(cell) if pass == 0 => {
                    let mut best = None;
                    self.nearest_among(cell, *pos, r, &mut best);
                    best
                }
                _ => self.nearest_surface(*pos, r),
            };
            if let Some(s) = surface
                && s.distance < r
            {
                *pos += s.normal * (r - s.distance + SKIN);
                hit(s.normal, vel);
                moved = true;
            }
            for (axis, limit) in [(0, self.width), (1, self.height)] {
                let lo = r.min(limit * 0.5);
                let hi = (limit - r).max(limit * 0.5);
                let mut normal = Vec2::ZERO;
                if pos[axis] < lo {
                    pos[axis] = lo;
                    normal[axis] = 1.0;
                } else if pos[axis] > hi {
                    pos[axis] = hi;
                    normal[axis] = -1.0;
                }
                if normal != Vec2::ZERO {
                    hit(normal, vel);
                    // Back inside the walls may mean back into an obstacle crossing them.
                    moved = true;
                }
            }
            if !moved {
                return contact;
            }
        }
        let within = |p: Vec2| {
            let lo = Vec2::splat(r).min(self.size() * 0.5);
            let hi = (self.size() - r).max(self.size() * 0.5);
            p.cmpge(lo).all() && p.cmple(hi).all()
        };
        if !self.is_clear(*pos, r) && within(from) && self.is_clear(from, r) {
            *pos = from;
            *vel = Vec2::ZERO;
        }
        contact
    }
}
