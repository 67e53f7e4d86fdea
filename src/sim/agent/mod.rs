//! An agent: a vehicle body plus the behaviour that drives it. The behaviour is a closed enum;
//! per-agent behaviour state lives in its variant, and each variant's maths lives in its own file
//! under `behaviours/`.
//!
//! An agent's tick comes in three parts, each run over a batch of agents before the next:
//! [`Agent::think`] (the behaviour decides), [`Agent::clear`] (a planned course goes through the
//! agent's layers: out of a pocket, clear of walls and obstacles) and [`Agent::act`] (the body
//! moves). Galaga's ships are moved by their stage instead, through the
//! [`Carrier`](crate::sim::behaviours::galaga::Carrier) an agent is.

mod act;
mod behaviour;
mod carrier;
mod clear;
mod group;
mod kind;
mod member;
mod think;
mod tick;

pub use crate::sim::behaviours::boid::BoidMind;
pub use crate::sim::behaviours::swarmer::SwarmMind;
pub use crate::sim::behaviours::tile_walk::TileWalk;
pub use crate::sim::behaviours::wander::WanderWalk;
pub use behaviour::{Behaviour, Contact};
pub use kind::Kind;
pub use member::Agent;
pub use tick::{Context, Plan};
