//! The fixed tick: steering every agent, then resolving catches and tags.

use super::{BATCH, Input, World, parallel};
use crate::sim::agent::{Agent, Behaviour, Contact, Context, Plan};
use crate::sim::behaviours::galaga;
use crate::sim::command::TickInput;
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::space::CastSchedule;
use crate::sim::space::neighbours::Member;
use crate::sim::space::{Player, Scene};
use crate::sim::threads;

impl World {
    /// Advance one fixed tick (the traces are filled again when the window next asks).
    pub fn tick(&mut self, input: &Input) {
        self.advance(input);
        self.traces_stale();
    }

    fn advance(&mut self, input: &Input) {
        self.ticked = Some(match self.player.script {
            Script::Keys => TickInput::Keys(input.move_dir),
            script => TickInput::Script(script),
        });
        let dt = self.dt;
        let agent_positions = self.agents.iter().map(|a| a.body.pos);
        self.player.update(
            input.move_dir,
            agent_positions,
            &self.arena,
            &self.tuning.player,
            dt,
        );
        if self.mode.moves_together() {
            // (Their members neither catch nor are tagged.)
            self.tick_group();
            self.tick += 1;
            return;
        }
        if self.mode == Mode::Crowd {
            // (Walkers neither catch nor are tagged.)
            self.tick_crowd();
            self.tick += 1;
            return;
        }
        if self.mode == Mode::Fsm {
            self.guards_decide();
        }
        if self.mode == Mode::Hide {
            self.brief_bodyguards();
        }
        let formation = self.mode == Mode::Formation;
        if formation {
            self.brief_members();
        }
        let walking = self.mode == Mode::Pathway;
        // Mode 7's chasers keep apart: where each stands as the tick begins (so no agent's move
        // this tick changes what another feels of it). So do a formation's members and a
        // pathway's pedestrians.
        let range = if formation {
            self.tuning.formation.separation_range
        } else if walking {
            self.tuning.pathway.separation_range
        } else {
            self.tuning.avoid.separation_range
        };
        // So does a `pathfind` crowd on its flow field, which plans first.
        if self.mode == Mode::Pathfind {
            self.plan_paths();
        }
        let flows = self.flows();
        let chasers_apart =
            (self.mode == Mode::Avoid && self.flip || flows) && self.tuning.avoid.separation > 0.0;
        if chasers_apart
            || formation && self.tuning.formation.separation > 0.0
            || walking && self.tuning.pathway.separation > 0.0
        {
            let chasers = self.agents.iter().filter_map(|a| match a.behaviour {
                Behaviour::Avoid { chase: true, .. }
                | Behaviour::Path(_)
                | Behaviour::Member(_)
                | Behaviour::Pedestrian(_) => Some(Member {
                    id: a.id,
                    pos: a.body.pos,
                }),
                Behaviour::Avoid { chase: false, .. }
                | Behaviour::TileChase { .. }
                | Behaviour::TileLos { .. }
                | Behaviour::Los { .. }
                | Behaviour::Intercept { .. }
                | Behaviour::Evade(_)
                | Behaviour::Wander { .. }
                | Behaviour::Ship(_)
                | Behaviour::Pattern { .. }
                | Behaviour::TilePattern { .. }
                | Behaviour::Boid(_)
                | Behaviour::Swarmer(_)
                | Behaviour::Guard(_)
                | Behaviour::Hide(_)
                | Behaviour::Bodyguard(_)
                | Behaviour::Walker(_) => None,
            });
            self.crowd
                .rebuild_members(self.arena.size(), range, chasers);
        } else {
            self.crowd.clear();
        }
        let ctx = Context {
            scene: Scene {
                arena: &self.arena,
                crowd: Some(&self.crowd),
                motions: if formation {
                    &self.formation.motions
                } else {
                    &[]
                },
                player: Player {
                    pos: self.player.pos,
                    vel: self.player.vel,
                    tile: self.arena.tiles.tile_of(self.player.pos),
                },
                dt,
                tick: self.tick,
                casts: CastSchedule::new(self.tuning.avoid.sense_hz, self.config.tick_hz),
                changed: std::mem::take(&mut self.recast),
            },
            tuning: &self.tuning,
            flow: flows.then_some(&self.paths.field),
            pathways: &self.pathway.ways,
            combine: self.departure(),
        };
        // Ground agents behave one by one; the stage moves its ships (they come last) together.
        let split = match self.stage {
            Some(_) => self.ships_from.min(self.agents.len()),
            None => self.agents.len(),
        };
        // Who touches the player is noted as each agent moves, so the contacts need no second
        // pass over the crowd (agents never move one another, so nothing changes in between).
        // (Room for the whole crowd, so no tick grows the list: a no-op but after the crowd grew.)
        self.touching.clear();
        self.touching.reserve(self.agents.len());
        let (ground, ships) = self.agents.split_at_mut(split);
        if threads::pays(ground.len(), self.mode.agent_ns()) {
            // (The same moves, split among the pool's threads: see `parallel.rs`.)
            let (rng, split) = (&mut self.rng, &mut self.split);
            parallel::move_ground(ground, &ctx, rng, split, &mut self.touching);
        } else {
            // The crowd is taken a batch at a time: every agent of it thinks, then every wanderer
            // clears its course, then every body moves (see `Agent::act`). Random numbers are drawn
            // while thinking, in agent order, as one pass over each agent would draw them.
            for (b, batch) in ground.chunks_mut(BATCH).enumerate() {
                let first = b * BATCH;
                self.plans.clear();
                for (i, a) in batch.iter_mut().enumerate() {
                    let (plan, p) = a.think(&ctx, &mut self.rng);
                    let plan = match plan {
                        // A tile agent's move waits on nothing: it is made, and its contact noted,
                        // at once.
                        Plan::Tile => {
                            a.act(Plan::Tile, &p, &ctx);
                            if touches(a, p.radius, &ctx) || a.tile() == Some(ctx.scene.player.tile)
                            {
                                self.touching.push((first + i) as u32);
                            }
                            Plan::Done
                        }
                        plan => plan,
                    };
                    self.plans.push((plan, p));
                }
                for (a, (plan, p)) in batch.iter_mut().zip(&mut self.plans) {
                    *plan = a.clear(*plan, p, &ctx);
                }
                for (i, (a, (plan, p))) in batch.iter_mut().zip(&self.plans).enumerate() {
                    if *plan == Plan::Done {
                        continue;
                    }
                    a.act(*plan, p, &ctx);
                    // (Tile agents have acted already: the rest are caught by reach alone.)
                    if touches(a, p.radius, &ctx) {
                        self.touching.push((first + i) as u32);
                    }
                }
            }
        }
        // (Tile agents are noted before the rest of their batch: back into index order.)
        self.touching.sort_unstable();
        if let Some(stage) = &mut self.stage {
            // Who touches the player is noted as each ship settles, in the same pass (every
            // ship's body is the stage's one radius); the followers settle last, so the ships'
            // part of the list is put back into index order.
            let first = self.touching.len();
            let touching = &mut self.touching;
            galaga::tick(stage, ships, self.player.pos, dt, &mut self.rng, |i, a| {
                if touches(a, galaga::SHIP_RADIUS, &ctx) {
                    touching.push((split + i) as u32);
                }
            });
            self.touching[first..].sort_unstable();
        }
        self.tick += 1;
        self.resolve_contacts();
        if self.mode == Mode::Fsm {
            self.guards_contact();
        }
        if self.mode == Mode::Hide {
            self.look_for_hiders();
        }
        if formation {
            self.measure_formation();
        }
        if walking {
            self.measure_pathway();
        }
    }

