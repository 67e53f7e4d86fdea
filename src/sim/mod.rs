//! The window-free simulation: world, clock, vehicle, arena, player, behaviours, metrics and the
//! record. Nothing here knows about the window or its graphics library.

pub mod agent;
pub mod arena;
pub mod behaviours;
pub mod clock;
pub mod command;
pub mod copies;
pub mod crowd;
pub mod field;
pub mod fsm;
pub mod group_metrics;
pub mod headless;
pub mod lanes;
pub mod metrics;
pub mod mode;
pub mod neighbours;
pub mod path;
pub mod player;
pub mod record;
pub mod replay;
pub mod shape;
pub mod tiles;
pub mod vehicle;
pub mod world;
