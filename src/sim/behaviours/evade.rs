//! Evade (mode 5): inside the threat radius an agent flees the player's *predicted* position
//! (Reynolds' evade); outside it wanders gently. Feelers keep it off walls and obstacles: a
//! felt surface bends the desired direction along it and away from it.
//!
//! Corners: fleeing straight away from a player who comes at a corner pushes an agent into it.
//! Near a wall the flight loses its component into the wall (the agent slides along it); when
//! what remains is small, or leads into another wall within reach, the agent is cornered and
//! commits to escaping along a wall — the tangent least toward the player, more open room
//! breaking near-ties — and keeps to it while threatened, choosing again only when something
//! blocks the way. Committing matters: re-deciding every tick makes an agent pinned under a
//! player dither left and right on the spot.
//!
//! Pockets: among close obstacles the feelers feel something on every side, and their pushes can
//! hold an evader in the middle of them, turning on the spot. One that stays there two seconds
//! gets out along the longest clear run round it (see `unstick`).

use super::decision::{Decision, Me};
use super::unstick::Unstick;
use super::{intercept, wander};
use crate::data::tuning::{EvadeTuning, VehicleTuning};
use crate::sim::space::arena::Arena;
use crate::sim::space::clear::{URGENT_DEPTH, containment};
use crate::sim::space::{Held, Senses, feelers};
use crate::sim::vehicle::{unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

/// Whisker angle and length of the evaders' feelers.
const WHISKER_ANGLE_DEG: f32 = 35.0;
const WHISKER_SCALE: f32 = 0.6;

/// Per-agent state of an evader.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvadeState {
    /// Wander target in the agent's frame.
    pub wander: Vec2,
    /// The direction of a committed escape along a wall.
    pub escape: Option<Vec2>,
    /// The deepest feeler hit this tick (for the overlay).
    pub felt: Option<feelers::Feel>,
    /// What the last cast at the obstacles found, held until the next; the walls are felt
    /// afresh every tick.
    pub held: Held,
    /// Whether it has stayed on one spot, and the way out it follows if so.
    pub unstick: Unstick,
}

impl Default for EvadeState {
    fn default() -> Self {
        EvadeState {
            wander: Vec2::X,
            escape: None,
            felt: None,
            held: Held::default(),
            unstick: Unstick::default(),
        }
    }
}

/// This tick's course for an evader: away from the predicted player inside the threat radius
/// (along a wall when cornered), a gentle wander outside it. The agent's layers keep it clear
/// ([`keep_clear`]) unless it is getting out of a pocket. Its feelers take their turn here, so a
/// cast comes on the agent's turn whatever the layers do.
pub fn steer(
    me: Me,
    s: &mut EvadeState,
    t: &EvadeTuning,
    senses: &Senses,
    rng: &mut impl Rng,
) -> Decision {
    senses.take_turn(&mut s.held);
    let (body, p) = (me.body, me.vehicle);
    let player = senses.player;
    let threatened = threatened(body.pos, player.pos, t);
    if !threatened {
        s.escape = None;
    }
    if threatened {
        let threat = intercept::threat_point(
            body.pos,
            p.max_speed,
            player.pos,
            player.vel,
            t.max_prediction_time,
        );
        let away = (body.pos - threat)
            .try_normalize()
            .or_else(|| (body.pos - player.pos).try_normalize())
            .unwrap_or(body.heading);
        let blocked = |dir: Vec2| senses.blocked(body.pos, dir, t.wall_margin + p.radius);
        let arena = senses.arena;
        match s.escape {
            Some(escape) if !blocked(escape) => Decision::clear(escape, threat, "escape"),
            _ => match slide(arena, body.pos, away, t.wall_margin) {
                Some(dir) if s.escape.is_none() => Decision::clear(dir, threat, "flee"),
                _ => {
                    let escape = escape_direction(arena, body.pos, away, t.wall_margin);
                    s.escape = Some(escape);
                    Decision::clear(escape, threat, "escape")
                }
            },
        }
    } else {
        s.wander = wander::jitter(s.wander, t.wander_radius, t.wander_jitter, senses.dt, rng);
        let target = wander::world_target(body.pos, body.heading, s.wander, t.wander_distance);
        // Turned inward near walls, harder the closer, so wanderers do not hug them.
        let dir = unit_or_zero(target - body.pos)
            + containment(senses.arena, body.pos, t.wall_margin * 2.0);
        Decision::clear(unit_or_zero(dir), target, "wander")
    }
}

/// Whether an evader at `pos` feels the player at `player` as a threat (it flees; otherwise it
/// wanders, drawing one number).
#[inline(always)]
pub fn threatened(pos: Vec2, player: Vec2, t: &EvadeTuning) -> bool {
    pos.distance(player) < t.threat_radius
}

/// How many numbers [`steer`] draws this tick for an evader at `pos`: one for the wander jitter
/// when not threatened.
pub fn draws(pos: Vec2, player: Vec2, t: &EvadeTuning) -> u8 {
    u8::from(!threatened(pos, player, t))
}