    /// Catches (a chaser touches the player, or a tile chaser stands on the player's tile) and
    /// tags (the player touches an agent that flees): the agent respawns far away. In index order,
    /// over the agents found touching this tick.
    fn resolve_contacts(&mut self) {
        let now = self.time();
        for k in 0..self.touching.len() {
            let i = self.touching[k] as usize;
            let a = &self.agents[i];
            let id = a.id;
            let contact = a.behaviour.contact();
            if contact == Contact::Ignore {
                continue;
            }
            // A bodyguard stays at its post: it catches a player who is not still flashing from
            // its last catch.
            if matches!(self.agents[i].behaviour, Behaviour::Bodyguard(_))
                && self.player.flash > 0.0
            {
                continue;
            }
            if let Behaviour::Ship(s) = &mut self.agents[i].behaviour {
                // A ship catches once per flight; it flies on.
                if s.caught {
                    continue;
                }
                s.caught = true;
            }
            if contact == Contact::Catch {
                self.score_catch(i, now);
            } else {
                self.score.tags += 1;
                self.events.push(format!("tag:{id}"));
            }
            if !self.agents[i].behaviour.respawns() {
                continue;
            }
            if let Behaviour::Path(chase) = &self.agents[i].behaviour {
                // (Its longest wait outlives it, for the summary.)
                self.paths.max_wait = self.paths.max_wait.max(chase.longest);
            }
            let pos = self.far_spawn();
            let pos = self.scattered(pos);
            let (mode, flip) = self.agents[i].behaviour.base();
            self.agents[i] = self.new_agent(id, pos, mode, flip);
        }
    }
}

/// Whether an agent of radius `r` touches the player's body: within the two radii. (A tile agent
/// also touches the player by standing on the player's tile.)
pub(super) fn touches(a: &Agent, r: f32, ctx: &Context) -> bool {
    let reach = ctx.tuning.player.radius + r;
    a.body.pos.distance_squared(ctx.scene.player.pos) <= reach * reach
}
