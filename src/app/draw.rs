//! Drawing the world: the arena letterboxed into the window, obstacles, the tile grid, the player
//! and agents as heading triangles, and the debug overlay of what each behaviour computed.

use super::View;
use crate::sim::arena::Obstacle;
use crate::sim::world::{Agent, Behaviour, World};
use glam::Vec2;
use macroquad::prelude::{
    Color, clear_background, draw_circle, draw_circle_lines, draw_line, draw_rectangle,
    draw_rectangle_lines, draw_text, draw_triangle, screen_height, screen_width,
};

/// Height of the HUD band above the arena, in screen pixels.
pub const HUD_HEIGHT: f32 = 52.0;

pub const BACKGROUND: Color = Color::new(0.06, 0.07, 0.09, 1.0);
pub const FLOOR: Color = Color::new(0.11, 0.12, 0.15, 1.0);
pub const OBSTACLE: Color = Color::new(0.33, 0.37, 0.45, 1.0);
pub const GRID: Color = Color::new(1.0, 1.0, 1.0, 0.07);
pub const PLAYER: Color = Color::new(0.35, 0.85, 1.0, 1.0);
pub const FLASH: Color = Color::new(1.0, 1.0, 1.0, 1.0);
pub const CHASER: Color = Color::new(0.95, 0.42, 0.30, 1.0);
pub const FLEER: Color = Color::new(0.95, 0.85, 0.30, 1.0);
pub const VELOCITY: Color = Color::new(0.35, 0.95, 0.45, 0.9);
pub const STEERING: Color = Color::new(1.0, 0.35, 0.75, 0.9);
pub const SIGHT: Color = Color::new(1.0, 1.0, 1.0, 0.18);
pub const LABEL: Color = Color::new(0.85, 0.88, 0.95, 0.9);

/// Overlay scales: a velocity is drawn as where it goes in this many seconds; a force as the
/// velocity change it makes in this many seconds.
const VELOCITY_SECONDS: f32 = 0.4;
const FORCE_SECONDS: f32 = 0.25;
/// Above this many agents the overlay leaves out per-agent text.
const LABEL_LIMIT: usize = 40;

/// World-to-screen transform that fits the arena below the HUD, letterboxed.
#[derive(Debug, Clone, Copy)]
pub struct Camera {
    pub scale: f32,
    pub offset: Vec2,
}

impl Camera {
    pub fn fit(arena: Vec2) -> Camera {
        let area = Vec2::new(screen_width(), (screen_height() - HUD_HEIGHT).max(1.0));
        let scale = (area.x / arena.x).min(area.y / arena.y).max(1e-3);
        let offset = Vec2::new(0.0, HUD_HEIGHT) + (area - arena * scale) * 0.5;
        Camera { scale, offset }
    }

    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.offset + p * self.scale
    }

    pub fn to_world(&self, s: Vec2) -> Vec2 {
        (s - self.offset) / self.scale
    }
}

pub fn world(world: &World, view: &View, alpha: f32) {
    clear_background(BACKGROUND);
    let arena = &world.arena;
    let cam = Camera::fit(arena.size());
    let origin = cam.to_screen(Vec2::ZERO);
    let size = arena.size() * cam.scale;
    draw_rectangle(origin.x, origin.y, size.x, size.y, FLOOR);
    if view.grid {
        grid(world, &cam);
    }
    for o in arena.obstacles() {
        obstacle(o, &cam);
    }
    draw_rectangle_lines(origin.x, origin.y, size.x, size.y, 2.0, OBSTACLE);

    let player = world.player.prev_pos.lerp(world.player.pos, alpha);
    if view.overlay {
        for a in &world.agents {
            overlay(a, a.prev_pos.lerp(a.body.pos, alpha), world, &cam);
        }
    }
    let r = world.tuning.chaser.radius;
    for a in &world.agents {
        let pos = a.prev_pos.lerp(a.body.pos, alpha);
        let color = match a.behaviour {
            Behaviour::Seek => CHASER,
            Behaviour::Flee => FLEER,
        };
        triangle(pos, a.body.heading, r, color, &cam);
    }
    let flash = world.player.flash > 0.0 && ((world.player.flash * 12.0) as u32).is_multiple_of(2);
    let p = cam.to_screen(player);
    let pr = world.tuning.player.radius * cam.scale;
    draw_circle(p.x, p.y, pr, if flash { FLASH } else { PLAYER });
    draw_circle_lines(p.x, p.y, pr, 2.0, BACKGROUND);
    if view.overlay {
        let v = cam.to_screen(player + world.player.vel * VELOCITY_SECONDS);
        draw_line(p.x, p.y, v.x, v.y, 2.0, VELOCITY);
    }
}

fn grid(world: &World, cam: &Camera) {
    let arena = &world.arena;
    let tile = arena.tile_size;
    let mut x = 0.0;
    while x <= arena.width {
        let a = cam.to_screen(Vec2::new(x, 0.0));
        let b = cam.to_screen(Vec2::new(x, arena.height));
        draw_line(a.x, a.y, b.x, b.y, 1.0, GRID);
        x += tile;
    }
    let mut y = 0.0;
    while y <= arena.height {
        let a = cam.to_screen(Vec2::new(0.0, y));
        let b = cam.to_screen(Vec2::new(arena.width, y));
        draw_line(a.x, a.y, b.x, b.y, 1.0, GRID);
        y += tile;
    }
}

fn obstacle(o: &Obstacle, cam: &Camera) {
    match *o {
        Obstacle::Circle { center, radius } => {
            let c = cam.to_screen(center);
            draw_circle(c.x, c.y, radius * cam.scale, OBSTACLE);
        }
        Obstacle::Rect { min, max } => {
            let a = cam.to_screen(min);
            let size = (max - min) * cam.scale;
            draw_rectangle(a.x, a.y, size.x, size.y, OBSTACLE);
        }
    }
}

/// An agent as a triangle pointing along its heading.
fn triangle(pos: Vec2, heading: Vec2, r: f32, color: Color, cam: &Camera) {
    let side = heading.perp();
    let tip = cam.to_screen(pos + heading * r * 1.7);
    let left = cam.to_screen(pos - heading * r + side * r * 0.8);
    let right = cam.to_screen(pos - heading * r - side * r * 0.8);
    draw_triangle(tip, left, right, color);
}

/// What the behaviour computed: the line of sight to its aim point, velocity, steering force,
/// and its state word.
fn overlay(a: &Agent, pos: Vec2, world: &World, cam: &Camera) {
    let p = cam.to_screen(pos);
    let aim = cam.to_screen(a.aim);
    draw_line(p.x, p.y, aim.x, aim.y, 1.0, SIGHT);
    let v = cam.to_screen(pos + a.body.vel * VELOCITY_SECONDS);
    draw_line(p.x, p.y, v.x, v.y, 2.0, VELOCITY);
    let mass = world.tuning.chaser.mass.max(f32::EPSILON);
    let f = cam.to_screen(pos + a.steer / mass * FORCE_SECONDS);
    draw_line(p.x, p.y, f.x, f.y, 2.0, STEERING);
    if world.agents.len() <= LABEL_LIMIT {
        draw_text(a.state, p.x + 12.0, p.y - 10.0, 16.0, LABEL);
    }
}
