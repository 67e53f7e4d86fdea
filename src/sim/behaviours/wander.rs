//! Reynolds' wander: a target on a circle of `radius` projected `distance` ahead along the
//! heading. Each tick the target moves by a random displacement of up to `jitter · dt` and is
//! put back on the circle; the agent seeks it. The walk turns gradually: never a sudden about-face.

use ::rand::Rng;
use glam::Vec2;

/// The wander target in the agent's own frame (x along the heading), on the circle.
pub fn jitter(target: Vec2, radius: f32, jitter: f32, dt: f32, rng: &mut impl Rng) -> Vec2 {
    let step = jitter * dt;
    let moved = target + Vec2::new(rng.gen_range(-1.0..=1.0), rng.gen_range(-1.0..=1.0)) * step;
    moved.try_normalize().unwrap_or(Vec2::X) * radius
}

/// The wander target in world space for an agent at `pos` heading along unit `heading`.
pub fn world_target(pos: Vec2, heading: Vec2, local: Vec2, distance: f32) -> Vec2 {
    let side = heading.perp();
    pos + heading * distance + heading * local.x + side * local.y
}
