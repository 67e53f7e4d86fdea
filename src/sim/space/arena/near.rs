//! What is near a point: whether the grid files anything there, the nearest obstacle surface,
//! whether a body overlaps any obstacle, and the nearest place where one fits.

use super::Arena;
use super::grid::{CELL, Entry, MAX_SWEEP_RADIUS};
use crate::sim::space::field::ROUNDING;
use crate::sim::space::shape::Surface;
use glam::Vec2;

impl Arena {
    /// Whether any obstacle is filed in a cell the box touches (a cheap test that lets a query
    /// in open space skip all its work).
    pub fn anything_near(&self, min: Vec2, max: Vec2) -> bool {
        let (x0, y0, x1, y1) = self.grid.range(min, max);
        (y0..=y1).any(|y| {
            let row = y * self.grid.cols;
            self.grid.start[row + x1 + 1] > self.grid.start[row + x0]
        })
    }

    /// The nearest obstacle surface within `max_dist` of `p`, if any.
    pub fn nearest_surface(&self, p: Vec2, max_dist: f32) -> Option<Surface> {
        // Open space: the field proves there is nothing that near.
        if self.field.clear_within(p, max_dist + 1e-3) {
            return None;
        }
        let mut best: Option<Surface> = None;
        // Obstacles are filed in every cell within MAX_SWEEP_RADIUS of them, so for a reach no
        // longer than that, the cell holding `p` already lists every candidate.
        let reach = if max_dist <= MAX_SWEEP_RADIUS {
            0.0
        } else {
            max_dist
        };
        let (x0, y0, x1, y1) = self.grid.range(p - reach, p + reach);
        for y in y0..=y1 {
            for x in x0..=x1 {
                // An obstacle spanning several cells may come more than once; the minimum is
                // the same.
                self.nearest_among(self.grid.cell(x, y), p, max_dist, &mut best);
            }
        }
        best
    }

    /// The nearest surface within `max_dist` of `p` among one cell's list, or nearer than `best`
    /// (which it updates).
    pub(super) fn nearest_among(
        &self,
        cell: &[Entry],
        p: Vec2,
        max_dist: f32,
        best: &mut Option<Surface>,
    ) {
        for e in cell {
            let limit = e.reach + best.map_or(max_dist, |b| b.distance.min(max_dist)) + ROUNDING;
            // The surface is no nearer than the bounding circle.
            if limit < 0.0 || p.distance_squared(e.center) > limit * limit {
                continue;
            }
            let i = e.index as usize;
            let (distance, normal) = self.obstacles[i].surface(p);
            if distance <= max_dist
                && best.is_none_or(|b| {
                    distance < b.distance || (distance == b.distance && i < b.obstacle)
                })
            {
                *best = Some(Surface {
                    distance,
                    normal,
                    obstacle: i,
                });
            }
        }
    }

    /// Signed distance from `p` to the nearest obstacle surface anywhere (`None`: no obstacles).
    /// Searches outward in growing squares, stopping once the nearest hit lies inside the square.
    pub fn nearest_distance(&self, p: Vec2) -> Option<f32> {
        if self.obstacles.is_empty() {
            return None;
        }
        let far = self.width.max(self.height) * 2.0 + p.abs().max_element();
        let mut reach = CELL;
        loop {
            if let Some(s) = self.nearest_surface(p, reach) {
                return Some(s.distance);
            }
            if reach > far {
                // Only obstacles outside the search (cannot happen for validated arenas).
                return self
                    .obstacles
                    .iter()
                    .map(|o| o.surface(p).0)
                    .reduce(f32::min);
            }
            reach *= 2.0;
        }
    }

    /// Whether a body of radius `r` at `p` overlaps no obstacle.
    pub fn is_clear(&self, p: Vec2, r: f32) -> bool {
        self.nearest_surface(p, r).is_none_or(|s| s.distance >= r)
    }

    /// The nearest place to `p` where a body of radius `r` fits inside the walls and clear of
    /// every obstacle, searched ring by ring outward (`p` clamped inside if nothing fits).
    pub fn nearest_clear(&self, p: Vec2, r: f32) -> Vec2 {
        let lo = Vec2::splat(r).min(self.size() * 0.5);
        let hi = (self.size() - r).max(self.size() * 0.5);
        let p = if p.is_finite() {
            p.clamp(lo, hi)
        } else {
            self.center()
        };
        if self.is_clear(p, r) {
            return p;
        }
        let step = (r * 0.5).max(2.0);
        let reach = self.width.max(self.height);
        let mut ring = step;
        while ring <= reach {
            let around = ((std::f32::consts::TAU * ring / step).ceil() as usize).clamp(8, 512);
            for k in 0..around {
                let a = std::f32::consts::TAU * k as f32 / around as f32;
                let q = (p + Vec2::from_angle(a) * ring).clamp(lo, hi);
                if self.is_clear(q, r) {
                    return q;
                }
            }
            ring += step;
        }
        p
    }
}
