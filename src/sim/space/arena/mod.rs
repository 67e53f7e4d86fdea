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
use crate::data::pathways::PathwayData;
use crate::sim::space::field::Field;
use crate::sim::space::tiles::TileGrid;
use glam::Vec2;
use grid::Grid;

#[derive(Debug, Clone, PartialEq)]
pub struct Arena {
    pub width: f32,
    pub height: f32,
    pub tile_size: f32,
    obstacles: Vec<Obstacle>,
    pub spawns: Vec<Vec2>,
    pub player_start: Vec2,
    /// The `fsm` mode's power-ups.
    pub pickups: Vec<Vec2>,
    /// The `pathway` mode's pathways, as the data gives them.
    pub pathways: Vec<PathwayData>,
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
            pathways: d.pathways.clone(),
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
            pathways: self.pathways.clone(),
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

    /// Add an obstacle: the grid files it, and the field and the tiles take it in near it, each
    /// ending as a whole build of the list would (see [`Arena::rebuilt`]) at the cost of the
    /// cells it touches and a pass over the grid's cells.
    pub fn add_obstacle(&mut self, o: Obstacle) {
        self.obstacles.push(o);
        let index = self.obstacles.len() - 1;
        self.grid.insert(index, &o);
        self.field.add(&self.obstacles, index);
        self.tiles.add(&o);
    }

    /// Remove the obstacle containing `p` (the topmost, i.e. last added), if any: the grid drops
    /// it, and the field and the tiles near it are measured again against the obstacles left,
    /// each ending as a whole build would.
    pub fn remove_obstacle_at(&mut self, p: Vec2) -> Option<Obstacle> {
        let index = self.obstacles.iter().rposition(|o| o.surface(p).0 <= 0.0)?;
        let removed = self.obstacles.remove(index);
        self.grid.remove(index);
        self.field
            .remove(&self.obstacles, index, &removed, self.size());
        self.tiles.remove(&self.obstacles, &removed);
        Some(removed)
    }

    /// The same arena with its grid, field and tiles built whole from its obstacles: what every
    /// edit must leave (the tests compare the two).
    pub fn rebuilt(&self) -> Arena {
        Arena {
            grid: Grid::build(&self.obstacles, self.width, self.height),
            field: Field::build(&self.obstacles, self.width, self.height),
            tiles: TileGrid::new(self.width, self.height, self.tile_size, &self.obstacles),
            ..self.clone()
        }
    }
}
