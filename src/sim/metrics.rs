//! Measurements over a run, folded in tick by tick, and the `sim` summary built from them.

use crate::sim::group_metrics::{Watch, Watching};
use crate::sim::mode::Mode;
use crate::sim::space::neighbours::{Member, Neighbours};
use crate::sim::world::World;
use serde::Serialize;
use serde_json::{Map, Value};

/// Window over which an agent must have moved at least one body diameter (SPEC: `stuck_agents`).
const STUCK_WINDOW_S: f32 = 5.0;
/// Turns are measured between ticks where the agent moved at least this fraction of its max speed
/// at both ends: a crawling vehicle's heading is noise, and a start from rest is not a turn.
const TURN_MIN_SPEED_FRACTION: f32 = 0.1;
/// The flock's `polarization` is the mean over this many last simulated seconds (SPEC §5).
const POLARIZATION_WINDOW_S: f32 = 10.0;
/// The largest group's own polarization is the mean over this many last simulated seconds, its
/// groups sampled this many times a simulated second.
const GROUP_WINDOW_S: f32 = 20.0;
const GROUP_SAMPLES_PER_S: f32 = 2.0;
/// Overlaps are also counted apart from this many simulated seconds on: the crowd spawns spread
/// at random and takes a moment to space itself.
const SETTLE_S: f32 = 5.0;

#[derive(Debug, Clone, Default)]
pub struct Metrics {
    agent_ticks: u64,
    distance_sum: f64,
    min_clearance: Option<f32>,
    overlaps: u64,
    out_of_bounds: u64,
    max_speed: f32,
    max_turn_rate: f32,
    max_step_ratio: f32,
    non_finite: bool,
    tick_ms: Vec<f32>,
    /// Per agent: positions sampled once a second (oldest first), reset on respawn.
    samples: Vec<Vec<glam::Vec2>>,
    stuck: Vec<bool>,
    /// Mode 7: agent-ticks with another agent's body overlapping the agent's.
    agent_overlaps: u64,
    /// Mode 7: where the agents stand this tick, to find those overlaps.
    crowd: Neighbours,
    /// The flock and the swarm: how they hold together.
    watch: Option<Watch>,
}

impl Metrics {
    pub fn new() -> Self {
        Metrics::default()
    }

