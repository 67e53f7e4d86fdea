//! A crowd's mass at a coarse scale (Couzin's zone of attraction): how many stand within a wide
//! reach of a point, where their centre is and how they move, from coarse cells — for the
//! flock's gathering urge, which reaches farther than the neighbours a boid heeds.

use glam::Vec2;
use rayon::prelude::*;

/// Cells never number more than this or the crowd, the larger (a cap, as the neighbour grid's,
/// for a huge arena): 20,000 boids in the largest arena the flock grows (32,768 × 19,661 px)
/// keep cells half the default reach wide, as smaller flocks in smaller arenas do.
const MOST_CELLS: f32 = 4096.0;

/// How many stand somewhere (a fractional count when interpolated), and the sums of their
/// positions and velocities.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Mass {
    pub count: f32,
    pub sum: Vec2,
    pub velocity: Vec2,
}

impl Mass {
    #[inline]
    fn add(&mut self, other: &Mass, weight: f32) {
        self.count += other.count * weight;
        self.sum += other.sum * weight;
        self.velocity += other.velocity * weight;
    }
}

/// A crowd's mass at a coarse scale, for an urge that reaches farther than the neighbours a
/// member heeds (Couzin's zone of attraction): on a grid of cells half the reach wide, each
/// cell's centre holds the mass of the cells whose centres lie within the reach; a query blends
/// the four centres round it. Rebuilt once a tick in a pass over the crowd and a few over the
/// cells, and a query costs four look-ups whatever the crowd.
#[derive(Debug, Clone, Default)]
pub struct Masses {
    /// The side of a cell (0: nothing built) and its inverse.
    side: f32,
    per_side: f32,
    cols: usize,
    rows: usize,
    /// Each cell's own mass.
    cells: Vec<Mass>,
    /// The mass within the reach of each cell's centre.
    near: Vec<Mass>,
    /// The offsets of the cells within the reach of a cell (kept to reuse).
    disc: Vec<(i64, i64)>,
}

impl Masses {
    /// The field of `items` (position, velocity) in an arena of `size`, reaching `reach`.
    /// Non-finite positions are left out and non-finite velocities count as still; positions
    /// outside the arena count in its edge cells.
    pub fn rebuild<I>(&mut self, size: Vec2, reach: f32, items: I)
    where
        I: IntoIterator<Item = (Vec2, Vec2)>,
        I::IntoIter: ExactSizeIterator,
    {
        self.rebuild_split(size, reach, items, false);
    }

    /// [`Masses::rebuild`], with `split` the cells' gathering split among the current pool's
    /// threads (the same sums, bit for bit).
    pub fn rebuild_split<I>(&mut self, size: Vec2, reach: f32, items: I, split: bool)
    where
        I: IntoIterator<Item = (Vec2, Vec2)>,
        I::IntoIter: ExactSizeIterator,
    {
        let items = items.into_iter();
        self.side = 0.0;
        self.cells.clear();
        self.near.clear();
        let usable = reach > 0.0 && reach.is_finite() && size.x > 0.0 && size.y > 0.0;
        if !(usable && size.is_finite()) {
            return;
        }
        let most = MOST_CELLS.max(items.len() as f32);
        let side = (reach * 0.5).max((size.x * size.y / most).sqrt());
        self.side = side;
        self.per_side = 1.0 / side;
        self.cols = ((size.x / side).ceil() as usize).max(1);
        self.rows = ((size.y / side).ceil() as usize).max(1);
        let cells = self.cols * self.rows;
        self.cells.resize(cells, Mass::default());
        for (p, vel) in items {
            if !p.is_finite() {
                continue;
            }
            let x = ((p.x * self.per_side) as i32).clamp(0, self.cols as i32 - 1) as usize;
            let y = ((p.y * self.per_side) as i32).clamp(0, self.rows as i32 - 1) as usize;
            let cell = &mut self.cells[y * self.cols + x];
            cell.count += 1.0;
            cell.sum += p;
            if vel.is_finite() {
                cell.velocity += vel;
            }
        }
        let span = (reach / side).floor() as i64;
        let reach_cells2 = (reach / side) * (reach / side);
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        // The cells within the reach, as offsets, row by row: a cell's sum then adds the same
        // cells in the same order without testing the distance again for every cell.
        self.disc.clear();
        for dy in -span..=span {
            for dx in -span..=span {
                if ((dx * dx + dy * dy) as f32) <= reach_cells2 {
                    self.disc.push((dx, dy));
                }
            }
        }
        self.near.resize(cells, Mass::default());
        let (own, disc) = (&self.cells, &self.disc);
        // Each cell's centre gathers the cells within the reach: a row at a time, each row
        // reading only the cells' own masses, so the rows may be split among threads.
        let row = |cy: i64, near: &mut [Mass]| {
            for (cx, out) in (0..cols).zip(near.iter_mut()) {
                let mut mass = Mass::default();
                for &(dx, dy) in disc {
                    let (x, y) = (cx + dx, cy + dy);
                    if x >= 0 && y >= 0 && x < cols && y < rows {
                        mass.add(&own[(y * cols + x) as usize], 1.0);
                    }
                }
                *out = mass;
            }
        };
        if split {
            self.near
                .par_chunks_mut(self.cols)
                .enumerate()
                .for_each(|(cy, near)| row(cy as i64, near));
        } else {
            for (cy, near) in self.near.chunks_mut(self.cols).enumerate() {
                row(cy as i64, near);
            }
        }
    }

    /// The mass within about the reach of `pos`: the four nearest cell centres' masses, blended
    /// bilinearly (so it changes smoothly as `pos` moves). Nothing for a non-finite `pos`.
    pub fn around(&self, pos: Vec2) -> Mass {
        let mut mass = Mass::default();
        if self.near.is_empty() || !pos.is_finite() {
            return mass;
        }
        let (cols, rows) = (self.cols as i32, self.rows as i32);
        let u = (pos.x * self.per_side - 0.5).clamp(0.0, (cols - 1) as f32);
        let v = (pos.y * self.per_side - 0.5).clamp(0.0, (rows - 1) as f32);
        let (x0, y0) = (u as i32, v as i32);
        let (fx, fy) = (u - x0 as f32, v - y0 as f32);
        let (x1, y1) = ((x0 + 1).min(cols - 1), (y0 + 1).min(rows - 1));
        let at = |x: i32, y: i32| &self.near[(y * cols + x) as usize];
        mass.add(at(x0, y0), (1.0 - fx) * (1.0 - fy));
        mass.add(at(x1, y0), fx * (1.0 - fy));
        mass.add(at(x0, y1), (1.0 - fx) * fy);
        mass.add(at(x1, y1), fx * fy);
        mass
    }
}
