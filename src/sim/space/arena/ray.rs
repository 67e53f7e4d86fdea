//! A ray, or a body swept along one, against the obstacles: sphere tracing through the clearance
//! field while it vouches for the way, then a walk of the grid cells the ray crosses; and the
//! nearer of that hit and the walls'.

use super::Arena;
use super::grid::{CELL, Entry, MAX_SWEEP_RADIUS};
use crate::sim::space::shape::{RayHit, sweep_reach};
use glam::Vec2;

/// Most strides a sweep takes through the clearance field before walking the grid, and the
/// shortest worth taking (px): near a surface the strides shrink and the grid walk is quicker.
const TRACE_STRIDES: usize = 4;
const MIN_STRIDE: f32 = 2.0;
/// Up to this many obstacles in a cell, a sweep tests them one by one; more, in a branch-free
/// batch.
const FEW: usize = 4;

/// A sweep's way: origin, unit direction and length.
pub(super) type Ray = (Vec2, Vec2, f32);
/// The nearest hit of a sweep so far: how far, the surface normal, the obstacle's index.
pub(super) type Nearest = Option<(f32, Vec2, u32)>;

/// How far inside the walls (px) a ray's end must lie for [`Arena::sweep_span`] to take its
/// length as it is: a hundredth of a pixel, where the distance to a wall divided out along the
/// ray is off by well under a thousandth.
const SPAN_MARGIN: f32 = 0.01;

impl Arena {
    /// The first obstacle hit by the ray from `origin` along unit `dir` within `length` and inside
    /// the walls (a ray starting outside the arena hits nothing).
    pub fn ray_cast(&self, origin: Vec2, dir: Vec2, length: f32) -> Option<RayHit> {
        self.sweep_obstacles(origin, dir, length, 0.0)
    }

    /// Like [`Arena::ray_cast`] for a body of radius `r` (at most [`MAX_SWEEP_RADIUS`]) moving
    /// along the ray: `t` is how far its centre travels before its edge touches an obstacle.
    ///
    /// The open stretch at the start is crossed in strides the clearance field proves empty
    /// (sphere tracing); from where the field can no longer vouch for the way ahead, the walk
    /// visits the grid cells the ray crosses in order (Amanatides & Woo) and stops at the first
    /// cell holding a hit nearer than the cell's far edge.
    pub fn sweep_obstacles(&self, origin: Vec2, dir: Vec2, length: f32, r: f32) -> Option<RayHit> {
        self.sweep_obstacles_past(origin, dir, length, r, 0.0)
    }

    /// [`Arena::sweep_obstacles`] for a caller that already knows the first `clear` pixels of the
    /// way are free (from [`Field::free`](crate::sim::space::field::Field::free) at `origin`, less
    /// [`sweep_reach`]; several rays from one point share that look).
    pub fn sweep_obstacles_past(
        &self,
        origin: Vec2,
        dir: Vec2,
        length: f32,
        r: f32,
        clear: f32,
    ) -> Option<RayHit> {
        let r = r.clamp(0.0, MAX_SWEEP_RADIUS);
        let (dir, length) = self.sweep_span(origin, dir, length)?;
        let mut start = clear.max(0.0);
        if start >= length {
            return None;
        }
        for _ in 0..TRACE_STRIDES {
            let stride = self.field.free(origin + dir * start) - sweep_reach(r);
            if stride < MIN_STRIDE {
                break;
            }
            start += stride;
            if start >= length {
                return None;
            }
        }
        let from = origin + dir * start;
        let (cols, rows) = (self.grid.cols as i64, self.grid.rows as i64);
        // `from` is inside the arena, so truncation is the floor.
        let cell_of = |v: f32, n: i64| i64::from((v.max(0.0) / CELL) as u32).min(n - 1);
        let (mut cx, mut cy) = (cell_of(from.x, cols), cell_of(from.y, rows));
        let step_x = if dir.x > 0.0 { 1 } else { -1 };
        let step_y = if dir.y > 0.0 { 1 } else { -1 };
        let next_edge = |c: i64, step: i64| (c + i64::from(step > 0)) as f32 * CELL;
        // Distances along the ray are measured from `origin` throughout.
        let t_to = |edge: f32, o: f32, d: f32| {
            if d.abs() < 1e-9 {
                f32::INFINITY
            } else {
                ((edge - o) / d).max(0.0)
            }
        };
        let mut t_max_x = t_to(next_edge(cx, step_x), origin.x, dir.x);
        let mut t_max_y = t_to(next_edge(cy, step_y), origin.y, dir.y);
        let t_delta_x = if dir.x.abs() < 1e-9 {
            f32::INFINITY
        } else {
            CELL / dir.x.abs()
        };
        let t_delta_y = if dir.y.abs() < 1e-9 {
            f32::INFINITY
        } else {
            CELL / dir.y.abs()
        };
        let mut best: Nearest = None;
        loop {
            self.sweep_among(
                self.grid.cell(cx as usize, cy as usize),
                origin,
                dir,
                length,
                r,
                &mut best,
            );
            let t_exit = t_max_x.min(t_max_y);
            if best.is_some_and(|b| b.0 <= t_exit) || t_exit > length {
                break;
            }
            if t_max_x < t_max_y {
                cx += step_x;
                t_max_x += t_delta_x;
            } else {
                cy += step_y;
                t_max_y += t_delta_y;
            }
            if cx < 0 || cy < 0 || cx >= cols || cy >= rows {
                break;
            }
        }
        best.map(|(t, normal, index)| RayHit {
            t,
            // The surface point, not the centre's position at contact.
            point: origin + dir * t - normal * r,
            normal,
            obstacle: Some(index),
        })
    }

