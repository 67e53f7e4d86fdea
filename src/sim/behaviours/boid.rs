//! A boid of the flock (Shift+1): the flock's urges (`flock.rs`), a little of Reynolds' wander so
//! the flock roams, and mode 7's feelers — which take over the course while they feel a wall or
//! an obstacle, the boid keeping only its separation from the rest (Reynolds' arbitration: the
//! obstacles first, then the flock).

use super::combine::{self as forces, Dice, Method, Part, Priority, Tally, chance};
use super::decision::{Decision, Me, combine};
use super::flock::{self, Around, Flockmates, Forces};
use super::wander::WanderWalk;
use crate::data::crowds::FlockParams;
use crate::data::tuning::{AvoidTuning, VehicleTuning, WanderTuning};
use crate::sim::space::Senses;
use crate::sim::space::clear::{containment, no_about_face};
use crate::sim::vehicle::{Vehicle, truncate, unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::Vec2;

/// The walls' corners as a boid turns off them are rounded to this radius (px; at most half the
/// arena's shorter side), so the way off one wall turns smoothly into the way off the next.
const CORNER: f32 = 200.0;
/// How much more the course bends inward than along the wall as the boid reaches it.
const INWARD: f32 = 2.0;
/// Nearer a wall than this (px) the feelers take the course over, as they do for mode 7's
/// wanderers; the turn keeps the boids farther off.
const HARD_MARGIN: f32 = 30.0;

/// A boid's memory: its wander target and its feelers' state (in a [`WanderWalk`], as mode 7's
/// agents keep theirs), and this tick's urges for the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoidMind {
    pub walk: WanderWalk,
    pub forces: Forces,
    /// The wander urge (weighted), apart from the flock's.
    pub wander: Vec2,
    /// Whether its feelers bent its course this tick.
    pub avoiding: bool,
    /// How its forces combined this tick (for the overlay).
    pub tally: Tally,
}

/// A boid's forces in the order it lists them (the overlay's names): the walls' turn, the
/// feelers' course (while they have taken it over), then the flock's urges and the wander.
pub const FORCES: [&str; 9] = [
    "walls",
    "obstacles",
    "separation",
    "flee",
    "follow",
    "alignment",
    "cohesion",
    "gather",
    "wander",
];

/// A boid's numbers: the flock's, the wander's and the feelers'.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    pub flock: &'a FlockParams,
    pub wander: &'a WanderTuning,
    pub avoid: &'a AvoidTuning,
    /// How the forces combine when not the flock's own way (see [`steer`]).
    pub combine: Option<Method>,
}

/// What a boid senses of its flock: boid `i` of `mates`, heeding `heeded` when the world keeps
/// its neighbours (else those the grid finds now), with the player `around` as predator or
/// leader.
#[derive(Debug, Clone, Copy)]
pub struct Flock<'a> {
    pub mates: Flockmates<'a>,
    pub i: usize,
    pub heeded: Option<&'a [u32]>,
    pub around: Around,
}

/// How many numbers [`steer`] draws a tick: one, its wander's jitter.
pub const DRAWS: u8 = 1;

