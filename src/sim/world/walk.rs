//! The crowd (Shift+5): its scenes (each an arena of its own, the walkers' starts and goals),
//! its tick — where everyone stood and how fast it moved as the tick began, in the one neighbour
//! grid rebuilt in place, then each walker steers by it and moves — and its figures.

use super::walk_scene::{crossing_start, layout};
use super::{World, parallel};
use crate::data::combine::Method;
use crate::data::tuning::VehicleTuning;
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::sim::agent::{Agent, Behaviour, Context};
use crate::sim::behaviours::combine::{Dice, Tally};
use crate::sim::behaviours::orca::Body;
use crate::sim::behaviours::walker::{Crowd, Door, Scratch, WalkerMind};
use crate::sim::space::CastSchedule;
use crate::sim::space::arena::Arena;
use crate::sim::space::neighbours::Neighbours;
use crate::sim::space::{Player, Scene};
use crate::sim::threads;
use ::rand::Rng;
use glam::Vec2;
use rayon::prelude::*;

/// Each walker's start is moved by the world's generator up to this many radii each way, so that
/// seeds differ (the scenes are otherwise laid out exactly).
const JITTER_RADII: f32 = 0.5;
/// Below this speed (px/s) a walker counts as standing still.
const STILL_SPEED: f32 = 2.0;

/// The crowd's scene, its method, what it senses by, and its figures so far.
#[derive(Debug, Clone, Default)]
pub struct Walking {
    pub scene: CrowdScene,
    pub method: Avoidance,
    /// The world's arena is the scene's (not the data's), to be put back on leaving the crowd.
    pub(super) own_arena: bool,
    grid: Neighbours,
    bodies: Vec<Body>,
    scratch: Scratch,
    /// For a tick split among threads: each walker's dice, and a scratch for each chunk.
    dice: Vec<Dice>,
    scratches: Vec<Scratch>,
    /// Where crossing walkers were sent back to this tick.
    placed: Vec<Vec2>,
    /// Agent-pair-ticks whose bodies overlap, and the least centre distance seen.
    pub collisions: u64,
    pub min_separation: Option<f32>,
    /// Trips finished: how many, and their time over the straight-line time at the preferred
    /// speed, summed and at most.
    pub trips: u64,
    pub ratio_sum: f64,
    pub ratio_max: f64,
    /// When every walker had arrived at least once.
    pub all_arrived_at: Option<f64>,
}

impl Walking {
    pub fn new(scene: CrowdScene, method: Avoidance) -> Walking {
        Walking {
            scene,
            method,
            ..Walking::default()
        }
    }

    /// The grid and bodies the last tick steered by (for the overlay).
    pub fn sensed(&self) -> (&Neighbours, &[Body]) {
        (&self.grid, &self.bodies)
    }
}

impl World {
    /// The crowd's vehicle (ORCA's walkers take the velocity they choose within a tick).
    fn walker_vehicle(&self) -> VehicleTuning {
        let wp = &self.tuning.crowd;
        VehicleTuning {
            max_speed: wp.max_speed,
            max_force: match self.walking.method {
                Avoidance::Orca => f32::MAX,
                Avoidance::Separation | Avoidance::Predictive => wp.max_force,
            },
            mass: 1.0,
            radius: wp.radius,
        }
    }

    /// The crowd's start: the scene's arena and its walkers, each start moved a little by the
    /// world's generator.
    pub(super) fn spawn_crowd(&mut self, count: usize) {
        let wp = self.tuning.crowd;
        let lay = layout(self.walking.scene, count, wp.radius, &self.arena_data);
        self.arena = Arena::from_data(&lay.arena);
        self.arena_scale = lay.arena.width / self.arena_data.width.max(1.0);
        self.walking.own_arena = true;
        self.recast = true;
        let p = &mut self.player;
        p.pos = self.arena.player_start;
        p.prev_pos = p.pos;
        p.vel = Vec2::ZERO;
        let w = &mut self.walking;
        w.collisions = 0;
        w.min_separation = None;
        w.trips = 0;
        w.ratio_sum = 0.0;
        w.ratio_max = 0.0;
        w.all_arrived_at = None;
        let vehicle = self.walker_vehicle();
        let (aw, ah) = (self.arena.width, self.arena.height);
        let jitter = JITTER_RADII * wp.radius;
        for (i, (pos, goal, door)) in lay.walkers.into_iter().enumerate() {
            let pos = pos
                + Vec2::new(
                    self.rng.gen_range(-jitter..=jitter),
                    self.rng.gen_range(-jitter..=jitter),
                );
            let start = match self.walking.scene {
                CrowdScene::Crossing => crossing_start(pos, goal, aw, ah, wp.radius),
                CrowdScene::Circle | CrowdScene::Doorway => pos,
            };
            let mind = WalkerMind {
                start,
                goal,
                door,
                trip_began: self.time(),
                trip_length: trip_length(pos, goal, door),
                arrived: false,
                trips: 0,
                still: 0.0,
                longest_still: 0.0,
                preferred: Vec2::ZERO,
                chosen: Vec2::ZERO,
                approach: None,
                vehicle,
                tally: Tally::default(),
            };
            let mut agent = Agent::with(
                i as u32,
                Behaviour::Walker(Box::new(mind)),
                pos,
                goal,
                &self.arena,
            );
            agent.born = self.time();
            // (A walker placed where its body does not fit, in an arena too small for the
            // scene, starts where it fits rather than being pushed out in its first tick.)
            self.settle(&mut agent);
            self.agents.push(agent);
        }
    }

