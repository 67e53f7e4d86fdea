//! A clearance field: for every `FIELD_CELL`-pixel square of the arena, the distance from its
//! centre to the nearest obstacle surface, in whole pixels, capped at [`FIELD_CAP`].
//!
//! The distance to a set of shapes changes by at most the distance moved (it is 1-Lipschitz), so
//! `d(centre) − |p − centre|` is a lower bound on the clearance at any point `p`: enough to prove,
//! with one byte and no obstacle looked at, that a body, its step or the first stretch of a ray
//! touches nothing. Most agents most of the time are in open space, and this is how they find
//! out cheaply. (Sphere tracing, Hart 1996, walks a ray through such a field in steps of the
//! bound.)
//!
//! Beside it, over coarser cells, which obstacle is nearest and how far the others are at the
//! least (the distance to each shape is 1-Lipschitz on its own, so the same bound holds for all
//! but one): enough to prove that a cast near one obstacle can meet only that one, and test it
//! alone.

use crate::sim::space::shape::Obstacle;
use glam::Vec2;

/// Side of a field cell in pixels. A bound is at most a cell's diagonal plus a pixel short, and
/// among dense obstacles every pixel of it decides whether a step or a cast can skip its work:
/// 4-px cells make a tick among 400 obstacles about 6 % cheaper than 8-px ones, for a table of
/// 61 KB at 1280×768 and a build of some 20 ms with 2,000 obstacles (once per arena; an edit
/// measures again only the cells near the shape).
pub const FIELD_CELL: f32 = 4.0;
/// The largest distance the field records (px); farther obstacles read as this far. Longer than
/// the default feelers' reach, so an agent in open space proves it with one look.
pub const FIELD_CAP: f32 = 160.0;
/// More than the rounding error of a distance computed in an arena of the largest size (px):
/// the slack every shortcut that skips an obstacle keeps, so it never skips a true hit. The
/// largest is a crowd's grown arena, 32,768 px a side: a difference of two coordinates there is
/// rounded once, to half its own last bit (at most 1/512 px), and a length of it adds a few
/// parts in 10⁸ of itself (at most about 0.006 px): under 0.01 for any distance in it.
pub const ROUNDING: f32 = 0.01;

/// Side of a cell of the table of nearest obstacles (px): coarser than the distances' cells, as
/// only casts read it, so it takes a byte per distance cell (61 KB at 1280×768, 16 MB at the
/// largest arena a file may have, 40 MB at the largest a crowd grows).
pub const ALONE_CELL: f32 = 8.0;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Field {
    /// The distances' cells.
    cells: Cells,
    /// Distance from each cell's centre to the nearest obstacle surface in pixels, rounded down (0
    /// inside an obstacle, the cap at or beyond it), row by row.
    px: Vec<u8>,
    /// The nearest obstacles' cells.
    alone_cells: Cells,
    /// For each of those cells, the nearest obstacle's index in the low 16 bits ([`NONE`]: none
    /// within the cap, or an index too large to record), then the distance from the centre to it
    /// and, in the top byte, to every other obstacle — rounded down and capped as in `px`.
    alone: Vec<u32>,
}

/// No obstacle recorded for a cell.
const NONE: u32 = 0xFFFF;

/// The distance from `centre` to `o`'s surface as the field records it: less the rounding of the
/// distance, and rounded down, so the stored value never exceeds the true distance, and capped.
/// (`as` truncates: the floor, for the non-negative `d`.)
fn distance(o: &Obstacle, centre: Vec2) -> u8 {
    let d = (o.surface(centre).0 - ROUNDING).max(0.0);
    d.min(FIELD_CAP) as u8
}

