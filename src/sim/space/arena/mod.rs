//! The arena: walls, obstacles and spawn points, with the indexes that let every obstacle query
//! (nearest surface, ray cast, collision) look only near where it asks, so no agent ever scans
//! every obstacle: a uniform grid of cells, the clearance field ([`Field`]) and the tiles
//! ([`TileGrid`]).
//!
//! The [`Arena`] value and how it is built and changed live here; its queries live beside it, one
//! file each: the walls, what is near a point, rays and sweeps, fans of sweeps, collisions.
//! The shapes they work on are plain values in [`crate::sim::space::shape`], below the indexes.

mod collide;
mod fan;
mod grid;
mod near;
mod ray;
mod walls;

pub use crate::sim::space::shape::{Obstacle, RayHit, Response, Surface, sweep_reach};
pub use grid::{CELL, MAX_SWEEP_RADIUS};

use crate::data::arena::ArenaData;
use crate::sim::space::field::Field;
use crate::sim::space::tiles::TileGrid;
use glam::Vec2;
use grid::Grid;

#[derive(Debug, Clone)]
pub struct Arena {
    pub width: f32,
    pub height: f32,
    pub tile_size: f32,
    obstacles: Vec<Obstacle>,
    pub spawns: Vec<Vec2>,
    pub player_start: Vec2,
    /// The `fsm` mode's power-ups.
    pub pickups: Vec<Vec2>,
    grid: Grid,
    /// Lower bounds on the distance to the nearest obstacle, for the open-space fast paths.
    field: Field,
    /// Tiles overlapped by obstacles, for the tile modes.
    pub tiles: TileGrid,
}

impl Arena {
    pub fn from_data(d: &ArenaData) -> Self {
        let obstacles: Vec<Obstacle> = d.obstacles.iter().map(Obstacle::from_data).collect();
        let grid = Grid::build(&obstacles, d.width, d.height);
        let field = Field::build(&obstacles, d.width, d.height);
        let tiles = TileGrid::new(d.width, d.height, d.tile_size, &obstacles);
        Arena {
            tiles,
            width: d.width,
            height: d.height,
            tile_size: d.tile_size,
            obstacles,
            spawns: d.spawns.iter().map(|s| Vec2::from(*s)).collect(),
            player_start: Vec2::from(d.player_start),
            pickups: d.pickups.iter().map(|p| Vec2::from(*p)).collect(),
            grid,
            field,
        }
    }

    pub fn to_data(&self) -> ArenaData {
        ArenaData {
            width: self.width,
            height: self.height,
            tile_size: self.tile_size,
            obstacles: self.obstacles.iter().map(Obstacle::to_data).collect(),
            spawns: self.spawns.iter().map(|s| s.to_array()).collect(),
            player_start: self.player_start.to_array(),
            pickups: self.pickups.iter().map(|p| p.to_array()).collect(),
        }
    }

    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    pub fn size(&self) -> Vec2 {
        Vec2::new(self.width, self.height)
    }

    pub fn center(&self) -> Vec2 {
        self.size() * 0.5
    }

    /// The lower bounds on obstacle distance (see [`Field`]).
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// Add an obstacle and rebuild the grid, the field and the tiles.
    pub fn add_obstacle(&mut self, o: Obstacle) {
        self.obstacles.push(o);
        self.rebuild();
    }

    /// Remove the obstacle containing `p` (the topmost, i.e. last added), if any.
    pub fn remove_obstacle_at(&mut self, p: Vec2) -> Option<Obstacle> {
        let index = self.obstacles.iter().rposition(|o| o.surface(p).0 <= 0.0)?;
        let removed = self.obstacles.remove(index);
        self.rebuild();
        Some(removed)
    }

    fn rebuild(&mut self) {
        self.grid = Grid::build(&self.obstacles, self.width, self.height);
        self.field = Field::build(&self.obstacles, self.width, self.height);
        self.tiles = TileGrid::new(self.width, self.height, self.tile_size, &self.obstacles);
    }
}
