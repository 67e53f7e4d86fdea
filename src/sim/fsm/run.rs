//! The machine as a world runs it: the compiled machine with its counts, the player's power-up
//! and the pickups that give it, and what the corner diagram shows (guards per state, the
//! transitions that just fired). Times are kept in whole ticks, so a power-up of 8 s at 60 Hz
//! lasts exactly 480 ticks whatever the rounding of `dt`.

use super::machine::{Fired, Machine, Tally};
use crate::data::fsm::FsmTuning;
use crate::sim::path::Search;
use glam::{IVec2, Vec2};

/// A power-up on the floor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pickup {
    pub pos: Vec2,
    /// Ticks until it is back (0: it is there).
    pub away: u32,
}

impl Pickup {
    pub fn present(&self) -> bool {
        self.away == 0
    }
}

#[derive(Debug, Clone)]
pub struct FsmRun {
    pub machine: Machine,
    pub tally: Tally,
    /// Ticks of power-up left (0: the player holds none).
    pub power_left: u32,
    pub pickups: Vec<Pickup>,
    /// The tick each transition row last fired on (the diagram lights it).
    pub fired_at: Vec<Option<u64>>,
    /// How many guards are in each state, after the last tick.
    pub in_state: Vec<u32>,
    /// The A* search the guards plan their paths with, and its tile path (kept between plans,
    /// so planning allocates only while they grow).
    pub search: Search,
    pub tiles: Vec<IVec2>,
}

/// What happened to the power-up in a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Power {
    /// Nothing changed.
    Same,
    /// The player took pickup `k`.
    Took(usize),
    /// The power-up ran out.
    Ended,
}

impl FsmRun {
    pub fn new(machine: Machine, pickups: &[Vec2]) -> FsmRun {
        FsmRun {
            tally: Tally::new(&machine),
            power_left: 0,
            pickups: pickups.iter().map(|&pos| Pickup { pos, away: 0 }).collect(),
            fired_at: vec![None; machine.transitions().len()],
            in_state: vec![0; machine.state_count()],
            search: Search::new(),
            tiles: Vec::new(),
            machine,
        }
    }

    /// Whether the player holds a power-up.
    pub fn powered(&self) -> bool {
        self.power_left > 0
    }

    /// One tick of the power-up's clock and the pickups' return, then the player at `player`
    /// takes the first pickup within reach (which starts the power-up again from full). At most
    /// one pickup is taken a tick, so the record names each.
    pub fn update_power(&mut self, player: Vec2, t: &FsmTuning, tick_hz: f32) -> Power {
        let was = self.powered();
        self.power_left = self.power_left.saturating_sub(1);
        for p in &mut self.pickups {
            p.away = p.away.saturating_sub(1);
        }
        let reach = t.pickup_radius;
        let taken = self
            .pickups
            .iter()
            .position(|p| p.present() && p.pos.distance_squared(player) <= reach * reach);
        if let Some(k) = taken {
            self.power_left = ticks(t.power_seconds, tick_hz).max(1);
            self.pickups[k].away = ticks(t.pickup_respawn_s, tick_hz);
            return Power::Took(k);
        }
        if was && !self.powered() {
            Power::Ended
        } else {
            Power::Same
        }
    }

    /// Seconds of power-up left.
    pub fn power_seconds_left(&self, dt: f32) -> f32 {
        self.power_left as f32 * dt
    }

    /// Note a transition that fired on `tick`.
    pub fn fired(&mut self, f: &Fired, tick: u64) {
        self.tally.fired(f);
        if let Some(at) = self.fired_at.get_mut(f.index) {
            *at = Some(tick);
        }
    }
}

/// Whole ticks in `seconds` (at least none).
fn ticks(seconds: f32, tick_hz: f32) -> u32 {
    let n = (f64::from(seconds) * f64::from(tick_hz)).round();
    if n.is_finite() {
        n.clamp(0.0, f64::from(u32::MAX)) as u32
    } else {
        0
    }
}
