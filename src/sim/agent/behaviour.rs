//! What an agent does: the closed enum of behaviours, each variant holding that agent's memory
//! of it, and what each means for the rest of the world (its record word, its contact with the
//! player, its vehicle numbers, its mode).

use super::kind::Kind;
use crate::data::patterns::ShipKind;
use crate::data::tuning::{Tuning, VehicleTuning};
use crate::sim::behaviours::boid::BoidMind;
use crate::sim::behaviours::evade::EvadeState;
use crate::sim::behaviours::formation::Member;
use crate::sim::behaviours::galaga::Ship;
use crate::sim::behaviours::guard::Guard;
use crate::sim::behaviours::hide::{Bodyguard, Hider};
use crate::sim::behaviours::pathfind::PathChase;
use crate::sim::behaviours::pathway::Pedestrian;
use crate::sim::behaviours::pattern::{PatternRun, TileRun};
use crate::sim::behaviours::swarmer::SwarmMind;
use crate::sim::behaviours::tile_los::TileLine;
use crate::sim::behaviours::tile_walk::TileWalk;
use crate::sim::behaviours::walker::WalkerMind;
use crate::sim::behaviours::wander::WanderWalk;
use crate::sim::mode::Mode;
use glam::IVec2;

/// What an agent does.
///
/// The wanderers' and evaders' memories (128 bytes and more) and a tile line are boxed, so that
/// every variant fits in 32 bytes and an [`Agent`](super::Agent) in two cache lines (see there).
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Mode 1: basic tile chase (`flip`: tile evade).
    TileChase { walk: TileWalk, flip: bool },
    /// Mode 2: walk the Bresenham line (`flip`: away along the line).
    TileLos {
        walk: TileWalk,
        line: Box<TileLine>,
        flip: bool,
    },
    /// Mode 3: seek the player's current position (`flip`: flee it).
    Los { flip: bool },
    /// Mode 4: seek the predicted meeting point (`flip`: evade by prediction); `tc`: this tick's
    /// time to close, when it predicted.
    Intercept { flip: bool, tc: Option<f32> },
    /// Mode 5: flee the predicted player inside the threat radius, wander outside it.
    Evade(Box<EvadeState>),
    /// Mode 6: Reynolds' wander (`waypoints`: the waypoint variant), kept off walls and obstacles.
    Wander {
        walk: Box<WanderWalk>,
        waypoints: bool,
    },
    /// Mode 7: wander among obstacles (`chase`: chase the player) with ray avoidance.
    Avoid { walk: Box<WanderWalk>, chase: bool },
    /// Mode 8: a Galaga ship (the stage moves it).
    Ship(Box<Ship>),
    /// Mode 9: a physics-driven pattern walker; `params` follows the pattern tuning each tick.
    Pattern {
        run: Box<PatternRun>,
        params: VehicleTuning,
    },
    /// Mode 9: a tile pattern walker.
    TilePattern { walk: TileWalk, run: Box<TileRun> },
    /// Shift+1: a boid of the flock (the world steers the flock together, see `world/group.rs`).
    Boid(Box<BoidMind>),
    /// Shift+2: a member of the Lennard-Jones swarm.
    Swarmer(Box<SwarmMind>),
    /// `pathfind`: follow a planned path to the player's tile (in a crowd, the flow field).
    Path(Box<PathChase>),
    /// `fsm`: a guard run by the world's state machine.
    Guard(Box<Guard>),
    /// `hide`: a hider taking cover from the player.
    Hide(Box<Hider>),
    /// `hide` with `T`: a bodyguard interposing between the player and its charge.
    Bodyguard(Box<Bodyguard>),
    /// Shift+5: a walker of the crowd (the world lays out its scene and steers it, see
    /// `world/walk.rs`).
    Walker(Box<WalkerMind>),
    /// `formation`: a member pursuing its slot.
    Member(Box<Member>),
    /// `pathway`: a pedestrian following a pathway (the world places it on its pathway, see
    /// `world/pathway.rs`).
    Pedestrian(Box<Pedestrian>),
}

/// What touching the player means for an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// The agent caught the player.
    Catch,
    /// The player tagged the agent.
    Tag,
    /// Nothing: the agent neither hunts nor is hunted.
    Ignore,
}

