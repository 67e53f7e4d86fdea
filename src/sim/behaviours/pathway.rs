//! Path following with a radius (Reynolds 1999, "Steering Behaviors For Autonomous
//! Characters"; OpenSteer's `steerToFollowPath` and its pedestrians). A pedestrian predicts
//! where it will be, `predicted = pos + vel · predict_s`, projects that onto the pathway's
//! centre line, and does nothing while the projection stays within the radius and the
//! prediction lies further along its way; otherwise it corrects: it seeks the point
//! `max(speed · predict_s, lead)` further along the path from where it stands now,
//! `desired = unit(target − pos) · max_speed`, `steer = desired − vel`.
//!
//! Two-way traffic keeps right: each way follows the pathway's right half as a lane of its own,
//! its centre `keep_right · radius` to the right of the centre line and its edge the pathway's,
//! so the two streams pass side by side; Reynolds' separation keeps bodies apart within each.
//! Where Reynolds' agent coasts on the pathway, a pedestrian keeps its pace (steers to its top
//! speed along its heading), and it keeps off walls and obstacles nearer than its clearance: a
//! drawn pathway may run through them, and one making for a pathway across the arena goes round
//! an obstacle in its way. Its own way sums the forces (walls, obstacles, separation, the path:
//! a weighted sum, every weight 1); `B` puts them through [`forces::combine`] instead.

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me, combine};
use super::hide::skirt;
use crate::data::classics::PathwayParams;
use crate::sim::space::Senses;
use crate::sim::space::clear::containment;
use crate::sim::space::pathway::Pathway;
use crate::sim::vehicle::unit_or_zero;
use glam::Vec2;

/// The most a pedestrian's neighbours push it, in units of its top speed times the
/// separation's weight (many at once would otherwise drown the path).
const MAX_PUSH: f32 = 2.0;
/// A pedestrian closes the gap between its velocity and the desired one over this long (s),
/// where Reynolds' `desired − velocity` takes a second: at a walker's pace that lazy a turn
/// carries it far past a corner of the pathway before it comes round.
const RESPONSE_S: f32 = 0.25;

/// A pedestrian: which pathway it follows, which way, how far it has gone, and what it saw this
/// tick (for the overlay).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pedestrian {
    /// Index of its pathway.
    pub path: u32,
    /// Whether it goes from the first point toward the last (else the other way).
    pub forward: bool,
    /// Its distance along the path when it last looked (once it has looked).
    along: Option<f32>,
    /// Distance gone its way since its last completed traversal.
    pub progress: f32,
    /// Traversals completed: a pathway's length gone its way.
    pub traversals: u32,
    /// Where it predicted it would be, that point's projection on its lane's centre, and the
    /// target ahead on the lane.
    pub predicted: Vec2,
    pub projected: Vec2,
    pub target: Vec2,
    /// How its forces combined this tick (for the overlay).
    pub tally: Tally,
}

/// A pedestrian's forces in the order listed (the overlay's names), highest priority first.
pub const FORCES: [&str; 4] = ["walls", "obstacles", "separation", "path"];

impl Pedestrian {
    /// A pedestrian on pathway `path` going `forward` (or back).
    pub fn new(path: u32, forward: bool) -> Pedestrian {
        Pedestrian {
            path,
            forward,
            ..Pedestrian::default()
        }
    }

    /// Its distance along is measured afresh (it has a new pathway).
    pub fn forget_place(&mut self) {
        self.along = None;
    }

    /// +1 going from the first point toward the last, −1 the other way.
    pub fn sign(&self) -> f32 {
        if self.forward { 1.0 } else { -1.0 }
    }
}

/// A pedestrian's numbers: the pathways and the section's.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub pathways: &'a [Pathway],
    pub pathway: &'a PathwayParams,
    /// How the forces combine when not the pathway's own way (see [`steer`]).
    pub combine: Option<Method>,
}

/// Where a pedestrian going `sign` (±1) stands on `path`'s lane at distance `along`: the lane's
/// centre, `keep_right` of the radius to the right of the centre line.
pub fn lane_point(path: &Pathway, along: f32, sign: f32, keep_right: f32) -> Vec2 {
    let (point, tangent) = path.at(along);
    point + (tangent * sign).perp() * keep_right * path.radius
}

