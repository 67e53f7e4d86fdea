//! The crowd's scenes laid out (Shift+5): the arena each scene is given for its walkers, and
//! where each walker starts, where it goes and the door it makes for.

use crate::data::arena::{ArenaData, MAX_SIDE, ObstacleData};
use crate::data::walkers::CrowdScene;
use crate::sim::behaviours::walker::Door;
use glam::Vec2;

/// The circle's radius in walker radii at 250 walkers (RVO2's Circle: 200 over 1.5).
const CIRCLE_RADII: f32 = 133.0;
/// The circle's walkers stand this many radii apart along it (RVO2's Circle at 250).
const CIRCLE_SPACING_RADII: f32 = 3.35;
/// Blocks of walkers stand this many radii apart: a gap of three radii between two, so that a
/// walker whose goal is inside a block of walkers already home can still pass between them.
const BLOCK_SPACING_RADII: f32 = 5.0;
/// The doorway's wall thickness and gap, in walker radii.
const WALL_RADII: f32 = 4.0;
const GAP_RADII: f32 = 20.0;
/// The crossing's streams are this many radii wide, and start and end this far in from the walls.
const BAND_RADII: f32 = 60.0;
const EDGE_RADII: f32 = 16.0;
/// A scene laid out: its arena, and each walker's start, goal and door.
pub(super) struct Layout {
    pub(super) arena: ArenaData,
    pub(super) walkers: Vec<(Vec2, Vec2, Option<Door>)>,
}

