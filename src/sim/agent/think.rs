//! The first part of an agent's tick: its behaviour decides. [`Agent::think`] hands each
//! behaviour to its file's `steer` under `behaviours/`, with the agent as it sees itself, its
//! memory, its numbers and its senses; what comes back is a
//! [`Decision`](crate::sim::behaviours::decision::Decision): the plan for the rest of the tick,
//! the point aimed at and the word for the record.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::data::tuning::VehicleTuning;
use crate::sim::behaviours::combine::Dice;
use crate::sim::behaviours::decision::{Decision, Me};
use crate::sim::behaviours::{avoid, evade, formation, guard, hide, pathfind, pathway, pattern};
use crate::sim::behaviours::{intercept, tile_chase, tile_los};
use crate::sim::behaviours::{seek, wander};
use ::rand::Rng;
use glam::Vec2;

impl Agent {
    /// The first part of an agent's tick — `think`, [`Agent::clear`], [`Agent::act`], in that
    /// order (the world runs each over a batch of agents at a time): the behaviour decides, and
    /// draws its random numbers. With the plan come the vehicle numbers the behaviour moves by,
    /// for the other two parts (looked up once a tick).
    #[inline(always)]
    pub fn think(&mut self, ctx: &Context, rng: &mut impl Rng) -> (Plan, VehicleTuning) {
        self.begin_tick();
        let mut p = *self.behaviour.params(ctx.tuning);
        let t = ctx.tuning;
        let senses = ctx.senses(self.id);
        let me = Me {
            body: &self.body,
            vehicle: &p,
            was: self.state,
        };
        let d = match &mut self.behaviour {
            Behaviour::TileChase { walk, flip } => {
                tile_chase::steer(me, walk, *flip, &t.tile, &senses)
            }
            Behaviour::TileLos { walk, line, flip } => {
                tile_los::steer(me, walk, line, *flip, &t.tile, &senses)
            }
            Behaviour::Los { flip } => seek::steer(me, *flip, &senses),
            Behaviour::Intercept { flip, tc } => {
                intercept::steer(me, tc, *flip, &t.intercept, &senses)
            }
            Behaviour::Evade(s) => evade::steer(me, s, &t.evade, &senses, rng),
            Behaviour::Wander { walk, waypoints } => {
                wander::steer(me, walk, *waypoints, &t.wander, &senses, rng)
            }
            Behaviour::Avoid { walk, chase } => {
                avoid::steer(me, walk, *chase, &ctx.avoid_params(), &senses, rng)
            }
            Behaviour::Pattern { run, params } => {
                let d = pattern::steer(&mut self.body, run, params, &t.pattern, &senses);
                // It moved by the numbers it follows this tick, not the ones looked up above.
                p = *params;
                self.steer = Vec2::ZERO;
                d
            }
            Behaviour::TilePattern { walk, run } => {
                pattern::steer_tiles(me, walk, run, &t.tile, &senses)
            }
            Behaviour::Path(chase) => pathfind::steer(me, chase, &ctx.path_params(), &senses),
            Behaviour::Guard(g) => guard::steer(me, g, &ctx.guard_params(), &senses, rng),
            Behaviour::Hide(h) => hide::steer(me, h, &ctx.hide_params(), &senses, rng),
            Behaviour::Bodyguard(g) => hide::guard(me, g, &senses),
            Behaviour::Member(m) => formation::steer(me, m, &ctx.member_params(), &senses, rng),
            Behaviour::Pedestrian(w) => pathway::steer(me, w, &ctx.pathway_params(), &senses, rng),
            // (The stage moves its ships; the world moves the flock, the swarm and the crowd
            // together.)
            Behaviour::Ship(_)
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Walker(_) => Decision {
                plan: Plan::Moved,
                aim: senses.player.pos,
                state: self.state,
            },
        };
        self.aim = d.aim;
        // Written only when it changed, compared as a pointer and a length: copying the word
        // whole made the compiler read the decision back from the stack in one 16-byte load
        // over two 8-byte stores, a stalled store forwarding that cost a tile agent a third of
        // its tick.
        if !std::ptr::eq(self.state, d.state) {
            self.state = d.state;
        }
        (d.plan, p)
    }
}

impl Agent {
    /// How many random numbers [`Agent::think`] will draw this tick, if that can be told before
    /// it runs (from the agent as the tick begins and what it senses): a tick split among
    /// threads takes them from the world's generator beforehand, in agent order. `None`: the
    /// count hangs on the numbers themselves or on the agent's machine, and the agent thinks on
    /// the tick's own thread, in its turn.
    pub fn draws(&self, ctx: &Context) -> Option<u8> {
        let t = ctx.tuning;
        match &self.behaviour {
            Behaviour::Evade(_) => {
                Some(evade::draws(self.body.pos, ctx.scene.player.pos, &t.evade))
            }
            Behaviour::Wander { walk, waypoints } => {
                let radius = self.behaviour.params(t).radius;
                walk.draws(self.body.pos, radius, *waypoints)
            }
            Behaviour::Avoid { chase, .. } => Some(u8::from(!chase) + Dice::draws(ctx.combine)),
            Behaviour::Member(_) | Behaviour::Pedestrian(_) => Some(Dice::draws(ctx.combine)),
            Behaviour::Guard(_) | Behaviour::Hide(_) => None,
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Path(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Ship(_)
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Walker(_) => Some(0),
        }
    }
}
