//! How each kind of agent looks: a colour from a colour-blind-safe palette (Okabe & Ito) and a
//! silhouette drawn in code, rotated to the agent's heading. One table, used by the arena drawing
//! and the legend alike.

use super::camera::Camera;
use super::palette::{BLUE, GREEN, GREY, ORANGE, PURPLE, SKY, VERMILLION, WHITE, YELLOW};
use crate::sim::agent::Kind;
use crate::sim::mode::Mode;
use glam::Vec2;
use macroquad::models::{Mesh, Vertex, draw_mesh};
use macroquad::prelude::{Color, draw_triangle};

/// A silhouette, in units of the agent's radius, nose along +x: a list of triangles.
pub struct Shape(&'static [[[f32; 2]; 3]]);

/// Chasers in continuous space: a dart with a notched tail.
const DART: Shape = Shape(&[
    [[1.7, 0.0], [-1.0, 0.9], [-0.5, 0.0]],
    [[1.7, 0.0], [-0.5, 0.0], [-1.0, -0.9]],
]);
/// Tile agents: a square hull with a short nose.
const TANK: Shape = Shape(&[
    [[-0.9, -0.8], [0.9, -0.8], [0.9, 0.8]],
    [[-0.9, -0.8], [0.9, 0.8], [-0.9, 0.8]],
    [[0.9, -0.35], [1.5, 0.0], [0.9, 0.35]],
]);
/// Evaders: a kite.
const KITE: Shape = Shape(&[
    [[1.5, 0.0], [-0.2, 0.8], [-1.1, 0.0]],
    [[1.5, 0.0], [-1.1, 0.0], [-0.2, -0.8]],
]);
/// Wanderers and agents among obstacles: a beetle (body and head).
const BEETLE: Shape = Shape(&[
    [[1.0, 0.0], [-0.2, 0.85], [-1.0, 0.5]],
    [[1.0, 0.0], [-1.0, 0.5], [-1.0, -0.5]],
    [[1.0, 0.0], [-1.0, -0.5], [-0.2, -0.85]],
    [[1.5, 0.0], [1.0, 0.4], [1.0, -0.4]],
]);
/// Pattern walkers: a hexagonal buoy with a nose.
const BUOY: Shape = Shape(&[
    [[1.0, 0.0], [0.5, 0.87], [-0.5, 0.87]],
    [[1.0, 0.0], [-0.5, 0.87], [-1.0, 0.0]],
    [[1.0, 0.0], [-1.0, 0.0], [-0.5, -0.87]],
    [[1.0, 0.0], [-0.5, -0.87], [0.5, -0.87]],
    [[1.0, 0.3], [1.6, 0.0], [1.0, -0.3]],
]);
/// Galaga boss: broad swept wings.
const BOSS: Shape = Shape(&[
    [[1.2, 0.0], [-0.6, 1.4], [-0.2, 0.0]],
    [[1.2, 0.0], [-0.2, 0.0], [-0.6, -1.4]],
    [[0.4, 0.0], [-1.0, 0.5], [-1.0, -0.5]],
]);
/// Galaga escort: a butterfly, two wing pairs.
const ESCORT: Shape = Shape(&[
    [[0.2, 0.0], [1.0, 1.1], [-0.4, 0.9]],
    [[0.2, 0.0], [-0.4, -0.9], [1.0, -1.1]],
    [[0.0, 0.0], [-1.1, 0.8], [-0.8, 0.0]],
    [[0.0, 0.0], [-0.8, 0.0], [-1.1, -0.8]],
    [[1.2, 0.0], [-0.9, 0.25], [-0.9, -0.25]],
]);
/// Galaga drone: a bee, small wings on a long body.
const DRONE: Shape = Shape(&[
    [[1.3, 0.0], [-1.0, 0.35], [-1.0, -0.35]],
    [[0.3, 0.0], [-0.3, 0.9], [-0.5, 0.1]],
    [[0.3, 0.0], [-0.5, -0.1], [-0.3, -0.9]],
]);

/// Any agent in a big crowd (see `draw::DETAIL_LIMIT`): one triangle, nose along +x.
pub const SPECK: Shape = Shape(&[[[1.5, 0.0], [-1.0, 0.85], [-1.0, -0.85]]]);

/// One kind's look and its name in the legend.
pub struct Style {
    pub color: Color,
    pub shape: &'static Shape,
    pub name: &'static str,
}

/// The look of a `kind` of agent in `mode`. Reversed forms keep their kind's look. Galaga ships
/// wear arcade-like colours in mode 8; in the free-for-all the squadron is white, so every
/// colour there names one kind.
pub fn of(kind: Kind, mode: Mode) -> Style {
    let mut style = look(kind);
    if mode == Mode::Mixed && matches!(kind, Kind::Boss | Kind::Escort | Kind::Drone) {
        style.color = WHITE;
    }
    style
}

fn look(kind: Kind) -> Style {
    let (color, shape, name) = match kind {
        Kind::TileChase | Kind::TileEvade => (VERMILLION, &TANK, "tile chase"),
        Kind::TileLos | Kind::TileLosAway => (ORANGE, &TANK, "tile line of sight"),
        Kind::LosChase | Kind::Flee => (PURPLE, &DART, "line of sight"),
        Kind::Intercept | Kind::EvadePredict => (YELLOW, &DART, "intercept"),
        Kind::Evade => (SKY, &KITE, "evade"),
        Kind::Wander | Kind::WanderWaypoint => (GREEN, &BEETLE, "wander"),
        Kind::AvoidWander | Kind::AvoidChase => (BLUE, &BEETLE, "avoid"),
        Kind::Pattern | Kind::TilePattern => (GREY, &BUOY, "pattern"),
        Kind::Boid => (SKY, &DART, "boid"),
        Kind::Swarmer => (GREEN, &KITE, "swarmer"),
        Kind::Pathfind => (ORANGE, &DART, "pathfind"),
        // (Drawn in the colour of its state; see `guards::color`.)
        Kind::Guard => (WHITE, &DART, "guard"),
        Kind::Hider => (SKY, &KITE, "hider"),
        Kind::Bodyguard => (VERMILLION, &TANK, "bodyguard"),
        Kind::Walker => (PURPLE, &KITE, "walker"),
        Kind::Member => (GREEN, &DART, "member"),
        Kind::Pedestrian => (YELLOW, &KITE, "pedestrian"),
        Kind::Boss => (GREEN, &BOSS, "boss"),
        Kind::Escort => (VERMILLION, &ESCORT, "escort"),
        Kind::Drone => (SKY, &DRONE, "drone"),
    };
    Style { color, shape, name }
}

/// Draw a silhouette at `pos` (world), nose along unit `heading`, `r` world units per unit.
pub fn draw(shape: &Shape, pos: Vec2, heading: Vec2, r: f32, color: Color, cam: &Camera) {
    let side = heading.perp();
    let at = |p: [f32; 2]| cam.to_screen(pos + (heading * p[0] + side * p[1]) * r);
    for t in shape.0 {
        draw_triangle(at(t[0]), at(t[1]), at(t[2]), color);
    }
}

/// Triangles gathered into one mesh and drawn with a single call per chunk: 20,000 agents are a
/// handful of draw calls instead of one call per triangle.
pub struct Batch {
    mesh: Mesh,
}

/// Vertices per chunk (indices are u16, and the window's draw-call capacity is set above this).
pub const BATCH_VERTICES: usize = 30_000;

impl Default for Batch {
    fn default() -> Self {
        Batch {
            mesh: Mesh {
                vertices: Vec::with_capacity(BATCH_VERTICES),
                indices: Vec::with_capacity(BATCH_VERTICES),
                texture: None,
            },
        }
    }
}

impl Batch {
    /// Add a silhouette (world coordinates, like [`draw`]).
    pub fn shape(
        &mut self,
        shape: &Shape,
        pos: Vec2,
        heading: Vec2,
        r: f32,
        color: Color,
        cam: &Camera,
    ) {
        let side = heading.perp();
        for t in shape.0 {
            if self.mesh.vertices.len() + 3 > BATCH_VERTICES {
                self.flush();
            }
            for p in t {
                let s = cam.to_screen(pos + (heading * p[0] + side * p[1]) * r);
                self.mesh.indices.push(self.mesh.vertices.len() as u16);
                self.mesh
                    .vertices
                    .push(Vertex::new(s.x, s.y, 0.0, 0.0, 0.0, color));
            }
        }
    }

    /// Draw what has been gathered.
    pub fn flush(&mut self) {
        if !self.mesh.vertices.is_empty() {
            draw_mesh(&self.mesh);
            self.mesh.vertices.clear();
            self.mesh.indices.clear();
        }
    }
}

/// A silhouette in screen space (for the legend).
pub fn draw_icon(shape: &Shape, at: Vec2, r: f32, color: Color) {
    let cam = Camera {
        scale: 1.0,
        offset: Vec2::ZERO,
    };
    draw(shape, at, Vec2::new(0.0, -1.0), r, color, &cam);
}
