//! One agent of the crowd: its body, its behaviour, and what the tick notes about it; how an
//! agent is made, and how a tile agent leaves a tile that became blocked.

use super::behaviour::Behaviour;
use crate::data::tuning::Tuning;
use crate::sim::behaviours::galaga::ShipState;
use crate::sim::mode::Mode;
use crate::sim::space::arena::Arena;
use crate::sim::space::tiles::TileGrid;
use crate::sim::vehicle::Vehicle;
use glam::{IVec2, Vec2};

/// One agent of the crowd: 128 bytes, aligned to a cache line, so each takes exactly two lines.
/// A tick reads and writes nearly all of it, and at 20,000 agents the crowd (2.5 MB) is about the
/// size of a processor's L2 cache, so the agent's size shows in the cheap modes' ticks there: a
/// larger agent makes them dearer per agent at 20,000 than at 2,000. `tests/bench.rs` holds the
/// size.
#[derive(Debug, Clone)]
#[repr(align(64))]
pub struct Agent {
    pub id: u32,
    pub behaviour: Behaviour,
    pub body: Vehicle,
    pub prev_pos: Vec2,
    pub prev_heading: Vec2,
    /// Speed at the end of the previous tick.
    pub prev_speed: f32,
    /// The steering force applied this tick (for the overlay).
    pub steer: Vec2,
    /// The point the behaviour aimed at (or away from) this tick.
    pub aim: Vec2,
    /// The behaviour's word for what it is doing (the record's `state`).
    pub state: &'static str,
    /// Set on the tick the agent was respawned (its jump is not a step).
    pub respawned: bool,
    /// How long (s) a chaser of modes 3 and 4 has been pressed against an obstacle, barely
    /// moving while it wants to (see [`Agent::note_pressed`]).
    pub pressed: f32,
    /// Simulated seconds when it (re)spawned: a catch's time-to-catch counts from here.
    pub born: f64,
}

impl Agent {
    /// A fresh agent at `pos` (tile agents: the centre of the nearest free tile), facing `face`.
    pub fn new(id: u32, mode: Mode, flip: bool, pos: Vec2, face: Vec2, arena: &Arena) -> Agent {
        let grid = &arena.tiles;
        let tile = grid.nearest_free(grid.tile_of(pos));
        // The data-driven modes build their agents with `Agent::with`; asked here, they get a
        // plain line-of-sight chaser rather than a panic.
        let behaviour = Behaviour::new(mode, flip, tile).unwrap_or(Behaviour::Los { flip });
        Agent::with(id, behaviour, pos, face, arena)
    }

    /// A fresh agent with a given behaviour at `pos` (tile agents: the centre of their tile),
    /// facing `face`.
    pub fn with(id: u32, behaviour: Behaviour, pos: Vec2, face: Vec2, arena: &Arena) -> Agent {
        let grid = &arena.tiles;
        let pos = match behaviour.tile_walk() {
            Some(walk) => grid.center(walk.tile),
            None => pos,
        };
        let body = Vehicle::new(pos, face - pos);
        Agent {
            id,
            behaviour,
            body,
            prev_pos: pos,
            prev_heading: body.heading,
            prev_speed: 0.0,
            steer: Vec2::ZERO,
            aim: face,
            state: "spawn",
            respawned: true,
            pressed: 0.0,
            born: 0.0,
        }
    }

    /// A tile agent whose tile has become blocked moves to the nearest free one.
    pub fn unblock(&mut self, grid: &TileGrid) {
        let (Behaviour::TileChase { walk, .. }
        | Behaviour::TileLos { walk, .. }
        | Behaviour::TilePattern { walk, .. }) = &mut self.behaviour
        else {
            return;
        };
        if grid.blocked(walk.tile) {
            walk.tile = grid.nearest_free(walk.tile);
            walk.from = walk.tile;
            self.body.pos = grid.center(walk.tile);
            self.prev_pos = self.body.pos;
            self.respawned = true;
        }
    }

    /// The logical tile of a tile agent.
    pub fn tile(&self) -> Option<IVec2> {
        self.behaviour.tile_walk().map(|w| w.tile)
    }

    /// A Galaga ship still waiting off the field for its turn (neither drawn nor explained).
    pub fn queued(&self) -> bool {
        matches!(&self.behaviour, Behaviour::Ship(s) if s.state == ShipState::Queued)
    }

    /// Intercept's time to close this tick, when it predicted.
    pub fn tc(&self) -> Option<f32> {
        match self.behaviour {
            Behaviour::Intercept { tc, .. } => tc,
            Behaviour::Guard(ref g) => g.tc,
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Evade(_)
            | Behaviour::Wander { .. }
            | Behaviour::Avoid { .. }
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Boid(_)
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Hide(_)
            | Behaviour::Bodyguard(_)
            | Behaviour::Walker(_)
            | Behaviour::Member(_)
            | Behaviour::Pedestrian(_) => None,
        }
    }

    pub fn radius(&self, tuning: &Tuning) -> f32 {
        self.behaviour.params(tuning).radius
    }

    /// The start of a tick: where the agent was (for its step, turn and speed checks) and that
    /// it has not respawned.
    #[inline(always)]
    pub(super) fn begin_tick(&mut self) {
        self.prev_pos = self.body.pos;
        self.prev_heading = self.body.heading;
        self.prev_speed = self.body.speed();
        self.respawned = false;
    }
}