/// A cell of the nearest obstacles' table after obstacle `index` at distance `q`: it becomes the
/// nearest when strictly nearer than the nearest so far (which moves to "the others"), else the
/// others' distance falls to it. Folded over the obstacles in the order of their indexes, this
/// leaves the lowest index nearest among equals.
fn fold_alone(cell: u32, q: u8, index: u32) -> u32 {
    let (nearest, rest) = ((cell >> 16) as u8, (cell >> 24) as u8);
    if q < nearest {
        u32::from(nearest) << 24 | u32::from(q) << 16 | index
    } else {
        u32::from(rest.min(q)) << 24 | (cell & 0x00FF_FFFF)
    }
}

/// A box of cells: column and row ranges.
#[derive(Debug, Clone)]
struct Span {
    xs: std::ops::Range<usize>,
    ys: std::ops::Range<usize>,
}

impl Span {
    fn meet(&self, other: &Span) -> Span {
        let cut = |a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
            a.start.max(b.start)..a.end.min(b.end)
        };
        Span {
            xs: cut(&self.xs, &other.xs),
            ys: cut(&self.ys, &other.ys),
        }
    }
}

/// A grid of square cells over the arena, row by row.
#[derive(Debug, Clone, Default, PartialEq)]
struct Cells {
    side: f32,
    /// `1 / side`: the sides are powers of two, so multiplying by it rounds exactly as dividing
    /// by the side would — and takes a third of the time on the path of every query.
    per_side: f32,
    cols: usize,
    /// Columns and rows as floats, for the bounds test on every query.
    size: Vec2,
}

impl Cells {
    fn new(side: f32, width: f32, height: f32) -> Self {
        let cols = ((width / side).ceil() as usize).max(1);
        let rows = ((height / side).ceil() as usize).max(1);
        debug_assert!(
            side > 0.0 && (side.log2()).fract() == 0.0,
            "cell sides are powers of two"
        );
        Cells {
            side,
            per_side: 1.0 / side,
            cols,
            size: Vec2::new(cols as f32, rows as f32),
        }
    }

    fn count(&self) -> usize {
        self.cols * self.size.y as usize
    }

    /// The cells whose centres lie within the cap of `o`'s bounds, as column and row ranges:
    /// those are the only cells the shape can bring under the cap.
    fn span(&self, o: &Obstacle) -> Span {
        let (cols, rows) = (self.cols, self.size.y as usize);
        let (min, max) = o.bounds();
        let first = |v: f32, n: usize| {
            (((v - FIELD_CAP) / self.side - 0.5).ceil().max(0.0) as usize).min(n)
        };
        let last = |v: f32, n: usize| {
            (((v + FIELD_CAP) / self.side - 0.5).floor().max(-1.0) + 1.0).min(n as f32) as usize
        };
        let (x0, y0) = (first(min.x, cols), first(min.y, rows));
        Span {
            xs: x0..last(max.x, cols).max(x0),
            ys: y0..last(max.y, rows).max(y0),
        }
    }

    /// Every cell of `within` whose centre lies within the cap of `o`, and the distance from its
    /// centre to `o`, rounded down. (Farther cells keep the cap, which is still a lower bound.)
    fn near(&self, o: &Obstacle, within: &Span, mut visit: impl FnMut(usize, u8)) {
        let span = self.span(o).meet(within);
        for y in span.ys {
            let cy = (y as f32 + 0.5) * self.side;
            for x in span.xs.clone() {
                visit(
                    y * self.cols + x,
                    distance(o, Vec2::new((x as f32 + 0.5) * self.side, cy)),
                );
            }
        }
    }

