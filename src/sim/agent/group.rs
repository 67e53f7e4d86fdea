//! One member's tick in a crowd that moves together — a boid of the flock or a member of the
//! swarm. The world gathers what every member senses of the crowd (the neighbour grid, the mass
//! field, where everyone stood as the tick began) once, then each member steers by it
//! (`behaviours/boid.rs`, `behaviours/swarmer.rs`) and its body moves.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::data::tuning::VehicleTuning;
use crate::data::walkers::WalkerParams;
use crate::sim::behaviours::boid::{self, Flock};
use crate::sim::behaviours::decision::Me;
use crate::sim::behaviours::swarm::Contacts;
use crate::sim::behaviours::swarmer::{self, Swarm};
use crate::sim::behaviours::walker::{self, Crowd, Scratch};
use ::rand::Rng;

impl Agent {
    /// A boid's tick: it steers as [`boid::steer`] says, by what it senses of `flock`, and its
    /// body moves. Draws its wander from `rng` (in agent order, so runs repeat).
    pub fn fly_in_flock(&mut self, flock: &Flock, ctx: &Context, rng: &mut impl Rng) {
        self.begin_tick();
        let p = *self.behaviour.params(ctx.tuning);
        let t = ctx.tuning;
        let senses = ctx.senses(self.id);
        let me = Me {
            body: &self.body,
            vehicle: &p,
            was: self.state,
        };
        let Behaviour::Boid(mind) = &mut self.behaviour else {
            return;
        };
        let params = boid::Params {
            flock: &t.flock,
            wander: &t.wander,
            avoid: &t.avoid,
            combine: ctx.combine,
        };
        let d = boid::steer(me, mind, &params, flock, &senses, rng);
        self.state = d.state;
        self.aim = d.aim;
        self.act(d.plan, &p, ctx);
    }

    /// A swarm member's tick: it steers as [`swarmer::steer`] says, by what it senses of
    /// `swarm`, and its body moves, never closing on a neighbour faster than keeps them apart
    /// (see [`Contacts`]).
    pub fn fly_in_swarm(&mut self, swarm: &Swarm, ctx: &Context) {
        self.begin_tick();
        let p = *self.behaviour.params(ctx.tuning);
        let senses = ctx.senses(self.id);
        let me = Me {
            body: &self.body,
            vehicle: &p,
            was: self.state,
        };
        let Behaviour::Swarmer(mind) = &mut self.behaviour else {
            return;
        };
        let mut contacts = Contacts::default();
        let d = swarmer::steer(me, mind, &ctx.tuning.swarm, swarm, &senses, &mut contacts);
        self.state = d.state;
        self.aim = d.aim;
        match d.plan {
            Plan::Steer(force) if !contacts.is_empty() => {
                let (from, dt) = (self.body.pos, ctx.scene.dt);
                let apart = |vel| contacts.keep_apart(from, vel, p.radius, dt);
                self.act_within(force, &p, ctx, apart);
            }
            plan => self.act(plan, &p, ctx),
        }
    }

    /// A walker's tick: it steers as [`walker::steer`] says, by what it senses of `crowd`, and
    /// its body moves (`vehicle`: the crowd's, this tick).
    pub fn walk_in_crowd(
        &mut self,
        crowd: &Crowd,
        wp: &WalkerParams,
        vehicle: VehicleTuning,
        ctx: &Context,
        scratch: &mut Scratch,
    ) {
        self.begin_tick();
        let me = Me {
            body: &self.body,
            vehicle: &vehicle,
            was: self.state,
        };
        let Behaviour::Walker(mind) = &mut self.behaviour else {
            return;
        };
        mind.vehicle = vehicle;
        let d = walker::steer(me, mind, wp, crowd, scratch);
        self.state = d.state;
        self.aim = d.aim;
        self.act(d.plan, &vehicle, ctx);
    }
}
