//! The `formation` mode's part of the world: the anchor that trails the player at a moderated
//! pace, the slots of the shape and which member takes which (assigned again when the shape or
//! the count changes), the pass that tells each member where its slot is before the agents
//! move, and what the summary measures: each member's distance from its slot, the assignment's
//! cost, and members' bodies overlapping.

use super::{SPAWN_SCATTER, World};
use crate::data::classics::FormationShape;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::assign;
use crate::sim::behaviours::formation::{self, Member};
use crate::sim::mode::Mode;
use crate::sim::space::Motion;
use crate::sim::space::neighbours::{Member as Placed, Neighbours};
use ::rand::Rng;
use glam::Vec2;
use std::collections::VecDeque;

/// `slot_error_mean_px` is the mean over this many last simulated seconds.
const ERROR_WINDOW_S: f32 = 10.0;
/// The leader counts as moving, and its heading as its velocity's, above this speed (px/s).
const LEADER_MOVING: f32 = 5.0;
/// Overlaps are counted from this many simulated seconds on (the members are still gathering
/// from their spawns before).
pub const GATHER_S: f64 = 3.0;
/// The share of a member's top speed its slot may ask of it: the rest is left for closing on
/// the slot. The anchor turns and moves no faster than keeps every slot within it.
const KEEP_UP: f32 = 0.8;

/// The formation: its anchor, shape, slots and assignment, and what it has measured.
#[derive(Debug, Clone, Default)]
pub struct FormationRun {
    pub shape: FormationShape,
    pub anchor: Vec2,
    /// Unit heading of the anchor.
    pub heading: Vec2,
    /// The slots in the anchor's frame (see [`formation::offsets`]).
    pub offsets: Vec<Vec2>,
    /// The farthest slot's distance from the anchor.
    pub reach: f32,
    /// Where each member stands and how it moves as the tick begins, by id (members heed how
    /// the others move to keep clear of them).
    pub motions: Vec<Motion>,
    /// The total agent-to-slot distance at the last assignment.
    pub cost: f64,
    /// Assignments made after the first.
    pub reassignments: u32,
    /// The mean member-to-slot distance of each of the last ticks.
    errors: VecDeque<f32>,
    /// Member-ticks with another member's body overlapping, after [`GATHER_S`].
    pub overlaps: u64,
    /// Where the members stand, to find the overlaps.
    grid: Neighbours,
    placed: bool,
    /// The leader's heading: its velocity's while it moves, kept while it stands.
    leader: Vec2,
}

impl FormationRun {
    /// A formation of `shape` not yet placed.
    pub fn new(shape: FormationShape) -> FormationRun {
        FormationRun {
            shape,
            ..FormationRun::default()
        }
    }

    /// `slot_error_mean_px`.
    pub fn slot_error(&self) -> Option<f64> {
        (!self.errors.is_empty()).then(|| {
            self.errors.iter().map(|&e| f64::from(e)).sum::<f64>() / self.errors.len() as f64
        })
    }

    /// The mean member-to-slot distance of the last tick.
    pub fn last_error(&self) -> Option<f32> {
        self.errors.back().copied()
    }
}

impl World {
    /// `formation`: `count` members from the seeded spawns, the anchor behind the player, and
    /// the slots assigned.
    pub(super) fn spawn_formation(&mut self, count: usize) {
        self.formation = FormationRun::new(self.formation.shape);
        // (Room for the measures, so no tick allocates.)
        let window = (ERROR_WINDOW_S / self.dt).round() as usize;
        self.formation.errors.reserve(window + 1);
        let spawns = self.arena.spawns.clone();
        let half = self.start_scatter(count.div_ceil(spawns.len().max(1)));
        for i in 0..count {
            let pos = self.member_start(spawns[i % spawns.len()], half);
            let agent = self.new_agent(i as u32, pos, Mode::Formation, self.flip);
            self.agents.push(agent);
        }
        self.form();
        let reach = 2.0 * self.tuning.member.radius;
        let placed = self.agents.iter().map(|a| Placed {
            id: a.id,
            pos: a.body.pos,
        });
        let size = self.arena.size();
        self.formation.grid.rebuild_members(size, reach, placed);
    }

