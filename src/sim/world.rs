//! The world: arena, player, agents and the seeded generator, advanced one fixed tick at a time.
//! Everything here is plain data over `glam`; the window and the headless runner both drive it
//! through `tick` and the small command methods (mode, flip, reset, agent count).

use crate::data::DataSet;
use crate::data::patterns::{Instruction, PatternsData, TileInstruction};
use crate::data::tuning::Tuning;
use crate::data::tuning::VehicleTuning;
use crate::sim::agent::{Agent, Behaviour, CastSchedule, Contact, Context, Plan, TileWalk};
use crate::sim::arena::{Arena, Obstacle, Response};
use crate::sim::behaviours::galaga::{self, Stage};
use crate::sim::behaviours::pattern::{PatternRun, TileRun};
use crate::sim::clock::TICK_HZ;
use crate::sim::copies::Copies;
use crate::sim::crowd::{Crowd, Member};
use crate::sim::mode::Mode;
use crate::sim::mode::{MIXED_GROUND, MIXED_SHIPS};
use crate::sim::player::{Player, Script};
use ::rand::rngs::StdRng;
use ::rand::{Rng, SeedableRng};
use glam::Vec2;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// Most agents a world holds (the `+` key and `--agents` stop here).
pub const MAX_AGENTS: usize = 20_000;
/// How far from its spawn point an agent's starting position may be scattered.
const SPAWN_SCATTER: f32 = 40.0;
/// Agents that think, clear their course and move together (see `Agent::act`): few enough that
/// the batch is still in the nearest cache for each pass.
const BATCH: usize = 64;
/// Seconds the player flashes after a catch.
pub const CATCH_FLASH: f32 = 0.6;

/// How the world starts: everything that, with the data files, decides a run.
#[derive(Debug, Clone)]
pub struct WorldConfig {
    pub mode: Mode,
    pub flip: bool,
    pub seed: u64,
    /// `None`: the mode's own default.
    pub agents: Option<usize>,
    pub script: Script,
    pub tick_hz: f32,
}

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            mode: Mode::LosChase,
            flip: false,
            seed: 1,
            agents: None,
            script: Script::Keys,
            tick_hz: TICK_HZ,
        }
    }
}

/// One tick's input: the keyboard's movement direction (zero when no key is held).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Input {
    pub move_dir: Vec2,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Score {
    pub catches: u32,
    pub tags: u32,
    /// Simulated seconds at the first catch.
    pub first_catch_t: Option<f64>,
    /// Simulated seconds at the last catch (or the start).
    pub last_catch_t: f64,
    /// Catches by the catching agent's kind (the record's `kind`).
    pub by_kind: BTreeMap<&'static str, u32>,
    /// The latest catches (at most [`CATCH_LOG`]), for the time-to-catch chart.
    pub log: VecDeque<CatchRecord>,
}

/// One catch: who, when, and how long after its (re)spawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CatchRecord {
    pub kind: &'static str,
    /// Run time of the catch (simulated seconds since the start).
    pub at: f64,
    pub time_to_catch: f64,
}

/// How many catches the score keeps for the chart.
pub const CATCH_LOG: usize = 500;

#[derive(Debug, Clone)]
pub struct World {
    pub arena: Arena,
    pub tuning: Tuning,
    pub config: WorldConfig,
    pub mode: Mode,
    pub flip: bool,
    pub dt: f32,
    pub tick: u64,
    pub player: Player,
    pub agents: Vec<Agent>,
    pub score: Score,
    /// Events since the recorder last took them (`catch:3`, `mode:los-chase`, ...).
    pub events: Vec<String>,
    /// Mode 9's patterns and mode 8's stage data.
    pub patterns: PatternsData,
    /// The Galaga stage while mode 8 (or the free-for-all's squadron) runs.
    pub stage: Option<Stage>,
    /// Where the stage's ships begin in `agents` (they come last).
    pub ships_from: usize,
    rng: StdRng,
    /// The arena changed: every agent casts its rays on the next tick.
    recast: bool,
    /// Indices of the agents touching the player this tick (kept to reuse its allocation).
    touching: Vec<u32>,
    /// What each ground agent decided this tick (kept to reuse its allocation).
    plans: Vec<(Plan, VehicleTuning)>,
    /// Mode 7's chasers as the tick begins, for their separation (empty otherwise).
    crowd: Crowd,
}

