//! What one agent can sense this tick, built per agent by the world: feel these rays, sweep this
//! body, is this clear, who is near, and `clear(wish)` — a course kept off the walls and round
//! what the feelers feel (see [`super::clear`]). Behaviours ask it and never the arena's indexes,
//! so the sensing regulator (Buckland's: cast the feelers at the obstacles a few times a second,
//! hold what the last cast found in between, cast afresh when the arena changed) lives here and
//! in [`Held`] alone.

use super::arena::Arena;
use super::casts::CastSchedule;
use super::feelers::{self, Feel, Ray};
use super::neighbours::{Nearest, Neighbours};
use super::shape::{RayHit, Surface};
use glam::{IVec2, Vec2};

/// The player, as every agent sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Player {
    pub pos: Vec2,
    pub vel: Vec2,
    /// The tile it stands on (what the tile agents chase).
    pub tile: IVec2,
}

/// An agent's side of the regulator: what its last cast at the obstacles found, held (and
/// brought nearer as the agent moves) until the next, and when it casts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Held {
    /// The deepest obstacle hit of the last cast.
    pub felt: Option<Feel>,
    /// Whether it has cast since it (re)spawned or last forgot.
    cast: bool,
    /// Whether it casts this tick (settled by [`Senses::take_turn`]).
    now: bool,
}

impl Held {
    /// Leave what was felt behind: the next tick casts afresh (an agent out of a pocket).
    pub fn forget(&mut self) {
        self.felt = None;
        self.cast = false;
    }
}

/// One agent's senses for one tick: the tick's [`Scene`] (reached through `Deref`: `senses.player`,
/// `senses.arena`) as agent `id` senses it. Two words, so building one per agent costs nothing.
#[derive(Debug, Clone, Copy)]
pub struct Senses<'a> {
    scene: &'a Scene<'a>,
    /// The agent sensing (agents take turns to cast by it).
    id: u32,
}

impl<'a> std::ops::Deref for Senses<'a> {
    type Target = Scene<'a>;

    #[inline(always)]
    fn deref(&self) -> &Scene<'a> {
        self.scene
    }
}

/// Where a body stands and how it moves.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Motion {
    pub pos: Vec2,
    pub vel: Vec2,
}

/// What the world tells every agent's senses in a tick, built once a tick.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    pub arena: &'a Arena,
    /// The crowd kept apart (mode 7's chasers, a `pathfind` crowd), as the tick began.
    pub crowd: Option<&'a Neighbours>,
    /// Where each of that crowd stands and how it moves, by id, as the tick began, where its
    /// members heed how the others move (a formation's); empty otherwise.
    pub motions: &'a [Motion],
    pub player: Player,
    pub dt: f32,
    /// The tick being run (agents take turns to cast their rays by it).
    pub tick: u64,
    /// When agents cast their rays (from `avoid.sense_hz`).
    pub casts: CastSchedule,
    /// The arena changed since the last tick: every agent casts now, and a way out found before
    /// may be blocked.
    pub changed: bool,
}

impl<'a> Scene<'a> {
    /// Agent `id`'s senses.
    #[inline(always)]
    pub fn senses(&self, id: u32) -> Senses<'_> {
        Senses { scene: self, id }
    }
}

impl<'a> Scene<'a> {
    /// The scene of a lone agent in an arena that does not change, with the player standing
    /// still at the origin and the feelers cast every tick (for tools and tests:
    /// `Scene::alone(arena, dt).senses(0)`).
    pub fn alone(arena: &'a Arena, dt: f32) -> Scene<'a> {
        Scene {
            arena,
            crowd: None,
            motions: &[],
            player: Player {
                pos: Vec2::ZERO,
                vel: Vec2::ZERO,
                tile: IVec2::ZERO,
            },
            dt,
            tick: 0,
            casts: CastSchedule::new(1.0, 1.0),
            changed: false,
        }
    }
}

impl<'a> Senses<'a> {
    /// Whether the arena changed since the last tick.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// The regulator: whether this agent casts its feelers at the obstacles this tick — on its
    /// turn, when the arena has changed, and on its first tick since it (re)spawned. Settled once
    /// a tick, before the feelers are felt; an agent that senses by other means that tick still
    /// takes its turn, so its next cast comes on its turn.
    #[inline(always)]
    pub fn take_turn(&self, held: &mut Held) {
        held.now = self.changed || !held.cast || self.casts.due(self.tick, self.id);
        held.cast = true;
    }

    /// Whether this agent casts this tick (as [`Senses::take_turn`] settled it).
    #[inline(always)]
    pub fn casting(&self, held: &Held) -> bool {
        held.now
    }

    /// Feel these rays (a body of radius `r` swept along each): the walls every tick, the
    /// obstacles by a cast on the agent's turn and otherwise as `held` found them, brought
    /// `moved` px nearer; the deeper of the two.
    #[inline(always)]
    pub fn feel(&self, held: &mut Held, rays: &[Ray; 3], r: f32, moved: f32) -> Option<Feel> {
        if held.now {
            held.felt = feelers::feel_obstacles(self.arena, rays, r);
        } else if let Some(f) = &mut held.felt {
            f.closer(moved);
        }
        feelers::deeper(feelers::feel_walls(self.arena, rays, r), held.felt)
    }

    /// Sweep a body of radius `r` from `pos` along unit `dir` for `length`: the first thing it
    /// meets.
    #[inline(always)]
    pub fn sweep(&self, pos: Vec2, dir: Vec2, length: f32, r: f32) -> Option<RayHit> {
        self.arena.sweep(pos, dir, length, r)
    }

    /// Whether a ray from `pos` along unit `dir` meets a wall or an obstacle within `length`.
    #[inline(always)]
    pub fn blocked(&self, pos: Vec2, dir: Vec2, length: f32) -> bool {
        self.arena.ray_cast_solid(pos, dir, length).is_some()
    }

    /// Whether a body of radius `r` at `pos` is clear of the walls and the obstacles.
    #[inline(always)]
    pub fn is_clear(&self, pos: Vec2, r: f32) -> bool {
        self.arena.is_clear(pos, r)
    }

    /// The nearest obstacle surface within `reach` of `pos`, if any.
    #[inline(always)]
    pub fn nearest_surface(&self, pos: Vec2, reach: f32) -> Option<Surface> {
        self.arena.nearest_surface(pos, reach)
    }

    /// The `k` others of the crowd kept apart nearest `pos` within `reach`, nearest first: each
    /// one's id, where it stands and how it moves as the tick began (none where the world gives
    /// no motions).
    pub fn nearest_moving(
        &self,
        pos: Vec2,
        k: usize,
        reach: f32,
    ) -> impl Iterator<Item = (u32, Motion)> {
        let near = match self.crowd {
            Some(c) if !self.motions.is_empty() => c.nearest(pos, k, reach, |j, _| j != self.id),
            _ => Nearest::default(),
        };
        let motions = self.motions;
        near.indices()
            .filter_map(move |j| Some((j, *motions.get(j as usize)?)))
    }

    /// Who is near: Reynolds' separation push away from the rest of the crowd kept apart (see
    /// [`Neighbours::apart`]); nothing when there is none.
    #[inline(always)]
    pub fn apart(&self, pos: Vec2) -> Vec2 {
        self.crowd.map_or(Vec2::ZERO, |c| c.apart(self.id, pos))
    }

    /// The id of the agent sensing and the tick (for a behaviour that takes turns itself).
    pub fn turn(&self) -> (u32, u64) {
        (self.id, self.tick)
    }
}
