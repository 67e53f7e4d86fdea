//! The arena: walls, obstacles and spawn points, with a uniform grid so every obstacle query
//! (nearest surface, ray cast, collision) visits only the cells it touches — no agent ever scans
//! every obstacle.

use crate::data::arena::{ArenaData, ObstacleData};
use crate::sim::field::{Field, ROUNDING};
use crate::sim::lanes::{LANES, Lanes};
use crate::sim::tiles::TileGrid;
use glam::Vec2;

/// Side of a grid cell in pixels.
pub const CELL: f32 = 64.0;
/// Largest body radius a sweep may use: obstacles are filed in every cell within this distance of
/// their bounds, so a ray walk finds the obstacles a body of that size would touch.
pub const MAX_SWEEP_RADIUS: f32 = 24.0;
/// How far a collision pushes a body beyond the surface, so rounding never leaves it touching.
const SKIN: f32 = 0.01;
/// Push-out passes per collision; bodies wedged between touching obstacles need several.
const COLLIDE_PASSES: usize = 16;
/// A collision whose body radius plus step length is at most this (px) finds every obstacle it
/// could touch in the list of the cell it starts in (a pixel inside [`MAX_SWEEP_RADIUS`], for
/// rounding).
const SHORT_STEP_REACH: f32 = MAX_SWEEP_RADIUS - 1.0;
/// Most strides a sweep takes through the clearance field before walking the grid, and the
/// shortest worth taking (px): near a surface the strides shrink and the grid walk is quicker.
const TRACE_STRIDES: usize = 4;
const MIN_STRIDE: f32 = 2.0;
/// Up to this many obstacles in a cell, a sweep tests them one by one; more, in a branch-free
/// batch.
const FEW: usize = 4;
/// A collision keeps up to this many obstacles its step can reach (more: it looks at the cell's
/// whole list).
const FEW_NEAR: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Obstacle {
    Circle { center: Vec2, radius: f32 },
    Rect { min: Vec2, max: Vec2 },
}

/// Where a ray met an obstacle: distance along the ray, the point and the surface normal there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    pub t: f32,
    pub point: Vec2,
    pub normal: Vec2,
    /// The obstacle's index; `None` for a wall.
    pub obstacle: Option<u32>,
}

/// The nearest obstacle surface to a point: signed distance (negative inside) and outward normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    pub distance: f32,
    pub normal: Vec2,
    pub obstacle: usize,
}

/// What a collision does to the velocity's component into the surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response {
    /// Remove it: the body slides along the surface.
    Slide,
    /// Reflect it: the body bounces off.
    Bounce,
}

impl Obstacle {
    pub fn from_data(d: &ObstacleData) -> Self {
        match *d {
            ObstacleData::Circle { x, y, radius } => Obstacle::Circle {
                center: Vec2::new(x, y),
                radius,
            },
            ObstacleData::Rect { x, y, w, h } => Obstacle::Rect {
                min: Vec2::new(x, y),
                max: Vec2::new(x + w, y + h),
            },
        }
    }

    pub fn to_data(&self) -> ObstacleData {
        match *self {
            Obstacle::Circle { center, radius } => ObstacleData::Circle {
                x: center.x,
                y: center.y,
                radius,
            },
            Obstacle::Rect { min, max } => ObstacleData::Rect {
                x: min.x,
                y: min.y,
                w: max.x - min.x,
                h: max.y - min.y,
            },
        }
    }

    /// The centre of the shape.
    pub fn center(&self) -> Vec2 {
        match *self {
            Obstacle::Circle { center, .. } => center,
            Obstacle::Rect { min, max } => (min + max) * 0.5,
        }
    }

