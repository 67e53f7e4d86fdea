//! Keeping a course clear (the wanderers, mode 7, the boids): containment off the walls, no
//! about-face, and Reynolds' obstacle avoidance — feel ahead with rays and bend the desired course
//! away from the deepest hit. [`Senses::clear`] is the whole of it for one agent's wish.
//!
//! A hit turns the course toward the surface's tangent nearest the heading and out along its
//! normal, more the deeper the ray reached (`strength` scales both how far it turns and how much
//! the avoidance outweighs the agent's own wish). Head-on hits have no "nearest" tangent: the agent
//! keeps turning the way it last turned, so it does not hesitate between left and right.
//!
//! The corner trap — rays alternately hitting the two walls of a corner, the agent turning back
//! and forth into it — is handled by widening the whiskers while blocked: every second a ray keeps
//! hitting opens them by up to 60° more, so the agent sees the way out; they close again once
//! it runs free.
//!
//! A ray that reaches deep is urgent: the agent takes its course with its whole force at once
//! rather than Reynolds' gentle `desired − velocity`, which can leave an agent braking at half its
//! force while it grazes a corner. What reactive steering cannot get out of — a pocket where
//! every turn meets another surface — the agent leaves by a look all round (see `unstick`).

use super::arena::{Arena, sweep_reach};
use super::feelers::{self, Feelers, Layout};
use super::senses::{Held, Senses};
use crate::data::tuning::{AvoidTuning, VehicleTuning};
use crate::sim::vehicle::{Vehicle, unit_or_zero};
use glam::Vec2;

/// Most extra whisker angle while blocked (radians) and how fast it opens and closes (per second).
pub const MAX_SPREAD: f32 = std::f32::consts::FRAC_PI_3;
const SPREAD_OPEN: f32 = 1.5;
const SPREAD_CLOSE: f32 = 0.75;
/// How much free room along a way round counts against the other reasons for a way: most, so a
/// way that runs into another obstacle (the inside of an L, a corner) loses.
const ROOM_WEIGHT: f32 = 3.0;
/// A hit counts when the heading runs into the surface at least this much (cosine)...
const APPROACHING: f32 = 0.1;
/// ...or when the ray reaches this deep, whatever the heading.
const CLOSE_DEPTH: f32 = 0.5;
/// How much of its speed an agent gives up as a ray reaches all the way in.
const BRAKE: f32 = 0.5;
/// A ray reaching this deep is urgent: the course is to be taken with the body's whole force at
/// once, not Reynolds' gentle `desired − velocity`, which can leave an agent braking at half its
/// force while it grazes a corner.
pub const URGENT_DEPTH: f32 = 0.8;
/// How much wider than the body the rays sweep (px): a body running exactly along a surface
/// (its edge on the surface's line, as sliding past a rectangle's corner leaves it) is felt
/// instead of being missed by rounding one tick and touched the next.
pub const FEEL_SKIN: f32 = 1.0;
/// Sideways offset from an obstacle's centre (px) at which passing on that side is fully preferred.
const SHORT_WAY_SCALE: f32 = 24.0;

/// Per-agent avoidance memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AvoidState {
    /// What the last cast at the obstacles found (the regulator's memory).
    pub held: Held,
    /// How far the whiskers are opened (0…1 of `MAX_SPREAD`).
    pub spread: f32,
    /// The way it last turned away: +1 left of the heading, −1 right.
    pub side: f32,
    /// The surface it is going round and which way round (+1: along `normal.perp()`, −1: the
    /// other way). While the same surface is felt the choice stands — also across a rectangle's
    /// corner, where the normal turns but the way round does not — so the agent does not dither.
    pub rounding: Option<(Surface, f32)>,
}

/// Which surface a ray hit: an obstacle by index, or a wall by its inward normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Surface {
    Obstacle(u32),
    Wall(Vec2),
}

impl Default for AvoidState {
    fn default() -> Self {
        AvoidState {
            held: Held::default(),
            spread: 0.0,
            side: 1.0,
            rounding: None,
        }
    }
}

/// The rays for this tuning and vehicle.
pub fn feelers(p: &VehicleTuning, t: &AvoidTuning) -> Feelers {
    Feelers {
        layout: t.rays,
        look_ahead: t.look_ahead,
        min_length: t.min_length.max(p.radius),
        whisker_length: t.whisker_length,
        whisker_angle: t.whisker_angle_deg.to_radians(),
        half_width: p.radius + FEEL_SKIN,
    }
}

