//! Where the further copies of a pattern walker start (mode 9's `+`, mode 0's pattern walkers).
//!
//! A walker follows its control data blindly, as the book's do: a copy whose loop crosses an
//! obstacle bounces off it every lap, and a tile walker whose box runs into a blocked tile waits
//! there for ever. So each copy starts at the spot nearest its walker's own start from which its
//! whole first loop, traced in open space, stays inside the walls and clear of every obstacle.
//! Spots lie on a lattice anchored at that start; the coarse ones (every 32 px, every other tile)
//! are taken before the fine ones, so a crowd of copies spreads over the arena before it packs,
//! and no two walkers ever start on one spot. Nothing here is random: the start depends on the
//! data, the arena and the count only.
//!
//! When no clear spot is left, a copy takes the nearest free spot where it at least starts clear.
//!
//! A walker's loop is traced once and its lattice listed a level at a time, as its search reaches
//! each: most crowds never need the finer levels, and listing and sorting 256 walkers' full
//! lattices up front would cost seconds and over a hundred megabytes for 20,000 copies.

use crate::data::patterns::TileInstruction;
use crate::data::tuning::PatternTuning;
use crate::sim::behaviours::pattern::{DIRECTIONS, PatternRun};
use crate::sim::space::arena::Arena;
use crate::sim::space::tiles::TileGrid;
use glam::{IVec2, Vec2};
use std::collections::HashSet;

/// Side of the squares that say two starts are on one spot (px).
const SPOT: f32 = 4.0;
/// Lattice levels: a spot at level `k` lies on the lattice `2^k` units wide; coarser first.
const PHYSICS_LEVELS: u32 = 3;
const TILE_LEVELS: u32 = 1;
/// At most this many lattice spots are considered per walker (a huge arena gets a wider unit).
const MAX_SPOTS: f32 = 65_536.0;
/// Clearance kept beyond the body's radius along the loop (px).
const MARGIN: f32 = 2.0;
/// A loop is traced for at most this long (a pattern that never closes is checked this far).
const MAX_TRACE_S: f32 = 30.0;
/// Footprint points are kept this far apart along the loop (px): under a body's radius, so the
/// discs checked at them cover the whole swept path.
const TRACE_STEP: f32 = 4.0;
/// A tile loop is traced for at most this many steps.
const MAX_TILE_STEPS: usize = 4_096;

/// The copies placed so far in one spawn, and each walker's search.
#[derive(Debug, Default)]
pub struct Copies {
    taken: HashSet<(i32, i32)>,
    searches: Vec<Option<Search>>,
}

/// One walker's search: its lattice spots in the order they are tried (listed a level at a time,
/// coarsest first, as the search reaches them), how far it got, and its traced first loop.
#[derive(Debug)]
struct Search {
    lattice: Lattice,
    spots: Vec<Vec2>,
    /// Spots before this one are taken or do not keep the loop clear.
    next: usize,
    /// Spots before this one are taken or not clear even to start on.
    loose: usize,
    /// The loop, as offsets from the start (px for physics walkers, tiles for tile walkers).
    footprint: Vec<Vec2>,
}

/// The lattice points `(i, j)` in `lo ..= hi` each way, and where each puts a walker.
#[derive(Debug)]
struct Lattice {
    lo: IVec2,
    hi: IVec2,
    levels: u32,
    /// The next level to list (`None`: all listed).
    level: Option<u32>,
    place: Place,
}

#[derive(Debug, Clone, Copy)]
enum Place {
    /// `origin + p · unit` (px).
    Offset { origin: Vec2, unit: f32 },
    /// The centre of tile `start + p`.
    Tile { start: IVec2, size: f32 },
}

impl Copies {
    pub fn new() -> Self {
        Self::default()
    }

    /// Note a walker standing at `pos` (an original at its data start), so no copy starts there.
    pub fn take(&mut self, pos: Vec2) {
        self.taken.insert(spot_key(pos));
    }

