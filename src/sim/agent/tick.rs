//! What a tick gives every agent to read (the context), and what an agent's behaviour makes of
//! it (the plan).

use crate::data::tuning::Tuning;
use crate::sim::behaviours::{avoid, guard, pathfind};
use crate::sim::path::FlowField;
use crate::sim::space::arena::Arena;
use crate::sim::space::casts::CastSchedule;
use crate::sim::space::neighbours::Neighbours;
use crate::sim::space::{Player, Scene, Senses};
use glam::{IVec2, Vec2};

pub use crate::sim::behaviours::decision::Plan;

/// What every agent reads during a tick.
pub struct Context<'a> {
    pub arena: &'a Arena,
    pub tuning: &'a Tuning,
    pub player_pos: Vec2,
    pub player_vel: Vec2,
    pub player_tile: IVec2,
    pub dt: f32,
    /// The tick being run (agents take turns to cast their rays by it).
    pub tick: u64,
    /// When agents cast their rays (from `avoid.sense_hz`).
    pub casts: CastSchedule,
    /// The arena changed since the last tick: every agent casts its rays now.
    pub recast: bool,
    /// Where the crowd that keeps apart (mode 7's chasers) stood as the tick began.
    pub crowd: &'a Neighbours,
    /// The flow field a crowd of `pathfind` chasers steers by (`None`: each follows its own path).
    pub flow: Option<&'a FlowField>,
}

impl<'a> Context<'a> {
    /// Agent `id`'s senses this tick.
    #[inline(always)]
    pub fn senses(&self, id: u32) -> Senses<'a> {
        Scene {
            arena: self.arena,
            crowd: Some(self.crowd),
            player: Player {
                pos: self.player_pos,
                vel: self.player_vel,
                tile: self.player_tile,
            },
            dt: self.dt,
            tick: self.tick,
            casts: self.casts,
            changed: self.recast,
        }
        .senses(id)
    }

    /// Mode 7's numbers.
    #[inline(always)]
    pub fn avoid_params(&self) -> avoid::Params<'a> {
        avoid::Params {
            wander: &self.tuning.wander,
            separation: self.tuning.avoid.separation,
        }
    }

    /// A `pathfind` chaser's numbers this tick.
    #[inline(always)]
    pub fn path_params(&self) -> pathfind::Params<'a> {
        pathfind::Params {
            separation: self.tuning.avoid.separation,
            flow: self.flow,
        }
    }

    /// A guard's numbers.
    #[inline(always)]
    pub fn guard_params(&self) -> guard::Params<'a> {
        guard::Params {
            max_prediction_time: self.tuning.intercept.max_prediction_time,
            evade: &self.tuning.evade,
        }
    }
}