impl World {
    pub fn new(data: &DataSet, config: WorldConfig) -> World {
        let arena = Arena::from_data(&data.arena);
        let player = Player::new(arena.player_start, config.script, config.seed);
        let mut world = World {
            arena,
            tuning: data.tuning.clone(),
            mode: config.mode,
            flip: config.flip && config.mode.has_flip(),
            dt: 1.0 / config.tick_hz,
            tick: 0,
            player,
            agents: Vec::new(),
            score: Score::default(),
            events: Vec::new(),
            patterns: data.patterns.clone(),
            stage: None,
            ships_from: 0,
            rng: StdRng::seed_from_u64(config.seed),
            recast: false,
            touching: Vec::new(),
            crowd: Crowd::default(),
            plans: Vec::with_capacity(BATCH),
            config,
        };
        let count = world
            .config
            .agents
            .unwrap_or_else(|| world.default_agents(world.mode));
        world.spawn_agents(count);
        world
    }

    /// Simulated seconds since the start.
    pub fn time(&self) -> f64 {
        self.tick as f64 / f64::from(self.config.tick_hz)
    }

    /// Back to the start: same seed, same arena, same positions; mode, flip and agent count kept.
    pub fn reset(&mut self) {
        let count = self.agents.len();
        self.tick = 0;
        self.score = Score::default();
        self.player = Player::new(
            self.arena.player_start,
            self.config.script,
            self.config.seed,
        );
        self.spawn_agents(count);
        self.events.push("reset".to_string());
    }

    /// Switch mode: the agents start again from the seeded spawns with the mode's default count;
    /// the player stays where it is.
    pub fn set_mode(&mut self, mode: Mode) {
        // `E` carries across modes 1–4 (compare the reversals); `V` and `T` belong to one mode.
        self.flip = self.flip && mode.alternate_key() == self.mode.alternate_key();
        self.mode = mode;
        self.score = Score {
            last_catch_t: self.time(),
            ..Score::default()
        };
        self.spawn_agents(self.default_agents(mode));
        self.events.push(format!("mode:{}", mode.name()));
    }

    /// `E`: reverse the algorithm in modes that have a reversal.
    pub fn set_flip(&mut self, flip: bool) {
        if !self.mode.has_flip() || flip == self.flip {
            return;
        }
        self.flip = flip;
        for a in &mut self.agents {
            a.behaviour.set_flip(flip);
        }
        self.events
            .push(format!("flip:{}", if flip { "on" } else { "off" }));
    }

    /// Grow or shrink the crowd; new agents appear at spawn points far from the player.
    pub fn set_agent_count(&mut self, n: usize) {
        let n = n.min(MAX_AGENTS);
        match self.mode {
            // The stage and the walkers are placed by the data: a new count restarts them. A
            // count that comes out the same (`+` at 20,000) changes nothing, rather than starting
            // the run again.
            Mode::Galaga | Mode::Patterns | Mode::Mixed => {
                if n != self.agents.len() {
                    self.spawn_agents(n);
                }
                return;
            }
            _ => {}
        }
        self.agents.truncate(n);
        while self.agents.len() < n {
            let pos = self.far_spawn();
            let pos = self.scattered(pos);
            let agent = self.new_agent(self.agents.len() as u32, pos, self.mode, self.flip);
            self.agents.push(agent);
        }
    }

    /// Replace the data (F5); the run restarts on the new data.
    pub fn reload(&mut self, data: &DataSet) {
        self.arena = Arena::from_data(&data.arena);
        self.tuning = data.tuning.clone();
        self.patterns = data.patterns.clone();
        let count = self.agents.len();
        self.player = Player::new(
            self.arena.player_start,
            self.player.script,
            self.config.seed,
        );
        self.spawn_agents(count);
        self.events.push("reload".to_string());
    }

    /// The agents' start: reseed, then scatter agent `i` around spawn point `i mod n`. Depends on
    /// the seed, the count and the arena only — never on the mode — so modes compare from
    /// identical starts.
    fn spawn_agents(&mut self, count: usize) {
        self.rng = StdRng::seed_from_u64(self.config.seed);
        self.agents.clear();
        self.stage = None;
        let count = count.min(MAX_AGENTS);
        match self.mode {
            Mode::Galaga => return self.spawn_stage(count),
            Mode::Patterns => return self.spawn_walkers(count),
            Mode::Mixed => return self.spawn_mixed(count),
            _ => {}
        }
        let spawns = self.arena.spawns.clone();
        for i in 0..count {
            let pos = self.scattered(spawns[i % spawns.len()]);
            let agent = self.new_agent(i as u32, pos, self.mode, self.flip);
            self.agents.push(agent);
        }
    }

