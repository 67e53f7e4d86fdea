//! The world: arena, player, agents and the seeded generator, advanced one fixed tick at a time.
//! Everything here is plain data over `glam`; the window, the headless runner and the replay
//! drive it through `tick` and `apply` (see `sim::command`), which calls the small methods here
//! (mode, flip, reset, agent count, reload).

use crate::data::DataSet;
use crate::data::arena::ArenaData;
use crate::data::classics::FormationShape;
use crate::data::combine::Method;
use crate::data::patterns::PatternsData;
use crate::data::tuning::Tuning;
use crate::data::tuning::VehicleTuning;
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::sim::agent::{Agent, Kind, Plan};
use crate::sim::behaviours::galaga::Stage;
use crate::sim::clock::TICK_HZ;
use crate::sim::command::{Command, TickInput};
use crate::sim::fsm::FsmRun;
use crate::sim::mode::Mode;
use crate::sim::path::Order;
use crate::sim::player::{Player, Script};
use crate::sim::space::arena::Arena;
use crate::sim::space::neighbours::Neighbours;
use ::rand::SeedableRng;
use glam::Vec2;
use rand_chacha::ChaCha12Rng;
use std::collections::{BTreeMap, VecDeque};

pub use formation::GATHER_S;
pub use group::{FLOCK_ROOM, Flocking, GROWN_AREA, GROWN_SIDE, grows};
pub use walk::{Walking, scene_agents};

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
    /// The flock follows the player (`T`, `--lead`; see [`Mode::has_lead`]).
    pub lead: bool,
    pub seed: u64,
    /// `None`: the mode's own default.
    pub agents: Option<usize>,
    pub script: Script,
    pub tick_hz: f32,
    /// The search `pathfind`'s chasers plan with.
    pub order: Order,
    /// The crowd's scene and how its walkers keep clear (`--scene`, `--avoid`).
    pub scene: CrowdScene,
    pub avoid: Avoidance,
    /// The shape `formation` starts in.
    pub shape: FormationShape,
    /// How the forces combine (`--combine`); `None`: each mode's own way.
    pub combine: Option<Method>,
    /// Keep the arena's size whatever the crowd (`bench`'s packed flock); otherwise the flock
    /// and the swarm grow it to hold their density (see [`World::fit_arena`]).
    pub fixed_arena: bool,
}

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            mode: Mode::LosChase,
            flip: false,
            lead: false,
            seed: 1,
            agents: None,
            script: Script::Keys,
            tick_hz: TICK_HZ,
            order: Order::AStar,
            shape: FormationShape::default(),
            fixed_arena: false,
            scene: CrowdScene::default(),
            avoid: Avoidance::default(),
            combine: None,
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
    pub kind: Kind,
    /// Run time of the catch (simulated seconds since the start).
    pub at: f64,
    pub time_to_catch: f64,
}

/// How many catches the score keeps for the chart.
pub const CATCH_LOG: usize = 500;

#[derive(Debug, Clone)]
pub struct World {
    /// The arena the agents move in: the data's, or for a large flock or swarm the data's
    /// scaled by `arena_scale`.
    pub arena: Arena,
    /// The arena as the data gives it, with the obstacles placed in the run (unscaled).
    arena_data: ArenaData,
    /// How many times larger than the data's the arena is drawn (1 but for a large flock or
    /// swarm).
    pub arena_scale: f32,
    pub tuning: Tuning,
    pub config: WorldConfig,
    pub mode: Mode,
    pub flip: bool,
    /// The player leads the flock (`T`); never with `flip`, the player as predator.
    pub lead: bool,
    pub dt: f32,
    pub tick: u64,
    pub player: Player,
    pub agents: Vec<Agent>,
    pub score: Score,
    /// Events since the recorder last took them (`catch:3`, `mode:los-chase`, ...).
    pub events: Vec<String>,
    /// Commands applied since the recorder last took them.
    pub commands: Vec<Command>,
    /// The input of the tick run since the recorder last took it (`None`: no tick ran).
    pub ticked: Option<TickInput>,
    /// Mode 9's patterns and mode 8's stage data.
    pub patterns: PatternsData,
    /// The Galaga stage while mode 8 (or the free-for-all's squadron) runs.
    pub stage: Option<Stage>,
    /// Where the stage's ships begin in `agents` (they come last).
    pub ships_from: usize,
    /// The guards' machine, its counts, the power-up and the pickups (the `fsm` mode).
    pub fsm: FsmRun,
    /// The world's generator (`StdRng`'s ChaCha12, named for its place in the stream: see
    /// `sim::threads`).
    rng: ChaCha12Rng,
    /// The arena changed: every agent casts its rays on the next tick.
    recast: bool,
    /// Indices of the agents touching the player this tick (kept to reuse its allocation).
    touching: Vec<u32>,
    /// What each ground agent decided this tick (kept to reuse its allocation).
    plans: Vec<(Plan, VehicleTuning)>,
    /// What a ground tick split among threads keeps (kept to reuse its allocations).
    split: parallel::Split,
    /// Mode 7's chasers (and a `pathfind` crowd) as the tick begins, for their separation
    /// (empty otherwise).
    crowd: Neighbours,
    /// What the flock and the swarm sense each other by, and how they hold together.
    pub flocking: Flocking,
    /// `pathfind`'s planner.
    pub paths: Pathing,
    /// What the `hide` mode has measured.
    pub hiding: hide::HideRun,
    /// The formation the player leads.
    pub formation: formation::FormationRun,
    /// The pathways the pedestrians follow and what they have measured (Shift+8).
    pub pathway: pathway::PathwayRun,
    /// The agents the window traces and their traces (never part of the simulation).
    tracing: trace::Tracing,
    /// The crowd's scene, method, senses and figures (Shift+5).
    pub walking: Walking,
    /// How the forces combine, once `B` (or `--combine`) chose; `None`: each mode's own way.
    pub combine: Option<Method>,
}

