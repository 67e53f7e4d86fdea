//! A boid of the flock (Shift+1): the flock's urges (`flock.rs`), a little of Reynolds' wander so
//! the flock roams, and mode 7's feelers — which take over the course while they feel a wall or
//! an obstacle, the boid keeping only its separation from the rest (Reynolds' arbitration: the
//! obstacles first, then the flock).

use super::decision::{Decision, Me, combine};
use super::flock::{self, Around, Flockmates, Forces};
use super::wander::WanderWalk;
use crate::data::crowds::FlockParams;
use crate::data::tuning::{AvoidTuning, WanderTuning};
use crate::sim::space::Senses;
use crate::sim::space::clear::{containment, no_about_face};
use crate::sim::vehicle::{truncate, unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

/// A boid's memory: its wander target and its feelers' state (in a [`WanderWalk`], as mode 7's
/// agents keep theirs), and this tick's urges for the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoidMind {
    pub walk: WanderWalk,
    pub forces: Forces,
    /// The wander urge (weighted), apart from the flock's.
    pub wander: Vec2,
    /// Whether its feelers bent its course this tick.
    pub avoiding: bool,
}

/// A boid's numbers: the flock's, the wander's and the feelers'.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub flock: &'a FlockParams,
    pub wander: &'a WanderTuning,
    pub avoid: &'a AvoidTuning,
}

/// What a boid senses of its flock: boid `i` of `mates`, heeding `heeded` when the world keeps
/// its neighbours (else those the grid finds now), with the player `around` as predator or
/// leader.
#[derive(Debug, Clone, Copy)]
pub struct Flock<'a> {
    pub mates: Flockmates<'a>,
    pub i: usize,
    pub heeded: Option<&'a [u32]>,
    pub around: Around,
}

/// This tick's steering for a boid. Draws its wander from `rng`.
#[inline(always)]
pub fn steer(
    me: Me,
    mind: &mut BoidMind,
    t: &Params,
    flock: &Flock,
    senses: &Senses,
    rng: &mut impl Rng,
) -> Decision {
    let (body, p, fp, around) = (me.body, me.vehicle, t.flock, flock.around);
    let f = match flock.heeded {
        Some(heeded) => flock::steer_heeding(flock.mates, flock.i, heeded, around, fp, p),
        None => flock::steer(flock.mates, flock.i, body.heading, around, fp, p),
    };
    let target = mind.walk.jittered_target(body, t.wander, senses.dt, rng);
    let wander = truncate(
        unit_or_zero(target - body.pos) * p.max_speed - body.vel,
        p.max_force,
    ) * fp.wander;
    let urge = combine([f.total, wander]);
    // The course the urges ask for (`desired = v + steering`), bent round what the feelers
    // feel and held off the walls.
    let a = t.avoid;
    let wish = unit_or(body.vel + urge, body.heading);
    let push = containment(senses.arena, body.pos, a.look_ahead + a.min_length);
    let wish = if push == Vec2::ZERO {
        wish
    } else {
        unit_or(wish + push, wish)
    };
    let wish = no_about_face(wish, body.heading);
    let clear = senses.whiskers(wish, body, body.speed(), p, a, &mut mind.walk.avoid);
    let steered = clear.avoiding || push != Vec2::ZERO;
    let force = if steered {
        let error = clear.dir * p.max_speed * clear.speed - body.vel;
        let course = if clear.urgent {
            within_a_tick(error, p.mass, senses.dt)
        } else {
            error
        };
        // (The feelers have taken over the course; the boid still keeps its distance.)
        combine([course, f.separation])
    } else {
        urge
    };
    mind.forces = f;
    mind.wander = wander;
    mind.avoiding = clear.avoiding;
    let state = if f.flee != Vec2::ZERO {
        "flee"
    } else if clear.avoiding {
        "avoid"
    } else if around.leader.is_some() {
        "follow"
    } else if f.heeded == 0 {
        "alone"
    } else {
        "flock"
    };
    let aim = around
        .predator
        .or(around.leader.map(|l| l.pos))
        .unwrap_or(target);
    Decision::steer(force, aim, state)
}
