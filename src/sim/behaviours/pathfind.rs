//! Following a planned way (Bourg & Seemann ch. 7, Reynolds' arrival): a chaser of `pathfind`
//! walks the corners of its smoothed path with the vehicle model, braking into each corner so
//! that it turns there instead of sailing past it, and heads for the player itself once the
//! last corner is its own. In a crowd there are no paths: each chaser steers toward the next
//! tile the shared flow field gives its tile, kept apart from the others by mode 7's separation.
//!
//! The plans themselves are made by the world (one search shared by every chaser, see
//! `World::plan_paths`); what is here reads them.

use super::decision::{Decision, Me};
use crate::data::tuning::VehicleTuning;
use crate::sim::path::FlowField;
use crate::sim::space::Senses;
use crate::sim::vehicle::{Vehicle, unit_or, unit_or_zero, within_a_tick};
use glam::{IVec2, Vec2};

/// A corner counts as reached within this many pixels of its point.
pub const CORNER_REACH: f32 = 6.0;
/// A chaser that has not moved for this long (s) plans again: a slide along an obstacle can
/// leave it where its corners are no longer in sight.
pub const REPLAN_STILL_S: f32 = 0.5;
/// Moving slower than this fraction of its top speed counts as standing still (`max_wait_s`).
pub const STILL_SPEED: f32 = 0.02;
/// A chaser of a crowd feels its neighbours' push every this many ticks, taking turns by id, and
/// keeps the push in between: the separation is most of a crowd chaser's tick, and the crowd
/// moves a third of a body's radius in a tick at most.
pub const PUSH_EVERY: u64 = 2;

/// A chaser's numbers: how hard a crowd pushes apart, and the flow field a crowd steers by
/// (`None`: each follows its own plan).
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub separation: f32,
    pub flow: Option<&'a FlowField>,
}

/// `pathfind`: along the flow field in a crowd (kept apart like mode 7's chasers), else along the
/// agent's own plan (the world plans before the agents think); with no way to the player, it
/// stands and waits for one.
#[inline(always)]
pub fn steer(me: Me, chase: &mut PathChase, t: &Params, senses: &Senses) -> Decision {
    let (body, p, dt, player) = (me.body, me.vehicle, senses.dt, senses.player.pos);
    chase.watch(body, p, dt);
    if let Some(field) = t.flow {
        let (id, tick) = senses.turn();
        let apart = chase.push(tick, id, || senses.apart(body.pos) * t.separation);
        let tile_size = senses.arena.tile_size;
        let (force, aim) = flow(field, tile_size, body, player, apart, p, dt);
        return Decision::steer(force, aim, "flow");
    }
    let fresh = std::mem::take(&mut chase.fresh);
    let state = if fresh || chase.corners.is_empty() {
        "plan"
    } else {
        "follow"
    };
    let (force, aim) = if chase.corners.is_empty() {
        (within_a_tick(-body.vel, p.mass, dt), player)
    } else {
        follow(&chase.corners, &mut chase.next, body, player, p, dt)
    };
    Decision::steer(force, aim, state)
}

/// One chaser's plan and how far along it is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PathChase {
    /// The smoothed path's corners: the first is the centre of the tile it planned from, the
    /// last the centre of the goal tile. Empty: no plan, or no way to the goal.
    pub corners: Vec<Vec2>,
    /// The corner it is heading for.
    pub next: usize,
    /// The tiles of its last plan (the overlay searches them again to show the sets).
    pub from: IVec2,
    pub goal: IVec2,
    /// Whether it holds a plan (made, found or not) for `goal` on the arena as it is.
    pub planned: bool,
    /// Whether its plan was made on an arena or with a search that has since changed.
    pub stale: bool,
    /// Whether it planned this tick (the record says `plan`).
    pub fresh: bool,
    /// Seconds since it last moved, and where it stood at the last look.
    pub still: f32,
    pub last_pos: Vec2,
    /// At this many seconds standing still it plans again.
    pub replan_at: f32,
    /// The longest it has stood still (s).
    pub longest: f32,
    /// In a crowd: the separation push it last felt, and whether it has felt one.
    pub apart: Vec2,
    pub felt: bool,
}

