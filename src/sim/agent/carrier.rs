//! An agent as the body that carries a Galaga ship: the stage reads and moves its ship, and its
//! body follows.

use super::behaviour::Behaviour;
use super::member::Agent;
use crate::sim::behaviours::galaga::{Carrier, Ship};
use glam::Vec2;

impl Carrier for Agent {
    #[inline]
    fn ship(&self) -> &Ship {
        let Behaviour::Ship(s) = &self.behaviour else {
            unreachable!("galaga worlds hold only ships")
        };
        s
    }

    #[inline]
    fn ship_mut(&mut self) -> &mut Ship {
        let Behaviour::Ship(s) = &mut self.behaviour else {
            unreachable!("galaga worlds hold only ships")
        };
        s
    }

    #[inline]
    fn pos(&self) -> Vec2 {
        self.body.pos
    }

    #[inline]
    fn set_pos(&mut self, pos: Vec2) {
        self.body.pos = pos;
    }

    #[inline]
    fn begin_tick(&mut self) {
        Agent::begin_tick(self);
    }

    #[inline]
    fn jumped(&mut self) {
        self.respawned = true;
    }

    #[inline]
    fn settle(&mut self, word: &'static str, heading: Vec2, still: bool, dt: f32) {
        self.state = word;
        self.body.heading = heading;
        self.body.vel = if still || self.respawned {
            Vec2::ZERO
        } else {
            (self.body.pos - self.prev_pos) / dt
        };
    }
}
