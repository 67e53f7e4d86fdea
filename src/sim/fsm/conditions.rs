//! The facts a guard's machine decides on in a tick, and whether a transition's condition holds
//! for them.

use super::CLOCK_SLACK;
use crate::data::fsm::Condition;

/// The facts a guard's transitions are tested against this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Conditions {
    /// The guard's last look found the player (held between looks).
    pub sees_player: bool,
    /// Seconds since the last look that found the player; `None` if it never has.
    pub lost_for: Option<f32>,
    /// The guard's state runs `search` and has lasted `fsm.search_seconds`.
    pub search_done: bool,
    /// The player holds a power-up.
    pub powered: bool,
    /// The guard is within `fsm.route_reach` of its route.
    pub at_route: bool,
}

impl Conditions {
    pub fn holds(&self, c: &Condition) -> bool {
        match *c {
            Condition::SeesPlayer => self.sees_player,
            Condition::LostPlayerFor { seconds } => {
                !self.sees_player && self.lost_for.is_some_and(|t| t >= seconds - CLOCK_SLACK)
            }
            Condition::SearchDone => self.search_done,
            Condition::Powered => self.powered,
            Condition::PowerEnded => !self.powered,
            Condition::AtRoute => self.at_route,
        }
    }
}
