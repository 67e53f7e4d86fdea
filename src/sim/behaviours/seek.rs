//! Seek, flee and arrive (Reynolds; the steering tutorial's formulas).
//!
//! `desired = normalize(target - pos) * max_speed`, `steering = desired - vel`. Flee is seek
//! negated: the desired velocity points away from the target. Arrive is seek whose desired speed
//! ramps down inside a slowing radius, so the vehicle stops on the target instead of orbiting it.

use super::decision::{Decision, Me};
use crate::sim::space::Senses;
use crate::sim::vehicle::{Vehicle, unit_or_zero};
use glam::Vec2;

/// Mode 3: seek the player's current position (`flip`: flee it).
#[inline(always)]
pub fn steer(me: Me, flip: bool, senses: &Senses) -> Decision {
    let (body, max_speed, player) = (me.body, me.vehicle.max_speed, senses.player.pos);
    if flip {
        Decision::steer(flee(body, player, max_speed), player, "flee")
    } else {
        Decision::steer(seek(body, player, max_speed), player, "seek")
    }
}

/// Steering force towards `target` at full speed.
pub fn seek(v: &Vehicle, target: Vec2, max_speed: f32) -> Vec2 {
    let desired = unit_or_zero(target - v.pos) * max_speed;
    desired - v.vel
}

/// Steering force away from `target` at full speed.
pub fn flee(v: &Vehicle, target: Vec2, max_speed: f32) -> Vec2 {
    let desired = unit_or_zero(v.pos - target) * max_speed;
    desired - v.vel
}

/// Seek that slows linearly inside `slowing_radius` and stops on the target.
pub fn arrive(v: &Vehicle, target: Vec2, max_speed: f32, slowing_radius: f32) -> Vec2 {
    let offset = target - v.pos;
    let distance = offset.length();
    let speed = if distance < slowing_radius && slowing_radius > 0.0 {
        max_speed * distance / slowing_radius
    } else {
        max_speed
    };
    let desired = unit_or_zero(offset) * speed;
    desired - v.vel
}
