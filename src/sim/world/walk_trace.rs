//! The crowd's overlay and figures: what a traced walker shows (its goal and the way to it, the
//! nearest approach it steers from, and ORCA's half-planes with the velocity chosen inside
//! them), and the summary's `extra`.

use super::World;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::orca::Body;
use crate::sim::behaviours::walker::{self, Crowd, WalkerMind};
use crate::sim::trace::{Role, Shape, Trace};
use serde_json::{Map, Value, json};

/// Velocity space is drawn round the walker at this many seconds per px/s: a velocity `v` is
/// the point `pos + v · VELOCITY_SECONDS`.
pub const VELOCITY_SECONDS: f32 = 0.5;
/// Only this many walkers nearest the player show their half-planes: a crowd's worth of them
/// would cover the arena.
const HALF_PLANES_SHOWN: usize = 4;

impl World {
    /// A walker's trace: the goal, where it heads, the nearest approach, and in ORCA the
    /// half-planes of the last tick's neighbours (as the tick saw them) and its chosen velocity.
    pub(super) fn trace_walker(&self, index: usize, a: &Agent, w: &WalkerMind, out: &mut Trace) {
        let pos = a.body.pos;
        let wp = &self.tuning.crowd;
        out.mark(Role::Goal, Shape::Cross { at: w.goal });
        if !w.arrived {
            let to = walker::target(pos, w, wp.radius);
            out.mark_at_agent(Role::Goal, Shape::Segment { from: pos, to });
        }
        if let Some(at) = w.approach {
            out.mark(Role::Predicted, Shape::Dot { at });
        }
        let (grid, bodies) = self.walking.sensed();
        let d2 = pos.distance_squared(self.player.pos);
        let nearer = self
            .agents
            .iter()
            .filter(|b| b.body.pos.distance_squared(self.player.pos) < d2)
            .take(HALF_PLANES_SHOWN)
            .count();
        if self.walking.method == crate::data::walkers::Avoidance::Orca
            && bodies.len() == self.agents.len()
            && nearer < HALF_PLANES_SHOWN
        {
            let crowd = Crowd {
                grid,
                bodies,
                i: index,
                player: Body {
                    pos: self.player.pos,
                    vel: self.player.vel,
                },
                player_radius: self.tuning.player.radius,
                method: self.walking.method,
                arena: &self.arena,
                dt: self.dt,
                combine: None,
                dice: Default::default(),
            };
            let mut scratch = walker::Scratch::default();
            let was = bodies[index];
            walker::orca_lines(was.pos, was.vel, wp, &crowd, &mut scratch);
            let s = VELOCITY_SECONDS;
            let half = wp.max_speed * s;
            for line in &scratch.lines {
                let mid = pos + line.point * s;
                let along = line.direction * half;
                out.mark_at_agent(
                    Role::HalfPlane,
                    Shape::Segment {
                        from: mid - along,
                        to: mid + along,
                    },
                );
                // A short tick into the allowed side.
                out.mark_at_agent(
                    Role::HalfPlane,
                    Shape::Segment {
                        from: mid,
                        to: mid + line.normal() * (half * 0.08),
                    },
                );
            }
            out.mark_at_agent(
                Role::Chosen,
                Shape::Segment {
                    from: pos,
                    to: pos + w.chosen * s,
                },
            );
            out.mark_at_agent(
                Role::Chosen,
                Shape::Circle {
                    at: pos,
                    radius: wp.max_speed * s,
                },
            );
        }
    }

    /// The crowd's figures for the summary (SPEC §6), and the longest a walker stood still with
    /// its goal unreached.
    pub(super) fn crowd_extra(&self, m: &mut Map<String, Value>) {
        let w = &self.walking;
        let minds = self.agents.iter().filter_map(|a| match &a.behaviour {
            Behaviour::Walker(mind) => Some(mind),
            _ => None,
        });
        let (mut arrived, mut still) = (0usize, 0.0f32);
        for mind in minds {
            arrived += usize::from(mind.trips > 0);
            still = still.max(mind.longest_still);
        }
        let round3 = |v: f64| (v * 1e3).round() / 1e3;
        m.insert("scene".into(), json!(w.scene.name()));
        m.insert("avoid".into(), json!(w.method.name()));
        m.insert("collisions".into(), json!(w.collisions));
        m.insert("arrived".into(), json!(arrived));
        m.insert("trips".into(), json!(w.trips));
        m.insert("all_arrived_s".into(), json!(w.all_arrived_at.map(round3)));
        let mean = (w.trips > 0).then(|| round3(w.ratio_sum / w.trips as f64));
        let max = (w.trips > 0).then(|| round3(w.ratio_max));
        m.insert("arrival_ratio_mean".into(), json!(mean));
        m.insert("arrival_ratio_max".into(), json!(max));
        m.insert(
            "min_separation_px".into(),
            json!(w.min_separation.map(|d| round3(f64::from(d)))),
        );
        m.insert("longest_still_s".into(), json!(round3(f64::from(still))));
    }
}
