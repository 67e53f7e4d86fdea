//! `pathfind` in the window: the search of the chaser nearest the player run again (it is
//! deterministic, so the sets it shows are the ones that chaser's plan came from) and drawn the
//! way Red Blob Games draws its searches — the closed set filled, the open set (the frontier)
//! brighter round its edge, the raw tile path and the smoothed one over them; in a crowd, the
//! flow field's arrows. And the panel naming the search, the tiles it closed and its time.

use super::camera::{Camera, HUD_HEIGHT};
use super::palette::{DIM, PANEL_BG, TEXT};
use crate::sim::agent::Behaviour;
use crate::sim::mode::Mode;
use crate::sim::path::{self, FlowField, Order, Search, TileState};
use crate::sim::world::World;
use glam::{IVec2, Vec2};
use macroquad::prelude::{
    Color, draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines,
    draw_text, measure_text,
};
use std::time::Instant;

const CLOSED: Color = Color::new(0.30, 0.50, 0.95, 0.22);
const OPEN: Color = Color::new(0.40, 0.95, 0.60, 0.38);
const RAW: Color = Color::new(0.95, 0.60, 0.25, 0.85);
const SMOOTH: Color = Color::new(1.0, 0.92, 0.35, 1.0);
const ARROW: Color = Color::new(0.80, 0.85, 1.0, 0.35);
const GOAL: Color = Color::new(0.35, 0.85, 1.0, 0.9);
/// Times a shown search is run for its timing; the fastest counts (the others met a cold cache
/// or the scheduler).
const TIMING_RUNS: usize = 5;

/// The shown search and its figures, kept from frame to frame.
#[derive(Debug, Default)]
pub struct PathView {
    search: Search,
    field: FlowField,
    tiles: Vec<IVec2>,
    corners: Vec<Vec2>,
    /// The chaser shown and the tiles its search ran between.
    shown: Option<(u32, IVec2, IVec2)>,
    /// Where that chaser is.
    at: Vec2,
    found: bool,
    order: Order,
    expanded: usize,
    search_us: f32,
    field_us: f32,
}

impl PathView {
    /// Run the nearest chaser's search again (and, in a crowd, the field's build) for this frame.
    pub fn update(&mut self, world: &World) {
        self.shown = None;
        if world.mode != Mode::Pathfind {
            return;
        }
        let tiles = &world.arena.tiles;
        let goal = world.path_goal();
        let player = world.player.pos;
        let flows = world.flows();
        let nearest = world
            .agents
            .iter()
            .filter_map(|a| {
                let Behaviour::Path(chase) = &a.behaviour else {
                    return None;
                };
                (flows || chase.planned).then_some((a, chase))
            })
            .min_by(|a, b| {
                let d = |x: &crate::sim::agent::Agent| x.body.pos.distance_squared(player);
                d(a.0).total_cmp(&d(b.0))
            });
        let Some((agent, chase)) = nearest else {
            return;
        };
        let (from, to) = if flows {
            (tiles.nearest_free(tiles.tile_of(agent.body.pos)), goal)
        } else {
            (chase.from, chase.goal)
        };
        self.order = world.paths.order;
        let mut fastest = f32::INFINITY;
        for _ in 0..TIMING_RUNS {
            let started = Instant::now();
            self.found = self
                .search
                .find(tiles, from, to, self.order, &mut self.tiles)
                .is_some();
            fastest = fastest.min(started.elapsed().as_secs_f32() * 1e6);
        }
        self.search_us = fastest;
        self.expanded = self.search.expanded();
        // (The chaser's own corners when it planned with this search; paused after `V`, the
        // corners the new search's path would give.)
        path::smooth(
            &world.arena,
            &self.tiles,
            world.tuning.chaser.radius,
            &mut self.corners,
        );
        if flows {
            let started = Instant::now();
            self.field.build(tiles, goal);
            self.field_us = started.elapsed().as_secs_f32() * 1e6;
        }
        self.shown = Some((agent.id, from, to));
        self.at = agent.body.pos;
    }

    /// The overlay: the shown search's sets and paths; in a crowd, the field's arrows first.
    pub fn draw(&self, world: &World, cam: &Camera) {
        let Some((_, from, to)) = self.shown else {
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
                let color = match self.search.state(t) {
                    TileState::Closed => CLOSED,
                    TileState::Open => OPEN,
                    TileState::Unseen => continue,
                };
                let s = cam.to_screen(t.as_vec2() * tiles.size);
                draw_rectangle(s.x + 1.0, s.y + 1.0, size - 2.0, size - 2.0, color);
            }
        }
        for w in self.tiles.windows(2) {
            let (a, b) = (
                cam.to_screen(tiles.center(w[0])),
                cam.to_screen(tiles.center(w[1])),
            );
            draw_line(a.x, a.y, b.x, b.y, 2.0, RAW);
            draw_circle(a.x, a.y, 2.5, RAW);
        }
        for w in self.corners.windows(2) {
            let (a, b) = (cam.to_screen(w[0]), cam.to_screen(w[1]));
            draw_line(a.x, a.y, b.x, b.y, 3.0, SMOOTH);
        }
        for c in &self.corners {
            let s = cam.to_screen(*c);
            draw_circle(s.x, s.y, 4.5, SMOOTH);
        }
        let at = cam.to_screen(self.at);
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

    /// The panel: the search, the tiles it closed and its time; in a crowd, the field's too.
    pub fn panel(&self, world: &World) {
        if world.mode != Mode::Pathfind {
            return;
        }
        let mut lines = vec![format!(
            "search: {}   (V: {})",
            self.order.label(),
            self.order.next().label()
        )];
        match self.shown {
            Some((id, ..)) => {
                let who = if world.flows() {
                    format!("chaser {id} nearest you, if it searched alone")
                } else {
                    format!("chaser {id} nearest you")
                };
                lines.push(format!(
                    "{who}: {} tiles expanded, {:.1} us per search{}",
                    self.expanded,
                    self.search_us,
                    if self.found { "" } else { ", no way" }
                ));
            }
            None => lines.push("no chaser has planned yet".to_string()),
        }
        if world.flows() {
            lines.push(format!(
                "crowd of {}: one flow field, {} tiles, {:.1} us per build",
                world.agents.len(),
                world.paths.field.expanded(),
                self.field_us
            ));
        } else {
            lines.push(format!(
                "{} searches so far, {:.1} tiles expanded each",
                world.paths.searches,
                world.paths.expanded as f64 / world.paths.searches.max(1) as f64
            ));
        }
        let width = lines
            .iter()
            .map(|l| measure_text(l, None, 16, 1.0).width)
            .fold(0.0, f32::max);
        let (x, y) = (8.0, HUD_HEIGHT + 8.0);
        draw_rectangle(
            x,
            y,
            width + 16.0,
            20.0 * lines.len() as f32 + 8.0,
            PANEL_BG,
        );
        for (i, l) in lines.iter().enumerate() {
            let color = if i == 0 { TEXT } else { DIM };
            draw_text(l, x + 8.0, y + 20.0 * (i as f32 + 1.0), 16.0, color);
        }
    }
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
