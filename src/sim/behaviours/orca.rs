//! Optimal reciprocal collision avoidance (van den Berg, Guy, Lin, Manocha, "Reciprocal n-body
//! collision avoidance", 2011), the formulas of the paper and of RVO2's reference:
//!
//! - Each neighbour B gives a half-plane of velocities for A. The velocity obstacle of A
//!   relative to B for time τ is the disc of radius `(rA + rB)/τ` round `(pB − pA)/τ` swept out
//!   to infinity (a truncated cone). `u` is the smallest change to the relative velocity
//!   `vA − vB` that leaves the cone; A takes half of it (`responsibility` ½; 1 against a body
//!   that does not reciprocate, like the player), so the half-plane is
//!   `{v : (v − (vA + ½u)) · n ≥ 0}` with `n` the cone's outward normal at the nearest point.
//! - Each obstacle and wall near A gives a half-plane too, from its supporting line: the tangent
//!   at the surface point nearest A. The obstacles are convex, so the whole shape lies beyond
//!   that line, and A stays clear for `τ_obs` if `v · n ≥ −gap / τ_obs` (inside or touching:
//!   `v · n ≥ −gap / dt`, out within the tick).
//! - A 2-D linear program picks the velocity inside every half-plane and the max-speed disc
//!   nearest the preferred one (incremental, one half-plane at a time, each new one solved as a
//!   1-D program on its line). When the half-planes leave nothing, a 3-D program keeps the
//!   obstacles' half-planes hard and finds the velocity that violates the walkers' the least
//!   (the smallest largest distance into any of them).
//!
//! A line is `point + t · direction`; a velocity `v` is allowed when
//! `det(direction, point − v) ≤ 0` (on the line's left in the paper's y-up drawing).

use crate::sim::space::arena::Arena;
use glam::Vec2;

/// Below this a determinant is taken as parallel lines.
const EPSILON: f32 = 1e-5;

/// The largest speed, px/s, an obstacle's half-plane asks for: far beyond any walker's top
/// speed, and small enough that its square is finite.
const MAX_BOUND: f32 = 1e6;

/// One half-plane: velocities on the left of `point + t · direction` (`direction` unit).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Line {
    pub point: Vec2,
    pub direction: Vec2,
}

impl Line {
    /// The half-plane `{v : v · normal ≥ bound}` (`normal` unit).
    pub fn at_least(normal: Vec2, bound: f32) -> Line {
        Line {
            point: normal * bound,
            direction: Vec2::new(normal.y, -normal.x),
        }
    }

    /// How far `v` lies outside the half-plane (negative: inside).
    pub fn violation(&self, v: Vec2) -> f32 {
        det(self.direction, self.point - v)
    }

    /// The normal pointing into the allowed side.
    pub fn normal(&self) -> Vec2 {
        Vec2::new(-self.direction.y, self.direction.x)
    }
}

#[inline(always)]
fn det(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// A body as ORCA sees it: where it is and how fast it moves.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Body {
    pub pos: Vec2,
    pub vel: Vec2,
}

