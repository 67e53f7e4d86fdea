//! The tick of the crowds that move together (Shift+1's flock, Shift+2's swarm): what every
//! member senses is gathered once — where everyone stood as the tick began, in a neighbour grid
//! rebuilt in place, and for the flock the coarse mass field — then each member steers by it and
//! moves. Every member reads the tick's start, so no member's move this tick changes what another
//! feels of it, whatever their order. Also the live measures the HUD shows.

use super::World;
use crate::data::arena::ArenaData;
use crate::data::crowds::FlockParams;
use crate::sim::agent::Context;
use crate::sim::behaviours::boid::{self, Flock};
use crate::sim::behaviours::combine::Dice;
use crate::sim::behaviours::flock::{self, Around, Boid, Flockmates, Leader, Neighbourhood};
use crate::sim::behaviours::swarm::{self, Target};
use crate::sim::behaviours::swarmer::Swarm;
use crate::sim::group_metrics::{Groups, heading_part, polarization, polarization_of};
use crate::sim::mode::Mode;
use crate::sim::space::CastSchedule;
use crate::sim::space::arena::{Arena, Response};
use crate::sim::space::masses::Masses;
use crate::sim::space::neighbours::{MAX_K, Neighbours};
use crate::sim::space::{Player, Scene};
use crate::sim::threads;
use crate::sim::vehicle::unit_or;
use glam::Vec2;
use rayon::prelude::*;

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
/// The swarm's room: this many members in the default arena's area (1280 × 768 px, a member to
/// 491.5 px²). Past it the swarm grows the arena with the crowd (see [`arena_scale`]), so that
/// `+` to 20,000 keeps the density of 2,000 and the window, fitting the arena to itself, zooms
/// out.
const ROOMY_CROWD: f64 = 2_000.0;
/// The default arena's area (px²).
const ROOMY_AREA: f64 = 1280.0 * 768.0;
/// The formation's room: this many members in the default arena's area (6,554 px² a member, a
/// square of 81 px, some five times a slot at the default spacing). A wedge of 150 is about
/// 650 × 500 px, half the default arena's width, with room round it to be led; past that the
/// formation grows the arena with its count, so that thousands can take their shape rather than
/// pile against the walls.
const FORMATION_CROWD: f64 = 150.0;
/// The flock's room per boid (px²; a square of 181 px a side). A flock needs room to be one:
/// the default arena holds only 30 boids at this density, so from 31 on the flock's arena grows
/// with it (up to [`GROWN_SIDE`], reached near 19,700 boids). In the default arena about a fifth
/// of 120 boids are turning off a wall at any moment, and a big flock packed to the swarm's
/// density jams; with this room the largest group's own polarization stays about 0.8 or more
/// (docs/behaviours.md has the figures).
pub const FLOCK_ROOM: f64 = 32_768.0;
/// The longest side a crowd's grown arena may have (px): twice what an arena file may have
/// ([`crate::data::arena::MAX_SIDE`], which stays the files' limit), so that 20,000 boids in the
/// default arena's proportions get 32,212 px² each (98 % of [`FLOCK_ROOM`]) where a 16,384 px
/// side left them a quarter of it and they jammed.
pub const GROWN_SIDE: f32 = 32_768.0;
/// The largest area a crowd's grown arena may have (px²): about the default arena's proportions
/// grown to [`GROWN_SIDE`] (32,768 × 19,661 px). It bounds what an arena costs whatever a file's
/// proportions: the clearance field takes a byte per 16 px² (81 MB here), the tiles one per
/// tile.
pub const GROWN_AREA: f64 = 6.5e8;
/// The topological flock looks for each boid's `k` nearest one tick in this many, in turns (boid
/// `i` on the ticks where `(tick + i) % REFRESH == 0`), and heeds the same boids — where they
/// are now — in between, as mode 7's agents cast their rays in turns: the search is most of the
/// topological tick, and who a boid's nearest are changes more slowly than where they stand.
const REFRESH: u64 = 4;
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
    /// Each member's part in the polarization, worked out as it moved in a split tick.
    parts: Vec<Vec2>,
    groups: Groups,
    /// The topological flock's kept neighbours: boid `i`'s are
    /// `heeds[i * heeds_k..][..heeds_len[i]]`.
    heeds: Vec<u32>,
    heeds_len: Vec<u8>,
    heeds_k: usize,
    /// The kept neighbours belong to the boids as they are (cleared when the crowd is
    /// respawned, resized or moved, and while the flock is metric): if not, every boid looks.
    heeds_ready: bool,
    /// The player's heading as a leader.
    pub leader_heading: Vec2,
    /// The swarm's hold radius round the player (px), this tick.
    pub hold: f32,
    /// `|Σ vᵢ/|vᵢ|| / N` after the last tick.
    pub polarization: f32,
    /// Connected groups of the neighbour graph, taken every [`GROUPS_EVERY`] ticks.
    pub groups_seen: usize,
    /// The largest of those groups' own polarization, taken with them.
    pub group_polarization: f32,
}