impl World {
    pub fn new(data: &DataSet, config: WorldConfig) -> World {
        let arena = Arena::from_data(&data.arena);
        let player = Player::new(arena.player_start, config.script, config.seed);
        let machine = World::compile_machine(&data.fsm, &arena, data.tuning.chaser.radius);
        let fsm = FsmRun::new(machine, &arena.pickups);
        let mut world = World {
            fsm,
            arena,
            arena_data: data.arena.clone(),
            arena_scale: 1.0,
            tuning: data.tuning.clone(),
            mode: config.mode,
            flip: config.flip && config.mode.has_flip(),
            lead: config.lead && config.mode.has_lead() && !config.flip,
            dt: 1.0 / config.tick_hz,
            tick: 0,
            player,
            agents: Vec::new(),
            score: Score::default(),
            events: Vec::new(),
            commands: Vec::new(),
            ticked: None,
            patterns: data.patterns.clone(),
            stage: None,
            ships_from: 0,
            rng: ChaCha12Rng::seed_from_u64(config.seed),
            recast: false,
            touching: Vec::new(),
            crowd: Neighbours::default(),
            flocking: Flocking::default(),
            plans: Vec::with_capacity(BATCH),
            split: parallel::Split::default(),
            paths: Pathing::new(config.order),
            hiding: hide::HideRun::default(),
            formation: formation::FormationRun::new(config.shape),
            pathway: pathway::PathwayRun::default(),
            tracing: trace::Tracing::default(),
            walking: Walking::new(config.scene, config.avoid),
            combine: config.combine,
            config,
        };
        let count = world
            .config
            .agents
            .unwrap_or_else(|| world.default_agents(world.mode));
        world.spawn_agents(count);
        world
    }

    /// Forget the events, commands and input kept for the record (when nothing records).
    pub fn forget_log(&mut self) {
        self.events.clear();
        self.commands.clear();
        self.ticked = None;
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
        // `E` carries across modes 1–4 (compare the reversals); `V` and `T` belong to one mode,
        // and so do the flock's predator and leader.
        let bank = mode.shifted() == self.mode.shifted();
        self.flip = self.flip && mode.alternate_key() == self.mode.alternate_key() && bank;
        self.lead = self.lead && mode.has_lead() && self.mode.has_lead();
        self.mode = mode;
        self.score = Score {
            last_catch_t: self.time(),
            ..Score::default()
        };
        self.spawn_agents(self.default_agents(mode));
        self.events.push(format!("mode:{}", mode.name()));
    }

    /// `E`: reverse the algorithm in modes that have a reversal (in the flock: the player becomes
    /// its predator, and stops leading it).
    pub fn set_flip(&mut self, flip: bool) {
        if !self.mode.has_flip() || flip == self.flip {
            return;
        }
        if flip {
            self.set_lead(false);
        }
        self.flip = flip;
        for a in &mut self.agents {
            a.behaviour.set_flip(flip);
        }
        if self.mode == Mode::Hide {
            self.hide_flip(flip);
        }
        self.events
            .push(format!("flip:{}", if flip { "on" } else { "off" }));
    }

