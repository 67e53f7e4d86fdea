//! Mode 7: wander among the obstacles, or (`chase`) make for the player, pushed apart from the
//! other chasers (Reynolds' separation: without it they all seek one point and run together
//! into one blob). The push is added to the wish before the obstacles are felt, so the agent's
//! avoidance layer still comes first (see `Senses::clear`).

use super::decision::{Decision, Me};
use super::wander::WanderWalk;
use crate::data::tuning::WanderTuning;
use crate::sim::space::Senses;
use crate::sim::vehicle::{unit_or, unit_or_zero};
use ::rand::Rng;

/// Mode 7's numbers: the wander's, and how hard the chasers push apart.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub wander: &'a WanderTuning,
    pub separation: f32,
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
    if !chase {
        return walk.wander(me.body, t.wander, senses.dt, rng);
    }
    let player = senses.player.pos;
    let to = unit_or_zero(player - me.body.pos);
    walk.apart = senses.apart(me.body.pos) * t.separation;
    Decision::clear(unit_or(to + walk.apart, to), player, "chase")
}
