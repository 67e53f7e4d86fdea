//! The `pathway` mode in the window: the pathways drawn on the floor, their edges in the
//! overlay, the legend's rows for them, and the sketch a left-drag draws (a new pathway, sent to
//! the world as one command when the button comes up).

use super::camera::Camera;
use super::legend::{Key, Mark};
use super::palette::{PATHWAY, PATHWAY_CENTRE, PATHWAY_EDGE, SKETCH};
use crate::data::pathways::MAX_PATHWAY_POINTS;
use crate::sim::command::Command;
use crate::sim::mode::Mode;
use crate::sim::space::pathway::Pathway;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::prelude::{draw_circle, draw_line, draw_triangle};

/// A drag adds a point each time the pointer has moved this far in the arena (px).
const SKETCH_STEP: f32 = 16.0;
/// Segments of an edge's arc round a corner.
const ARC_STEPS: usize = 6;

/// The pathway a left-drag is drawing, in arena coordinates (empty: none).
#[derive(Debug, Default)]
pub struct Sketch {
    pub points: Vec<Vec2>,
}

impl Sketch {
    /// The left button went down at `at` in `pathway`: a new sketch starts there.
    pub fn begin(&mut self, at: Vec2, world: &World) {
        self.points.clear();
        if world.mode == Mode::Pathway && world.arena.contains(at) {
            self.points.push(at);
        }
    }

    /// Each frame: while the button is held the sketch follows the pointer (held inside the
    /// arena); when it comes up, the sketch becomes the command that draws it.
    pub fn follow(&mut self, held: bool, at: Vec2, world: &World) -> Option<Command> {
        let last = *self.points.last()?;
        if held {
            let at = at.clamp(Vec2::ZERO, world.arena.size());
            if at.distance(last) >= SKETCH_STEP && self.points.len() < MAX_PATHWAY_POINTS {
                self.points.push(at);
            }
            return None;
        }
        let points = std::mem::take(&mut self.points);
        (points.len() >= 2).then_some(Command::DrawPathway(points))
    }
}

/// The pathways on the floor in `pathway` (beneath the agents); with the overlay, their edges
/// and centre lines; and the sketch being drawn.
pub fn floor(world: &World, sketch: &Sketch, overlay: bool, cam: &Camera) {
    if world.mode != Mode::Pathway {
        return;
    }
    for way in &world.pathway.ways {
        band(way, cam);
    }
    if overlay {
        for way in &world.pathway.ways {
            edges(way, cam);
        }
    }
    for pair in sketch.points.windows(2) {
        let (a, b) = (cam.to_screen(pair[0]), cam.to_screen(pair[1]));
        draw_line(a.x, a.y, b.x, b.y, 2.0, SKETCH);
    }
}

/// The pathway's area: a quad along each segment and a disc at each point.
fn band(way: &Pathway, cam: &Camera) {
    let r = way.radius;
    for i in 0..way.segments() {
        let (a, b) = way.segment(i);
        let n = (b - a).normalize_or_zero().perp() * r;
        let [p, q, s, t] = [a + n, b + n, b - n, a - n].map(|v| cam.to_screen(v));
        draw_triangle(p, q, s, PATHWAY);
        draw_triangle(p, s, t, PATHWAY);
    }
    for &p in &way.points {
        let c = cam.to_screen(p);
        draw_circle(c.x, c.y, r * cam.scale, PATHWAY);
    }
}

/// The pathway's two edges — each segment's, offset by the radius each side, cut where the two
/// meet on the inside of a corner and joined by an arc round its outside — and its centre line,
/// where the two ways' lanes meet.
fn edges(way: &Pathway, cam: &Camera) {
    let r = way.radius;
    let n = way.segments();
    let line = |a: Vec2, b: Vec2, w: f32, color| {
        let (a, b) = (cam.to_screen(a), cam.to_screen(b));
        draw_line(a.x, a.y, b.x, b.y, w, color);
    };
    let tangent = |i: usize| {
        let (a, b) = way.segment(i);
        (b - a).normalize_or_zero()
    };
    // The corner where segment `i` ends: its turn to the next segment (none at an open end).
    let turn_after = |i: usize| -> Option<(f32, Vec2)> {
        if i + 1 >= n && !way.cyclic {
            return None;
        }
        let next = tangent((i + 1) % n);
        let turn = tangent(i).angle_between(next);
        (turn.is_finite() && turn.abs() > 1e-3).then_some((turn, next))
    };
    for i in 0..n {
        let (a, b) = way.segment(i);
        let t = tangent(i);
        line(a, b, 1.0, PATHWAY_CENTRE);
        let before = if i > 0 || way.cyclic {
            turn_after((i + n - 1) % n).map(|(turn, _)| (turn, tangent((i + n - 1) % n)))
        } else {
            None
        };
        let after = turn_after(i);
        for side in [1.0f32, -1.0] {
            let normal = t.perp() * side;
            // On the inside of a corner (the side it turns toward) the two edges meet at the
            // mitre point.
            let mitre = |other: Vec2, turn: f32, at: Vec2| {
                let m = other.perp() * side;
                let k = 1.0 + normal.dot(m);
                (side * turn > 0.0 && k > 0.1).then(|| at + (normal + m) * r / k)
            };
            let from = before
                .and_then(|(turn, prev)| mitre(prev, turn, a))
                .unwrap_or(a + normal * r);
            let to = after
                .and_then(|(turn, next)| mitre(next, turn, b))
                .unwrap_or(b + normal * r);
            line(from, to, 1.5, PATHWAY_EDGE);
            // Round the outside of the corner at `b`.
            if let Some((turn, _)) = after
                && side * turn < 0.0
            {
                let mut prev = b + normal * r;
                for k in 1..=ARC_STEPS {
                    let step = turn * k as f32 / ARC_STEPS as f32;
                    let next = b + Vec2::from_angle(step).rotate(normal) * r;
                    line(prev, next, 1.5, PATHWAY_EDGE);
                    prev = next;
                }
            }
        }
    }
}

/// The legend's rows for the pathway: its floor and, with the overlay, its edges and centre.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    if world.mode != Mode::Pathway {
        return;
    }
    out.push(Key::new(
        PATHWAY_EDGE,
        Mark::Line,
        "pathway's edge (radius)",
    ));
    out.push(Key::new(
        PATHWAY_CENTRE,
        Mark::Line,
        "centre line: each way keeps to its right",
    ));
}
