//! What a tick gives every agent to read (the context), and what an agent's behaviour makes of
//! it (the plan).

use crate::data::combine::Method;
use crate::data::tuning::Tuning;
use crate::sim::behaviours::{avoid, formation, guard, hide, pathfind, pathway};
use crate::sim::path::FlowField;
use crate::sim::space::pathway::Pathway;
use crate::sim::space::{Scene, Senses};

pub use crate::sim::behaviours::decision::Plan;

/// What every agent reads during a tick.
pub struct Context<'a> {
    /// What every agent senses: the arena, the player, the crowd kept apart, the clock and the
    /// cast schedule.
    pub scene: Scene<'a>,
    pub tuning: &'a Tuning,
    /// The flow field a crowd of `pathfind` chasers steers by (`None`: each follows its own path).
    pub flow: Option<&'a FlowField>,
    /// The pathways pedestrians follow (empty outside `pathway`).
    pub pathways: &'a [Pathway],
    /// How the forces combine when not by the mode's own code (`B`; see
    /// `sim/behaviours/combine.rs`): `None` for the mode's own.
    pub combine: Option<Method>,
}

impl<'a> Context<'a> {
    /// Agent `id`'s senses this tick.
    #[inline(always)]
    pub fn senses(&self, id: u32) -> Senses<'_> {
        self.scene.senses(id)
    }

    /// Mode 7's numbers.
    #[inline(always)]
    pub fn avoid_params(&self) -> avoid::Params<'a> {
        avoid::Params {
            wander: &self.tuning.wander,
            separation: self.tuning.avoid.separation,
            combine: self.combine,
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

    /// A hider's numbers.
    #[inline(always)]
    pub fn hide_params(&self) -> hide::Params<'a> {
        hide::Params {
            hide: &self.tuning.hide,
            evade: &self.tuning.evade,
            combine: self.combine,
        }
    }

    /// A pedestrian's numbers.
    #[inline(always)]
    pub fn pathway_params(&self) -> pathway::Params<'a> {
        pathway::Params {
            pathways: self.pathways,
            pathway: &self.tuning.pathway,
            combine: self.combine,
        }
    }

    /// A formation member's numbers.
    #[inline(always)]
    pub fn member_params(&self) -> formation::Params<'a> {
        formation::Params {
            formation: &self.tuning.formation,
            combine: self.combine,
        }
    }
}
