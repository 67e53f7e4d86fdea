//! The last part of a tick: the body carries out the plan.

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