/// The evader's avoidance layer: its feelers (the walls every tick, the obstacles on its turn,
/// the last cast's hit held in between and brought nearer by the ground covered) bend `course`
/// along and away from the deepest hit; the force that steers it there.
#[inline(always)]
pub fn keep_clear(
    me: Me,
    s: &mut EvadeState,
    t: &EvadeTuning,
    senses: &Senses,
    course: Vec2,
) -> Vec2 {
    let (body, p, dt) = (me.body, me.vehicle, senses.dt);
    let speed = body.speed();
    let speed_frac = speed / p.max_speed.max(f32::EPSILON);
    let cfg = feeler_config(p, t);
    let rays = cfg.rays(body.pos, body.heading, speed_frac, 0.0);
    let felt = senses.feel(&mut s.held, &rays, cfg.sweep_radius(), speed * dt);
    s.felt = felt;
    let dir = felt.map_or(course, |f| feelers::deflect(course, &f));
    let error = dir * p.max_speed - body.vel;
    // (An urgent course is taken at once, as in mode 7.)
    let urgent = felt.is_some_and(|f| f.depth > URGENT_DEPTH);
    if urgent {
        within_a_tick(error, p.mass, dt)
    } else {
        error
    }
}

/// How far an evader stuck in a pocket looks all round for a way out: twice its feelers' reach.
pub fn pocket_look(p: &VehicleTuning, t: &EvadeTuning) -> f32 {
    2.0 * feeler_config(p, t).reach(1.0)
}

impl EvadeState {
    /// Its way out of a pocket has taken over: the sweeps proved the way clear, so the feelers
    /// would only turn it back into the pocket, and what it felt before is left behind (it casts
    /// afresh once out). Where the way out leads, for the aim.
    pub fn unstuck(&mut self, pos: Vec2) -> Vec2 {
        self.escape = None;
        self.felt = None;
        self.held.forget();
        self.unstick.escape.map_or(pos, |e| e.from + e.dir * e.run)
    }
}

/// The evaders' rays: a central feeler of `feeler_length` at full speed (two body diameters at
/// rest) and whiskers at ±35°, 60% as long.
pub fn feeler_config(p: &VehicleTuning, t: &EvadeTuning) -> feelers::Feelers {
    let min_length = p.radius * 2.0;
    let central = min_length.max(t.feeler_length);
    feelers::Feelers {
        layout: feelers::Layout::Whiskers,
        look_ahead: central - min_length,
        min_length,
        whisker_length: central * WHISKER_SCALE,
        whisker_angle: WHISKER_ANGLE_DEG.to_radians(),
        half_width: p.radius,
    }
}

/// Inward normals of the walls closer than `margin`.
fn near_walls(arena: &Arena, pos: Vec2, margin: f32) -> impl Iterator<Item = Vec2> {
    [
        (pos.x < margin, Vec2::X),
        (arena.width - pos.x < margin, Vec2::NEG_X),
        (pos.y < margin, Vec2::Y),
        (arena.height - pos.y < margin, Vec2::NEG_Y),
    ]
    .into_iter()
    .filter_map(|(near, n)| near.then_some(n))
}

/// `away` without its components into nearby walls, or `None` when the agent is cornered: little
/// is left, or what is left runs into another wall within twice the margin.
fn slide(arena: &Arena, pos: Vec2, away: Vec2, margin: f32) -> Option<Vec2> {
    let mut dir = away;
    let mut touched = false;
    for n in near_walls(arena, pos, margin) {
        let into = dir.dot(n);
        if into < 0.0 {
            dir -= n * into;
            touched = true;
        }
    }
    if !touched {
        return Some(away);
    }
    let dir = dir.try_normalize().filter(|_| dir.length() > 0.35)?;
    let room = arena
        .ray_cast_walls(pos, dir, margin * 2.0)
        .map_or(f32::INFINITY, |h| h.t);
    (room > margin).then_some(dir)
}

/// Out along a nearby wall: of the tangents of the walls within reach (that do not run into
/// another near wall), the one least toward the threat, with more open room breaking near-ties.
fn escape_direction(arena: &Arena, pos: Vec2, away: Vec2, margin: f32) -> Vec2 {
    let reach = margin * 2.0;
    // (An iterator over at most four walls, walked again for each tangent: nothing allocated.)
    let walls = || near_walls(arena, pos, reach);
    let extent = arena.width.max(arena.height);
    let mut best: Option<(f32, Vec2)> = None;
    for n in walls() {
        for t in [n.perp(), -n.perp()] {
            if walls().any(|m| t.dot(m) < -0.5) {
                continue;
            }
            let room = arena
                .ray_cast_walls(pos, t, extent * 2.0)
                .map_or(extent, |h| h.t);
            let score = t.dot(away) + 0.5 * room / extent;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, t));
            }
        }
    }
    best.map_or(away, |(_, t)| t)
}
