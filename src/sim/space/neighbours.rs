//! Who is near whom, for a flock or a swarm: a uniform grid of square cells over the arena, each
//! listing the positions in it, rebuilt from scratch once a tick by a counting sort (two passes
//! over the crowd, two over the cells; no allocation once the buffers have grown to the crowd).
//!
//! It answers two kinds of neighbourhood:
//! - *metric* (Reynolds): everyone within a radius — the cells the disc's bounding box covers;
//! - *topological* (Ballerini et al., PNAS 2008: a starling heeds its ~7 nearest whatever the
//!   density): the `k` nearest, found by visiting rings of cells outward from the query's own
//!   cell until the `k`-th nearest found is nearer than anything an unvisited cell can hold.
//!
//! Both cost what the neighbourhood holds, not what the crowd holds: at one density a query
//! visits the same few cells in an arena of 2,000 as of 20,000. (`crowd.rs` is the same sort kept
//! to mode 7's 3×3 separation push; this one keeps the index of every position and its place, so
//! a caller can read its own per-agent state beside each neighbour found.)
//!
//! Positions outside the arena count in its edge cells and are still found at their true
//! distance; non-finite positions are left out of every answer.
//!
//! [`Masses`] is the crowd seen from farther off: how many stand within a wide reach of a point,
//! where their centre is and how they move, from coarse cells (for the flock's gathering urge).

use glam::Vec2;

/// The most neighbours a topological query keeps (`k` is clamped to it). Ballerini's birds heed
/// six or seven; the array lives on the stack, so a query never allocates.
pub const MAX_K: usize = 16;

/// Cells never number more than this many per position (with this floor), so a huge arena with a
/// small cell does not clear millions of empty cells a tick: the cells grow instead.
const CELLS_PER_POSITION: usize = 4;
const MIN_CELLS: usize = 1024;

/// One entry of the grid: a position and its index in the order it was given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub pos: Vec2,
    pub index: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Neighbours {
    /// The side of a cell (0: nothing built) and its inverse.
    side: f32,
    per_side: f32,
    cols: usize,
    rows: usize,
    /// Cell `c`'s entries are `slots[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    slots: Vec<Slot>,
    /// Each given position's cell, in the order given (`u32::MAX`: left out, not finite).
    cell_of: Vec<u32>,

    given: Vec<Vec2>,
}

impl Neighbours {
    /// The grid over `positions` (indexed in the order given) in an arena of `size`, with cells
    /// of side `side` or more. A metric query of radius `r` visits 3×3 cells with `side ≈ r`,
    /// and 5×5 covering less ground with `side ≈ r/2` (the flock's choice: fewer positions
    /// looked at); a topological one is cheapest with a position or two a cell. A side or size that is
    /// not positive and finite makes an empty grid.
    pub fn rebuild(&mut self, size: Vec2, side: f32, positions: impl IntoIterator<Item = Vec2>) {
        self.side = 0.0;
        self.slots.clear();
        self.given.clear();
        self.given.extend(positions);
        let usable = side > 0.0 && side.is_finite() && size.x > 0.0 && size.y > 0.0;
        if !(usable && size.is_finite()) {
            self.cell_of.clear();
            self.cell_of.resize(self.given.len(), u32::MAX);
            return;
        }
        let most = (self.given.len() * CELLS_PER_POSITION).max(MIN_CELLS) as f32;
        let side = side.max((size.x * size.y / most).sqrt());
        self.side = side;
        self.per_side = 1.0 / side;
        self.cols = ((size.x / side).ceil() as usize).max(1);
        self.rows = ((size.y / side).ceil() as usize).max(1);
        let cells = self.cols * self.rows;
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.cell_of.clear();
        for &p in &self.given {
            let cell = if p.is_finite() {
                let (x, y) = self.cell_xy(p);
                let c = y * self.cols + x;
                self.starts[c + 1] += 1;
                c as u32
            } else {
                u32::MAX
            };
            self.cell_of.push(cell);
        }
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        let placed = self.starts[cells] as usize;
        self.slots.resize(
            placed,
            Slot {
                pos: Vec2::ZERO,
                index: 0,
            },
        );
        // Each entry goes to its cell's next free place; the places then stand at each cell's
        // end, so shifting them down one cell restores the starts.
        for (i, (&pos, &c)) in self.given.iter().zip(&self.cell_of).enumerate() {
            if c != u32::MAX {
                let at = &mut self.starts[c as usize];
                self.slots[*at as usize] = Slot {
                    pos,
                    index: i as u32,
                };
                *at += 1;
            }
        }
        for c in (1..=cells).rev() {
            self.starts[c] = self.starts[c - 1];
        }
        self.starts[0] = 0;
    }

