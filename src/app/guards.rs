//! The `fsm` mode on screen: the pickups, each guard's vision cone in its state's colour (cut
//! where obstacles block the sight), and with the overlay each guard's last-seen marker and
//! planned path, and the live diagram of the machine in a corner — states as circles with how
//! many guards are in each, transitions as arrows, the ones that just fired lit.

use super::camera::Camera;
use super::labels::Labels;
use super::legend::{Key, Mark};
use super::palette;
use super::palette::{DIM, TEXT};
use super::text;
use crate::data::fsm::GuardBehaviour;
use crate::sim::agent::Agent;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::math::Rect;
use macroquad::prelude::{
    Color, draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines,
    draw_triangle,
};

/// How long (simulated seconds) a transition stays lit in the diagram after it fired.
const LIT_SECONDS: f64 = 1.5;
const LIT: Color = Color::new(1.0, 1.0, 1.0, 1.0);
const ARROW: Color = Color::new(0.62, 0.66, 0.75, 0.55);
const PICKUP: Color = Color::new(1.0, 0.85, 0.25, 1.0);
const PICKUP_AWAY: Color = Color::new(1.0, 0.85, 0.25, 0.25);
/// The diagram's box height (screen px) and its circles.
const BOX_H: f32 = 225.0;
const STATE_R: f32 = 18.0;
const BOX_BG: Color = Color::new(0.03, 0.04, 0.06, 0.8);

/// The colour of what a state does.
pub fn color(b: GuardBehaviour) -> Color {
    match b {
        GuardBehaviour::Patrol => palette::GREEN,
        GuardBehaviour::Chase => palette::VERMILLION,
        GuardBehaviour::Search => palette::YELLOW,
        GuardBehaviour::Flee => palette::SKY,
        GuardBehaviour::Return => palette::PURPLE,
    }
}

fn faded(c: Color, a: f32) -> Color {
    Color { a, ..c }
}

/// Under the agents: the pickups (a taken one faint, with the seconds until it is back) and
/// every guard's cone.
pub fn floor(world: &World, cam: &Camera, alpha: f32) {
    let r = world.tuning.fsm.pickup_radius * cam.scale;
    for p in &world.fsm.pickups {
        let s = cam.to_screen(p.pos);
        if p.present() {
            draw_circle(s.x, s.y, r * 0.6, PICKUP);
            draw_circle_lines(s.x, s.y, r, 2.0, PICKUP);
        } else {
            draw_circle_lines(s.x, s.y, r, 1.0, PICKUP_AWAY);
            let back = p.away as f32 * world.dt;
            let back = format!("{back:.0}");
            let x = s.x - text::width(&back) * 0.5;
            text::draw(&back, x, s.y + text::ASCENT * 0.5, PICKUP_AWAY);
        }
    }
    for (i, a) in world.agents.iter().enumerate() {
        if let Some(g) = a.behaviour.guard()
            && let Some(t) = world.trace_of(i)
        {
            let eye = a.prev_pos.lerp(a.body.pos, alpha);
            cone(eye, eye - a.body.pos, &t.fan, color(g.doing), cam);
        }
    }
}

/// A vision cone from `eye` to the ends of its traced rays (each stopped by the first obstacle
/// it met), moved by `shift` to where the guard is drawn.
fn cone(eye: Vec2, shift: Vec2, fan: &[Vec2], c: Color, cam: &Camera) {
    let Some((&first, rest)) = fan.split_first() else {
        return;
    };
    let e = cam.to_screen(eye);
    let fill = faded(c, 0.13);
    let edge = faded(c, 0.45);
    let mut last = cam.to_screen(first + shift);
    draw_line(e.x, e.y, last.x, last.y, 1.0, edge);
    for &end in rest {
        let next = cam.to_screen(end + shift);
        draw_triangle(e, last, next, fill);
        draw_line(last.x, last.y, next.x, next.y, 1.0, edge);
        last = next;
    }
    draw_line(e.x, e.y, last.x, last.y, 1.0, edge);
}

/// The overlay for one guard at `pos`: where it last saw the player (a cross with the seconds
/// since), and the path it walks while searching or returning.
pub fn overlay(a: &Agent, pos: Vec2, cam: &Camera, labels: &mut Labels) {
    let Some(g) = a.behaviour.guard() else {
        return;
    };
    let c = color(g.doing);
    if let Some(seen) = g.mind.last_seen {
        let s = cam.to_screen(seen);
        let r = 7.0;
        draw_line(s.x - r, s.y - r, s.x + r, s.y + r, 2.0, LIT);
        draw_line(s.x - r, s.y + r, s.x + r, s.y - r, 2.0, LIT);
        labels.line(format!("{} seen {:.1}s", a.id, g.mind.since_seen), LIT, s);
    }
    if matches!(g.doing, GuardBehaviour::Search | GuardBehaviour::Return) {
        let mut from = cam.to_screen(pos);
        for p in g.path.iter().skip(g.next) {
            let to = cam.to_screen(*p);
            draw_line(from.x, from.y, to.x, to.y, 1.5, faded(c, 0.8));
            draw_circle(to.x, to.y, 2.5, c);
            from = to;
        }
    }
    if g.doing == GuardBehaviour::Patrol {
        let s = cam.to_screen(g.goal);
        draw_circle_lines(s.x, s.y, 5.0, 1.0, faded(c, 0.8));
    }
}

