//! The arena's walls: whether a point or a body lies inside them, how far a heading runs to them,
//! and where a ray or a swept body meets them.

use super::Arena;
use crate::sim::space::shape::RayHit;
use glam::Vec2;

impl Arena {
    /// Whether a body of radius `r` at `p` lies inside the walls (false for a non-finite `p`).
    #[inline(always)]
    pub(super) fn holds(&self, p: Vec2, r: f32) -> bool {
        p.x >= r && p.y >= r && p.x <= self.width - r && p.y <= self.height - r
    }

    /// Whether a point lies inside the walls.
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.height
    }

    /// Distance along unit `dir` from `origin` (inside) to the walls.
    pub(super) fn to_wall(&self, origin: Vec2, dir: Vec2) -> f32 {
        // Selects, not branches: which way a heading points is a coin toss to the predictor.
        let along = |o: f32, d: f32, limit: f32| {
            let t = if d > 0.0 { limit - o } else { -o } / d;
            if d == 0.0 { f32::INFINITY } else { t }
        };
        along(origin.x, dir.x, self.width).min(along(origin.y, dir.y, self.height))
    }

    /// Where a ray from inside the arena meets the walls (normal pointing inward), within `length`.
    pub fn ray_cast_walls(&self, origin: Vec2, dir: Vec2, length: f32) -> Option<RayHit> {
        self.sweep_walls(origin, dir, length, 0.0)
    }

    /// Like [`Arena::ray_cast_walls`] for a body of radius `r`: the walls stand `r` closer.
    pub fn sweep_walls(&self, origin: Vec2, dir: Vec2, length: f32, r: f32) -> Option<RayHit> {
        // Per axis, the wall ahead (the far one moving forward, the near one moving back) and
        // whether it is met within `length`; selects, not branches, since which way a ray points
        // is a coin toss to the predictor. A ray (nearly) parallel to an axis meets neither of
        // its walls; of two met at the same distance the x wall counts.
        let meet = |o: f32, d: f32, limit: f32| {
            let t = (if d > 0.0 { limit - r - o } else { r - o } / d).max(0.0);
            (t, (d.abs() > 1e-9) & (t <= length))
        };
        let (tx, hx) = meet(origin.x, dir.x, self.width);
        let (ty, hy) = meet(origin.y, dir.y, self.height);
        let (t, normal) = if hy & (!hx | (ty < tx)) {
            (ty, Vec2::new(0.0, -dir.y.signum()))
        } else if hx {
            (tx, Vec2::new(-dir.x.signum(), 0.0))
        } else {
            return None;
        };
        Some(RayHit {
            t,
            point: origin + dir * t - normal * r,
            normal,
            obstacle: None,
        })
    }
}