    /// `T` in the crowd: the next scene (the crowd starts again with the scene's own count).
    pub fn set_scene(&mut self, scene: CrowdScene) {
        if self.walking.scene == scene {
            return;
        }
        self.walking.scene = scene;
        if self.mode == crate::sim::mode::Mode::Crowd {
            self.spawn_agents(scene_agents(scene));
        }
        self.events.push(format!("scene:{}", scene.name()));
    }

    /// `V` in the crowd: the next way of keeping clear (the walkers go on from where they are).
    pub fn set_avoidance(&mut self, method: Avoidance) {
        if self.walking.method == method {
            return;
        }
        self.walking.method = method;
        self.events.push(format!("avoid:{}", method.name()));
    }

    /// The crowd's tick (the world's tick calls this in the crowd, after the player has moved).
    pub(super) fn tick_crowd(&mut self) {
        let wp = self.tuning.crowd;
        let vehicle = self.walker_vehicle();
        let dt = self.dt;
        let now = self.time();
        let combine = self.departure();
        let w = &mut self.walking;
        w.bodies.clear();
        w.bodies.extend(self.agents.iter().map(|a| Body {
            pos: a.body.pos,
            vel: a.body.vel,
        }));
        let side = wp.neighbour_radius.max(2.0 * wp.radius);
        w.grid
            .rebuild(self.arena.size(), side, w.bodies.iter().map(|b| b.pos));
        let split = threads::pays(self.agents.len(), self.mode.agent_ns());
        count_contacts(w, wp.radius, split);
        w.placed.clear();
        let ctx = Context {
            scene: Scene {
                arena: &self.arena,
                crowd: None,
                motions: &[],
                player: Player {
                    pos: self.player.pos,
                    vel: self.player.vel,
                    tile: self.arena.tiles.tile_of(self.player.pos),
                },
                dt,
                tick: self.tick,
                casts: CastSchedule::new(self.tuning.avoid.sense_hz, self.config.tick_hz),
                changed: std::mem::take(&mut self.recast),
            },
            tuning: &self.tuning,
            flow: None,
            pathways: &[],
            combine,
        };
        let player = Body {
            pos: self.player.pos,
            vel: self.player.vel,
        };
        // Room for the most half-planes a walker can have (four walls, every obstacle, its
        // neighbours and the player), so the solver never grows its lists within a tick; this
        // reserves only when the obstacles or the neighbour count have grown.
        let most = 4 + self.arena.obstacles().len() + wp.max_neighbours as usize + 1;
        w.scratch.lines.clear();
        w.scratch.lines.reserve(most);
        w.scratch.projected.clear();
        w.scratch.projected.reserve(most);
        let crowd_of = |i: usize, dice: Dice| Crowd {
            grid: &w.grid,
            bodies: &w.bodies,
            i,
            player,
            player_radius: self.tuning.player.radius,
            method: w.method,
            arena: &self.arena,
            dt,
            combine,
            dice,
        };
        let mut all_home = true;
        // Split among the threads: the walkers steer and move (each with its dice, rolled first
        // in walker order), then the arrivals are counted one by one in that order as below.
        if split {
            let rng = &mut self.rng;
            // (Undithered, every walker's dice are the plain ones.)
            let dithered = combine == Some(Method::Dithered);
            if dithered {
                w.dice.clear();
                w.dice
                    .extend(self.agents.iter().map(|_| Dice::roll(&mut *rng)));
            }
            let dice = &w.dice;
            parallel::walk_crowd(&mut self.agents, &mut w.scratches, most, |i, a, scratch| {
                let dice = if dithered { dice[i] } else { Dice::default() };
                a.walk_in_crowd(&crowd_of(i, dice), &wp, vehicle, &ctx, scratch);
            });
        }
        for (i, a) in self.agents.iter_mut().enumerate() {
            if !split {
                let dice = match combine {
                    Some(Method::Dithered) => Dice::roll(&mut self.rng),
                    _ => Dice::default(),
                };
                a.walk_in_crowd(&crowd_of(i, dice), &wp, vehicle, &ctx, &mut w.scratch);
            }
            let Behaviour::Walker(mind) = &mut a.behaviour else {
                continue;
            };
            let pos = a.body.pos;
            if !mind.arrived {
                if a.body.vel.length_squared() < STILL_SPEED * STILL_SPEED {
                    mind.still += dt;
                    mind.longest_still = mind.longest_still.max(mind.still);
                } else {
                    mind.still = 0.0;
                }
                if pos.distance_squared(mind.goal) <= wp.radius * wp.radius {
                    let straight = f64::from(mind.trip_length / wp.preferred_speed.max(1e-3));
                    let ratio = (now + f64::from(dt) - mind.trip_began) / straight.max(1e-9);
                    w.trips += 1;
                    w.ratio_sum += ratio;
                    w.ratio_max = w.ratio_max.max(ratio);
                    mind.arrived = true;
                    mind.trips += 1;
                    mind.still = 0.0;
                    a.body.vel = Vec2::ZERO;
                    a.state = "arrived";
                }
            }
            if mind.arrived && w.scene == CrowdScene::Crossing {
                // Back to the start, once nobody stands there.
                let start = mind.start;
                let room = 2.0 * wp.radius + wp.margin;
                let mut taken = w
                    .placed
                    .iter()
                    .any(|p| p.distance_squared(start) < room * room);
                w.grid.for_each_within(start, room, |_, _, _| taken = true);
                if !taken {
                    w.placed.push(start);
                    a.body.pos = start;
                    a.prev_pos = start;
                    a.respawned = true;
                    mind.trip_began = now + f64::from(dt);
                    mind.trip_length = start.distance(mind.goal);
                    mind.arrived = false;
                }
            }
            all_home &= mind.trips > 0;
        }
        if all_home && w.all_arrived_at.is_none() && !self.agents.is_empty() {
            w.all_arrived_at = Some(now + f64::from(dt));
        }
    }
}

