//! How an agent's several forces become one (Buckland, *Programming Game AI by Example*, ch. 3,
//! "Combining steering behaviors"; the `B` key, `--combine`). A mode lists its forces as
//! [`Part`]s — each with its priority, its weight and its probability for dithering — and
//! [`combine`] puts them together by one of three methods:
//!
//! - [`Method::Weighted`]: `truncate(Σ wᵢ·fᵢ, max)`. Cheap, but forces that point apart cancel
//!   (a seek straight into an obstacle halves the avoidance), and the weights need tuning.
//! - [`Method::Prioritised`]: Buckland's weighted truncated running sum. In priority order —
//!   walls, obstacles, avoiding the others, then the rest — each weighted force is added while
//!   the budget `max − |running total|` lasts; the one that does not fit is added cut to the
//!   budget, and those after it are left out. What matters most is never drowned, at the cost
//!   of working out every force in turn.
//! - [`Method::Dithered`]: Buckland's prioritised dithering. In priority order each force is
//!   considered with its probability `pᵢ`; the first considered that is not zero wins alone, as
//!   `wᵢ·fᵢ / pᵢ` (so on average it pulls as hard as in the sum), truncated. The cheapest — most
//!   ticks one force is worked out — and it jitters, one force one tick and another the next.
//!
//! The draws come from the mode's seeded generator, and only when dithering is chosen (so runs
//! with the other methods draw what they always drew): one number a tick per agent, stretched
//! over its parts by [`Dice`].

pub use crate::data::combine::Method;
use ::rand::Rng;
use glam::Vec2;

/// Where a force stands in the prioritised order (Buckland's: walls, obstacles, the others, then
/// the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Walls,
    Obstacles,
    Others,
    Rest,
}

const PRIORITIES: [Priority; 4] = [
    Priority::Walls,
    Priority::Obstacles,
    Priority::Others,
    Priority::Rest,
];

/// Buckland's probabilities for dithering (his `params.ini`): walls and obstacles a half,
/// separation a fifth, the flock's alignment and cohesion 0.3 and 0.6, a goal (seek, arrive,
/// hide, offset pursuit) 0.8, wander 0.8, flee 0.6.
pub mod chance {
    pub const WALLS: f32 = 0.5;
    pub const OBSTACLES: f32 = 0.5;
    pub const SEPARATION: f32 = 0.2;
    pub const ALIGNMENT: f32 = 0.3;
    pub const COHESION: f32 = 0.6;
    pub const GOAL: f32 = 0.8;
    pub const WANDER: f32 = 0.8;
    pub const FLEE: f32 = 0.6;
}

/// One force of a mode, as it lists them for [`combine`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub force: Vec2,
    pub priority: Priority,
    pub weight: f32,
    /// Its probability when dithering (0…1).
    pub probability: f32,
}

impl Part {
    pub fn new(force: Vec2, priority: Priority, weight: f32, probability: f32) -> Part {
        Part {
            force,
            priority,
            weight,
            probability,
        }
    }
}

/// Most forces a mode lists.
pub const MOST: usize = 10;

/// What the last combination did, for the overlay: each force's size (weighted) and whether it
/// went into the result, in the order the mode listed them, with their names. (The sizes are
/// kept squared: every agent keeps a tally every tick, and only the few drawn need the root.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tally {
    pub names: &'static [&'static str],
    pub sizes2: [f32; MOST],
    /// Bit `i`: force `i` was used.
    pub used: u16,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            names: &[],
            sizes2: [0.0; MOST],
            used: 0,
        }
    }
}

