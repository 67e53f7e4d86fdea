//! The overlay of the crowds that move together: for the few members nearest the player, whom
//! they heed (the neighbour radius and the view cone, a line to each neighbour counted and how
//! many) and the urges as coloured vectors; round the player, the predator's threat radius, the
//! leader's corridor and the point behind it, or the swarm's hold; and the swarm's `F(r)` curve
//! with its equilibrium marked.

use super::camera::Camera;
use super::labels::Labels;
use super::legend::{Key, Mark};
use super::palette::{LABEL, NEIGHBOUR, SIGHT, THREAT};
use super::text;
use crate::data::crowds::FlockParams;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::swarm;
use crate::sim::mode::Mode;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::math::Rect;
use macroquad::prelude::{
    Color, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines,
};

/// How many members, the nearest the player, the overlay explains in full.
const EXPLAINED: usize = 5;
/// A force is drawn as the velocity change it makes in this many seconds...
const FORCE_SECONDS: f32 = 0.25;
/// ...but no longer than this (px on screen): separation is unclamped, and in a packed crowd it
/// would run off the screen.
const LONGEST_ARROW: f32 = 120.0;
pub const SEPARATION: Color = Color::new(1.0, 0.35, 0.35, 0.95);
pub const ALIGNMENT: Color = Color::new(0.35, 0.65, 1.0, 0.95);
pub const COHESION: Color = Color::new(1.0, 0.85, 0.25, 0.95);
const FLEE: Color = Color::new(1.0, 0.55, 0.15, 0.95);
const FOLLOW: Color = Color::new(0.80, 0.55, 1.0, 0.95);
const CORRIDOR: Color = Color::new(0.80, 0.55, 1.0, 0.35);
const PANEL: Color = Color::new(0.06, 0.07, 0.09, 0.85);
const AXIS: Color = Color::new(1.0, 1.0, 1.0, 0.35);
const CURVE: Color = Color::new(0.35, 0.85, 1.0, 1.0);
const REPULSION: Color = Color::new(1.0, 0.35, 0.35, 0.25);
const ATTRACTION: Color = Color::new(0.35, 1.0, 0.55, 0.2);
/// Samples of the `F(r)` curve.
const CURVE_SAMPLES: usize = 96;

/// The flock's or swarm's overlay (nothing in other modes).
pub fn draw(world: &World, player: Vec2, cam: &Camera, alpha: f32, labels: &mut Labels) {
    match world.mode {
        Mode::Flock => flock(world, player, cam, alpha, labels),
        Mode::Swarm => swarm(world, player, cam, alpha, labels),
        Mode::TileChase
        | Mode::TileLos
        | Mode::LosChase
        | Mode::Intercept
        | Mode::Evade
        | Mode::Wander
        | Mode::Avoid
        | Mode::Galaga
        | Mode::Patterns
        | Mode::Mixed
        | Mode::Pathfind
        | Mode::Fsm
        | Mode::Hide
        | Mode::Crowd
        | Mode::Formation
        | Mode::Pathway => {}
    }
}

/// The members the overlay explains, for the world to trace: the few nearest the player (by
/// index and id).
pub fn explained(world: &World) -> impl Iterator<Item = (usize, u32)> + '_ {
    let mut near: Vec<(f32, usize)> = world
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.body.pos.distance_squared(world.player.pos), i))
        .collect();
    let keep = EXPLAINED.min(near.len());
    if keep > 0 && keep < near.len() {
        near.select_nth_unstable_by(keep - 1, |a, b| a.0.total_cmp(&b.0));
    }
    near.truncate(keep);
    near.into_iter().map(|(_, i)| (i, world.agents[i].id))
}

/// The members nearest the player, nearest first, with their drawn positions.
fn nearest(world: &World, player: Vec2, alpha: f32) -> Vec<(usize, &Agent, Vec2)> {
    let mut near: Vec<(f32, usize)> = world
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.body.pos.distance_squared(player), i))
        .collect();
    let keep = EXPLAINED.min(near.len());
    if keep > 0 && keep < near.len() {
        near.select_nth_unstable_by(keep - 1, |a, b| a.0.total_cmp(&b.0));
    }
    near.truncate(keep);
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.into_iter()
        .map(|(_, i)| {
            let a = &world.agents[i];
            (i, a, a.prev_pos.lerp(a.body.pos, alpha))
        })
        .collect()
}