    /// Mode 0: the ground agents of [`MIXED_GROUND`] (repeated to fill `count`) from the seeded
    /// spawns — the pattern walker at its data start, and its copies — and a Galaga squadron last.
    fn spawn_mixed(&mut self, count: usize) {
        let ground = count.saturating_sub(MIXED_SHIPS);
        let spawns = self.arena.spawns.clone();
        let shared = SharedPatterns::new(&self.patterns);
        let mut copies = Copies::new();
        let walkers = self.patterns.walkers.len();
        let mut patterned = 0;
        for i in 0..ground {
            let mode = MIXED_GROUND[i % MIXED_GROUND.len()];
            if mode == Mode::Patterns {
                // The file's first walker; in a bigger crowd, its copies.
                if let Some(agent) =
                    self.walker(&shared, &mut copies, i as u32, patterned * walkers)
                {
                    self.agents.push(agent);
                }
                patterned += 1;
                continue;
            }
            let pos = self.scattered(spawns[i % spawns.len()]);
            let agent = self.new_agent(i as u32, pos, mode, false);
            self.agents.push(agent);
        }
        self.spawn_stage(count.min(MIXED_SHIPS));
    }

    /// A mode's own crowd: in Galaga, one squadron — the stage as the data gives it.
    fn default_agents(&self, mode: Mode) -> usize {
        match mode {
            Mode::Galaga => {
                let galaga = &self.patterns.galaga;
                Stage::new(galaga, self.arena.width, self.arena.height, 0)
                    .0
                    .per_squadron
            }
            _ => mode.default_agents(),
        }
    }

    /// Mode 8: `count` ships in squadrons of the stage (see [`Stage::new`]), queued at their
    /// entries, after any agents already there.
    fn spawn_stage(&mut self, count: usize) {
        let (stage, ships) = Stage::new(
            &self.patterns.galaga,
            self.arena.width,
            self.arena.height,
            count,
        );
        let first = self.agents.len();
        for (i, ship) in ships.into_iter().enumerate() {
            let (start, heading) = stage.entry_point(&ship.entry.0, ship.entry.1);
            let start = start.as_vec2();
            let face = start + Vec2::from_angle(heading as f32);
            let id = (first + i) as u32;
            let mut agent = Agent::with(
                id,
                Behaviour::Ship(Box::new(ship)),
                start,
                face,
                &self.arena,
            );
            agent.born = self.time();
            self.agents.push(agent);
        }
        self.stage = Some(stage);
        self.ships_from = first;
    }

    /// Mode 9: walker `i` runs the patterns file's walker `i mod n`.
    fn spawn_walkers(&mut self, count: usize) {
        let shared = SharedPatterns::new(&self.patterns);
        let mut copies = Copies::new();
        for i in 0..count {
            if let Some(agent) = self.walker(&shared, &mut copies, i as u32, i) {
                self.agents.push(agent);
            }
        }
    }

    /// Agent `id` running the patterns file's walker `n mod walkers`: the first of each at its
    /// data start, further copies where their first loop runs clear (see [`Copies`]).
    fn walker(
        &self,
        shared: &SharedPatterns,
        copies: &mut Copies,
        id: u32,
        n: usize,
    ) -> Option<Agent> {
        let walkers = &self.patterns.walkers;
        let which = n % walkers.len().max(1);
        let w = walkers.get(which)?;
        let copy = n >= walkers.len();
        let t = &self.tuning.pattern;
        // Inside the walls and clear of obstacles, whatever the arena (tile walkers go to the
        // nearest free tile below).
        let start = self.arena.nearest_clear(Vec2::from(w.start), t.radius);
        let (pos, behaviour) = if w.tile {
            let (name, list) = &shared.tiles[&w.pattern];
            let grid = &self.arena.tiles;
            let run = TileRun::shared(name.clone(), list.clone(), w.heading);
            let home = grid.nearest_free(grid.tile_of(start));
            let tile = if copy {
                copies.tile(grid, which, home, run.direction, list)
            } else {
                copies.take(grid.center(home));
                home
            };
            let walk = TileWalk::new(tile);
            let run = Box::new(run);
            (grid.center(tile), Behaviour::TilePattern { walk, run })
        } else {
            let (name, list) = &shared.patterns[&w.pattern];
            let run = |at| PatternRun::shared(name.clone(), list.clone(), at, w.heading);
            let pos = if copy {
                copies.physics(&self.arena, which, &run(start), start, t, self.dt)
            } else {
                copies.take(start);
                start
            };
            let behaviour = Behaviour::Pattern {
                run: Box::new(run(pos)),
                params: VehicleTuning {
                    max_speed: t.max_speed,
                    max_force: t.thrust,
                    mass: 1.0,
                    radius: t.radius,
                },
            };
            (pos, behaviour)
        };
        let face = pos + Vec2::from_angle(w.heading.to_radians());
        let mut agent = Agent::with(id, behaviour, pos, face, &self.arena);
        agent.born = self.time();
        Some(agent)
    }

