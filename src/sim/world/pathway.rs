//! The `pathway` mode's part of the world: the pathways the pedestrians follow (the arena
//! file's, or one drawn in the window, or a loop inside the walls for an arena with none),
//! placing the pedestrians on them, half each way, and what the summary measures: agent-ticks
//! with the centre outside the pathway, traversals, and bodies overlapping.

use super::World;
use crate::data::pathways::{MAX_PATHWAY_POINTS, MIN_PATHWAY_RADIUS};
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::pathway::{self, Pedestrian};
use crate::sim::mode::Mode;
use crate::sim::space::neighbours::{Member as Placed, Neighbours};
use crate::sim::space::pathway::Pathway;
use crate::sim::trace::{Role, Shape, Trace};
use ::rand::Rng;
use glam::Vec2;

/// A drawn pathway whose last point comes within this many radii of its first closes into a
/// loop.
const CLOSE_RADII: f32 = 1.5;
/// The radius of a drawn pathway when the arena file has none to copy (px).
const DRAWN_RADIUS: f32 = 36.0;
/// An arena without pathways gets a loop inset this share of its size from the walls.
const INSET: f32 = 0.12;

/// The pathways and what the mode has measured.
#[derive(Debug, Clone, Default)]
pub struct PathwayRun {
    /// The pathways the pedestrians follow now.
    pub ways: Vec<Pathway>,
    /// A pathway drawn in the window, which replaces the data's until restored.
    pub drawn: Option<Pathway>,
    /// Agent-ticks measured, and those with the agent's centre outside its pathway.
    pub agent_ticks: u64,
    pub outside: u64,
    /// Agent-pair-ticks whose bodies overlap.
    pub collisions: u64,
    /// Where the pedestrians stand, to find the overlaps.
    grid: Neighbours,
}

impl PathwayRun {
    /// `outside_fraction`: the share of agent-ticks with the centre outside the pathway.
    pub fn outside_fraction(&self) -> Option<f64> {
        (self.agent_ticks > 0).then(|| self.outside as f64 / self.agent_ticks as f64)
    }
}

impl World {
    /// The pathways to follow: the drawn one, else the arena file's, else a loop inside the
    /// walls.
    fn lay_pathways(&mut self) {
        let ways: Vec<Pathway> = match &self.pathway.drawn {
            Some(p) => vec![p.clone()],
            None => self
                .arena
                .pathways
                .iter()
                .filter_map(Pathway::from_data)
                .collect(),
        };
        self.pathway.ways = if ways.is_empty() {
            let (w, h) = (self.arena.width, self.arena.height);
            let (x0, y0, x1, y1) = (w * INSET, h * INSET, w * (1.0 - INSET), h * (1.0 - INSET));
            let corners = [
                Vec2::new(x0, y0),
                Vec2::new(x1, y0),
                Vec2::new(x1, y1),
                Vec2::new(x0, y1),
            ];
            let radius = (w.min(h) * INSET * 0.5).clamp(2.0, DRAWN_RADIUS);
            Pathway::new(&corners, radius, true).into_iter().collect()
        } else {
            ways
        };
    }

    /// `pathway`: `count` pedestrians, agent `i` on pathway `i mod n`, every other one of each
    /// pathway going the other way, each at a seeded random distance along its lane.
    pub(super) fn spawn_pathway(&mut self, count: usize) {
        self.lay_pathways();
        let run = &mut self.pathway;
        (run.agent_ticks, run.outside, run.collisions) = (0, 0, 0);
        let keep_right = self.tuning.pathway.keep_right;
        let n = self.pathway.ways.len().max(1);
        for i in 0..count {
            let path = (i % n) as u32;
            let forward = (i / n).is_multiple_of(2);
            let mut walker = Pedestrian::new(path, forward);
            let pos = match self.pathway.ways.get(path as usize) {
                Some(way) => {
                    let along = self.rng.gen_range(0.0..=way.length());
                    pathway::lane_point(way, along, walker.sign(), keep_right)
                }
                None => self.arena.player_start,
            };
            let mut agent = self.new_agent(i as u32, pos, Mode::Pathway, false);
            walker.predicted = agent.body.pos;
            walker.projected = agent.body.pos;
            walker.target = agent.body.pos;
            agent.behaviour = Behaviour::Pedestrian(Box::new(walker));
            self.agents.push(agent);
        }
        let reach = 2.0 * self.tuning.pedestrian.radius;
        let placed = self.agents.iter().map(|a| Placed {
            id: a.id,
            pos: a.body.pos,
        });
        let size = self.arena.size();
        self.pathway.grid.rebuild_members(size, reach, placed);
    }

