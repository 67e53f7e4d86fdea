//! A walker of the crowd (Shift+5): it walks to its goal (through the door first, in the
//! doorway) at its preferred speed, turned a little to its right, and keeps clear of the others
//! in one of three ways:
//!
//! - `separation`: Reynolds' push apart, `Σ (p − pⱼ)/|p − pⱼ| · (1 − d/reach)`, added to the
//!   preferred velocity. It only reacts to who is already near, so two walkers head-on meet
//!   before they part.
//! - `predictive`: Reynolds' unaligned collision avoidance. For each neighbour, the time of
//!   nearest approach `t = −(Δp · Δv)/|Δv|²` and where both will be then; of those that will come
//!   within two bodies inside the horizon, the most imminent is sidestepped: steer away from
//!   where it will be, the sooner the harder.
//! - `orca`: optimal reciprocal collision avoidance (`orca.rs`): each neighbour's and each
//!   obstacle's half-plane of velocities, and the velocity nearest the preferred one inside them
//!   all, taken at once (as RVO2's agents take it).
//!
//! Symmetry: walkers on a circle all aiming at the centre would meet head-on in perfect mirror
//! images, and every mirror-image rule (all three here) would stop them there. The preferred
//! velocity is turned `keep_right_deg` to each walker's right, so every pair passes on the same
//! side (the way pedestrians form lanes); the path it adds is `1/cos θ` longer, 1.5 % at 10°.

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me};
use super::orca::{self, Body, Line};
use crate::data::tuning::VehicleTuning;
use crate::data::walkers::{Avoidance, WalkerParams};
use crate::sim::space::arena::Arena;
use crate::sim::space::neighbours::Neighbours;
use crate::sim::vehicle::{truncate, unit_or_zero, within_a_tick};
use glam::Vec2;

/// A walker's memory: where it goes, how its trips went, and this tick's choices (for the
/// overlay).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WalkerMind {
    pub start: Vec2,
    pub goal: Vec2,
    /// The doorway's gap, from one end to the other (the walker aims at it until it is through).
    pub door: Option<Door>,
    /// Simulated seconds when the current trip began, and its straight-line length (px).
    pub trip_began: f64,
    pub trip_length: f32,
    /// It has reached its goal and stays there (the circle and the doorway).
    pub arrived: bool,
    /// Trips finished.
    pub trips: u32,
    /// Seconds it has stood still with its goal unreached, now and at most.
    pub still: f32,
    pub longest_still: f32,
    /// This tick: the preferred velocity, the velocity chosen, and the nearest approach it
    /// steered from (predictive).
    pub preferred: Vec2,
    pub chosen: Vec2,
    pub approach: Option<Vec2>,
    /// The vehicle it moves with this tick (the tuning's; ORCA's takes any force).
    pub vehicle: VehicleTuning,
    /// How its velocities combined this tick (for the overlay).
    pub tally: Tally,
}

/// The walkers' parts, by method, in the order listed (the overlay's names).
pub const SEPARATION_FORCES: [&str; 2] = ["separation", "goal"];
pub const PREDICTIVE_FORCES: [&str; 3] = ["predictive", "separation", "goal"];
pub const ORCA_FORCES: [&str; 2] = ["orca", "goal"];

/// The doorway's gap as a walker sees it: the ends of the gap's middle line, the way through
/// (unit), and how far past the middle line it is through.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Door {
    pub a: Vec2,
    pub b: Vec2,
    pub through: Vec2,
    pub past: f32,
}

/// What a walker senses of its crowd: walker `i` of `bodies` (where everyone stood and how fast
/// it moved as the tick began), indexed by `grid`, and the player, a body that does not avoid.
#[derive(Debug, Clone, Copy)]
pub struct Crowd<'a> {
    pub grid: &'a Neighbours,
    pub bodies: &'a [Body],
    pub i: usize,
    pub player: Body,
    pub player_radius: f32,
    pub method: Avoidance,
    pub arena: &'a Arena,
    pub dt: f32,
    /// How the velocities combine when not the crowd's own way (weighted), and this tick's draw
    /// for dithering.
    pub combine: Option<Method>,
    pub dice: Dice,
}