impl Behaviour {
    /// The behaviour a mode gives a new agent standing on `tile`; `None` for the data-driven
    /// modes (8 and 9), whose agents the world builds from the patterns file.
    pub fn new(mode: Mode, flip: bool, tile: IVec2) -> Option<Behaviour> {
        Some(match mode {
            Mode::TileChase => Behaviour::TileChase {
                walk: TileWalk::new(tile),
                flip,
            },
            Mode::TileLos => Behaviour::TileLos {
                walk: TileWalk::new(tile),
                line: Box::new(TileLine {
                    from: tile,
                    to: tile,
                    drawn_for: IVec2::new(i32::MIN, i32::MIN),
                    walked: 0,
                }),
                flip,
            },
            Mode::LosChase => Behaviour::Los { flip },
            Mode::Intercept => Behaviour::Intercept { flip, tc: None },
            Mode::Evade => Behaviour::Evade(Box::default()),
            Mode::Wander => Behaviour::Wander {
                walk: Box::default(),
                waypoints: flip,
            },
            Mode::Avoid => Behaviour::Avoid {
                walk: Box::default(),
                chase: flip,
            },
            Mode::Flock => Behaviour::Boid(Box::default()),
            Mode::Swarm => Behaviour::Swarmer(Box::default()),
            Mode::Pathfind => Behaviour::Path(Box::default()),
            Mode::Hide => Behaviour::Hide(Box::default()),
            Mode::Formation => Behaviour::Member(Box::default()),
            Mode::Pathway => Behaviour::Pedestrian(Box::default()),
            Mode::Galaga | Mode::Patterns | Mode::Mixed | Mode::Fsm | Mode::Crowd => return None,
        })
    }