/// The half-plane walker A (`me`) keeps to so as not to meet B (`other`) within `horizon`;
/// their bodies' sum is `combined` (px). `apart`: the unit way A leaves B if the two stand on
/// one spot at rest (B's must be the opposite, or they would leave together). `responsibility`: A's
/// share of the avoiding (½ between walkers, 1 against a body that does not avoid). `dt`: the
/// tick, for bodies that already overlap (they part within one tick).
#[inline]
pub fn agent_line(
    me: Body,
    other: Body,
    combined: f32,
    horizon: f32,
    responsibility: f32,
    dt: f32,
    apart: Vec2,
) -> Line {
    let rel_pos = other.pos - me.pos;
    let rel_vel = me.vel - other.vel;
    let dist2 = rel_pos.length_squared();
    let r2 = combined * combined;
    let (direction, u);
    if dist2 > r2 {
        let inv_h = 1.0 / horizon.max(EPSILON);
        // From the cut-off circle's centre to the relative velocity.
        let w = rel_vel - rel_pos * inv_h;
        let w2 = w.length_squared();
        let dot1 = w.dot(rel_pos);
        if dot1 < 0.0 && dot1 * dot1 > r2 * w2 {
            // Nearest the cut-off circle.
            let w_len = w2.sqrt();
            let unit_w = if w_len > 0.0 {
                w / w_len
            } else {
                -rel_pos.normalize_or(Vec2::X)
            };
            direction = Vec2::new(unit_w.y, -unit_w.x);
            u = unit_w * (combined * inv_h - w_len);
        } else {
            // Nearest a leg of the cone.
            let leg = (dist2 - r2).sqrt();
            direction = if det(rel_pos, w) > 0.0 {
                Vec2::new(
                    rel_pos.x * leg - rel_pos.y * combined,
                    rel_pos.x * combined + rel_pos.y * leg,
                ) / dist2
            } else {
                -Vec2::new(
                    rel_pos.x * leg + rel_pos.y * combined,
                    -rel_pos.x * combined + rel_pos.y * leg,
                ) / dist2
            };
            u = direction * rel_vel.dot(direction) - rel_vel;
        }
    } else {
        // Already overlapping: leave the overlap within this tick.
        let inv_dt = 1.0 / dt.max(EPSILON);
        let w = rel_vel - rel_pos * inv_dt;
        let w_len = w.length();
        // Coincident and at rest: part the way given.
        let unit_w = if w_len > 1e-6 { w / w_len } else { apart };
        direction = Vec2::new(unit_w.y, -unit_w.x);
        u = unit_w * (combined * inv_dt - w_len);
    }
    Line {
        point: me.vel + u * responsibility,
        direction,
    }
}

/// The half-plane that keeps a walker `gap` px clear of a surface with outward `normal` (a
/// supporting line of the obstacle or wall at its nearest point) for `horizon` s; touching or
/// inside (`gap ≤ 0`), it must move out within `dt`. (The bound is held to ±[`MAX_BOUND`]: a
/// walker deep inside a vast obstacle asks for no more than that, and the program's squares
/// stay finite.)
pub fn obstacle_line(normal: Vec2, gap: f32, horizon: f32, dt: f32) -> Line {
    let bound = if gap > 0.0 {
        -gap / horizon.max(EPSILON)
    } else {
        -gap / dt.max(EPSILON)
    };
    Line::at_least(normal, bound.clamp(-MAX_BOUND, MAX_BOUND))
}

/// The half-planes that keep a walker of radius `r` (its margin included) at `pos` off the
/// arena's walls and the obstacles within `reach`, each the supporting line at the point nearest
/// the walker (the obstacles are convex, so the whole shape lies beyond it), handed to `push`:
/// the walls first, then the obstacles in the arena's order.
pub fn surface_lines(
    arena: &Arena,
    pos: Vec2,
    r: f32,
    reach: f32,
    (horizon, dt): (f32, f32),
    mut push: impl FnMut(Line),
) {
    let walls = [
        (Vec2::X, pos.x),
        (-Vec2::X, arena.width - pos.x),
        (Vec2::Y, pos.y),
        (-Vec2::Y, arena.height - pos.y),
    ];
    for (normal, d) in walls {
        if d - r < reach {
            push(obstacle_line(normal, d - r, horizon, dt));
        }
    }
    // (An arena of walls alone, as the circle and the crossing are, has nothing more to look at.)
    let obstacles = arena.obstacles();
    if obstacles.is_empty() || !arena.anything_near(pos - reach, pos + reach) {
        return;
    }
    for o in obstacles {
        let (lo, hi) = o.bounds();
        if pos.x + reach < lo.x
            || pos.x - reach > hi.x
            || pos.y + reach < lo.y
            || pos.y - reach > hi.y
        {
            continue;
        }
        let (d, normal) = o.surface(pos);
        if d - r < reach && normal != Vec2::ZERO {
            push(obstacle_line(normal, d - r, horizon, dt));
        }
    }
}

