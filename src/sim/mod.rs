//! The window-free simulation: world, clock, vehicle, arena, player, behaviours, metrics and the
//! record. Nothing here knows about the window or its graphics library.

pub mod agent;
pub mod assign;
pub mod behaviours;
pub mod clock;
pub mod command;
pub mod copies;
pub mod fsm;
pub mod group_metrics;
pub mod headless;
pub mod metrics;
pub mod mode;
pub mod path;
pub mod player;
pub mod record;
pub mod replay;
pub mod space;
pub mod threads;
pub mod trace;
pub mod vehicle;
pub mod world;