    /// The cells of `stale` (places in the table, in rising order) that each of `obstacles`
    /// reaches, in the order of the obstacles' indexes, with the obstacle's index and its
    /// distance: how a few cells are measured again without a pass over every cell each obstacle
    /// reaches.
    fn near_some(
        &self,
        obstacles: &[Obstacle],
        stale: &[usize],
        mut visit: impl FnMut(usize, usize, u8),
    ) {
        let (Some(&first), Some(&last)) = (stale.first(), stale.last()) else {
            return;
        };
        let (mut x0, mut x1) = (usize::MAX, 0);
        for &i in stale {
            x0 = x0.min(i % self.cols);
            x1 = x1.max(i % self.cols);
        }
        let round = Span {
            xs: x0..x1 + 1,
            ys: first / self.cols..last / self.cols + 1,
        };
        // The cells' box in pixels grown by the cap (and a pixel): a shape whose bounds miss it
        // reaches none of them, found with a few comparisons before the exact span.
        let reach = Vec2::splat(FIELD_CAP + 1.0);
        let low = Vec2::new(x0 as f32, round.ys.start as f32) * self.side - reach;
        let high = Vec2::new(x1 as f32 + 1.0, round.ys.end as f32) * self.side + reach;
        for (index, o) in obstacles.iter().enumerate() {
            let (min, max) = o.bounds();
            if !(max.cmpge(low).all() && min.cmple(high).all()) {
                continue;
            }
            let span = self.span(o).meet(&round);
            if span.xs.is_empty() || span.ys.is_empty() {
                continue;
            }
            for &i in stale {
                let (x, y) = (i % self.cols, i / self.cols);
                if span.xs.contains(&x) && span.ys.contains(&y) {
                    let centre = (Vec2::new(x as f32, y as f32) + 0.5) * self.side;
                    visit(i, index, distance(o, centre));
                }
            }
        }
    }

    /// Every cell.
    fn all(&self) -> Span {
        Span {
            xs: 0..self.cols,
            ys: 0..self.size.y as usize,
        }
    }

    /// The centre of the cell holding `p` and the cell's place in its table (`None` outside).
    #[inline(always)]
    fn locate(&self, p: Vec2) -> Option<(Vec2, usize)> {
        let (x, y) = (p.x * self.per_side, p.y * self.per_side);
        // Also false for NaN. In range, truncation is the floor. (`i32` both ways converts in an
        // instruction each; unsigned and `usize` conversions take several.)
        if !(x >= 0.0 && y >= 0.0 && x < self.size.x && y < self.size.y) {
            return None;
        }
        let (x, y) = (x as i32, y as i32);
        let centre = (Vec2::new(x as f32, y as f32) + 0.5) * self.side;
        Some((centre, y as usize * self.cols + x as usize))
    }
}

impl Field {
    /// Record the distances for an arena `width` × `height` holding `obstacles`.
    pub fn build(obstacles: &[Obstacle], width: f32, height: f32) -> Self {
        let cells = Cells::new(FIELD_CELL, width, height);
        let alone_cells = Cells::new(ALONE_CELL, width, height);
        let cap = FIELD_CAP as u32;
        let mut field = Field {
            px: vec![FIELD_CAP as u8; cells.count()],
            alone: vec![cap << 24 | cap << 16 | NONE; alone_cells.count()],
            cells,
            alone_cells,
        };
        let (all, all_alone) = (field.cells.all(), field.alone_cells.all());
        for (index, o) in obstacles.iter().enumerate() {
            field.mark(index, o, &all, &all_alone);
        }
        field
    }

    /// Bring obstacle `index` into the cells of `within` and `within_alone` (the distances' and
    /// the nearest obstacles' cells): the distances fall to it where it is nearer, and it becomes
    /// a cell's nearest where it is strictly nearer than the nearest so far — so obstacles marked
    /// in the order of their indexes leave the lowest index nearest among equals.
    fn mark(&mut self, index: usize, o: &Obstacle, within: &Span, within_alone: &Span) {
        let index = (index as u32).min(NONE);
        let px = &mut self.px;
        self.cells.near(o, within, |i, q| px[i] = px[i].min(q));
        let alone = &mut self.alone;
        self.alone_cells.near(o, within_alone, |i, q| {
            alone[i] = fold_alone(alone[i], q, index)
        });
    }

