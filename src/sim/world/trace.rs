//! Filling the traces the window asks for (see [`crate::sim::trace`]): when the window names the
//! agents to trace before it draws, and the world has ticked or taken a command since the last
//! traces (or the selection changed), each traced agent's quantities are read from the state the
//! last tick left and written into buffers kept from frame to frame. A tick only marks the
//! traces stale, so it costs the same traced or not; however many ticks a frame runs, the traces
//! are filled once. With nothing traced nothing is filled and nothing allocated.

use super::World;
use crate::data::crowds::Neighbourhood;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::flock::Sight;
use crate::sim::behaviours::galaga;
use crate::sim::behaviours::unstick::Unstick;
use crate::sim::behaviours::{evade, hide, tile_chase};
use crate::sim::fsm::Vision;
use crate::sim::mode::Mode;
use crate::sim::path::{self, FlowField};
use crate::sim::space::clear;
use crate::sim::space::feelers::{self, Feel, Layout, Ray};
use crate::sim::space::tiles::bresenham;
use crate::sim::trace::{PathTrace, Role, Shape, Trace};
use glam::Vec2;

/// Segments of a guard's traced view cone: each edge ray is cast, so obstacles cut the cone.
pub const CONE_SEGMENTS: usize = 28;
/// Steps of a tile chaser's staircase traced ahead.
const STAIRCASE: usize = 64;
/// Tiles of a line-of-sight chaser's line traced.
const LINE_TILES: u32 = 256;
/// Times the traced search is run for its timing; the fastest counts (the others met a cold
/// cache or the scheduler).
const TIMING_RUNS: usize = 5;

/// What the window asked to trace, and the traces, kept to reuse their buffers.
#[derive(Debug, Clone, Default)]
pub struct Tracing {
    /// The traced agents: index in `World::agents` and id.
    picks: Vec<(usize, u32)>,
    traces: Vec<Trace>,
    path: PathTrace,
    field: FlowField,
    preview: Vec<Vec2>,
    /// The world ticked or took a command since the traces were filled.
    stale: bool,
}

impl World {
    /// Trace these agents (index in `agents` and id, in index order) as the world is now: the
    /// window calls this before it draws, and the traces are filled again if the world ticked
    /// or took a command since, or the list changed; an empty list stops tracing. Tracing never
    /// changes the simulation: it is not a command and is not recorded. `now` is the caller's
    /// clock in seconds, for the traced search's timing (the simulation owns no clock: the
    /// window's works in the browser too).
    pub fn trace_agents(&mut self, picks: &[(usize, u32)], now: fn() -> f64) {
        if self.tracing.picks.as_slice() == picks && !self.tracing.stale {
            return;
        }
        self.tracing.picks.clear();
        self.tracing.picks.extend_from_slice(picks);
        self.tracing.picks.sort_unstable();
        self.tracing.picks.dedup_by_key(|p| p.0);
        self.retrace(now);
    }

    /// The traces of the traced agents, in index order.
    pub fn traces(&self) -> &[Trace] {
        &self.tracing.traces
    }

    /// Agent `index`'s trace after the last tick, if it is traced.
    pub fn trace_of(&self, index: usize) -> Option<&Trace> {
        let traces = &self.tracing.traces;
        let at = traces.binary_search_by_key(&index, |t| t.index).ok()?;
        let id = self.agents.get(index)?.id;
        traces.get(at).filter(|t| t.id == id)
    }

    /// `pathfind`'s traced search (`shown` is `None` outside `pathfind` or before any chaser
    /// among the traced ones planned).
    pub fn path_trace(&self) -> &PathTrace {
        &self.tracing.path
    }

    /// The world changed: its traces are filled again when the window next asks.
    pub(super) fn traces_stale(&mut self) {
        self.tracing.stale = true;
    }

    /// Fill every traced agent's trace from the world as it is.
    fn retrace(&mut self, now: fn() -> f64) {
        self.tracing.stale = false;
        if self.tracing.picks.is_empty() {
            if !self.tracing.traces.is_empty() {
                self.tracing.traces.clear();
                self.tracing.path.shown = None;
            }
            return;
        }
        let mut t = std::mem::take(&mut self.tracing);
        let picks = std::mem::take(&mut t.picks);
        t.traces.resize_with(picks.len(), Trace::default);
        for (trace, &(index, id)) in t.traces.iter_mut().zip(&picks) {
            trace.index = index;
            trace.id = id;
            trace.marks.clear();
            trace.fan.clear();
            trace.heeded = 0;
            trace.forces.clear();
            if let Some(a) = self.agents.get(index).filter(|a| a.id == id) {
                self.trace_agent(index, a, trace, &mut t.preview);
                self.trace_forces(a, trace);
            }
        }
        t.path.shown = None;
        if self.mode == Mode::Pathfind {
            self.trace_path(&picks, &mut t.path, &mut t.field, now);
        }
        t.picks = picks;
        self.tracing = t;
    }

