//! Reynolds' wander: a target on a circle of `radius` projected `distance` ahead along the
//! heading. Each tick the target moves by a random displacement and is put back on the circle;
//! the agent seeks it. The walk turns gradually: never a sudden about-face.
//!
//! The displacement is `jitter · √dt` (times a random vector in the unit square), not
//! `jitter · dt`: the target performs a random walk, and a random walk's spread after a second
//! grows with the square root of the number of steps, so only √dt scaling gives the same walk at
//! 60 Hz and 120 Hz. (`jitter` is therefore in px/√s.)
//!
//! The waypoint variant (the steering tutorial's): a target that jumps to a random open spot every
//! few seconds, sought with a wobble — the jittered circle's sideways swing added to the course.

use crate::sim::arena::Arena;
use crate::sim::vehicle::{unit_or, unit_or_zero};
use ::rand::Rng;
use glam::Vec2;

/// Move the wander target (in the agent's own frame, x along the heading) and put it back on the
/// circle.
pub fn jitter(target: Vec2, radius: f32, jitter: f32, dt: f32, rng: &mut impl Rng) -> Vec2 {
    let step = jitter * dt.max(0.0).sqrt();
    // Both components from one 32-bit draw, 16 bits each: −1…1 in steps of 2/65535, far finer
    // than a pixel at any jitter the tuning allows.
    let bits = rng.next_u32();
    let unit = |b: u32| (b & 0xFFFF) as f32 * (2.0 / 65535.0) - 1.0;
    let moved = target + Vec2::new(unit(bits), unit(bits >> 16)) * step;
    unit_or(moved, Vec2::X) * radius
}

/// The wander target in world space for an agent at `pos` heading along unit `heading`.
pub fn world_target(pos: Vec2, heading: Vec2, local: Vec2, distance: f32) -> Vec2 {
    let side = heading.perp();
    pos + heading * distance + heading * local.x + side * local.y
}

/// The waypoint variant's course: toward the waypoint, swung sideways by the wander circle's
/// lateral offset (`local.y / radius`, −1…1) times `wobble`.
pub fn waypoint_direction(
    pos: Vec2,
    heading: Vec2,
    waypoint: Vec2,
    local: Vec2,
    radius: f32,
    wobble: f32,
) -> Vec2 {
    let to = unit_or_zero(waypoint - pos);
    let swing = if radius > 0.0 { local.y / radius } else { 0.0 };
    unit_or_zero(to + heading.perp() * swing * wobble)
}

/// Never ask for an about-face: a desired direction behind the heading is turned to the side
/// it leans toward, so the agent arcs round instead of braking through zero speed.
pub fn no_about_face(dir: Vec2, heading: Vec2) -> Vec2 {
    if dir.dot(heading) >= 0.0 || dir == Vec2::ZERO {
        return dir;
    }
    let side = heading.perp();
    if dir.dot(side) >= 0.0 { side } else { -side }
}

/// Containment: the sum of the inward normals of walls closer than `margin`, each scaled by how
/// far inside the margin the agent is (0 at the margin, 2 at the wall). Added to a wanderer's
/// wish, it bends the walk away from walls before it gets near them.
pub fn containment(arena: &Arena, pos: Vec2, margin: f32) -> Vec2 {
    // (Most agents are farther than the margin from every wall: no divisions for them.)
    let open = (pos.x >= margin)
        & (pos.y >= margin)
        & (arena.width - pos.x >= margin)
        & (arena.height - pos.y >= margin);
    if margin <= 0.0 || open {
        return Vec2::ZERO;
    }
    let depth = |d: f32| ((margin - d) / margin).max(0.0) * 2.0;
    Vec2::new(
        depth(pos.x) - depth(arena.width - pos.x),
        depth(pos.y) - depth(arena.height - pos.y),
    )
}