/// `pathway`: predict, project, and correct only when the prediction leaves the lane or goes
/// the wrong way (draws from `rng` only to dither, `B`).
pub fn steer(
    me: Me,
    s: &mut Pedestrian,
    t: &Params,
    senses: &Senses,
    rng: &mut impl ::rand::Rng,
) -> Decision {
    let (body, p) = (me.body, me.vehicle);
    let tp = t.pathway;
    let Some(path) = t.pathways.get(s.path as usize) else {
        return Decision::steer(-body.vel, body.pos, "correct");
    };
    let now = path.project(body.pos);
    s.travel(path, now.along);
    let sign = s.sign();

    let predicted = body.pos + body.vel * tp.predict_s;
    let future = path.project(predicted);
    let right = (future.tangent * sign).perp();
    let lane_offset = tp.keep_right * path.radius;
    let projected = future.point + right * lane_offset;
    // (The lane's edge is a body's radius inside the pathway's, so the body stays inside.)
    let half_width = (path.radius - lane_offset - p.radius).max(p.radius.min(path.radius) * 0.5);
    let off_lane = predicted.distance(projected) > half_width;
    let right_way = path.delta(now.along, future.along) * sign > 0.0;
    let ahead = (body.vel.length() * tp.predict_s).max(tp.lead);
    let target = lane_point(path, now.along + sign * ahead, sign, tp.keep_right);
    (s.predicted, s.projected, s.target) = (predicted, projected, target);

    let (follow, state) = if off_lane || !right_way {
        (correct(me, target, senses) / RESPONSE_S, "correct")
    } else {
        (unit_or_zero(body.vel) * p.max_speed - body.vel, "on-path")
    };
    let push = senses.apart(body.pos).clamp_length_max(MAX_PUSH);
    let apart = push * tp.separation * p.max_speed;
    let reach = p.radius + tp.clearance;
    let walls = containment(senses.arena, body.pos, reach) * 0.5 * tp.obstacle * p.max_speed;
    let obstacles = senses
        .nearest_surface(body.pos, reach)
        .map_or(Vec2::ZERO, |o| {
            let depth = ((reach - o.distance) / tp.clearance.max(1.0)).clamp(0.0, 2.0);
            o.normal * depth * tp.obstacle * p.max_speed
        });
    let Some(method) = t.combine else {
        s.tally = Tally::of(&FORCES, &[walls, obstacles, apart, follow], 0b1111);
        let force = combine([walls, obstacles, apart, follow]);
        return Decision::steer(force, target, state);
    };
    let parts = [
        Part::new(walls, Priority::Walls, 1.0, chance::WALLS),
        Part::new(obstacles, Priority::Obstacles, 1.0, chance::OBSTACLES),
        Part::new(apart, Priority::Others, 1.0, chance::SEPARATION),
        Part::new(follow, Priority::Rest, 1.0, chance::GOAL),
    ];
    let mut dice = (method == Method::Dithered).then(|| Dice::roll(rng));
    let force = forces::combine(
        method,
        &FORCES,
        &parts,
        p.max_force,
        dice.as_mut(),
        &mut s.tally,
    );
    Decision::steer(force, target, state)
}

/// The correction: seek the target, round the obstacle that stands in the way if one does
/// (a pedestrian making for a pathway drawn across the arena).
fn correct(me: Me, target: Vec2, senses: &Senses) -> Vec2 {
    let (body, p) = (me.body, me.vehicle);
    let to = target - body.pos;
    let length = to.length();
    if length > 1e-3
        && let Some(hit) = senses.sweep(body.pos, to / length, length, p.radius)
        && let Some(i) = hit.obstacle
        && let Some(o) = senses.arena.obstacles().get(i as usize)
        && let Some(force) = skirt(body, o, target, p.radius, p.max_speed)
    {
        return force;
    }
    unit_or_zero(to) * p.max_speed - body.vel
}

impl Pedestrian {
    /// Note how far it went its way since it last looked, and count a traversal for each trip's
    /// length gone (round a loop; from turn to turn on an open pathway); at an open pathway's
    /// end, turn back.
    fn travel(&mut self, path: &Pathway, along: f32) {
        let length = path.length();
        let turn = path.radius.min(length * 0.25);
        let trip = if path.cyclic {
            length
        } else {
            length - 2.0 * turn
        };
        if let Some(was) = self.along {
            self.progress += path.delta(was, along) * self.sign();
            if trip > 0.0 && self.progress >= trip {
                self.traversals += 1;
                self.progress -= trip;
            }
        }
        self.along = Some(along);
        if !path.cyclic {
            if self.forward && along >= length - turn {
                self.forward = false;
            } else if !self.forward && along <= turn {
                self.forward = true;
            }
        }
    }
}
