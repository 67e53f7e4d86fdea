//! The tick of the crowds that move together (Shift+1's flock, Shift+2's swarm): what every
//! member senses is gathered once — where everyone stood as the tick began, in a neighbour grid
//! rebuilt in place, and for the flock the coarse mass field — then each member steers by it and
//! moves. Every member reads the tick's start, so no member's move this tick changes what another
//! feels of it, whatever their order. Also the live measures the HUD shows.

use super::World;
use crate::sim::agent::{CastSchedule, Context};
use crate::sim::behaviours::flock::{Around, Boid, Leader, Neighbourhood, Senses};
use crate::sim::behaviours::swarm::{self, Target};
use crate::sim::crowd::Crowd;
use crate::sim::group_metrics::{Groups, polarization};
use crate::sim::mode::Mode;
use crate::sim::neighbours::{Masses, Neighbours};
use crate::sim::vehicle::unit_or;
use glam::Vec2;

/// How often (ticks) the HUD's group count is taken afresh: it joins every member to its
/// neighbours within the flock's radius, which in a packed crowd of 20,000 costs as much as
/// several ticks, so it is taken once a simulated second.
const GROUPS_EVERY: u64 = 60;
/// The topological neighbourhood's grid holds about this many boids a cell were they spread
/// evenly (see [`Neighbours::side_for`]). A flock clumps, so where it is a cell holds a few: at
/// 20,000 boids in the default arena one a cell ran 1.5× faster than two and 2× faster than four.
const TOPOLOGICAL_PER_CELL: f32 = 1.0;
/// The metric neighbourhood's grid cells are this share of its radius: a query then looks over
/// 5×5 cells, 2.5 radii square, where cells a radius wide make it 3×3, 3 radii square — a
/// third more positions looked at for the same disc.
const METRIC_SIDE: f32 = 0.5;
/// The player leads in the way it last moved faster than this (px/s): standing still, it keeps
/// its heading rather than turning to a default.
const LEADER_MOVING: f32 = 5.0;

/// What the flock or swarm senses its members by, kept between ticks so that no tick allocates,
/// and the measures of how it holds together.
#[derive(Debug, Clone, Default)]
pub struct Flocking {
    pub grid: Neighbours,
    masses: Masses,
    boids: Vec<Boid>,
    positions: Vec<Vec2>,
    groups: Groups,
    /// The player's heading as a leader.
    pub leader_heading: Vec2,
    /// The swarm's hold radius round the player (px), this tick.
    pub hold: f32,
    /// `|Σ vᵢ/|vᵢ|| / N` after the last tick.
    pub polarization: f32,
    /// Connected groups of the neighbour graph, taken every [`GROUPS_EVERY`] ticks.
    pub groups_seen: usize,
}

impl Flocking {
    /// Where every member stood as the last tick began, in the members' order.
    pub fn positions(&self) -> &[Vec2] {
        &self.positions
    }
}

impl World {
    /// The flock's or the swarm's tick (the world's tick calls this in those modes, after the
    /// player has moved).
    pub(super) fn tick_group(&mut self) {
        let size = self.arena.size();
        let g = &mut self.flocking;
        g.positions.clear();
        g.positions.extend(self.agents.iter().map(|a| a.body.pos));
        let moving = self.player.vel.length_squared() > LEADER_MOVING * LEADER_MOVING;
        if moving || g.leader_heading == Vec2::ZERO {
            g.leader_heading = unit_or(self.player.vel, Vec2::X);
        }
        let empty = Crowd::default();
        let ctx = Context {
            arena: &self.arena,
            tuning: &self.tuning,
            player_pos: self.player.pos,
            player_vel: self.player.vel,
            player_tile: self.arena.tiles.tile_of(self.player.pos),
            dt: self.dt,
            tick: self.tick,
            casts: CastSchedule::new(self.tuning.avoid.sense_hz, self.config.tick_hz),
            recast: std::mem::take(&mut self.recast),
            crowd: &empty,
            flow: None,
        };
        let join;
        if self.mode == Mode::Flock {
            let fp = &self.tuning.flock;
            join = fp.radius;
            g.boids.clear();
            g.boids.extend(self.agents.iter().map(|a| Boid {
                pos: a.body.pos,
                vel: a.body.vel,
            }));
            let side = match fp.neighbourhood {
                Neighbourhood::Metric => fp.radius * METRIC_SIDE,
                Neighbourhood::Topological => {
                    Neighbours::side_for(g.boids.len(), size, TOPOLOGICAL_PER_CELL).min(fp.radius)
                }
            };
            g.grid.rebuild(size, side, g.positions.iter().copied());
            g.masses.rebuild(
                size,
                fp.gather_radius,
                g.boids.iter().map(|b| (b.pos, b.vel)),
            );
            let around = Around {
                predator: self.flip.then_some(self.player.pos),
                leader: self.lead.then_some(Leader {
                    pos: self.player.pos,
                    heading: g.leader_heading,
                }),
            };
            let senses = Senses {
                grid: &g.grid,
                masses: &g.masses,
                boids: &g.boids,
            };
            for (i, a) in self.agents.iter_mut().enumerate() {
                a.fly_in_flock(senses, i, around, &ctx, &mut self.rng);
            }
        } else {
            let sp = &self.tuning.swarm;
            let length = (2.0 * self.tuning.boid.radius).max(1.0);
            join = sp.range * length;
            g.grid.rebuild(size, join, g.positions.iter().copied());
            let spacing = swarm::equilibrium(sp).unwrap_or(1.0) * length;
            g.hold = swarm::hold_radius(self.agents.len(), spacing);
            let target = Target {
                player: self.player.pos,
                hold: g.hold,
            };
            for (i, a) in self.agents.iter_mut().enumerate() {
                a.fly_in_swarm(&g.grid, &g.positions, i, target, &ctx);
            }
        }
        g.polarization = polarization(self.agents.iter().map(|a| a.body.vel));
        if self.tick.is_multiple_of(GROUPS_EVERY) {
            g.groups_seen = g.groups.count(&g.grid, &g.positions, join);
        }
    }
}