    /// How far each way from its spawn point a member may start when `share` members start
    /// round that point: [`SPAWN_SCATTER`], or, for more than that square holds at the
    /// formation's spacing, a square that holds them at it (thousands from eight points would
    /// otherwise start as eight piles, where no member's half-planes leave it a way out).
    pub(super) fn start_scatter(&self, share: usize) -> f32 {
        let side = self.tuning.formation.spacing.max(1.0) * (share as f32).sqrt();
        (0.5 * side).max(SPAWN_SCATTER)
    }

    /// An agent's start round `base`, within `half` each way: [`World::scattered`] when `half`
    /// is [`SPAWN_SCATTER`] (every mode's new agents but a big formation's); a wider square is
    /// moved inside the arena, and the spot drawn in it put clear of the obstacles.
    pub(super) fn member_start(&mut self, base: Vec2, half: f32) -> Vec2 {
        if half <= SPAWN_SCATTER {
            return self.scattered(base);
        }
        let r = self.tuning.member.radius;
        let size = self.arena.size();
        // (The square's centre as near `base` as keeps it inside; an arena too small for it
        // centres it.)
        let inside = |b: f32, side: f32| {
            let (lo, hi) = (r + half, side - r - half);
            if lo <= hi {
                b.clamp(lo, hi)
            } else {
                side * 0.5
            }
        };
        let centre = Vec2::new(inside(base.x, size.x), inside(base.y, size.y));
        let pos = centre
            + Vec2::new(
                self.rng.gen_range(-half..=half),
                self.rng.gen_range(-half..=half),
            );
        let pos = pos.clamp(Vec2::splat(r), (size - r).max(Vec2::splat(r)));
        if self.arena.is_clear(pos, r) {
            pos
        } else {
            self.arena.nearest_clear(pos, r)
        }
    }

    /// `V`: the next shape (or any), assigned again.
    pub fn set_shape(&mut self, shape: FormationShape) {
        if shape == self.formation.shape {
            return;
        }
        self.formation.shape = shape;
        self.events.push(format!("shape:{}", shape.name()));
        if self.mode == Mode::Formation {
            self.form();
        }
    }

    /// The slots of the shape for the crowd as it is, and who takes which: agent `i` slot `i`
    /// with `T` on (`fixed`), else the least total distance (`nearest`).
    pub(super) fn form(&mut self) {
        let n = self.agents.len();
        if self.formation.placed {
            self.formation.reassignments += 1;
        } else {
            let heading = self.leader_heading(Vec2::X);
            let anchor = self.player.pos - heading * self.anchor_gap();
            let run = &mut self.formation;
            (run.leader, run.heading, run.anchor, run.placed) = (heading, heading, anchor, true);
        }
        let run = &mut self.formation;
        run.offsets = formation::offsets(run.shape, n, &self.tuning.formation);
        run.reach = run.offsets.iter().map(|o| o.length()).fold(0.0, f32::max);
        // (Room for every member, so no tick grows the list.)
        run.motions.reserve(n.saturating_sub(run.motions.len()));
        let slots: Vec<Vec2> = run
            .offsets
            .iter()
            .map(|&o| formation::place(run.anchor, run.heading, o))
            .collect();
        let at: Vec<Vec2> = self.agents.iter().map(|a| a.body.pos).collect();
        let slot_of: Vec<usize> = if self.flip {
            (0..n).collect()
        } else {
            assign::nearest(&at, &slots, run.heading)
        };
        run.cost = (assign::cost(&at, &slots, &slot_of) * 1e3).round() / 1e3;
        for (a, &s) in self.agents.iter_mut().zip(&slot_of) {
            if let Behaviour::Member(m) = &mut a.behaviour {
                m.slot = s as u32;
                m.at = slots[s];
                m.vel = Vec2::ZERO;
            }
        }
    }

    /// The player's heading: its velocity's direction while it moves, else `standing`.
    fn leader_heading(&self, standing: Vec2) -> Vec2 {
        if self.player.vel.length_squared() > LEADER_MOVING * LEADER_MOVING {
            self.player.vel.normalize_or(standing)
        } else {
            standing
        }
    }

