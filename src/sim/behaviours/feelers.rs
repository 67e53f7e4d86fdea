//! Feelers: rays cast ahead along the velocity — a central ray whose length grows with speed and
//! two shorter whiskers at ± an angle. The nearest hit on a wall or obstacle pushes the agent
//! away along the surface normal, harder the deeper the ray reaches past the hit.

use crate::sim::arena::{Arena, RayHit};
use glam::Vec2;

/// A ray configuration: a value, not a subclass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feelers {
    /// Central ray length at full speed (px).
    pub length: f32,
    /// Central ray length when standing still (px).
    pub min_length: f32,
    /// Whisker length as a fraction of the central ray.
    pub whisker_scale: f32,
    /// Whisker angle either side of the heading (radians).
    pub whisker_angle: f32,
}

impl Feelers {
    /// Direction and length of each ray for an agent heading along unit `heading` at speed
    /// fraction `speed_frac`: the central ray first, then the whiskers.
    pub fn rays(&self, heading: Vec2, speed_frac: f32) -> [(Vec2, f32); 3] {
        let central =
            self.min_length + (self.length - self.min_length).max(0.0) * speed_frac.clamp(0.0, 1.0);
        let whisker = central * self.whisker_scale;
        [
            (heading, central),
            (
                Vec2::from_angle(self.whisker_angle).rotate(heading),
                whisker,
            ),
            (
                Vec2::from_angle(-self.whisker_angle).rotate(heading),
                whisker,
            ),
        ]
    }
}

/// The deepest hit among the rays: where, and how far past it the ray reached (0…1 of its length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feel {
    pub hit: RayHit,
    pub depth: f32,
}

/// Cast the rays for an agent at `pos` heading along unit `heading` at speed fraction
/// `speed_frac` (0…1); the hit that reaches deepest wins.
pub fn feel(
    arena: &Arena,
    pos: Vec2,
    heading: Vec2,
    speed_frac: f32,
    cfg: &Feelers,
) -> Option<Feel> {
    let mut best: Option<Feel> = None;
    for (dir, len) in cfg.rays(heading, speed_frac) {
        if len <= 0.0 {
            continue;
        }
        if let Some(hit) = arena.ray_cast_solid(pos, dir, len) {
            let depth = 1.0 - hit.t / len;
            if best.is_none_or(|b| depth > b.depth) {
                best = Some(Feel { hit, depth });
            }
        }
    }
    best
}

/// Turn a desired direction away from a felt surface: drop its component into the surface, then
/// lean out along the normal, more the deeper the ray reached. Returns a unit vector (or zero).
pub fn deflect(dir: Vec2, feel: &Feel) -> Vec2 {
    let n = feel.hit.normal;
    let into = dir.dot(n).min(0.0);
    (dir - n * into + n * feel.depth * 2.0).normalize_or_zero()
}
