//! Reynolds' boids (Bourg ch. 4): each boid steers by the weighted sum of three urges over the
//! neighbours it heeds —
//! - *separation*: away from each nearer than `separation_radius` `s`, the more the closer:
//!   `Σ (p − q) · (1/|p − q|² − 1/s²)` (Reynolds' inverse square, less its value at `s` so a
//!   neighbour's push fades in from nothing);
//! - *alignment*: toward their mean heading, `desired = unit(Σ v_q) · max_speed`, `desired − v`;
//! - *cohesion*: toward their centre as it moves, `desired = v̄ + (c − p) · max_speed / radius`,
//!   `desired − v`;
//!
//! and heeds those inside a field of view (a cone about its heading, full angle 0–360°: the
//! book's narrow and wide views) of one of two neighbourhoods: Reynolds' *metric* one (everyone
//! within `radius`) or the *topological* one starlings were measured to use (Ballerini et al.,
//! PNAS 2008: the `k` ≈ 7 nearest, whatever the density, out to `reach`).
//!
//! Alignment and cohesion are clamped to the vehicle's force before their weights apply, so a
//! weight is a share of the whole force; separation is not, and grows as `1/d` as two boids
//! close, so near touching it outweighs the rest. Cohesion steers in the frame of the neighbours
//! (their mean velocity plus the way to their centre): a boid in the middle of a cruising flock
//! is not braked toward a standing point, and a flock without alignment still settles into a
//! ball instead of swinging through its centre for ever.
//!
//! A fourth urge, *gathering*, reaches past the neighbourhood (Couzin's zone of attraction):
//! toward the centre of the coarse mass within `gather_radius`, as it moves. Cohesion alone is
//! local, and a flock that a predator parts, or that spreads as separation sets its spacing,
//! would otherwise drift apart for good at the first gap wider than `radius`. It is weak (a
//! strong pull packs a big flock tight and slows it).
//!
//! Two more urges come from the player: a *predator* is fled by every boid within
//! `threat_radius`, and a *leader* is followed (Reynolds' leader following): each boid arrives at
//! a point `leader_offset` behind it, and one that finds itself in the corridor ahead of it steers
//! sideways out of its path first.

use super::decision::combine;
pub use crate::data::crowds::{FlockParams, Neighbourhood};
use crate::data::tuning::VehicleTuning;
use crate::sim::space::masses::{Mass, Masses};
use crate::sim::space::neighbours::{Nearest, Neighbours};
use crate::sim::vehicle::{truncate, unit_or, unit_or_zero};
use glam::Vec2;

/// A boid as its neighbours see it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Boid {
    pub pos: Vec2,
    pub vel: Vec2,
}

/// What a boid can see from `pos`: a disc of `radius` cut to a cone of `fov_deg` (full angle)
/// about its unit `heading`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sight {
    pos: Vec2,
    heading: Vec2,
    radius2: f32,
    /// cos(half the angle); the two ends of the slider are kept apart from the cone's test so
    /// that 0° sees nobody and 360° everybody, exactly.
    cos_half: f32,
    view: View,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum View {
    Blind,
    Cone,
    All,
}

impl Sight {
    pub fn new(pos: Vec2, heading: Vec2, radius: f32, fov_deg: f32) -> Self {
        let view = if fov_deg.is_nan() || fov_deg <= 0.0 {
            View::Blind
        } else if fov_deg >= 360.0 {
            View::All
        } else {
            View::Cone
        };
        Sight {
            pos,
            heading: unit_or(heading, Vec2::X),
            radius2: radius * radius,
            cos_half: (fov_deg.to_radians() * 0.5).cos(),
            view,
        }
    }

    /// Whether `q` is within the radius and inside the cone (one standing on `pos` is seen
    /// whenever anything is: it must still be pushed off).
    #[inline]
    pub fn sees(&self, q: Vec2) -> bool {
        let offset = q - self.pos;
        let d2 = offset.length_squared();
        d2 < self.radius2 && self.sees_offset(offset, d2)
    }