    fn trace_agent(&self, index: usize, a: &Agent, out: &mut Trace, preview: &mut Vec<Vec2>) {
        let pos = a.body.pos;
        let grid = &self.arena.tiles;
        let player_tile = grid.tile_of(self.player.pos);
        match &a.behaviour {
            Behaviour::TileChase { walk, flip } => {
                // The steps it would take if the player stood still: the staircase path.
                let mut tile = walk.tile;
                for _ in 0..STAIRCASE {
                    match tile_chase::step(grid, tile, player_tile, *flip) {
                        Some(next) if next != player_tile => {
                            out.mark(Role::Path, Shape::Tile(next));
                            tile = next;
                        }
                        _ => break,
                    }
                }
            }
            Behaviour::TileLos { walk, line, .. } => {
                let mut i: u32 = 0;
                bresenham(line.from, line.to, |t| {
                    if !grid.inside(t) || i > LINE_TILES {
                        return false;
                    }
                    let role = if grid.blocked(t) {
                        Role::Blocked
                    } else if i <= line.walked {
                        Role::Walked
                    } else {
                        Role::Path
                    };
                    out.mark(role, Shape::Tile(t));
                    i += 1;
                    true
                });
                out.mark(Role::Occupied, Shape::Tile(walk.tile));
            }
            Behaviour::Los { .. } => {
                out.mark_at_agent(
                    Role::Sight,
                    Shape::Segment {
                        from: pos,
                        to: a.aim,
                    },
                );
            }
            Behaviour::Intercept { .. } => {
                let role = if a.tc().is_some() {
                    Role::Predicted
                } else {
                    Role::Sight
                };
                out.mark_at_agent(
                    role,
                    Shape::Segment {
                        from: pos,
                        to: a.aim,
                    },
                );
                out.mark(role, Shape::Cross { at: a.aim });
            }
            Behaviour::Evade(state) => {
                let params = a.behaviour.params(&self.tuning);
                let speed_frac = a.body.speed() / params.max_speed.max(f32::EPSILON);
                let rays = evade::feeler_config(params, &self.tuning.evade).rays(
                    pos,
                    a.body.heading,
                    speed_frac,
                    0.0,
                );
                if state.unstick.escaping() {
                    way_out(&state.unstick, out);
                } else {
                    trace_rays(&rays, state.felt, out);
                }
                if a.state == "wander" {
                    let t = &self.tuning.evade;
                    wander_circle(a, t.wander_distance, t.wander_radius, out);
                } else if !state.unstick.escaping() {
                    out.mark(Role::Threat, Shape::Cross { at: a.aim });
                }
            }
            Behaviour::Ship(s) => {
                if !a.queued()
                    && let Some(stage) = &self.stage
                {
                    galaga::preview(stage, s, pos, preview);
                    for (k, w) in preview.windows(2).enumerate() {
                        let segment = Shape::Segment {
                            from: w[0],
                            to: w[1],
                        };
                        if k == 0 {
                            out.mark_at_agent(Role::Predicted, segment);
                        } else {
                            out.mark(Role::Predicted, segment);
                        }
                    }
                }
            }
            // (Their instruction lists are the agents' own state, shown as such.)
            Behaviour::Pattern { .. } | Behaviour::TilePattern { .. } => {}
            Behaviour::Path(chase) => {
                if !chase.corners.is_empty() {
                    out.mark_at_agent(
                        Role::Course,
                        Shape::Segment {
                            from: pos,
                            to: a.aim,
                        },
                    );
                }
            }
            Behaviour::Guard(_) => self.view_cone(a, out),
            Behaviour::Hide(h) => self.hiding_spots(a, h, out),
            Behaviour::Member(m) => {
                out.mark_at_agent(
                    Role::Course,
                    Shape::Segment {
                        from: pos,
                        to: m.at,
                    },
                );
                out.mark(Role::Predicted, Shape::Cross { at: m.aim });
            }
            Behaviour::Pedestrian(w) => super::pathway::trace_pedestrian(a, w, out),
            Behaviour::Bodyguard(g) => {
                let player = self.player.pos;
                out.mark(
                    Role::Sight,
                    Shape::Segment {
                        from: player,
                        to: g.charge_pos,
                    },
                );
                out.mark_at_agent(
                    Role::Course,
                    Shape::Segment {
                        from: pos,
                        to: g.point,
                    },
                );
                out.mark(Role::Predicted, Shape::Cross { at: g.point });
            }
            Behaviour::Walker(w) => self.trace_walker(index, a, w, out),
            Behaviour::Boid(_) => self.heeded(index, a, out),
            Behaviour::Swarmer(_) => {
                let length = (2.0 * self.tuning.boid.radius).max(1.0);
                let radius = self.tuning.swarm.range * length;
                out.mark_at_agent(Role::Sight, Shape::Circle { at: pos, radius });
            }
            Behaviour::Wander { walk, .. } | Behaviour::Avoid { walk, .. } => {
                let params = a.behaviour.params(&self.tuning);
                let cfg = clear::feelers(params, &self.tuning.avoid);
                let extra = if cfg.layout == Layout::Whiskers {
                    walk.avoid.spread * clear::MAX_SPREAD
                } else {
                    0.0
                };
                let speed_frac = a.body.speed() / params.max_speed.max(f32::EPSILON);
                let rays = cfg.rays(pos, a.body.heading, speed_frac, extra);
                if walk.unstick.escaping() {
                    way_out(&walk.unstick, out);
                } else {
                    // The walls are felt every tick; obstacles as of the agent's last cast.
                    let walls = feelers::feel_walls(&self.arena, &rays, cfg.sweep_radius());
                    let felt = feelers::deeper(walls, walk.avoid.held.felt);
                    trace_rays(&rays, felt, out);
                }
                let w = &self.tuning.wander;
                if let Some((spot, _)) = walk.waypoint {
                    out.mark_at_agent(
                        Role::Sight,
                        Shape::Segment {
                            from: pos,
                            to: spot,
                        },
                    );
                    out.mark(Role::Predicted, Shape::Cross { at: spot });
                } else if a.state != "chase" && a.state != "chase-avoid" {
                    wander_circle(a, w.distance, w.radius, out);
                }
                if walk.apart != Vec2::ZERO {
                    let v = walk.apart;
                    out.mark_at_agent(Role::Apart, Shape::Vector { from: pos, v });
                }
            }
        }
        // (The flock's and the swarm's forces are their members' own state, shown part by part.)
        let grouped = a.behaviour.base().0.moves_together();
        if a.tile().is_none() && !grouped {
            let mass = a.behaviour.params(&self.tuning).mass.max(f32::EPSILON);
            let v = a.steer / mass;
            out.mark_at_agent(Role::Steering, Shape::Vector { from: pos, v });
        }
    }

