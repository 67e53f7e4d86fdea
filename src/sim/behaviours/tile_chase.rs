//! Basic tile chase (Bourg & Seemann ch. 2): each step moves one tile, x and y independently
//! toward the prey — so the chaser runs diagonally until one axis matches, then straight, the
//! path the book calls "too mechanical". Reversed (`flip`), each axis steps away instead.

use super::decision::{Decision, Me, Plan};
use super::tile_walk::TileWalk;
use crate::data::tuning::TileTuning;
use crate::sim::space::Senses;
use crate::sim::space::tiles::TileGrid;
use glam::IVec2;

/// Mode 1: a step toward the player's tile when one is due (`flip`: away from it).
#[inline(always)]
pub fn steer(me: Me, walk: &mut TileWalk, flip: bool, t: &TileTuning, senses: &Senses) -> Decision {
    let mut state = me.was;
    if walk.due(senses.dt, t.steps_per_second) {
        let next = step(&senses.arena.tiles, walk.tile, senses.player.tile, flip);
        state = match (next, flip) {
            (Some(_), false) => "chase",
            (Some(_), true) => "evade",
            (None, _) => "wait",
        };
        walk.step(next);
    }
    Decision {
        plan: Plan::Tile,
        aim: senses.player.pos,
        state,
    }
}

/// The next tile from `from`, or `None` to wait: the 8-way step toward `target` (away when
/// `flip`); if that tile is blocked, the two single-axis steps in turn.
pub fn step(grid: &TileGrid, from: IVec2, target: IVec2, flip: bool) -> Option<IVec2> {
    let mut d = (target - from).signum();
    if flip {
        d = -d;
    }
    if d == IVec2::ZERO {
        return None;
    }
    let candidates = [d, IVec2::new(d.x, 0), IVec2::new(0, d.y)];
    candidates
        .into_iter()
        .filter(|c| *c != IVec2::ZERO)
        .map(|c| from + c)
        .find(|&to| grid.can_step(from, to))
}
