//! Mode 9's trails: the last few seconds of each pattern walker's positions, kept by the window
//! (the simulation keeps no history) and drawn under the overlay.

use super::camera::Camera;
use super::palette::TRAIL;
use crate::sim::mode::Mode;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::prelude::draw_line;
use std::collections::VecDeque;

/// Seconds of trail the overlay keeps behind each pattern walker.
pub const TRAIL_SECONDS: f32 = 4.0;

/// The last few seconds of each agent's positions (mode 9's overlay), kept by the window.
#[derive(Debug, Default)]
pub struct Trails {
    points: Vec<VecDeque<Vec2>>,
}

impl Trails {
    /// Remember where every agent is after a tick (only in mode 9; cleared otherwise).
    pub fn record(&mut self, world: &World) {
        if world.mode != Mode::Patterns {
            self.points.clear();
            return;
        }
        let keep = (TRAIL_SECONDS / world.dt) as usize;
        self.points.resize_with(world.agents.len(), VecDeque::new);
        for (trail, a) in self.points.iter_mut().zip(&world.agents) {
            if a.respawned || trail.back().is_some_and(|p| p.distance(a.body.pos) > 64.0) {
                trail.clear();
            }
            trail.push_back(a.body.pos);
            while trail.len() > keep {
                trail.pop_front();
            }
        }
    }

    pub fn draw(&self, cam: &Camera) {
        for trail in &self.points {
            for (a, b) in trail.iter().zip(trail.iter().skip(1)) {
                let (a, b) = (cam.to_screen(*a), cam.to_screen(*b));
                draw_line(a.x, a.y, b.x, b.y, 1.5, TRAIL);
            }
        }
    }
}