/// This tick's steering for a boid. Draws its wander from `rng` ([`DRAWS`] numbers).
#[inline(always)]
pub fn steer(
    me: Me,
    mind: &mut BoidMind,
    t: &Params,
    flock: &Flock,
    senses: &Senses,
    rng: &mut impl Rng,
) -> Decision {
    let (body, p, fp, around) = (me.body, me.vehicle, t.flock, flock.around);
    let f = match flock.heeded {
        Some(heeded) => flock::steer_heeding(flock.mates, flock.i, heeded, around, fp, p),
        None => flock::steer(flock.mates, flock.i, body.heading, around, fp, p),
    };
    let target = mind.walk.jittered_target(body, t.wander, senses.dt, rng);
    let wander = truncate(
        unit_or_zero(target - body.pos) * p.max_speed - body.vel,
        p.max_force,
    ) * fp.wander;
    let size = Vec2::new(senses.arena.width, senses.arena.height);
    let wall = wall_turn(size, body, fp, p);
    let urge = combine([f.total, wander, wall]);
    // The course the urges ask for (`desired = v + steering`), bent round what the feelers
    // feel and, right at the walls, held off them.
    let a = t.avoid;
    let wish = unit_or(body.vel + urge, body.heading);
    // (Without the turn, the feelers hold it off the walls from their whole reach.)
    let hold = if fp.wall > 0.0 {
        HARD_MARGIN
    } else {
        a.look_ahead + a.min_length
    };
    let push = containment(senses.arena, body.pos, hold);
    let wish = if push == Vec2::ZERO {
        wish
    } else {
        unit_or(wish + push, wish)
    };
    let wish = no_about_face(wish, body.heading);
    let clear = senses.whiskers(wish, body, body.speed(), p, a, &mut mind.walk.avoid);
    let steered = clear.avoiding || push != Vec2::ZERO;
    let course = if steered {
        let error = clear.dir * p.max_speed * clear.speed - body.vel;
        if clear.urgent {
            within_a_tick(error, p.mass, senses.dt)
        } else {
            error
        }
    } else {
        Vec2::ZERO
    };
    let listed = [
        wall,
        course,
        f.separation,
        f.flee,
        f.follow,
        f.alignment,
        f.cohesion,
        f.gather,
        wander,
    ];
    let force = match t.combine {
        // The flock's own way, weighted: the urges summed (the vehicle truncates the sum);
        // while the feelers have taken the course over, it and the separation alone.
        None if steered => {
            mind.tally = Tally::of(&FORCES, &listed, 0b110);
            combine([course, f.separation])
        }
        None => {
            mind.tally = Tally::of(&FORCES, &listed, 0b1_1111_1101);
            urge
        }
        Some(method) => {
            let (w, o, s, r) = (
                Priority::Walls,
                Priority::Obstacles,
                Priority::Others,
                Priority::Rest,
            );
            let chances = [
                chance::WALLS,
                chance::OBSTACLES,
                chance::SEPARATION,
                chance::FLEE,
                chance::GOAL,
                chance::ALIGNMENT,
                chance::COHESION,
                chance::COHESION,
                chance::WANDER,
            ];
            let levels = [w, o, s, r, r, r, r, r, r];
            let parts: [Part; 9] =
                std::array::from_fn(|i| Part::new(listed[i], levels[i], 1.0, chances[i]));
            let mut dice = (method == Method::Dithered).then(|| Dice::roll(rng));
            let max = p.max_force;
            forces::combine(method, &FORCES, &parts, max, dice.as_mut(), &mut mind.tally)
        }
    };
    mind.forces = f;
    mind.wander = wander;
    mind.avoiding = clear.avoiding;
    let state = if f.flee != Vec2::ZERO {
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
    let aim = around
        .predator
        .or(around.leader.map(|l| l.pos))
        .unwrap_or(target);
    Decision::steer(force, aim, state)
}

/// The turn off the walls of an arena of `size` (weighted). Where the boid is, or where it will
/// be `wall_look` px ahead, nearer the walls (their corners rounded to [`CORNER`]) than
/// `wall_margin` `M`, at `d`, it steers for the course along the wall its heading leans to,
/// bent inward the nearer it is: `desired = unit(t + 2·a·n)` with `t` that tangent, `n` the
/// inward normal, `a = (M − d)/M`, the force `truncate(desired·max_speed − v, max_force) ·
/// min(a, 1)` — and only while that course is more inward than its own. A flock heading for
/// a wall starts turning well before it, gently, and its front and back turn nearly alike: it
/// goes round as one, where turning only at the wall turns the front about while the back
/// still heads in.
pub fn wall_turn(size: Vec2, body: &Vehicle, fp: &FlockParams, v: &VehicleTuning) -> Vec2 {
    let margin = fp.wall_margin;
    if !(margin > 0.0 && fp.wall > 0.0) {
        return Vec2::ZERO;
    }
    let dir = unit_or(body.vel, body.heading);
    let (here, normal_here) = inside(size, body.pos);
    let (ahead, normal_ahead) = inside(size, body.pos + dir * fp.wall_look.max(0.0));
    let (d, n) = if ahead < here {
        (ahead, normal_ahead)
    } else {
        (here, normal_here)
    };
    if d.is_nan() || d >= margin {
        return Vec2::ZERO;
    }
    let a = (margin - d) / margin;
    let along = n.perp();
    let tangent = if dir.dot(along) >= 0.0 { along } else { -along };
    let desired = unit_or(tangent + n * (a * INWARD), n);
    if desired.dot(n) <= dir.dot(n) {
        return Vec2::ZERO;
    }
    truncate(desired * v.max_speed - body.vel, v.max_force) * (fp.wall * a.min(1.0))
}

/// How far inside the arena of `size` the point `q` is — from the walls with their corners
/// rounded to [`CORNER`] (negative outside) — and the inward normal of the nearest wall.
fn inside(size: Vec2, q: Vec2) -> (f32, Vec2) {
    let half = size * 0.5;
    let r = CORNER.min(half.min_element()).max(0.0);
    let rel = q - half;
    // (The signed distance of a rounded box: `q` folded into one quadrant, measured from the
    // box shrunk by the corner's radius.)
    let past = rel.abs() - (half - Vec2::splat(r));
    let out = past.max(Vec2::ZERO);
    let outward = if past.x > 0.0 && past.y > 0.0 {
        out / out.length()
    } else if past.x > past.y {
        Vec2::X
    } else {
        Vec2::Y
    };
    let sdf = out.length() + past.x.max(past.y).min(0.0) - r;
    let sign = Vec2::new(rel.x.signum(), rel.y.signum());
    (-sdf, -(outward * sign))
}
