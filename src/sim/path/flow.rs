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
}

impl FlowField {
    pub fn new() -> FlowField {
        FlowField::default()
    }

    /// Flood the grid from `goal`. Every free tile that can reach it steps to the neighbour its
    /// cost came from; a blocked tile (a body overlapping an obstacle's tile stands in one) steps
    /// to its cheapest free neighbour, corners allowed, since the body is partly out already.
    pub fn build(&mut self, tiles: &TileGrid, goal: IVec2) {
        let n = (tiles.cols * tiles.rows) as usize;
        self.cols = tiles.cols;
        self.rows = tiles.rows;
        self.per_tile = 1.0 / tiles.size;
        self.next.clear();
        self.next.resize(n, NONE);
        self.course.clear();
        self.course.resize(n, Vec2::ZERO);
        self.goal = None;
        if !self.flood.flood(tiles, goal) {
            return;
        }
        self.goal = Some(goal);
        let cols = tiles.cols;
        let at = |t: IVec2| (t.y * cols + t.x) as usize;
        for y in 0..tiles.rows {
            for x in 0..cols {
                let t = IVec2::new(x, y);
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
                    self.next[at(t)] = k;
                    self.course[at(t)] = MOVES[usize::from(k)].as_vec2().normalize();
                }
            }
        }
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

    /// The cost (tiles) from `t` to the goal, if `t` is free and can reach it.
    pub fn cost(&self, t: IVec2) -> Option<f32> {
        let c = self.flood.reached(self.index(t)?)?;
        Some((c as f64 / STRAIGHT as f64) as f32)
    }

    /// Tiles the last build closed: every tile that can reach the goal.
    pub fn expanded(&self) -> usize {
        self.flood.expanded()
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
