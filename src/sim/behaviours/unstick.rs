//! Getting unstuck: reactive steering can balance an agent in a pocket — between a wall and two
//! obstacles, or among close obstacles felt on every side — where every push away from one
//! surface is answered by another, and it turns on the spot or circles there for good. Feelers
//! cannot see the way out of that; a look all round can.
//!
//! An agent that has not got two body diameters from where it was for `avoid.unstick_after_s`
//! seconds (2 by default: well inside the 5 s window of the `stuck_agents` measure, far beyond any
//! turn a free agent makes; 0 turns it off) brakes to a stop, looks along [`DIRECTIONS`]
//! directions from where it stops, its body swept along each, takes the one with the longest
//! clear run (of those within a pixel of the longest, the nearest its own course) and follows it,
//! its feelers set aside, for most of that run, never faster than it could stop in with half its
//! force. A run that met something short of the look is followed by another from where it ends,
//! up to [`LEGS`] in all and within [`ESCAPE_FOR`] seconds each, since a way out may bend.
//!
//! Every part of that moves in a straight line the sweeps have proved clear: a braking force
//! straight against the velocity keeps the body on its line, each run starts from rest, and
//! obstacles do not move. (Turning toward the way out while still moving would swing the body
//! off the swept line by its sideways speed.)

use crate::data::tuning::VehicleTuning;
use crate::sim::space::Senses;
use crate::sim::space::clear::FEEL_SKIN;
use crate::sim::vehicle::{Vehicle, within_a_tick};
use glam::Vec2;

/// How far from one spot (in body radii) an agent may get and still count as staying there: two
/// diameters, so an agent circling in a pocket counts, as well as one turning on the spot.
pub const STUCK_SPAN: f32 = 4.0;
/// Longest a leg of a way out is followed, braking included (s).
pub const ESCAPE_FOR: f32 = 2.0;
/// Most legs a way out takes: a run that meets something short of the look is followed by
/// another from where it ends (not back the way it came), as a pocket's way out may bend.
pub const LEGS: u8 = 3;
/// How many directions, evenly spread, are looked along.
pub const DIRECTIONS: usize = 16;
/// How much of the clear run is followed: the feelers take over short of what the sweep met.
const RUN_SHARE: f32 = 0.8;
/// Below this speed (px/s) a braking body counts as stopped: it drifts under a tenth of a pixel
/// off the run's line while it turns to it.
const STOPPED: f32 = 2.0;

/// A way out being followed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Escape {
    /// Unit direction.
    pub dir: Vec2,
    /// Where the run starts (where the body stops), and how far along `dir` from there the swept
    /// body met something (px).
    pub from: Vec2,
    pub run: f32,
    /// Seconds left.
    pub left: f32,
    /// Still braking to a stop before the run.
    pub braking: bool,
    /// Which leg of the way out this is (1 for the first).
    pub leg: u8,
}

/// Per-agent memory: where it last got two diameters away from, how long ago, and any way out it
/// is following.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Unstick {
    /// (Zero before the first tick, which moves it to the agent unless the agent starts within two
    /// diameters of the arena's corner — then its seconds count from the start, as good.)
    pub anchor: Vec2,
    pub since: f32,
    pub escape: Option<Escape>,
}

impl Unstick {
    /// Note the body after a tick; the force that gets it out of a pocket, while it is getting
    /// out of one (`None`: steer as its behaviour says). `after` is how many seconds on one spot
    /// count as stuck (0: never), `course` where its behaviour would go, `look` how far it looks
    /// all round (px). A way out found before the arena changed is dropped (it may be blocked
    /// now). The body is swept as the feelers sweep it, its radius and [`FEEL_SKIN`] more.
    #[inline(always)]
    pub fn update(
        &mut self,
        senses: &Senses,
        body: &Vehicle,
        p: &VehicleTuning,
        after: f32,
        course: Vec2,
        look: f32,
    ) -> Option<Vec2> {
        let dt = senses.dt;
        let r = p.radius + FEEL_SKIN;
        let span = STUCK_SPAN * r;
        if body.pos.distance_squared(self.anchor) > span * span {
            self.anchor = body.pos;
            self.since = 0.0;
        } else {
            self.since += dt;
        }
        // (Most agents, most ticks: neither stuck nor getting out.)
        let stuck = after > 0.0 && self.since >= after;
        if self.escape.is_none() && !stuck {
            return None;
        }
        self.get_out(senses, body, p, stuck, course, look)
    }