    /// A hider's overlay: every obstacle's hiding spot from the player, the one it heads for, and
    /// the player's line of sight to it (blocked or clear).
    fn hiding_spots(&self, a: &Agent, h: &hide::Hider, out: &mut Trace) {
        let r = a.behaviour.params(&self.tuning).radius;
        for o in self.arena.obstacles() {
            let spot = hide::hiding_spot(o, self.player.pos, r, self.tuning.hide.boundary);
            out.mark(Role::Path, Shape::Dot { at: spot });
        }
        if let Some(spot) = h.spot {
            out.mark_at_agent(
                Role::Course,
                Shape::Segment {
                    from: a.body.pos,
                    to: spot,
                },
            );
            out.mark(Role::Predicted, Shape::Cross { at: spot });
        }
        let role = if h.seen { Role::Sight } else { Role::SightCut };
        out.mark(
            role,
            Shape::Segment {
                from: self.player.pos,
                to: a.body.pos,
            },
        );
    }

    /// A guard's view cone, each ray stopped by the first obstacle it meets.
    fn view_cone(&self, a: &Agent, out: &mut Trace) {
        let vision = Vision::from_tuning(&self.tuning.fsm);
        let eye = a.body.pos;
        let spread = 2.0 * vision.half_angle;
        for i in 0..=CONE_SEGMENTS {
            let angle = -vision.half_angle + spread * i as f32 / CONE_SEGMENTS as f32;
            let dir = Vec2::from_angle(angle).rotate(a.body.heading);
            let t = self
                .arena
                .ray_cast(eye, dir, vision.range)
                .map_or(vision.range, |h| h.t);
            out.fan.push(eye + dir * t);
        }
    }