impl Flocking {
    /// The crowd changed as a whole: every boid looks for its neighbours afresh on the next tick.
    pub fn forget_heeds(&mut self) {
        self.heeds_ready = false;
    }

    /// Look for the `k` nearest of the boids due this tick (all of them if the kept ones are
    /// not theirs).
    fn refresh_heeds(&mut self, headings: impl Iterator<Item = Vec2>, tick: u64, p: &FlockParams) {
        let n = self.boids.len();
        let k = (p.k as usize).min(MAX_K);
        let all = !self.heeds_ready || self.heeds_len.len() != n || self.heeds_k != k;
        self.heeds_k = k;
        self.heeds.resize(n * k, 0);
        self.heeds_len.resize(n, 0);
        for (i, heading) in headings.enumerate().take(n) {
            if all || (tick + i as u64).is_multiple_of(REFRESH) {
                let nearest = flock::nearest_seen(&self.grid, &self.boids, i, heading, p);
                let kept = &mut self.heeds[i * k..][..k];
                for (slot, (j, _)) in kept.iter_mut().zip(nearest.iter()) {
                    *slot = j;
                }
                self.heeds_len[i] = nearest.len().min(k) as u8;
            }
        }
        self.heeds_ready = true;
    }

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
        let combine = self.departure();
        let g = &mut self.flocking;
        let n = self.agents.len();
        // Split among the threads (and so is every pass over the members below but the grid's
        // sort): each member's part of the tick writes only its own places.
        let split = threads::pays(n, self.mode.agent_ns());
        let chunk = threads::chunk(n);
        let flock = self.mode == Mode::Flock;
        g.positions.resize(n, Vec2::ZERO);
        if flock {
            g.boids.resize(n, Boid::default());
        }
        if split {
            let starts = g
                .positions
                .par_chunks_mut(chunk)
                .zip(self.agents.par_chunks(chunk));
            if flock {
                starts.zip(g.boids.par_chunks_mut(chunk)).for_each(
                    |((positions, agents), boids)| {
                        for ((p, b), a) in positions.iter_mut().zip(boids).zip(agents) {
                            (*p, b.pos, b.vel) = (a.body.pos, a.body.pos, a.body.vel);
                        }
                    },
                );
            } else {
                starts.for_each(|(positions, agents)| {
                    for (p, a) in positions.iter_mut().zip(agents) {
                        *p = a.body.pos;
                    }
                });
            }
        } else {
            for (i, a) in self.agents.iter().enumerate() {
                g.positions[i] = a.body.pos;
                if flock {
                    g.boids[i] = Boid {
                        pos: a.body.pos,
                        vel: a.body.vel,
                    };
                }
            }
        }
        let moving = self.player.vel.length_squared() > LEADER_MOVING * LEADER_MOVING;
        if moving || g.leader_heading == Vec2::ZERO {
            g.leader_heading = unit_or(self.player.vel, Vec2::X);
        }
        let empty = Neighbours::default();
        let ctx = Context {
            scene: Scene {
                arena: &self.arena,
                crowd: Some(&empty),
                motions: &[],
                player: Player {
                    pos: self.player.pos,
                    vel: self.player.vel,
                    tile: self.arena.tiles.tile_of(self.player.pos),
                },
                dt: self.dt,
                tick: self.tick,
                casts: CastSchedule::new(self.tuning.avoid.sense_hz, self.config.tick_hz),
                changed: std::mem::take(&mut self.recast),
            },
            tuning: &self.tuning,
            flow: None,
            pathways: &[],
            combine,
        };
        let join;
        if flock {
            let fp = &self.tuning.flock;
            join = fp.radius;
            let side = match fp.neighbourhood {
                Neighbourhood::Metric => fp.radius * METRIC_SIDE,
                Neighbourhood::Topological => {
                    Neighbours::side_for(g.boids.len(), size, TOPOLOGICAL_PER_CELL).min(fp.radius)
                }
            };
            g.grid.rebuild(size, side, g.positions.iter().copied());
            g.masses.rebuild_split(
                size,
                fp.gather_radius,
                g.boids.iter().map(|b| (b.pos, b.vel)),
                split,
            );
            let around = Around {
                predator: self.flip.then_some(self.player.pos),
                leader: self.lead.then_some(Leader {
                    pos: self.player.pos,
                    heading: g.leader_heading,
                }),
            };
            let topological = fp.neighbourhood == Neighbourhood::Topological;
            if topological {
                let headings = self.agents.iter().map(|a| a.body.heading);
                g.refresh_heeds(headings, self.tick, fp);
            } else {
                g.heeds_ready = false;
            }
            let senses = Flockmates {
                grid: &g.grid,
                masses: &g.masses,
                boids: &g.boids,
            };
            let k = g.heeds_k;
            let (heeds, heeds_len) = (&g.heeds, &g.heeds_len);
            let flock_of = |i: usize| Flock {
                mates: senses,
                i,
                heeded: topological.then(|| &heeds[i * k..][..usize::from(heeds_len[i])]),
                around,
            };
            if split {
                // Each boid draws the same count, so a share's numbers begin that many times
                // its first boid's index on in the world's stream.
                let draws = u64::from(boid::DRAWS + Dice::draws(ctx.combine));
                let origin = &self.rng;
                g.parts.resize(n, Vec2::ZERO);
                self.agents
                    .par_chunks_mut(chunk)
                    .zip(g.parts.par_chunks_mut(chunk))
                    .enumerate()
                    .for_each(|(c, (agents, parts))| {
                        let first = c * chunk;
                        let mut stream = threads::stream_at(origin, first as u64 * draws);
                        for (j, (a, part)) in agents.iter_mut().zip(parts).enumerate() {
                            a.fly_in_flock(&flock_of(first + j), &ctx, &mut stream);
                            *part = heading_part(a.body.vel);
                        }
                    });
                threads::skip(&mut self.rng, n as u64 * draws);
            } else {
                for (i, a) in self.agents.iter_mut().enumerate() {
                    a.fly_in_flock(&flock_of(i), &ctx, &mut self.rng);
                }
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
                player_radius: self.tuning.player.radius,
                dt: self.dt,
            };
            let swarm_of = |i: usize| Swarm {
                grid: &g.grid,
                positions: &g.positions,
                i,
                target,
            };
            if split {
                g.parts.resize(n, Vec2::ZERO);
                self.agents
                    .par_chunks_mut(chunk)
                    .zip(g.parts.par_chunks_mut(chunk))
                    .enumerate()
                    .for_each(|(c, (agents, parts))| {
                        for (j, (a, part)) in agents.iter_mut().zip(parts).enumerate() {
                            a.fly_in_swarm(&swarm_of(c * chunk + j), &ctx);
                            *part = heading_part(a.body.vel);
                        }
                    });
            } else {
                for (i, a) in self.agents.iter_mut().enumerate() {
                    a.fly_in_swarm(&swarm_of(i), &ctx);
                }
            }
        }
        g.polarization = if split {
            polarization_of(&g.parts)
        } else {
            polarization(self.agents.iter().map(|a| a.body.vel))
        };
        if self.tick.is_multiple_of(GROUPS_EVERY) {
            g.groups_seen = g.groups.count(&g.grid, &g.positions, join);
            let velocities = self.agents.iter().map(|a| a.body.vel);
            g.group_polarization = g.groups.figures(&g.positions, velocities).polarization;
        }
    }
}

