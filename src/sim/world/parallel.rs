//! The ground agents' tick split among threads (see `sim::threads`). Each agent reads only what
//! the tick began with and writes only itself, so the agents can think, clear and act on any
//! thread in any order; what they would draw from the world's generator is taken first, in agent
//! order, and who touches the player is gathered in index order last — the tick comes out the
//! same, bit for bit, as the one-thread loop in `tick.rs`.
//!
//! A split tick makes two passes on the threads. In the first each agent tells how many
//! numbers it will draw; from the counts the tick's own thread works out where in the world's
//! generator each share of the crowd begins (a sum a share), and in the second pass each thread
//! moves its shares, drawing from there. No pass writes a share that another thread reads. An
//! agent whose count cannot be told (a waypoint wanderer due a new spot) makes the tick take
//! every agent's numbers beforehand instead, in agent order, moving that agent there and then.

use super::tick::touches;
use crate::data::tuning::VehicleTuning;
use crate::sim::agent::{Agent, Context, Plan};
use crate::sim::behaviours::walker::Scratch;
use crate::sim::threads::{self, Drawn, Numbers, WORD};
use ::rand::RngCore;
use rand_chacha::ChaCha12Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// An agent's count when it cannot be told: it moves on the tick's own thread, in its turn.
const ALONE: u8 = u8::MAX;

/// What a split tick keeps between ticks (its arrays are the crowd's size, so no tick
/// allocates once the crowd has been split at that size).
#[derive(Debug, Clone, Default)]
pub struct Split {
    /// Each agent's count of numbers to draw this tick, or [`ALONE`].
    counts: Vec<u8>,
    /// Each agent's numbers, when they are taken beforehand.
    drawn: Vec<Drawn>,
    /// Each share's count of numbers, then where in the stream it begins (numbers on from
    /// where the generator stood as the tick began).
    starts: Vec<u64>,
    /// Who touches the player: a bit an agent, agent `i` in word `i / WORD`.
    touching: Vec<u64>,
}

/// Vehicle numbers for an agent that has no plan (never read).
const UNUSED: VehicleTuning = VehicleTuning {
    max_speed: 0.0,
    max_force: 0.0,
    mass: 1.0,
    radius: 0.0,
};