    /// The cone's test alone for `offset = q − pos`, `d2` its squared length: the angle off the
    /// heading within half the view, as `dot ≥ cos(half) · |offset|` squared (no root).
    #[inline]
    pub fn sees_offset(&self, offset: Vec2, d2: f32) -> bool {
        match self.view {
            View::Blind => false,
            View::All => true,
            View::Cone => {
                let dot = offset.dot(self.heading);
                let bound = self.cos_half * self.cos_half * d2;
                if self.cos_half >= 0.0 {
                    dot >= 0.0 && dot * dot >= bound
                } else {
                    dot >= 0.0 || dot * dot <= bound
                }
            }
        }
    }
}

/// The sums the three urges need, over the neighbours heeded so far: built one neighbour at a
/// time, so any query can feed it without a list.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tally {
    /// `1 / separation_radius²`.
    per_reach2: f32,
    /// How many were heeded.
    pub count: u32,
    /// `Σ (p − q) · (1/|p − q|² − 1/s²)` over those nearer than the separation radius `s`.
    pub away: Vec2,
    /// `Σ v_q`.
    pub velocity: Vec2,
    /// `Σ (q − p)`: the centre as an offset, so it stays exact far from the origin.
    pub offset: Vec2,
}

impl Tally {
    /// An empty tally whose separation reaches `separation_radius`.
    pub fn new(separation_radius: f32) -> Self {
        Tally {
            per_reach2: 1.0 / (separation_radius * separation_radius).max(1.0),
            ..Tally::default()
        }
    }

    /// Heed `other` (index `other_index`) from `me` (index `me_index`). The push is Reynolds'
    /// `(p − q)/|p − q|²` less its value at the separation radius, so it fades in from nothing
    /// as a neighbour comes within it; nearer than a pixel it grows no more, and two on one spot
    /// are pushed apart along x, the lower index toward −x.
    #[inline]
    pub fn add(&mut self, me: Vec2, me_index: u32, other: Boid, other_index: u32) {
        let apart = me - other.pos;
        let d2 = apart.length_squared();
        self.away += if d2 > 0.0 {
            apart * (1.0 / d2.max(1.0) - self.per_reach2).max(0.0)
        } else if me_index < other_index {
            -Vec2::X
        } else {
            Vec2::X
        };
        self.velocity += other.vel;
        self.offset -= apart;
        self.count += 1;
    }
}

/// Where the player stands in the flock's eyes this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Around {
    /// A predator to flee (`E`).
    pub predator: Option<Vec2>,
    /// A leader to follow (`T`).
    pub leader: Option<Leader>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leader {
    pub pos: Vec2,
    /// Unit vector.
    pub heading: Vec2,
}

/// A boid's urges, each already weighted, and their sum (the steering force; the vehicle clamps
/// it). The overlay draws the parts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Forces {
    pub separation: Vec2,
    pub alignment: Vec2,
    pub cohesion: Vec2,
    pub gather: Vec2,
    pub flee: Vec2,
    pub follow: Vec2,
    pub total: Vec2,
    /// How many neighbours were heeded.
    pub heeded: u32,
}

impl Forces {
    /// The parts summed.
    pub fn sum(&self) -> Vec2 {
        combine([
            self.separation,
            self.alignment,
            self.cohesion,
            self.gather,
            self.flee,
            self.follow,
        ])
    }
}

/// What a flock senses its members by, rebuilt once a tick from the boids in order (so the
/// grid's indices are theirs): the neighbour grid (cells of `radius` for the metric
/// neighbourhood; for the topological one, a few boids a cell, see `world/group.rs`) and the
/// coarse mass field (reaching `gather_radius`, with velocities).
#[derive(Debug, Clone, Copy)]
pub struct Flockmates<'a> {
    pub grid: &'a Neighbours,
    pub masses: &'a Masses,
    pub boids: &'a [Boid],
}

