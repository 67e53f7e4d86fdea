//! Pattern movement (Bourg & Seemann ch. 3): control data drives the agent. Each instruction says
//! which way to steer (port, starboard or none), whether to thrust, and when it ends — a heading
//! change and/or a distance — measured from the state when it began, so a pattern runs from any
//! start position and heading. The list loops.
//!
//! The physically simulated version: thrust accelerates the vehicle to its top speed and drag
//! slows it when coasting; the rudder turns it at the turn rate scaled by `1 − dHeading/limit`
//! (at least 0.05), so the turn eases off as it nears its limit and ends almost exactly on it.
//! The tile version walks turn-and-step instructions on the grid.

use super::decision::{Decision, Me, Plan};
use super::tile_walk::TileWalk;
use crate::data::patterns::{Instruction, Steer, TileInstruction};
use crate::data::tuning::{PatternTuning, TileTuning, VehicleTuning};
use crate::sim::space::Senses;
use crate::sim::space::arena::{Arena, Response};
use crate::sim::space::tiles::TileGrid;
use crate::sim::vehicle::Vehicle;
use glam::{IVec2, Vec2};
use std::sync::Arc;

/// Mode 9: the physics-driven walker moves itself, by this tick's pattern tuning (`params`
/// follows it).
#[inline(always)]
pub fn steer(
    body: &mut Vehicle,
    run: &mut PatternRun,
    params: &mut VehicleTuning,
    t: &PatternTuning,
    senses: &Senses,
) -> Decision {
    *params = vehicle(t);
    let from = body.pos;
    run.walk(body, from, t, senses.arena, senses.dt);
    Decision {
        plan: Plan::Moved,
        aim: senses.player.pos,
        state: run.state(),
    }
}

/// Mode 9: the tile walker's next step, when one is due.
#[inline(always)]
pub fn steer_tiles(
    me: Me,
    walk: &mut TileWalk,
    run: &mut TileRun,
    t: &TileTuning,
    senses: &Senses,
) -> Decision {
    let mut state = me.was;
    if walk.due(senses.dt, t.steps_per_second) {
        let (next, said) = run.step(&senses.arena.tiles, walk.tile);
        state = said;
        walk.step(next);
    }
    Decision {
        plan: Plan::Tile,
        aim: senses.player.pos,
        state,
    }
}

/// The smallest fraction of the turn rate used near a turn's limit (the book's 0.05).
const MIN_EASE: f32 = 0.05;

/// A physics-driven walker's progress through its pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternRun {
    /// The pattern's name and instructions, shared by every walker that runs it.
    pub name: Arc<str>,
    pub list: Arc<[Instruction]>,
    pub index: usize,
    /// Heading (radians, accumulated: not wrapped, so a loop shows as 2π) and speed.
    pub heading: f32,
    pub speed: f32,
    /// Heading and distance travelled when the current instruction began.
    pub began_heading: f32,
    pub travelled: f32,
    pub cycles: u32,
    /// Where the current cycle began, and how far from it the first cycle ended.
    pub cycle_start: Vec2,
    pub first_closure: Option<f32>,
}

impl PatternRun {
    pub fn new(name: &str, list: &[Instruction], pos: Vec2, heading_deg: f32) -> Self {
        Self::shared(name.into(), list.into(), pos, heading_deg)
    }

    /// [`PatternRun::new`] sharing the name and instructions (a crowd of walkers running one
    /// pattern reads one copy of it).
    pub fn shared(name: Arc<str>, list: Arc<[Instruction]>, pos: Vec2, heading_deg: f32) -> Self {
        let heading = heading_deg.to_radians();
        PatternRun {
            name,
            list,
            index: 0,
            heading,
            speed: 0.0,
            began_heading: heading,
            travelled: 0.0,
            cycles: 0,
            cycle_start: pos,
            first_closure: None,
        }
    }

    pub fn current(&self) -> &Instruction {
        &self.list[self.index % self.list.len()]
    }

    /// One tick: steer, thrust or coast, and move on when the instruction's limit is reached.
    /// Returns the velocity to move with.
    pub fn step(&mut self, t: &PatternTuning, dt: f32) -> Vec2 {
        let ins = *self.current();
        let turned = (self.heading - self.began_heading).abs().to_degrees();
        let ease = match ins.turn_deg {
            Some(limit) => (1.0 - turned / limit).max(MIN_EASE),
            None => 1.0,
        };
        let side = match ins.steer {
            Steer::Port => -1.0,
            Steer::Starboard => 1.0,
            Steer::None => 0.0,
        };
        self.heading += side * t.turn_rate_deg.to_radians() * ease * dt;
        self.speed = if ins.thrust {
            (self.speed + t.thrust * dt).min(t.max_speed)
        } else {
            self.speed * (-t.drag * dt).exp()
        };
        self.travelled += self.speed * dt;
        Vec2::from_angle(self.heading) * self.speed
    }

