//! What a tick gives every agent to read (the context), and what an agent's behaviour makes of
//! it (the plan).

use crate::data::tuning::Tuning;
use crate::sim::path::FlowField;
use crate::sim::space::arena::Arena;
use crate::sim::space::casts::CastSchedule;
use crate::sim::space::neighbours::Neighbours;
use glam::{IVec2, Vec2};

/// What an agent's behaviour decided in a tick, for [`Agent::act`](super::Agent::act) to carry
/// out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// Steer the vehicle with this force (continuous agents).
    Steer(Vec2),
    /// Steer along this unit course, clear of walls and obstacles ([`Agent::clear`](super::Agent::clear) makes it a
    /// force).
    Clear(Vec2),
    /// Sit on the logical tile (tile agents).
    Tile,
    /// Nothing more: the behaviour moved the agent itself (pattern walkers, ships).
    Moved,
    /// Nothing more: the agent has acted already.
    Done,
}

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

impl Context<'_> {
    /// Whether agent `id` casts its rays at obstacles this tick: on its turn, when the arena has
    /// changed, and on its first tick (`cast` says whether it has cast since it (re)spawned, and
    /// is set).
    pub fn cast_now(&self, id: u32, cast: &mut bool) -> bool {
        let now = self.recast || !*cast || self.casts.due(self.tick, id);
        *cast = true;
        now
    }
}