/// Boid `i`'s steering this tick; `heading` is its unit heading.
pub fn steer(
    senses: Flockmates,
    i: usize,
    heading: Vec2,
    around: Around,
    p: &FlockParams,
    v: &VehicleTuning,
) -> Forces {
    let tally = tally(senses.grid, senses.boids, i, heading, p);
    steer_by(senses, i, &tally, around, p, v)
}

/// Boid `i`'s steering by a set of neighbours kept from an earlier tick (the topological
/// flock's, refreshed in turns by the world): `heeded` are their indices, nearest first when
/// found. Their positions and velocities are this tick's; only who they are is older.
pub fn steer_heeding(
    senses: Flockmates,
    i: usize,
    heeded: &[u32],
    around: Around,
    p: &FlockParams,
    v: &VehicleTuning,
) -> Forces {
    let mut tally = Tally::new(p.separation_radius);
    if let Some(me) = senses.boids.get(i) {
        for &j in heeded {
            if let Some(&other) = senses.boids.get(j as usize).filter(|_| j as usize != i) {
                tally.add(me.pos, i as u32, other, j);
            }
        }
    }
    steer_by(senses, i, &tally, around, p, v)
}

fn steer_by(
    senses: Flockmates,
    i: usize,
    tally: &Tally,
    around: Around,
    p: &FlockParams,
    v: &VehicleTuning,
) -> Forces {
    let Some(&me) = senses.boids.get(i) else {
        return Forces::default();
    };
    let mut f = forces(me, tally, p, v);
    f.gather = gather(me, senses.masses.around(me.pos), p, v);
    if let Some(predator) = around.predator {
        f.flee = flee(me, predator, p, v);
    }
    if let Some(leader) = around.leader {
        f.follow = follow(me, leader, p, v);
    }
    f.total = f.sum();
    f
}

/// Boid `i`'s `k` nearest inside its view and within the reach (the topological
/// neighbourhood), nearest first.
pub fn nearest_seen(
    grid: &Neighbours,
    boids: &[Boid],
    i: usize,
    heading: Vec2,
    p: &FlockParams,
) -> Nearest {
    let Some(me) = boids.get(i) else {
        return Nearest::default();
    };
    let me_index = i as u32;
    let sight = Sight::new(me.pos, heading, p.reach, p.fov_deg);
    grid.nearest(me.pos, p.k as usize, p.reach, |j, q| {
        j != me_index && sight.sees(q)
    })
}

/// The neighbours boid `i` heeds, tallied: those of its neighbourhood inside its view.
pub fn tally(grid: &Neighbours, boids: &[Boid], i: usize, heading: Vec2, p: &FlockParams) -> Tally {
    let mut tally = Tally::new(p.separation_radius);
    let Some(me) = boids.get(i) else {
        return tally;
    };
    let me_index = i as u32;
    let mut heed = |j: u32| {
        if let Some(&other) = boids.get(j as usize) {
            tally.add(me.pos, me_index, other, j);
        }
    };
    match p.neighbourhood {
        Neighbourhood::Metric => {
            let sight = Sight::new(me.pos, heading, p.radius, p.fov_deg);
            grid.for_each_within(me.pos, p.radius, |j, q, d2| {
                if j != me_index && sight.sees_offset(q - me.pos, d2) {
                    heed(j);
                }
            });
        }
        Neighbourhood::Topological => {
            for (j, _) in nearest_seen(grid, boids, i, heading, p).iter() {
                heed(j);
            }
        }
    }
    tally
}

