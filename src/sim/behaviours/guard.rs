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

use super::{evade, intercept, seek};
use crate::data::fsm::GuardBehaviour;
use crate::data::tuning::{EvadeTuning, VehicleTuning};
use crate::sim::fsm::{Conditions, GuardMind};
use crate::sim::space::arena::Arena;
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

/// What a guard's behaviour made of a tick: the force, the point aimed at (or fled), and the
/// word for what it does.
pub struct Steer {
    pub force: Vec2,
    pub aim: Vec2,
    pub state: &'static str,
}

/// What the world gives a guard to steer by.
pub struct Scene<'a> {
    pub arena: &'a Arena,
    pub player_pos: Vec2,
    pub player_vel: Vec2,
    pub max_prediction_time: f32,
    pub evade: &'a EvadeTuning,
    pub dt: f32,
    /// Whether its feelers are cast at the obstacles this tick (flee), and whether the arena
    /// changed.
    pub cast: bool,
    pub recast: bool,
    pub unstick_after: f32,
}

/// This tick's steering for guard `g`.
pub fn steer(
    g: &mut Guard,
    body: &Vehicle,
    p: &VehicleTuning,
    s: &Scene,
    rng: &mut impl Rng,
) -> Steer {
    if g.doing != GuardBehaviour::Chase {
        g.tc = None;
    }
    match g.doing {
        GuardBehaviour::Patrol => Steer {
            force: seek::seek(body, g.goal, p.max_speed * PATROL_SPEED),
            aim: g.goal,
            state: "patrol",
        },
        GuardBehaviour::Chase => {
            let prediction = intercept::predict(
                body.pos,
                body.vel,
                s.player_pos,
                s.player_vel,
                s.max_prediction_time,
            );
            let aim = prediction.aim.clamp(Vec2::ZERO, s.arena.size());
            g.tc = prediction.tc;
            Steer {
                force: seek::seek(body, aim, p.max_speed),
                aim,
                state: "chase",
            }
        }
        GuardBehaviour::Search if g.arrived() => Steer {
            force: look_round(body, g.goal, p.max_speed * LOOK_SPEED),
            aim: g.goal,
            state: "search",
        },
        GuardBehaviour::Search => {
            let aim = follow(g, body.pos);
            Steer {
                force: seek::arrive(body, aim, p.max_speed * SEARCH_SPEED, LOOK_RADIUS),
                aim,
                state: "search",
            }
        }
        GuardBehaviour::Return => {
            let aim = follow(g, body.pos);
            Steer {
                force: seek::arrive(body, aim, p.max_speed * RETURN_SPEED, PATH_REACH),
                aim,
                state: "return",
            }
        }
        GuardBehaviour::Flee => {
            let slowed = VehicleTuning {
                max_speed: p.max_speed * FLEE_SPEED,
                ..*p
            };
            let d = evade::steer(
                s.arena,
                body,
                &mut g.evade,
                s.player_pos,
                s.player_vel,
                &slowed,
                s.evade,
                s.dt,
                s.cast,
                s.recast,
                s.unstick_after,
                rng,
            );
            Steer {
                force: d.force,
                aim: d.aim,
                state: "flee",
            }
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