    /// A ray as a sweep takes it: the direction made unit, the length cut at the walls (what lies
    /// beyond a wall cannot be reached); `None` when there is nothing to sweep (no direction, no
    /// length, or a start outside the walls).
    #[inline(always)]
    pub(super) fn sweep_span(&self, origin: Vec2, dir: Vec2, length: f32) -> Option<(Vec2, f32)> {
        let dir = if (dir.length_squared() - 1.0).abs() < 1e-6 {
            dir
        } else {
            dir.normalize_or_zero()
        };
        if dir == Vec2::ZERO
            || !origin.is_finite()
            || length.is_nan()
            || length <= 0.0
            || !self.contains(origin)
        {
            return None;
        }
        // A ray that ends well inside the walls is not cut (the arena is convex), which the
        // walls' divisions need not tell: the margin is far above their rounding.
        if self.holds(origin + dir * length, SPAN_MARGIN) {
            return Some((dir, length));
        }
        Some((dir, length.min(self.to_wall(origin, dir))))
    }

    /// The exact test of the obstacle of `index` against a sweep (`origin`, unit `dir`, `length`)
    /// of a body of radius `r`, keeping the nearer hit in `best` (of two at the same distance, the
    /// obstacle of lower index, whatever order the cells list them in).
    #[inline(always)]
    pub(super) fn meet(&self, index: u32, (origin, dir, length): Ray, r: f32, best: &mut Nearest) {
        let within = best.map_or(length, |b| b.0);
        let o = self.obstacles[index as usize].inflated(r);
        if let Some((t, normal)) = o.ray(origin, dir, within)
            && best.is_none_or(|b| t < b.0 || (t == b.0 && index < b.2))
        {
            *best = Some((t, normal, index));
        }
    }

    /// The nearest meeting of a body of radius `r` swept from `origin` along unit `dir` with the
    /// obstacles of one cell's list, within `length` or nearer than `best` (which it updates).
    #[inline(always)]
    pub(super) fn sweep_among(
        &self,
        cell: &[Entry],
        origin: Vec2,
        dir: Vec2,
        length: f32,
        r: f32,
        best: &mut Nearest,
    ) {
        if cell.len() <= FEW {
            for e in cell {
                if e.may_meet(origin, dir, r, best.map_or(length, |b| b.0)) {
                    self.meet(e.index, (origin, dir, length), r, best);
                }
            }
        } else {
            // In a crowded cell the bounding-circle test passes about one obstacle in four,
            // which a branch per obstacle mispredicts often: test a batch into a bit mask
            // without branching, then visit only the obstacles it kept.
            for batch in cell.chunks(64) {
                let within = best.map_or(length, |b| b.0);
                let mut kept = 0u64;
                for (k, e) in batch.iter().enumerate() {
                    kept |= u64::from(e.may_meet(origin, dir, r, within)) << k;
                }
                while kept != 0 {
                    self.meet(
                        batch[kept.trailing_zeros() as usize].index,
                        (origin, dir, length),
                        r,
                        best,
                    );
                    kept &= kept - 1;
                }
            }
        }
    }

    /// The nearer of the first obstacle hit and the wall hit.
    pub fn ray_cast_solid(&self, origin: Vec2, dir: Vec2, length: f32) -> Option<RayHit> {
        self.sweep(origin, dir, length, 0.0)
    }

    /// The nearer of [`Arena::sweep_obstacles`] and [`Arena::sweep_walls`].
    pub fn sweep(&self, origin: Vec2, dir: Vec2, length: f32, r: f32) -> Option<RayHit> {
        let obstacle = self.sweep_obstacles(origin, dir, length, r);
        let wall = self.sweep_walls(origin, dir, length, r);
        match (obstacle, wall) {
            (Some(o), Some(w)) => Some(if o.t <= w.t { o } else { w }),
            (o, w) => o.or(w),
        }
    }
}
