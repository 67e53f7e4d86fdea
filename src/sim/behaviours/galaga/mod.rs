//! Galaga pattern flights (Namco 1981): waves of ships enter in pairs along step-list paths, fly
//! home into a formation that sways while it fills and then breathes, and peel off to dive at the
//! player.
//!
//! Paths use the arcade's own encoding: each step flies at a speed, turning at a rate, for a time
//! (constant speed and smooth joins by construction), or is a command — aim at the player, fly
//! until a height, wrap to the top, jump to another path, fly home to the formation slot. A
//! mirrored path flies the other flank: x reflected, turns negated.
//!
//! The data describes one squadron (the built-in stage: five waves, 40 ships, a 40-slot
//! formation). More ships than that (`+`, `--agents`) fly as further squadrons, each a copy of the
//! first with its own formation: the formations stand side by side in a grid across the top of
//! the arena, shrunk as a whole where more than fit (their spacing, sway and breath alike), every
//! squadron flies each wave, their pairs interleaved along the paths, and each has its own dives
//! within its own cap on ships in flight. One squadron is the stage as the data gives it.
//!
//! The stage moves its ships through [`Carrier`], what it needs of the bodies that carry them:
//! it knows nothing else of the world's agents.

mod carrier;
mod dives;
mod flight;
mod formation;
mod home;
mod layout;
mod ship;
mod stage;
mod tick;

pub use carrier::Carrier;
pub use flight::preview;
pub use layout::Slot;
pub use ship::{Flight, Follow, PathName, SHIP_RADIUS, Ship, ShipState};
pub use stage::Stage;
pub use tick::tick;