    /// A cell side holding about `per_cell` of `count` positions spread evenly over `size`:
    /// about two a cell suits a topological query of 7 (its 3×3 block and next ring hold them
    /// with few to spare), where cells as wide as a flock's radius would each hold dozens.
    pub fn side_for(count: usize, size: Vec2, per_cell: f32) -> f32 {
        (size.x * size.y * per_cell / count.max(1) as f32).sqrt()
    }

    /// How many positions the last rebuild placed (the finite ones).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The side of a cell as built (at least the side asked for; 0 for an empty grid).
    pub fn cell_side(&self) -> f32 {
        self.side
    }

    /// Every entry strictly within `radius` of `pos` (the entry at `pos` itself included: a
    /// caller skips its own index), as `visit(index, position, squared distance)`, in no
    /// particular order.
    pub fn for_each_within(&self, pos: Vec2, radius: f32, mut visit: impl FnMut(u32, Vec2, f32)) {
        if self.slots.is_empty() || !pos.is_finite() || radius.is_nan() || radius <= 0.0 {
            return;
        }
        let r2 = radius * radius;
        let reach = Vec2::splat(radius.min(f32::MAX / 4.0));
        let (x0, y0) = self.cell_xy(pos - reach);
        let (x1, y1) = self.cell_xy(pos + reach);
        for cy in y0..=y1 {
            let row = cy * self.cols;
            let from = self.starts[row + x0] as usize;
            let to = self.starts[row + x1 + 1] as usize;
            // (A row's cells are contiguous, so one slice covers them.)
            for s in &self.slots[from..to] {
                let d2 = pos.distance_squared(s.pos);
                if d2 < r2 {
                    visit(s.index, s.pos, d2);
                }
            }
        }
    }

    /// The `k` nearest entries to `pos` (at most [`MAX_K`]) strictly within `max_radius` (pass
    /// `f32::INFINITY` for no limit) that `accept(index, position)` takes — a caller skips
    /// itself and, say, whoever is outside its field of view. Nearest first; ties go to the one
    /// met first.
    pub fn nearest(
        &self,
        pos: Vec2,
        k: usize,
        max_radius: f32,
        mut accept: impl FnMut(u32, Vec2) -> bool,
    ) -> Nearest {
        let mut best = Nearest::default();
        let k = k.min(MAX_K);
        let no_radius = max_radius.is_nan() || max_radius <= 0.0;
        if self.slots.is_empty() || !pos.is_finite() || k == 0 || no_radius {
            return best;
        }
        let limit2 = max_radius * max_radius;
        let (cx, cy) = self.cell_xy(pos);
        let (cx, cy) = (cx as i64, cy as i64);
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        let side = self.side;
        // The cells `x0..=x1` of row `y` (clipped to the grid): one contiguous run of slots.
        let mut visit_run = |y: i64, x0: i64, x1: i64, best: &mut Nearest| {
            let (x0, x1) = (x0.max(0), x1.min(cols - 1));
            if y < 0 || y >= rows || x0 > x1 {
                return;
            }
            let row = (y * cols) as usize;
            let from = self.starts[row + x0 as usize] as usize;
            let to = self.starts[row + x1 as usize + 1] as usize;
            for s in &self.slots[from..to] {
                let d2 = pos.distance_squared(s.pos);
                if d2 < limit2 && best.would_take(d2, k) && accept(s.index, s.pos) {
                    best.insert(d2, s.index, k);
                }
            }
        };
        // The 3×3 block first (the own cell alone seldom holds the `k`), then ring after ring.
        for y in cy - 1..=cy + 1 {
            visit_run(y, cx - 1, cx + 1, &mut best);
        }
        let mut ring = 1i64;
        loop {
            if ring > 1 {
                visit_run(cy - ring, cx - ring, cx + ring, &mut best);
                visit_run(cy + ring, cx - ring, cx + ring, &mut best);
                for y in cy - ring + 1..cy + ring {
                    visit_run(y, cx - ring, cx - ring, &mut best);
                    visit_run(y, cx + ring, cx + ring, &mut best);
                }
            }
            // Every entry not yet visited lies outside the block of cells visited, so at least
            // `clear` from `pos` (a side of the block at the grid's edge hides nothing).
            let mut clear = f32::INFINITY;
            if cx - ring > 0 {
                clear = clear.min(pos.x - (cx - ring) as f32 * side);
            }
            if cx + ring < cols - 1 {
                clear = clear.min((cx + ring + 1) as f32 * side - pos.x);
            }
            if cy - ring > 0 {
                clear = clear.min(pos.y - (cy - ring) as f32 * side);
            }
            if cy + ring < rows - 1 {
                clear = clear.min((cy + ring + 1) as f32 * side - pos.y);
            }
            let done = clear == f32::INFINITY
                || clear >= max_radius
                || (best.len == k && best.items[k - 1].0 <= clear * clear);
            if done {
                return best;
            }
            ring += 1;
        }
    }

