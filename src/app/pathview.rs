//! `pathfind` in the window: the search of the chaser nearest the player as the world traced it
//! (see `sim::trace::PathTrace`), drawn the way Red Blob Games draws its searches — the closed
//! set filled, the open set (the frontier) brighter round its edge, the raw tile path and the
//! smoothed one over them; in a crowd, the flow field's arrows. And the panel naming the search,
//! the tiles it closed and its time.

use super::camera::Camera;
use super::legend::{Key, Mark};
use super::palette::{DIM, PANEL_BG, TEXT};
use super::text;
use crate::sim::path::TileState;
use crate::sim::world::World;
use glam::{IVec2, Vec2};
use macroquad::math::Rect;
use macroquad::prelude::{
    Color, draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines,
};

const CLOSED: Color = Color::new(0.30, 0.50, 0.95, 0.22);
const OPEN: Color = Color::new(0.40, 0.95, 0.60, 0.38);
const RAW: Color = Color::new(0.95, 0.60, 0.25, 0.85);
const SMOOTH: Color = Color::new(1.0, 0.92, 0.35, 1.0);
const ARROW: Color = Color::new(0.80, 0.85, 1.0, 0.35);
const GOAL: Color = Color::new(0.35, 0.85, 1.0, 0.9);

/// The overlay: the shown search's sets and paths; in a crowd, the field's arrows first.
pub fn draw(world: &World, cam: &Camera) {
    let traced = world.path_trace();
    let Some((_, from, to)) = traced.shown else {
        return;
    };
    let tiles = &world.arena.tiles;
    let size = tiles.size * cam.scale;
    if world.flows() {
        let field = &world.paths.field;
        for y in 0..tiles.rows {
            for x in 0..tiles.cols {
                let t = IVec2::new(x, y);
                if tiles.blocked(t) {
                    continue;
                }
                if let Some(n) = field.step(t) {
                    let c = tiles.center(t);
                    let d = (n - t).as_vec2().normalize_or_zero() * tiles.size * 0.3;
                    arrow(cam.to_screen(c - d), cam.to_screen(c + d), ARROW);
                }
            }
        }
    }
    for y in 0..tiles.rows {
        for x in 0..tiles.cols {
            let t = IVec2::new(x, y);
            let color = match traced.search.state(t) {
                TileState::Closed => CLOSED,
                TileState::Open => OPEN,
                TileState::Unseen => continue,
            };
            let s = cam.to_screen(t.as_vec2() * tiles.size);
            draw_rectangle(s.x + 1.0, s.y + 1.0, size - 2.0, size - 2.0, color);
        }
    }
    for w in traced.tiles.windows(2) {
        let (a, b) = (
            cam.to_screen(tiles.center(w[0])),
            cam.to_screen(tiles.center(w[1])),
        );
        draw_line(a.x, a.y, b.x, b.y, 2.0, RAW);
        draw_circle(a.x, a.y, 2.5, RAW);
    }
    for w in traced.corners.windows(2) {
        let (a, b) = (cam.to_screen(w[0]), cam.to_screen(w[1]));
        draw_line(a.x, a.y, b.x, b.y, 3.0, SMOOTH);
    }
    for c in &traced.corners {
        let s = cam.to_screen(*c);
        draw_circle(s.x, s.y, 4.5, SMOOTH);
    }
    let at = cam.to_screen(traced.at);
    draw_circle_lines(
        at.x,
        at.y,
        2.2 * world.tuning.chaser.radius * cam.scale,
        2.0,
        SMOOTH,
    );
    for (t, color) in [(from, RAW), (to, GOAL)] {
        let s = cam.to_screen(t.as_vec2() * tiles.size);
        draw_rectangle_lines(s.x + 1.0, s.y + 1.0, size - 2.0, size - 2.0, 2.5, color);
    }
}

/// The panel's text: the search, the tiles it closed and its time; in a crowd, the field's too.
fn lines(world: &World) -> Vec<String> {
    let traced = world.path_trace();
    let mut lines = vec![format!(
        "search: {}   (V: {})",
        traced.order.label(),
        traced.order.next().label()
    )];
    match traced.shown {
        Some((id, ..)) => {
            let who = if world.flows() {
                format!("chaser {id} nearest you, if it searched alone")
            } else {
                format!("chaser {id} nearest you")
            };
            lines.push(format!(
                "{who}: {} tiles expanded, {:.1} us per search{}",
                traced.expanded,
                traced.search_us,
                if traced.found { "" } else { ", no way" }
            ));
        }
        None => lines.push("no chaser has planned yet".to_string()),
    }
    if world.flows() {
        lines.push(format!(
            "crowd of {}: one flow field, {} tiles, {:.1} us per build",
            world.agents.len(),
            world.paths.field.expanded(),
            traced.field_us
        ));
    } else {
        lines.push(format!(
            "{} searches so far, {:.1} tiles expanded each",
            world.paths.searches,
            world.paths.expanded as f64 / world.paths.searches.max(1) as f64
        ));
    }
    lines
}

/// The panel's lines wrapped to `width`, the first (the search's name) bright.
pub fn wrapped(world: &World, width: f32) -> Vec<(String, Color)> {
    let mut out = Vec::new();
    for (i, l) in lines(world).iter().enumerate() {
        let color = if i == 0 { TEXT } else { DIM };
        out.extend(text::wrap(l, width - 16.0).into_iter().map(|w| (w, color)));
    }
    out
}

/// The panel's height for its wrapped lines.
pub fn height(lines: usize) -> f32 {
    text::LINE * lines as f32 + 10.0
}

/// The panel in `r`.
pub fn panel(lines: &[(String, Color)], r: Rect) {
    draw_rectangle(r.x, r.y, r.w, r.h, PANEL_BG);
    for (i, (l, color)) in lines.iter().enumerate() {
        text::draw(
            l,
            r.x + 8.0,
            r.y + 5.0 + text::ASCENT + text::LINE * i as f32,
            *color,
        );
    }
}

/// The legend's keys for the search as drawn above.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    if world.flows() {
        out.push(Key::new(ARROW, Mark::Line, "flow field: each tile's way"));
    }
    out.push(Key::new(CLOSED, Mark::Fill, "closed set (searched)"));
    out.push(Key::new(OPEN, Mark::Fill, "open set (frontier)"));
    out.push(Key::new(RAW, Mark::Line, "tile path"));
    out.push(Key::new(SMOOTH, Mark::Line, "smoothed path"));
    out.push(Key::new(GOAL, Mark::Ring, "goal"));
}

fn arrow(a: Vec2, b: Vec2, color: Color) {
    draw_line(a.x, a.y, b.x, b.y, 1.0, color);
    let d = (b - a).normalize_or_zero() * 4.0;
    let side = d.perp();
    for s in [side, -side] {
        let h = b - d + s * 0.6;
        draw_line(b.x, b.y, h.x, h.y, 1.0, color);
    }
}