/// What avoidance decided this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clearance {
    /// The course to steer (unit, or the wish unchanged when nothing was felt).
    pub dir: Vec2,
    /// Fraction of full speed to ask for: below 1 while a ray reaches deep, so the agent brakes
    /// and turns tighter (a turning circle's radius grows with the square of speed).
    pub speed: f32,
    /// Whether a felt surface changed the course.
    pub avoiding: bool,
    /// Whether a ray reaches deeper than [`URGENT_DEPTH`].
    pub urgent: bool,
}

impl Senses<'_> {
    /// `clear(wish)`: a unit wish held off the walls (containment), never an about-face, and
    /// bent round what the feelers feel ([`Senses::whiskers`]).
    #[inline(always)]
    pub fn clear(
        &self,
        wish: Vec2,
        body: &Vehicle,
        speed: f32,
        p: &VehicleTuning,
        t: &AvoidTuning,
        s: &mut AvoidState,
    ) -> Clearance {
        let margin = t.look_ahead + t.min_length;
        // (Away from the walls there is no push, and the wish is unit already: no normalising.)
        let push = containment(self.arena, body.pos, margin);
        let wish = if push == Vec2::ZERO {
            wish
        } else {
            unit_or_zero(wish + push)
        };
        // The wish never asks for an about-face; avoidance may (braking is how it stays clear).
        let wish = no_about_face(wish, body.heading);
        self.whiskers(wish, body, speed, p, t, s)
    }

    /// Bend `wish` (unit) away from what the rays feel; `speed` is the body's (measured once a
    /// tick by its caller). The walls are felt every tick; obstacles
    /// are felt by a cast on the agent's turn (see [`Senses::take_turn`]), and otherwise what the
    /// last cast found stands in — brought nearer by the ground covered since.
    #[inline(always)]
    pub fn whiskers(
        &self,
        wish: Vec2,
        body: &Vehicle,
        speed: f32,
        p: &VehicleTuning,
        t: &AvoidTuning,
        s: &mut AvoidState,
    ) -> Clearance {
        let (arena, pos, heading, dt) = (self.arena, body.pos, body.heading, self.dt);
        let speed_frac = speed / p.max_speed.max(f32::EPSILON);
        self.take_turn(&mut s.held);
        let cast = self.casting(&s.held);
        let held = &mut s.held.felt;
        let cfg = feelers(p, t);
        let extra = if cfg.layout == Layout::Whiskers {
            s.spread * MAX_SPREAD
        } else {
            0.0
        };
        let r = cfg.sweep_radius();
        // Most agents most of the time have nothing within reach of any ray: find that out before
        // building the rays.
        let reach = cfg.reach(speed_frac) + sweep_reach(r);
        let near_wall = (pos.x <= reach
            || pos.y <= reach
            || pos.x >= arena.width - reach
            || pos.y >= arena.height - reach)
            && !cfg.clear_of_walls(arena, pos, heading, speed_frac, r);
        let cast_obstacles = cast && !arena.field().clear_within(pos, reach);
        let rays = (near_wall || cast_obstacles).then(|| cfg.rays(pos, heading, speed_frac, extra));
        if cast {
            *held = rays
                .filter(|_| cast_obstacles)
                // (`cast_obstacles` has asked the field about the whole reach already.)
                .and_then(|rays| feelers::feel_obstacles_near(arena, &rays, r));
        } else if let Some(f) = held {
            f.closer(speed_frac * p.max_speed * dt);
        }
        let walls = rays
            .filter(|_| near_wall)
            .and_then(|rays| feelers::feel_walls(arena, &rays, r));
        let felt = feelers::deeper(walls, *held);
        // A surface the agent runs alongside or away from is no danger: a whisker brushing a wall
        // it follows would otherwise take over the wander for good (and hug the wall). Only when
        // a ray reaches deep does any surface count.
        let felt =
            felt.filter(|f| heading.dot(f.hit.normal) < -APPROACHING || f.depth > CLOSE_DEPTH);
        s.spread = match felt {
            Some(_) => (s.spread + SPREAD_OPEN * dt).min(1.0),
            None => (s.spread - SPREAD_CLOSE * dt).max(0.0),
        };
        // Nothing felt, or the agent's own wish already leads away from the surface: let it.
        let Some(f) = felt.filter(|f| wish.dot(f.hit.normal) <= 0.0 || f.depth >= CLOSE_DEPTH)
        else {
            s.rounding = None;
            return Clearance {
                dir: wish,
                speed: 1.0,
                avoiding: felt.is_some(),
                urgent: false,
            };
        };
        let n = f.hit.normal;
        let surface = match f.hit.obstacle {
            Some(i) => Surface::Obstacle(i),
            None => Surface::Wall(n),
        };
        let along = n.perp();
        let sense = match s.rounding {
            Some((was, sense)) if was == surface => sense,
            _ => {
                let centre = f
                    .hit
                    .obstacle
                    .map(|i| arena.obstacles()[i as usize].center());
                let t = escape_tangent(self, body, n, centre, cfg.sweep_radius(), probe(t), s);
                if t.dot(along) >= 0.0 { 1.0 } else { -1.0 }
            }
        };
        s.rounding = Some((surface, sense));
        let tangent = along * sense;
        s.side = if tangent.dot(heading.perp()) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        // Along the surface, and out from it once the ray reaches past half its length: turning
        // along first keeps the agent moving (braking through zero speed is an about-face), pushing
        // out is the last resort that keeps it clear.
        let push = ((f.depth - 0.5).max(0.0) * 2.0 * t.strength).min(4.0);
        let away = unit_or_zero(tangent + n * push);
        // Avoidance has priority (Reynolds' arbitration): while a ray feels something the wish is set
        // aside.
        Clearance {
            dir: away,
            speed: 1.0 - BRAKE * f.depth,
            avoiding: true,
            urgent: f.depth > URGENT_DEPTH,
        }
    }
}

