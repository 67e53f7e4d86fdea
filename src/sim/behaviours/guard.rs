//! A guard of the `fsm` mode: what its state machine remembers ([`GuardMind`]) and what each
//! state's behaviour does with its body. The machine decides (in the world's guard pass, before
//! the agents move); here the decision becomes a steering force:
//!
//! - `patrol`: seek the route's next waypoint at a walk;
//! - `chase`: mode 4's intercept, at full speed;
//! - `search`: follow the path to the spot where the player was last seen, then walk a small
//!   circle there, so the vision cone sweeps all round;
//! - `flee`: mode 5's evade by prediction (with its feelers and its wander out of reach);
//! - `return`: follow the path (A*, smoothed) to the nearest point of the route.

use super::decision::{Decision, Me};
use super::{evade, intercept, seek};
use crate::data::fsm::GuardBehaviour;
use crate::data::tuning::{EvadeTuning, VehicleTuning};
use crate::sim::fsm::{Conditions, GuardMind};
use crate::sim::space::Senses;
use crate::sim::vehicle::{Vehicle, unit_or_zero};
use ::rand::Rng;
use glam::Vec2;

pub use evade::EvadeState;

/// Fractions of the guard's top speed: a patrol walks, a search hurries to the spot and looks
/// round slowly, a return walks briskly, a chase runs. A fleeing guard is slowed, as Pac-Man's
/// frightened ghosts are: a powered player, faster than a guard anyway, should run it down within
/// a power-up's few seconds, not merely trail it.
pub const PATROL_SPEED: f32 = 0.5;
pub const FLEE_SPEED: f32 = 0.6;
pub const SEARCH_SPEED: f32 = 0.7;
pub const LOOK_SPEED: f32 = 0.35;
pub const RETURN_SPEED: f32 = 0.75;
/// The circle a searching guard walks round the last seen spot (px): small, so it stays on the
/// spot, but wide enough that its heading (which follows its velocity) turns all the way round.
pub const LOOK_RADIUS: f32 = 20.0;
/// A path point counts as reached within this distance (px); the last one is the goal itself.
pub const PATH_REACH: f32 = 12.0;

/// One guard's memory and plans.
#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub mind: GuardMind,
    /// The behaviour its state runs.
    pub doing: GuardBehaviour,
    /// Where it heads: the route's next waypoint (patrol), the last seen spot (search), the
    /// nearest point of the route (return).
    pub goal: Vec2,
    /// The way to `goal` while searching or returning (A*'s tiles smoothed into points), and the
    /// point it walks to next.
    pub path: Vec<Vec2>,
    pub next: usize,
    /// Mode 5's memory, for `flee`.
    pub evade: EvadeState,
    /// Intercept's time to close this tick, when it predicted (chase).
    pub tc: Option<f32>,
    /// The facts its machine last decided on.
    pub facts: Conditions,
    /// Where a catch or a tag sends it: its route's first point.
    pub home: Vec2,
    /// The transition that fired for it on the last tick, if any (its index in the table).
    pub fired: Option<usize>,
    /// Whether it touched the player at the end of the last tick: a touch counts (a catch or a
    /// tag) only as it begins, so a guard sent home next to the player is not caught or tagged
    /// again on every tick it stays there.
    pub touching: bool,
}

impl Guard {
    pub fn new(mind: GuardMind, doing: GuardBehaviour, home: Vec2) -> Guard {
        Guard {
            mind,
            doing,
            goal: home,
            path: Vec::new(),
            next: 0,
            evade: EvadeState::default(),
            tc: None,
            facts: Conditions::default(),
            home,
            fired: None,
            touching: false,
        }
    }

    /// Whether it has walked its path to the end (or has none).
    pub fn arrived(&self) -> bool {
        self.next >= self.path.len()
    }
}

/// A guard's numbers: intercept's look ahead (chase) and mode 5's evade (flee).
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub max_prediction_time: f32,
    pub evade: &'a EvadeTuning,
}

