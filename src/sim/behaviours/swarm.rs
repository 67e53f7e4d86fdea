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
//! that; inside the hold the swarm holds itself together by its own attraction. The book's own
//! potential toward the player (its swarm example's, off by default) adds to the pull, felt by
//! every agent wherever it is.
//!
//! The forces do not keep bodies apart on their own: a player faster than the agents runs over
//! them and pushes them into one another, and a body brakes no harder than its `max_force`. The
//! neighbours near enough to touch within the tick are gathered as [`Contacts`], toward which
//! the agent's move closes at most half the gap.

use super::decision::combine;
pub use crate::data::crowds::{Potential, SwarmParams};
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
    lennard_jones(r, &p.felt().units())
}

/// `−A/rⁿ + B/rᵐ` for the numbers as felt (see [`SwarmParams::felt`]), `r` clamped to
/// [`MIN_R`]. Always finite for finite numbers.
#[inline]
pub fn lennard_jones(r: f32, p: &Potential) -> f32 {
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

/// At most this many neighbours near enough to touch within a tick are kept apart (see
/// [`Contacts`]); bodies that do not overlap have room for 7 round one at that distance.
pub const CONTACTS: usize = 8;

/// How far apart (px) beyond touching [`Contacts`] keeps two bodies, so that rounding never
/// leaves them a hair inside each other.
pub const CONTACT_MARGIN: f32 = 0.05;

/// The neighbours (where they stood as the tick began) near enough that closing at full speed
/// they would touch within the tick. The member's move cuts its speed toward each of them to what
/// closes half the gap in the tick: the neighbour, cut the same way toward it, closes the other
/// half at most, and no two bodies move into each other however hard they are pushed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Contacts {
    len: usize,
    at: [Vec2; CONTACTS],
}

impl Contacts {
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn add(&mut self, q: Vec2) {
        if self.len < CONTACTS {
            self.at[self.len] = q;
            self.len += 1;
        }
    }

    /// `vel` (the velocity the vehicle's own limits gave) with its speed toward each contact
    /// cut to `(gap − CONTACT_MARGIN) / 2` per `dt`, `gap` how far the bodies (of `radius`) were
    /// from touching as the tick began: removed along the line to it, so the speed across the
    /// line stays. A cut toward one contact can add speed toward another on the far side, so
    /// the cuts go round twice, and a velocity that still closes on any is stopped.
    pub fn keep_apart(&self, me: Vec2, vel: Vec2, radius: f32, dt: f32) -> Vec2 {
        let touching = 2.0 * radius + CONTACT_MARGIN;
        let per_tick = 0.5 / dt.max(f32::EPSILON);
        // (The line to each contact and the most speed along it, once; most members with a
        // contact are not closing on it, and keep their velocity.)
        let mut lines = [(Vec2::ZERO, 0.0f32); CONTACTS];
        let lines = &mut lines[..self.len];
        let mut closing = false;
        for (line, &q) in lines.iter_mut().zip(&self.at) {
            let d = me.distance(q);
            let toward = if d > 0.0 { (q - me) / d } else { Vec2::ZERO };
            *line = (toward, (d - touching).max(0.0) * per_tick);
            closing |= vel.dot(toward) > line.1;
        }
        if !closing {
            return vel;
        }
        let mut v = vel;
        for _ in 0..2 {
            for &(toward, most) in lines.iter() {
                let closing = v.dot(toward);
                if closing > most {
                    v -= toward * (closing - most);
                }
            }
        }
        let over = lines
            .iter()
            .any(|&(toward, most)| v.dot(toward) > most * 1.0001 + 1e-4);
        if over { Vec2::ZERO } else { v }
    }
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
    /// The player's body's radius (px): the book's potential toward the player (when on)
    /// measures `r` in lengths of the two radii summed.
    pub player_radius: f32,
    /// The tick's length (s): neighbours that could be reached within it are contacts.
    pub dt: f32,
}

/// Agent `i`'s steering this tick, and its contacts (see [`Contacts`]). `grid` must have been
/// rebuilt from `positions` in order (so its indices are theirs); `vel` is the agent's velocity.
pub fn steer(
    grid: &Neighbours,
    positions: &[Vec2],
    i: usize,
    vel: Vec2,
    target: Target,
    p: &SwarmParams,
    v: &VehicleTuning,
) -> (SwarmForces, Contacts) {
    let mut contacts = Contacts::default();
    let Target { player, hold, .. } = target;
    let Some(&me) = positions.get(i) else {
        return (SwarmForces::default(), contacts);
    };
    // (The force's numbers as felt, once an agent rather than once a neighbour.)
    let p = &p.felt();
    let units = p.units();
    let length = (2.0 * v.radius).max(1.0);
    let per_length = 1.0 / length;
    let me_index = i as u32;
    let mut f = SwarmForces::default();
    // (Nearer than this, closing at full speed, a neighbour would touch within the tick.)
    let near = 2.0 * v.radius + CONTACT_MARGIN + 2.0 * v.max_speed * target.dt;
    let near2 = near * near;
    grid.for_each_within(me, p.range * length, |j, q, d2| {
        if j != me_index {
            f.neighbours += push(me, q, d2, me_index < j, per_length, &units, p.range);
            f.felt += 1;
            if d2 < near2 {
                contacts.add(q);
            }
        }
    });
    let to_player = player - me;
    let d2 = to_player.length_squared();
    if d2 < (p.range * length).powi(2) {
        f.player = push(me, player, d2, true, per_length, &units, p.range) * p.player_weight;
    }
    let spacing = equilibrium(p).unwrap_or(1.0) * length;
    let beyond = (d2.sqrt() - hold) / spacing;
    // (Written so that a hold that is not a number pulls nobody.)
    let beyond = if beyond > 0.0 { beyond.min(1.0) } else { 0.0 };
    f.pull = unit_or_zero(to_player) * (p.pull * beyond);
    let book = p.player_potential();
    if book.on() {
        // (F > 0 pushes away from the player.)
        let touching = (v.radius + target.player_radius).max(0.5);
        let r = d2.sqrt() / touching;
        f.pull -= unit_or_zero(to_player) * lennard_jones(r, &book);
    }
    let desired = truncate(combine([f.neighbours, f.player, f.pull]), v.max_speed);
    f.total = (desired - vel) * (v.mass / p.response_s.max(1e-3));
    (f, contacts)
}

/// The Lennard-Jones force on `me` from `q` (`d2` apart, in px²) as a vector: `F` along the
/// line from `q` to `me`. Two on one spot part along x (`lower` toward −x).
#[inline]
fn push(
    me: Vec2,
    q: Vec2,
    d2: f32,
    lower: bool,
    per_length: f32,
    p: &Potential,
    range: f32,
) -> Vec2 {
    let d = d2.sqrt();
    let along = if d > 0.0 {
        (me - q) / d
    } else if lower {
        -Vec2::X
    } else {
        Vec2::X
    };
    let r = d * per_length;
    along * (lennard_jones(r, p) * fade(r, range))
}

/// 1 out to 70 % of the range, easing to 0 at the range (smoothstep): a neighbour drifting in
/// or out of range does not switch its pull on or off at once.
#[inline]
pub fn fade(r: f32, range: f32) -> f32 {
    let t = ((range - r) / (0.3 * range).max(f32::EPSILON)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
