//! Mode 7: wander among the obstacles, or (`chase`) make for the player, pushed apart from the
//! other chasers (Reynolds' separation: without it they all seek one point and run together
//! into one blob). The push is added to the wish before the obstacles are felt, so the agent's
//! avoidance layer still comes first (see `Senses::clear`).

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me};
use super::wander::WanderWalk;
use crate::data::tuning::{AvoidTuning, WanderTuning};
use crate::sim::space::Senses;
use crate::sim::space::clear::{Clearance, containment, no_about_face};
use crate::sim::vehicle::{unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

/// Mode 7's forces in the order listed (the overlay's names): the walls' containment, the
/// feelers' course round what they feel, the push from the other chasers, the pull to the
/// player; a wanderer's last is its wander.
pub const CHASE_FORCES: [&str; 4] = ["walls", "obstacles", "separation", "seek"];
pub const WANDER_FORCES: [&str; 4] = ["walls", "obstacles", "separation", "wander"];

/// Mode 7's numbers: the wander's, and how hard the chasers push apart.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub wander: &'a WanderTuning,
    pub separation: f32,
    /// How the forces combine when not mode 7's own way (see [`by_method`]).
    pub combine: Option<Method>,
}

/// This tick's wish: the wander, or the pull to the player plus the push from the others.
#[inline(always)]
pub fn steer(
    me: Me,
    walk: &mut WanderWalk,
    chase: bool,
    t: &Params,
    senses: &Senses,
    rng: &mut impl Rng,
) -> Decision {
    if t.combine == Some(Method::Dithered) {
        walk.dice = Dice::roll(rng);
    }
    if !chase {
        return walk.wander(me.body, t.wander, senses.dt, rng);
    }
    let player = senses.player.pos;
    let to = unit_or_zero(player - me.body.pos);
    walk.apart = senses.apart(me.body.pos) * t.separation;
    Decision::clear(unit_or(to + walk.apart, to), player, "chase")
}

/// The parts of mode 7's steering for this tick: from the unit `wish` its behaviour planned
/// (seek plus separation, or the wander), the walls' containment as a force, the feelers'
/// course as one (zero when they leave the wish as it was), the separation and the pull alone.
fn parts(
    me: Me,
    walk: &mut WanderWalk,
    (wish, speed): (Vec2, f32),
    chase: bool,
    t: &AvoidTuning,
    senses: &Senses,
) -> ([Vec2; 4], Clearance) {
    let (body, p) = (me.body, me.vehicle);
    let push = containment(senses.arena, body.pos, t.look_ahead + t.min_length);
    let held = if push == Vec2::ZERO {
        wish
    } else {
        unit_or_zero(wish + push)
    };
    let held = no_about_face(held, body.heading);
    let clear = senses.whiskers(held, body, speed, p, t, &mut walk.avoid);
    let obstacles = if clear.dir != held {
        let error = clear.dir * p.max_speed * clear.speed - body.vel;
        if clear.urgent {
            within_a_tick(error, p.mass, senses.dt)
        } else {
            error
        }
    } else {
        Vec2::ZERO
    };
    let (apart, goal) = if chase {
        let to = unit_or_zero(senses.player.pos - body.pos);
        (walk.apart, to)
    } else {
        (Vec2::ZERO, wish)
    };
    let v = p.max_speed;
    ([push * v, obstacles, apart * v, goal * v - body.vel], clear)
}

/// Mode 7's steering when `B` chose another way than its own: the four forces of [`parts`]
/// combined by `method` within the vehicle's force; the clearance the feelers worked out.
/// `speed` is the body's (measured by the think pass).
pub fn by_method(
    me: Me,
    walk: &mut WanderWalk,
    wish: (Vec2, f32),
    chase: bool,
    t: &AvoidTuning,
    senses: &Senses,
    method: Method,
) -> (Vec2, Clearance) {
    let (listed, clear) = parts(me, walk, wish, chase, t, senses);
    let (w, o, s, r) = (
        Priority::Walls,
        Priority::Obstacles,
        Priority::Others,
        Priority::Rest,
    );
    let goal = if chase { chance::GOAL } else { chance::WANDER };
    let parts = [
        Part::new(listed[0], w, 1.0, chance::WALLS),
        Part::new(listed[1], o, 1.0, chance::OBSTACLES),
        Part::new(listed[2], s, 1.0, chance::SEPARATION),
        Part::new(listed[3], r, 1.0, goal),
    ];
    let names = if chase { &CHASE_FORCES } else { &WANDER_FORCES };
    let mut dice = walk.dice;
    let dice = (method == Method::Dithered).then_some(&mut dice);
    let max = me.vehicle.max_force;
    let force = forces::combine(method, names, &parts, max, dice, &mut walk.tally);
    (force, clear)
}

/// What mode 7's own way (prioritised: the feelers' course, when they bend the wish, set the
/// rest aside) used this tick, for the overlay: `force` is what it steered by, `avoiding`
/// whether the feelers had their way.
pub fn own_tally(
    me: Me,
    walk: &mut WanderWalk,
    wish: Vec2,
    chase: bool,
    t: &AvoidTuning,
    senses: &Senses,
    (force, avoiding): (Vec2, bool),
) {
    let body = me.body;
    let v = me.vehicle.max_speed;
    let push = containment(senses.arena, body.pos, t.look_ahead + t.min_length);
    let (apart, goal) = if chase {
        (
            walk.apart,
            unit_or_zero(senses.player.pos - body.pos) * v - body.vel,
        )
    } else {
        (Vec2::ZERO, wish * v - body.vel)
    };
    let (names, used) = match (chase, avoiding) {
        (true, true) => (&CHASE_FORCES, 0b0010),
        (true, false) => (&CHASE_FORCES, 0b1101),
        (false, true) => (&WANDER_FORCES, 0b0010),
        (false, false) => (&WANDER_FORCES, 0b1001),
    };
    let obstacles = if avoiding { force } else { Vec2::ZERO };
    walk.tally = Tally::of(names, &[push * v, obstacles, apart * v, goal], used);
}
