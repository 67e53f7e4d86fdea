//! Getting unstuck: a body that stays in a pocket — here a U of three rectangles, open to the
//! east — for two seconds brakes straight to a stop, takes the one open way out and leaves the
//! pocket along it without touching a surface, in a second leg when a wall across the mouth ends
//! the first; and sixty evaders hunted among 300 random obstacles keep moving and (almost) never
//! touch one (with the way out turned off, the pockets hold a good part of them).

mod common;

use glam::Vec2;
use steering_arena::data::arena::{ArenaData, ObstacleData, with_random_obstacles};
use steering_arena::data::tuning::VehicleTuning;
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::agent::Agent;
use steering_arena::sim::behaviours::unstick::Unstick;
use steering_arena::sim::metrics::{Metrics, Summary};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::Scene;
use steering_arena::sim::space::arena::{Arena, Response};
use steering_arena::sim::vehicle::Vehicle;
use steering_arena::sim::world::{Input, World, WorldConfig};

const DT: f32 = 1.0 / 60.0;

fn rect(x: f32, y: f32, w: f32, h: f32) -> ObstacleData {
    ObstacleData::Rect { x, y, w, h }
}

/// An 800x600 arena holding a U: a west wall at x 300-310 and north and south walls at y 250-260
/// and 340-350, both from x 300 to 480, so the pocket inside is open to the east.
/// `more` obstacles besides.
fn pocket(more: &[ObstacleData]) -> Arena {
    let mut obstacles = vec![
        rect(300.0, 250.0, 10.0, 100.0),
        rect(300.0, 250.0, 180.0, 10.0),
        rect(300.0, 340.0, 180.0, 10.0),
    ];
    obstacles.extend_from_slice(more);
    Arena::from_data(&ArenaData {
        obstacles,
        player_start: [40.0, 40.0],
        ..common::arena::empty(800.0, 600.0)
    })
}

/// A wanderer's body in the middle of the pocket, moving north at 40 px/s as if it had just
/// turned there, held on the spot until it counts as stuck: the tick that happened on.
fn held_until_stuck(arena: &Arena, unstick: &mut Unstick, p: &VehicleTuning) -> (Vehicle, i32) {
    let body = Vehicle {
        pos: Vec2::new(340.0, 300.0),
        vel: Vec2::new(0.0, -40.0),
        heading: Vec2::NEG_Y,
    };
    for tick in 1..=130 {
        if unstick
            .update(
                &Scene::alone(arena, DT).senses(0),
                &body,
                p,
                AFTER,
                WISH,
                LOOK,
            )
            .is_some()
        {
            return (body, tick);
        }
    }
    panic!("a body kept on one spot counts as stuck");
}

/// Its behaviour's course points into the west wall, as a trapped agent's would.
const WISH: Vec2 = Vec2::NEG_X;
/// Seconds on one spot that count as stuck (the built-in `avoid.unstick_after_s`).
const AFTER: f32 = 2.0;
/// How far it looks all round: mode 7's probe, twice its feelers' reach.
const LOOK: f32 = 228.0;