/// The scene for `n` walkers of radius `r` in an arena of the data's proportions.
pub(super) fn layout(scene: CrowdScene, n: usize, r: f32, data: &ArenaData) -> Layout {
    let (w0, h0) = (data.width, data.height);
    let most = MAX_SIDE / w0.max(h0);
    let room = |area_needed: f32| (area_needed / (w0 * h0)).sqrt().clamp(1.0, most);
    let space = BLOCK_SPACING_RADII * r;
    let scale = match scene {
        CrowdScene::Circle => {
            let radius = circle_radius(n, r);
            ((2.0 * radius + 8.0 * EDGE_RADII * r) / w0.min(h0)).clamp(1.0, most)
        }
        // Blocks and streams at most 40 % full.
        CrowdScene::Doorway | CrowdScene::Crossing => room(n as f32 * space * space / 0.4),
    };
    let (w, h) = (w0 * scale, h0 * scale);
    let c = Vec2::new(w, h) * 0.5;
    let mut arena = ArenaData {
        width: w,
        height: h,
        tile_size: data.tile_size,
        obstacles: Vec::new(),
        spawns: data
            .spawns
            .iter()
            .map(|p| [p[0] * scale, p[1] * scale])
            .collect(),
        // (Out of every walker's way: in a corner.)
        player_start: [2.0 * EDGE_RADII * r, 2.0 * EDGE_RADII * r],
        pickups: Vec::new(),
        pathways: Vec::new(),
    };
    let mut walkers = Vec::with_capacity(n);
    match scene {
        CrowdScene::Circle => {
            let radius = circle_radius(n, r);
            for i in 0..n {
                let at = Vec2::from_angle(std::f32::consts::TAU * i as f32 / n.max(1) as f32);
                walkers.push((c + at * radius, c - at * radius, None));
            }
        }
        CrowdScene::Doorway => {
            let t = WALL_RADII * r;
            let gap = GAP_RADII * r;
            arena.obstacles.push(ObstacleData::Rect {
                x: c.x - t * 0.5,
                y: 0.0,
                w: t,
                h: c.y - gap * 0.5,
            });
            arena.obstacles.push(ObstacleData::Rect {
                x: c.x - t * 0.5,
                y: c.y + gap * 0.5,
                w: t,
                h: c.y - gap * 0.5,
            });
            let a = Vec2::new(c.x, c.y - gap * 0.5);
            let b = Vec2::new(c.x, c.y + gap * 0.5);
            let left = n.div_ceil(2);
            let block = |k: usize, of: usize, centre: Vec2| {
                let cols = (of as f32).sqrt().ceil().max(1.0) as usize;
                let rows = of.div_ceil(cols);
                let (col, row) = (k % cols, k / cols);
                centre
                    + Vec2::new(
                        (col as f32 - (cols - 1) as f32 * 0.5) * space,
                        (row as f32 - (rows - 1) as f32 * 0.5) * space,
                    )
            };
            let (west, east) = (Vec2::new(w * 0.25, c.y), Vec2::new(w * 0.75, c.y));
            for i in 0..n {
                let (k, of, from, to, through) = if i < left {
                    (i, left, west, east, Vec2::X)
                } else {
                    (i - left, n - left, east, west, -Vec2::X)
                };
                let start = block(k, of, from);
                let goal = to + (start - from) * Vec2::new(-1.0, 1.0);
                let door = Door {
                    a,
                    b,
                    through,
                    past: t * 0.5,
                };
                walkers.push((start, goal, Some(door)));
            }
        }
        CrowdScene::Crossing => {
            let band = BAND_RADII * r * scale;
            let edge = EDGE_RADII * r;
            let lanes = ((band / space) as usize).max(1);
            let across = n.div_ceil(2);
            for i in 0..n {
                let (k, of, east) = if i < across {
                    (i, across, true)
                } else {
                    (i - across, n - across, false)
                };
                let lane = k % lanes;
                let along = k / lanes;
                let rows = of.div_ceil(lanes).max(1);
                let offset = (lane as f32 - (lanes - 1) as f32 * 0.5) * space;
                let u = (along as f32 + 0.5) / rows as f32;
                // (Spread along the way but outside the square where the streams cross, so
                // none starts on top of another.)
                let keep_out = band * 0.5 + space;
                let (goal, now) = if east {
                    let x = spread(u, edge, w - edge, c.x, keep_out);
                    (
                        Vec2::new(w - edge, c.y + offset),
                        Vec2::new(x, c.y + offset),
                    )
                } else {
                    let y = spread(u, edge, h - edge, c.y, keep_out);
                    (
                        Vec2::new(c.x - offset, h - edge),
                        Vec2::new(c.x - offset, y),
                    )
                };
                // (The walker begins partway along; `crossing_start` is where it goes back to.)
                walkers.push((now, goal, None));
            }
        }
    }
    // (Where the largest arena cannot hold the scene, its walkers start and end inside it.)
    let inside = |p: Vec2| p.clamp(Vec2::splat(r), Vec2::new(w, h) - r);
    for (start, goal, _) in &mut walkers {
        *start = inside(*start);
        *goal = inside(*goal);
    }
    Layout { arena, walkers }
}

/// The point a share `u` (0–1) of the way along `from..to` with `middle ± keep_out` left out.
fn spread(u: f32, from: f32, to: f32, middle: f32, keep_out: f32) -> f32 {
    let before = (middle - keep_out - from).max(0.0);
    let after = (to - middle - keep_out).max(0.0);
    let at = u * (before + after);
    if at < before {
        from + at
    } else {
        middle + keep_out + (at - before)
    }
}

/// The circle's radius for `n` walkers of radius `r`: RVO2's proportions at 250, and wide
/// enough to keep its spacing for more.
fn circle_radius(n: usize, r: f32) -> f32 {
    (CIRCLE_RADII * r).max(n as f32 * CIRCLE_SPACING_RADII * r / std::f32::consts::TAU)
}

/// Where a crossing walker starting at `pos` toward `goal` goes back to: the same lane at the
/// far end from its goal.
pub(super) fn crossing_start(pos: Vec2, goal: Vec2, w: f32, h: f32, r: f32) -> Vec2 {
    let edge = EDGE_RADII * r;
    if (goal.x - pos.x).abs() > (goal.y - pos.y).abs() {
        Vec2::new(edge, pos.y)
    } else {
        Vec2::new(pos.x, if goal.y > h * 0.5 { edge } else { h - edge })
            .clamp(Vec2::ZERO, Vec2::new(w, h))
    }
}