impl Tally {
    /// A tally of the given sizes, the forces in `used` (bits) taken but for those that are
    /// zero: what a mode's own code reports of itself.
    pub fn of(names: &'static [&'static str], forces: &[Vec2], used: u16) -> Tally {
        let mut t = Tally {
            names,
            used,
            ..Tally::default()
        };
        for (i, (s, f)) in t.sizes2.iter_mut().zip(forces).enumerate() {
            *s = f.length_squared();
            // (A force that is zero went nowhere.)
            if *s == 0.0 {
                t.used &= !(1 << i);
            }
        }
        t
    }

    /// Force `i`'s size (weighted).
    pub fn size(&self, i: usize) -> f32 {
        self.sizes2.get(i).map_or(0.0, |s| s.sqrt())
    }

    /// Whether force `i` was used.
    pub fn was_used(&self, i: usize) -> bool {
        i < MOST && self.used & (1 << i) != 0
    }

    /// How many forces were used.
    pub fn used_count(&self) -> u32 {
        self.used.count_ones()
    }

    /// The forces' names, sizes and uses.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f32, bool)> + '_ {
        self.names
            .iter()
            .enumerate()
            .take(MOST)
            .map(|(i, &n)| (n, self.size(i), self.was_used(i)))
    }
}

/// How many numbers [`Dice::roll`] draws.
pub const DRAWS: u8 = 1;

/// The uniform numbers one agent's dithering draws in a tick: one 32-bit number from the mode's
/// generator, stretched by SplitMix64 (so an agent draws once a tick however many forces it
/// considers — a count a tick split among threads can tell in advance — and runs that do not
/// dither draw nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dice(u64);

impl Dice {
    /// Draw from the mode's generator (one 32-bit number: [`DRAWS`]).
    pub fn roll(rng: &mut impl Rng) -> Dice {
        Dice(u64::from(rng.next_u32()))
    }

    /// How many numbers an agent draws a tick for dithering by `method`.
    pub fn draws(method: Option<Method>) -> u8 {
        u8::from(method == Some(Method::Dithered))
    }

    /// The next number, uniform in [0, 1).
    pub fn uniform(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // (The top 24 bits: every value exactly a float below 1.)
        (z >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
}

/// `v` cut to length `max`, finite (a force that is not finite counts as none).
fn truncate(v: Vec2, max: f32) -> Vec2 {
    if !v.is_finite() {
        return Vec2::ZERO;
    }
    let len2 = v.length_squared();
    if len2 > max * max && len2 > 0.0 {
        v * (max / len2.sqrt())
    } else {
        v
    }
}

/// Put `parts` together by `method`, within `max` (a force, or for the crowd's walkers a speed);
/// `names` are the parts' names for the overlay. `dice` is needed only to dither (`None` there:
/// nothing is considered, as if every draw failed). Writes what it did into `tally`.
pub fn combine(
    method: Method,
    names: &'static [&'static str],
    parts: &[Part],
    max: f32,
    dice: Option<&mut Dice>,
    tally: &mut Tally,
) -> Vec2 {
    let n = parts.len().min(MOST);
    let parts = &parts[..n];
    tally.names = names;
    tally.used = 0;
    for (s, p) in tally.sizes2.iter_mut().zip(parts) {
        let f = p.force * p.weight;
        *s = if f.is_finite() {
            f.length_squared()
        } else {
            0.0
        };
    }
    let in_order = PRIORITIES.into_iter().flat_map(move |level| {
        parts
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.priority == level)
    });
    match method {
        Method::Weighted => {
            let mut total = Vec2::ZERO;
            for (i, p) in parts.iter().enumerate() {
                let f = p.force * p.weight;
                if f != Vec2::ZERO && f.is_finite() {
                    total += f;
                    tally.used |= 1 << i;
                }
            }
            truncate(total, max)
        }
        Method::Prioritised => {
            let mut total = Vec2::ZERO;
            for (i, p) in in_order {
                let f = p.force * p.weight;
                if f == Vec2::ZERO || !f.is_finite() {
                    continue;
                }
                let left = max - total.length();
                if left <= 0.0 {
                    break;
                }
                let size = f.length();
                total += if size < left { f } else { f * (left / size) };
                tally.used |= 1 << i;
            }
            total
        }
        Method::Dithered => {
            let Some(dice) = dice else {
                return Vec2::ZERO;
            };
            for (i, p) in in_order {
                if dice.uniform() >= p.probability {
                    continue;
                }
                let f = p.force * (p.weight / p.probability.max(1e-3));
                if f != Vec2::ZERO && f.is_finite() {
                    tally.used |= 1 << i;
                    return truncate(f, max);
                }
            }
            Vec2::ZERO
        }
    }
}
