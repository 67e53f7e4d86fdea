//! The vehicle model (the steering tutorial's, with a proper `dt`):
//! `steering = truncate(force, max_force) / mass`, `vel = truncate(vel + steering * dt, max_speed)`,
//! `pos += vel * dt`. The heading follows the velocity and is kept when the vehicle stops.

use crate::data::tuning::VehicleTuning;
use glam::Vec2;

/// Speeds (px/s) below this leave the heading where it was: a stopped vehicle has no direction,
/// and one pressed against an obstacle would otherwise flicker between the two ways round it.
pub const MIN_HEADING_SPEED: f32 = 5.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vehicle {
    pub pos: Vec2,
    pub vel: Vec2,
    /// Unit vector.
    pub heading: Vec2,
}

impl Vehicle {
    pub fn new(pos: Vec2, heading: Vec2) -> Self {
        let heading = heading.try_normalize().unwrap_or(Vec2::X);
        Vehicle {
            pos,
            vel: Vec2::ZERO,
            heading,
        }
    }

    /// Apply a steering force for one tick; returns the force actually applied (after the clamp).
    pub fn apply(&mut self, force: Vec2, p: &VehicleTuning, dt: f32) -> Vec2 {
        let force = self.move_by(force, p, dt);
        self.update_heading();
        force
    }

    /// [`Vehicle::apply`] without turning the heading, for a caller that settles collisions
    /// first and turns it once after.
    #[inline(always)]
    pub fn move_by(&mut self, force: Vec2, p: &VehicleTuning, dt: f32) -> Vec2 {
        let force = truncate(finite_or_zero(force), p.max_force);
        // (One division, not one per component, and none for the usual mass of 1.)
        let accel = if p.mass == 1.0 {
            force
        } else {
            force * (1.0 / p.mass.max(f32::EPSILON))
        };
        self.vel = truncate(self.vel + accel * dt, p.max_speed);
        self.pos += self.vel * dt;
        force
    }

    pub fn update_heading(&mut self) {
        if self.vel.length_squared() > MIN_HEADING_SPEED * MIN_HEADING_SPEED {
            self.heading = unit_or_zero(self.vel);
        }
    }

    pub fn speed(&self) -> f32 {
        self.vel.length()
    }
}

/// The force that closes a velocity error of `error` in one tick of `dt` for a body of `mass`
/// (the vehicle then clamps it to its force): for a course that must be taken at once, where
/// Reynolds' `desired − velocity` closes it over about a second.
#[inline(always)]
pub fn within_a_tick(error: Vec2, mass: f32, dt: f32) -> Vec2 {
    error * (mass / dt.max(f32::EPSILON))
}

/// `v` scaled to unit length, or `fallback` when it has none (zero, too short to invert, not
/// finite): glam's `normalize_or`, with the same arithmetic and so the same answers, its test
/// written as two float comparisons — the compiler turns `is_finite` into a dozen integer
/// instructions that every normalisation then waits on, several times an agent a tick.
#[inline(always)]
pub fn unit_or(v: Vec2, fallback: Vec2) -> Vec2 {
    let rcp = 1.0 / v.length();
    // `rcp · 0 = 0` exactly when `rcp` is finite (infinity and NaN give NaN).
    if (rcp > 0.0) & (rcp * 0.0 == 0.0) {
        v * rcp
    } else {
        fallback
    }
}

/// [`unit_or`] zero.
#[inline(always)]
pub fn unit_or_zero(v: Vec2) -> Vec2 {
    unit_or(v, Vec2::ZERO)
}

/// `v` with its length clamped to `max` (direction kept); zero and non-finite inputs give zero.
pub fn truncate(v: Vec2, max: f32) -> Vec2 {
    let squared = v.length_squared();
    // The common cases, quickly: within the limit, or beyond it by a length whose square fits.
    if squared <= max * max {
        return v;
    }
    if squared.is_finite() {
        return v * (max / squared.sqrt());
    }
    if !v.is_finite() {
        return Vec2::ZERO;
    }
    // Scale by the largest component first so huge vectors do not overflow when squared.
    let big = v.abs().max_element();
    if big == 0.0 {
        return v;
    }
    let unit_ish = v / big;
    let len = unit_ish.length() * big;
    if len > max {
        unit_ish * (max / unit_ish.length())
    } else {
        v
    }
}

/// `v`, or zero when a component is infinite or NaN (`x · 0` is zero exactly for finite `x`:
/// two float comparisons where `is_finite` takes a dozen integer instructions).
#[inline(always)]
fn finite_or_zero(v: Vec2) -> Vec2 {
    let z = v * 0.0;
    if (z.x == 0.0) & (z.y == 0.0) {
        v
    } else {
        Vec2::ZERO
    }
}