    /// How far behind the leader the anchor trails (the ring stands round the leader).
    fn anchor_gap(&self) -> f32 {
        match self.formation.shape {
            FormationShape::Ring => 0.0,
            FormationShape::Wedge | FormationShape::Line | FormationShape::Column => {
                self.tuning.formation.anchor_gap
            }
        }
    }

    /// Before the agents move: the anchor follows the leader, turning and moving no faster than
    /// its tuned pace, nor faster than its farthest members can keep up with, and each member
    /// learns where its slot is and how fast it moves.
    pub(super) fn brief_members(&mut self) {
        let dt = self.dt;
        let t = self.tuning.formation;
        let keep = KEEP_UP * self.tuning.member.max_speed;
        let gap = self.anchor_gap();
        let want = self.leader_heading(self.formation.leader);
        let run = &mut self.formation;
        run.leader = want;
        let (was_anchor, was_heading) = (run.anchor, run.heading);
        // The heading turns toward the leader's at the tuned rate, and no faster than swings
        // the farthest slot round at `keep`.
        let turn = was_heading.angle_between(want);
        let rate = t
            .anchor_turn_deg_s
            .to_radians()
            .min(keep / run.reach.max(1e-3));
        let most = rate * dt;
        let turn = if turn.is_finite() {
            turn.clamp(-most, most)
        } else {
            0.0
        };
        run.heading = Vec2::from_angle(turn)
            .rotate(was_heading)
            .try_normalize()
            .unwrap_or(Vec2::X);
        // The anchor moves toward its place behind the leader at the tuned speed, and no faster
        // than leaves every slot, carried round by the turn as well, within `keep`.
        let target = self.player.pos - run.heading * gap;
        let way = target - was_anchor;
        let along = way.normalize_or_zero();
        let spin = turn / dt;
        let heading = run.heading;
        let pace = run.offsets.iter().fold(t.anchor_speed, |pace, &o| {
            let swing = formation::place(Vec2::ZERO, heading, o).perp() * spin;
            let ahead = along.dot(swing);
            let room = (ahead * ahead - swing.length_squared() + keep * keep).max(0.0);
            pace.min(room.sqrt() - ahead)
        });
        run.anchor = was_anchor + way.clamp_length_max(pace.max(0.0) * dt);
        let (anchor, heading) = (run.anchor, run.heading);
        run.motions.clear();
        run.motions.extend(self.agents.iter().map(|a| Motion {
            pos: a.body.pos,
            vel: a.body.vel,
        }));
        for a in &mut self.agents {
            let Behaviour::Member(m) = &mut a.behaviour else {
                continue;
            };
            let Some(&offset) = run.offsets.get(m.slot as usize) else {
                continue;
            };
            let now = formation::place(anchor, heading, offset);
            let before = formation::place(was_anchor, was_heading, offset);
            m.at = now;
            m.vel = (now - before) / dt;
        }
    }

    /// After the tick: the members' mean distance from their slots, and overlaps between them
    /// once they have gathered.
    pub(super) fn measure_formation(&mut self) {
        let window = (ERROR_WINDOW_S / self.dt).round() as usize;
        let members = self
            .agents
            .iter()
            .filter_map(|a| member(a).map(|m| a.body.pos.distance(m.at)));
        let (sum, count) = members.fold((0.0f32, 0usize), |(s, c), d| (s + d, c + 1));
        let gathered = self.time() > GATHER_S;
        let run = &mut self.formation;
        if count > 0 {
            run.errors.push_back(sum / count as f32);
            while run.errors.len() > window.max(1) {
                run.errors.pop_front();
            }
        }
        if !gathered {
            return;
        }
        let reach = 2.0 * self.tuning.member.radius;
        let placed = self.agents.iter().map(|a| Placed {
            id: a.id,
            pos: a.body.pos,
        });
        run.grid.rebuild_members(self.arena.size(), reach, placed);
        let grid = &run.grid;
        let overlapping = self
            .agents
            .iter()
            .filter(|a| grid.any_within(a.id, a.body.pos, reach))
            .count();
        run.overlaps += overlapping as u64;
    }
}

fn member(a: &Agent) -> Option<&Member> {
    match &a.behaviour {
        Behaviour::Member(m) => Some(m),
        _ => None,
    }
}