    /// A fresh agent of `mode`'s behaviour (its alternate form if `flip`) at `pos`.
    fn new_agent(&self, id: u32, pos: Vec2, mode: Mode, flip: bool) -> Agent {
        let mut agent = Agent::new(id, mode, flip, pos, self.player.pos, &self.arena);
        agent.born = self.time();
        if agent.tile().is_none() {
            // Continuous agents start clear of obstacles and inside the walls: pushed out if they
            // can be, else at the nearest spot where they fit (a spawn in a gap too narrow).
            let mut vel = Vec2::ZERO;
            let r = agent.radius(&self.tuning);
            let body = &mut agent.body;
            self.arena
                .collide(body.pos, &mut body.pos, &mut vel, r, Response::Slide);
            if !self.arena.is_clear(body.pos, r) {
                body.pos = self.arena.nearest_clear(body.pos, r);
            }
            agent.prev_pos = body.pos;
        }
        if agent.behaviour.wander_walk().is_some() {
            // Wanderers are already on their way (a grazing sheep, a guard on patrol): starting
            // from rest would make their first steps a spin on the spot.
            let speed = agent.behaviour.params(&self.tuning).max_speed * 0.5;
            agent.body.vel = agent.body.heading * speed;
            agent.prev_speed = speed;
        }
        agent
    }

    /// A spot drawn by the world's generator within [`SPAWN_SCATTER`] of `base` each way: agents
    /// that appear together (the start, a `+`, catches in one tick) are not stacked on one point,
    /// where bodies steered alike would move as one forever.
    fn scattered(&mut self, base: Vec2) -> Vec2 {
        base + Vec2::new(
            self.rng.gen_range(-SPAWN_SCATTER..=SPAWN_SCATTER),
            self.rng.gen_range(-SPAWN_SCATTER..=SPAWN_SCATTER),
        )
    }

    /// A spawn point in the farther half from the player, chosen by the world's generator.
    fn far_spawn(&mut self) -> Vec2 {
        // The spawn of rank `pick` when ordered farthest first (ties by file order), found
        // without sorting a copy: catches can come many to a tick.
        let player = self.player.pos;
        let spawns = &self.arena.spawns;
        let far_half = spawns.len().div_ceil(2);
        let pick = self.rng.gen_range(0..far_half);
        let d: fn(Vec2, Vec2) -> f32 = |s, p| s.distance_squared(p);
        spawns
            .iter()
            .enumerate()
            .find(|&(i, s)| {
                let di = d(*s, player);
                let rank = spawns
                    .iter()
                    .enumerate()
                    .filter(|&(j, t)| {
                        let dj = d(*t, player);
                        dj > di || (dj == di && j < i)
                    })
                    .count();
                rank == pick
            })
            .map_or(self.arena.center(), |(_, s)| *s)
    }

