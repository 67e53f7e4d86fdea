//! The middle part of a tick: the layers an agent applies on top of the course its behaviour
//! planned — Reynolds' arbitration, as gdx-ai's `PrioritySteering`: the first layer with
//! something to say wins. Getting out of a pocket comes first (see `unstick`), then keeping clear
//! of walls and obstacles, and only then the behaviour's own course, made a steering force.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::data::combine::Method;
use crate::data::tuning::{AvoidTuning, EvadeTuning, VehicleTuning};
use crate::sim::behaviours::avoid;
use crate::sim::behaviours::decision::Me;
use crate::sim::behaviours::evade::{self, EvadeState};
use crate::sim::behaviours::guard;
use crate::sim::behaviours::hide::{self, Hider};
use crate::sim::behaviours::wander::WanderWalk;
use crate::sim::space::Senses;
use crate::sim::space::clear;
use crate::sim::vehicle::within_a_tick;
use glam::Vec2;

impl Agent {
    /// For the agents whose behaviour planned a course (wanderers, mode 7, evaders, a fleeing
    /// guard), the middle of a tick: the course becomes a steering force through the agent's
    /// layers. Other plans pass through.
    #[inline(always)]
    pub fn clear(&mut self, plan: Plan, p: &VehicleTuning, ctx: &Context) -> Plan {
        let Plan::Clear(course) = plan else {
            return plan;
        };
        let senses = ctx.senses(self.id);
        let (avoid, after) = (&ctx.tuning.avoid, ctx.tuning.avoid.unstick_after_s);
        let me = Me {
            body: &self.body,
            vehicle: p,
            was: self.state,
        };
        Plan::Steer(match &mut self.behaviour {
            Behaviour::Wander { walk, .. } => {
                let (force, how) = wanderer(walk, course, self.prev_speed, me, avoid, &senses);
                if how == Course::Unsticking {
                    self.state = "unstick";
                }
                force
            }
            Behaviour::Avoid { walk, chase } => {
                let (force, how) = match ctx.combine {
                    None => {
                        let (force, how) =
                            wanderer(walk, course, self.prev_speed, me, avoid, &senses);
                        if how == Course::Unsticking {
                            walk.tally = Default::default();
                        } else {
                            let used = (force, how == Course::Avoiding);
                            avoid::own_tally(me, walk, course, *chase, avoid, &senses, used);
                        }
                        (force, how)
                    }
                    Some(method) => {
                        let wish = (course, self.prev_speed);
                        avoider(walk, wish, *chase, me, avoid, &senses, method)
                    }
                };
                match how {
                    Course::Free => {}
                    Course::Avoiding if *chase => self.state = "chase-avoid",
                    Course::Avoiding => self.state = "avoid",
                    Course::Unsticking => self.state = "unstick",
                }
                force
            }
            Behaviour::Evade(s) => {
                let (force, out) = evader(s, course, me, &ctx.tuning.evade, after, &senses);
                if let Some(aim) = out {
                    self.state = "unstick";
                    self.aim = aim;
                }
                force
            }
            // (A hider plans a course only while it evades.)
            Behaviour::Hide(h) => {
                let (force, out) = hider(h, course, me, &ctx.tuning.evade, after, &senses, ctx);
                if let Some(aim) = out {
                    self.state = "unstick";
                    self.aim = aim;
                }
                force
            }
            // (A guard plans a course only while it flees, by its slowed vehicle.)
            Behaviour::Guard(g) => {
                let slowed = guard::slowed(p);
                let me = Me {
                    vehicle: &slowed,
                    ..me
                };
                let (force, out) =
                    evader(&mut g.evade, course, me, &ctx.tuning.evade, after, &senses);
                if let Some(aim) = out {
                    self.aim = aim;
                }
                force
            }
            // These plan no course to clear; were one to, it would seek along it unavoided.
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => course * p.max_speed - self.body.vel,
        })
    }
}