    /// One tick of the walker's physics: step the pattern, move the body, bounce off what it hits
    /// (and follow the bounce), and end the instruction at its limit. `from` is where the body
    /// began the tick (for the collision's sweep).
    #[inline]
    pub fn walk(
        &mut self,
        body: &mut Vehicle,
        from: Vec2,
        t: &PatternTuning,
        arena: &Arena,
        dt: f32,
    ) {
        body.vel = self.step(t, dt);
        body.pos += body.vel * dt;
        let before = body.vel;
        arena.collide(
            from,
            &mut body.pos,
            &mut body.vel,
            t.radius,
            Response::Bounce,
        );
        if body.vel != before {
            self.bounced(body.vel);
        }
        self.advance(body.pos);
        body.heading = Vec2::from_angle(self.heading);
    }

    /// After the move: end the instruction if a limit is reached (and the cycle at the list's end).
    pub fn advance(&mut self, pos: Vec2) {
        let ins = *self.current();
        let turned = (self.heading - self.began_heading).abs().to_degrees();
        let done = ins.turn_deg.is_some_and(|l| turned >= l)
            || ins.distance.is_some_and(|d| self.travelled >= d);
        if !done {
            return;
        }
        self.index = (self.index + 1) % self.list.len();
        self.began_heading = self.heading;
        self.travelled = 0.0;
        if self.index == 0 {
            self.cycles += 1;
            self.first_closure
                .get_or_insert(pos.distance(self.cycle_start));
            self.cycle_start = pos;
        }
    }

    /// A bounce off a wall or obstacle turned the velocity: follow it.
    pub fn bounced(&mut self, vel: Vec2) {
        if let Some(dir) = vel.try_normalize() {
            let new = dir.y.atan2(dir.x);
            // Keep the heading accumulated, so the instruction's turn count is unaffected.
            let old = self.heading;
            let delta = (new - old + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                - std::f32::consts::PI;
            self.heading = old + delta;
            self.began_heading += delta;
        }
    }

    /// The record's state word for the current instruction.
    pub fn state(&self) -> &'static str {
        let ins = self.current();
        match (ins.steer, ins.thrust) {
            (Steer::Port, _) => "port",
            (Steer::Starboard, _) => "starboard",
            (Steer::None, true) => "thrust",
            (Steer::None, false) => "coast",
        }
    }
}

/// The vehicle numbers of a physics-driven walker: the pattern tuning's top speed, thrust (as its
/// force) and radius, at unit mass.
pub fn vehicle(t: &PatternTuning) -> VehicleTuning {
    VehicleTuning {
        max_speed: t.max_speed,
        max_force: t.thrust,
        mass: 1.0,
        radius: t.radius,
    }
}

/// The eight tile directions, clockwise from +x (east).
pub const DIRECTIONS: [IVec2; 8] = [
    IVec2::new(1, 0),
    IVec2::new(1, 1),
    IVec2::new(0, 1),
    IVec2::new(-1, 1),
    IVec2::new(-1, 0),
    IVec2::new(-1, -1),
    IVec2::new(0, -1),
    IVec2::new(1, -1),
];

/// A tile walker's progress.
#[derive(Debug, Clone, PartialEq)]
pub struct TileRun {
    /// The pattern's name and instructions, shared by every walker that runs it.
    pub name: Arc<str>,
    pub list: Arc<[TileInstruction]>,
    pub index: usize,
    /// Index into [`DIRECTIONS`].
    pub direction: usize,
    /// Steps left of the current instruction; `None` before its turn is made.
    pub left: Option<u32>,
    pub cycles: u32,
}

impl TileRun {
    pub fn new(name: &str, list: &[TileInstruction], heading_deg: f32) -> Self {
        Self::shared(name.into(), list.into(), heading_deg)
    }

    /// [`TileRun::new`] sharing the name and instructions.
    pub fn shared(name: Arc<str>, list: Arc<[TileInstruction]>, heading_deg: f32) -> Self {
        let eighth = (heading_deg / 45.0).round() as i64;
        TileRun {
            name,
            list,
            index: 0,
            direction: eighth.rem_euclid(8) as usize,
            left: None,
            cycles: 0,
        }
    }

    /// One step: the tile to move to (or `None` to wait) and the state word.
    pub fn step(&mut self, grid: &TileGrid, tile: IVec2) -> (Option<IVec2>, &'static str) {
        // Skip over instructions with no steps left, turning as each begins (bounded: the list
        // has at least one step somewhere, which validation guarantees).
        for _ in 0..=self.list.len() {
            match self.left {
                Some(0) => {
                    self.index = (self.index + 1) % self.list.len();
                    if self.index == 0 {
                        self.cycles += 1;
                    }
                    self.left = None;
                }
                Some(_) => break,
                None => {
                    let ins = self.list[self.index];
                    self.direction =
                        (self.direction as i64 + i64::from(ins.turn)).rem_euclid(8) as usize;
                    self.left = Some(ins.steps);
                }
            }
        }
        let to = tile + DIRECTIONS[self.direction];
        if grid.can_step(tile, to) {
            if let Some(left) = &mut self.left {
                *left = left.saturating_sub(1);
            }
            (Some(to), "step")
        } else {
            (None, "blocked")
        }
    }
}
