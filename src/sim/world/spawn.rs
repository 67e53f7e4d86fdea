//! Spawning: the seeded start, each mode's own crowd and the spots agents respawn at.

use super::{MAX_AGENTS, SPAWN_SCATTER, World};
use crate::data::patterns::{Instruction, PatternsData, TileInstruction};
use crate::data::tuning::VehicleTuning;
use crate::sim::agent::{Agent, Behaviour, TileWalk};
use crate::sim::behaviours::galaga::Stage;
use crate::sim::behaviours::pattern::{PatternRun, TileRun};
use crate::sim::copies::Copies;
use crate::sim::mode::Mode;
use crate::sim::mode::{MIXED_GROUND, MIXED_SHIPS};
use crate::sim::space::arena::Response;
use ::rand::{Rng, SeedableRng};
use glam::Vec2;
use rand_chacha::ChaCha12Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

impl World {
    /// The agents' start: reseed, then scatter agent `i` around spawn point `i mod n`. Depends on
    /// the seed, the count and the arena only — never on the mode — so modes compare from
    /// identical starts.
    pub(super) fn spawn_agents(&mut self, count: usize) {
        self.rng = ChaCha12Rng::seed_from_u64(self.config.seed);
        self.agents.clear();
        self.stage = None;
        self.paths.restart();
        let count = count.min(MAX_AGENTS);
        self.fit_arena(count);
        self.flocking.forget_heeds();
        match self.mode {
            Mode::Galaga => return self.spawn_stage(count),
            Mode::Patterns => return self.spawn_walkers(count),
            Mode::Mixed => return self.spawn_mixed(count),
            Mode::Fsm => return self.spawn_guards(count),
            Mode::Hide => return self.spawn_hide(count),
            Mode::Crowd => return self.spawn_crowd(count),
            Mode::Formation => return self.spawn_formation(count),
            Mode::Pathway => return self.spawn_pathway(count),
            Mode::TileChase
            | Mode::TileLos
            | Mode::LosChase
            | Mode::Intercept
            | Mode::Evade
            | Mode::Wander
            | Mode::Avoid
            | Mode::Flock
            | Mode::Swarm
            | Mode::Pathfind => {}
        }
        if self.mode.moves_together() {
            for i in 0..count {
                let pos = self.anywhere();
                let agent = self.new_agent(i as u32, pos, self.mode, self.flip);
                self.agents.push(agent);
            }
            if self.mode == Mode::Flock {
                self.scatter_headings();
            }
            return;
        }
        let spawns = self.arena.spawns.clone();
        for i in 0..count {
            let pos = self.scattered(spawns[i % spawns.len()]);
            let agent = self.new_agent(i as u32, pos, self.mode, self.flip);
            self.agents.push(agent);
        }
        self.ready_paths();
    }

    /// A spot anywhere in the arena, drawn by the world's generator: the flock and the swarm
    /// start spread evenly (and `+` adds to them so), as a crowd of thousands piled on the
    /// spawn points would start thousands to a neighbourhood. (A spot in an obstacle is moved
    /// out by [`World::new_agent`].)
    pub(super) fn anywhere(&mut self) -> Vec2 {
        Vec2::new(
            self.rng.gen_range(0.0..=self.arena.width),
            self.rng.gen_range(0.0..=self.arena.height),
        )
    }

    /// The flock starts on its way, each boid at half speed in a heading of its own, so that
    /// what lines them up is seen to be their alignment (all facing the player, they would start
    /// aligned on one point).
    fn scatter_headings(&mut self) {
        let speed = self.tuning.boid.max_speed * 0.5;
        for a in &mut self.agents {
            let heading = Vec2::from_angle(self.rng.gen_range(0.0..std::f32::consts::TAU));
            a.body.vel = heading * speed;
            a.body.update_heading();
            a.prev_heading = a.body.heading;
            a.prev_speed = speed;
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
    pub(super) fn default_agents(&self, mode: Mode) -> usize {
        match mode {
            Mode::Galaga => {
                let galaga = &self.patterns.galaga;
                Stage::new(galaga, self.arena.width, self.arena.height, 0)
                    .0
                    .per_squadron
            }
            Mode::TileChase
            | Mode::TileLos
            | Mode::LosChase
            | Mode::Intercept
            | Mode::Evade
            | Mode::Wander
            | Mode::Avoid
            | Mode::Patterns
            | Mode::Mixed
            | Mode::Flock
            | Mode::Swarm
            | Mode::Pathfind
            | Mode::Fsm
            | Mode::Formation
            | Mode::Pathway => mode.default_agents(),
            Mode::Hide => {
                let hiders = mode.default_agents();
                hiders + self.bodyguards_of(hiders + self.tuning.hide.bodyguards as usize)
            }
            Mode::Crowd => super::scene_agents(self.walking.scene),
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
    pub(super) fn new_agent(&self, id: u32, pos: Vec2, mode: Mode, flip: bool) -> Agent {
        if mode == Mode::Fsm {
            return self.new_guard(id, pos);
        }
        let mut agent = Agent::new(id, mode, flip, pos, self.player.pos, &self.arena);
        agent.born = self.time();
        if agent.tile().is_none() {
            self.settle(&mut agent);
        }
        if let Behaviour::Path(chase) = &mut agent.behaviour {
            chase.last_pos = agent.body.pos;
            // A chaser that will plan gets room for the longest path (no tick grows it).
            if self.agents.len() <= super::CROWD {
                let tiles = &self.arena.tiles;
                chase.corners.reserve((tiles.cols * tiles.rows) as usize);
            }
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

    /// A continuous agent starts clear of obstacles and inside the walls: pushed out if it can
    /// be, else at the nearest spot where it fits (a spawn in a gap too narrow).
    pub(super) fn settle(&self, agent: &mut Agent) {
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

    /// A spot drawn by the world's generator within [`SPAWN_SCATTER`] of `base` each way: agents
    /// that appear together (the start, a `+`, catches in one tick) are not stacked on one point,
    /// where bodies steered alike would move as one forever.
    pub(super) fn scattered(&mut self, base: Vec2) -> Vec2 {
        base + Vec2::new(
            self.rng.gen_range(-SPAWN_SCATTER..=SPAWN_SCATTER),
            self.rng.gen_range(-SPAWN_SCATTER..=SPAWN_SCATTER),
        )
    }

    /// A spawn point in the farther half from the player, chosen by the world's generator.
    pub(super) fn far_spawn(&mut self) -> Vec2 {
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
