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

use super::combine::{Dice, Tally};
use super::decision::{Decision, Me};
use super::unstick::Unstick;
use crate::data::tuning::WanderTuning;
use crate::sim::space::Senses;
use crate::sim::space::clear::AvoidState;
use crate::sim::vehicle::{Vehicle, unit_or, unit_or_zero};
use ::rand::Rng;
use glam::Vec2;

/// A wanderer's memory: its wander target, its waypoint, and its avoidance state (what its
/// feelers last felt among it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WanderWalk {
    /// Wander target on the circle, in the agent's frame.
    pub local: Vec2,
    /// Waypoint variant: the current spot and the seconds until the next.
    pub waypoint: Option<(Vec2, f32)>,
    pub avoid: AvoidState,
    /// Whether it has stayed on one spot, and the way out it follows if so.
    pub unstick: Unstick,
    /// Mode 7's chasers: this tick's push away from the others, as added to the unit pull
    /// toward the player (zero for wanderers).
    pub apart: Vec2,
    /// Mode 7: this tick's draw for dithering (only when `B` chose it) and how its forces
    /// combined (for the overlay).
    pub dice: Dice,
    pub tally: Tally,
}

impl Default for WanderWalk {
    fn default() -> Self {
        WanderWalk {
            local: Vec2::X,
            waypoint: None,
            avoid: AvoidState::default(),
            unstick: Unstick::default(),
            apart: Vec2::ZERO,
            dice: Dice::default(),
            tally: Tally::default(),
        }
    }
}

/// Mode 6: Reynolds' wander (`waypoints`: toward a spot that moves every few seconds), a unit
/// course the agent's layers keep clear of walls and obstacles.
#[inline(always)]
pub fn steer(
    me: Me,
    walk: &mut WanderWalk,
    waypoints: bool,
    w: &WanderTuning,
    senses: &Senses,
    rng: &mut impl Rng,
) -> Decision {
    if waypoints {
        walk.toward_waypoint(me, w, senses, rng)
    } else {
        let wish = walk.wander(me.body, w, senses.dt, rng);
        walk.waypoint = None;
        wish
    }
}

impl WanderWalk {
    /// Reynolds' wander target after this tick's jitter of the circle point.
    pub fn jittered_target(
        &mut self,
        body: &Vehicle,
        w: &WanderTuning,
        dt: f32,
        rng: &mut impl Rng,
    ) -> Vec2 {
        self.local = jitter(self.local, w.radius, w.jitter, dt, rng);
        world_target(body.pos, body.heading, self.local, w.distance)
    }

    /// The plain walk: toward the jittered wander target.
    pub fn wander(
        &mut self,
        body: &Vehicle,
        w: &WanderTuning,
        dt: f32,
        rng: &mut impl Rng,
    ) -> Decision {
        let target = self.jittered_target(body, w, dt, rng);
        Decision::clear(unit_or_zero(target - body.pos), target, "wander")
    }

    /// How many numbers [`steer`] draws this tick for a wanderer at `pos` of `radius`, if that
    /// can be told beforehand: one for the jitter, and for the waypoint variant a new spot's
    /// tries (how many depends on the numbers drawn: `None`) when the spot is due.
    pub fn draws(&self, pos: Vec2, radius: f32, waypoints: bool) -> Option<u8> {
        match self.waypoint {
            _ if !waypoints => Some(1),
            Some((spot, left)) if keeps(spot, left, pos, radius) => Some(1),
            _ => None,
        }
    }

    /// The waypoint variant: toward its spot, wobbling with the jittered circle. The spot is kept
    /// while it is more than two radii away and its seconds last; then a new one is drawn where a
    /// body three radii wide fits, for `waypoint_seconds`.
    pub fn toward_waypoint(
        &mut self,
        me: Me,
        w: &WanderTuning,
        senses: &Senses,
        rng: &mut impl Rng,
    ) -> Decision {
        let (body, radius, dt) = (me.body, me.vehicle.radius, senses.dt);
        // (The wobble follows the circle point; the target it projects is not needed.)
        self.local = jitter(self.local, w.radius, w.jitter, dt, rng);
        let (spot, left) = match self.waypoint {
            Some((spot, left)) if keeps(spot, left, body.pos, radius) => (spot, left - dt),
            _ => (open_spot(senses, radius * 3.0, rng), w.waypoint_seconds),
        };
        self.waypoint = Some((spot, left));
        let course =
            waypoint_direction(body.pos, body.heading, spot, self.local, w.radius, w.wobble);
        Decision::clear(course, spot, "waypoint")
    }
}

/// Whether a waypoint wanderer at `pos` of `radius` keeps its `spot` with `left` seconds to go:
/// while it lasts and the spot is more than two radii away.
#[inline(always)]
fn keeps(spot: Vec2, left: f32, pos: Vec2, radius: f32) -> bool {
    left > 0.0 && spot.distance(pos) > radius * 2.0
}

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

/// A random point where a body of radius `clearance` fits (the arena centre after 32 misses).
fn open_spot(senses: &Senses, clearance: f32, rng: &mut impl Rng) -> Vec2 {
    let arena = senses.arena;
    let margin = clearance.min(arena.width * 0.5).min(arena.height * 0.5);
    for _ in 0..32 {
        let p = Vec2::new(
            rng.gen_range(margin..=arena.width - margin),
            rng.gen_range(margin..=arena.height - margin),
        );
        if senses.is_clear(p, clearance) {
            return p;
        }
    }
    arena.center()
}