    /// Axis-aligned bounding box.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        match *self {
            Obstacle::Circle { center, radius } => (center - radius, center + radius),
            Obstacle::Rect { min, max } => (min, max),
        }
    }

    /// Signed distance from `p` to the surface (negative inside) and the outward unit normal.
    pub fn surface(&self, p: Vec2) -> (f32, Vec2) {
        match *self {
            Obstacle::Circle { center, radius } => {
                let offset = p - center;
                let d = offset.length();
                let normal = if d > 1e-6 { offset / d } else { Vec2::X };
                (d - radius, normal)
            }
            Obstacle::Rect { min, max } => {
                let center = (min + max) * 0.5;
                let half = (max - min) * 0.5;
                let q = p - center;
                let d = q.abs() - half;
                if d.x > 0.0 || d.y > 0.0 {
                    let outside = d.max(Vec2::ZERO);
                    let closest = center + q.clamp(-half, half);
                    let normal = (p - closest).normalize_or_zero();
                    (outside.length(), normal)
                } else if d.x > d.y {
                    (d.x, Vec2::new(q.x.signum(), 0.0))
                } else {
                    (d.y, Vec2::new(0.0, q.y.signum()))
                }
            }
        }
    }

    /// The obstacle grown by `r` on every side (a rectangle keeps square corners, so a body
    /// swept past it is warned a little early at the corners, never late).
    pub fn inflated(&self, r: f32) -> Obstacle {
        match *self {
            Obstacle::Circle { center, radius } => Obstacle::Circle {
                center,
                radius: radius + r,
            },
            Obstacle::Rect { min, max } => Obstacle::Rect {
                min: min - r,
                max: max + r,
            },
        }
    }

    /// First intersection of the ray `origin + t * dir` (`dir` unit) with `t` in `[0, max_t]`;
    /// a ray starting inside hits at `t = 0`.
    pub fn ray(&self, origin: Vec2, dir: Vec2, max_t: f32) -> Option<(f32, Vec2)> {
        match *self {
            Obstacle::Circle { center, radius } => {
                let m = origin - center;
                let c = m.length_squared() - radius * radius;
                if c <= 0.0 {
                    return Some((0.0, m.normalize_or_zero()));
                }
                let b = m.dot(dir);
                if b > 0.0 {
                    return None;
                }
                // r² minus the squared distance of closest approach: stable for grazing rays,
                // unlike b² - c, which cancels catastrophically in f32.
                let disc = radius * radius - (m - dir * b).length_squared();
                if disc < 0.0 {
                    return None;
                }
                let t = -b - disc.sqrt();
                (t <= max_t).then(|| (t, (origin + dir * t - center) / radius))
            }
            Obstacle::Rect { min, max } if dir.x.abs() >= 1e-9 && dir.y.abs() >= 1e-9 => {
                // The slab test, both axes at once: where the ray enters and leaves each slab.
                // (Plain comparisons throughout: `min`/`max` guard against NaN at several
                // instructions each, and with a finite origin and no zero component of `dir`
                // there is none.)
                let (a, b) = ((min - origin) / dir, (max - origin) / dir);
                let less = a.cmplt(b);
                let (enter, leave) = (Vec2::select(less, a, b), Vec2::select(less, b, a));
                let t_near = greater(greater(enter.x, enter.y), 0.0);
                if t_near > lesser(lesser(leave.x, leave.y), max_t) {
                    return None;
                }
                // The face of the slab entered last; none when the ray starts inside.
                let normal = if enter.y > greater(enter.x, 0.0) {
                    Vec2::new(0.0, -dir.y.signum())
                } else if enter.x > 0.0 {
                    Vec2::new(-dir.x.signum(), 0.0)
                } else {
                    self.surface(origin).1
                };
                Some((t_near, normal))
            }
            Obstacle::Rect { min, max } => {
                // A ray along an axis: the slab across it either holds the ray or misses it.
                let mut t_near = 0.0f32;
                let mut t_far = max_t;
                let mut normal = Vec2::ZERO;
                for axis in 0..2 {
                    let (o, d, lo, hi) = (origin[axis], dir[axis], min[axis], max[axis]);
                    if d.abs() < 1e-9 {
                        if o < lo || o > hi {
                            return None;
                        }
                        continue;
                    }
                    let (mut t0, mut t1) = ((lo - o) / d, (hi - o) / d);
                    let mut n = Vec2::ZERO;
                    n[axis] = -d.signum();
                    if t0 > t1 {
                        std::mem::swap(&mut t0, &mut t1);
                    }
                    if t0 > t_near {
                        t_near = t0;
                        normal = n;
                    }
                    t_far = t_far.min(t1);
                    if t_near > t_far {
                        return None;
                    }
                }
                if normal == Vec2::ZERO {
                    // Started inside the box.
                    normal = self.surface(origin).1;
                }
                Some((t_near, normal))
            }
        }
    }
}

