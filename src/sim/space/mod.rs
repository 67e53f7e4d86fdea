//! Space: everything an agent can sense of where it is — the arena's shapes, its obstacle grid,
//! clearance field and tiles (which tiles a shape blocks, Bresenham's line), the lanes a fan of
//! sweeps shares, the neighbour grid over the crowd, the pathways, the feelers and when they are
//! cast.
//! Behaviours ask through a [`Senses`] value built per agent and never reach past it, so how the
//! sensing is regulated (Buckland's cast / held / changed) lives here alone.

pub mod arena;
pub mod casts;
pub mod clear;
pub mod feelers;
pub mod field;
pub mod lanes;
pub mod masses;
pub mod neighbours;
pub mod pathway;
pub mod senses;
pub mod shape;
pub mod tiles;

pub use arena::Arena;
pub use casts::CastSchedule;
pub use senses::{Held, Motion, Player, Scene, Senses};
