//! Formations (Buckland's offset pursuit; gdx-ai's formation motion). The player leads; the
//! formation hangs from an anchor that trails the leader at a moderated pace (the world moves
//! it, see `world/formation.rs`), and each slot is an offset in the anchor's frame: `ahead`
//! along its heading, `right` across it. A member offset-pursues its slot: it aims where the
//! slot will be when it gets there, `T = |slot - me| / max_speed`, `aim = slot + v_slot * T`,
//! and its desired velocity is the slot's own plus an arrival toward the aim,
//! `desired = v_slot + unit(aim - me) * max_speed * min(1, |aim - me| / slowing)`, so that a
//! member on its slot moves with it rather than trailing it. A slot inside an obstacle is moved
//! to the nearest spot where the member fits, and an obstacle between a member and its slot is
//! skirted (the state says `rejoin`).
//!
//! Members keep apart in two layers: Reynolds' separation nudges the desired velocity, and
//! ORCA (as the crowd's walkers use it, see `orca.rs`) then takes the velocity nearest it that
//! meets none of the nearest members within a quarter of a second, each member taking half the
//! avoiding, and runs into no wall or obstacle. The member steers to that velocity as fast as
//! its force allows. Separation alone is a force that grows only as bodies close, and loses to
//! the pursuit of a slot on the far side of a neighbour: where the formation is squeezed past
//! an obstacle, members displaced from their slots ran through one another.

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me};
use super::hide::skirt;
use super::orca::{self, Body, Line};
use crate::data::classics::{FormationParams, FormationShape};
use crate::data::tuning::VehicleTuning;
use crate::sim::space::Senses;
use crate::sim::space::arena::Arena;
use crate::sim::vehicle::{Vehicle, unit_or_zero};
use glam::Vec2;
use std::cell::RefCell;

/// The lead a member predicts its slot by is capped at this (s): a member far off would
/// otherwise aim where the slot will be long after it has turned.
const MAX_LEAD_S: f32 = 1.0;
/// The forces `B` combines close the gap between a member's velocity and the one each asks for
/// over this long (s), where Reynolds' `desired - velocity` takes a second: a slot on the
/// outside of a turn moves faster than the leader, and a member slow to match it falls behind
/// for good. (The formation's own way steers to the cleared velocity within a tick.)
const RESPONSE_S: f32 = 0.2;
/// The most a member's neighbours push it, in units of its top speed times the separation's
/// weight.
const MAX_PUSH: f32 = 2.0;
/// Members keep clear of the others this far ahead (s), as ORCA's time horizon.
const HORIZON_S: f32 = 0.25;
/// How much wider than the two bodies (px) the gap members keep clear of is planned.
const MARGIN: f32 = 2.0;
/// How many of the nearest members each keeps clear of.
const NEIGHBOURS: usize = 8;
/// The most walls and obstacles a member keeps clear of at once.
const MAX_SURFACES: usize = 8;
/// How far (px) beyond touching an obstacle [`way_out`] puts a slot, so that rounding never
/// leaves it a hair inside.
const CLEAR: f32 = 0.01;
/// Rows of a wedge stand this fraction of the spacing behind one another (an equilateral V).
const WEDGE_DEPTH: f32 = 0.87;

/// A member's slot as the world placed it this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Member {
    /// Its slot's index, position and velocity.
    pub slot: u32,
    pub at: Vec2,
    pub vel: Vec2,
    /// The point it aimed at this tick (for the overlay).
    pub aim: Vec2,
    /// How its forces combined this tick (for the overlay).
    pub tally: Tally,
}

/// A member's forces in the order listed (the overlay's names): the way round an obstacle
/// between it and its slot, the push from the other members, the pursuit of its slot.
pub const FORCES: [&str; 3] = ["obstacles", "separation", "slot"];

/// A member's numbers.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub formation: &'a FormationParams,
    /// How the forces combine when not the formation's own way (see [`steer`]).
    pub combine: Option<Method>,
}