    /// Obstacle `index`, the last of `obstacles`, was added: it lowers the cells near it, and
    /// only those. The field equals one built afresh.
    pub fn add(&mut self, obstacles: &[Obstacle], index: usize) {
        let o = &obstacles[index];
        let (all, all_alone) = (self.cells.all(), self.alone_cells.all());
        self.mark(index, o, &all, &all_alone);
    }

    /// `gone` was taken out of the list at `index` (`obstacles` is the list without it): the
    /// cells whose value it set or shared — the only ones that can change — are measured again
    /// against the obstacles that reach them, and every recorded index past it moves one lower.
    /// The field equals one built afresh.
    pub fn remove(&mut self, obstacles: &[Obstacle], index: usize, gone: &Obstacle, size: Vec2) {
        if obstacles.len() >= NONE as usize {
            // Indexes past the table's reach were never recorded: build it whole.
            *self = Field::build(obstacles, size.x, size.y);
            return;
        }
        let index = index as u32;
        let cap = FIELD_CAP as u8;
        let fresh = u32::from(cap) << 24 | u32::from(cap) << 16 | NONE;
        // A distance is the least of the obstacles' (and the cap): it can change only where the
        // gone one's equals it. A nearest-obstacle cell, where the gone one was the nearest or
        // its distance equals the others'.
        let mut stale = Vec::new();
        let px = &self.px;
        self.cells.near(gone, &self.cells.all(), |i, q| {
            if q < cap && px[i] == q {
                stale.push(i);
            }
        });
        let mut stale_alone = Vec::new();
        let alone = &self.alone;
        self.alone_cells
            .near(gone, &self.alone_cells.all(), |i, q| {
                if alone[i] & NONE == index || (q < cap && (alone[i] >> 24) as u8 == q) {
                    stale_alone.push(i);
                }
            });
        for cell in &mut self.alone {
            let at = *cell & NONE;
            if at != NONE && at > index {
                *cell -= 1;
            }
        }
        for &i in &stale {
            self.px[i] = cap;
        }
        for &i in &stale_alone {
            self.alone[i] = fresh;
        }
        let px = &mut self.px;
        self.cells
            .near_some(obstacles, &stale, |i, _, q| px[i] = px[i].min(q));
        let alone = &mut self.alone;
        self.alone_cells
            .near_some(obstacles, &stale_alone, |i, j, q| {
                alone[i] = fold_alone(alone[i], q, j as u32);
            });
    }

    /// The one obstacle that can come within `reach` of `p`, when the field proves every other
    /// farther (`None` when it cannot, or when none is recorded there).
    #[inline]
    pub fn only_within(&self, p: Vec2, reach: f32) -> Option<u32> {
        let (centre, i) = self.alone_cells.locate(p)?;
        let cell = self.alone[i];
        let spare = (cell >> 24) as f32 - reach;
        (spare >= 0.0 && p.distance_squared(centre) <= spare * spare && cell & NONE != NONE)
            .then_some(cell & NONE)
    }

    /// The cell holding `p` and the distance recorded at its centre (`None` outside the field).
    #[inline]
    fn sample(&self, p: Vec2) -> Option<(Vec2, f32)> {
        self.cells
            .locate(p)
            .map(|(centre, i)| (centre, f32::from(self.px[i])))
    }

    /// A lower bound on the distance from `p` to every obstacle surface (0 when nothing can be
    /// said: outside the field, or at a surface).
    #[inline]
    pub fn free(&self, p: Vec2) -> f32 {
        self.sample(p)
            .map_or(0.0, |(centre, d)| (d - p.distance(centre)).max(0.0))
    }

    /// Whether no obstacle comes within `reach` of `p` (the field proves it; `false` means only
    /// that it cannot).
    #[inline]
    pub fn clear_within(&self, p: Vec2, reach: f32) -> bool {
        self.sample(p).is_some_and(|(centre, d)| {
            let spare = d - reach;
            spare >= 0.0 && p.distance_squared(centre) <= spare * spare
        })
    }
}