    /// [`Unstick::update`] for an agent that is stuck or getting out.
    #[inline(never)]
    fn get_out(
        &mut self,
        senses: &Senses,
        body: &Vehicle,
        p: &VehicleTuning,
        stuck: bool,
        course: Vec2,
        look: f32,
    ) -> Option<Vec2> {
        let (dt, r) = (senses.dt, p.radius + FEEL_SKIN);
        if senses.changed() {
            self.escape = None;
        }
        if self.escape.is_none() && stuck {
            self.escape = begin(senses, body, p, r, course, look, None);
            if self.escape.is_some() {
                self.since = 0.0;
                self.anchor = body.pos;
            }
        }
        let e = self.escape.as_mut()?;
        e.left -= dt;
        if e.braking && body.vel.length_squared() < STOPPED * STOPPED {
            e.braking = false;
        }
        // (The whole error asked for in one tick: Reynolds' `desired − velocity` per second would
        // curve the body off the line.)
        let toward = |desired: Vec2| within_a_tick(desired - body.vel, p.mass, dt);
        let gone = (body.pos - e.from).dot(e.dir);
        if e.left <= 0.0 {
            self.escape = None;
            return None;
        }
        if !e.braking && gone >= e.run * RUN_SHARE {
            let (leg, back, short) = (e.leg, -e.dir, e.run < look - 1.0);
            self.escape = if short && leg < LEGS {
                begin(senses, body, p, r, -back, look, Some(back)).map(|next| Escape {
                    leg: leg + 1,
                    ..next
                })
            } else {
                None
            };
            let e = self.escape.as_mut()?;
            e.left -= dt;
            return Some(toward(Vec2::ZERO));
        }
        if e.braking {
            return Some(toward(Vec2::ZERO));
        }
        let ahead = e.run - gone;
        let accel = p.max_force / p.mass.max(f32::EPSILON);
        let speed = (accel * ahead.max(0.0)).sqrt().min(p.max_speed);
        Some(toward(e.dir * speed))
    }

    /// Whether it is following a way out.
    pub fn escaping(&self) -> bool {
        self.escape.is_some()
    }
}

/// A way out for a body that counts as stuck: where braking straight against its velocity stops
/// it (v² / 2a along it), and the way out from there — or `None` when that braking line is not
/// clear (it is left to its behaviour, and tries again on the next tick).
fn begin(
    senses: &Senses,
    body: &Vehicle,
    p: &VehicleTuning,
    r: f32,
    course: Vec2,
    look: f32,
    back: Option<Vec2>,
) -> Option<Escape> {
    let speed = body.vel.length();
    let braking = speed >= STOPPED;
    let from = if braking {
        let heading = body.vel / speed;
        let accel = p.max_force / p.mass.max(f32::EPSILON);
        let stopping = speed * speed / (2.0 * accel.max(f32::EPSILON));
        if senses.sweep(body.pos, heading, stopping, r).is_some() {
            return None;
        }
        body.pos + heading * stopping
    } else {
        body.pos
    };
    let (dir, run) = way_out(senses, from, r, course, look, back);
    Some(Escape {
        dir,
        from,
        run,
        left: ESCAPE_FOR,
        braking,
        leg: 1,
    })
}

/// Of [`DIRECTIONS`] directions round `pos`, the one along which a body of radius `r` runs
/// clear the farthest (up to `look`), the nearest `course` among those within a pixel of it; and
/// how far it runs. With `back`, directions more than 120° from the way it came count as having
/// no room.
pub fn way_out(
    senses: &Senses,
    pos: Vec2,
    r: f32,
    course: Vec2,
    look: f32,
    back: Option<Vec2>,
) -> (Vec2, f32) {
    let rooms: [(Vec2, f32); DIRECTIONS] = std::array::from_fn(|k| {
        let dir = Vec2::from_angle(k as f32 * std::f32::consts::TAU / DIRECTIONS as f32);
        let room = if back.is_some_and(|b| dir.dot(b) > 0.5) {
            0.0
        } else {
            senses.sweep(pos, dir, look, r).map_or(look, |h| h.t)
        };
        (dir, room)
    });
    let most = rooms.iter().map(|&(_, room)| room).fold(0.0, f32::max);
    rooms
        .into_iter()
        .filter(|&(_, room)| room >= most - 1.0)
        .max_by(|a, b| a.0.dot(course).total_cmp(&b.0.dot(course)))
        .expect("the longest run is among the directions")
}