#[test]
fn a_body_kept_in_a_pocket_for_two_seconds_brakes_then_leaves_by_the_open_side_untouched() {
    let arena = pocket(&[]);
    let p = built_in().tuning.wanderer;
    let mut unstick = Unstick::default();
    let (mut body, first) = held_until_stuck(&arena, &mut unstick, &p);
    // (The first tick notes where it is; the seconds count from there, a tick later when the
    // sum of the ticks rounds below two seconds.)
    let due = (AFTER / DT).round() as i32 + 1;
    assert!(
        (due..=due + 1).contains(&first),
        "stuck after {first} ticks, {due} due"
    );
    let e = unstick.escape.expect("a way out is being followed");
    // Braking straight against 40 px/s at 200 px/s² stops the body 4 px on; from there, the only
    // way out that runs the whole look is east, between the north and south walls.
    assert!(e.braking);
    assert!(
        (e.from - Vec2::new(340.0, 296.0)).length() < 1e-3,
        "{:?}",
        e.from
    );
    assert_eq!(e.dir, Vec2::X);
    assert!((e.run - LOOK).abs() < 1e-3, "run {}", e.run);

    let run = follow(&arena, &mut unstick, &mut body, &p);
    // The body stopped on its braking line (straight north) before it turned east...
    let braked = run.stops[0];
    assert!(
        (braked.x - 340.0).abs() < 1e-3 && (braked.y - 296.0).abs() < 0.5,
        "stopped at {braked:?}"
    );
    // ...and left the pocket along its middle in one leg, never touching a wall of it.
    assert_eq!(run.legs, vec![Vec2::X]);
    let left = run
        .left
        .unwrap_or_else(|| panic!("still in the pocket at {:?}", body.pos));
    assert!((1.0..2.0).contains(&left), "left after {left} s");
    assert!(
        (body.pos.y - braked.y).abs() < 0.5,
        "ran east along y = {}",
        body.pos.y
    );
    assert!(
        run.min_clearance > 5.0,
        "came within {} px",
        run.min_clearance
    );
    println!(
        "stuck after {first} ticks, stopped at {braked:?}, out after {left:.2} s, least \
         clearance {:.2} px",
        run.min_clearance
    );
}

#[test]
fn a_way_out_that_meets_something_goes_on_in_another_leg() {
    // A wall across the pocket's mouth, 40 px beyond it: the run east meets it after 170 px (its
    // face at x = 520, less the radius swept), so the body turns north or south where the arms
    // end and leaves that way.
    let arena = pocket(&[rect(520.0, 200.0, 10.0, 200.0)]);
    let p = built_in().tuning.wanderer;
    let mut unstick = Unstick::default();
    let (mut body, _) = held_until_stuck(&arena, &mut unstick, &p);
    let e = unstick.escape.expect("a way out is being followed");
    assert_eq!(e.dir, Vec2::X);
    assert!((e.run - 170.0).abs() < 1e-3, "run {}", e.run);
    let run = follow(&arena, &mut unstick, &mut body, &p);
    assert_eq!(run.legs.len(), 2, "{:?}", run.legs);
    let second = run.legs[1];
    assert!(
        second.x.abs() < 1e-6 && second.y.abs() > 0.999,
        "{second:?}"
    );
    // Out past the end of an arm (x 480, less the radius) and beyond it north or south.
    assert!(
        run.stops[1].x > 490.0 && run.stops[1].x < 510.0,
        "{:?}",
        run.stops
    );
    assert!(
        body.pos.y < 250.0 - p.radius || body.pos.y > 350.0 + p.radius,
        "still by the pocket at {:?}",
        body.pos
    );
    assert!(
        run.min_clearance > 0.5,
        "came within {} px",
        run.min_clearance
    );
    println!(
        "legs {:?}, stops {:?}, out at {:?}, least clearance {:.2} px",
        run.legs, run.stops, body.pos, run.min_clearance
    );
}

#[test]
fn with_unstick_after_set_to_zero_a_body_never_takes_a_way_out() {
    let arena = pocket(&[]);
    let p = built_in().tuning.wanderer;
    let mut unstick = Unstick::default();
    let body = Vehicle {
        pos: Vec2::new(340.0, 300.0),
        vel: Vec2::new(0.0, -40.0),
        heading: Vec2::NEG_Y,
    };
    for tick in 1..=600 {
        let out = unstick.update(
            &Scene::alone(&arena, DT).senses(0),
            &body,
            &p,
            0.0,
            WISH,
            LOOK,
        );
        assert_eq!(out, None, "tick {tick}");
    }
    assert!(unstick.escape.is_none());
}

/// What following a way out did.
struct Run {
    /// Each leg's direction, and where the body stopped braking before it.
    legs: Vec<Vec2>,
    stops: Vec<Vec2>,
    /// The second it left the pocket (its back edge past x = 480, the arms' end).
    left: Option<f32>,
    min_clearance: f32,
}

