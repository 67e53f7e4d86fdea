//! The burst drawn where a catch (or a tag) happened: a ring that grows and fades and a spray of
//! sparks flying out from the point. Drawing only: the world never sees it.

use super::camera::Camera;
use glam::Vec2;
use macroquad::prelude::{Color, draw_circle, draw_circle_lines};

/// Seconds a burst lasts (of the world's time, at 1x).
pub const SECONDS: f32 = 0.8;
/// The ring's radius when the burst ends (screen pixels at scale 1).
pub const RING_RADIUS: f32 = 70.0;
/// Sparks in one burst.
pub const SPARKS: usize = 14;
/// The most bursts drawn at once (a crowd catching together draws the latest ones).
const MOST: usize = 32;

const CATCH: Color = Color::new(1.0, 0.35, 0.30, 1.0);
const TAG: Color = Color::new(0.45, 1.0, 0.55, 1.0);

#[derive(Debug, Clone, Copy)]
struct Burst {
    at: Vec2,
    age: f32,
    tag: bool,
}

/// The bursts under way.
#[derive(Debug, Default)]
pub struct Bursts {
    list: Vec<Burst>,
}

/// How a burst looks `age` seconds in: the ring's radius (px) and how opaque it and the sparks
/// are, easing out so it opens fast and settles; `None` once it is over.
pub fn shape(age: f32) -> Option<(f32, f32)> {
    if !(0.0..SECONDS).contains(&age) {
        return None;
    }
    let t = age / SECONDS;
    let eased = 1.0 - (1.0 - t) * (1.0 - t);
    Some((RING_RADIUS * eased, 1.0 - t))
}

/// Where spark `i` of a burst is, relative to the burst's point, when the ring has `radius`:
/// evenly spread around the circle, alternate sparks flying a little further.
pub fn spark(i: usize, radius: f32) -> Vec2 {
    let angle = i as f32 / SPARKS as f32 * std::f32::consts::TAU + 0.3;
    let reach = if i.is_multiple_of(2) { 1.15 } else { 0.8 };
    Vec2::from_angle(angle) * radius * reach
}

impl Bursts {
    /// A burst at world point `at`: a catch, or a tag (the player's win, drawn in green).
    pub fn add(&mut self, at: Vec2, tag: bool) {
        if self.list.len() >= MOST {
            self.list.remove(0);
        }
        self.list.push(Burst { at, age: 0.0, tag });
    }

    /// Let `seconds` of the world's time pass; finished bursts go.
    pub fn advance(&mut self, seconds: f32) {
        for b in &mut self.list {
            b.age += seconds.max(0.0);
        }
        self.list.retain(|b| shape(b.age).is_some());
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn draw(&self, cam: &Camera) {
        for b in &self.list {
            let Some((radius, alpha)) = shape(b.age) else {
                continue;
            };
            let base = if b.tag { TAG } else { CATCH };
            let color = Color { a: alpha, ..base };
            let at = cam.to_screen(b.at);
            // The ring keeps its screen size in a large arena, where the camera shrinks it.
            draw_circle_lines(at.x, at.y, radius, 3.0 * alpha + 1.0, color);
            draw_circle(
                at.x,
                at.y,
                (1.0 - alpha) * 10.0 + 2.0,
                Color {
                    a: alpha * 0.35,
                    ..base
                },
            );
            for i in 0..SPARKS {
                let p = at + spark(i, radius);
                draw_circle(p.x, p.y, 2.5 * alpha + 0.8, color);
            }
        }
    }
}
