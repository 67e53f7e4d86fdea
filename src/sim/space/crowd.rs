//! Who is near whom in a crowd: a uniform grid of square cells at least `range` wide, each
//! listing the members in it, so everyone within `range` of a point lies in the 3×3 cells around
//! it. Rebuilt from scratch whenever asked (once a tick), by a counting sort: three passes over
//! the crowd and two over the cells, and no allocation once the lists have grown to the crowd.
//!
//! Its use is Reynolds' separation: mode 7's chasers (`T`) all seek one point, and without it
//! they run together into a single blob. Each is pushed away from those within range, the more
//! the nearer they are, and the push is added to its wish before the obstacles are felt (so the
//! obstacles still come first).

use glam::Vec2;

/// At most this many neighbours push an agent (the first found, its own cell first): a body
/// has room for about six around it, and a packed crowd of 20,000 would otherwise cost each
/// agent a look at a hundred others.
pub const MAX_PUSHERS: usize = 8;
/// At most this many entries are looked at per agent, found or not (the same bound on a packed
/// crowd's cost).
pub const MAX_LOOKED: usize = 32;
/// Cells never number more than this many per member (and at least this floor), so a huge
/// arena with a short range does not clear millions of empty cells a tick: the cells grow
/// instead, which only lengthens the lists.
const CELLS_PER_MEMBER: usize = 4;
const MIN_CELLS: usize = 1024;

/// One member of the crowd: its id (never its own neighbour) and where it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Member {
    pub id: u32,
    pub pos: Vec2,
}

#[derive(Debug, Clone, Default)]
pub struct Crowd {
    /// The range asked for at the last rebuild (0: an empty crowd).
    range: f32,
    /// 1 / the side of a cell (the side is at least the range).
    per_side: f32,
    cols: usize,
    rows: usize,
    /// Cell `c`'s members are `members[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    members: Vec<Member>,
    /// The rebuild's input, in the order given, and each one's cell.
    given: Vec<(Member, u32)>,
}

impl Crowd {
    /// Nobody: every query finds nothing.
    pub fn clear(&mut self) {
        self.range = 0.0;
        self.members.clear();
    }

    /// The crowd `members` in an arena `size`, for queries within `range` (a range that is not
    /// positive and finite makes an empty crowd). Members with a non-finite position are left
    /// out; those outside the arena count in its edge cells.
    pub fn rebuild(&mut self, size: Vec2, range: f32, members: impl Iterator<Item = Member>) {
        self.clear();
        if !(range > 0.0 && range.is_finite() && size.x > 0.0 && size.y > 0.0) {
            return;
        }
        self.given.clear();
        self.given
            .extend(members.filter(|m| m.pos.is_finite()).map(|m| (m, 0)));
        let most = (self.given.len() * CELLS_PER_MEMBER).max(MIN_CELLS) as f32;
        // The side that keeps the cells within `most`, if the range would make more.
        let side = range.max((size.x * size.y / most).sqrt());
        self.range = range;
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
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        // Each member goes to the next free place of its cell; the places are then back at
        // each cell's end, so the starts are restored by shifting them down one cell.
        self.members.resize(
            self.given.len(),
            Member {
                id: 0,
                pos: Vec2::ZERO,
            },
        );
        for &(m, c) in &self.given {
            let at = &mut self.starts[c as usize];
            self.members[*at as usize] = m;
            *at += 1;
        }
        for c in (1..=cells).rev() {
            self.starts[c] = self.starts[c - 1];
        }
        self.starts[0] = 0;
    }

    /// How many members the last rebuild took in.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Reynolds' separation for member `id` at `pos`: over the others within the range (at most
    /// [`MAX_PUSHERS`] of them, from at most [`MAX_LOOKED`] looked at), the sum of the unit
    /// vectors away from each weighted by `range / d − d / range` — his 1/d weighting, less its
    /// value at the range so that a neighbour's push fades in from nothing as it comes into range
    /// (1.5 at half the range, 3.75 at a quarter). Within a pixel it grows no more (so no push
    /// is larger than from a pixel apart, `range − 1/range`), and two on the same spot push each
    /// other apart along x (the lower id toward −x) that hard.
    pub fn apart(&self, id: u32, pos: Vec2) -> Vec2 {
        if self.members.is_empty() || !pos.is_finite() {
            return Vec2::ZERO;
        }
        let range = self.range;
        let per_range2 = 1.0 / (range * range);
        let mut push = Vec2::ZERO;
        let (mut pushers, mut looked) = (0, 0);
        self.around(pos, |m| {
            if m.id == id {
                return true;
            }
            looked += 1;
            let away = pos - m.pos;
            let d2 = away.length_squared();
            if d2 == 0.0 {
                let side = if id < m.id { -Vec2::X } else { Vec2::X };
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
        if self.members.is_empty() || !pos.is_finite() {
            return false;
        }
        let reach2 = reach.min(self.range).powi(2);
        let mut found = false;
        self.around(pos, |m| {
            found = m.id != id && pos.distance_squared(m.pos) < reach2;
            !found
        });
        found
    }

    /// Visit the members of the 3×3 cells around `pos`, its own cell first, until `visit`
    /// returns false.
    fn around(&self, pos: Vec2, mut visit: impl FnMut(&Member) -> bool) {
        let (x, y) = cell_xy(pos, self.per_side, self.cols, self.rows);
        let cell = |cx: usize, cy: usize| {
            let c = cy * self.cols + cx;
            &self.members[self.starts[c] as usize..self.starts[c + 1] as usize]
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
}

/// The cell holding `p`, clamped into the grid. (Through `i32`, which converts in an
/// instruction; `usize` takes several.)
#[inline]
fn cell_xy(p: Vec2, per_side: f32, cols: usize, rows: usize) -> (usize, usize) {
    let x = (p.x * per_side) as i32;
    let y = (p.y * per_side) as i32;
    (
        x.clamp(0, cols as i32 - 1) as usize,
        y.clamp(0, rows as i32 - 1) as usize,
    )
}
