//! Steering behaviours: each file is one algorithm, a few lines of textbook maths that return a
//! steering force for the vehicle model (or, on tiles, the next tile).

pub mod avoid;
pub mod evade;
pub mod flock;
pub mod galaga;
pub mod guard;
pub mod intercept;
pub mod pathfind;
pub mod pattern;
pub mod seek;
pub mod swarm;
pub mod tile_chase;
pub mod tile_los;
pub mod unstick;
pub mod wander;