/// Follow the way out with the vehicle and the collision step, which must never move the body.
fn follow(arena: &Arena, unstick: &mut Unstick, body: &mut Vehicle, p: &VehicleTuning) -> Run {
    let mut run = Run {
        legs: Vec::new(),
        stops: Vec::new(),
        left: None,
        min_clearance: f32::INFINITY,
    };
    for tick in 1..=360 {
        let was = unstick.escape;
        let Some(force) = unstick.update(
            &Scene::alone(arena, DT).senses(0),
            body,
            p,
            AFTER,
            WISH,
            LOOK,
        ) else {
            break;
        };
        let now = unstick.escape.expect("following a way out");
        if was.is_some_and(|w| w.braking) && !now.braking {
            run.legs.push(now.dir);
            run.stops.push(body.pos);
        }
        let from = body.pos;
        body.apply(force, p, DT);
        let before = body.pos;
        arena.collide(
            from,
            &mut body.pos,
            &mut body.vel,
            p.radius,
            Response::Slide,
        );
        assert_eq!(
            body.pos, before,
            "the collision step moved the body at tick {tick}"
        );
        let clearance = arena.nearest_distance(body.pos).unwrap_or(f32::INFINITY) - p.radius;
        run.min_clearance = run.min_clearance.min(clearance);
        if run.left.is_none() && body.pos.x - p.radius > 480.0 {
            run.left = Some(tick as f32 * DT);
        }
    }
    run
}

/// Whether the collision step moved the agent this tick (as in `tests/avoid.rs`: the vehicle
/// moves by exactly `vel · dt`, and only a push out of a surface changes that).
fn touched(a: &Agent, dt: f32) -> bool {
    !a.respawned && (a.body.pos - (a.prev_pos + a.body.vel * dt)).length() > 1e-4
}

/// Sixty evaders hunted for a minute among 300 random obstacles generated from `seed`, with
/// `avoid.unstick_after_s` at `after`: the summary and the agent-ticks that touched a surface.
fn dense_evaders(seed: u64, after: f32) -> (Summary, u64) {
    let base = built_in();
    let mut data = DataSet {
        arena: with_random_obstacles(&base.arena, 300, seed),
        ..base.clone()
    };
    data.tuning.avoid.unstick_after_s = after;
    let config = WorldConfig {
        mode: Mode::Evade,
        seed,
        agents: Some(60),
        script: Script::Hunt,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data, config);
    let mut metrics = Metrics::new();
    let mut touches = 0u64;
    for _ in 0..3600 {
        world.tick(&Input::default());
        world.events.clear();
        metrics.observe(&world, 0.0);
        touches += world.agents.iter().filter(|a| touched(a, world.dt)).count() as u64;
    }
    (
        metrics.summary(&world, world.config.script.name(), 60.0),
        touches,
    )
}

#[test]
fn sixty_evaders_hunted_among_three_hundred_random_obstacles_keep_moving_and_clear() {
    // Among 300 obstacles the pockets are many: none of the 60 may stay stuck, and moving among
    // them an evader's feelers graze a surface 0-1 agent-ticks a run of 216,000 (an urgent
    // course takes the whole force at once); the bound is one in ten thousand.
    let mut report = Vec::new();
    for seed in 1..=3 {
        let (s, touches) = dense_evaders(seed, 2.0);
        let what = format!("seed {seed}: {touches} touches, {s:?}");
        assert_eq!(s.ticks, 3600, "{what}");
        assert_eq!(s.stuck_agents, 0, "{what}");
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        assert!(!s.non_finite, "{what}");
        assert!(touches * 10_000 <= s.ticks * s.agents as u64, "{what}");
        report.push(format!("seed {seed}: tags {}, touches {touches}", s.tags));
    }
    println!("60 evaders vs hunt among 300 random obstacles, 60 s: {report:?}");
}

#[test]
fn with_unstick_after_set_to_zero_the_dense_evaders_get_stuck() {
    // The slider's 0 turns the way out off: then the pockets hold a good part of the crowd.
    let mut stuck = Vec::new();
    for seed in 1..=3 {
        let (s, _) = dense_evaders(seed, 0.0);
        assert_eq!(s.obstacle_overlaps, 0, "seed {seed}: {s:?}");
        assert!(s.stuck_agents >= 10, "seed {seed}: {s:?}");
        stuck.push(s.stuck_agents);
    }
    println!("stuck of 60 with avoid.unstick_after_s 0, seeds 1-3: {stuck:?}");
}
