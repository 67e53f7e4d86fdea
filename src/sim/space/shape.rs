//! The obstacles' shapes and what the arena's queries answer with: plain values, and the geometry
//! of one shape at a time (its surface, a ray against it, the shape grown by a body's radius).
//! Everything that indexes many shapes (the grid, the clearance field, the tiles) builds on these.

use crate::data::arena::ObstacleData;
use glam::Vec2;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Obstacle {
    Circle { center: Vec2, radius: f32 },
    Rect { min: Vec2, max: Vec2 },
}

/// Where a ray met an obstacle: distance along the ray, the point and the surface normal there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    pub t: f32,
    pub point: Vec2,
    pub normal: Vec2,
    /// The obstacle's index; `None` for a wall.
    pub obstacle: Option<u32>,
}

/// The nearest obstacle surface to a point: signed distance (negative inside) and outward normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    pub distance: f32,
    pub normal: Vec2,
    pub obstacle: usize,
}

/// What a collision does to the velocity's component into the surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response {
    /// Remove it: the body slides along the surface.
    Slide,
    /// Reflect it: the body bounces off.
    Bounce,
}

impl Obstacle {
    pub fn from_data(d: &ObstacleData) -> Self {
        match *d {
            ObstacleData::Circle { x, y, radius } => Obstacle::Circle {
                center: Vec2::new(x, y),
                radius,
            },
            ObstacleData::Rect { x, y, w, h } => Obstacle::Rect {
                min: Vec2::new(x, y),
                max: Vec2::new(x + w, y + h),
            },
        }
    }

    pub fn to_data(&self) -> ObstacleData {
        match *self {
            Obstacle::Circle { center, radius } => ObstacleData::Circle {
                x: center.x,
                y: center.y,
                radius,
            },
            Obstacle::Rect { min, max } => ObstacleData::Rect {
                x: min.x,
                y: min.y,
                w: max.x - min.x,
                h: max.y - min.y,
            },
        }
    }

    /// The centre of the shape.
    pub fn center(&self) -> Vec2 {
        match *self {
            Obstacle::Circle { center, .. } => center,
            Obstacle::Rect { min, max } => (min + max) * 0.5,
        }
    }

    /// Axis-aligned bounding box.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        match *self {
            Obstacle::Circle { center, radius } => (center - radius, center + radius),
            Obstacle::Rect { min, max } => (min, max),
        }
    }

    /// Signed distance from `p` to the surface (negative inside) and the outward unit normal.
    pub fn surface(&self, p: Vec2) -> (f32, Vec2) {
        match *self {
            Obstacle::Circle { center, radius } => {
                let offset = p - center;
                let d = offset.length();
                let normal = if d > 1e-6 { offset / d } else { Vec2::X };
                (d - radius, normal)
            }
            Obstacle::Rect { min, max } => {
                let center = (min + max) * 0.5;
                let half = (max - min) * 0.5;
                let q = p - center;
                let d = q.abs() - half;
                if d.x > 0.0 || d.y > 0.0 {
                    let outside = d.max(Vec2::ZERO);
                    let closest = center + q.clamp(-half, half);
                    let normal = (p - closest).normalize_or_zero();
                    (outside.length(), normal)
                } else if d.x > d.y {
                    (d.x, Vec2::new(q.x.signum(), 0.0))
                } else {
                    (d.y, Vec2::new(0.0, q.y.signum()))
                }
            }
        }
    }

    /// The obstacle grown by `r` on every side (a rectangle keeps square corners, so a body
    /// swept past it is warned a little early at the corners, never late).
    pub fn inflated(&self, r: f32) -> Obstacle {
        match *self {
            Obstacle::Circle { center, radius } => Obstacle::Circle {
                center,
                radius: radius + r,
            },
            Obstacle::Rect { min, max } => Obstacle::Rect {
                min: min - r,
                max: max + r,
            },
        }
    }

    /// First intersection of the ray `origin + t * dir` (`dir` unit) with `t` in `[0, max_t]`;
    /// a ray starting inside hits at `t = 0`.
    pub fn ray(&self, origin: Vec2, dir: Vec2, max_t: f32) -> Option<(f32, Vec2)> {
        match *self {
            Obstacle::Circle { center, radius } => {
                let m = origin - center;
                let c = m.length_squared() - radius * radius;
                if c <= 0.0 {
                    return Some((0.0, m.normalize_or_zero()));
                }
                let b = m.dot(dir);
                if b > 0.0 {
                    return None;
                }
                // r² minus the squared distance of closest approach: stable for grazing rays,
                // unlike b² - c, which cancels catastrophically in f32.
                let disc = radius * radius - (m - dir * b).length_squared();
                if disc < 0.0 {
                    return None;
                }
                let t = -b - disc.sqrt();
                (t <= max_t).then(|| (t, (origin + dir * t - center) / radius))
            }
            Obstacle::Rect { min, max } if dir.x.abs() >= 1e-9 && dir.y.abs() >= 1e-9 => {
                // The slab test, both axes at once: where the ray enters and leaves each slab.
                // (Plain comparisons throughout: `min`/`max` guard against NaN at several
                // instructions each, and with a finite origin and no zero component of `dir`
                // there is none.)
                let (a, b) = ((min - origin) / dir, (max - origin) / dir);
                let less = a.cmplt(b);
                let (enter, leave) = (Vec2::select(less, a, b), Vec2::select(less, b, a));
                let t_near = greater(greater(enter.x, enter.y), 0.0);
                if t_near > lesser(lesser(leave.x, leave.y), max_t) {
                    return None;
                }
                // The face of the slab entered last; none when the ray starts inside.
                let normal = if enter.y > greater(enter.x, 0.0) {
                    Vec2::new(0.0, -dir.y.signum())
                } else if enter.x > 0.0 {
                    Vec2::new(-dir.x.signum(), 0.0)
                } else {
                    self.surface(origin).1
                };
                Some((t_near, normal))
            }
            Obstacle::Rect { min, max } => {
                // A ray along an axis: the slab across it either holds the ray or misses it.
                let mut t_near = 0.0f32;
                let mut t_far = max_t;
                let mut normal = Vec2::ZERO;
                for axis in 0..2 {
                    let (o, d, lo, hi) = (origin[axis], dir[axis], min[axis], max[axis]);
                    if d.abs() < 1e-9 {
                        if o < lo || o > hi {
                            return None;
                        }
                        continue;
                    }
                    let (mut t0, mut t1) = ((lo - o) / d, (hi - o) / d);
                    let mut n = Vec2::ZERO;
                    n[axis] = -d.signum();
                    if t0 > t1 {
                        std::mem::swap(&mut t0, &mut t1);
                    }
                    if t0 > t_near {
                        t_near = t0;
                        normal = n;
                    }
                    t_far = t_far.min(t1);
                    if t_near > t_far {
                        return None;
                    }
                }
                if normal == Vec2::ZERO {
                    // Started inside the box.
                    normal = self.surface(origin).1;
                }
                Some((t_near, normal))
            }
        }
    }
}

/// The lesser of two numbers that are not NaN.
#[inline(always)]
fn lesser(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The greater of two numbers that are not NaN.
#[inline(always)]
fn greater(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// How far from a shape a body of radius `r` can be and still meet it in a sweep: a rectangle
/// grown by `r` keeps square corners, which stand √2·r from the shape.
pub fn sweep_reach(r: f32) -> f32 {
    r * std::f32::consts::SQRT_2
}