/// Where the walker is heading this tick: the door until it is through, then its goal.
pub fn target(pos: Vec2, mind: &WalkerMind, radius: f32) -> Vec2 {
    if let Some(d) = mind.door {
        let beyond = (pos - d.a).dot(d.through);
        if beyond < d.past + radius {
            // The nearest point of the gap's middle line that leaves room for the body.
            let along = d.b - d.a;
            let len = along.length();
            let unit = unit_or_zero(along);
            let room = (radius * 2.0).min(len * 0.5);
            let t = (pos - d.a).dot(unit).clamp(room, len - room);
            // Aim a little past the line, so a walker in the gap keeps going through.
            return d.a + unit * t + d.through * (d.past + 2.0 * radius);
        }
    }
    mind.goal
}

/// The preferred velocity: toward the target at the preferred speed (slowing to land on the
/// goal in the last tick), turned `keep_right_deg` to the right. A walker that has arrived
/// keeps to its goal's very spot, so that it leaves the spots beside it free for others.
pub fn preferred(pos: Vec2, mind: &WalkerMind, wp: &WalkerParams, dt: f32) -> Vec2 {
    let to = target(pos, mind, wp.radius) - pos;
    let dist = to.length();
    let speed = wp.preferred_speed.min(dist / dt.max(1e-6));
    // (y points down: a positive turn is clockwise on screen, to the walker's right.)
    let right = Vec2::from_angle(wp.keep_right_deg.to_radians());
    right.rotate(unit_or_zero(to) * speed)
}

/// Room for the half-planes of one walker (kept by the world so no tick allocates).
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    pub lines: Vec<Line>,
    pub projected: Vec<Line>,
}

/// This tick's steering for a walker.
pub fn steer(
    me: Me,
    mind: &mut WalkerMind,
    wp: &WalkerParams,
    crowd: &Crowd,
    scratch: &mut Scratch,
) -> Decision {
    let body = me.body;
    let pref = preferred(body.pos, mind, wp, crowd.dt);
    mind.preferred = pref;
    mind.approach = None;
    let chosen = match crowd.method {
        Avoidance::Separation => {
            let apart = separation(body.pos, wp, crowd);
            let listed = [apart, pref];
            let mut c = Combining::new(&SEPARATION_FORCES, &listed, mind, wp, crowd);
            c.or_own(|| pref + apart)
        }
        Avoidance::Predictive => {
            let (push, at) = predictive(body.pos, body.vel, wp, crowd);
            mind.approach = at;
            let apart = separation(body.pos, wp, crowd) * 0.5;
            let listed = [push, apart, pref];
            let mut c = Combining::new(&PREDICTIVE_FORCES, &listed, mind, wp, crowd);
            c.or_own(|| pref + push + apart)
        }
        Avoidance::Orca => {
            let v = orca_velocity(body.pos, body.vel, pref, wp, crowd, scratch);
            let listed = [v - pref, pref];
            let mut c = Combining::new(&ORCA_FORCES, &listed, mind, wp, crowd);
            c.or_own(|| v)
        }
    };
    let chosen = truncate(chosen, wp.max_speed);
    mind.chosen = chosen;
    let error = chosen - body.vel;
    let force = match crowd.method {
        // Taken at once: the force that makes the velocity the chosen one this tick.
        Avoidance::Orca => within_a_tick(error, me.vehicle.mass, crowd.dt),
        // Reynolds' steering: desired − velocity, closed within a few ticks.
        Avoidance::Separation | Avoidance::Predictive => error * (me.vehicle.mass * 8.0),
    };
    let state = if mind.arrived {
        "arrived"
    } else if (chosen - pref).length_squared() > 1.0 {
        "avoid"
    } else {
        "walk"
    };
    Decision::steer(force, mind.goal, state)
}