/// How many times larger than `arena` a crowd of `count` runs in when `crowd` members are given
/// `area` px² between them: enough for that room, never smaller than the data's, no side longer
/// than [`GROWN_SIDE`] and no area larger than [`GROWN_AREA`].
pub fn arena_scale(arena: &ArenaData, count: usize, (area_for, crowd): (f64, f64)) -> f32 {
    let area = f64::from(arena.width) * f64::from(arena.height);
    let room = count as f64 * area_for / (crowd * area);
    let longest = f64::from(GROWN_SIDE / arena.width.max(arena.height));
    let most = longest.min((GROWN_AREA / area).sqrt());
    room.sqrt().min(most).max(1.0) as f32
}

/// The room `mode`'s crowd is given, as an area (px²) and how many share it: the flock's
/// [`FLOCK_ROOM`] a boid, the formation's [`FORMATION_CROWD`] and the swarm's [`ROOMY_CROWD`]
/// in the default arena.
pub fn room(mode: Mode) -> (f64, f64) {
    match mode {
        Mode::Flock => (FLOCK_ROOM, 1.0),
        Mode::Formation => (ROOMY_AREA, FORMATION_CROWD),
        _ => (ROOMY_AREA, ROOMY_CROWD),
    }
}

/// Whether `mode` grows the arena with its count: the flock and the swarm, which move together,
/// and the formation, whose shape needs room to be taken.
pub fn grows(mode: Mode) -> bool {
    mode.moves_together() || mode == Mode::Formation
}

