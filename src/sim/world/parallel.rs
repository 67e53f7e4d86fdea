//! The ground agents' tick split among threads (see `sim::threads`). Each agent reads only what
//! the tick began with and writes only itself, so the agents can think, clear and act on any
//! thread in any order; what they would draw from the world's generator is taken first, in agent
//! order, and who touches the player is gathered in index order last — the tick comes out the
//! same, bit for bit, as the one-thread loop in `tick.rs`.

use super::tick::touches;
use crate::data::tuning::VehicleTuning;
use crate::sim::agent::{Agent, Context, Plan};
use crate::sim::behaviours::walker::Scratch;
use crate::sim::threads::{CHUNK, Drawn};
use ::rand::RngCore;
use rayon::prelude::*;

/// One agent's part of a split tick: the numbers it draws, whether it is still to move, and what
/// it decided and reported.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    drawn: Drawn,
    /// Still to think, clear and act (not moved on the tick's own thread beforehand).
    todo: bool,
    touching: bool,
    plan: Plan,
    p: VehicleTuning,
}

impl Default for Slot {
    fn default() -> Self {
        Slot {
            drawn: Drawn::default(),
            todo: false,
            touching: false,
            plan: Plan::Done,
            p: VehicleTuning {
                max_speed: 0.0,
                max_force: 0.0,
                mass: 1.0,
                radius: 0.0,
            },
        }
    }
}

/// Move every agent of `ground` as the one-thread loop would, on the current pool's threads,
/// and add the indices of those that touch the player to `touching`, in index order. `slots` is
/// kept by the world between ticks (no tick allocates once it is the crowd's size).
pub fn move_ground(
    ground: &mut [Agent],
    ctx: &Context,
    rng: &mut impl RngCore,
    slots: &mut Vec<Slot>,
    touching: &mut Vec<u32>,
) {
    slots.clear();
    slots.resize(ground.len(), Slot::default());
    // In agent order: each agent's numbers are taken as its thinking would draw them; one whose
    // count cannot be told moves here and now, drawing its own (the others' order is unchanged,
    // as the numbers are taken in the same pass).
    for (a, s) in ground.iter_mut().zip(slots.iter_mut()) {
        match a.draws(ctx) {
            Some(count) => {
                s.drawn = Drawn::take(rng, count);
                s.todo = true;
            }
            None => s.touching = step(a, ctx, rng),
        }
    }
    ground
        .par_chunks_mut(CHUNK)
        .zip(slots.par_chunks_mut(CHUNK))
        .for_each(|(agents, slots)| move_chunk(agents, slots, ctx));
    touching.extend(
        slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.touching)
            .map(|(i, _)| i as u32),
    );
}

/// One agent's whole tick (think, clear, act) with `rng`; whether it touches the player.
fn step(a: &mut Agent, ctx: &Context, rng: &mut impl RngCore) -> bool {
    let (plan, p) = a.think(ctx, rng);
    if plan == Plan::Tile {
        a.act(Plan::Tile, &p, ctx);
        return touches(a, p.radius, ctx) || a.tile() == Some(ctx.scene.player.tile);
    }
    let plan = a.clear(plan, &p, ctx);
    a.act(plan, &p, ctx);
    touches(a, p.radius, ctx)
}

/// A chunk's agents still to move: every one thinks, then every one clears its course, then
/// every body moves (as the one-thread loop takes a batch; see `Agent::act`).
fn move_chunk(agents: &mut [Agent], slots: &mut [Slot], ctx: &Context) {
    for (a, s) in agents.iter_mut().zip(slots.iter_mut()) {
        if !s.todo {
            continue;
        }
        let (plan, p) = a.think(ctx, &mut s.drawn);
        debug_assert!(
            s.drawn.spent(),
            "an agent drew fewer numbers than it was told"
        );
        s.p = p;
        s.plan = if plan == Plan::Tile {
            // A tile agent's move waits on nothing: it is made, and its contact noted, at once.
            a.act(Plan::Tile, &p, ctx);
            s.touching = touches(a, p.radius, ctx) || a.tile() == Some(ctx.scene.player.tile);
            Plan::Done
        } else {
            plan
        };
    }
    for (a, s) in agents.iter_mut().zip(slots.iter_mut()) {
        if s.todo {
            s.plan = a.clear(s.plan, &s.p, ctx);
        }
    }
    for (a, s) in agents.iter_mut().zip(slots.iter_mut()) {
        if !s.todo || s.plan == Plan::Done {
            continue;
        }
        a.act(s.plan, &s.p, ctx);
        s.touching = touches(a, s.p.radius, ctx);
    }
}

/// Every walker of the crowd steers and moves — `walk(index, walker, scratch)` — on the current
/// pool's threads, a chunk at a time, each chunk with a scratch of its own from `scratches`
/// (one a chunk, each with room for `room` half-planes: grown only when the crowd or the
/// obstacles are). A walker reads what the tick began with and writes only itself and the
/// scratch, which it clears before use.
pub fn walk_crowd(
    agents: &mut [Agent],
    scratches: &mut Vec<Scratch>,
    room: usize,
    walk: impl Fn(usize, &mut Agent, &mut Scratch) + Sync,
) {
    scratches.resize_with(agents.len().div_ceil(CHUNK), Scratch::default);
    for s in scratches.iter_mut() {
        s.lines.clear();
        s.lines.reserve(room);
        s.projected.clear();
        s.projected.reserve(room);
    }
    agents
        .par_chunks_mut(CHUNK)
        .zip(scratches.par_iter_mut())
        .enumerate()
        .for_each(|(c, (agents, scratch))| {
            for (j, a) in agents.iter_mut().enumerate() {
                walk(c * CHUNK + j, a, scratch);
            }
        });
}