/// Separation, alignment and cohesion from a tally (the predator and leader parts zero).
pub fn forces(me: Boid, tally: &Tally, p: &FlockParams, v: &VehicleTuning) -> Forces {
    if tally.count == 0 {
        return Forces::default();
    }
    let most = v.max_force;
    // One neighbour at half the separation radius pushes with the whole force (`|push|` is
    // `1/d − d/s²`, `1.5/s` there), nearer ones more: separation is left unclamped so that it
    // outweighs the other urges when boids are about to touch.
    let separation = tally.away * (most * p.separation_radius / 1.5);
    let mean_velocity = tally.velocity / tally.count as f32;
    let alignment = if tally.velocity == Vec2::ZERO {
        Vec2::ZERO
    } else {
        let desired = unit_or_zero(tally.velocity) * v.max_speed;
        truncate(desired - me.vel, most)
    };
    // Toward the centre as it moves: the neighbours' velocity, plus the speed that would close
    // the distance to their centre in `radius / max_speed` seconds.
    let centre = tally.offset / tally.count as f32;
    let desired = truncate(
        mean_velocity + centre * (v.max_speed / p.radius.max(1.0)),
        v.max_speed,
    );
    let cohesion = truncate(desired - me.vel, most);
    let mut f = Forces {
        separation: separation * p.separation,
        alignment: alignment * p.alignment,
        cohesion: cohesion * p.cohesion,
        heeded: tally.count,
        ..Forces::default()
    };
    f.total = f.sum();
    f
}

/// Toward the centre of the `mass` round the boid as it moves, weighted: the mass's mean
/// velocity plus the speed that closes the distance to its centre in
/// `gather_radius / max_speed` seconds, `desired − v` (the boid's own weight is taken out of the
/// mass, which counts it). The mass is a blur, not boids one can see or not: a boid with any
/// field of view at all feels it, a blind one (0°) does not. It reaches past the neighbours
/// a boid heeds, so groups a predator has parted turn back together instead of flying apart; in
/// the mass's own frame it neither brakes a cruising flock nor sets it orbiting its centre.
pub fn gather(me: Boid, mass: Mass, p: &FlockParams, v: &VehicleTuning) -> Vec2 {
    let others = mass.count - 1.0;
    if !(others > 0.5 && p.fov_deg > 0.0) {
        return Vec2::ZERO;
    }
    let centre = (mass.sum - me.pos) / others;
    let velocity = (mass.velocity - me.vel) / others;
    let desired = truncate(
        velocity + (centre - me.pos) * (v.max_speed / p.gather_radius.max(1.0)),
        v.max_speed,
    );
    truncate(desired - me.vel, v.max_force) * p.gather
}

/// Flee `predator` at full speed while it is within the threat radius (weighted).
pub fn flee(me: Boid, predator: Vec2, p: &FlockParams, v: &VehicleTuning) -> Vec2 {
    let away = me.pos - predator;
    let d2 = away.length_squared();
    if d2.is_nan() || d2 >= p.threat_radius * p.threat_radius {
        return Vec2::ZERO;
    }
    // (On the predator's own spot any way out will do.)
    let desired = unit_or(away, Vec2::X) * v.max_speed;
    truncate(desired - me.vel, v.max_force) * p.flee
}

/// Reynolds' leader following (weighted): out of the leader's path when in the corridor ahead
/// of it, else arrive at the point `leader_offset` behind it.
pub fn follow(me: Boid, leader: Leader, p: &FlockParams, v: &VehicleTuning) -> Vec2 {
    let heading = unit_or(leader.heading, Vec2::X);
    let side = heading.perp();
    let from_leader = me.pos - leader.pos;
    let ahead = from_leader.dot(heading);
    let across = from_leader.dot(side);
    let desired = if in_corridor(ahead, across, p) {
        // Sideways, away from the line it will run along (to its left on the line itself).
        let out = if across >= 0.0 { side } else { -side };
        out * v.max_speed
    } else {
        let behind = leader.pos - heading * p.leader_offset;
        let to = behind - me.pos;
        let distance = to.length();
        let speed = if distance < p.leader_slowing {
            v.max_speed * distance / p.leader_slowing.max(f32::EPSILON)
        } else {
            v.max_speed
        };
        unit_or_zero(to) * speed
    };
    truncate(desired - me.vel, v.max_force) * p.follow
}

/// Whether a point `ahead` of the leader along its heading and `across` to its side lies in its
/// path corridor.
pub fn in_corridor(ahead: f32, across: f32, p: &FlockParams) -> bool {
    ahead > 0.0 && ahead < p.corridor_length && across.abs() < p.corridor_half_width
}