    /// Advance one fixed tick.
    pub fn tick(&mut self, input: &Input) {
        let dt = self.dt;
        let agent_positions = self.agents.iter().map(|a| a.body.pos);
        self.player.update(
            input.move_dir,
            agent_positions,
            &self.arena,
            &self.tuning.player,
            dt,
        );
        // Mode 7's chasers keep apart: where each stands as the tick begins (so no agent's move
        // this tick changes what another feels of it).
        let range = self.tuning.avoid.separation_range;
        if self.mode == Mode::Avoid && self.flip && self.tuning.avoid.separation > 0.0 {
            let chasers = self.agents.iter().filter_map(|a| match a.behaviour {
                Behaviour::Avoid { chase: true, .. } => Some(Member {
                    id: a.id,
                    pos: a.body.pos,
                }),
                _ => None,
            });
            self.crowd.rebuild(self.arena.size(), range, chasers);
        } else {
            self.crowd.clear();
        }
        let ctx = Context {
            arena: &self.arena,
            tuning: &self.tuning,
            player_pos: self.player.pos,
            player_vel: self.player.vel,
            player_tile: self.arena.tiles.tile_of(self.player.pos),
            dt,
            tick: self.tick,
            casts: CastSchedule::new(self.tuning.avoid.sense_hz, self.config.tick_hz),
            recast: std::mem::take(&mut self.recast),
            crowd: &self.crowd,
        };
        // Ground agents behave one by one; the stage moves its ships (they come last) together.
        let split = match self.stage {
            Some(_) => self.ships_from.min(self.agents.len()),
            None => self.agents.len(),
        };
        // Who touches the player is noted as each agent moves, so the contacts need no second
        // pass over the crowd (agents never move one another, so nothing changes in between).
        // (Room for the whole crowd, so no tick grows the list: a no-op but after the crowd grew.)
        self.touching.clear();
        self.touching.reserve(self.agents.len());
        let (ground, ships) = self.agents.split_at_mut(split);
        // The crowd is taken a batch at a time: every agent of it thinks, then every wanderer
        // clears its course, then every body moves (see `Agent::act`). Random numbers are drawn
        // while thinking, in agent order, as one pass over each agent would draw them.
        for (b, batch) in ground.chunks_mut(BATCH).enumerate() {
            let first = b * BATCH;
            self.plans.clear();
            for (i, a) in batch.iter_mut().enumerate() {
                let (plan, p) = a.think(&ctx, &mut self.rng);
                let plan = match plan {
                    // A tile agent's move waits on nothing: it is made, and its contact noted,
                    // at once.
                    Plan::Tile => {
                        a.act(Plan::Tile, &p, &ctx);
                        if touches(a, p.radius, &ctx) || a.tile() == Some(ctx.player_tile) {
                            self.touching.push((first + i) as u32);
                        }
                        Plan::Done
                    }
                    plan => plan,
                };
                self.plans.push((plan, p));
            }
            for (a, (plan, p)) in batch.iter_mut().zip(&mut self.plans) {
                *plan = a.clear(*plan, p, &ctx);
            }
            for (i, (a, (plan, p))) in batch.iter_mut().zip(&self.plans).enumerate() {
                if *plan == Plan::Done {
                    continue;
                }
                a.act(*plan, p, &ctx);
                // (Tile agents have acted already: the rest are caught by reach alone.)
                if touches(a, p.radius, &ctx) {
                    self.touching.push((first + i) as u32);
                }
            }
        }
        // (Tile agents are noted before the rest of their batch: back into index order.)
        self.touching.sort_unstable();
        if let Some(stage) = &mut self.stage {
            galaga::tick(stage, ships, self.player.pos, dt, &mut self.rng);
            for (i, a) in ships.iter().enumerate() {
                if touches(a, a.radius(ctx.tuning), &ctx) {
                    self.touching.push((split + i) as u32);
                }
            }
        }
        self.tick += 1;
        self.resolve_contacts();
    }

    /// Catches (a chaser touches the player, or a tile chaser stands on the player's tile) and
    /// tags (the player touches an agent that flees): the agent respawns far away. In index order,
    /// over the agents found touching this tick.
    fn resolve_contacts(&mut self) {
        let now = self.time();
        for k in 0..self.touching.len() {
            let i = self.touching[k] as usize;
            let a = &self.agents[i];
            let id = a.id;
            let contact = a.behaviour.contact();
            if contact == Contact::Ignore {
                continue;
            }
            if let Behaviour::Ship(s) = &mut self.agents[i].behaviour {
                // A ship catches once per flight; it flies on.
                if s.caught {
                    continue;
                }
                s.caught = true;
            }
            if contact == Contact::Catch {
                let a = &self.agents[i];
                let kind = a.behaviour.kind();
                *self.score.by_kind.entry(kind).or_insert(0) += 1;
                self.score.log.push_back(CatchRecord {
                    kind,
                    at: now,
                    time_to_catch: now - a.born,
                });
                if self.score.log.len() > CATCH_LOG {
                    self.score.log.pop_front();
                }
                self.score.catches += 1;
                self.score.first_catch_t.get_or_insert(now);
                self.score.last_catch_t = now;
                self.player.flash = CATCH_FLASH;
                self.events.push(format!("catch:{id}"));
            } else {
                self.score.tags += 1;
                self.events.push(format!("tag:{id}"));
            }
            if !self.agents[i].behaviour.respawns() {
                continue;
            }
            let pos = self.far_spawn();
            let pos = self.scattered(pos);
            let (mode, flip) = self.agents[i].behaviour.base();
            self.agents[i] = self.new_agent(id, pos, mode, flip);
        }
    }