    /// Fold in the world just after a tick; `tick_ms` is the wall time the tick took.
    pub fn observe(&mut self, world: &World, tick_ms: f32) {
        self.tick_ms.push(tick_ms);
        let dt = world.dt;
        let player = world.player.pos;
        if !player.is_finite() || !world.player.vel.is_finite() {
            self.non_finite = true;
        }
        let sample_every = (1.0 / dt).round().max(1.0) as u64;
        let keep = (STUCK_WINDOW_S + 1.0) as usize;
        if self.samples.len() < world.agents.len() {
            self.samples.resize(world.agents.len(), Vec::new());
            self.stuck.resize(world.agents.len(), false);
        }
        if world.mode == Mode::Avoid {
            self.agent_overlaps += self.overlapping(world);
        }
        if world.mode.moves_together() {
            let ticks = |s: f32| (s / dt).round().max(1.0) as usize;
            let how = Watching {
                radius: world.tuning.boid.radius,
                join: join(world),
                window: ticks(POLARIZATION_WINDOW_S),
                group_window: ticks(GROUP_WINDOW_S),
                group_every: ticks(1.0 / GROUP_SAMPLES_PER_S),
                settle: ticks(SETTLE_S) as u64,
            };
            let members = world.agents.iter().map(|a| (a.body.pos, a.body.vel));
            self.watch
                .get_or_insert_with(Watch::new)
                .observe(world.arena.size(), members, &how);
        }
        for (i, a) in world.agents.iter().enumerate() {
            let b = &a.body;
            let params = a.behaviour.params(&world.tuning);
            if !b.pos.is_finite() || !b.vel.is_finite() {
                self.non_finite = true;
                continue;
            }
            self.agent_ticks += 1;
            self.distance_sum += f64::from(b.pos.distance(player));
            // Where the clearance field proves the agent farther from every obstacle than the
            // least clearance so far, it can change neither figure: the search for the nearest
            // surface, which in the open space of a crowd's grown arena looks over thousands of
            // cells, is skipped.
            let farther = self
                .min_clearance
                .is_some_and(|m| world.arena.field().free(b.pos) - params.radius > m);
            let measured = a.behaviour.grounded() && !farther;
            if let Some(d) = measured
                .then(|| world.arena.nearest_distance(b.pos))
                .flatten()
            {
                let clearance = d - params.radius;
                self.min_clearance =
                    Some(self.min_clearance.map_or(clearance, |m| m.min(clearance)));
                if clearance < 0.0 {
                    self.overlaps += 1;
                }
            }
            if !world.arena.contains(b.pos) {
                self.out_of_bounds += 1;
            }
            let speed = b.vel.length();
            self.max_speed = self.max_speed.max(speed);
            // Tile agents jump a tile per step by design; steps and turns are measured for
            // continuous agents only.
            if !a.respawned && a.tile().is_none() {
                let step = b.pos.distance(a.prev_pos);
                let ratio = step / (params.max_speed * dt).max(f32::EPSILON);
                self.max_step_ratio = self.max_step_ratio.max(ratio);
                let slowest = TURN_MIN_SPEED_FRACTION * params.max_speed;
                if speed > slowest && a.prev_speed > slowest {
                    let turn = a.prev_heading.angle_between(b.heading).abs().to_degrees();
                    if turn.is_finite() {
                        self.max_turn_rate = self.max_turn_rate.max(turn / dt);
                    }
                }
            }
            let history = &mut self.samples[i];
            if a.respawned {
                history.clear();
            }
            if a.behaviour.must_move() && world.tick.is_multiple_of(sample_every) {
                history.push(b.pos);
                if history.len() > keep {
                    history.remove(0);
                }
                // Stuck: over the whole window it never got a body diameter away from where
                // the window began (an agent that goes out and comes back is not stuck).
                if history.len() == keep
                    && history
                        .iter()
                        .all(|p| p.distance(history[0]) < 2.0 * params.radius)
                {
                    self.stuck[i] = true;
                }
            }
        }
    }

    /// How many of mode 7's agents (all of one radius) have another's body overlapping theirs.
    fn overlapping(&mut self, world: &World) -> u64 {
        let reach = 2.0 * world.tuning.wanderer.radius;
        let members = world.agents.iter().map(|a| Member {
            id: a.id,
            pos: a.body.pos,
        });
        self.crowd
            .rebuild_members(world.arena.size(), reach, members);
        let crowd = &self.crowd;
        let overlapped = world
            .agents
            .iter()
            .filter(|a| crowd.any_within(a.id, a.body.pos, reach));
        overlapped.count() as u64
    }