/// The crowd each scene starts with: RVO2's 250 on the circle, two groups of 50 at the door,
/// two streams of 100 crossing.
pub fn scene_agents(scene: CrowdScene) -> usize {
    match scene {
        CrowdScene::Circle => 250,
        CrowdScene::Doorway => 100,
        CrowdScene::Crossing => 200,
    }
}

/// The straight-line length of a trip: through the door's middle where there is one.
fn trip_length(pos: Vec2, goal: Vec2, door: Option<Door>) -> f32 {
    match door {
        Some(d) => {
            let mid = (d.a + d.b) * 0.5;
            pos.distance(mid) + mid.distance(goal)
        }
        None => pos.distance(goal),
    }
}

/// Overlapping pairs among the bodies as the tick began, and the least distance between two
/// (within a cell of the grid: farther pairs are not looked at); with `split`, the bodies are
/// shared among the current pool's threads (a count and a least distance come out the same
/// whatever the order they are taken in).
fn count_contacts(w: &mut Walking, r: f32, split: bool) {
    let touch = 2.0 * r;
    let grid = &w.grid;
    let before = w.min_separation.unwrap_or(f32::INFINITY);
    // Only a pair nearer than the least so far or touching changes a figure, so the pairs looked
    // at reach no further than that (a little beyond, for rounding) and never past a cell.
    let reach = (before.max(touch) * 1.01).min(grid.cell_side());
    let tally = |pairs: &mut u64, least: &mut f32, d2: f32| {
        let d = d2.sqrt();
        *least = least.min(d);
        if d < touch {
            *pairs += 1;
        }
    };
    let (pairs, least) = if split {
        // Pairs and the least distance among bodies `from..` (of `bodies`, the crowd's from
        // `from`), each pair counted from its lower index.
        let contacts = |from: usize, bodies: &[Body]| {
            let (mut pairs, mut least) = (0u64, f32::INFINITY);
            for (i, b) in (from..).zip(bodies) {
                grid.for_each_within(b.pos, reach, |j, _, d2| {
                    if (j as usize) > i {
                        tally(&mut pairs, &mut least, d2);
                    }
                });
            }
            (pairs, least)
        };
        let chunk = threads::chunk(w.bodies.len());
        w.bodies
            .par_chunks(chunk)
            .enumerate()
            .map(|(c, bodies)| contacts(c * chunk, bodies))
            .reduce(|| (0, f32::INFINITY), |(p, l), (q, m)| (p + q, l.min(m)))
    } else {
        // One thread: each pair once, from the grid's cells.
        let (mut pairs, mut least) = (0u64, f32::INFINITY);
        grid.pairs_within(reach, |_, _, d2| tally(&mut pairs, &mut least, d2));
        (pairs, least)
    };
    let least = least.min(before);
    w.collisions += pairs;
    if least.is_finite() {
        w.min_separation = Some(least);
    }
}