impl PathChase {
    /// Note how far the body moved since the last tick.
    pub fn watch(&mut self, body: &Vehicle, p: &VehicleTuning, dt: f32) {
        let least = STILL_SPEED * p.max_speed * dt;
        if body.pos.distance_squared(self.last_pos) < least * least {
            self.still += dt;
            self.longest = self.longest.max(self.still);
        } else {
            self.still = 0.0;
            self.replan_at = REPLAN_STILL_S;
        }
        self.last_pos = body.pos;
    }

    /// Whether it must plan before it can follow: no plan for this goal, or standing still for
    /// [`REPLAN_STILL_S`] since it moved or last planned.
    pub fn needs_plan(&self, goal: IVec2) -> bool {
        !self.planned
            || self.stale
            || self.goal != goal
            || self.still >= self.replan_at.max(REPLAN_STILL_S)
    }

    /// The separation push for this tick: felt afresh (`feel`) on the chaser's turn or when it
    /// has none yet, else the last one.
    #[inline(always)]
    pub fn push(&mut self, tick: u64, id: u32, feel: impl FnOnce() -> Vec2) -> Vec2 {
        if !self.felt || tick.wrapping_add(u64::from(id)).is_multiple_of(PUSH_EVERY) {
            self.apart = feel();
            self.felt = true;
        }
        self.apart
    }

    /// A new plan from `from` to `goal` (its corners written already).
    pub fn planned(&mut self, from: IVec2, goal: IVec2) {
        self.from = from;
        self.goal = goal;
        self.planned = true;
        self.stale = false;
        self.fresh = true;
        self.replan_at = self.still + REPLAN_STILL_S;
    }
}

/// The force that walks a body along `corners` from corner `next` (moved on as corners are
/// reached), and the point it aims at. At the last corner it makes for the player.
///
/// Short of the last corner the wished speed is the one from which the body can still brake to
/// the speed the corner's turn allows over the distance left (`v² = v_turn² + 2·a·d`, the
/// vehicle's braking `a` being its force over its mass), and the force closes the gap to that
/// velocity as fast as the vehicle's force allows: arrival, not seek, so the body turns at the
/// corner and does not overshoot it. The turn allows the full speed straight on, nothing for a
/// reversal, and in between the square of `(1 + cos θ) / 2`.
pub fn follow(
    corners: &[Vec2],
    next: &mut usize,
    body: &Vehicle,
    player: Vec2,
    p: &VehicleTuning,
    dt: f32,
) -> (Vec2, Vec2) {
    let last = corners.len().saturating_sub(1);
    while *next < last && body.pos.distance(corners[*next]) < CORNER_REACH {
        *next += 1;
    }
    if *next >= last {
        let desired = unit_or_zero(player - body.pos) * p.max_speed;
        return (within_a_tick(desired - body.vel, p.mass, dt), player);
    }
    let corner = corners[*next];
    let to = corner - body.pos;
    let d = to.length();
    let dir_in = unit_or_zero(to);
    let dir_out = unit_or(corners[*next + 1] - corner, dir_in);
    let ease = (0.5 + 0.5 * dir_in.dot(dir_out)).max(0.0);
    let v_turn = p.max_speed * ease * ease;
    let braking = p.max_force / p.mass.max(f32::EPSILON);
    let speed = (v_turn * v_turn + 2.0 * braking * d)
        .sqrt()
        .min(p.max_speed);
    let desired = dir_in * speed;
    (within_a_tick(desired - body.vel, p.mass, dt), corner)
}

/// The force that takes a body of a crowd along the flow field: its tile's course toward the
/// goal (at the goal tile, or where the field has no way, straight at the player), with `apart`
/// (the separation push, weighted) added; and the point it aims at (a tile on along the course).
pub fn flow(
    field: &FlowField,
    tile_size: f32,
    body: &Vehicle,
    player: Vec2,
    apart: Vec2,
    p: &VehicleTuning,
    dt: f32,
) -> (Vec2, Vec2) {
    let (to, aim) = match field.course(body.pos) {
        Some(course) => (course, body.pos + course * tile_size),
        None => (unit_or_zero(player - body.pos), player),
    };
    // The push may turn a chaser aside or hold it back, never send it back down the field: in a
    // jam the pushes from behind outweigh the pull, and the crowd would flow backwards.
    let wish = to + apart;
    let forward = wish.dot(to);
    let course = unit_or_zero(wish - to * forward.min(0.0));
    let desired = course * p.max_speed;
    (within_a_tick(desired - body.vel, p.mass, dt), aim)
}
