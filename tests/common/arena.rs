//! Arenas for the tests: an empty one of any size whose fields a test fills in, an obstacle on
//! one tile, the built-in data on such an arena or with the default arena's obstacles taken out,
//! and the maze.

use glam::IVec2;
use steering_arena::data::arena::{self, ArenaData, ObstacleData};
use steering_arena::data::{DataSet, built_in};

/// The tile size of [`empty`]'s arenas, in pixels.
pub const TILE: f32 = 32.0;

/// An empty `width` x `height` arena of [`TILE`] px tiles, one spawn point near the top-left
/// corner and the player in the middle; a test sets what it needs with `..empty(width, height)`.
pub fn empty(width: f32, height: f32) -> ArenaData {
    ArenaData {
        width,
        height,
        tile_size: TILE,
        obstacles: Vec::new(),
        spawns: vec![[40.0, 40.0]],
        player_start: [width / 2.0, height / 2.0],
        pickups: Vec::new(),
        pathways: Vec::new(),
    }
}

/// A rectangle covering exactly one tile (edges touching a neighbour's do not block it).
pub fn tile_block(tile: IVec2) -> ObstacleData {
    let min = tile.as_vec2() * TILE;
    ObstacleData::Rect {
        x: min.x,
        y: min.y,
        w: TILE,
        h: TILE,
    }
}

/// The built-in tuning, patterns and machine on `arena`.
pub fn data_on(arena: ArenaData) -> DataSet {
    DataSet {
        arena,
        ..built_in()
    }
}

/// The built-in data with the default arena's obstacles taken out: only its walls remain.
pub fn open_built_in() -> DataSet {
    let mut data = built_in();
    data.arena.obstacles.clear();
    data
}

/// The built-in data on `assets/maze.json`.
pub fn maze() -> DataSet {
    data_on(arena::parse(include_str!("../../assets/maze.json")).expect("the maze parses"))
}
