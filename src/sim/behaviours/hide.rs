//! Hide and interpose (Buckland, *Programming Game AI by Example*, ch. 3; gdx-ai's `Hide` and
//! `Interpose`).
//!
//! Hide: every obstacle casts a hiding spot on its far side as the hunter sees it,
//! `spot = centre + normalize(centre - hunter) * (extent + boundary + radius)`, where `extent`
//! is how far the obstacle reaches from its centre that way (a circle's radius; a rectangle's
//! exit distance along the ray). The hider arrives at the nearest spot in reach that its body fits
//! in; with none, it evades as mode 5's evaders do. A spot behind an obstacle is often reached
//! round it: while the obstacle stands between the hider and its spot, the hider skirts it.
//! Buckland's own flaw stays: the spot moves with the hunter, so a hider running to it may cross
//! the hunter's line of sight on the way.
//!
//! Interpose: a bodyguard steers to the midpoint of the hunter and its charge, both predicted to
//! the time it takes to get there, `T = |midpoint - me| / max_speed`, and arrives there fast.

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me};
use super::evade::{self, EvadeState};
use super::seek;
use crate::data::classics::HideParams;
use crate::data::tuning::EvadeTuning;
use crate::sim::space::Senses;
use crate::sim::space::arena::Obstacle;
use crate::sim::vehicle::{Vehicle, unit_or_zero};
use ::rand::Rng;
use glam::Vec2;

/// A bodyguard arrives at its interposition point slowing inside this distance (px): a short one,
/// Buckland's "fast" arrive.
pub const GUARD_SLOWING: f32 = 24.0;
/// A hider skirts an obstacle at this much beyond its extent and its own radius (px).
const SKIRT_MARGIN: f32 = 8.0;

/// A hider's memory.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Hider {
    /// Mode 5's memory, for when no spot is in reach.
    pub evade: EvadeState,
    /// The spot it heads for this tick, if any.
    pub spot: Option<Vec2>,
    /// Whether the hunter saw it after the last tick (the world's look, for the overlay).
    pub seen: bool,
    /// This tick's draw for dithering (only when `B` chose it) and how its forces combined (for
    /// the overlay).
    pub dice: Dice,
    pub tally: Tally,
}

/// A hider's forces in the order listed (the overlay's names): the way round the obstacle
/// between it and its spot (or, evading, its feelers' bend), then the arrival at the spot (or
/// the flight).
pub const HIDE_FORCES: [&str; 2] = ["obstacles", "hide"];
pub const EVADE_FORCES: [&str; 2] = ["obstacles", "evade"];

/// A bodyguard's memory: whom it guards and where the world last saw its charge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bodyguard {
    /// The charge's id.
    pub charge: u32,
    /// The charge's position and velocity as the tick began (the world's guard pass fills them).
    pub charge_pos: Vec2,
    pub charge_vel: Vec2,
    /// The interposition point it steers to this tick.
    pub point: Vec2,
}

impl Bodyguard {
    pub fn new(charge: u32) -> Bodyguard {
        Bodyguard {
            charge,
            charge_pos: Vec2::ZERO,
            charge_vel: Vec2::ZERO,
            point: Vec2::ZERO,
        }
    }
}

/// A hider's numbers.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub hide: &'a HideParams,
    pub evade: &'a EvadeTuning,
    /// How the forces combine when not hide's own way (see [`steer`]).
    pub combine: Option<Method>,
}

/// How far `o` reaches from its centre along unit `dir`.
pub fn extent(o: &Obstacle, dir: Vec2) -> f32 {
    match *o {
        Obstacle::Circle { radius, .. } => radius,
        Obstacle::Rect { min, max } => {
            let half = (max - min) * 0.5;
            let along = |h: f32, d: f32| {
                if d.abs() > 1e-6 {
                    h / d.abs()
                } else {
                    f32::INFINITY
                }
            };
            along(half.x, dir.x).min(along(half.y, dir.y))
        }
    }
}

/// Buckland's hiding spot of obstacle `o` from a hunter at `hunter`, for a body of radius `r`.
pub fn hiding_spot(o: &Obstacle, hunter: Vec2, r: f32, boundary: f32) -> Vec2 {
    let centre = o.center();
    let dir = (centre - hunter).try_normalize().unwrap_or(Vec2::X);
    centre + dir * (extent(o, dir) + boundary + r)
}

/// The nearest hiding spot in reach of `pos` that a body of radius `r` fits in, and the obstacle
/// that hides it.
pub fn best_spot(senses: &Senses, pos: Vec2, r: f32, t: &HideParams) -> Option<(Vec2, usize)> {
    let hunter = senses.player.pos;
    let reach2 = t.reach * t.reach;
    let mut best: Option<(Vec2, usize, f32)> = None;
    for (i, o) in senses.arena.obstacles().iter().enumerate() {
        let spot = hiding_spot(o, hunter, r, t.boundary);
        let d2 = spot.distance_squared(pos);
        if d2 > reach2 || best.is_some_and(|(_, _, b)| d2 >= b) {
            continue;
        }
        if senses.is_clear(spot, r) {
            best = Some((spot, i, d2));
        }
    }
    best.map(|(spot, i, _)| (spot, i))
}

