//! A member of the swarm (Shift+2): the Lennard-Jones forces of its neighbours and the pull to
//! the player (`swarm.rs`), and a push off obstacles and walls nearer than one equilibrium
//! spacing, added as one more force — or, with the book's potential off obstacles on, that
//! potential's force from the nearest obstacle and the walls.

use super::decision::{Decision, Me, combine};
use super::swarm::{
    self, Contacts, Potential, SwarmForces, SwarmParams, Target, fade, lennard_jones,
};
use crate::sim::space::Senses;
use crate::sim::space::clear::containment;
use crate::sim::space::neighbours::Neighbours;
use glam::Vec2;

/// A swarm member's memory: this tick's pushes and pulls, for the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SwarmMind {
    pub forces: SwarmForces,
    /// The push off obstacles and walls (a desired velocity, px/s).
    pub obstacle: Vec2,
    /// The way round the obstacle between it and the player it is going (+1 along the surface
    /// normal's `perp`, −1 the other way; 0 while none is in the way): kept while it goes round,
    /// so a corner, where the normal turns, does not turn it back.
    pub round: f32,
}

/// What a member senses of its swarm: member `i` of `positions` (where everyone stood as the
/// tick began), which `grid` indexes, and the player it gathers round.
#[derive(Debug, Clone, Copy)]
pub struct Swarm<'a> {
    pub grid: &'a Neighbours,
    pub positions: &'a [Vec2],
    pub i: usize,
    pub target: Target,
}

/// This tick's steering for a swarm member, and the neighbours its move must keep apart from
/// (see [`Contacts`]).
#[inline(always)]
pub fn steer(
    me: Me,
    mind: &mut SwarmMind,
    sp: &SwarmParams,
    swarm: &Swarm,
    senses: &Senses,
    contacts: &mut Contacts,
) -> Decision {
    let (body, p, target) = (me.body, me.vehicle, swarm.target);
    let (f, near) = swarm::steer(
        swarm.grid,
        swarm.positions,
        swarm.i,
        body.vel,
        target,
        sp,
        p,
    );
    *contacts = near;
    let length = (2.0 * p.radius).max(1.0);
    let spacing = swarm::equilibrium(sp).unwrap_or(1.0) * length;
    let book = sp.felt().obstacle_potential();
    let obstacle = if book.on() {
        let surfaces = Surfaces {
            reach: spacing,
            linear: p.max_speed * sp.obstacle,
            book,
            length,
            range: sp.range,
        };
        surfaces.push(senses, body.pos, p.radius, target.player, &mut mind.round)
    } else {
        let obstacle = away_from_surfaces(
            senses,
            body.pos,
            p.radius,
            spacing,
            target.player,
            &mut mind.round,
        );
        let obstacle = obstacle * p.max_speed;
        obstacle * sp.obstacle
    };
    let force = combine([f.total, obstacle * (p.mass / sp.response_s.max(1e-3))]);
    mind.forces = f;
    mind.obstacle = obstacle;
    let state = if f.pull == Vec2::ZERO {
        "hold"
    } else {
        "gather"
    };
    Decision::steer(force, target.player, state)
}

/// Away from the nearest obstacle surface and the walls, growing from nothing at `reach` beyond
/// the body's edge to 1 at its edge (a share of full speed, summed over the two). When the
/// player is behind the obstacle, also along its surface, away from the foot of the line to the
/// player (toward the nearer way round): a pull straight through an obstacle and a push straight
/// off it would otherwise balance, and the member would wait behind it for ever (a potential
/// field's local minimum). Sliding toward that foot instead would settle it there.
fn away_from_surfaces(
    senses: &Senses,
    pos: Vec2,
    radius: f32,
    reach: f32,
    player: Vec2,
    round: &mut f32,
) -> Vec2 {
    let reach = reach.max(1.0);
    let mut away = Vec2::ZERO;
    let mut blocked = false;
    if let Some(s) = senses.nearest_surface(pos, radius + reach) {
        let gap = (s.distance - radius).max(0.0);
        let near = (1.0 - gap / reach).max(0.0);
        away += s.normal * near;
        if let Some(along) = way_round(s.normal, player - pos, round) {
            blocked = true;
            away += along * near;
        }
    }
    if !blocked {
        *round = 0.0;
    }
    // (`containment` is 2 at the wall and 0 at its margin.)
    away + containment(senses.arena, pos, radius + reach) * 0.5
}

/// When the player is behind the surface whose outward normal is `normal`, the unit direction
/// along it to go round: the side chosen once (`round`, ±1, kept until the way is clear) toward
/// the player; `None` when the player is on this side.
fn way_round(normal: Vec2, to_player: Vec2, round: &mut f32) -> Option<Vec2> {
    if normal.dot(to_player) >= 0.0 {
        return None;
    }
    let along = normal.perp();
    if *round == 0.0 {
        *round = if along.dot(to_player) <= 0.0 {
            1.0
        } else {
            -1.0
        };
    }
    Some(along * *round)
}

/// The push off obstacles and walls with the book's potential on: the arena's push of
/// [`away_from_surfaces`] (`linear` px/s at the body's edge, nothing `reach` beyond it) plus the
/// potential's `F(r)`, `r` the gap in body lengths plus one (1 where the body touches the
/// surface, as two units touch at 1), faded out to `range` lengths as a neighbour is.
struct Surfaces {
    reach: f32,
    linear: f32,
    book: Potential,
    length: f32,
    range: f32,
}

impl Surfaces {
    /// The potential's force at `gap` px from a surface (positive away from it).
    fn felt(&self, gap: f32) -> f32 {
        let r = gap.max(0.0) / self.length + 1.0;
        lennard_jones(r, &self.book) * fade(r, self.range)
    }

    /// The desired velocity (px/s) off the nearest obstacle within reach and the walls; along
    /// the obstacle's surface, as [`away_from_surfaces`] goes, when the player is behind it.
    fn push(&self, senses: &Senses, pos: Vec2, radius: f32, player: Vec2, round: &mut f32) -> Vec2 {
        let reach = self.reach.max(1.0);
        // (The gap at which `r` reaches the range.)
        let far = (self.range - 1.0).max(0.0) * self.length;
        let mut away = Vec2::ZERO;
        let mut blocked = false;
        if let Some(s) = senses.nearest_surface(pos, radius + reach.max(far)) {
            let gap = (s.distance - radius).max(0.0);
            let push = self.linear * (1.0 - gap / reach).max(0.0) + self.felt(gap);
            away += s.normal * push;
            if let Some(along) = way_round(s.normal, player - pos, round) {
                blocked = true;
                away += along * push.abs();
            }
        }
        if !blocked {
            *round = 0.0;
        }
        let arena = senses.arena;
        away += containment(arena, pos, radius + reach) * (0.5 * self.linear);
        let walls = [
            (pos.x, Vec2::X),
            (arena.width - pos.x, -Vec2::X),
            (pos.y, Vec2::Y),
            (arena.height - pos.y, -Vec2::Y),
        ];
        for (from_wall, inward) in walls {
            let gap = from_wall - radius;
            if gap < far {
                away += inward * self.felt(gap);
            }
        }
        away
    }
}
