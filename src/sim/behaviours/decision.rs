//! What every behaviour's `steer` takes and gives: the agent as it sees itself ([`Me`]) in, a
//! [`Decision`] out. The senses come from `space/` ([`Senses`](crate::sim::space::Senses)), and
//! a behaviour's own memory and numbers are its `State` and `Params`.

use crate::data::tuning::VehicleTuning;
use crate::sim::vehicle::Vehicle;
use glam::Vec2;

/// The agent as its behaviour sees itself.
#[derive(Debug, Clone, Copy)]
pub struct Me<'a> {
    pub body: &'a Vehicle,
    /// The numbers it moves by.
    pub vehicle: &'a VehicleTuning,
    /// Its word for what it did last tick (a tile agent between steps keeps it).
    pub was: &'static str,
}

/// What a behaviour decided in a tick, for the rest of the agent's tick to carry out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// Steer the vehicle with this force (continuous agents).
    Steer(Vec2),
    /// Steer along this unit course once the agent's avoidance and unsticking layers have had
    /// their say ([`Agent::clear`](crate::sim::agent::Agent::clear) makes it a force).
    Clear(Vec2),
    /// Sit on the logical tile (tile agents).
    Tile,
    /// Nothing more: the behaviour moved the agent itself (pattern walkers, ships).
    Moved,
    /// Nothing more: the agent has acted already (the world's mark on a plan carried out early).
    Done,
}

/// A behaviour's decision: the plan, the point it aimed at (or away from), and its word for what
/// it is doing (the record's `state`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    pub plan: Plan,
    pub aim: Vec2,
    pub state: &'static str,
}

impl Decision {
    /// Steer by `force`.
    pub fn steer(force: Vec2, aim: Vec2, state: &'static str) -> Decision {
        Decision {
            plan: Plan::Steer(force),
            aim,
            state,
        }
    }

    /// Steer along the unit `course`, kept clear by the agent's layers.
    pub fn clear(course: Vec2, aim: Vec2, state: &'static str) -> Decision {
        Decision {
            plan: Plan::Clear(course),
            aim,
            state,
        }
    }
}

/// The one place an agent's forces are put together: their sum, in the order given (each force
/// carries its weight already). Every caller lists its forces highest priority first, so a
/// prioritised or dithered combination can take the same list.
#[inline(always)]
pub fn combine<const N: usize>(forces: [Vec2; N]) -> Vec2 {
    let mut total = forces[0];
    for f in &forces[1..] {
        total += *f;
    }
    total
}
