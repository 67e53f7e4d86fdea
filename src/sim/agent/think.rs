//! The first part of an agent's tick: its behaviour decides. [`Agent::think`] hands each
//! behaviour to its function below, and each of those hands the maths to the behaviour's own file
//! under `behaviours/`; what comes back is a [`Thought`]: the plan for the rest of the tick, the
//! point aimed at and the word for the record.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use super::tile_walk::TileWalk;
use crate::data::tuning::VehicleTuning;
use crate::sim::behaviours::evade::{self, EvadeState};
use crate::sim::behaviours::guard::{self, Guard, Scene};
use crate::sim::behaviours::pathfind::{self, PathChase};
use crate::sim::behaviours::pattern::{self, PatternRun, TileRun};
use crate::sim::behaviours::tile_los::{self, TileLine};
use crate::sim::behaviours::wander::{WanderWalk, Wish};
use crate::sim::behaviours::{intercept, seek, tile_chase};
use crate::sim::vehicle::{Vehicle, unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

/// What a behaviour made of a tick.
struct Thought {
    plan: Plan,
    /// The point it aimed at (or away from): the player's position unless it says otherwise.
    aim: Vec2,
    /// Its word for what it is doing (the record's `state`); a tile agent between steps keeps
    /// the one it had.
    state: &'static str,
}

impl Thought {
    /// A wanderer's wish, to be cleared of walls and obstacles ([`Agent::clear`]).
    fn clear(wish: Wish) -> Thought {
        Thought {
            plan: Plan::Clear(wish.course),
            aim: wish.aim,
            state: wish.state,
        }
    }
}

impl Agent {
    /// The first part of an agent's tick — `think`, [`Agent::clear`], [`Agent::act`], in that
    /// order (the world runs each over a batch of agents at a time): the behaviour decides, and
    /// draws its random numbers. With the plan come the vehicle numbers the behaviour moves by,
    /// for the other two parts (looked up once a tick).
    #[inline(always)]
    pub fn think(&mut self, ctx: &Context, rng: &mut impl Rng) -> (Plan, VehicleTuning) {
        self.begin_tick();
        let mut p = *self.behaviour.params(ctx.tuning);
        let (id, from, was) = (self.id, self.prev_pos, self.state);
        let body = &mut self.body;
        let thought = match &mut self.behaviour {
            Behaviour::TileChase { walk, flip } => chase_on_tiles(walk, *flip, was, ctx),
            Behaviour::TileLos { walk, line, flip } => walk_the_line(walk, line, *flip, was, ctx),
            Behaviour::Los { flip: false } => seek_player(body, p.max_speed, ctx),
            Behaviour::Los { flip: true } => flee_player(body, p.max_speed, ctx),
            Behaviour::Intercept { flip: false, tc } => intercept(body, tc, p.max_speed, ctx),
            Behaviour::Intercept { flip: true, tc } => evade_predicted(body, tc, p.max_speed, ctx),
            Behaviour::Evade(memory) => evade(memory, body, id, &p, ctx, rng),
            Behaviour::Wander { walk, waypoints } => wander(walk, *waypoints, body, &p, ctx, rng),
            Behaviour::Avoid { walk, chase } => avoid(walk, *chase, body, id, ctx, rng),
            Behaviour::Pattern { run, params } => {
                let thought = walk_pattern(run, params, body, from, ctx);
                // It moved by the numbers it follows this tick, not the ones looked up above.
                p = *params;
                self.steer = Vec2::ZERO;
                thought
            }
            Behaviour::TilePattern { walk, run } => walk_tile_pattern(walk, run, was, ctx),
            Behaviour::Path(chase) => find_the_way(chase, body, id, &p, ctx),
            Behaviour::Guard(g) => guard_steer(g, body, id, &p, ctx, rng),
            // (The stage moves its ships; the world moves the flock and the swarm together.)
            Behaviour::Ship(_) | Behaviour::Boid(_) | Behaviour::Swarmer(_) => Thought {
                plan: Plan::Moved,
                aim: ctx.player_pos,
                state: was,
            },
        };
        self.aim = thought.aim;
        self.state = thought.state;
        (thought.plan, p)
    }
}

/// Mode 1: a step toward the player's tile when one is due (`flip`: away from it).
#[inline(always)]
fn chase_on_tiles(walk: &mut TileWalk, flip: bool, was: &'static str, ctx: &Context) -> Thought {
    let mut state = was;
    if walk.due(ctx.dt, ctx.tuning.tile.steps_per_second) {
        let next = tile_chase::step(&ctx.arena.tiles, walk.tile, ctx.player_tile, flip);
        state = match (next, flip) {
            (Some(_), false) => "chase",
            (Some(_), true) => "evade",
            (None, _) => "wait",
        };
        walk.step(next);
    }
    Thought {
        plan: Plan::Tile,
        aim: ctx.player_pos,
        state,
    }
}

/// Mode 2: a step along the Bresenham line to the player when one is due (`flip`: away along
/// it); it aims at the line's end while the line is the player's (or leads away).
#[inline(always)]
fn walk_the_line(
    walk: &mut TileWalk,
    line: &mut TileLine,
    flip: bool,
    was: &'static str,
    ctx: &Context,
) -> Thought {
    let grid = &ctx.arena.tiles;
    let mut state = was;
    if walk.due(ctx.dt, ctx.tuning.tile.steps_per_second) {
        let (next, said) = tile_los::step(grid, line, walk.tile, ctx.player_tile, flip);
        state = if next.is_none() && said != "arrived" {
            "wait"
        } else {
            said
        };
        walk.step(next);
    }
    let aim = if line.drawn_for == ctx.player_tile || flip {
        grid.center(line.to)
    } else {
        ctx.player_pos
    };
    Thought {
        plan: Plan::Tile,
        aim,
        state,
    }
}

/// Mode 3: seek the player's current position.
#[inline(always)]
fn seek_player(body: &Vehicle, max_speed: f32, ctx: &Context) -> Thought {
    Thought {
        plan: Plan::Steer(seek::seek(body, ctx.player_pos, max_speed)),
        aim: ctx.player_pos,
        state: "seek",
    }
}

/// Mode 3 flipped: flee the player's current position.
#[inline(always)]
fn flee_player(body: &Vehicle, max_speed: f32, ctx: &Context) -> Thought {
    Thought {
        plan: Plan::Steer(seek::flee(body, ctx.player_pos, max_speed)),
        aim: ctx.player_pos,
        state: "flee",
    }
}

/// Mode 4: seek the predicted meeting point (noting the time to close, when it predicted).
#[inline(always)]
fn intercept(body: &Vehicle, tc: &mut Option<f32>, max_speed: f32, ctx: &Context) -> Thought {
    let prediction = intercept::predict(
        body.pos,
        body.vel,
        ctx.player_pos,
        ctx.player_vel,
        ctx.tuning.intercept.max_prediction_time,
    );
    // The prey cannot run through the walls, so neither does the aim point.
    let aim = prediction.aim.clamp(Vec2::ZERO, ctx.arena.size());
    *tc = prediction.tc;
    Thought {
        plan: Plan::Steer(seek::seek(body, aim, max_speed)),
        aim,
        state: prediction.state(),
    }
}

/// Mode 4 flipped: flee where the player would meet the agent.
#[inline(always)]
fn evade_predicted(body: &Vehicle, tc: &mut Option<f32>, max_speed: f32, ctx: &Context) -> Thought {
    *tc = None;
    let threat = intercept::threat_point(
        body.pos,
        max_speed,
        ctx.player_pos,
        ctx.player_vel,
        ctx.tuning.intercept.max_prediction_time,
    );
    Thought {
        plan: Plan::Steer(seek::flee(body, threat, max_speed)),
        aim: threat,
        state: "evade-predict",
    }
}

/// Mode 5: flee the predicted player inside the threat radius, wander outside it, feeling the
/// walls every tick and the obstacles on agent `id`'s turn.
#[inline(always)]
fn evade(
    memory: &mut EvadeState,
    body: &Vehicle,
    id: u32,
    p: &VehicleTuning,
    ctx: &Context,
    rng: &mut impl Rng,
) -> Thought {
    let cast = ctx.cast_now(id, &mut memory.cast);
    let d = evade::steer(
        ctx.arena,
        body,
        memory,
        ctx.player_pos,
        ctx.player_vel,
        p,
        &ctx.tuning.evade,
        ctx.dt,
        cast,
        ctx.recast,
        ctx.tuning.avoid.unstick_after_s,
        rng,
    );
    Thought {
        plan: Plan::Steer(d.force),
        aim: d.aim,
        state: d.state,
    }
}

/// Mode 6: Reynolds' wander (`waypoints`: toward a spot that moves every few seconds).
#[inline(always)]
fn wander(
    walk: &mut WanderWalk,
    waypoints: bool,
    body: &Vehicle,
    p: &VehicleTuning,
    ctx: &Context,
    rng: &mut impl Rng,
) -> Thought {
    let w = &ctx.tuning.wander;
    let wish = if waypoints {
        walk.toward_waypoint(body, p.radius, w, ctx.arena, ctx.dt, rng)
    } else {
        let wish = walk.wander(body, w, ctx.dt, rng);
        walk.waypoint = None;
        wish
    };
    Thought::clear(wish)
}

/// Mode 7: wander among the obstacles (`chase`: make for the player, kept apart from the other
/// chasers by agent `id`'s push away from them).
#[inline(always)]
fn avoid(
    walk: &mut WanderWalk,
    chase: bool,
    body: &Vehicle,
    id: u32,
    ctx: &Context,
    rng: &mut impl Rng,
) -> Thought {
    let wish = if chase {
        let to = unit_or_zero(ctx.player_pos - body.pos);
        walk.apart = ctx.crowd.apart(id, body.pos) * ctx.tuning.avoid.separation;
        Wish {
            course: unit_or(to + walk.apart, to),
            aim: ctx.player_pos,
            state: "chase",
        }
    } else {
        walk.wander(body, &ctx.tuning.wander, ctx.dt, rng)
    };
    Thought::clear(wish)
}

/// Mode 9: the physics-driven pattern walker moves itself, by this tick's pattern tuning
/// (`params` follows it); `from` is where it began the tick.
#[inline(always)]
fn walk_pattern(
    run: &mut PatternRun,
    params: &mut VehicleTuning,
    body: &mut Vehicle,
    from: Vec2,
    ctx: &Context,
) -> Thought {
    let t = &ctx.tuning.pattern;
    *params = pattern::vehicle(t);
    run.walk(body, from, t, ctx.arena, ctx.dt);
    Thought {
        plan: Plan::Moved,
        aim: ctx.player_pos,
        state: run.state(),
    }
}

/// Mode 9: the tile pattern walker's next step, when one is due.
#[inline(always)]
fn walk_tile_pattern(
    walk: &mut TileWalk,
    run: &mut TileRun,
    was: &'static str,
    ctx: &Context,
) -> Thought {
    let mut state = was;
    if walk.due(ctx.dt, ctx.tuning.tile.steps_per_second) {
        let (next, said) = run.step(&ctx.arena.tiles, walk.tile);
        state = said;
        walk.step(next);
    }
    Thought {
        plan: Plan::Tile,
        aim: ctx.player_pos,
        state,
    }
}

/// `pathfind`: along the flow field in a crowd (kept apart like mode 7's chasers), else along the
/// agent's own plan (the world plans before the agents think); with no way to the player, it
/// stands and waits for one.
#[inline(always)]
fn find_the_way(
    chase: &mut PathChase,
    body: &Vehicle,
    id: u32,
    p: &VehicleTuning,
    ctx: &Context,
) -> Thought {
    chase.watch(body, p, ctx.dt);
    if let Some(field) = ctx.flow {
        let apart = chase.push(ctx.tick, id, || {
            ctx.crowd.apart(id, body.pos) * ctx.tuning.avoid.separation
        });
        let (force, aim) = pathfind::flow(
            field,
            ctx.arena.tile_size,
            body,
            ctx.player_pos,
            apart,
            p,
            ctx.dt,
        );
        return Thought {
            plan: Plan::Steer(force),
            aim,
            state: "flow",
        };
    }
    let fresh = std::mem::take(&mut chase.fresh);
    let state = if fresh || chase.corners.is_empty() {
        "plan"
    } else {
        "follow"
    };
    let (force, aim) = if chase.corners.is_empty() {
        (within_a_tick(-body.vel, p.mass, ctx.dt), ctx.player_pos)
    } else {
        pathfind::follow(
            &chase.corners,
            &mut chase.next,
            body,
            ctx.player_pos,
            p,
            ctx.dt,
        )
    };
    Thought {
        plan: Plan::Steer(force),
        aim,
        state,
    }
}

/// `fsm`: the behaviour the guard's state runs (the machine decided before the agents moved).
#[inline(always)]
fn guard_steer(
    g: &mut Guard,
    body: &Vehicle,
    id: u32,
    p: &VehicleTuning,
    ctx: &Context,
    rng: &mut impl Rng,
) -> Thought {
    let scene = Scene {
        arena: ctx.arena,
        player_pos: ctx.player_pos,
        player_vel: ctx.player_vel,
        max_prediction_time: ctx.tuning.intercept.max_prediction_time,
        evade: &ctx.tuning.evade,
        dt: ctx.dt,
        cast: ctx.cast_now(id, &mut g.evade.cast),
        recast: ctx.recast,
        unstick_after: ctx.tuning.avoid.unstick_after_s,
    };
    let s = guard::steer(g, body, p, &scene, rng);
    Thought {
        plan: Plan::Steer(s.force),
        aim: s.aim,
        state: s.state,
    }
}
