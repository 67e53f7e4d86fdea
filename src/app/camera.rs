//! Where the world lands on the screen: the arena letterboxed into its part of the window (see
//! `layout`). Plain geometry that both the world's drawing and the silhouettes use, so neither
//! of them has to reach into the other for it.

use glam::Vec2;
use macroquad::math::Rect;

/// World-to-screen transform that fits the arena into a part of the window, letterboxed.
#[derive(Debug, Clone, Copy)]
pub struct Camera {
    pub scale: f32,
    pub offset: Vec2,
}

impl Camera {
    pub fn fit(arena: Vec2, area: Rect) -> Camera {
        let room = Vec2::new(area.w.max(1.0), area.h.max(1.0));
        let scale = (room.x / arena.x).min(room.y / arena.y).max(1e-3);
        let offset = Vec2::new(area.x, area.y) + (room - arena * scale) * 0.5;
        Camera { scale, offset }
    }

    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.offset + p * self.scale
    }

    pub fn to_world(&self, s: Vec2) -> Vec2 {
        (s - self.offset) / self.scale
    }
}