    /// Boid `index`'s neighbours as the flock counts them (the grid as the tick began, the
    /// sight from the boid's heading then), a line to each, their count, and its view cone.
    fn heeded(&self, index: usize, a: &Agent, out: &mut Trace) {
        let fp = &self.tuning.flock;
        let g = &self.flocking;
        let reach = match fp.neighbourhood {
            Neighbourhood::Metric => fp.radius,
            Neighbourhood::Topological => fp.reach,
        };
        let cone = Shape::Cone {
            at: a.body.pos,
            heading: a.body.heading,
            radius: reach,
            fov_deg: fp.fov_deg,
        };
        let Some(&me) = g.positions().get(index) else {
            out.mark_at_agent(Role::Sight, cone);
            return;
        };
        let from = a.body.pos;
        let me_index = index as u32;
        let mut count = 0;
        match fp.neighbourhood {
            Neighbourhood::Metric => {
                let sight = Sight::new(me, a.prev_heading, fp.radius, fp.fov_deg);
                g.grid.for_each_within(me, fp.radius, |j, q, d2| {
                    if j != me_index && sight.sees_offset(q - me, d2) {
                        out.mark_at_agent(Role::Neighbour, Shape::Segment { from, to: q });
                        count += 1;
                    }
                });
            }
            Neighbourhood::Topological => {
                let sight = Sight::new(me, a.prev_heading, fp.reach, fp.fov_deg);
                let near = g.grid.nearest(me, fp.k as usize, fp.reach, |j, q| {
                    j != me_index && sight.sees(q)
                });
                for (j, _) in near.iter() {
                    if let Some(&q) = g.positions().get(j as usize) {
                        out.mark_at_agent(Role::Neighbour, Shape::Segment { from, to: q });
                        count += 1;
                    }
                }
            }
        }
        out.heeded = count;
        out.mark_at_agent(Role::Sight, cone);
    }

    /// The search of the traced chaser nearest the player, run again between the tiles its plan
    /// came from (it is deterministic, so the sets are the ones that plan came from), with its
    /// timing; in a crowd, the field's build timed too.
    fn trace_path(
        &self,
        picks: &[(usize, u32)],
        out: &mut PathTrace,
        field: &mut FlowField,
        now: fn() -> f64,
    ) {
        let tiles = &self.arena.tiles;
        let goal = self.path_goal();
        let player = self.player.pos;
        let flows = self.flows();
        let nearest = picks
            .iter()
            .filter_map(|&(i, id)| {
                let a = self.agents.get(i).filter(|a| a.id == id)?;
                let Behaviour::Path(chase) = &a.behaviour else {
                    return None;
                };
                (flows || chase.planned).then_some((a, chase))
            })
            .min_by(|a, b| {
                let d = |x: &Agent| x.body.pos.distance_squared(player);
                d(a.0).total_cmp(&d(b.0))
            });
        let Some((agent, chase)) = nearest else {
            return;
        };
        let (from, to) = if flows {
            (tiles.nearest_free(tiles.tile_of(agent.body.pos)), goal)
        } else {
            (chase.from, chase.goal)
        };
        out.order = self.paths.order;
        let mut fastest = f32::INFINITY;
        for _ in 0..TIMING_RUNS {
            let started = now();
            out.found = out
                .search
                .find(tiles, from, to, out.order, &mut out.tiles)
                .is_some();
            fastest = fastest.min(((now() - started) * 1e6) as f32);
        }
        out.search_us = fastest;
        out.expanded = out.search.expanded();
        // (The chaser's own corners when it planned with this search; paused after `V`, the
        // corners the new search's path would give.)
        path::smooth(
            &self.arena,
            &out.tiles,
            self.tuning.chaser.radius,
            &mut out.corners,
        );
        if flows {
            let started = now();
            field.build(tiles, goal);
            out.field_us = ((now() - started) * 1e6) as f32;
        }
        out.shown = Some((agent.id, from, to));
        out.at = agent.body.pos;
    }
}

/// A way out of a pocket being followed (its feelers set aside): the swept line from where the
/// body stops to where it met something, with a cross there.
fn way_out(u: &Unstick, out: &mut Trace) {
    if let Some(e) = u.escape {
        let to = e.from + e.dir * e.run;
        out.mark(Role::Escape, Shape::Segment { from: e.from, to });
        out.mark(Role::Escape, Shape::Cross { at: to });
    }
}

/// Feeler rays, the one that hit marked with its hit point and surface normal.
fn trace_rays(rays: &[Ray; 3], felt: Option<Feel>, out: &mut Trace) {
    for (i, r) in rays.iter().enumerate() {
        if r.length <= 0.0 {
            continue;
        }
        let hit_here = felt.is_some_and(|f| usize::from(f.ray) == i);
        let role = if hit_here { Role::Hit } else { Role::Ray };
        let to = r.origin + r.dir * r.length;
        out.mark(role, Shape::Segment { from: r.origin, to });
    }
    if let Some(f) = felt {
        let at = f.hit.point;
        out.mark(Role::Hit, Shape::Dot { at });
        let to = at + f.hit.normal * 16.0;
        out.mark(Role::Normal, Shape::Segment { from: at, to });
    }
}

/// The wander circle ahead of the agent and its target on it.
fn wander_circle(a: &Agent, distance: f32, radius: f32, out: &mut Trace) {
    let at = a.body.pos + a.body.heading * distance;
    out.mark_at_agent(Role::Wander, Shape::Circle { at, radius });
    out.mark_at_agent(
        Role::Wander,
        Shape::Segment {
            from: at,
            to: a.aim,
        },
    );
    out.mark(Role::Predicted, Shape::Dot { at: a.aim });
}
