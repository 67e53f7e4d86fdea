//! Several sweeps at once, an agent's feelers: the rays share one pass over the cells under their
//! bounding box, and each obstacle there is tested against all of them together.

use super::Arena;
use super::grid::MAX_SWEEP_RADIUS;
use super::ray::{Nearest, Ray};
use crate::sim::space::field::ROUNDING;
use crate::sim::space::lanes::{LANES, Lanes};
use crate::sim::space::shape::{RayHit, sweep_reach};
use glam::Vec2;

/// A fan's nearest meetings as hits: where each ray's body touched, and the surface normal.
#[inline(always)]
fn fan_hits<const N: usize>(live: &[Ray; N], best: &[Nearest; N], r: f32) -> [Option<RayHit>; N] {
    let mut hits = [None; N];
    for (k, hit) in hits.iter_mut().enumerate() {
        let (origin, dir, _) = live[k];
        *hit = best[k].map(|(t, normal, index)| RayHit {
            t,
            point: origin + dir * t - normal * r,
            normal,
            obstacle: Some(index),
        });
    }
    hits
}

impl Arena {
    /// Several sweeps at once — an agent's feelers: for each ray (`origin`, `dir`, `length`), the
    /// first obstacle a body of radius `r` meets, exactly as [`Arena::sweep_obstacles`] finds it
    /// (of two met at the same distance, the lower index). Rays that lie close together
    /// share one pass over the cells under their bounding box, each obstacle there tested once
    /// against every ray, where separate sweeps would walk the grid once per ray. Up to
    /// [`LANES`] rays.
    pub fn sweep_fan<const N: usize>(
        &self,
        rays: &[(Vec2, Vec2, f32); N],
        r: f32,
    ) -> [Option<RayHit>; N] {
        const { assert!(N <= LANES, "a fan's rays fit the lanes") };
        let r = r.clamp(0.0, MAX_SWEEP_RADIUS);
        let (live, alive) = self.fan_spans(rays);
        // The rays' bounding box.
        let mut min = Vec2::splat(f32::INFINITY);
        let mut max = Vec2::splat(f32::NEG_INFINITY);
        for (k, &(origin, dir, length)) in live.iter().enumerate() {
            if alive & 1 << k != 0 {
                // (Plain comparisons: `Vec2::min` guards against NaN, which never gets here, at
                // several instructions a component.)
                for p in [origin, origin + dir * length] {
                    min = Vec2::select(p.cmplt(min), p, min);
                    max = Vec2::select(p.cmpgt(max), p, max);
                }
            }
        }
        let mut best: [Nearest; N] = [None; N];
        if min.is_finite() {
            // The rays side by side, one to a lane, for the bounding-circle test of all of them
            // at once.
            let mut lanes = Lanes::default();
            for (k, &(origin, dir, length)) in live.iter().enumerate() {
                lanes.ox[k] = origin.x;
                lanes.oy[k] = origin.y;
                lanes.dx[k] = dir.x;
                lanes.dy[k] = dir.y;
                lanes.within[k] = length;
            }
            let slack = sweep_reach(r) + ROUNDING;
            // Where a body touches an obstacle its centre is on the ray, and an obstacle is filed
            // in every cell within MAX_SWEEP_RADIUS of it: the cells under the rays' box list
            // every obstacle any of them can meet.
            let (x0, y0, x1, y1) = self.grid.range(min, max);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    for e in self.grid.first_in_box(x, y, x0, y0) {
                        // Which rays may meet the obstacle, tested together and without a
                        // branch (in a crowd most tests fail, unpredictably).
                        let mut kept = lanes.may_meet(e.center, e.reach + slack) & alive;
                        while kept != 0 {
                            let k = kept.trailing_zeros() as usize;
                            kept &= kept - 1;
                            self.meet(e.index, live[k], r, &mut best[k]);
                            if let Some(b) = best[k] {
                                lanes.within[k] = b.0;
                            }
                        }
                    }
                }
            }
        }
        fan_hits(&live, &best, r)
    }

    /// [`Arena::sweep_fan`] for a fan that can meet no obstacle but the one of `index` (the
    /// clearance field has shown every other out of reach): the same hits, that obstacle tested
    /// against each ray and no grid cell visited.
    pub fn sweep_fan_only<const N: usize>(
        &self,
        index: u32,
        rays: &[(Vec2, Vec2, f32); N],
        r: f32,
    ) -> [Option<RayHit>; N] {
        let r = r.clamp(0.0, MAX_SWEEP_RADIUS);
        let (live, alive) = self.fan_spans(rays);
        let mut best: [Nearest; N] = [None; N];
        if (index as usize) < self.obstacles.len() {
            for (k, best) in best.iter_mut().enumerate() {
                if alive & 1 << k != 0 {
                    self.meet(index, live[k], r, best);
                }
            }
        }
        fan_hits(&live, &best, r)
    }

    /// Each of a fan's rays as a single sweep takes it — a unit direction, from inside the walls,
    /// only as far as them — and a bit set for each that has anything to sweep.
    #[inline(always)]
    fn fan_spans<const N: usize>(&self, rays: &[(Vec2, Vec2, f32); N]) -> ([Ray; N], u32) {
        let mut live = [(Vec2::ZERO, Vec2::X, 0.0f32); N];
        let mut alive = 0u32;
        for (k, &(origin, dir, length)) in rays.iter().enumerate() {
            if let Some((dir, length)) = self.sweep_span(origin, dir, length)
                && length > 0.0
            {
                live[k] = (origin, dir, length);
                alive |= 1 << k;
            }
        }
        (live, alive)
    }
}
