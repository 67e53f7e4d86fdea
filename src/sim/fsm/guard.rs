//! What one guard remembers between ticks, and how the facts its machine decides on come out of
//! it.

use super::CLOCK_SLACK;
use super::conditions::Conditions;
use super::machine::{Fired, Machine, StateId};
use super::route::RouteCursor;
use crate::data::fsm::{FsmTuning, GuardBehaviour};
use glam::Vec2;

/// One guard's machine state: where it is in the machine, for how long, what it last saw and
/// where it is on its route.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuardMind {
    pub state: StateId,
    /// Seconds since the guard entered `state` (a sum of `dt`s: in f32 it would fall a tick
    /// short within a minute).
    pub time_in_state: f64,
    /// What the last look found.
    pub sees_player: bool,
    /// Where the player was at the last look that found it.
    pub last_seen: Option<Vec2>,
    /// Seconds since that look (counts from the start while the player was never seen).
    pub since_seen: f64,
    /// The route it walks (an index into [`Machine::routes`]) and its place on it.
    pub route: usize,
    pub cursor: RouteCursor,
}

impl GuardMind {
    /// Guard `id` in the machine's initial state, walking to the first point of its route.
    pub fn new(machine: &Machine, id: usize) -> GuardMind {
        GuardMind {
            state: machine.initial(),
            time_in_state: 0.0,
            sees_player: false,
            last_seen: None,
            since_seen: 0.0,
            route: machine.route_of(id),
            cursor: RouteCursor::start(),
        }
    }

    /// The clocks run for one tick.
    pub fn advance(&mut self, dt: f32) {
        self.time_in_state += f64::from(dt);
        self.since_seen += f64::from(dt);
    }

    /// The result of a look: `found` (seen or heard) with the player at `player`.
    pub fn perceive(&mut self, found: bool, player: Vec2) {
        self.sees_player = found;
        if found {
            self.last_seen = Some(player);
            self.since_seen = 0.0;
        }
    }

    /// This tick's facts, from the guard's memory and what the world knows (`powered`, and
    /// whether the guard stands on its route).
    pub fn conditions(
        &self,
        machine: &Machine,
        tuning: &FsmTuning,
        powered: bool,
        at_route: bool,
    ) -> Conditions {
        Conditions {
            sees_player: self.sees_player,
            lost_for: self.last_seen.map(|_| self.since_seen as f32),
            search_done: machine.behaviour(self.state) == GuardBehaviour::Search
                && self.time_in_state >= f64::from(tuning.search_seconds - CLOCK_SLACK),
            powered,
            at_route,
        }
    }

    /// Step the machine and enter the state it chose: its clock starts at zero, and a guard
    /// taking up a patrol rejoins its route at the nearest point to `pos`.
    pub fn think(&mut self, machine: &Machine, c: &Conditions, pos: Vec2) -> Option<Fired> {
        let fired = machine.step(self.state, c)?;
        self.state = fired.to;
        self.time_in_state = 0.0;
        if machine.behaviour(fired.to) == GuardBehaviour::Patrol {
            let route = machine.route(self.route);
            self.cursor.resume(route, route.nearest(pos));
        }
        Some(fired)
    }

    /// Where a `patrol` walks to from `pos` (moving on to the next waypoint within `reach`).
    pub fn patrol_target(&mut self, machine: &Machine, pos: Vec2, reach: f32) -> Vec2 {
        self.cursor.follow(machine.route(self.route), pos, reach)
    }

    /// Where a `return` heads from `pos`: the nearest point of the route.
    pub fn return_goal(&self, machine: &Machine, pos: Vec2) -> Vec2 {
        machine.route(self.route).nearest(pos).point
    }

    /// Seconds of search left (0 outside a `search` state).
    pub fn search_left(&self, machine: &Machine, tuning: &FsmTuning) -> f32 {
        if machine.behaviour(self.state) == GuardBehaviour::Search {
            (tuning.search_seconds - self.time_in_state as f32).max(0.0)
        } else {
            0.0
        }
    }
}
