//! The middle part of a tick, for the agents that keep clear of walls and obstacles (wanderers,
//! mode 7): the course their behaviour wishes for becomes a steering force around what their
//! rays feel, or a way out of a pocket they are stuck in.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::data::tuning::VehicleTuning;
use crate::sim::behaviours::avoid;
use crate::sim::behaviours::wander::{self, WanderWalk};
use crate::sim::vehicle::{Vehicle, unit_or_zero, within_a_tick};
use glam::Vec2;

impl Agent {
    /// For the agents that keep clear of walls and obstacles (wanderers, mode 7), the middle of
    /// a tick: the course their behaviour wishes for becomes a steering force around what their
    /// rays feel. Other plans pass through.
    #[inline(always)]
    pub fn clear(&mut self, plan: Plan, p: &VehicleTuning, ctx: &Context) -> Plan {
        let Plan::Clear(wish) = plan else {
            return plan;
        };
        Plan::Steer(match &mut self.behaviour {
            Behaviour::Wander { walk, .. } => {
                let (force, course) =
                    steer_clear(walk, wish, &self.body, self.prev_speed, self.id, p, ctx);
                if course == Course::Unsticking {
                    self.state = "unstick";
                }
                force
            }
            Behaviour::Avoid { walk, chase } => {
                let (force, course) =
                    steer_clear(walk, wish, &self.body, self.prev_speed, self.id, p, ctx);
                match course {
                    Course::Free => {}
                    Course::Avoiding if *chase => self.state = "chase-avoid",
                    Course::Avoiding => self.state = "avoid",
                    Course::Unsticking => self.state = "unstick",
                }
                force
            }
            // Only the behaviours above plan this; any other would just seek along its wish.
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Evade(_)
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Guard(_) => wish * p.max_speed - self.body.vel,
        })
    }
}

/// How a wanderer's course came out of [`steer_clear`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Course {
    /// As it wished.
    Free,
    /// Bent by a felt surface.
    Avoiding,
    /// Along a way out of a pocket (see `unstick`).
    Unsticking,
}

/// Bend the wish away from near walls and around what the rays feel, and turn it into a steering
/// force at full speed (less while avoiding); also how the course came out. `speed` is the
/// body's (the think pass has measured it already).
/// Agent `id` casts its rays on its turn (`ctx.casts`), on its first tick and when the arena has
/// changed. An agent that has stayed on one spot follows a way out instead.
fn steer_clear(
    walk: &mut WanderWalk,
    wish: Vec2,
    body: &Vehicle,
    speed: f32,
    id: u32,
    p: &VehicleTuning,
    ctx: &Context,
) -> (Vec2, Course) {
    let t = &ctx.tuning.avoid;
    let look = avoid::probe(t);
    if let Some(force) = walk.unstick.update(
        ctx.arena,
        body,
        p,
        t.unstick_after_s,
        wish,
        look,
        ctx.recast,
        ctx.dt,
    ) {
        // What it felt and was going round is left behind: it casts afresh once out.
        walk.felt = None;
        walk.cast = false;
        walk.avoid.rounding = None;
        return (force, Course::Unsticking);
    }
    let margin = t.look_ahead + t.min_length;
    // (Away from the walls there is no push, and the wish is unit already: no normalising.)
    let push = wander::containment(ctx.arena, body.pos, margin);
    let wish = if push == Vec2::ZERO {
        wish
    } else {
        unit_or_zero(wish + push)
    };
    // The wish never asks for an about-face; avoidance may (braking is how it stays clear).
    let wish = wander::no_about_face(wish, body.heading);
    let speed_frac = speed / p.max_speed.max(f32::EPSILON);
    let cast = ctx.cast_now(id, &mut walk.cast);
    let clear = avoid::clear_course(
        ctx.arena,
        body.pos,
        body.heading,
        speed_frac,
        wish,
        p,
        t,
        &mut walk.avoid,
        &mut walk.felt,
        cast,
        ctx.dt,
    );
    let course = if clear.avoiding {
        Course::Avoiding
    } else {
        Course::Free
    };
    let error = clear.dir * p.max_speed * clear.speed - body.vel;
    let force = if clear.urgent {
        within_a_tick(error, p.mass, ctx.dt)
    } else {
        error
    };
    (force, course)
}