    /// Add an obstacle (a mouse click): queries see it at once; tile agents standing on a tile it
    /// now blocks step to the nearest free tile.
    pub fn add_obstacle(&mut self, o: Obstacle) {
        self.arena.add_obstacle(o);
        self.recast = true;
        let grid = &self.arena.tiles;
        for a in &mut self.agents {
            a.unblock(grid);
        }
        self.events.push("obstacle-added".to_string());
    }

    /// Remove the obstacle under `p`, if any.
    pub fn remove_obstacle_at(&mut self, p: Vec2) -> bool {
        let removed = self.arena.remove_obstacle_at(p).is_some();
        if removed {
            self.recast = true;
            self.events.push("obstacle-removed".to_string());
        }
        removed
    }

    /// Put agent `i` at `pos` with velocity `vel` (for set-up scenarios in tests and tools).
    pub fn place_agent(&mut self, i: usize, pos: Vec2, vel: Vec2) {
        let id = self.agents[i].id;
        let (mode, flip) = self.agents[i].behaviour.base();
        let mut agent = self.new_agent(id, pos, mode, flip);
        agent.body.vel = vel;
        agent.body.update_heading();
        self.agents[i] = agent;
    }

    /// The mode's own figures for the `sim` summary's `extra`.
    pub fn extra(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut m = serde_json::Map::new();
        match self.mode {
            Mode::Patterns => {
                let mut cycles = 0;
                let mut closure = None;
                for a in &self.agents {
                    match &a.behaviour {
                        Behaviour::Pattern { run, .. } => {
                            cycles += run.cycles;
                            if &*run.name == "square" && closure.is_none() {
                                let side = run
                                    .list
                                    .iter()
                                    .filter_map(|i| i.distance)
                                    .fold(0.0f32, f32::max);
                                closure = run
                                    .first_closure
                                    .filter(|_| side > 0.0)
                                    .map(|d| f64::from(d / side));
                            }
                        }
                        Behaviour::TilePattern { run, .. } => cycles += run.cycles,
                        _ => {}
                    }
                }
                m.insert("cycles".into(), json!(cycles));
                m.insert(
                    "square_closure_error".into(),
                    json!(closure.map(|c| (c * 1e6).round() / 1e6)),
                );
            }
            Mode::Galaga => {
                if let Some(s) = &self.stage {
                    m.insert("waves_launched".into(), json!(s.waves_launched));
                    m.insert("ships".into(), json!(self.agents.len()));
                    m.insert(
                        "formation_complete_s".into(),
                        json!(s.complete_at.map(|t| (f64::from(t) * 1e3).round() / 1e3)),
                    );
                    m.insert("dives".into(), json!(s.dives));
                    m.insert("max_in_flight".into(), json!(s.max_in_flight));
                }
            }
            Mode::Mixed => {
                m.insert("catches_by_kind".into(), json!(self.score.by_kind));
            }
            _ => {}
        }
        m
    }

    /// Seconds survived since the last catch.
    pub fn survived(&self) -> f64 {
        self.time() - self.score.last_catch_t
    }

    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}

/// Whether an agent of radius `r` touches the player's body: within the two radii. (A tile agent
/// also touches the player by standing on the player's tile.)
fn touches(a: &Agent, r: f32, ctx: &Context) -> bool {
    let reach = ctx.tuning.player.radius + r;
    a.body.pos.distance_squared(ctx.player_pos) <= reach * reach
}

/// The patterns file's instruction lists, one shared copy each for all the walkers spawned.
struct SharedPatterns {
    patterns: BTreeMap<String, (Arc<str>, Arc<[Instruction]>)>,
    tiles: BTreeMap<String, (Arc<str>, Arc<[TileInstruction]>)>,
}

impl SharedPatterns {
    fn new(data: &PatternsData) -> Self {
        fn share<T: Clone>(
            lists: &BTreeMap<String, Vec<T>>,
        ) -> BTreeMap<String, (Arc<str>, Arc<[T]>)> {
            lists
                .iter()
                .map(|(name, list)| {
                    (
                        name.clone(),
                        (Arc::from(name.as_str()), Arc::from(list.as_slice())),
                    )
                })
                .collect()
        }
        SharedPatterns {
            patterns: share(&data.patterns),
            tiles: share(&data.tile_patterns),
        }
    }
}
