//! A flow field: one Dijkstra map from the goal tile to every tile, and at each tile the step
//! toward the goal. A crowd shares it: each agent looks up its own tile instead of searching, so
//! a thousand chasers cost one flood of the grid and a table look-up each.

use super::search::{MOVES, STRAIGHT, Search, step_cost};
use crate::sim::space::tiles::TileGrid;
use glam::{IVec2, Vec2};

/// No step: the goal itself, or a tile with no way to it.
const NONE: u8 = u8::MAX;

#[derive(Debug, Clone, Default)]
pub struct FlowField {
    flood: Search,
    goal: Option<IVec2>,
    cols: i32,
    rows: i32,
    /// Per tile, the index into the moves of its step toward the goal, or [`NONE`].
    next: Vec<u8>,
    /// Per tile, the unit direction of that step (zero where there is none): what a crowd reads.
    course: Vec<Vec2>,
    /// 1 / the tile size.
    per_tile: f32,
    /// A build under way (see [`FlowField::begin`]): its goal (`None`: on a blocked tile), the
    /// rows of its tables written so far, and the tables, which replace the field's once whole.
    building: Option<(Option<IVec2>, i32)>,
    pending_next: Vec<u8>,
    pending_course: Vec<Vec2>,
    /// Tiles the last whole build closed.
    closed: usize,
}

impl FlowField {
    pub fn new() -> FlowField {
        FlowField::default()
    }

    /// Flood the grid from `goal`. Every free tile that can reach it steps to the neighbour its
    /// cost came from; a blocked tile (a body overlapping an obstacle's tile stands in one) steps
    /// to its cheapest free neighbour, corners allowed, since the body is partly out already.
    /// All at once: [`FlowField::begin`] and [`FlowField::advance`] make the same field a slice
    /// at a time.
    pub fn build(&mut self, tiles: &TileGrid, goal: IVec2) {
        self.begin(tiles, goal);
        self.advance(tiles, usize::MAX);
    }

    /// Begin building the field toward `goal` on `tiles` (which must not change until it is
    /// built); the field flows as before until then.
    pub fn begin(&mut self, tiles: &TileGrid, goal: IVec2) {
        let n = (tiles.cols * tiles.rows) as usize;
        // Both pairs of tables written through, as they trade places at each build: later
        // builds on this grid neither allocate nor touch fresh memory. (Grown, the field's own
        // tables hold no step; its size is still the last build's, so nothing reads them.)
        if self.next.len() < n {
            self.next.resize(n, NONE);
            self.course.resize(n, Vec2::ZERO);
        }
        self.pending_next.clear();
        self.pending_next.resize(n, NONE);
        self.pending_course.clear();
        self.pending_course.resize(n, Vec2::ZERO);
        let reached = self.flood.start_flood(tiles, goal);
        self.building = Some((reached.then_some(goal), 0));
    }

    /// Whether a build is under way.
    pub fn building(&self) -> bool {
        self.building.is_some()
    }

    /// Leave the build under way (the arena it floods changed).
    pub fn abandon(&mut self) {
        self.building = None;
    }

    /// Go on with the build under way for at most `budget` tiles (closed by the flood, then
    /// written into the tables); returns the tiles used and whether the field is now built.
    pub fn advance(&mut self, tiles: &TileGrid, budget: usize) -> (usize, bool) {
        let Some((goal, mut row)) = self.building else {
            return (0, false);
        };
        let mut left = budget;
        if goal.is_some() {
            let before = self.flood.expanded();
            let ended = self.flood.advance(tiles, left);
            left -= self.flood.expanded() - before;
            if ended.is_none() {
                return (budget - left, false);
            }
        }
        let cols = tiles.cols;
        let at = |t: IVec2| (t.y * cols + t.x) as usize;
        while goal.is_some() && row < tiles.rows {
            if left < cols as usize {
                self.building = Some((goal, row));
                return (budget - left, false);
            }
            left -= cols as usize;
            for x in 0..cols {
                let t = IVec2::new(x, row);
                let k = if tiles.blocked(t) {
                    cheapest_way_out(&self.flood, tiles, t)
                } else {
                    // A free tile the flood reached steps back the way the flood came: to the
                    // neighbour its least cost came from.
                    match self.flood.parent(at(t)) {
                        Some(p) if p as usize != at(t) => {
                            let d = IVec2::new(p as i32 % cols, p as i32 / cols) - t;
                            MOVES.iter().position(|&m| m == d).map(|k| k as u8)
                        }
                        _ => None,
                    }
                };
                if let Some(k) = k {
                    self.pending_next[at(t)] = k;
                    self.pending_course[at(t)] = MOVES[usize::from(k)].as_vec2().normalize();
                }
            }
            row += 1;
        }
        std::mem::swap(&mut self.next, &mut self.pending_next);
        std::mem::swap(&mut self.course, &mut self.pending_course);
        self.cols = tiles.cols;
        self.rows = tiles.rows;
        self.per_tile = 1.0 / tiles.size;
        self.goal = goal;
        self.closed = self.flood.expanded();
        self.building = None;
        (budget - left, true)
    }

    /// The tile the field flows to, if it was built on a free one.
    pub fn goal(&self) -> Option<IVec2> {
        self.goal
    }

    /// The next tile toward the goal from `t`: `None` at the goal, outside the grid, and where
    /// there is no way.
    pub fn step(&self, t: IVec2) -> Option<IVec2> {
        let k = *self.next.get(self.index(t)?)?;
        (k != NONE).then(|| t + MOVES[usize::from(k)])
    }

    /// The unit direction of the step from the tile holding `p`: `None` at the goal, outside the
    /// grid, and where there is no way. (What every agent of a crowd asks each tick, so the tile
    /// is found by truncation, which for the arena's non-negative coordinates is the floor.)
    #[inline]
    pub fn course(&self, p: Vec2) -> Option<Vec2> {
        let (x, y) = (p.x * self.per_tile, p.y * self.per_tile);
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        let (x, y) = (x as i32, y as i32);
        if x >= self.cols || y >= self.rows {
            return None;
        }
        let c = self.course[(y * self.cols + x) as usize];
        (c != Vec2::ZERO).then_some(c)
    }

    /// The cost (tiles) from `t` to the goal, if `t` is free and can reach it (while no build is
    /// under way: the flood is the build's).
    pub fn cost(&self, t: IVec2) -> Option<f32> {
        let c = self.flood.reached(self.index(t)?)?;
        Some((c as f64 / STRAIGHT as f64) as f32)
    }

    /// Tiles the last whole build closed: every tile that can reach the goal.
    pub fn expanded(&self) -> usize {
        self.closed
    }

    fn index(&self, t: IVec2) -> Option<usize> {
        (t.x >= 0 && t.y >= 0 && t.x < self.cols && t.y < self.rows)
            .then(|| (t.y * self.cols + t.x) as usize)
    }
}

/// For a blocked tile `t`: the move to its free neighbour (corners allowed) with the least cost
/// to the goal counting the move, if any neighbour was reached.
fn cheapest_way_out(flood: &Search, tiles: &TileGrid, t: IVec2) -> Option<u8> {
    let mut best: Option<(u64, u8)> = None;
    for (k, m) in MOVES.into_iter().enumerate() {
        let n = t + m;
        if tiles.blocked(n) {
            continue;
        }
        if let Some(c) = flood.reached((n.y * tiles.cols + n.x) as usize) {
            let c = c + step_cost(m);
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, k as u8));
            }
        }
    }
    best.map(|(_, k)| k)
}