    /// The cell holding `p`, clamped into the grid. (Through `i32`, which converts in an
    /// instruction; huge and NaN coordinates saturate.)
    #[inline]
    fn cell_xy(&self, p: Vec2) -> (usize, usize) {
        let x = (p.x * self.per_side) as i32;
        let y = (p.y * self.per_side) as i32;
        (
            x.clamp(0, self.cols as i32 - 1) as usize,
            y.clamp(0, self.rows as i32 - 1) as usize,
        )
    }
}

/// The answer to a topological query: up to [`MAX_K`] entries, nearest first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    len: usize,
    /// (squared distance, index), ascending.
    items: [(f32, u32); MAX_K],
}

impl Default for Nearest {
    fn default() -> Self {
        Nearest {
            len: 0,
            items: [(0.0, 0); MAX_K],
        }
    }
}

impl Nearest {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// (index, squared distance), nearest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.items[..self.len].iter().map(|&(d2, i)| (i, d2))
    }

    /// The distance to the farthest kept (0 when none is).
    pub fn farthest(&self) -> f32 {
        if self.len == 0 {
            0.0
        } else {
            self.items[self.len - 1].0.sqrt()
        }
    }

    #[inline]
    fn would_take(&self, d2: f32, k: usize) -> bool {
        self.len < k || d2 < self.items[k - 1].0
    }

    /// Insertion into the sorted list (k is small: a shift beats anything cleverer).
    #[inline]
    fn insert(&mut self, d2: f32, index: u32, k: usize) {
        let mut at = if self.len < k {
            self.len += 1;
            self.len - 1
        } else {
            k - 1
        };
        while at > 0 && self.items[at - 1].0 > d2 {
            self.items[at] = self.items[at - 1];
            at -= 1;
        }
        self.items[at] = (d2, index);
    }
}

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
}

impl Masses {
    /// The field of `items` (position, velocity) in an arena of `size`, reaching `reach`.
    /// Non-finite positions are left out and non-finite velocities count as still; positions
    /// outside the arena count in its edge cells.
    pub fn rebuild(
        &mut self,
        size: Vec2,
        reach: f32,
        items: impl IntoIterator<Item = (Vec2, Vec2)>,
    ) {
        self.side = 0.0;
        self.cells.clear();
        self.near.clear();
        let usable = reach > 0.0 && reach.is_finite() && size.x > 0.0 && size.y > 0.0;
        if !(usable && size.is_finite()) {
            return;
        }
        // (A cap on the cells, as the neighbour grid's, for a huge arena.)
        let most = MIN_CELLS as f32 * 4.0;
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
        self.near.resize(cells, Mass::default());
        for cy in 0..rows {
            for cx in 0..cols {
                let mut mass = Mass::default();
                for dy in -span..=span {
                    for dx in -span..=span {
                        let (x, y) = (cx + dx, cy + dy);
                        let inside = x >= 0 && y >= 0 && x < cols && y < rows;
                        if inside && ((dx * dx + dy * dy) as f32) <= reach_cells2 {
                            mass.add(&self.cells[(y * cols + x) as usize], 1.0);
                        }
                    }
                }
                self.near[(cy * cols + cx) as usize] = mass;
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