/// A walker's parts — velocities, each a change to the preferred one or the preferred one itself
/// — on their way to one velocity within the walker's top speed.
struct Combining<'a> {
    names: &'static [&'static str],
    listed: &'a [Vec2],
    mind: &'a mut WalkerMind,
    max_speed: f32,
    crowd: &'a Crowd<'a>,
}

impl<'a> Combining<'a> {
    fn new(
        names: &'static [&'static str],
        listed: &'a [Vec2],
        mind: &'a mut WalkerMind,
        wp: &WalkerParams,
        crowd: &'a Crowd<'a>,
    ) -> Combining<'a> {
        Combining {
            names,
            listed,
            mind,
            max_speed: wp.max_speed,
            crowd,
        }
    }

    /// The crowd's own way (`own`: the parts summed, weighted; the ORCA velocity whole) unless
    /// `B` chose another, when the parts go through [`forces::combine`]: the avoidance of the
    /// others first, the goal last, within the top speed.
    fn or_own(&mut self, own: impl FnOnce() -> Vec2) -> Vec2 {
        let n = self.listed.len();
        let Some(method) = self.crowd.combine else {
            self.mind.tally = Tally::of(self.names, self.listed, (1 << n) - 1);
            return own();
        };
        let mut parts = [Part::new(Vec2::ZERO, Priority::Rest, 1.0, 1.0); 3];
        for (i, (part, &v)) in parts.iter_mut().zip(self.listed).enumerate() {
            *part = if i + 1 == n {
                Part::new(v, Priority::Rest, 1.0, chance::GOAL)
            } else if self.names[i] == "separation" {
                Part::new(v, Priority::Others, 1.0, chance::SEPARATION)
            } else {
                Part::new(v, Priority::Others, 1.0, chance::OBSTACLES)
            };
        }
        let mut dice = self.crowd.dice;
        let dice = (method == Method::Dithered).then_some(&mut dice);
        let tally = &mut self.mind.tally;
        forces::combine(method, self.names, &parts[..n], self.max_speed, dice, tally)
    }
}

/// Reynolds' separation: away from each neighbour within `separation_reach` radii, fading to
/// nothing at the reach, as a velocity (a share of the preferred speed).
fn separation(pos: Vec2, wp: &WalkerParams, crowd: &Crowd) -> Vec2 {
    let reach = wp.radius * wp.separation_reach;
    let mut push = Vec2::ZERO;
    crowd.grid.for_each_within(pos, reach, |j, at, d2| {
        if j as usize == crowd.i {
            return;
        }
        let d = d2.sqrt();
        let away = if d > 1e-4 {
            (pos - at) / d
        } else {
            // Two on one spot: the lower index gives way along −x.
            Vec2::X * if (j as usize) < crowd.i { 1.0 } else { -1.0 }
        };
        push += away * (1.0 - d / reach);
    });
    push * (wp.separation_weight * wp.preferred_speed)
}