/// The slots of `shape` for `n` members, in the anchor's frame as `(ahead, right)`, front
/// first. Large formations take many ranks: a line grows deeper as well as wider, a column
/// wider as well as deeper, a wedge's rows stop widening, a ring adds rings outside.
pub fn offsets(shape: FormationShape, n: usize, t: &FormationParams) -> Vec<Vec2> {
    let s = t.spacing;
    let mut out = Vec::with_capacity(n);
    // Ranks of `width` side by side, each centred, `depth` apart.
    let ranks = |out: &mut Vec<Vec2>, width: usize, depth: f32| {
        let width = width.max(1);
        let mut placed = 0;
        let mut rank = 0;
        while placed < n {
            let m = width.min(n - placed);
            for j in 0..m {
                let right = (j as f32 - (m as f32 - 1.0) * 0.5) * s;
                out.push(Vec2::new(-(rank as f32) * depth, right));
            }
            placed += m;
            rank += 1;
        }
    };
    match shape {
        FormationShape::Line => {
            let width = n.min(12).max((3.0 * n as f32).sqrt().ceil() as usize);
            ranks(&mut out, width, s);
        }
        FormationShape::Column => {
            let files = ((n as f32).sqrt() / 3.0).ceil() as usize;
            ranks(&mut out, files, s);
        }
        FormationShape::Wedge => {
            let widest = 8.max((2.0 * n as f32).sqrt().ceil() as usize);
            let mut placed = 0;
            let mut row = 1;
            while placed < n {
                let m = (row + 1).min(widest).min(n - placed);
                for j in 0..m {
                    let right = (j as f32 - (m as f32 - 1.0) * 0.5) * s;
                    out.push(Vec2::new(-((row - 1) as f32) * s * WEDGE_DEPTH, right));
                }
                placed += m;
                row += 1;
            }
        }
        FormationShape::Ring => {
            let mut placed = 0;
            let mut ring = 0;
            while placed < n {
                let radius = t.ring_radius + ring as f32 * s;
                let room = ((std::f32::consts::TAU * radius / s).floor() as usize).max(3);
                let m = room.min(n - placed);
                let turn = if ring % 2 == 1 { 0.5 } else { 0.0 };
                for j in 0..m {
                    let angle = std::f32::consts::TAU * (j as f32 + turn) / m as f32;
                    out.push(Vec2::from_angle(angle) * radius);
                }
                placed += m;
                ring += 1;
            }
        }
    }
    out
}

/// Where offset `(ahead, right)` lies for an anchor at `anchor` facing unit `heading`.
pub fn place(anchor: Vec2, heading: Vec2, offset: Vec2) -> Vec2 {
    anchor + heading * offset.x + heading.perp() * offset.y
}

/// `formation`: offset-pursue the slot, round what stands in the way, kept apart from the other
/// members. Its own way (prioritised): the way round an obstacle, when there is one, sets the
/// pursuit aside; the separation is added to either, ORCA clears the result of the other
/// members, and the member steers to it within a tick (as far as its force allows). `B` puts
/// the three through [`forces::combine`] instead, within the vehicle's force, the separation's
/// part being the change the two layers make (draws from `rng` only to dither).
pub fn steer(
    me: Me,
    m: &mut Member,
    t: &Params,
    senses: &Senses,
    rng: &mut impl ::rand::Rng,
) -> Decision {
    let (body, p) = (me.body, me.vehicle);
    let mut state = "slot";
    let mut goal = m.at;
    if !senses.is_clear(goal, p.radius) {
        goal = way_out(senses.arena, goal, p.radius);
        state = "rejoin";
    }
    let lead = (body.pos.distance(goal) / p.max_speed.max(1e-3)).min(MAX_LEAD_S);
    let aim = goal + m.vel * lead;
    m.aim = aim;
    // (Capped: crowded together on the way, many neighbours' pushes would otherwise drown the
    // pursuit.)
    let push = senses.apart(body.pos).clamp_length_max(MAX_PUSH);
    let apart = push * t.formation.separation * p.max_speed;
    let to = aim - body.pos;
    let length = to.length();
    let round = if length > 1e-3
        && let Some(hit) = senses.arena.ray_cast(body.pos, to / length, length)
        && let Some(i) = hit.obstacle
        && let Some(o) = senses.arena.obstacles().get(i as usize)
    {
        skirt(body, o, aim, p.radius, p.max_speed)
    } else {
        None
    };
    let arrive = (length / t.formation.slowing_radius.max(1e-3)).min(1.0);
    let pursuit = (m.vel + unit_or_zero(to) * p.max_speed * arrive).clamp_length_max(p.max_speed);
    // The way it would go: round the obstacle, else after its slot; then pushed apart, and kept
    // clear of the members it would meet.
    let course = round.map_or(pursuit, |f| body.vel + f);
    let wish = (course + apart).clamp_length_max(p.max_speed);
    let clear = keep_clear(body, wish, senses, p);
    let slot = (pursuit - body.vel) / RESPONSE_S;
    let others = (clear - course) / RESPONSE_S;
    let Some(method) = t.combine else {
        return match round {
            Some(force) => {
                m.tally = Tally::of(&FORCES, &[force / RESPONSE_S, others, slot], 0b011);
                Decision::steer((clear - body.vel) / senses.dt, aim, "rejoin")
            }
            None => {
                m.tally = Tally::of(&FORCES, &[Vec2::ZERO, others, slot], 0b110);
                Decision::steer((clear - body.vel) / senses.dt, aim, state)
            }
        };
    };
    let obstacles = round.map_or(Vec2::ZERO, |f| f / RESPONSE_S);
    let parts = [
        Part::new(obstacles, Priority::Obstacles, 1.0, chance::OBSTACLES),
        Part::new(others, Priority::Others, 1.0, chance::SEPARATION),
        Part::new(slot, Priority::Rest, 1.0, chance::GOAL),
    ];
    let mut dice = (method == Method::Dithered).then(|| Dice::roll(rng));
    let force = forces::combine(
        method,
        &FORCES,
        &parts,
        p.max_force,
        dice.as_mut(),
        &mut m.tally,
    );
    let state = if round.is_some() { "rejoin" } else { state };
    Decision::steer(force, aim, state)
}

