//! Potential-function movement (Bourg ch. 5): from each neighbour an agent feels the
//! Lennard-Jones force `F(r) = −A/rⁿ + B/rᵐ` along the line between them — positive pushes apart,
//! negative pulls together. With `m > n` the `B` term wins near (repulsion) and the `A` term far
//! (attraction), and the two balance at the equilibrium distance `r* = (B/A)^(1/(m−n))`. As in
//! Bourg's code, `r` is measured in body lengths (here the diameter), so his `A = 2000`,
//! `B = 4000`, `n = 2`, `m = 3` space the swarm `r* = 2` lengths apart whatever the body's size.
//!
//! The forces from the neighbours and from the player's body (as one more neighbour), plus a
//! pull toward the player, make a *desired velocity* (px/s per unit of `F`), which the agent
//! closes over `response_s`: the swarm slides down the potential and settles where the forces
//! balance, instead of orbiting for ever as undamped forces would.
//!
//! Neighbours are felt out to `range` lengths (3: one and a half `r*`, the first ring round an
//! agent), faded out over the last 30 % so none is switched on or off at once. Farther is worse,
//! not better: with `n = 2` the pulls of a 2-D crowd's far rings add up (their number grows with
//! the distance as fast as each weakens), and at 5 lengths a settled swarm packs to 0.56 `r*`.
//!
//! The pull acts only beyond `hold` of the player (see [`hold_radius`]: about the radius a
//! swarm of this many needs at spacing `r*`), fading in over one `r*`. A pull on every agent would
//! press the whole swarm's weight on its middle, and at thousands of agents no repulsion holds
//! that; inside the hold the swarm holds itself together by its own attraction.

use super::decision::combine;
pub use crate::data::crowds::SwarmParams;
use crate::data::tuning::VehicleTuning;
use crate::sim::space::neighbours::Neighbours;
use crate::sim::vehicle::{truncate, unit_or_zero};
use glam::Vec2;

/// Nearer than this (in body lengths) the force grows no more: `F` stays finite for agents on
/// one spot, and no push is larger than a twentieth of a length's.
pub const MIN_R: f32 = 0.05;

/// `F(r)` for `r` in body lengths (clamped to [`MIN_R`]): positive apart, negative together
/// (`U` itself, or its gradient when `p.gradient`). Always finite for finite parameters.
pub fn force(r: f32, p: &SwarmParams) -> f32 {
    lennard_jones(r, &p.felt())
}

/// `−A/rⁿ + B/rᵐ` for the numbers as felt (see [`SwarmParams::felt`]).
#[inline]
fn lennard_jones(r: f32, p: &SwarmParams) -> f32 {
    let r = if r > MIN_R { r } else { MIN_R };
    let f = -p.a / power(r, p.n) + p.b / power(r, p.m);
    // (Exponents large enough to overflow still push or pull, as hard as a float allows a
    // crowd's sum to; `∞ − ∞` has no direction at all.)
    if f.is_nan() {
        0.0
    } else {
        f.clamp(-1e30, 1e30)
    }
}

/// `r` to the power `e`. The whole exponents the book's presets use (1 to 4) are multiplied out
/// in `f64` and rounded once: within half a unit in the last place but for a rare double
/// rounding, where `powf` (glibc's is not correctly rounded: for `e = 2` it differs from the
/// exact `r·r` for 1 float in 2,400) costs some fifty instructions — two calls a neighbour were
/// a third of the swarm's tick. Other exponents go to `powf`.
#[inline(always)]
fn power(r: f32, e: f32) -> f32 {
    let x = f64::from(r);
    if e == 2.0 {
        (x * x) as f32
    } else if e == 3.0 {
        (x * x * x) as f32
    } else if e == 1.0 {
        r
    } else if e == 4.0 {
        let x2 = x * x;
        (x2 * x2) as f32
    } else {
        r.powf(e)
    }
}

/// The distance (in body lengths) where `F = 0`: `A/rⁿ = B/rᵐ` gives `r^(m−n) = B/A`. `None`
/// unless `A, B > 0` and `m > n` — otherwise there is no distance where repulsion near gives way
/// to attraction far, and the swarm has nowhere to settle. With the gradient, the same for the
/// numbers as felt: `r^(m−n) = mB/(nA)`.
pub fn equilibrium(p: &SwarmParams) -> Option<f32> {
    let p = &p.felt();
    let ok = p.a > 0.0 && p.b > 0.0 && p.m > p.n && p.a.is_finite() && p.b.is_finite();
    let r = (p.b / p.a).powf(1.0 / (p.m - p.n));
    (ok && r.is_finite() && r > 0.0).then_some(r)
}