fn flock(world: &World, player: Vec2, cam: &Camera, alpha: f32, labels: &mut Labels) {
    let fp = &world.tuning.flock;
    let p = cam.to_screen(player);
    if world.flip {
        draw_circle_lines(p.x, p.y, fp.threat_radius * cam.scale, 1.5, THREAT);
    }
    if world.lead {
        leader(fp, player, world.flocking.leader_heading, cam);
    }
    let mass = world.tuning.boid.mass.max(f32::EPSILON);
    for (i, a, pos) in nearest(world, player, alpha) {
        let Behaviour::Boid(mind) = &a.behaviour else {
            continue;
        };
        let s = cam.to_screen(pos);
        // (Whom it heeds and its view are drawn with its trace.)
        let heard = world.trace_of(i).map_or(0, |t| t.heeded);
        let f = &mind.forces;
        let arrow = |v: Vec2, color: Color| {
            if v != Vec2::ZERO {
                let e = s + (v / mass * FORCE_SECONDS * cam.scale).clamp_length_max(LONGEST_ARROW);
                draw_line(s.x, s.y, e.x, e.y, 2.5, color);
            }
        };
        arrow(f.separation, SEPARATION);
        arrow(f.alignment, ALIGNMENT);
        arrow(f.cohesion, COHESION);
        arrow(f.flee, FLEE);
        arrow(f.follow, FOLLOW);
        labels.line(heard.to_string(), LABEL, s);
    }
}

/// The neighbour disc cut to the view: the arc and, short of a full circle, its two edges.
pub fn cone(pos: Vec2, heading: Vec2, radius: f32, fov_deg: f32, cam: &Camera) {
    let half = fov_deg.clamp(0.0, 360.0).to_radians() * 0.5;
    if half <= 0.0 {
        return;
    }
    let s = cam.to_screen(pos);
    let at = |angle: f32| cam.to_screen(pos + Vec2::from_angle(angle).rotate(heading) * radius);
    let steps = 32;
    let mut last = at(-half);
    for k in 1..=steps {
        let next = at(-half + 2.0 * half * k as f32 / steps as f32);
        draw_line(last.x, last.y, next.x, next.y, 1.0, SIGHT);
        last = next;
    }
    if fov_deg < 360.0 {
        for edge in [at(-half), at(half)] {
            draw_line(s.x, s.y, edge.x, edge.y, 1.0, SIGHT);
        }
    }
}

/// The leader's path corridor ahead of it and the point its followers gather at behind it.
fn leader(fp: &FlockParams, player: Vec2, heading: Vec2, cam: &Camera) {
    let side = heading.perp() * fp.corridor_half_width;
    let ahead = heading * fp.corridor_length;
    let corners = [
        player + side,
        player + side + ahead,
        player - side + ahead,
        player - side,
    ];
    for k in 0..4 {
        let (a, b) = (
            cam.to_screen(corners[k]),
            cam.to_screen(corners[(k + 1) % 4]),
        );
        draw_line(a.x, a.y, b.x, b.y, 1.5, CORRIDOR);
    }
    let behind = cam.to_screen(player - heading * fp.leader_offset);
    draw_circle_lines(behind.x, behind.y, 6.0, 2.0, FOLLOW);
}

fn swarm(world: &World, player: Vec2, cam: &Camera, alpha: f32, labels: &mut Labels) {
    let sp = &world.tuning.swarm;
    let p = cam.to_screen(player);
    draw_circle_lines(p.x, p.y, world.flocking.hold * cam.scale, 1.5, THREAT);
    // Desired velocities, drawn as the velocity change they ask for over `FORCE_SECONDS` (the
    // swarm closes on them in `response_s`).
    let per_speed = FORCE_SECONDS / sp.response_s.max(1e-3);
    for (_, a, pos) in nearest(world, player, alpha) {
        let Behaviour::Swarmer(mind) = &a.behaviour else {
            continue;
        };
        // (Its range is drawn with its trace.)
        let s = cam.to_screen(pos);
        let f = &mind.forces;
        let arrow = |v: Vec2, color: Color| {
            if v != Vec2::ZERO {
                let e = s + (v * per_speed * cam.scale).clamp_length_max(LONGEST_ARROW);
                draw_line(s.x, s.y, e.x, e.y, 2.5, color);
            }
        };
        arrow(f.neighbours, SEPARATION);
        arrow(f.player, ALIGNMENT);
        arrow(f.pull, COHESION);
        arrow(mind.obstacle, FLEE);
        labels.line(f.felt.to_string(), LABEL, s);
    }
}

