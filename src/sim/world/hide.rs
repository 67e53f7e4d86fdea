//! The `hide` mode's part of the world: hiders from the seeded spawns and, with `T`, bodyguards
//! after them; the pass that tells each bodyguard where its charge is before the agents move;
//! and the look after the tick that says who the player sees (the `fsm` guards' line-of-sight
//! test), for the summary and the overlay.

use super::World;
use crate::sim::agent::Behaviour;
use crate::sim::behaviours::hide::{self, Bodyguard};
use crate::sim::fsm::line_of_sight;
use crate::sim::mode::Mode;

/// What the `hide` mode has measured since the mode began.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HideRun {
    pub hider_ticks: u64,
    /// Hider-ticks the player had no line of sight to.
    pub hidden_ticks: u64,
    pub guard_ticks: u64,
    /// Sum over bodyguard-ticks of the distance from the segment player–charge.
    pub guard_off_line: f64,
}

impl HideRun {
    /// `hidden_fraction`.
    pub fn hidden_fraction(&self) -> Option<f64> {
        (self.hider_ticks > 0).then(|| self.hidden_ticks as f64 / self.hider_ticks as f64)
    }

    /// `guard_off_line_px`.
    pub fn guard_off_line_px(&self) -> Option<f64> {
        (self.guard_ticks > 0).then(|| self.guard_off_line / self.guard_ticks as f64)
    }
}

impl World {
    /// How many of `count` agents are bodyguards: the tuned number with `T` on, leaving at least
    /// one hider to guard.
    pub fn bodyguards_of(&self, count: usize) -> usize {
        if self.flip {
            (self.tuning.hide.bodyguards as usize).min(count.saturating_sub(1))
        } else {
            0
        }
    }

    /// `hide`: `count` agents, the hiders from the seeded spawns, then the bodyguards (see
    /// [`World::bodyguards_of`]).
    pub(super) fn spawn_hide(&mut self, count: usize) {
        self.hiding = HideRun::default();
        let guards = self.bodyguards_of(count);
        let spawns = self.arena.spawns.clone();
        for i in 0..count - guards {
            let pos = self.scattered(spawns[i % spawns.len()]);
            let agent = self.new_agent(i as u32, pos, Mode::Hide, false);
            self.agents.push(agent);
        }
        self.add_bodyguards(guards);
    }

    /// `guards` bodyguards after the agents there are, bodyguard `k` guarding hider `k mod
    /// hiders`, each starting beside its charge.
    fn add_bodyguards(&mut self, guards: usize) {
        let hiders = self.agents.len();
        for k in 0..guards {
            let charge = (k % hiders.max(1)) as u32;
            let near = self
                .agents
                .get(charge as usize)
                .map_or(self.arena.center(), |a| a.body.pos);
            let pos = self.scattered(near);
            let id = self.agents.len() as u32;
            let mut agent = self.new_agent(id, pos, Mode::Hide, false);
            agent.behaviour = Behaviour::Bodyguard(Box::new(Bodyguard::new(charge)));
            // (Cleared for its own body, which is the chasers'.)
            self.settle(&mut agent);
            self.agents.push(agent);
        }
    }

    /// `T` in `hide`: the bodyguards join the hiders, or leave.
    pub(super) fn hide_flip(&mut self, on: bool) {
        self.agents
            .retain(|a| !matches!(a.behaviour, Behaviour::Bodyguard(_)));
        if on {
            let guards =
                self.bodyguards_of(self.agents.len() + self.tuning.hide.bodyguards as usize);
            self.add_bodyguards(guards);
        }
        self.hiding = HideRun::default();
    }

    /// Before the agents move: each bodyguard learns where its charge is.
    pub(super) fn brief_bodyguards(&mut self) {
        for i in 0..self.agents.len() {
            let Behaviour::Bodyguard(g) = &self.agents[i].behaviour else {
                continue;
            };
            let Some(charge) = self.agents.get(g.charge as usize) else {
                continue;
            };
            let (pos, vel) = (charge.body.pos, charge.body.vel);
            if let Behaviour::Bodyguard(g) = &mut self.agents[i].behaviour {
                g.charge_pos = pos;
                g.charge_vel = vel;
            }
        }
    }

    /// After the tick: who the player sees (the guards' line-of-sight test), and how far each
    /// bodyguard stands off the line from the player to its charge.
    pub(super) fn look_for_hiders(&mut self) {
        let player = self.player.pos;
        let mut run = self.hiding;
        for a in &self.agents {
            if let Behaviour::Bodyguard(g) = &a.behaviour
                && let Some(c) = self.agents.get(g.charge as usize)
            {
                run.guard_ticks += 1;
                run.guard_off_line += f64::from(hide::off_segment(a.body.pos, player, c.body.pos));
            }
        }
        for a in &mut self.agents {
            if let Behaviour::Hide(h) = &mut a.behaviour {
                h.seen = line_of_sight(&self.arena, player, a.body.pos);
                run.hider_ticks += 1;
                if !h.seen {
                    run.hidden_ticks += 1;
                }
            }
        }
        self.hiding = run;
    }
}
