//! Who is near whom in a crowd: a uniform grid of square cells over the arena, each listing the
//! members in it, rebuilt from scratch once a tick by a counting sort (a pass over the crowd, two
//! over the cells; no allocation once the buffers have grown to the crowd).
//!
//! It answers three kinds of neighbourhood:
//! - *metric* (Reynolds): everyone within a radius — the cells the disc's bounding box covers;
//! - *topological* (Ballerini et al., PNAS 2008: a starling heeds its ~7 nearest whatever the
//!   density): the `k` nearest, found by visiting rings of cells outward from the query's own
//!   cell until the `k`-th nearest found is nearer than anything an unvisited cell can hold;
//! - *separation* (Reynolds' push apart, for mode 7's chasers and a `pathfind` crowd, which all
//!   seek one point and would otherwise run together into one blob): the 3×3 cells round a point,
//!   its own cell first, with a bound on how many are looked at.
//!
//! Each costs what the neighbourhood holds, not what the crowd holds: at one density a query
//! visits the same few cells in an arena of 2,000 as of 20,000. Every entry carries a tag: its
//! place in the order the positions were given (so a caller can read its own per-agent state
//! beside each neighbour found), or the id a [`Member`] was given with.
//!
//! Positions outside the arena count in its edge cells and are still found at their true
//! distance; non-finite positions are left out of every answer.

use glam::Vec2;

/// The most neighbours a topological query keeps (`k` is clamped to it). Ballerini's birds heed
/// six or seven; the array lives on the stack, so a query never allocates.
pub const MAX_K: usize = 16;

/// At most this many neighbours push an agent apart (the first found, its own cell first): a
/// body has room for about six around it, and a packed crowd of 20,000 would otherwise cost each
/// agent a look at a hundred others.
pub const MAX_PUSHERS: usize = 8;
/// At most this many entries are looked at per push apart, found or not (the same bound on a
/// packed crowd's cost).
pub const MAX_LOOKED: usize = 32;

/// Cells never number more than this many per position (with this floor), so a huge arena with a
/// small cell does not clear millions of empty cells a tick: the cells grow instead, which only
/// lengthens the lists.
const CELLS_PER_POSITION: usize = 4;
const MIN_CELLS: usize = 1024;

/// One entry of the grid: a position and its tag (its index in the order given, or its id).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub pos: Vec2,
    pub index: u32,
}

/// One member of a crowd kept apart: its id (never its own neighbour) and where it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Member {
    pub id: u32,
    pub pos: Vec2,
}

#[derive(Debug, Clone, Default)]
pub struct Neighbours {
    /// The side asked for at the last rebuild (the reach of a push apart; 0: nothing built).
    range: f32,
    /// The side of a cell (0: nothing built; at least the range) and its inverse.
    side: f32,
    per_side: f32,
    cols: usize,
    rows: usize,
    /// Cell `c`'s entries are `slots[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    slots: Vec<Slot>,
    /// The rebuild's input (the finite entries, in the order given) and each one's cell.
    given: Vec<(Slot, u32)>,
}

impl Neighbours {
    /// The grid over `positions` (indexed in the order given) in an arena of `size`, with cells
    /// of side `side` or more. A metric query of radius `r` visits 3×3 cells with `side ≈ r`,
    /// and 5×5 covering less ground with `side ≈ r/2` (the flock's choice: fewer positions
    /// looked at); a topological one is cheapest with a position or two a cell. A side or size that is
    /// not positive and finite makes an empty grid.
    pub fn rebuild(&mut self, size: Vec2, side: f32, positions: impl IntoIterator<Item = Vec2>) {
        let slots = positions.into_iter().enumerate().map(|(i, pos)| Slot {
            pos,
            index: i as u32,
        });
        self.build(size, side, slots);
    }

    /// The grid over a crowd to keep apart (see [`Neighbours::apart`]): `members` tagged by
    /// their ids, in cells at least `range` wide.
    pub fn rebuild_members(
        &mut self,
        size: Vec2,
        range: f32,
        members: impl Iterator<Item = Member>,
    ) {
        self.build(
            size,
            range,
            members.map(|m| Slot {
                pos: m.pos,
                index: m.id,
            }),
        );
    }

    /// Nobody: every query finds nothing.
    pub fn clear(&mut self) {
        self.range = 0.0;
        self.side = 0.0;
        self.slots.clear();
    }