    /// The `sim` summary (SPEC §2).
    pub fn summary(&mut self, world: &World, script: &str, seconds: f64) -> Summary {
        let group_extra = self.group_extra(world);
        let mut sorted = self.tick_ms.clone();
        sorted.sort_by(f32::total_cmp);
        let mean = if sorted.is_empty() {
            0.0
        } else {
            sorted.iter().map(|&v| f64::from(v)).sum::<f64>() / sorted.len() as f64
        };
        let p99 = sorted
            .get(((sorted.len() as f64 * 0.99).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0);
        Summary {
            mode: world.mode.name().to_string(),
            seed: world.config.seed,
            agents: world.agents.len(),
            player: script.to_string(),
            seconds,
            dt: world.dt,
            ticks: world.tick,
            catches: world.score.catches,
            first_catch_s: world.score.first_catch_t,
            tags: world.score.tags,
            mean_distance_to_player: if self.agent_ticks == 0 {
                0.0
            } else {
                round3(self.distance_sum / self.agent_ticks as f64)
            },
            min_obstacle_clearance: self.min_clearance,
            obstacle_overlaps: self.overlaps,
            out_of_bounds: self.out_of_bounds,
            stuck_agents: self.stuck.iter().filter(|&&s| s).count(),
            max_speed: self.max_speed,
            max_turn_rate_deg_s: self.max_turn_rate,
            max_step_ratio: self.max_step_ratio,
            non_finite: self.non_finite,
            tick_ms: TickMs {
                mean: round6(mean),
                p99: round6(f64::from(p99)),
                max: round6(f64::from(sorted.last().copied().unwrap_or(0.0))),
            },
            extra: {
                let mut extra = world.extra();
                if world.mode == Mode::Avoid {
                    extra.insert("agent_overlaps".into(), self.agent_overlaps.into());
                }
                extra.extend(group_extra);
                extra
            },
        }
    }
}

impl Metrics {
    /// The flock's and the swarm's summary fields (SPEC §5).
    fn group_extra(&mut self, world: &World) -> Map<String, Value> {
        let mut m = Map::new();
        let Some(watch) = self.watch.as_mut() else {
            return m;
        };
        let w = watch.finish(world.arena.size(), join(world));
        let min = w.min_separation.map(|d| round3(f64::from(d)));
        if world.mode == Mode::Flock {
            m.insert(
                "polarization".into(),
                round6(f64::from(w.polarization)).into(),
            );
            m.insert("groups".into(), w.groups.into());
            m.insert("min_separation_px".into(), min.into());
            let nn = round3(f64::from(w.nn_distance_mean));
            m.insert("nn_distance_mean".into(), nn.into());
            let own = round6(f64::from(w.group_polarization));
            m.insert("group_polarization".into(), own.into());
            m.insert("largest_group".into(), w.largest_group.into());
            m.insert("smallest_group".into(), w.smallest_group.into());
            let dust = round6(f64::from(w.dust_share));
            m.insert("dust_share".into(), dust.into());
        } else {
            m.insert("min_separation_px".into(), min.into());
        }
        m.insert("agent_overlaps".into(), w.overlaps.into());
        m.insert("settled_overlaps".into(), w.settled_overlaps.into());
        let share = round6(w.settled_overlap_share);
        m.insert("settled_overlap_share".into(), share.into());
        m
    }
}

/// The distance at which two members of the world's crowd belong to one group: the flock's
/// neighbour radius, the swarm's range.
fn join(world: &World) -> f32 {
    match world.mode {
        Mode::Flock => world.tuning.flock.radius,
        // The others watch a group only after a recorded switch away from the flock or the
        // swarm: the crowd watched then is measured as the swarm's.
        Mode::Swarm
        | Mode::TileChase
        | Mode::TileLos
        | Mode::LosChase
        | Mode::Intercept
        | Mode::Evade
        | Mode::Wander
        | Mode::Avoid
        | Mode::Galaga
        | Mode::Patterns
        | Mode::Mixed
        | Mode::Pathfind
        | Mode::Fsm
        | Mode::Crowd
        | Mode::Hide
        | Mode::Formation
        | Mode::Pathway => world.tuning.swarm.range * 2.0 * world.tuning.boid.radius,
    }
}

/// To a microsecond of a millisecond: enough for timing, without float noise in the JSON.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

#[derive(Debug, Clone, Serialize)]
pub struct TickMs {
    pub mean: f64,
    pub p99: f64,
    /// The longest tick.
    pub max: f64,
}

/// The `sim` command's one JSON object. Field order is the SPEC's.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub mode: String,
    pub seed: u64,
    pub agents: usize,
    pub player: String,
    pub seconds: f64,
    pub dt: f32,
    pub ticks: u64,
    pub catches: u32,
    pub first_catch_s: Option<f64>,
    pub tags: u32,
    pub mean_distance_to_player: f64,
    pub min_obstacle_clearance: Option<f32>,
    pub obstacle_overlaps: u64,
    pub out_of_bounds: u64,
    pub stuck_agents: usize,
    pub max_speed: f32,
    pub max_turn_rate_deg_s: f32,
    pub max_step_ratio: f32,
    pub non_finite: bool,
    pub tick_ms: TickMs,
    pub extra: Map<String, Value>,
}