/// The vehicle a fleeing guard moves by: slowed to [`FLEE_SPEED`].
pub fn slowed(p: &VehicleTuning) -> VehicleTuning {
    VehicleTuning {
        max_speed: p.max_speed * FLEE_SPEED,
        ..*p
    }
}

/// This tick's steering for guard `g`: the behaviour its state runs (the machine decided before
/// the agents moved). (Never inlined: in the tick's loop it would make every other kind's
/// pass dearer.)
#[inline(never)]
pub fn steer(me: Me, g: &mut Guard, t: &Params, senses: &Senses, rng: &mut impl Rng) -> Decision {
    let (body, p) = (me.body, me.vehicle);
    if g.doing != GuardBehaviour::Chase {
        g.tc = None;
    }
    if g.doing != GuardBehaviour::Flee {
        // Its feelers keep their turn while it does not flee, so a flight casts on its turn.
        senses.take_turn(&mut g.evade.held);
    }
    match g.doing {
        GuardBehaviour::Patrol => Decision::steer(
            seek::seek(body, g.goal, p.max_speed * PATROL_SPEED),
            g.goal,
            "patrol",
        ),
        GuardBehaviour::Chase => {
            let player = senses.player;
            let prediction = intercept::predict(
                body.pos,
                body.vel,
                player.pos,
                player.vel,
                t.max_prediction_time,
            );
            let aim = prediction.aim.clamp(Vec2::ZERO, senses.arena.size());
            g.tc = prediction.tc;
            Decision::steer(seek::seek(body, aim, p.max_speed), aim, "chase")
        }
        GuardBehaviour::Search if g.arrived() => Decision::steer(
            look_round(body, g.goal, p.max_speed * LOOK_SPEED),
            g.goal,
            "search",
        ),
        GuardBehaviour::Search => {
            let aim = follow(g, body.pos);
            let force = seek::arrive(body, aim, p.max_speed * SEARCH_SPEED, LOOK_RADIUS);
            Decision::steer(force, aim, "search")
        }
        GuardBehaviour::Return => {
            let aim = follow(g, body.pos);
            let force = seek::arrive(body, aim, p.max_speed * RETURN_SPEED, PATH_REACH);
            Decision::steer(force, aim, "return")
        }
        GuardBehaviour::Flee => {
            // (Its layers keep the course clear as an evader's, by the slowed vehicle.)
            let slowed = slowed(p);
            let me = Me {
                vehicle: &slowed,
                ..me
            };
            let d = evade::steer(me, &mut g.evade, t.evade, senses, rng);
            Decision { state: "flee", ..d }
        }
    }
}

/// The path point to walk to from `pos`, moving on past the points already within reach; the
/// last point is walked right up to.
fn follow(g: &mut Guard, pos: Vec2) -> Vec2 {
    while g.next + 1 < g.path.len() && pos.distance(g.path[g.next]) <= PATH_REACH {
        g.next += 1;
    }
    match g.path.get(g.next) {
        Some(&p) => {
            if g.next + 1 == g.path.len() && pos.distance(p) <= PATH_REACH {
                g.next = g.path.len();
            }
            p
        }
        None => g.goal,
    }
}

/// Walk round a circle of [`LOOK_RADIUS`] about `spot` at `speed`, counter-clockwise: along the
/// tangent, pulled onto the circle by how far off it the guard stands.
pub fn look_round(body: &Vehicle, spot: Vec2, speed: f32) -> Vec2 {
    let out = body.pos - spot;
    let radial = unit_or_zero(out);
    let radial = if radial == Vec2::ZERO {
        body.heading
    } else {
        radial
    };
    let tangent = radial.perp();
    let off = out.length() - LOOK_RADIUS;
    let desired = unit_or_zero(tangent - radial * (off / LOOK_RADIUS).clamp(-1.0, 1.0)) * speed;
    desired - body.vel
}
