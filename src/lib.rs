//! steering-arena: classic game-AI movement behaviours in a top-down arena.
//!
//! `sim` and `data` are window-free and unit-tested; `app` is the macroquad window; `cli` turns
//! the command line into one of the three runs; `page` reads the browser page's address as one.

pub mod app;
pub mod bench;
pub mod cli;
pub mod data;
pub mod page;
pub mod sim;
