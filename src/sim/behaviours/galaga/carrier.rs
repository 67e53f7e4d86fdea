//! What the stage needs of the bodies that carry its ships. The world's agents carry them; the
//! stage reads and moves ships through this and knows nothing else of the agents, so what it
//! decides flows one way, from the stage to the bodies.

use super::ship::Ship;
use glam::Vec2;

pub trait Carrier {
    /// The ship carried.
    fn ship(&self) -> &Ship;
    fn ship_mut(&mut self) -> &mut Ship;
    /// Where the body is (the ship's exact position, rounded to `f32`).
    fn pos(&self) -> Vec2;
    fn set_pos(&mut self, pos: Vec2);
    /// The tick begins: the body notes where it was, to measure its move by.
    fn begin_tick(&mut self);
    /// The ship jumped this tick (launched from its queue, or wrapped to the top): its move is
    /// no step.
    fn jumped(&mut self);
    /// The tick ends: the body takes the ship's state word and heading (a unit vector), and the
    /// velocity of its move over `dt` — none when it is `still` or jumped.
    fn settle(&mut self, word: &'static str, heading: Vec2, still: bool, dt: f32);
}
