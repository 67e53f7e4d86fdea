//! The player: driven by the keyboard (accelerating towards the keyed direction) or by a script
//! (`--player`), kept inside the arena and sliding along obstacles.

use crate::data::tuning::PlayerTuning;
use crate::sim::space::arena::{Arena, Response};
use glam::Vec2;
use std::fmt;

/// Who drives the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// The keyboard (or nothing, headless: the player stays where it starts).
    Keys,
    /// Stands at the start point (the arena centre in the default arena).
    Still,
    /// Constant velocity on a course set by the seed, bouncing off walls and obstacles.
    Line,
    /// Orbits the arena centre.
    Circle,
    /// Alternates ±45° about its course every second, bouncing off walls.
    Zigzag,
    /// Runs from the nearest agent, pushed away from the walls so it does not corner itself.
    Flee,
    /// Runs at the nearest agent.
    Hunt,
}

impl Script {
    pub const ALL: &'static [Script] = &[
        Script::Still,
        Script::Line,
        Script::Circle,
        Script::Zigzag,
        Script::Flee,
        Script::Hunt,
        Script::Keys,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Script::Keys => "keys",
            Script::Still => "still",
            Script::Line => "line",
            Script::Circle => "circle",
            Script::Zigzag => "zigzag",
            Script::Flee => "flee",
            Script::Hunt => "hunt",
        }
    }

    pub fn parse(s: &str) -> Result<Script, String> {
        Script::ALL
            .iter()
            .copied()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Script::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown player script \"{s}\" (one of: {})",
                    names.join(", ")
                )
            })
    }
}

impl fmt::Display for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Orbit radius of the `circle` script as a fraction of the arena's shorter side.
const CIRCLE_ORBIT: f32 = 0.25;
/// The `zigzag` script's base course: along the x axis.
const ZIGZAG_ANGLE_DEG: f32 = 0.0;
/// The `zigzag` script switches side every this many seconds.
const ZIGZAG_PERIOD: f32 = 1.0;
/// Distance from a wall at which the `flee` script starts to turn away from it.
const FLEE_WALL_MARGIN: f32 = 120.0;

#[derive(Debug, Clone)]
pub struct Player {
    pub pos: Vec2,
    pub vel: Vec2,
    pub prev_pos: Vec2,
    pub script: Script,
    /// Seconds left of the catch flash.
    pub flash: f32,
    /// Course for `line` and `zigzag` (unit).
    course: Vec2,
    clock: f32,
}

impl Player {
    /// A player at `start`. `seed` picks the `line` script's course (any direction, in whole
    /// degrees), so runs on different seeds cross the arena differently while the same seed
    /// gives every mode the same course.
    pub fn new(start: Vec2, script: Script, seed: u64) -> Self {
        let degrees = match script {
            Script::Line => (splitmix64(seed) % 360) as f32,
            _ => ZIGZAG_ANGLE_DEG,
        };
        let angle = degrees.to_radians();
        Player {
            pos: start,
            vel: Vec2::ZERO,
            prev_pos: start,
            script,
            flash: 0.0,
            course: Vec2::new(angle.cos(), angle.sin()),
            clock: 0.0,
        }
    }

    /// One tick. `keys` is the keyboard's direction (used by `Keys` only); `agents` are the agents'
    /// positions (for `flee` and `hunt`).
    pub fn update(
        &mut self,
        keys: Vec2,
        agents: impl Iterator<Item = Vec2>,
        arena: &Arena,
        t: &PlayerTuning,
        dt: f32,
    ) {
        self.prev_pos = self.pos;
        self.flash = (self.flash - dt).max(0.0);
        self.clock += dt;
        let speed = t.max_speed;
        let mut response = Response::Slide;
        match self.script {
            Script::Keys => {
                let desired = keys.normalize_or_zero() * speed;
                let change = desired - self.vel;
                let max_change = t.acceleration * dt;
                self.vel += if change.length() > max_change {
                    change.normalize_or_zero() * max_change
                } else {
                    change
                };
            }
            Script::Still => self.vel = Vec2::ZERO,
            Script::Line => {
                self.vel = self.course * speed;
                response = Response::Bounce;
            }
            Script::Zigzag => {
                let side = if ((self.clock / ZIGZAG_PERIOD) as u32).is_multiple_of(2) {
                    1.0
                } else {
                    -1.0
                };
                let (s, c) = (std::f32::consts::FRAC_PI_4 * side).sin_cos();
                let dir = Vec2::new(
                    self.course.x * c - self.course.y * s,
                    self.course.x * s + self.course.y * c,
                );
                self.vel = dir * speed;
                response = Response::Bounce;
            }
            Script::Circle => {
                let center = arena.center();
                let orbit = arena.width.min(arena.height) * CIRCLE_ORBIT;
                let offset = self.pos - center;
                let radial = offset.try_normalize().unwrap_or(Vec2::X);
                let tangent = Vec2::new(-radial.y, radial.x);
                // Steer along the tangent, pulled back onto the orbit radius.
                let correction = (orbit - offset.length()) / orbit;
                self.vel = (tangent + radial * correction * 2.0).normalize_or_zero() * speed;
            }
            Script::Flee | Script::Hunt => {
                let nearest = agents.min_by(|a, b| {
                    a.distance_squared(self.pos)
                        .total_cmp(&b.distance_squared(self.pos))
                });
                let mut dir = match nearest {
                    Some(a) if self.script == Script::Flee => (self.pos - a).normalize_or_zero(),
                    Some(a) => (a - self.pos).normalize_or_zero(),
                    None => Vec2::ZERO,
                };
                if self.script == Script::Flee {
                    dir += wall_push(self.pos, arena);
                }
                self.vel = dir.normalize_or_zero() * speed;
            }
        }
        self.pos += self.vel * dt;
        let before = self.vel;
        arena.collide(
            self.prev_pos,
            &mut self.pos,
            &mut self.vel,
            t.radius,
            response,
        );
        if response == Response::Bounce && before != self.vel {
            // Keep the course in step with the bounce so the path continues from the new heading.
            let reflect = |v: f32, w: f32| if v.signum() != w.signum() { -1.0 } else { 1.0 };
            if matches!(self.script, Script::Line) {
                if let Some(course) = self.vel.try_normalize() {
                    self.course = course;
                }
            } else {
                self.course.x *= reflect(before.x, self.vel.x);
                self.course.y *= reflect(before.y, self.vel.y);
            }
        }
        if !self.pos.is_finite() || !self.vel.is_finite() {
            self.pos = arena.center();
            self.vel = Vec2::ZERO;
        }
    }
}

/// One step of SplitMix64: a fixed, well-mixed function of the seed (not a generator: the world
/// owns the only one).
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A push away from walls closer than the margin, growing as the wall gets nearer.
fn wall_push(p: Vec2, arena: &Arena) -> Vec2 {
    let m = FLEE_WALL_MARGIN;
    let near = |d: f32| ((m - d) / m).max(0.0) * 2.0;
    Vec2::new(
        near(p.x) - near(arena.width - p.x),
        near(p.y) - near(arena.height - p.y),
    )
}