/// Move every agent of `ground` as the one-thread loop would, on the current pool's threads,
/// and add the indices of those that touch the player to `touching`, in index order.
pub fn move_ground(
    ground: &mut [Agent],
    ctx: &Context,
    rng: &mut ChaCha12Rng,
    split: &mut Split,
    touching: &mut Vec<u32>,
) {
    let n = ground.len();
    // (A share is whole words of the touching bits.)
    let chunk = threads::chunk(n);
    split.counts.resize(n, 0);
    split.drawn.resize(n, Drawn::default());
    split.starts.resize(n.div_ceil(chunk), 0);
    split.touching.resize(n.div_ceil(WORD), 0);
    // 1. On the threads: each agent's count, each share's sum, the touching bits cleared.
    let alone = AtomicBool::new(false);
    ground
        .par_chunks(chunk)
        .zip(split.counts.par_chunks_mut(chunk))
        .zip(split.touching.par_chunks_mut(chunk / WORD))
        .zip(split.starts.par_iter_mut())
        .for_each(|(((agents, counts), words), sum)| {
            let mut numbers = 0;
            for (a, c) in agents.iter().zip(counts.iter_mut()) {
                *c = a.draws(ctx).unwrap_or(ALONE);
                if *c == ALONE {
                    alone.store(true, Ordering::Relaxed);
                } else {
                    numbers += u64::from(*c);
                }
            }
            *sum = numbers;
            words.fill(0);
        });
    let alone = alone.into_inner();
    let mut drawn_here = 0;
    if alone {
        // In agent order: each agent's numbers are taken as its thinking would draw them; one
        // whose count cannot be told moves here and now, drawing its own (the others' order is
        // unchanged, as the numbers are taken in the same pass).
        let shares = ground
            .iter_mut()
            .zip(split.counts.iter().zip(split.drawn.iter_mut()));
        for (i, (a, (&count, drawn))) in shares.enumerate() {
            if count == ALONE {
                if step(a, ctx, rng) {
                    split.touching[i / WORD] |= 1 << (i % WORD);
                }
            } else {
                *drawn = Drawn::take(rng, count);
            }
        }
    } else {
        // Each share begins where the shares before it end.
        for start in split.starts.iter_mut() {
            let sum = *start;
            *start = drawn_here;
            drawn_here += sum;
        }
    }
    // 2. On the threads: the rest think, clear and act, each share drawing from its place.
    let origin = &*rng;
    ground
        .par_chunks_mut(chunk)
        .zip(split.counts.par_chunks(chunk))
        .zip(split.drawn.par_chunks(chunk))
        .zip(split.touching.par_chunks_mut(chunk / WORD))
        .zip(split.starts.par_iter())
        .for_each(|((((agents, counts), drawn), words), &start)| {
            let mut stream = (!alone).then(|| threads::stream_at(origin, start));
            let batches = agents
                .chunks_mut(WORD)
                .zip(counts.chunks(WORD).zip(drawn.chunks(WORD)));
            for ((agents, (counts, drawn)), word) in batches.zip(words) {
                *word |= move_batch(agents, counts, drawn, stream.as_mut(), ctx);
            }
        });
    threads::skip(rng, drawn_here);
    for (w, &word) in split.touching.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            touching.push((w * WORD) as u32 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
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

/// A batch (at most a word) of agents still to move: every one thinks — drawing from `stream`,
/// or without one the numbers taken for it in `drawn` — then every one clears its course, then
/// every body moves (as the one-thread loop takes a batch; see `Agent::act`). Who of them
/// touches the player, a bit each.
fn move_batch(
    agents: &mut [Agent],
    counts: &[u8],
    drawn: &[Drawn],
    mut stream: Option<&mut ChaCha12Rng>,
    ctx: &Context,
) -> u64 {
    let mut plans = [(Plan::Done, UNUSED); WORD];
    let mut bits = 0;
    for (j, (a, &count)) in agents.iter_mut().zip(counts).enumerate() {
        if count == ALONE {
            continue;
        }
        let (plan, p) = match stream.as_deref_mut() {
            Some(stream) => {
                let at = stream.get_word_pos();
                let thought = a.think(ctx, &mut Numbers::Stream(&mut *stream));
                debug_assert_eq!(
                    stream.get_word_pos() - at,
                    u128::from(count),
                    "an agent drew other than it was told"
                );
                thought
            }
            None => {
                let mut numbers = drawn[j];
                let thought = a.think(ctx, &mut numbers);
                debug_assert!(
                    numbers.spent(),
                    "an agent drew fewer numbers than it was told"
                );
                thought
            }
        };
        plans[j] = if plan == Plan::Tile {
            // A tile agent's move waits on nothing: it is made, and its contact noted, at once.
            a.act(Plan::Tile, &p, ctx);
            if touches(a, p.radius, ctx) || a.tile() == Some(ctx.scene.player.tile) {
                bits |= 1 << j;
            }
            (Plan::Done, p)
        } else {
            (plan, p)
        };
    }
    for ((a, &count), (plan, p)) in agents.iter_mut().zip(counts).zip(plans.iter_mut()) {
        if count != ALONE {
            *plan = a.clear(*plan, p, ctx);
        }
    }
    for (j, ((a, &count), (plan, p))) in agents.iter_mut().zip(counts).zip(&plans).enumerate() {
        if count == ALONE || *plan == Plan::Done {
            continue;
        }
        a.act(*plan, p, ctx);
        if touches(a, p.radius, ctx) {
            bits |= 1 << j;
        }
    }
    bits
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
    let chunk = threads::chunk(agents.len());
    scratches.resize_with(agents.len().div_ceil(chunk), Scratch::default);
    for s in scratches.iter_mut() {
        s.lines.clear();
        s.lines.reserve(room);
        s.projected.clear();
        s.projected.reserve(room);
    }
    agents
        .par_chunks_mut(chunk)
        .zip(scratches.par_iter_mut())
        .enumerate()
        .for_each(|(c, (agents, scratch))| {
            for (j, a) in agents.iter_mut().enumerate() {
                walk(c * chunk + j, a, scratch);
            }
        });
}