/// A sweep's way: origin, unit direction and length.
type Ray = (Vec2, Vec2, f32);
/// The nearest hit of a sweep so far: how far, the surface normal, the obstacle's index.
type Nearest = Option<(f32, Vec2, u32)>;

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

/// How far inside the walls (px) a ray's end must lie for [`Arena::sweep_span`] to take its
/// length as it is: a hundredth of a pixel, where the distance to a wall divided out along the
/// ray is off by well under a thousandth.
const SPAN_MARGIN: f32 = 0.01;

/// The lesser of two numbers that are not NaN.
#[inline(always)]
fn lesser(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The greater of two numbers that are not NaN.
#[inline(always)]
fn greater(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// How far from a shape a body of radius `r` can be and still meet it in a sweep: a rectangle
/// grown by `r` keeps square corners, which stand √2·r from the shape.
pub fn sweep_reach(r: f32) -> f32 {
    r * std::f32::consts::SQRT_2
}

/// An obstacle as the grid files it: its index and its bounding circle, so a query can pass over
/// an obstacle it cannot reach without looking at the shape.
#[derive(Debug, Clone, Copy)]
struct Entry {
    center: Vec2,
    reach: f32,
    index: u32,
}

/// A placeholder entry.
const BLANK: Entry = Entry {
    center: Vec2::ZERO,
    reach: 0.0,
    index: 0,
};

impl Entry {
    fn new(index: usize, o: &Obstacle) -> Self {
        let (center, reach) = match *o {
            Obstacle::Circle { center, radius } => (center, radius),
            Obstacle::Rect { min, max } => ((min + max) * 0.5, (max - min).length() * 0.5),
        };
        Entry {
            center,
            reach,
            index: index as u32,
        }
    }

    /// Whether a body of radius `r` moving from `origin` along unit `dir` could touch the
    /// bounding circle before travelling `within`.
    fn may_meet(&self, origin: Vec2, dir: Vec2, r: f32, within: f32) -> bool {
        let m = self.center - origin;
        let reach = self.reach + sweep_reach(r) + ROUNDING;
        // Distance along the ray to the centre's closest approach, and the miss distance there.
        let along = m.dot(dir);
        let aside = m.perp_dot(dir);
        // `&`, not `&&`: no branches, so a batch of these runs without mispredictions.
        (aside.abs() <= reach) & (along + reach >= 0.0) & (along - reach <= within)
    }
}

/// Obstacles bucketed by the grid cells their bounding boxes (grown by [`MAX_SWEEP_RADIUS`])
/// overlap (compressed rows: cell `i` holds `items[start[i]..start[i + 1]]`).
#[derive(Debug, Clone, Default)]
struct Grid {
    cols: usize,
    rows: usize,
    start: Vec<u32>,
    /// Each cell's list runs in four parts, by where each obstacle's first cell (the top-left one
    /// it is filed in) lies: straight above, this cell, straight left, above and left.
    /// `runs[i]` holds where the first three parts end.
    runs: Vec<[u32; 3]>,
    items: Vec<Entry>,
}

impl Grid {
    fn build(obstacles: &[Obstacle], width: f32, height: f32) -> Self {
        let cols = ((width / CELL).ceil() as usize).max(1);
        let rows = ((height / CELL).ceil() as usize).max(1);
        let mut grid = Grid {
            cols,
            rows,
            start: vec![0; cols * rows + 1],
            runs: vec![[0; 3]; cols * rows],
            items: Vec::new(),
        };
        for o in obstacles {
            let (min, max) = o.inflated(MAX_SWEEP_RADIUS).bounds();
            let (x0, y0, x1, y1) = grid.range(min, max);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.start[y * cols + x + 1] += 1;
                }
            }
        }
        for i in 1..grid.start.len() {
            grid.start[i] += grid.start[i - 1];
        }
        let part = |x: usize, y: usize, x0: usize, y0: usize| match (x == x0, y == y0) {
            (true, false) => 0,
            (true, true) => 1,
            (false, true) => 2,
            (false, false) => 3,
        };
        let mut count = vec![[0u32; 4]; cols * rows];
        for o in obstacles {
            let (min, max) = o.inflated(MAX_SWEEP_RADIUS).bounds();
            let (x0, y0, x1, y1) = grid.range(min, max);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    count[y * cols + x][part(x, y, x0, y0)] += 1;
                }
            }
        }
        let mut fill = vec![[0u32; 4]; cols * rows];
        for (i, c) in count.iter().enumerate() {
            let s = grid.start[i];
            fill[i] = [s, s + c[0], s + c[0] + c[1], s + c[0] + c[1] + c[2]];
            grid.runs[i] = [fill[i][1], fill[i][2], fill[i][3]];
        }
        grid.items = vec![BLANK; grid.start[cols * rows] as usize];
        for (index, o) in obstacles.iter().enumerate() {
            let (min, max) = o.inflated(MAX_SWEEP_RADIUS).bounds();
            let (x0, y0, x1, y1) = grid.range(min, max);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let slot = &mut fill[y * cols + x][part(x, y, x0, y0)];
                    grid.items[*slot as usize] = Entry::new(index, o);
                    *slot += 1;
                }
            }
        }
        grid
    }

    /// Inclusive cell range covering the box, clamped to the grid.
    fn range(&self, min: Vec2, max: Vec2) -> (usize, usize, usize, usize) {
        // `as u32` truncates, which is the floor for non-negative values, and saturates the rest
        // (negative and NaN to 0, too large to `u32::MAX`) — without a call to `floorf` on
        // baseline x86-64, and in a few instructions where `as usize` takes a dozen.
        let clamp = |v: f32, n: usize| ((v / CELL) as u32 as usize).min(n - 1);
        (
            clamp(min.x, self.cols),
            clamp(min.y, self.rows),
            clamp(max.x, self.cols),
            clamp(max.y, self.rows),
        )
    }

    /// The list of the cell holding `p` (the nearest cell for a point outside the grid).
    fn cell_at(&self, p: Vec2) -> &[Entry] {
        let (x, y, _, _) = self.range(p, p);
        self.cell(x, y)
    }

    /// The obstacles of cell (`x`, `y`) that a query over the box of cells from (`x0`, `y0`)
    /// meets here first: over the box's cells, each obstacle once. Past the box's first column
    /// that is only the obstacles whose first cell is in this column (the parts above and this
    /// cell's own), past its first row only those whose first cell is in this row (this cell's
    /// own and the part left), past both only this cell's own.
    fn first_in_box(&self, x: usize, y: usize, x0: usize, y0: usize) -> &[Entry] {
        let i = y * self.cols + x;
        let [above, own, left] = self.runs[i];
        let (from, to) = match (x == x0, y == y0) {
            (true, true) => (self.start[i], self.start[i + 1]),
            (false, true) => (self.start[i], own),
            (true, false) => (above, left),
            (false, false) => (above, own),
        };
        &self.items[from as usize..to as usize]
    }

    fn cell(&self, x: usize, y: usize) -> &[Entry] {
        let i = y * self.cols + x;
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[derive(Debug, Clone)]
pub struct Arena {
    pub width: f32,
    pub height: f32,
    pub tile_size: f32,
    obstacles: Vec<Obstacle>,
    pub spawns: Vec<Vec2>,
    pub player_start: Vec2,
    grid: Grid,
    /// Lower bounds on the distance to the nearest obstacle, for the open-space fast paths.
    field: Field,
    /// Tiles overlapped by obstacles, for the tile modes.
    pub tiles: TileGrid,
}

impl Arena {
    pub fn from_data(d: &ArenaData) -> Self {
        let obstacles: Vec<Obstacle> = d.obstacles.iter().map(Obstacle::from_data).collect();
        let grid = Grid::build(&obstacles, d.width, d.height);
        let field = Field::build(&obstacles, d.width, d.height);
        let tiles = TileGrid::new(d.width, d.height, d.tile_size, &obstacles);
        Arena {
            tiles,
            width: d.width,
            height: d.height,
            tile_size: d.tile_size,
            obstacles,
            spawns: d.spawns.iter().map(|s| Vec2::from(*s)).collect(),
            player_start: Vec2::from(d.player_start),
            grid,
            field,
        }
    }

    pub fn to_data(&self) -> ArenaData {
        ArenaData {
            width: self.width,
            height: self.height,
            tile_size: self.tile_size,
            obstacles: self.obstacles.iter().map(Obstacle::to_data).collect(),
            spawns: self.spawns.iter().map(|s| s.to_array()).collect(),
            player_start: self.player_start.to_array(),
        }
    }

    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    pub fn size(&self) -> Vec2 {
        Vec2::new(self.width, self.height)
    }

    pub fn center(&self) -> Vec2 {
        self.size() * 0.5
    }

    /// Whether a body of radius `r` at `p` lies inside the walls (false for a non-finite `p`).
    #[inline(always)]
    fn holds(&self, p: Vec2, r: f32) -> bool {
        p.x >= r && p.y >= r && p.x <= self.width - r && p.y <= self.height - r
    }

    /// Whether a point lies inside the walls.
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.height
    }

    /// Whether any obstacle is filed in a cell the box touches (a cheap test that lets a query
    /// in open space skip all its work).
    pub fn anything_near(&self, min: Vec2, max: Vec2) -> bool {
        let (x0, y0, x1, y1) = self.grid.range(min, max);
        (y0..=y1).any(|y| {
            let row = y * self.grid.cols;
            self.grid.start[row + x1 + 1] > self.grid.start[row + x0]
        })
    }

    /// Distance along unit `dir` from `origin` (inside) to the walls.
    fn to_wall(&self, origin: Vec2, dir: Vec2) -> f32 {
        // Selects, not branches: which way a heading points is a coin toss to the predictor.
        let along = |o: f32, d: f32, limit: f32| {
            let t = if d > 0.0 { limit - o } else { -o } / d;
            if d == 0.0 { f32::INFINITY } else { t }
        };
        along(origin.x, dir.x, self.width).min(along(origin.y, dir.y, self.height))
    }

    /// The lower bounds on obstacle distance (see [`Field`]).
    pub fn field(&self) -> &Field {
        &self.field
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
    fn nearest_among(&self, cell: &[Entry], p: Vec2, max_dist: f32, best: &mut Option<Surface>) {
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
    /// way are free (from [`Field::free`] at `origin`, less [`sweep_reach`]; several rays from
    /// one point share that look).
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
    fn sweep_span(&self, origin: Vec2, dir: Vec2, length: f32) -> Option<(Vec2, f32)> {
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

    /// The exact test of the obstacle of `index` against a sweep (`origin`, unit `dir`, `length`) of a body
    /// of radius `r`, keeping the nearer hit in `best` (of two at the same distance, the obstacle
    /// of lower index, whatever order the cells list them in).
    #[inline(always)]
    fn meet(&self, index: u32, (origin, dir, length): Ray, r: f32, best: &mut Nearest) {
        let within = best.map_or(length, |b| b.0);
        let o = self.obstacles[index as usize].inflated(r);
        if let Some((t, normal)) = o.ray(origin, dir, within)
            && best.is_none_or(|b| t < b.0 || (t == b.0 && index < b.2))
        {
            *best = Some((t, normal, index));
        }
    }

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

    /// The nearest meeting of a body of radius `r` swept from `origin` along unit `dir` with the
    /// obstacles of one cell's list, within `length` or nearer than `best` (which it updates).
    #[inline(always)]
    fn sweep_among(
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

    /// Whether a body of radius `r` at `p` overlaps no obstacle.
    pub fn is_clear(&self, p: Vec2, r: f32) -> bool {
        self.nearest_surface(p, r).is_none_or(|s| s.distance >= r)
    }

    /// Add an obstacle and rebuild the query grid.
    pub fn add_obstacle(&mut self, o: Obstacle) {
        self.obstacles.push(o);
        self.rebuild();
    }

    /// Remove the obstacle containing `p` (the topmost, i.e. last added), if any.
    pub fn remove_obstacle_at(&mut self, p: Vec2) -> Option<Obstacle> {
        let index = self.obstacles.iter().rposition(|o| o.surface(p).0 <= 0.0)?;
        let removed = self.obstacles.remove(index);
        self.rebuild();
        Some(removed)
    }

    fn rebuild(&mut self) {
        self.grid = Grid::build(&self.obstacles, self.width, self.height);
        self.field = Field::build(&self.obstacles, self.width, self.height);
        self.tiles = TileGrid::new(self.width, self.height, self.tile_size, &self.obstacles);
    }
}
