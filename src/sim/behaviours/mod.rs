//! Steering behaviours: each file is one algorithm, a few lines of textbook maths. A per-agent
//! behaviour's file holds its memory, its numbers and one `steer(me, state, params, senses, …)`
//! giving a [`Decision`](decision::Decision): a force, a course for the agent's layers to keep
//! clear, a tile step, or "moved itself". What it senses comes in from `space/`; `unstick` and the
//! evaders' `keep_clear` are the layers the agent applies on top.

pub mod avoid;
pub mod boid;
pub mod combine;
pub mod decision;
pub mod evade;
pub mod flock;
pub mod formation;
pub mod galaga;
pub mod guard;
pub mod hide;
pub mod intercept;
pub mod orca;
pub mod pathfind;
pub mod pathway;
pub mod pattern;
pub mod seek;
pub mod swarm;
pub mod swarmer;
pub mod tile_chase;
pub mod tile_los;
pub mod tile_walk;
pub mod unstick;
pub mod walker;
pub mod wander;