/// Reynolds' unaligned collision avoidance: the sidestep from the most imminent nearest
/// approach (a velocity), and where the walker will be at that moment.
fn predictive(pos: Vec2, vel: Vec2, wp: &WalkerParams, crowd: &Crowd) -> (Vec2, Option<Vec2>) {
    let reach = wp
        .neighbour_radius
        .max(wp.preferred_speed * 2.0 * wp.predict_horizon);
    let near = 2.0 * wp.radius + wp.margin;
    let mut soonest: Option<(f32, Vec2, Vec2)> = None;
    let mut consider = |other: Body, near: f32| {
        let dp = other.pos - pos;
        let dv = other.vel - vel;
        let speed2 = dv.length_squared();
        if speed2 < 1e-6 {
            return;
        }
        let t = -dp.dot(dv) / speed2;
        if !(0.0..=wp.predict_horizon).contains(&t) {
            return;
        }
        let mine = pos + vel * t;
        let theirs = other.pos + other.vel * t;
        if mine.distance_squared(theirs) < (2.0 * near) * (2.0 * near)
            && soonest.is_none_or(|(s, _, _)| t < s)
        {
            soonest = Some((t, mine, theirs));
        }
    };
    crowd.grid.for_each_within(pos, reach, |j, _, _| {
        if j as usize != crowd.i {
            consider(crowd.bodies[j as usize], near);
        }
    });
    consider(crowd.player, wp.radius + crowd.player_radius + wp.margin);
    match soonest {
        Some((t, mine, theirs)) => {
            let away = unit_or_zero(mine - theirs);
            // Perfectly head-on, the two futures meet: step to the right.
            let away = if away == Vec2::ZERO {
                unit_or_zero(vel).perp()
            } else {
                away
            };
            let urgency = 1.0 - t / wp.predict_horizon.max(1e-3);
            (
                away * (wp.predict_weight * wp.preferred_speed * (0.5 + urgency)),
                Some(mine),
            )
        }
        None => (Vec2::ZERO, None),
    }
}

/// ORCA's velocity: the obstacles' and walls' half-planes first (kept hard), then the nearest
/// `max_neighbours` walkers' and the player's.
fn orca_velocity(
    pos: Vec2,
    vel: Vec2,
    pref: Vec2,
    wp: &WalkerParams,
    crowd: &Crowd,
    scratch: &mut Scratch,
) -> Vec2 {
    let obstacles = orca_lines(pos, vel, wp, crowd, scratch);
    orca::solve(
        &scratch.lines,
        obstacles,
        wp.max_speed,
        pref,
        &mut scratch.projected,
    )
}

/// ORCA's half-planes for the walker at `pos` moving at `vel` into `scratch.lines`: the
/// obstacles' and walls' first, then the walkers' and the player's. Returns how many are the
/// obstacles'.
pub fn orca_lines(
    pos: Vec2,
    vel: Vec2,
    wp: &WalkerParams,
    crowd: &Crowd,
    scratch: &mut Scratch,
) -> usize {
    let lines = &mut scratch.lines;
    lines.clear();
    obstacle_lines(pos, wp, crowd, lines);
    let obstacles = lines.len();
    let me = Body { pos, vel };
    let combined = 2.0 * wp.radius + wp.margin;
    let k = wp.max_neighbours as usize;
    let i = crowd.i;
    let nearest = crowd
        .grid
        .nearest(pos, k, wp.neighbour_radius, |j, _| j as usize != i);
    for (j, _) in nearest.iter() {
        let other = crowd.bodies[j as usize];
        // (On one spot, the higher index leaves along +x, the lower along −x.)
        let apart = if j as usize > i { -Vec2::X } else { Vec2::X };
        lines.push(orca::agent_line(
            me,
            other,
            combined,
            wp.time_horizon,
            0.5,
            crowd.dt,
            apart,
        ));
    }
    let player_reach = wp.neighbour_radius + crowd.player_radius;
    if crowd.player.pos.distance_squared(pos) < player_reach * player_reach {
        let combined = wp.radius + crowd.player_radius + wp.margin;
        // The player does not avoid: the walker takes all of it.
        lines.push(orca::agent_line(
            me,
            crowd.player,
            combined,
            wp.time_horizon,
            1.0,
            crowd.dt,
            Vec2::Y,
        ));
    }
    obstacles
}

/// The half-planes of the walls and the obstacles within reach (`orca::surface_lines`).
pub fn obstacle_lines(pos: Vec2, wp: &WalkerParams, crowd: &Crowd, lines: &mut Vec<Line>) {
    let r = wp.radius + wp.margin * 0.5;
    let reach = r + wp.max_speed * wp.obstacle_horizon;
    let times = (wp.obstacle_horizon, crowd.dt);
    orca::surface_lines(crowd.arena, pos, r, reach, times, |line| lines.push(line));
}