    /// The start of a further copy of physics walker `walker` (starting at `start` and running
    /// `run`, heading included): see the module doc.
    pub fn physics(
        &mut self,
        arena: &Arena,
        walker: usize,
        run: &PatternRun,
        start: Vec2,
        t: &PatternTuning,
        dt: f32,
    ) -> Vec2 {
        let r = t.radius.max(0.0);
        let search = search(&mut self.searches, walker, || {
            (physics_lattice(arena, start, r), trace(run, t, dt))
        });
        let loop_clear = |footprint: &[Vec2], p: Vec2| {
            footprint
                .iter()
                .all(|&f| inside(arena, p + f, r) && arena.is_clear(p + f, r + MARGIN))
        };
        let start_clear = |p: Vec2| inside(arena, p, r) && arena.is_clear(p, r);
        let found = search.pick(&self.taken, loop_clear, start_clear);
        let pos = found.unwrap_or_else(|| arena.nearest_clear(start, r));
        self.take(pos);
        pos
    }

    /// The start tile of a further copy of tile walker `walker` (starting on `start` facing
    /// `direction`, an index into [`DIRECTIONS`], and running `list`).
    pub fn tile(
        &mut self,
        grid: &TileGrid,
        walker: usize,
        start: IVec2,
        direction: usize,
        list: &[TileInstruction],
    ) -> IVec2 {
        let search = search(&mut self.searches, walker, || {
            (tile_lattice(grid, start), tile_trace(direction, list))
        });
        let at = |p: Vec2| grid.tile_of(p);
        let loop_clear = |path: &[Vec2], p: Vec2| {
            let s = at(p);
            !grid.blocked(s)
                && path
                    .windows(2)
                    .all(|w| grid.can_step(s + w[0].as_ivec2(), s + w[1].as_ivec2()))
        };
        let start_clear = |p: Vec2| !grid.blocked(at(p));
        let found = search.pick(&self.taken, loop_clear, start_clear);
        let tile = found.map_or_else(|| grid.nearest_free(start), at);
        self.take(grid.center(tile));
        tile
    }
}

/// Walker `walker`'s search, its lattice and loop made on first use.
fn search(
    searches: &mut Vec<Option<Search>>,
    walker: usize,
    make: impl FnOnce() -> (Lattice, Vec<Vec2>),
) -> &mut Search {
    if searches.len() <= walker {
        searches.resize_with(walker + 1, || None);
    }
    searches[walker].get_or_insert_with(|| {
        let (lattice, footprint) = make();
        Search {
            lattice,
            spots: Vec::new(),
            next: 0,
            loose: 0,
            footprint,
        }
    })
}

impl Search {
    /// The first untaken spot that keeps the loop clear, else the first where the walker at least
    /// starts clear; the cursors move past what they rule out for good (a taken spot stays
    /// taken). The loop pass lists the lattice's next level whenever it runs out, so the loose
    /// pass, which starts only once that pass found nothing anywhere, sees every spot.
    fn pick(
        &mut self,
        taken: &HashSet<(i32, i32)>,
        loop_clear: impl Fn(&[Vec2], Vec2) -> bool,
        start_clear: impl Fn(Vec2) -> bool,
    ) -> Option<Vec2> {
        loop {
            while let Some(&p) = self.spots.get(self.next) {
                self.next += 1;
                if !taken.contains(&spot_key(p)) && loop_clear(&self.footprint, p) {
                    return Some(p);
                }
            }
            if !self.lattice.list_next(&mut self.spots) {
                break;
            }
        }
        while let Some(&p) = self.spots.get(self.loose) {
            self.loose += 1;
            if !taken.contains(&spot_key(p)) && start_clear(p) {
                return Some(p);
            }
        }
        None
    }
}

fn spot_key(p: Vec2) -> (i32, i32) {
    let k = (p / SPOT).floor();
    (k.x as i32, k.y as i32)
}

fn inside(arena: &Arena, p: Vec2, r: f32) -> bool {
    p.x >= r && p.y >= r && p.x <= arena.width - r && p.y <= arena.height - r
}

/// How coarse lattice point `(i, j)` is: the largest `k ≤ max` with both divisible by `2^k`.
fn level(i: i32, j: i32, max: u32) -> u32 {
    (i | j | (1 << max)).trailing_zeros()
}

impl Lattice {
    /// An empty lattice (nowhere to start).
    fn none(place: Place) -> Self {
        Lattice {
            lo: IVec2::ONE,
            hi: IVec2::ZERO,
            levels: 0,
            level: None,
            place,
        }
    }

