//! The last part of a tick: the body carries out the plan.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::data::tuning::VehicleTuning;
use crate::sim::space::arena::Response;
use glam::Vec2;

impl Agent {
    /// The last part of a tick: the body carries out the plan. Agents never move one another,
    /// so a batch of them can all think, then all clear their course, then all act: each pass is
    /// short enough for the processor to work on several agents at once, where one long pass per
    /// agent waits on its chain of square roots and divisions before starting the next.
    #[inline(always)]
    pub fn act(&mut self, plan: Plan, p: &VehicleTuning, ctx: &Context) {
        // (A course not yet cleared is cleared here.)
        let plan = self.clear(plan, p, ctx);
        match plan {
            Plan::Steer(force) => {
                self.steer = self.body.move_by(force, p, ctx.scene.dt);
                self.collide(p, ctx);
                if let Behaviour::Los { flip: false } | Behaviour::Intercept { flip: false, .. } =
                    self.behaviour
                {
                    self.note_pressed(p, ctx);
                }
            }
            Plan::Tile => {
                // Tile agents: the body sits on the logical tile centre, moving at the step rate.
                let grid = &ctx.scene.arena.tiles;
                let rate = ctx.tuning.tile.steps_per_second;
                let walk = self
                    .behaviour
                    .tile_walk()
                    .expect("only tile behaviours plan a tile move");
                self.body.pos = grid.center(walk.tile);
                let vel = (walk.tile - walk.from).as_vec2() * grid.size * rate;
                self.steer = Vec2::ZERO;
                // The heading follows the velocity, which changes only when the agent steps: a
                // velocity the same as last tick's has its heading already.
                if vel != self.body.vel {
                    self.body.vel = vel;
                    self.body.update_heading();
                }
            }
            Plan::Clear(_) | Plan::Moved | Plan::Done => {}
        }
    }
}

impl Agent {
    /// A steered move whose velocity, once the vehicle's own limits have had their say, `limit`
    /// may cut further (a swarm member's contacts, see
    /// [`Contacts`](crate::sim::behaviours::swarm::Contacts)); then the arena's collisions, as
    /// [`Agent::act`].
    #[inline(always)]
    pub fn act_within(
        &mut self,
        force: Vec2,
        p: &VehicleTuning,
        ctx: &Context,
        limit: impl FnOnce(Vec2) -> Vec2,
    ) {
        let (from, dt) = (self.body.pos, ctx.scene.dt);
        self.steer = self.body.move_by(force, p, dt);
        let vel = limit(self.body.vel);
        if vel != self.body.vel {
            self.body.vel = vel;
            self.body.pos = from + vel * dt;
        }
        self.collide(p, ctx);
    }

    /// The arena's collisions on the body's move from last tick's position (sliding along what
    /// it meets), then its heading from the velocity left.
    #[inline(always)]
    fn collide(&mut self, p: &VehicleTuning, ctx: &Context) {
        let body = &mut self.body;
        ctx.scene.arena.collide(
            self.prev_pos,
            &mut body.pos,
            &mut body.vel,
            p.radius,
            Response::Slide,
        );
        body.update_heading();
    }
}

/// A chaser moving slower than this share of its top speed is barely moving.
pub const BLOCKED_SPEED: f32 = 0.1;
/// How long (s) a chaser must be pressed against an obstacle before it says `blocked`.
pub const BLOCKED_AFTER_S: f32 = 0.5;
/// How near (px) an obstacle must be to the body's edge to count as pressing on it.
const TOUCH_PX: f32 = 1.0;

impl Agent {
    /// Whether a chaser of modes 3 or 4 is pressed against an obstacle (its state word is
    /// `blocked`; mode 2's `blocked` is another thing, a step round a blocked tile).
    pub fn pressed_stuck(&self) -> bool {
        self.pressed >= BLOCKED_AFTER_S
    }

    /// Modes 3 and 4's chasers have no avoidance (the book's chase): one that runs into an
    /// obstacle stays pressed against it. After [`BLOCKED_AFTER_S`] of moving slower than
    /// [`BLOCKED_SPEED`] of its top speed, with an obstacle touching it and its aim farther than
    /// its radius, its state word is `blocked` (the overlay rings it in red).
    fn note_pressed(&mut self, p: &VehicleTuning, ctx: &Context) {
        let dt = ctx.scene.dt;
        let slow = self.body.pos.distance_squared(self.prev_pos)
            < (BLOCKED_SPEED * p.max_speed * dt).powi(2);
        let pressed = slow
            && self.aim.distance_squared(self.body.pos) > p.radius * p.radius
            && !ctx.scene.arena.is_clear(self.body.pos, p.radius + TOUCH_PX);
        self.pressed = if pressed { self.pressed + dt } else { 0.0 };
        if self.pressed >= BLOCKED_AFTER_S {
            self.state = "blocked";
        }
    }
}
