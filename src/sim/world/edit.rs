//! Editing the run in place: obstacles added and removed, agents placed.

use super::World;
use crate::sim::agent::Behaviour;
use crate::sim::space::arena::Obstacle;
use glam::Vec2;

impl World {
    /// Add an obstacle (a mouse click): queries see it at once; tile agents standing on a tile it
    /// now blocks step to the nearest free tile.
    pub fn add_obstacle(&mut self, o: Obstacle) {
        // (The crowd's scene is not the data's arena: what is placed there stays there.)
        if !self.walking.own_arena {
            self.arena_data
                .obstacles
                .push(o.to_data().scaled(1.0 / self.arena_scale));
        }
        self.arena.add_obstacle(o);
        self.recast = true;
        self.paths.changed();
        let grid = &self.arena.tiles;
        for a in &mut self.agents {
            a.unblock(grid);
        }
        self.events.push("obstacle-added".to_string());
    }

    /// Remove the obstacle under `p`, if any.
    pub fn remove_obstacle_at(&mut self, p: Vec2) -> bool {
        let index = self
            .arena
            .obstacles()
            .iter()
            .rposition(|o| o.surface(p).0 <= 0.0);
        let removed = self.arena.remove_obstacle_at(p).is_some();
        if let Some(i) = index
            .filter(|&i| removed && !self.walking.own_arena && i < self.arena_data.obstacles.len())
        {
            self.arena_data.obstacles.remove(i);
        }
        if removed {
            self.recast = true;
            self.paths.changed();
            self.events.push("obstacle-removed".to_string());
        }
        removed
    }

    /// Put agent `i` at `pos` with velocity `vel` (for set-up scenarios in tests and tools).
    pub fn place_agent(&mut self, i: usize, pos: Vec2, vel: Vec2) {
        if let Behaviour::Walker(_) = self.agents[i].behaviour {
            // (A walker keeps its start, goal and trips: only its body moves.)
            let a = &mut self.agents[i];
            a.body.pos = pos;
            a.body.vel = vel;
            a.body.update_heading();
            a.prev_pos = pos;
            a.respawned = true;
            return;
        }
        let id = self.agents[i].id;
        let (mode, flip) = self.agents[i].behaviour.base();
        let mut agent = self.new_agent(id, pos, mode, flip);
        agent.body.vel = vel;
        agent.body.update_heading();
        self.agents[i] = agent;
    }

    /// Put the player at `pos` with velocity `vel` (for set-up scenarios in tests and tools).
    pub fn place_player(&mut self, pos: Vec2, vel: Vec2) {
        self.player.pos = pos;
        self.player.prev_pos = pos;
        self.player.vel = vel;
    }
}
