//! The threads a tick runs on (`--threads`), and the random numbers a tick split among them hands
//! each agent.
//!
//! A tick uses the threads of the rayon pool it runs in: `sim` and `bench` run inside a pool of
//! `--threads` threads, the window sets the global pool to that many. With one thread the tick is
//! the plain loop. With more, the agents that decide independently — each reads what the tick
//! began with and writes only itself — are split among the threads, and the result is the same
//! bit for bit: every agent draws the random numbers the one-thread loop would have it draw.
//! When each agent's count can be told before it thinks, a thread starts its share of the crowd
//! at that share's place in the world's one generator ([`stream_at`]: the generator is ChaCha12,
//! whose stream can be entered at any word), so nothing is drawn ahead on one thread; otherwise
//! the numbers are taken from the generator first, in agent order ([`Drawn`]). Whatever the
//! agents report back (who touches the player) is gathered in index order afterwards.

use ::rand::{Error, RngCore};
use rand_chacha::ChaCha12Rng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most threads `--threads` takes.
pub const MAX_THREADS: usize = 256;

/// Crowds smaller than this run on one thread whatever the pool and the mode.
pub const PARALLEL_FROM: usize = 128;

/// One-thread work (ns) from which a tick is split: a split hands the crowd to the pool's
/// threads twice and waits for them, some 15–40 µs on a loaded 2-core virtual machine, so a
/// tick of less work than this comes out no faster on two threads (measured with `bench` at
/// 300–2,000 agents; see docs/performance.md).
pub const SPLIT_WORK_NS: u64 = 80_000;

/// Split every crowd of [`PARALLEL_FROM`] or more whatever its work (never turned off again):
/// for the tests that compare a split tick's records with one thread's on small crowds.
static AT_ANY_COST: AtomicBool = AtomicBool::new(false);

/// Agents a split tick takes as one batch (a chunk is whole batches): a batch of agents thinks,
/// then clears, then moves while it is still in the nearest cache, and who of it touches the
/// player is one 64-bit word.
pub const WORD: usize = 64;

/// How many pieces a split crowd is cut into for each thread: enough that a thread finishing
/// early takes another's (members in a dense patch cost several times those alone), few enough
/// that each piece is long beside handing it over.
const PIECES_PER_THREAD: usize = 4;

/// Agents handed to one thread at a time in a split crowd of `agents` on the current pool:
/// [`PIECES_PER_THREAD`] pieces a thread, whole [`WORD`]s, at least one.
pub fn chunk(agents: usize) -> usize {
    let pieces = current().max(1) * PIECES_PER_THREAD;
    agents.div_ceil(pieces).next_multiple_of(WORD).max(WORD)
}

/// The machine's cores (what `--threads` is when absent).
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The threads a tick run here may use: the current rayon pool's (the global pool outside any).
#[cfg(not(target_arch = "wasm32"))]
pub fn current() -> usize {
    rayon::current_num_threads()
}

/// The page has one thread (rayon there cannot spawn any, so its pool is never started).
#[cfg(target_arch = "wasm32")]
pub fn current() -> usize {
    1
}

/// Whether a crowd of `agents` may be split among threads here (the pool has more than one
/// and the crowd is at least [`PARALLEL_FROM`]).
pub fn parallel(agents: usize) -> bool {
    agents >= PARALLEL_FROM && current() > 1
}

/// Whether a crowd of `agents`, each costing about `agent_ns` a tick on one thread (`None`:
/// never split; see `Mode::agent_ns`), is split among threads here: when it may be and the
/// tick holds [`SPLIT_WORK_NS`] of work.
pub fn pays(agents: usize, agent_ns: Option<u32>) -> bool {
    let Some(ns) = agent_ns else {
        return false;
    };
    let work = agents as u64 * u64::from(ns);
    parallel(agents) && (work >= SPLIT_WORK_NS || AT_ANY_COST.load(Ordering::Relaxed))
}

/// From now on split every crowd that [`parallel`] allows, however little its work (tests
/// compare the split tick's records with one thread's on small crowds).
pub fn split_at_any_cost() {
    AT_ANY_COST.store(true, Ordering::Relaxed);
}

/// A pool of `threads` threads to run `sim` or `bench` in.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tick-{i}"))
        .build()
        .map_err(|e| format!("--threads {threads}: cannot start the threads: {e}"))
}

/// The global pool, `threads` threads, for the window (which ticks on the main thread).
pub fn set_global(threads: usize) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tick-{i}"))
        .build_global()
        .map_err(|e| format!("--threads {threads}: cannot start the threads: {e}"))
}

/// The world's generator `words` 32-bit numbers on from where `origin` stands: what an agent of
/// a split tick draws from, when the agents before it draw `words` between them.
pub fn stream_at(origin: &ChaCha12Rng, words: u64) -> ChaCha12Rng {
    let mut stream = origin.clone();
    if words > 0 {
        stream.set_word_pos(origin.get_word_pos() + u128::from(words));
    }
    stream
}