/// The legend's keys for the flock's or swarm's overlay, in the colours drawn above.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    let forces: &[(Color, &str)] = match world.mode {
        Mode::Flock => &[
            (SEPARATION, "separation"),
            (ALIGNMENT, "alignment"),
            (COHESION, "cohesion"),
            (FLEE, "flee"),
            (FOLLOW, "follow"),
        ],
        Mode::Swarm => &[
            (SEPARATION, "neighbours' F"),
            (ALIGNMENT, "player's body"),
            (COHESION, "pull to player"),
            (FLEE, "obstacles"),
        ],
        Mode::TileChase
        | Mode::TileLos
        | Mode::LosChase
        | Mode::Intercept
        | Mode::Evade
        | Mode::Wander
        | Mode::Avoid
        | Mode::Galaga
        | Mode::Patterns
        | Mode::Mixed
        | Mode::Pathfind
        | Mode::Fsm
        | Mode::Hide
        | Mode::Crowd
        | Mode::Formation
        | Mode::Pathway => return,
    };
    for &(color, name) in forces {
        out.push(Key::new(color, Mark::Line, name));
    }
    out.push(Key::new(SIGHT, Mark::Ring, "neighbour radius, view"));
    out.push(Key::new(NEIGHBOUR, Mark::Line, "neighbour heeded"));
    out.push(Key::new(LABEL, Mark::Text, "how many it heeds"));
    // (Only the flock and the swarm come this far.)
    if world.mode == Mode::Swarm {
        out.push(Key::new(THREAT, Mark::Ring, "hold circle"));
    } else if world.flip {
        out.push(Key::new(THREAT, Mark::Ring, "threat radius"));
    } else if world.lead {
        out.push(Key::new(CORRIDOR, Mark::Line, "your path corridor"));
        out.push(Key::new(FOLLOW, Mark::Ring, "point behind you"));
    }
}

/// The height of the `F(r)` panel.
pub const CURVE_HEIGHT: f32 = 170.0;

/// `F(r)` over 0…3 r* (or the range), sampled by the swarm's own drawing aid from the tuning
/// alone (no member's state), repulsion shaded above the axis and attraction below,
/// the equilibrium marked, in the panel `r`.
pub fn curve(world: &World, r: Rect) {
    let sp = &world.tuning.swarm;
    let length = (2.0 * world.tuning.boid.radius).max(1.0);
    let (x0, y0, w, h) = (r.x, r.y, r.w, r.h);
    draw_rectangle(x0, y0, w, h, PANEL);
    draw_rectangle_lines(x0, y0, w, h, 1.0, AXIS);
    let eq = swarm::equilibrium(sp);
    let r_max = (eq.unwrap_or(sp.range) * 3.0).max(sp.range).max(0.5);
    let mut samples = [(0.0f32, 0.0f32); CURVE_SAMPLES];
    swarm::sample_curve(sp, r_max, &mut samples);
    // The vertical scale: the largest attraction, and as much again above for repulsion (the
    // repulsion near r = 0 runs off the top, clipped).
    let pull = samples.iter().map(|s| -s.1).fold(0.0f32, f32::max);
    let scale = if pull > 0.0 { pull * 2.0 } else { 1.0 };
    let (left, right) = (x0 + 28.0, x0 + w - 10.0);
    let (top, bottom) = (y0 + 26.0, y0 + h - 24.0);
    let axis_y = (top + bottom) * 0.5;
    let to_screen = |r: f32, f: f32| {
        let x = left + (right - left) * r / r_max;
        let y = axis_y - (f / scale).clamp(-1.0, 1.0) * (bottom - top) * 0.5;
        Vec2::new(x, y)
    };
    draw_line(left, axis_y, right, axis_y, 1.0, AXIS);
    draw_line(left, top, left, bottom, 1.0, AXIS);
    let mut last: Option<Vec2> = None;
    for &(r, f) in &samples {
        let at = to_screen(r, f);
        let band = if f > 0.0 { REPULSION } else { ATTRACTION };
        draw_line(at.x, axis_y, at.x, at.y, 2.0, band);
        if let Some(l) = last {
            draw_line(l.x, l.y, at.x, at.y, 2.0, CURVE);
        }
        last = Some(at);
    }
    let title = format!(
        "F(r) = -{:.0}/r^{:.1} + {:.0}/r^{:.1}",
        sp.a, sp.n, sp.b, sp.m
    );
    text::draw(&text::fit(&title, w - 16.0), x0 + 8.0, y0 + 16.0, LABEL);
    let foot = match eq {
        Some(r) => {
            let at = to_screen(r, 0.0);
            draw_line(at.x, top, at.x, bottom, 1.5, COHESION);
            format!("r* = {r:.2} lengths = {:.0} px", r * length)
        }
        None => "no equilibrium: needs A, B > 0 and m > n".to_string(),
    };
    text::draw(&text::fit(&foot, w - 16.0), x0 + 8.0, y0 + h - 7.0, LABEL);
    text::draw("apart", left + 4.0, top + text::ASCENT, AXIS);
    text::draw("together", left + 4.0, bottom - text::DESCENT, AXIS);
}