/// How far the agent looks along a surface to judge which way has more room.
pub fn probe(t: &AvoidTuning) -> f32 {
    2.0 * (t.look_ahead + t.min_length)
}

/// Which way to go along the surface with normal `n`: of its two tangents, the one that passes
/// the obstacle on the side the agent is already on (the short way round its `centre`), with more
/// free room (a body swept along it), nearer the heading and, a little, the way the agent turned
/// last — so an obstacle is rounded the short way and a wall followed away from a corner.
fn escape_tangent(
    senses: &Senses,
    body: &Vehicle,
    n: Vec2,
    centre: Option<Vec2>,
    r: f32,
    probe: f32,
    s: &AvoidState,
) -> Vec2 {
    let (pos, heading) = (body.pos, body.heading);
    let along = n.perp();
    let score = |t: Vec2| {
        let room = senses.sweep(pos, t, probe, r).map_or(probe, |h| h.t) / probe;
        let last = if t.dot(heading.perp()) * s.side > 0.0 {
            0.15
        } else {
            0.0
        };
        // Pass the obstacle on the side of the heading its centre is not on. Graded, so a
        // dead-centre approach leaves the choice to the other terms instead of flipping sides on
        // every tick's rounding.
        let left = heading.perp();
        let short_way = centre.map_or(0.0, |c| {
            -((c - pos).dot(left) / SHORT_WAY_SCALE).clamp(-1.0, 1.0) * t.dot(left)
        });
        ROOM_WEIGHT * room + 0.5 * t.dot(heading) + last + short_way
    };
    if score(along) >= score(-along) {
        along
    } else {
        -along
    }
}

/// Never ask for an about-face: a desired direction behind the heading is turned to the side
/// it leans toward, so the agent arcs round instead of braking through zero speed.
pub fn no_about_face(dir: Vec2, heading: Vec2) -> Vec2 {
    if dir.dot(heading) >= 0.0 || dir == Vec2::ZERO {
        return dir;
    }
    let side = heading.perp();
    if dir.dot(side) >= 0.0 { side } else { -side }
}

/// Containment: the sum of the inward normals of walls closer than `margin`, each scaled by how
/// far inside the margin the agent is (0 at the margin, 2 at the wall). Added to a wanderer's
/// wish, it bends the walk away from walls before it gets near them.
pub fn containment(arena: &Arena, pos: Vec2, margin: f32) -> Vec2 {
    // (Most agents are farther than the margin from every wall: no divisions for them.)
    let open = (pos.x >= margin)
        & (pos.y >= margin)
        & (arena.width - pos.x >= margin)
        & (arena.height - pos.y >= margin);
    if margin <= 0.0 || open {
        return Vec2::ZERO;
    }
    let depth = |d: f32| ((margin - d) / margin).max(0.0) * 2.0;
    Vec2::new(
        depth(pos.x) - depth(arena.width - pos.x),
        depth(pos.y) - depth(arena.height - pos.y),
    )
}