    fn new(lo: IVec2, hi: IVec2, levels: u32, place: Place) -> Self {
        let level = lo.cmple(hi).all().then_some(levels);
        Lattice {
            lo,
            hi,
            levels,
            level,
            place,
        }
    }

    /// Append the next level's spots — the points exactly that coarse, nearest the origin first,
    /// then by row and column — to `spots`; false when every level is listed.
    fn list_next(&mut self, spots: &mut Vec<Vec2>) -> bool {
        let Some(k) = self.level else {
            return false;
        };
        self.level = k.checked_sub(1);
        let stride = 1 << k;
        let first = |lo: i32| {
            lo.div_euclid(stride) * stride + stride * i32::from(lo.rem_euclid(stride) != 0)
        };
        let mut points: Vec<IVec2> = (first(self.lo.y)..=self.hi.y)
            .step_by(stride as usize)
            .flat_map(|j| {
                (first(self.lo.x)..=self.hi.x)
                    .step_by(stride as usize)
                    .map(move |i| IVec2::new(i, j))
            })
            .filter(|p| level(p.x, p.y, self.levels) == k)
            .collect();
        points.sort_by_key(|p| (p.length_squared(), p.y, p.x));
        spots.extend(points.into_iter().map(|p| match self.place {
            Place::Offset { origin, unit } => origin + p.as_vec2() * unit,
            Place::Tile { start, size } => ((start + p).as_vec2() + 0.5) * size,
        }));
        true
    }
}

fn physics_lattice(arena: &Arena, start: Vec2, r: f32) -> Lattice {
    let area = (arena.width * arena.height).max(0.0);
    let unit = (area / MAX_SPOTS).sqrt().max(SPOT);
    let place = Place::Offset {
        origin: start,
        unit,
    };
    if !start.is_finite() || !unit.is_finite() {
        return Lattice::none(place);
    }
    let lo = ((Vec2::splat(r) - start) / unit).ceil();
    let hi = ((arena.size() - r - start) / unit).floor();
    if lo.cmpgt(hi).any() {
        return Lattice::none(place);
    }
    Lattice::new(lo.as_ivec2(), hi.as_ivec2(), PHYSICS_LEVELS, place)
}

fn tile_lattice(grid: &TileGrid, start: IVec2) -> Lattice {
    let lo = -start;
    let hi = IVec2::new(grid.cols - 1, grid.rows - 1) - start;
    Lattice::new(
        lo,
        hi,
        TILE_LEVELS,
        Place::Tile {
            start,
            size: grid.size,
        },
    )
}

/// The walker's first loop in open space, as offsets from its start every [`TRACE_STEP`] px.
fn trace(run: &PatternRun, t: &PatternTuning, dt: f32) -> Vec<Vec2> {
    let mut run = run.clone();
    let (mut pos, mut kept) = (Vec2::ZERO, Vec2::ZERO);
    let mut footprint = vec![Vec2::ZERO];
    let ticks = if dt > 0.0 {
        (MAX_TRACE_S / dt) as usize
    } else {
        0
    };
    for _ in 0..ticks {
        pos += run.step(t, dt) * dt;
        run.advance(pos);
        if !pos.is_finite() {
            break;
        }
        if pos.distance(kept) >= TRACE_STEP {
            footprint.push(pos);
            kept = pos;
        }
        if run.cycles > 0 {
            break;
        }
    }
    footprint.push(pos);
    footprint
}

/// A tile walker's first loop as tile offsets from its start, one per step (whole numbers, kept
/// as `Vec2` beside the physics walkers' loops).
fn tile_trace(mut direction: usize, list: &[TileInstruction]) -> Vec<Vec2> {
    let mut at = IVec2::ZERO;
    let mut path = vec![at.as_vec2()];
    for ins in list {
        direction = (direction as i64 + i64::from(ins.turn)).rem_euclid(8) as usize;
        for _ in 0..ins.steps {
            if path.len() > MAX_TILE_STEPS {
                return path;
            }
            at += DIRECTIONS[direction];
            path.push(at.as_vec2());
        }
    }
    path
}