    /// A pathway drawn in the window (its points in order): it replaces the pathways followed,
    /// and every pedestrian makes for it. Fewer than two distinct points change nothing.
    pub fn draw_pathway(&mut self, points: &[Vec2]) {
        let points = &points[..points.len().min(MAX_PATHWAY_POINTS)];
        // (No wider than an arena file may have it, so a saved arena reads back.)
        let most = self.arena.width.min(self.arena.height) / 2.0;
        let radius = self
            .arena
            .pathways
            .first()
            .map_or(DRAWN_RADIUS, |p| p.radius)
            .clamp(MIN_PATHWAY_RADIUS, most.max(MIN_PATHWAY_RADIUS));
        let closed = points.len() > 2
            && points[0].distance(points[points.len() - 1]) <= radius * CLOSE_RADII;
        let Some(way) = Pathway::new(points, radius, closed) else {
            return;
        };
        self.pathway.drawn = Some(way);
        self.events.push("pathway:drawn".to_string());
        self.repath();
    }

    /// Right click in `pathway`: the data's pathways again.
    pub fn restore_pathway(&mut self) {
        if self.pathway.drawn.take().is_some() {
            self.events.push("pathway:data".to_string());
            self.repath();
        }
    }

    /// The pathways changed: lay them again and send each pedestrian to one of them.
    fn repath(&mut self) {
        if self.mode != Mode::Pathway {
            return;
        }
        self.lay_pathways();
        let n = self.pathway.ways.len().max(1) as u32;
        for a in &mut self.agents {
            if let Behaviour::Pedestrian(w) = &mut a.behaviour {
                w.path %= n;
                w.forget_place();
            }
        }
    }

    /// After the tick: agents outside their pathway, and pairs of bodies overlapping.
    pub(super) fn measure_pathway(&mut self) {
        let run = &mut self.pathway;
        let mut outside = 0u64;
        for a in &self.agents {
            let Behaviour::Pedestrian(w) = &a.behaviour else {
                continue;
            };
            if let Some(way) = run.ways.get(w.path as usize) {
                outside += u64::from(way.project(a.body.pos).distance > way.radius);
            }
        }
        run.outside += outside;
        run.agent_ticks += self.agents.len() as u64;
        let reach = 2.0 * self.tuning.pedestrian.radius;
        let placed = self.agents.iter().map(|a| Placed {
            id: a.id,
            pos: a.body.pos,
        });
        run.grid.rebuild_members(self.arena.size(), reach, placed);
        let grid = &run.grid;
        let mut pairs = 0u64;
        for a in &self.agents {
            grid.for_each_within(a.body.pos, reach, |j, _, _| {
                pairs += u64::from(j > a.id);
            });
        }
        run.collisions += pairs;
    }

    /// Traversals completed: in all, and by the pedestrian that completed fewest.
    pub fn traversals(&self) -> (u64, Option<u32>) {
        let each = self
            .agents
            .iter()
            .filter_map(pedestrian)
            .map(|w| w.traversals);
        let total = each.clone().map(u64::from).sum();
        (total, each.min())
    }
}

/// A pedestrian's trace: predict, project, correct — the prediction, its projection on the
/// lane, and the target ahead (the line to it only while correcting).
pub(super) fn trace_pedestrian(a: &Agent, w: &Pedestrian, out: &mut Trace) {
    let pos = a.body.pos;
    out.mark_at_agent(
        Role::Predicted,
        Shape::Segment {
            from: pos,
            to: w.predicted,
        },
    );
    out.mark(
        Role::Projection,
        Shape::Segment {
            from: w.predicted,
            to: w.projected,
        },
    );
    out.mark(Role::Projection, Shape::Dot { at: w.projected });
    if a.state == "correct" {
        out.mark_at_agent(
            Role::Ahead,
            Shape::Segment {
                from: pos,
                to: w.target,
            },
        );
    }
    out.mark(Role::Ahead, Shape::Cross { at: w.target });
}

fn pedestrian(a: &Agent) -> Option<&Pedestrian> {
    match &a.behaviour {
        Behaviour::Pedestrian(w) => Some(w),
        _ => None,
    }
}