/// Move `rng` on by `words` 32-bit numbers: past what a split tick's agents drew from it.
pub fn skip(rng: &mut ChaCha12Rng, words: u64) {
    if words > 0 {
        rng.set_word_pos(rng.get_word_pos() + u128::from(words));
    }
}

/// Where an agent of a split tick draws from: its share's place in the world's stream, or the
/// numbers taken for it beforehand.
pub enum Numbers<'a> {
    Stream(&'a mut ChaCha12Rng),
    Taken(Drawn),
}

impl RngCore for Numbers<'_> {
    fn next_u32(&mut self) -> u32 {
        match self {
            Numbers::Stream(r) => r.next_u32(),
            Numbers::Taken(d) => d.next_u32(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        match self {
            Numbers::Stream(r) => r.next_u64(),
            Numbers::Taken(d) => d.next_u64(),
        }
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        match self {
            Numbers::Stream(r) => r.fill_bytes(dest),
            Numbers::Taken(d) => d.fill_bytes(dest),
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// Most numbers one agent draws in a tick when the count can be told in advance (a wander
/// jitter: one 32-bit draw; dithering its forces, `B`: one more).
pub const MAX_DRAWS: usize = 2;

/// The random numbers one agent draws in a tick, taken from the world's generator before the
/// tick is split: a generator that gives back exactly those, in order. Only `next_u32` is ever
/// asked of it (the behaviours whose draws are told in advance draw 32-bit numbers); asked for
/// more than it holds, it gives zeros — the draw count the tick was told was wrong, which
/// `tests/threads.rs` would see as records that differ between thread counts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Drawn {
    bits: [u32; MAX_DRAWS],
    len: u8,
    next: u8,
}

impl Drawn {
    /// `count` (at most [`MAX_DRAWS`]) numbers from `rng`, as the agent would draw them.
    pub fn take(rng: &mut impl RngCore, count: u8) -> Drawn {
        let mut d = Drawn::default();
        for slot in d.bits.iter_mut().take(usize::from(count)) {
            *slot = rng.next_u32();
        }
        d.len = count.min(MAX_DRAWS as u8);
        d
    }

    /// Whether every number taken was drawn.
    pub fn spent(&self) -> bool {
        self.next == self.len
    }
}

impl RngCore for Drawn {
    fn next_u32(&mut self) -> u32 {
        debug_assert!(self.next < self.len, "an agent drew more than it was told");
        let bits = self.bits.get(usize::from(self.next)).copied().unwrap_or(0);
        self.next = self.next.saturating_add(1);
        bits
    }

    fn next_u64(&mut self) -> u64 {
        let low = u64::from(self.next_u32());
        low | u64::from(self.next_u32()) << 32
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(4) {
            let bytes = self.next_u32().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::rand::SeedableRng;

    #[test]
    fn a_share_entered_at_its_place_draws_what_the_one_stream_draws() {
        for seed in [1, 7, 1 << 40] {
            let mut one = ChaCha12Rng::seed_from_u64(seed);
            // (Started part-way through a block, as a world's generator is after its spawns.)
            for _ in 0..5 {
                one.next_u32();
            }
            let origin = one.clone();
            let words: Vec<u32> = (0..400).map(|_| one.next_u32()).collect();
            for at in [0, 1, 11, 15, 16, 17, 63, 64, 65, 199] {
                let mut share = stream_at(&origin, at);
                let drawn: Vec<u32> = (0..100).map(|_| share.next_u32()).collect();
                assert_eq!(drawn, words[at as usize..][..100], "seed {seed} at {at}");
                // Two words at once, across a block's end too.
                let mut share = stream_at(&origin, at);
                let low = u64::from(words[at as usize]);
                let high = u64::from(words[at as usize + 1]);
                assert_eq!(share.next_u64(), low | high << 32, "seed {seed} at {at}");
            }
            let mut skipped = origin.clone();
            skip(&mut skipped, 250);
            assert_eq!(skipped.next_u32(), words[250], "seed {seed}");
        }
    }

    #[test]
    fn a_crowd_is_split_from_about_eighty_microseconds_of_work() {
        pool(2).expect("two threads").install(|| {
            assert!(pays(20_000, Some(80)));
            assert!(pays(1_000, Some(80)));
            assert!(!pays(999, Some(80)), "79.9 µs");
            assert!(!pays(20_000, None), "never split");
            assert!(
                !pays(PARALLEL_FROM - 1, Some(1_000_000)),
                "too few to share"
            );
        });
        pool(1)
            .expect("one thread")
            .install(|| assert!(!pays(20_000, Some(80))));
    }
}
