//! String pulling: a tile path turns corners at every tile where its direction changes, and a
//! staircase of diagonals and straights where the true way is one slanted line. Keeping only the
//! corners a body cannot cut (the arena's own sweep of that body against obstacles and walls says
//! which) leaves the few points a chaser walks straight between.

use crate::sim::space::arena::Arena;
use glam::{IVec2, Vec2};

/// Drops every corner of `path` that a body of `radius` can cut straight; writes the corner points
/// (tile centres, the first `path[0]`'s centre, the last the last tile's) to `out` (cleared first).
///
/// From each kept corner the walk looks as far down the path as a straight sweep stays clear and
/// keeps the last tile it reached: one sweep per tile of the path, no search over pairs.
pub fn smooth(arena: &Arena, path: &[IVec2], radius: f32, out: &mut Vec<Vec2>) {
    out.clear();
    let tiles = &arena.tiles;
    let Some(&first) = path.first() else {
        return;
    };
    let mut anchor = tiles.center(first);
    out.push(anchor);
    if path.len() == 1 {
        return;
    }
    let mut last_seen = tiles.center(path[1]);
    for &t in &path[2..] {
        let p = tiles.center(t);
        if !clear(arena, anchor, p, radius) {
            anchor = last_seen;
            out.push(anchor);
        }
        last_seen = p;
    }
    out.push(last_seen);
}

/// Whether a body of `radius` can move from `a` to `b` touching neither an obstacle nor a wall.
pub fn clear(arena: &Arena, a: Vec2, b: Vec2, radius: f32) -> bool {
    let d = b - a;
    let length = d.length();
    if length <= f32::EPSILON {
        return true;
    }
    arena.sweep(a, d / length, length, radius).is_none()
}