    /// `T` in the flock: the player leads it (and stops being its predator).
    pub fn set_lead(&mut self, lead: bool) {
        if !self.mode.has_lead() || lead == self.lead {
            return;
        }
        if lead {
            self.set_flip(false);
        }
        self.lead = lead;
        self.events
            .push(format!("lead:{}", if lead { "on" } else { "off" }));
    }

    /// How the current mode combines its forces (`None`: its agents add no several forces).
    pub fn combine_method(&self) -> Option<Method> {
        let own = self.mode.own_combine()?;
        Some(self.combine.unwrap_or(own))
    }

    /// The method the agents run when it is not the mode's own (`None`: the mode's own code,
    /// so runs that never chose are what they always were).
    pub(crate) fn departure(&self) -> Option<Method> {
        let own = self.mode.own_combine()?;
        self.combine.filter(|m| *m != own)
    }

    /// `B`: the forces combine by `method` from now on, in every mode that adds several.
    pub fn set_combine(&mut self, method: Method) {
        if self.combine == Some(method) {
            return;
        }
        self.combine = Some(method);
        self.events.push(format!("combine:{}", method.name()));
    }

    /// Grow or shrink the crowd; new agents appear at spawn points far from the player.
    pub fn set_agent_count(&mut self, n: usize) {
        let n = n.min(MAX_AGENTS);
        match self.mode {
            // The stage and the walkers are placed by the data: a new count restarts them. A
            // count that comes out the same (`+` at 20,000) changes nothing, rather than starting
            // the run again.
            Mode::Galaga
            | Mode::Patterns
            | Mode::Mixed
            | Mode::Fsm
            | Mode::Hide
            | Mode::Crowd
            | Mode::Pathway => {
                if n != self.agents.len() {
                    self.spawn_agents(n);
                }
                return;
            }
            Mode::TileChase
            | Mode::TileLos
            | Mode::LosChase
            | Mode::Intercept
            | Mode::Evade
            | Mode::Wander
            | Mode::Avoid
            | Mode::Flock
            | Mode::Swarm
            | Mode::Pathfind
            | Mode::Formation => {}
        }
        self.agents.truncate(n);
        self.fit_arena(n);
        self.flocking.forget_heeds();
        // (A formation's new members start spread widely enough for their number; the rest
        // within SPAWN_SCATTER, as `scattered` places them.)
        let half = if self.mode == Mode::Formation {
            let far_half = self.arena.spawns.len().div_ceil(2).max(1);
            self.start_scatter(n.saturating_sub(self.agents.len()).div_ceil(far_half))
        } else {
            SPAWN_SCATTER
        };
        while self.agents.len() < n {
            let pos = if self.mode.moves_together() {
                self.anywhere()
            } else {
                let pos = self.far_spawn();
                self.member_start(pos, half)
            };
            let agent = self.new_agent(self.agents.len() as u32, pos, self.mode, self.flip);
            self.agents.push(agent);
        }
        self.ready_paths();
        if self.mode == Mode::Formation {
            self.form();
        }
    }

    /// The arena to save (`Ctrl+S`): the data's with the obstacles placed in the run, at the
    /// data's size however large the crowd has grown it, and a pathway drawn in the run in place
    /// of the data's.
    pub fn arena_to_save(&self) -> ArenaData {
        let mut data = if self.arena_scale == 1.0 && !self.walking.own_arena {
            self.arena.to_data()
        } else {
            self.arena_data.clone()
        };
        if let Some(way) = &self.pathway.drawn {
            data.pathways = vec![way.to_data()];
        }
        data
    }

    /// Replace the data (F5); the run restarts on the new data.
    pub fn reload(&mut self, data: &DataSet) {
        self.arena = Arena::from_data(&data.arena);
        self.arena_data = data.arena.clone();
        self.arena_scale = 1.0;
        self.tuning = data.tuning.clone();
        self.patterns = data.patterns.clone();
        let machine = World::compile_machine(&data.fsm, &self.arena, self.tuning.chaser.radius);
        self.fsm = FsmRun::new(machine, &self.arena.pickups);
        // (A pathway drawn on the old arena goes with it.)
        self.pathway.drawn = None;
        let count = self.agents.len();
        self.player = Player::new(
            self.arena.player_start,
            self.player.script,
            self.config.seed,
        );
        self.spawn_agents(count);
        self.events.push("reload".to_string());
    }
}

mod apply;
mod edit;
mod extra;
mod force_trace;
mod formation;
mod group;
mod guards;
mod hide;
mod parallel;
mod pathfind;
mod pathway;
mod spawn;
mod tick;
mod trace;
mod walk;
mod walk_scene;
mod walk_trace;

pub use pathfind::{CROWD, Pathing, SEARCH_BUDGET, SMALL_GRID, search_budget};
