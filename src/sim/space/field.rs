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
/// 61 KB at 1280×768 and a rebuild of some 20 ms with 2,000 obstacles (once per arena change).
pub const FIELD_CELL: f32 = 4.0;
/// The largest distance the field records (px); farther obstacles read as this far. Longer than
/// the default feelers' reach, so an agent in open space proves it with one look.
pub const FIELD_CAP: f32 = 160.0;
/// More than the rounding error of a distance computed in an arena of the largest size (px):
/// the slack every shortcut that skips an obstacle keeps, so it never skips a true hit.
pub const ROUNDING: f32 = 0.01;

/// Side of a cell of the table of nearest obstacles (px): coarser than the distances' cells, as
/// only casts read it, so it takes a byte per distance cell (61 KB at 1280×768, 16 MB at the
/// largest arena).
pub const ALONE_CELL: f32 = 8.0;

#[derive(Debug, Clone, Default)]
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

/// A grid of square cells over the arena, row by row.
#[derive(Debug, Clone, Default)]
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

    /// Every cell whose centre lies within the cap of `o`, and the distance from its centre to
    /// `o`, rounded down. (Those cells are inside the shape's bounds grown by the cap; farther
    /// ones keep the cap, which is still a lower bound.)
    fn near(&self, o: &Obstacle, mut visit: impl FnMut(usize, u8)) {
        let (cols, rows) = (self.cols, self.size.y as usize);
        let (min, max) = o.bounds();
        let first = |v: f32, n: usize| {
            (((v - FIELD_CAP) / self.side - 0.5).ceil().max(0.0) as usize).min(n)
        };
        let last = |v: f32, n: usize| {
            (((v + FIELD_CAP) / self.side - 0.5).floor().max(-1.0) + 1.0).min(n as f32) as usize
        };
        for y in first(min.y, rows)..last(max.y, rows) {
            let cy = (y as f32 + 0.5) * self.side;
            for x in first(min.x, cols)..last(max.x, cols) {
                let centre = Vec2::new((x as f32 + 0.5) * self.side, cy);
                // Less the rounding of the distance, and rounded down, so the stored value never
                // exceeds the true distance. (`as` truncates: the floor, for the non-negative `d`.)
                let d = (o.surface(centre).0 - ROUNDING).max(0.0);
                visit(y * cols + x, d.min(FIELD_CAP) as u8);
            }
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
        let mut px = vec![FIELD_CAP as u8; cells.count()];
        let mut alone = vec![cap << 24 | cap << 16 | NONE; alone_cells.count()];
        for (index, o) in obstacles.iter().enumerate() {
            let index = (index as u32).min(NONE);
            cells.near(o, |i, q| px[i] = px[i].min(q));
            alone_cells.near(o, |i, q| {
                let (nearest, rest) = ((alone[i] >> 16) as u8, (alone[i] >> 24) as u8);
                // The nearest so far moves to "the others" when this one is nearer.
                alone[i] = if q < nearest {
                    u32::from(nearest) << 24 | u32::from(q) << 16 | index
                } else {
                    u32::from(rest.min(q)) << 24 | (alone[i] & 0x00FF_FFFF)
                };
            });
        }
        Field {
            cells,
            px,
            alone_cells,
            alone,
        }
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