impl World {
    /// Size the arena for `count` agents of the mode: for the modes that [`grows`], the data's
    /// scaled by [`arena_scale`] to the mode's [`room`] (unless the configuration fixes it); for
    /// every other mode the data's as it is. When the scale changes, the player and the agents already there are
    /// moved with it (each position scaled, then put clear of the obstacles), so the crowd keeps
    /// its shape in the grown or shrunk arena.
    pub(super) fn fit_arena(&mut self, count: usize) {
        let grows = grows(self.mode) && !self.config.fixed_arena;
        let scale = if grows {
            arena_scale(&self.arena_data, count, room(self.mode))
        } else {
            1.0
        };
        // (Leaving the crowd, whose scene had an arena of its own, the data's comes back.)
        let own = std::mem::take(&mut self.walking.own_arena);
        if scale == self.arena_scale && !own {
            return;
        }
        let ratio = scale / self.arena_scale;
        self.arena = Arena::from_data(&self.arena_data.scaled(scale));
        self.arena_scale = scale;
        self.recast = true;
        self.paths.changed();
        self.flocking.forget_heeds();
        let clear = |arena: &Arena, pos: Vec2, r: f32| {
            let mut pos = pos;
            let mut vel = Vec2::ZERO;
            arena.collide(pos, &mut pos, &mut vel, r, Response::Slide);
            if arena.is_clear(pos, r) {
                pos
            } else {
                arena.nearest_clear(pos, r)
            }
        };
        let p = &mut self.player;
        p.pos = clear(&self.arena, p.pos * ratio, self.tuning.player.radius);
        p.prev_pos = p.pos;
        for a in &mut self.agents {
            let r = a.radius(&self.tuning);
            a.body.pos = clear(&self.arena, a.body.pos * ratio, r);
            a.prev_pos = a.body.pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::arena::MAX_SIDE;

    #[test]
    fn a_grown_arena_keeps_within_the_longest_side_and_the_largest_area() {
        let data = crate::data::built_in().arena;
        let per_boid =
            |d: &ArenaData, s: f32, n: f64| f64::from(d.width * s) * f64::from(d.height * s) / n;
        // 10,000 boids in the default arena: their whole room.
        let s = arena_scale(&data, 10_000, room(Mode::Flock));
        assert!((per_boid(&data, s, 1e4) / FLOCK_ROOM - 1.0).abs() < 1e-3);
        // 20,000: the longest side, 32,768 × 19,661 px, 98 % of it.
        let s = arena_scale(&data, 20_000, room(Mode::Flock));
        assert_eq!(data.width * s, GROWN_SIDE);
        let share = per_boid(&data, s, 2e4) / FLOCK_ROOM;
        assert!((0.98..1.0).contains(&share), "{share}");
        // A square file as large as a file may be: the area binds first (to within the scale's
        // rounding to f32).
        let square = ArenaData {
            width: MAX_SIDE,
            height: MAX_SIDE,
            ..data.clone()
        };
        let s = arena_scale(&square, 20_000, room(Mode::Flock));
        let area = f64::from(MAX_SIDE * s).powi(2);
        assert!((0.999..=1.000_001).contains(&(area / GROWN_AREA)), "{area}");
        // The swarm at 20,000 is far from either bound: √10.
        let s = arena_scale(&data, 20_000, room(Mode::Swarm));
        assert!((s - 10f32.sqrt()).abs() < 1e-4, "{s}");
    }
}