/// The routes, faint, under the overlay.
pub fn routes(world: &World, cam: &Camera) {
    for route in world.fsm.machine.routes() {
        for i in 0..route.segment_count() {
            let (a, b) = route.segment(i);
            let (a, b) = (cam.to_screen(a), cam.to_screen(b));
            draw_line(a.x, a.y, b.x, b.y, 1.0, faded(palette::GREEN, 0.3));
        }
    }
}

/// The legend's keys for the guards: each state's colour (its cone, its body and its circle in
/// the diagram), the last sighting and the paths.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    let m = &world.fsm.machine;
    for s in m.states() {
        out.push(Key::new(color(m.behaviour(s)), Mark::Fill, m.name(s)));
    }
    out.push(Key::new(
        LIT,
        Mark::Text,
        "where it last saw you, seconds since",
    ));
    out.push(Key::new(
        faded(palette::GREEN, 0.3),
        Mark::Line,
        "patrol routes",
    ));
    out.push(Key::new(PICKUP, Mark::Ring, "pickup (power)"));
}

/// The diagram's height in the column.
pub const DIAGRAM_HEIGHT: f32 = BOX_H;

/// The live diagram of the machine in the panel `r`.
pub fn diagram(world: &World, r: Rect) {
    let m = &world.fsm.machine;
    let n = m.state_count();
    let (x0, y0, box_w) = (r.x, r.y, r.w);
    draw_rectangle(x0, y0, box_w, BOX_H, BOX_BG);
    draw_rectangle_lines(x0, y0, box_w, BOX_H, 1.0, faded(TEXT, 0.15));
    // (Below the title line.)
    let centre = Vec2::new(x0 + box_w * 0.5, y0 + BOX_H * 0.5 + 12.0);
    let ring = (BOX_H * 0.5 - STATE_R - 22.0).max(10.0);
    let at = |k: usize| {
        let angle = -std::f32::consts::FRAC_PI_2 + std::f32::consts::TAU * k as f32 / n as f32;
        centre + Vec2::from_angle(angle) * ring
    };
    let now = world.tick;
    let lit_ticks = (LIT_SECONDS / f64::from(world.dt)).round() as u64;
    // Unlit arrows first, so the lit ones lie on top.
    let mut lit = Vec::new();
    for (i, t) in m.transitions().iter().enumerate() {
        let fired = world.fsm.fired_at.get(i).copied().flatten();
        match fired {
            Some(tick) if now.saturating_sub(tick) <= lit_ticks => lit.push((i, t)),
            _ => arrow(at(t.from.index()), at(t.to.index()), ARROW, 1.5),
        }
    }
    for (_, t) in &lit {
        arrow(at(t.from.index()), at(t.to.index()), LIT, 3.5);
    }
    for s in m.states() {
        let p = at(s.index());
        let c = color(m.behaviour(s));
        let count = world.fsm.in_state.get(s.index()).copied().unwrap_or(0);
        draw_circle(
            p.x,
            p.y,
            STATE_R,
            faded(c, if count > 0 { 0.9 } else { 0.3 }),
        );
        draw_circle_lines(p.x, p.y, STATE_R, 2.0, c);
        let number = count.to_string();
        let w = text::width(&number);
        text::draw(&number, p.x - w * 0.5, p.y + text::ASCENT * 0.5, TEXT);
        let name = m.name(s);
        let w = text::width(name);
        let below = if p.y > centre.y {
            STATE_R + 14.0
        } else {
            -STATE_R - 5.0
        };
        let x = (p.x - w * 0.5).clamp(x0 + 2.0, x0 + box_w - w - 2.0);
        text::draw(name, x, p.y + below, TEXT);
    }
    // The title, or while one is lit the latest transition and its condition.
    match lit
        .iter()
        .max_by_key(|(i, _)| world.fsm.fired_at.get(*i).copied().flatten())
    {
        Some((i, t)) => {
            let fired = format!("{} if {}", m.label(*i), t.condition.name());
            text::draw(&text::fit(&fired, box_w - 16.0), x0 + 8.0, y0 + 17.0, LIT);
        }
        None => {
            text::draw("state machine", x0 + 8.0, y0 + 17.0, DIM);
        }
    }
}

/// An arrow between two state circles, shifted to its right so that a pair of opposite
/// transitions shows as two arrows.
fn arrow(from: Vec2, to: Vec2, c: Color, width: f32) {
    let d = (to - from).normalize_or_zero();
    if d == Vec2::ZERO {
        return;
    }
    let side = -d.perp() * 5.0;
    let a = from + d * STATE_R + side;
    let b = to - d * (STATE_R + 2.0) + side;
    draw_line(a.x, a.y, b.x, b.y, width, c);
    let head = 9.0;
    let back = b - d * head;
    let wing = d.perp() * head * 0.5;
    draw_triangle(b, back + wing, back - wing, c);
}