/// The curve of `F(r)` for the overlay: `out.len()` samples evenly spread over `(0, r_max]`
/// lengths, as (r, F(r)).
pub fn sample_curve(p: &SwarmParams, r_max: f32, out: &mut [(f32, f32)]) {
    let count = out.len() as f32;
    for (i, slot) in out.iter_mut().enumerate() {
        let r = r_max * (i + 1) as f32 / count;
        *slot = (r, force(r, p));
    }
}

/// The radius (px) a swarm of `count` agents spaced `spacing` px apart fills round the player:
/// hexagonal packing gives each agent `√3/2 · spacing²`, plus a ring for the player's own body.
pub fn hold_radius(count: usize, spacing: f32) -> f32 {
    let area = count as f32 * 0.866 * spacing * spacing;
    (area / std::f32::consts::PI).sqrt() + spacing
}

/// One agent's pushes and pulls this tick (as desired velocities, px/s) and the steering force
/// they make.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SwarmForces {
    /// The neighbours' Lennard-Jones sum.
    pub neighbours: Vec2,
    /// The player's body, as one more (weighted) neighbour.
    pub player: Vec2,
    /// The pull toward the player beyond the hold.
    pub pull: Vec2,
    /// The steering force: `(desired − v) · mass / response_s`, desired the three summed.
    pub total: Vec2,
    /// How many neighbours were felt.
    pub felt: u32,
}

/// What the swarm gathers round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    /// The player's position.
    pub player: Vec2,
    /// The radius (px) inside which it does not pull (see [`hold_radius`]).
    pub hold: f32,
}

/// Agent `i`'s steering this tick. `grid` must have been rebuilt from `positions` in order (so
/// its indices are theirs); `vel` is the agent's velocity.
pub fn steer(
    grid: &Neighbours,
    positions: &[Vec2],
    i: usize,
    vel: Vec2,
    target: Target,
    p: &SwarmParams,
    v: &VehicleTuning,
) -> SwarmForces {
    let Target { player, hold } = target;
    let Some(&me) = positions.get(i) else {
        return SwarmForces::default();
    };
    // (The force's numbers as felt, once an agent rather than once a neighbour.)
    let p = &p.felt();
    let length = (2.0 * v.radius).max(1.0);
    let per_length = 1.0 / length;
    let me_index = i as u32;
    let mut f = SwarmForces::default();
    grid.for_each_within(me, p.range * length, |j, q, d2| {
        if j != me_index {
            f.neighbours += push(me, q, d2, me_index < j, per_length, p);
            f.felt += 1;
        }
    });
    let to_player = player - me;
    let d2 = to_player.length_squared();
    if d2 < (p.range * length).powi(2) {
        f.player = push(me, player, d2, true, per_length, p) * p.player_weight;
    }
    let spacing = equilibrium(p).unwrap_or(1.0) * length;
    let beyond = (d2.sqrt() - hold) / spacing;
    // (Written so that a hold that is not a number pulls nobody.)
    let beyond = if beyond > 0.0 { beyond.min(1.0) } else { 0.0 };
    f.pull = unit_or_zero(to_player) * (p.pull * beyond);
    let desired = truncate(combine([f.neighbours, f.player, f.pull]), v.max_speed);
    f.total = (desired - vel) * (v.mass / p.response_s.max(1e-3));
    f
}

/// The Lennard-Jones force on `me` from `q` (`d2` apart, in px²) as a vector: `F` along the
/// line from `q` to `me`. Two on one spot part along x (`lower` toward −x).
#[inline]
fn push(me: Vec2, q: Vec2, d2: f32, lower: bool, per_length: f32, p: &SwarmParams) -> Vec2 {
    let d = d2.sqrt();
    let along = if d > 0.0 {
        (me - q) / d
    } else if lower {
        -Vec2::X
    } else {
        Vec2::X
    };
    let r = d * per_length;
    along * (lennard_jones(r, p) * fade(r, p.range))
}

/// 1 out to 70 % of the range, easing to 0 at the range (smoothstep): a neighbour drifting in
/// or out of range does not switch its pull on or off at once.
#[inline]
pub fn fade(r: f32, range: f32) -> f32 {
    let t = ((range - r) / (0.3 * range).max(f32::EPSILON)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
