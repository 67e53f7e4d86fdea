//! Line-of-sight chase on tiles (Bourg & Seemann ch. 2): the chaser walks Bresenham's line from
//! its tile to the player's tile, one tile per step, and draws a new line only when the player
//! changes tile — so between redraws it follows a straight line, not the staircase of tile chase.
//!
//! Blocked line: when the next tile on the line is blocked (an obstacle sits on the line of
//! sight), the chaser takes a basic tile-chase step instead (diagonal, then the single-axis
//! steps) and redraws the line from where it lands; if no step is free it waits. Its state says
//! `blocked` for that step.
//!
//! Reversed (`flip`): the line runs from the chaser's tile away from the player, along the
//! player-to-chaser direction extended to the edge of the grid.

use super::decision::{Decision, Me, Plan};
use super::tile_chase;
use super::tile_walk::TileWalk;
use crate::data::tuning::TileTuning;
use crate::sim::space::Senses;
use crate::sim::space::tiles::{TileGrid, bresenham_nth};
use glam::IVec2;

/// Mode 2: a step along the Bresenham line to the player when one is due (`flip`: away along
/// it); it aims at the line's end while the line is the player's (or leads away).
#[inline(always)]
pub fn steer(
    me: Me,
    walk: &mut TileWalk,
    line: &mut TileLine,
    flip: bool,
    t: &TileTuning,
    senses: &Senses,
) -> Decision {
    let grid = &senses.arena.tiles;
    let mut state = me.was;
    if walk.due(senses.dt, t.steps_per_second) {
        let (next, said) = step(grid, line, walk.tile, senses.player.tile, flip);
        state = if next.is_none() && said != "arrived" {
            "wait"
        } else {
            said
        };
        walk.step(next);
    }
    let aim = if line.drawn_for == senses.player.tile || flip {
        grid.center(line.to)
    } else {
        senses.player.pos
    };
    Decision {
        plan: Plan::Tile,
        aim,
        state,
    }
}

/// The line being walked: drawn from `from` to `to`, `walked` tiles along it so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileLine {
    pub from: IVec2,
    pub to: IVec2,
    /// The player's tile when the line was drawn.
    pub drawn_for: IVec2,
    pub walked: u32,
}

impl TileLine {
    pub fn draw(grid: &TileGrid, from: IVec2, player: IVec2, flip: bool) -> TileLine {
        let to = if flip {
            away_point(grid, from, player)
        } else {
            player
        };
        TileLine {
            from,
            to,
            drawn_for: player,
            walked: 0,
        }
    }
}

/// A tile on the far side of `from` from the player, at the grid's edge (the line extended).
fn away_point(grid: &TileGrid, from: IVec2, player: IVec2) -> IVec2 {
    let d = from - player;
    if d == IVec2::ZERO {
        return from;
    }
    // Scale the direction so the far end lies past the grid; Bresenham stays exact in integers.
    let reach = grid.cols.max(grid.rows);
    let scale = reach / d.abs().max_element().max(1) + 1;
    from + d * scale
}

/// One step: the next tile (or `None` to wait) and the state word.
pub fn step(
    grid: &TileGrid,
    line: &mut TileLine,
    tile: IVec2,
    player: IVec2,
    flip: bool,
) -> (Option<IVec2>, &'static str) {
    if player != line.drawn_for || tile != bresenham_nth(line.from, line.to, line.walked) {
        *line = TileLine::draw(grid, tile, player, flip);
    }
    if !flip && tile == player {
        return (None, "arrived");
    }
    let next = bresenham_nth(line.from, line.to, line.walked + 1);
    if next != tile && grid.can_step(tile, next) {
        line.walked += 1;
        return (Some(next), if flip { "away-line" } else { "line" });
    }
    // The line is blocked (or ends at the edge): a basic tile step, then a fresh line from there.
    let fallback = tile_chase::step(grid, tile, player, flip);
    if let Some(to) = fallback {
        *line = TileLine::draw(grid, to, player, flip);
    }
    (fallback, "blocked")
}
