//! What the integration tests share: worlds and their runs, arenas, scratch folders, the binary
//! and its output, the counting allocator and the feelers' cast count. A test file takes it with
//! `mod common;`.

// Every test file is a crate of its own and uses only some of these; the rest would warn there.
#![allow(dead_code)]

pub mod arena;
pub mod bin;
pub mod counting;
pub mod feel;
pub mod scratch;
pub mod world;
