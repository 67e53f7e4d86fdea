//! The arena's uniform grid: each obstacle filed, as a bounding circle, in every cell within
//! [`MAX_SWEEP_RADIUS`] of it, so a query visits only the cells it touches and never scans every
//! obstacle.

use crate::sim::space::field::ROUNDING;
use crate::sim::space::shape::{Obstacle, sweep_reach};
use glam::Vec2;

/// Side of a grid cell in pixels.
pub const CELL: f32 = 64.0;
/// Largest body radius a sweep may use: obstacles are filed in every cell within this distance of
/// their bounds, so a ray walk finds the obstacles a body of that size would touch.
pub const MAX_SWEEP_RADIUS: f32 = 24.0;

/// An obstacle as the grid files it: its index and its bounding circle, so a query can pass over
/// an obstacle it cannot reach without looking at the shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Entry {
    pub(super) center: Vec2,
    pub(super) reach: f32,
    pub(super) index: u32,
}

/// A placeholder entry.
pub(super) const BLANK: Entry = Entry {
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
    pub(super) fn may_meet(&self, origin: Vec2, dir: Vec2, r: f32, within: f32) -> bool {
        let m = self.center - origin;
        let reach = self.reach + sweep_reach(r) + ROUNDING;
        // Distance along the ray to the centre's closest approach, and the miss distance there.
        let along = m.dot(dir);
        let aside = m.perp_dot(dir);
        // `&`, not `&&`: no branches, so a batch of these runs without mispredictions.
        (aside.abs() <= reach) & (along + reach >= 0.0) & (along - reach <= within)
    }
}

/// Which of its four parts a cell's list files an obstacle in, by where the obstacle's first cell
/// (`x0`, `y0`) lies: straight above, this cell, straight left, above and left.
fn part(x: usize, y: usize, x0: usize, y0: usize) -> usize {
    match (x == x0, y == y0) {
        (true, false) => 0,
        (true, true) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

/// Obstacles bucketed by the grid cells their bounding boxes (grown by [`MAX_SWEEP_RADIUS`])
/// overlap (compressed rows: cell `i` holds `items[start[i]..start[i + 1]]`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Grid {
    pub(super) cols: usize,
    pub(super) rows: usize,
    pub(super) start: Vec<u32>,
    /// Each cell's list runs in four parts, by where each obstacle's first cell (the top-left one
    /// it is filed in) lies: straight above, this cell, straight left, above and left.
    /// `runs[i]` holds where the first three parts end.
    runs: Vec<[u32; 3]>,
    items: Vec<Entry>,
}

impl Grid {
    pub(super) fn build(obstacles: &[Obstacle], width: f32, height: f32) -> Self {
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

    /// File obstacle `index` (the last of the arena's list): at the end of its part of every cell
    /// it covers, where a whole build would put it, so the grid equals one built afresh. One pass
    /// over the cells and one copy of the entries, with no shape looked at but this one.
    pub(super) fn insert(&mut self, index: usize, o: &Obstacle) {
        let (min, max) = o.inflated(MAX_SWEEP_RADIUS).bounds();
        let (x0, y0, x1, y1) = self.range(min, max);
        let entry = Entry::new(index, o);
        let added = (x1 - x0 + 1) * (y1 - y0 + 1);
        let mut items = Vec::with_capacity(self.items.len() + added);
        let mut copied = 0;
        // Entries filed before cell `i` (so far), which shift everything after them.
        let mut shift = 0u32;
        for i in 0..self.cols * self.rows {
            self.start[i] += shift;
            let (x, y) = (i % self.cols, i / self.cols);
            if !(x0..=x1).contains(&x) || !(y0..=y1).contains(&y) {
                for end in &mut self.runs[i] {
                    *end += shift;
                }
                continue;
            }
            let p = part(x, y, x0, y0);
            // Where the part ends in the old list: the new entry goes just before it.
            let at = if p < 3 {
                self.runs[i][p]
            } else {
                self.start[i + 1]
            } as usize;
            items.extend_from_slice(&self.items[copied..at]);
            items.push(entry);
            copied = at;
            for (q, end) in self.runs[i].iter_mut().enumerate() {
                *end += shift + u32::from(q >= p);
            }
            shift += 1;
        }
        items.extend_from_slice(&self.items[copied..]);
        let last = self.cols * self.rows;
        self.start[last] += shift;
        self.items = items;
    }

    /// Take obstacle `index` out and number the later ones one lower, as a whole build of the
    /// list without it would: the entries keep their order, so the grid equals one built afresh.
    pub(super) fn remove(&mut self, index: usize) {
        let index = index as u32;
        let mut kept = 0usize;
        let mut read = 0usize;
        let mut keep_to = |items: &mut Vec<Entry>, end: u32| {
            while read < end as usize {
                let mut e = items[read];
                read += 1;
                if e.index != index {
                    e.index -= u32::from(e.index > index);
                    items[kept] = e;
                    kept += 1;
                }
            }
            kept as u32
        };
        for i in 0..self.cols * self.rows {
            let [above, own, left] = self.runs[i];
            let end = self.start[i + 1];
            self.runs[i] = [
                keep_to(&mut self.items, above),
                keep_to(&mut self.items, own),
                keep_to(&mut self.items, left),
            ];
            self.start[i + 1] = keep_to(&mut self.items, end);
        }
        self.items.truncate(kept);
    }

    /// Inclusive cell range covering the box, clamped to the grid.
    pub(super) fn range(&self, min: Vec2, max: Vec2) -> (usize, usize, usize, usize) {
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
    pub(super) fn cell_at(&self, p: Vec2) -> &[Entry] {
        let (x, y, _, _) = self.range(p, p);
        self.cell(x, y)
    }

    /// The obstacles of cell (`x`, `y`) that a query over the box of cells from (`x0`, `y0`)
    /// meets here first: over the box's cells, each obstacle once. Past the box's first column
    /// that is only the obstacles whose first cell is in this column (the parts above and this
    /// cell's own), past its first row only those whose first cell is in this row (this cell's
    /// own and the part left), past both only this cell's own.
    pub(super) fn first_in_box(&self, x: usize, y: usize, x0: usize, y0: usize) -> &[Entry] {
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

    pub(super) fn cell(&self, x: usize, y: usize) -> &[Entry] {
        let i = y * self.cols + x;
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}