/// How a wanderer's course came out of its layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Course {
    /// As it wished.
    Free,
    /// Bent by a felt surface.
    Avoiding,
    /// Along a way out of a pocket (see `unstick`).
    Unsticking,
}

/// A wanderer's layers: a way out of the pocket it has stayed in, else its wish cleared of the
/// walls and what its rays feel ([`Senses::clear`]) and taken at full speed (less while
/// avoiding). `speed` is the body's (the think pass has measured it already). (Not inlined: in the tick's loop it would make every other kind's pass dearer.)
fn wanderer(
    walk: &mut WanderWalk,
    wish: Vec2,
    speed: f32,
    me: Me,
    t: &AvoidTuning,
    senses: &Senses,
) -> (Vec2, Course) {
    let (body, p) = (me.body, me.vehicle);
    let look = clear::probe(t);
    if let Some(force) = walk
        .unstick
        .update(senses, body, p, t.unstick_after_s, wish, look)
    {
        // What it felt and was going round is left behind: it casts afresh once out.
        walk.avoid.held.forget();
        walk.avoid.rounding = None;
        return (force, Course::Unsticking);
    }
    let clear = senses.clear(wish, body, speed, p, t, &mut walk.avoid);
    let course = if clear.avoiding {
        Course::Avoiding
    } else {
        Course::Free
    };
    let error = clear.dir * p.max_speed * clear.speed - body.vel;
    let force = if clear.urgent {
        within_a_tick(error, p.mass, senses.dt)
    } else {
        error
    };
    (force, course)
}

/// Mode 7's layers when `B` chose another way than its own: a way out of a pocket first (as
/// [`wanderer`]), else its forces combined by `method` ([`avoid::by_method`]).
fn avoider(
    walk: &mut WanderWalk,
    (wish, speed): (Vec2, f32),
    chase: bool,
    me: Me,
    t: &AvoidTuning,
    senses: &Senses,
    method: Method,
) -> (Vec2, Course) {
    let look = clear::probe(t);
    if let Some(force) =
        walk.unstick
            .update(senses, me.body, me.vehicle, t.unstick_after_s, wish, look)
    {
        walk.avoid.held.forget();
        walk.avoid.rounding = None;
        walk.tally = Default::default();
        return (force, Course::Unsticking);
    }
    let (force, clear) = avoid::by_method(me, walk, (wish, speed), chase, t, senses, method);
    let how = if clear.avoiding {
        Course::Avoiding
    } else {
        Course::Free
    };
    (force, how)
}

/// A hider's layers while it evades: as an evader's, its feelers' bend and its flight
/// combined as `B` says ([`hide::keep_clear`]).
fn hider(
    h: &mut Hider,
    course: Vec2,
    me: Me,
    t: &EvadeTuning,
    after: f32,
    senses: &Senses,
    ctx: &Context,
) -> (Vec2, Option<Vec2>) {
    let look = evade::pocket_look(me.vehicle, t);
    if let Some(force) = h
        .evade
        .unstick
        .update(senses, me.body, me.vehicle, after, course, look)
    {
        // (Getting out sets every force aside: the overlay shows none.)
        h.tally = Default::default();
        return (force, Some(h.evade.unstuck(me.body.pos)));
    }
    (
        hide::keep_clear(me, h, t, senses, course, ctx.combine),
        None,
    )
}

/// An evader's layers: a way out of the pocket it has stayed in (and where it leads, for the
/// aim), else its course bent by its feelers ([`evade::keep_clear`]). (Not inlined, as
/// [`wanderer`].)
fn evader(
    s: &mut EvadeState,
    course: Vec2,
    me: Me,
    t: &EvadeTuning,
    after: f32,
    senses: &Senses,
) -> (Vec2, Option<Vec2>) {
    let look = evade::pocket_look(me.vehicle, t);
    if let Some(force) = s
        .unstick
        .update(senses, me.body, me.vehicle, after, course, look)
    {
        return (force, Some(s.unstuck(me.body.pos)));
    }
    (evade::keep_clear(me, s, t, senses, course), None)
}