/// `hide`: arrive at the nearest hiding spot in reach (round its obstacle while the obstacle is in
/// the way), else evade as mode 5 does. Its own way (prioritised): the way round sets the
/// arrival aside; `B` puts the two through [`forces::combine`] instead.
pub fn steer(me: Me, h: &mut Hider, t: &Params, senses: &Senses, rng: &mut impl Rng) -> Decision {
    let (body, p) = (me.body, me.vehicle);
    if t.combine == Some(Method::Dithered) {
        h.dice = Dice::roll(rng);
    }
    let Some((spot, i)) = best_spot(senses, body.pos, p.radius, t.hide) else {
        h.spot = None;
        let d = evade::steer(me, &mut h.evade, t.evade, senses, rng);
        return Decision {
            state: "evade",
            ..d
        };
    };
    h.spot = Some(spot);
    let o = senses.arena.obstacles()[i];
    let round = skirt(body, &o, spot, p.radius, p.max_speed);
    let arrive = || seek::arrive(body, spot, p.max_speed, t.hide.slowing_radius);
    let force = match (t.combine, round) {
        (None, Some(force)) => {
            h.tally = Tally::of(&HIDE_FORCES, &[force, arrive()], 0b01);
            force
        }
        (None, None) => {
            let force = arrive();
            h.tally = Tally::of(&HIDE_FORCES, &[Vec2::ZERO, force], 0b10);
            force
        }
        (Some(method), round) => {
            let parts = [
                Part::new(
                    round.unwrap_or(Vec2::ZERO),
                    Priority::Obstacles,
                    1.0,
                    chance::OBSTACLES,
                ),
                Part::new(arrive(), Priority::Rest, 1.0, chance::GOAL),
            ];
            let mut dice = h.dice;
            let dice = (method == Method::Dithered).then_some(&mut dice);
            forces::combine(
                method,
                &HIDE_FORCES,
                &parts,
                p.max_force,
                dice,
                &mut h.tally,
            )
        }
    };
    Decision::steer(force, spot, "hide")
}

/// A hider's evading layer (the agent's `clear` calls it): its feelers' bend of `course`
/// ([`evade::keep_clear`]) as its own way has it (prioritised: the bend replaces the course),
/// or, when `B` chose another way, the bend and the flight as two forces through
/// [`forces::combine`].
pub fn keep_clear(
    me: Me,
    h: &mut Hider,
    t: &EvadeTuning,
    senses: &Senses,
    course: Vec2,
    method: Option<Method>,
) -> Vec2 {
    let bent = evade::keep_clear(me, &mut h.evade, t, senses, course);
    let flight = course * me.vehicle.max_speed - me.body.vel;
    let felt = h.evade.felt.is_some();
    let obstacles = if felt { bent } else { Vec2::ZERO };
    let Some(method) = method else {
        let used = if felt { 0b01 } else { 0b10 };
        h.tally = Tally::of(&EVADE_FORCES, &[obstacles, flight], used);
        return bent;
    };
    let parts = [
        Part::new(obstacles, Priority::Obstacles, 1.0, chance::OBSTACLES),
        Part::new(flight, Priority::Rest, 1.0, chance::FLEE),
    ];
    let mut dice = h.dice;
    let dice = (method == Method::Dithered).then_some(&mut dice);
    let max = me.vehicle.max_force;
    forces::combine(method, &EVADE_FORCES, &parts, max, dice, &mut h.tally)
}

/// While `o` stands between the body and `spot`, the force that takes it round `o` on the side
/// nearer the spot: along the tangent, pushed out to the skirting distance.
pub fn skirt(body: &Vehicle, o: &Obstacle, spot: Vec2, r: f32, max_speed: f32) -> Option<Vec2> {
    let centre = o.center();
    let to_spot = spot - body.pos;
    let length = to_spot.length();
    if length < 1e-3 {
        return None;
    }
    let dir = to_spot / length;
    // Blocked: the grown obstacle crosses the segment to the spot.
    let grown = o.inflated(r);
    grown.ray(body.pos, dir, length)?;
    let out = unit_or_zero(body.pos - centre);
    let round = extent(o, out) + r + SKIRT_MARGIN;
    let gap = round - body.pos.distance(centre);
    // Round the side the spot lies on.
    let side = if out.perp_dot(spot - centre) >= 0.0 {
        out.perp()
    } else {
        -out.perp()
    };
    let desired = unit_or_zero(side + out * (gap / round).clamp(-1.0, 1.0)) * max_speed;
    Some(desired - body.vel)
}

/// A bodyguard's interposition point: the midpoint of the hunter and the charge, both predicted
/// to the time the guard needs to reach the midpoint of where they are now.
pub fn interpose_point(
    guard: Vec2,
    max_speed: f32,
    hunter: (Vec2, Vec2),
    charge: (Vec2, Vec2),
) -> Vec2 {
    let mid = (hunter.0 + charge.0) * 0.5;
    let time = guard.distance(mid) / max_speed.max(1e-3);
    let a = hunter.0 + hunter.1 * time;
    let b = charge.0 + charge.1 * time;
    (a + b) * 0.5
}

/// `hide` with `T`: a bodyguard interposes between the hunter and its charge.
pub fn guard(me: Me, g: &mut Bodyguard, senses: &Senses) -> Decision {
    let (body, p) = (me.body, me.vehicle);
    let player = senses.player;
    let point = interpose_point(
        body.pos,
        p.max_speed,
        (player.pos, player.vel),
        (g.charge_pos, g.charge_vel),
    );
    g.point = point;
    let force = seek::arrive(body, point, p.max_speed, GUARD_SLOWING);
    Decision::steer(force, point, "guard")
}

/// The distance from `p` to the segment `a`–`b`.
pub fn off_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 1e-9 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