/// The velocity nearest `preferred` within `max_speed` and every half-plane of `lines`, whose
/// first `obstacles` are hard (never relaxed); `scratch` is room for the 3-D program's lines, so
/// that no call allocates once it has grown.
pub fn solve(
    lines: &[Line],
    obstacles: usize,
    max_speed: f32,
    preferred: Vec2,
    scratch: &mut Vec<Line>,
) -> Vec2 {
    let mut result = Vec2::ZERO;
    let failed = program2(lines, max_speed, preferred, false, &mut result);
    if failed < lines.len() {
        // (Obstacles that cannot all be met — a walker inside one, wedged in a corner — are
        // relaxed like the rest rather than left broken.)
        let hard = if failed < obstacles { 0 } else { obstacles };
        program3(lines, hard, failed, max_speed, &mut result, scratch);
    }
    if result.is_finite() {
        result
    } else {
        Vec2::ZERO
    }
}

/// The 1-D program on line `n`, within the disc and every line before it: `false` if nothing on
/// it is allowed.
fn program1(
    lines: &[Line],
    n: usize,
    radius: f32,
    opt: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> bool {
    let line = lines[n];
    let dot = line.point.dot(line.direction);
    let discriminant = dot * dot + radius * radius - line.point.length_squared();
    if discriminant < 0.0 {
        // The disc misses the line.
        return false;
    }
    let root = discriminant.sqrt();
    let mut left = -dot - root;
    let mut right = -dot + root;
    for other in &lines[..n] {
        let denominator = det(line.direction, other.direction);
        let numerator = det(other.direction, line.point - other.point);
        if denominator.abs() <= EPSILON {
            // Parallel: either all of this line is allowed by the other, or none.
            if numerator < 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            right = right.min(t);
        } else {
            left = left.max(t);
        }
        if left > right {
            return false;
        }
    }
    let t = if direction_opt {
        if opt.dot(line.direction) > 0.0 {
            right
        } else {
            left
        }
    } else {
        // (max then min rather than clamp: a line that overflowed leaves NaN here, and the
        // answer is then dropped by `solve` instead of panicking.)
        line.direction.dot(opt - line.point).max(left).min(right)
    };
    *result = line.point + line.direction * t;
    true
}

/// The 2-D program: the velocity within `radius` and every line nearest `opt` (with
/// `direction_opt`, furthest along the unit `opt`). Returns the number of lines, or the index
/// of the first line it could not satisfy (`result` then holds the answer before that line).
fn program2(
    lines: &[Line],
    radius: f32,
    opt: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> usize {
    *result = if direction_opt {
        opt * radius
    } else if opt.length_squared() > radius * radius {
        opt.normalize_or_zero() * radius
    } else {
        opt
    };
    for i in 0..lines.len() {
        if lines[i].violation(*result) > 0.0 {
            let before = *result;
            if !program1(lines, i, radius, opt, direction_opt, result) {
                *result = before;
                return i;
            }
        }
    }
    lines.len()
}

/// The 3-D program, from line `begin` on: the velocity that least violates the walkers' lines
/// (the obstacles' first `obstacles` kept hard), found by sweeping each violated line's
/// bisectors with the others as a 2-D program in the direction away from it.
fn program3(
    lines: &[Line],
    obstacles: usize,
    begin: usize,
    radius: f32,
    result: &mut Vec2,
    scratch: &mut Vec<Line>,
) {
    let mut distance = 0.0;
    for i in begin..lines.len() {
        let line = lines[i];
        if line.violation(*result) <= distance {
            continue;
        }
        scratch.clear();
        scratch.extend_from_slice(&lines[..obstacles]);
        for other in &lines[obstacles..i] {
            let determinant = det(line.direction, other.direction);
            let point = if determinant.abs() <= EPSILON {
                if line.direction.dot(other.direction) > 0.0 {
                    // Same way: the other adds nothing.
                    continue;
                }
                (line.point + other.point) * 0.5
            } else {
                line.point
                    + line.direction
                        * (det(other.direction, line.point - other.point) / determinant)
            };
            let direction = (other.direction - line.direction).normalize_or_zero();
            scratch.push(Line { point, direction });
        }
        let before = *result;
        let away = Vec2::new(-line.direction.y, line.direction.x);
        if program2(scratch, radius, away, true, result) < scratch.len() {
            // Only rounding can make this fail; keep the answer before it.
            *result = before;
        }
        distance = line.violation(*result);
    }
}
