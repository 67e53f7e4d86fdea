//! One member's tick in a crowd that moves together — a boid of the flock or a member of the
//! swarm. The world gathers what every member senses (the neighbour grid, the mass field, where
//! everyone stood as the tick began) once, then each member steers by it here and its body moves.
//! The maths is in `behaviours/flock.rs` and `behaviours/swarm.rs`; this is what joins it to the
//! body, the walls and the obstacles.

use super::behaviour::Behaviour;
use super::member::Agent;
use super::tick::{Context, Plan};
use crate::sim::behaviours::decision::combine;
use crate::sim::behaviours::flock::{self, Around, Flockmates};
use crate::sim::behaviours::swarm::{self, Target};
use crate::sim::space::clear::{containment, no_about_face};
use crate::sim::space::neighbours::Neighbours;
use crate::sim::vehicle::{truncate, unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

impl Agent {
    /// A boid's tick: the flock's urges (boid `i` of `senses`, heeding `heeded` when the world
    /// keeps its neighbours, else those the grid finds now), a little wander so the flock
    /// roams, and the feelers of mode 7 — which take over the course while they feel a wall or
    /// an obstacle, the boid keeping only its separation from the rest. Draws its wander from
    /// `rng` (in agent order, so runs repeat).
    pub fn fly_in_flock(
        &mut self,
        senses: Flockmates,
        i: usize,
        heeded: Option<&[u32]>,
        around: Around,
        ctx: &Context,
        rng: &mut impl Rng,
    ) {
        self.begin_tick();
        let p = *self.behaviour.params(ctx.tuning);
        let fp = &ctx.tuning.flock;
        let (id, body) = (self.id, self.body);
        let Behaviour::Boid(mind) = &mut self.behaviour else {
            return;
        };
        let f = match heeded {
            Some(heeded) => flock::steer_heeding(senses, i, heeded, around, fp, &p),
            None => flock::steer(senses, i, body.heading, around, fp, &p),
        };
        let target = mind
            .walk
            .jittered_target(&body, &ctx.tuning.wander, ctx.dt, rng);
        let wander = truncate(
            unit_or_zero(target - body.pos) * p.max_speed - body.vel,
            p.max_force,
        ) * fp.wander;
        let urge = combine([f.total, wander]);
        // The course the urges ask for (`desired = v + steering`), bent round what the feelers
        // feel and held off the walls.
        let t = &ctx.tuning.avoid;
        let wish = unit_or(body.vel + urge, body.heading);
        let push = containment(ctx.arena, body.pos, t.look_ahead + t.min_length);
        let wish = if push == Vec2::ZERO {
            wish
        } else {
            unit_or(wish + push, wish)
        };
        let wish = no_about_face(wish, body.heading);
        let clear = ctx
            .senses(id)
            .whiskers(wish, &body, &p, t, &mut mind.walk.avoid);
        let steered = clear.avoiding || push != Vec2::ZERO;
        let force = if steered {
            let error = clear.dir * p.max_speed * clear.speed - body.vel;
            let course = if clear.urgent {
                within_a_tick(error, p.mass, ctx.dt)
            } else {
                error
            };
            // (The feelers have taken over the course; the boid still keeps its distance.)
            combine([course, f.separation])
        } else {
            urge
        };
        mind.forces = f;
        mind.wander = wander;
        mind.avoiding = clear.avoiding;
        self.state = if f.flee != Vec2::ZERO {
            "flee"
        } else if clear.avoiding {
            "avoid"
        } else if around.leader.is_some() {
            "follow"
        } else if f.heeded == 0 {
            "alone"
        } else {
            "flock"
        };
        self.aim = around
            .predator
            .or(around.leader.map(|l| l.pos))
            .unwrap_or(target);
        self.act(Plan::Steer(force), &p, ctx);
    }

    /// A swarm member's tick: the Lennard-Jones forces of its neighbours (member `i` of
    /// `positions`, which `grid` indexes), the pull to the player beyond the hold, and a push off
    /// obstacles and walls nearer than one equilibrium spacing.
    pub fn fly_in_swarm(
        &mut self,
        grid: &Neighbours,
        positions: &[Vec2],
        i: usize,
        target: Target,
        ctx: &Context,
    ) {
        self.begin_tick();
        let p = *self.behaviour.params(ctx.tuning);
        let sp = &ctx.tuning.swarm;
        let body = self.body;
        let Behaviour::Swarmer(mind) = &mut self.behaviour else {
            return;
        };
        let f = swarm::steer(grid, positions, i, body.vel, target, sp, &p);
        let length = (2.0 * p.radius).max(1.0);
        let spacing = swarm::equilibrium(sp).unwrap_or(1.0) * length;
        let obstacle = away_from_surfaces(
            ctx,
            body.pos,
            p.radius,
            spacing,
            target.player,
            &mut mind.round,
        );
        let obstacle = obstacle * p.max_speed;
        let obstacle = obstacle * sp.obstacle;
        let force = combine([f.total, obstacle * (p.mass / sp.response_s.max(1e-3))]);
        mind.forces = f;
        mind.obstacle = obstacle;
        self.state = if f.pull == Vec2::ZERO {
            "hold"
        } else {
            "gather"
        };
        self.aim = target.player;
        self.act(Plan::Steer(force), &p, ctx);
    }
}

/// Away from the nearest obstacle surface and the walls, growing from nothing at `reach` beyond
/// the body's edge to 1 at its edge (a share of full speed, summed over the two). When the
/// player is behind the obstacle, also along its surface, away from the foot of the line to the
/// player (toward the nearer way round): a pull straight through an obstacle and a push straight
/// off it would otherwise balance, and the member would wait behind it for ever (a potential
/// field's local minimum). Sliding toward that foot instead would settle it there.
fn away_from_surfaces(
    ctx: &Context,
    pos: Vec2,
    radius: f32,
    reach: f32,
    player: Vec2,
    round: &mut f32,
) -> Vec2 {
    let reach = reach.max(1.0);
    let mut away = Vec2::ZERO;
    let mut blocked = false;
    if let Some(s) = ctx.arena.nearest_surface(pos, radius + reach) {
        let gap = (s.distance - radius).max(0.0);
        let near = (1.0 - gap / reach).max(0.0);
        away += s.normal * near;
        let to_player = player - pos;
        if s.normal.dot(to_player) < 0.0 {
            blocked = true;
            let along = s.normal.perp();
            if *round == 0.0 {
                *round = if along.dot(to_player) <= 0.0 {
                    1.0
                } else {
                    -1.0
                };
            }
            away += along * (*round * near);
        }
    }
    if !blocked {
        *round = 0.0;
    }
    // (`containment` is 2 at the wall and 0 at its margin.)
    away + containment(ctx.arena, pos, radius + reach) * 0.5
}
