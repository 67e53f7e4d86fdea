//! Where the world lands on the screen: the arena letterboxed into the window below the HUD band.
//! Plain geometry that both the world's drawing and the silhouettes use, so neither of them has
//! to reach into the other for it.

use glam::Vec2;
use macroquad::prelude::{screen_height, screen_width};

/// Height of the HUD band above the arena, in screen pixels.
pub const HUD_HEIGHT: f32 = 52.0;

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