/// The nearest spot clear for a body of radius `r` to a slot `p` that is not: straight out
/// along the nearest obstacle's surface normal (the obstacles are convex, so that is the nearest
/// clear of it), or, where that lands in another obstacle or past a wall, the arena's ring
/// search. (The ring search alone costs rings of the obstacle's depth, which in a grown arena's
/// scaled obstacles is hundreds, for every member whose slot lies inside one, every tick.)
fn way_out(arena: &Arena, p: Vec2, r: f32) -> Vec2 {
    if let Some(s) = arena.nearest_surface(p, r) {
        let lo = Vec2::splat(r);
        let out = p + s.normal * (r - s.distance + CLEAR);
        if out.cmpge(lo).all() && out.cmple(arena.size() - r).all() && arena.is_clear(out, r) {
            return out;
        }
    }
    arena.nearest_clear(p, r)
}

thread_local! {
    /// Room for the solver's lines when no velocity meets every half-plane (reserved once a
    /// thread, so no tick allocates).
    static SCRATCH: RefCell<Vec<Line>> = RefCell::new(Vec::with_capacity(2 * NEIGHBOURS));
}

/// The velocity nearest `wish` that meets none of the nearest members within [`HORIZON_S`]
/// and runs into no wall or obstacle: ORCA's half-plane for each member (van den Berg et al.
/// 2011; see `orca.rs`), half the avoiding taken by each of the two, and for each wall and
/// obstacle near its supporting line, kept hard; the linear program's answer within the top
/// speed. (A member pressed on an obstacle cannot take a velocity into it, and a neighbour
/// counting on it to would walk into it.)
fn keep_clear(body: &Vehicle, wish: Vec2, senses: &Senses, p: &VehicleTuning) -> Vec2 {
    let pos = body.pos;
    let me = Body { pos, vel: body.vel };
    let mut lines = [Line::default(); NEIGHBOURS + MAX_SURFACES];
    let mut n = 0;
    // The walls and the obstacles within reach.
    let r = p.radius + MARGIN * 0.5;
    let reach = r + p.max_speed * HORIZON_S;
    orca::surface_lines(
        senses.arena,
        pos,
        r,
        reach,
        (HORIZON_S, senses.dt),
        |line| {
            if n < MAX_SURFACES {
                lines[n] = line;
                n += 1;
            }
        },
    );
    let obstacles = n;
    let combined = 2.0 * p.radius + MARGIN;
    let reach = combined + p.max_speed * HORIZON_S;
    let (id, _) = senses.turn();
    for (j, other) in senses.nearest_moving(pos, NEIGHBOURS, reach) {
        let other = Body {
            pos: other.pos,
            vel: other.vel,
        };
        // (On one spot, the higher id leaves along +x, the lower along -x.)
        let apart = if j > id { -Vec2::X } else { Vec2::X };
        lines[n] = orca::agent_line(me, other, combined, HORIZON_S, 0.5, senses.dt, apart);
        n += 1;
    }
    if n == 0 {
        return wish;
    }
    let lines = &lines[..n];
    SCRATCH.with(|s| orca::solve(lines, obstacles, p.max_speed, wish, &mut s.borrow_mut()))
}