    /// The record's `kind`.
    pub fn kind(&self) -> &'static str {
        self.kind_of().word()
    }

    /// What kind of agent this is.
    pub fn kind_of(&self) -> Kind {
        match self {
            Behaviour::TileChase { flip: false, .. } => Kind::TileChase,
            Behaviour::TileChase { flip: true, .. } => Kind::TileEvade,
            Behaviour::TileLos { flip: false, .. } => Kind::TileLos,
            Behaviour::TileLos { flip: true, .. } => Kind::TileLosAway,
            Behaviour::Los { flip: false } => Kind::LosChase,
            Behaviour::Los { flip: true } => Kind::Flee,
            Behaviour::Intercept { flip: false, .. } => Kind::Intercept,
            Behaviour::Intercept { flip: true, .. } => Kind::EvadePredict,
            Behaviour::Evade(_) => Kind::Evade,
            Behaviour::Wander {
                waypoints: false, ..
            } => Kind::Wander,
            Behaviour::Wander {
                waypoints: true, ..
            } => Kind::WanderWaypoint,
            Behaviour::Avoid { chase: false, .. } => Kind::AvoidWander,
            Behaviour::Avoid { chase: true, .. } => Kind::AvoidChase,
            Behaviour::Ship(s) => match s.kind {
                ShipKind::Boss => Kind::Boss,
                ShipKind::Escort => Kind::Escort,
                ShipKind::Drone => Kind::Drone,
            },
            Behaviour::Pattern { .. } => Kind::Pattern,
            Behaviour::TilePattern { .. } => Kind::TilePattern,
            Behaviour::Boid(_) => Kind::Boid,
            Behaviour::Swarmer(_) => Kind::Swarmer,
            Behaviour::Path(_) => Kind::Pathfind,
            Behaviour::Guard(_) => Kind::Guard,
            Behaviour::Hide(_) => Kind::Hider,
            Behaviour::Bodyguard(_) => Kind::Bodyguard,
            Behaviour::Walker(_) => Kind::Walker,
            Behaviour::Member(_) => Kind::Member,
            Behaviour::Pedestrian(_) => Kind::Pedestrian,
        }
    }

    /// What touching the player means: chasers catch, agents that flee get tagged, wanderers
    /// just pass by.
    pub fn contact(&self) -> Contact {
        match self {
            Behaviour::TileChase { flip, .. }
            | Behaviour::TileLos { flip, .. }
            | Behaviour::Los { flip }
            | Behaviour::Intercept { flip, .. } => {
                if *flip {
                    Contact::Tag
                } else {
                    Contact::Catch
                }
            }
            Behaviour::Evade(_) | Behaviour::Hide(_) => Contact::Tag,
            Behaviour::Wander { .. }
            | Behaviour::Avoid { chase: false, .. }
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => Contact::Ignore,
            Behaviour::Avoid { chase: true, .. }
            | Behaviour::Ship(_)
            | Behaviour::Path(_)
            | Behaviour::Bodyguard(_) => Contact::Catch,
            // Whether a guard catches or is tagged depends on the player's power-up: the world's
            // guard pass settles it.
            Behaviour::Guard(_) => Contact::Ignore,
        }
    }

    /// Whether the agent hunts the player (drawn in the chasers' colour).
    pub fn chases(&self) -> bool {
        self.contact() == Contact::Catch
    }

    /// Switch to the mode's alternate form in place (`E`, `V`, `T`), keeping the agent's state.
    pub fn set_flip(&mut self, on: bool) {
        match self {
            Behaviour::TileChase { flip, .. }
            | Behaviour::TileLos { flip, .. }
            | Behaviour::Los { flip }
            | Behaviour::Intercept { flip, .. }
            | Behaviour::Wander {
                waypoints: flip, ..
            }
            | Behaviour::Avoid { chase: flip, .. } => *flip = on,
            Behaviour::Evade(_)
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Guard(_)
            | Behaviour::Hide(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => {}
        }
        if let Behaviour::TileLos { line, .. } = self {
            // Force a new line on the next step.
            line.drawn_for = IVec2::new(i32::MIN, i32::MIN);
        }
    }

    pub fn tile_walk(&self) -> Option<&TileWalk> {
        match self {
            Behaviour::TileChase { walk, .. }
            | Behaviour::TileLos { walk, .. }
            | Behaviour::TilePattern { walk, .. } => Some(walk),
            Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Evade(_)
            | Behaviour::Wander { .. }
            | Behaviour::Avoid { .. }
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Guard(_)
            | Behaviour::Hide(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => None,
        }
    }

    /// The vehicle numbers this behaviour moves with.
    pub fn params<'a>(&'a self, tuning: &'a Tuning) -> &'a VehicleTuning {
        match self {
            Behaviour::Evade(_) | Behaviour::Hide(_) => &tuning.evader,
            Behaviour::Wander { .. } | Behaviour::Avoid { .. } => &tuning.wanderer,
            Behaviour::Ship(s) => &s.params,
            Behaviour::Pattern { params, .. } => params,
            Behaviour::Boid(_) | Behaviour::Swarmer(_) => &tuning.boid,
            Behaviour::Walker(w) => &w.vehicle,
            Behaviour::Member(_) => &tuning.member,
            Behaviour::Pedestrian(_) => &tuning.pedestrian,
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Path(_)
            | Behaviour::Guard(_)
            | Behaviour::Bodyguard(_) => &tuning.chaser,
        }
    }

    /// The mode this behaviour belongs to and whether it is in its alternate form (a respawn
    /// rebuilds the same kind, also in the free-for-all).
    pub fn base(&self) -> (Mode, bool) {
        match self {
            Behaviour::TileChase { flip, .. } => (Mode::TileChase, *flip),
            Behaviour::TileLos { flip, .. } => (Mode::TileLos, *flip),
            Behaviour::Los { flip } => (Mode::LosChase, *flip),
            Behaviour::Intercept { flip, .. } => (Mode::Intercept, *flip),
            Behaviour::Evade(_) => (Mode::Evade, false),
            Behaviour::Wander { waypoints, .. } => (Mode::Wander, *waypoints),
            Behaviour::Avoid { chase, .. } => (Mode::Avoid, *chase),
            Behaviour::Ship(_) => (Mode::Galaga, false),
            Behaviour::Pattern { .. } | Behaviour::TilePattern { .. } => (Mode::Patterns, false),
            Behaviour::Boid(_) => (Mode::Flock, false),
            Behaviour::Swarmer(_) => (Mode::Swarm, false),
            Behaviour::Path(_) => (Mode::Pathfind, false),
            Behaviour::Guard(_) => (Mode::Fsm, false),
            Behaviour::Hide(_) => (Mode::Hide, false),
            Behaviour::Bodyguard(_) => (Mode::Hide, true),
            Behaviour::Walker(_) => (Mode::Crowd, false),
            Behaviour::Member(_) => (Mode::Formation, false),
            Behaviour::Pedestrian(_) => (Mode::Pathway, false),
        }
    }

    /// Whether the agent is meant to keep moving (the `stuck_agents` metric applies): evaders,
    /// wanderers, agents among obstacles and pattern walkers. Chasers may rightly wait (a tile
    /// chaser behind an obstacle), ships sit in formation, boids wait behind a leader standing
    /// still and a swarm settles round the player.
    pub fn must_move(&self) -> bool {
        matches!(
            self,
            Behaviour::Evade(_)
                | Behaviour::Wander { .. }
                | Behaviour::Avoid { .. }
                | Behaviour::Pattern { .. }
                | Behaviour::TilePattern { .. }
        )
    }

    /// Whether the agent moves on the ground among the obstacles (Galaga ships fly over them, so
    /// obstacle clearance is not measured for them).
    pub fn grounded(&self) -> bool {
        !matches!(self, Behaviour::Ship(_))
    }

    /// Whether an agent that catches the player is sent back to a spawn point (Galaga ships fly
    /// on: a ship catches once per flight; a guard goes home to its route; a bodyguard stays at
    /// its post).
    pub fn respawns(&self) -> bool {
        !matches!(
            self,
            Behaviour::Ship(_) | Behaviour::Guard(_) | Behaviour::Bodyguard(_)
        )
    }

    pub fn guard(&self) -> Option<&Guard> {
        if let Behaviour::Guard(g) = self {
            Some(g)
        } else {
            None
        }
    }

    pub fn wander_walk(&self) -> Option<&WanderWalk> {
        match self {
            Behaviour::Wander { walk, .. } | Behaviour::Avoid { walk, .. } => Some(walk),
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Evade(_)
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Guard(_)
            | Behaviour::Hide(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => None,
        }
    }
}