    fn build(&mut self, size: Vec2, side: f32, entries: impl Iterator<Item = Slot>) {
        self.clear();
        self.given.clear();
        self.given
            .extend(entries.filter(|s| s.pos.is_finite()).map(|s| (s, 0)));
        let usable = side > 0.0 && side.is_finite() && size.x > 0.0 && size.y > 0.0;
        if !(usable && size.is_finite()) {
            return;
        }
        let most = (self.given.len() * CELLS_PER_POSITION).max(MIN_CELLS) as f32;
        // The side that keeps the cells within `most`, if the one asked for would make more.
        self.range = side;
        let side = side.max((size.x * size.y / most).sqrt());
        self.side = side;
        self.per_side = 1.0 / side;
        self.cols = ((size.x / side).ceil() as usize).max(1);
        self.rows = ((size.y / side).ceil() as usize).max(1);
        let cells = self.cols * self.rows;
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        for g in &mut self.given {
            let (x, y) = cell_xy(g.0.pos, self.per_side, self.cols, self.rows);
            g.1 = (y * self.cols + x) as u32;
            self.starts[g.1 as usize + 1] += 1;
        }
        let mut sum = 0;
        for start in &mut self.starts {
            sum += *start;
            *start = sum;
        }
        self.slots.resize(
            self.given.len(),
            Slot {
                pos: Vec2::ZERO,
                index: 0,
            },
        );
        // Each entry goes to its cell's next free place; the places then stand at each cell's
        // end, so shifting them down one cell restores the starts.
        for &(s, c) in &self.given {
            let at = &mut self.starts[c as usize];
            self.slots[*at as usize] = s;
            *at += 1;
        }
        self.starts.copy_within(0..cells, 1);
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

    /// Every pair of entries strictly within `reach` of each other (`reach` is taken no wider
    /// than a cell), each pair once, as `visit(index, index, squared distance)`, in no particular
    /// order. A cell's entries are paired with each other and with the cells east, south-west,
    /// south and south-east of it, and only with those whose side the entry is within `reach`
    /// of: for a reach well short of a cell, most entries are compared with their own cell alone.
    pub fn pairs_within(&self, reach: f32, mut visit: impl FnMut(u32, u32, f32)) {
        if self.slots.is_empty() || reach.is_nan() || reach <= 0.0 {
            return;
        }
        let reach = reach.min(self.side);
        let r2 = reach * reach;
        // (Widened for rounding: an entry sits in its cell by a product that may round.)
        let near_side = reach + self.side * 1e-3;
        let (cols, rows, side) = (self.cols, self.rows, self.side);
        let (starts, slots) = (&self.starts, &self.slots);
        // The entries of cells `from..=to` (contiguous cells of one row: one run).
        let run = |from: usize, to: usize| &slots[starts[from] as usize..starts[to + 1] as usize];
        let mut against = |a: &Slot, others: &[Slot]| {
            for b in others {
                let d2 = a.pos.distance_squared(b.pos);
                if d2 < r2 {
                    visit(a.index, b.index, d2);
                }
            }
        };
        for y in 0..rows {
            let south_side = (y + 1) as f32 * side;
            for x in 0..cols {
                let c = y * cols + x;
                let here = run(c, c);
                if here.is_empty() {
                    continue;
                }
                let (west_side, east_side) = (x as f32 * side, (x + 1) as f32 * side);
                for (n, a) in here.iter().enumerate() {
                    against(a, &here[n + 1..]);
                    // How near the entry is to the cell's east, south and west sides: no entry
                    // of the cells beyond a side is nearer than that. (Entries beyond the grid's
                    // edge sit in its edge cells, on the far side from their neighbours.)
                    let east = x + 1 < cols && east_side - a.pos.x < near_side;
                    let south = y + 1 < rows && south_side - a.pos.y < near_side;
                    let west = x > 0 && a.pos.x - west_side < near_side;
                    if east {
                        against(a, run(c + 1, c + 1));
                    }
                    if south {
                        let below = c + cols;
                        against(a, run(below - usize::from(west), below + usize::from(east)));
                    }
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
        let (cols, side) = (self.cols as i64, self.side);
        // Only the cells the disc of `max_radius` touches can hold an answer: the runs are
        // clipped to its bounding box (a box of cells within the grid), which leaves out no
        // entry the distance test would take and changes no order, so the answer is the same.
        // (Widened by far more than rounding, so that no entry on the disc's rim is lost.)
        let pad = 1e-3 * (max_radius + pos.abs().max_element());
        let reach = Vec2::splat((max_radius + pad).min(f32::MAX / 4.0));
        let (bx0, by0) = self.cell_xy(pos - reach);
        let (bx1, by1) = self.cell_xy(pos + reach);
        let (bx0, by0, bx1, by1) = (bx0 as i64, by0 as i64, bx1 as i64, by1 as i64);
        // The cells `x0..=x1` of row `y` (clipped to the box): one contiguous run of slots.
        let mut visit_run = |y: i64, x0: i64, x1: i64, best: &mut Nearest| {
            let (x0, x1) = (x0.max(bx0), x1.min(bx1));
            if y < by0 || y > by1 || x0 > x1 {
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
            // `clear` from `pos` (a side of the block at the box's edge, the grid's or the
            // disc's, hides nothing that could be taken).
            let mut clear = f32::INFINITY;
            if cx - ring > bx0 {
                clear = clear.min(pos.x - (cx - ring) as f32 * side);
            }
            if cx + ring < bx1 {
                clear = clear.min((cx + ring + 1) as f32 * side - pos.x);
            }
            if cy - ring > by0 {
                clear = clear.min(pos.y - (cy - ring) as f32 * side);
            }
            if cy + ring < by1 {
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

    /// Reynolds' separation for member `id` at `pos`: over the others within the range (at most
    /// [`MAX_PUSHERS`] of them, from at most [`MAX_LOOKED`] looked at), the sum of the unit
    /// vectors away from each weighted by `range / d − d / range` — his 1/d weighting, less its
    /// value at the range so that a neighbour's push fades in from nothing as it comes into range
    /// (1.5 at half the range, 3.75 at a quarter). Within a pixel it grows no more (so no push
    /// is larger than from a pixel apart, `range − 1/range`), and two on the same spot push each
    /// other apart along x (the lower id toward −x) that hard.
    pub fn apart(&self, id: u32, pos: Vec2) -> Vec2 {
        if self.slots.is_empty() || !pos.is_finite() {
            return Vec2::ZERO;
        }
        let range = self.range;
        let per_range2 = 1.0 / (range * range);
        let mut push = Vec2::ZERO;
        let (mut pushers, mut looked) = (0, 0);
        self.around(pos, |m| {
            if m.index == id {
                return true;
            }
            looked += 1;
            let away = pos - m.pos;
            let d2 = away.length_squared();
            if d2 == 0.0 {
                let side = if id < m.index { -Vec2::X } else { Vec2::X };
                push += side * (range - 1.0 / range);
                pushers += 1;
            } else {
                // `away / d` times `range / d − d / range` is `away · range · (1/d² − 1/range²)`:
                // one division and no square root, and 0 (not counted) beyond the range.
                let weight = ((1.0 / d2.max(1.0) - per_range2) * range).max(0.0);
                push += away * weight;
                pushers += usize::from(weight > 0.0);
            }
            pushers < MAX_PUSHERS && looked < MAX_LOOKED
        });
        push
    }

    /// Whether a member other than `id` stands within `reach` of `pos` (every member in the
    /// cells around is looked at; `reach` up to the range).
    pub fn any_within(&self, id: u32, pos: Vec2, reach: f32) -> bool {
        if self.slots.is_empty() || !pos.is_finite() {
            return false;
        }
        let reach2 = reach.min(self.range).powi(2);
        let mut found = false;
        self.around(pos, |m| {
            found = m.index != id && pos.distance_squared(m.pos) < reach2;
            !found
        });
        found
    }

    /// Visit the entries of the 3×3 cells around `pos`, its own cell first, until `visit`
    /// returns false.
    fn around(&self, pos: Vec2, mut visit: impl FnMut(&Slot) -> bool) {
        let (x, y) = self.cell_xy(pos);
        let cell = |cx: usize, cy: usize| {
            let c = cy * self.cols + cx;
            &self.slots[self.starts[c] as usize..self.starts[c + 1] as usize]
        };
        if !cell(x, y).iter().all(&mut visit) {
            return;
        }
        for cy in y.saturating_sub(1)..=(y + 1).min(self.rows - 1) {
            for cx in x.saturating_sub(1)..=(x + 1).min(self.cols - 1) {
                if (cx, cy) != (x, y) && !cell(cx, cy).iter().all(&mut visit) {
                    return;
                }
            }
        }
    }

    #[inline]
    fn cell_xy(&self, p: Vec2) -> (usize, usize) {
        cell_xy(p, self.per_side, self.cols, self.rows)
    }
}

/// The cell holding `p`, clamped into the grid. (Through `i32`, which converts in an
/// instruction; huge and NaN coordinates saturate.)
#[inline]
fn cell_xy(p: Vec2, per_side: f32, cols: usize, rows: usize) -> (usize, usize) {
    let x = (p.x * per_side) as i32;
    let y = (p.y * per_side) as i32;
    (
        x.clamp(0, cols as i32 - 1) as usize,
        y.clamp(0, rows as i32 - 1) as usize,
    )
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

    /// The indices, nearest first (taking the answer).
    pub fn indices(self) -> impl Iterator<Item = u32> {
        (0..self.len).map(move |i| self.items[i].1)
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
