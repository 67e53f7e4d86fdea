//! Getting unstuck: a body that stays in a pocket — here a U of three rectangles, open to the
//! east — for two seconds brakes straight to a stop, takes the one open way out and leaves the
//! pocket along it without touching a surface; and sixty evaders hunted among 300 random obstacles
//! keep moving (before agents could get unstuck, 28-39 of them got stuck in every run).

use glam::Vec2;
use steering_arena::data::arena::{ArenaData, ObstacleData, with_random_obstacles};
use steering_arena::data::tuning::VehicleTuning;
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::arena::{Arena, Response};
use steering_arena::sim::behaviours::unstick::{STUCK_AFTER, Unstick};
use steering_arena::sim::headless;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::vehicle::Vehicle;
use steering_arena::sim::world::WorldConfig;

const DT: f32 = 1.0 / 60.0;

/// An 800x600 arena holding a U: a west wall at x 300-310 and north and south walls at y 250-260
/// and 340-350, both from x 300 to 480, so the pocket inside is open to the east.
fn pocket() -> Arena {
    let rect = |x, y, w, h| ObstacleData::Rect { x, y, w, h };
    Arena::from_data(&ArenaData {
        width: 800.0,
        height: 600.0,
        tile_size: 32.0,
        obstacles: vec![
            rect(300.0, 250.0, 10.0, 100.0),
            rect(300.0, 250.0, 180.0, 10.0),
            rect(300.0, 340.0, 180.0, 10.0),
        ],
        spawns: vec![[40.0, 40.0]],
        player_start: [40.0, 40.0],
    })
}

#[test]
fn a_body_kept_in_a_pocket_for_two_seconds_brakes_then_leaves_by_the_open_side_untouched() {
    let arena = pocket();
    let p = built_in().tuning.wanderer;
    let r = p.radius + 1.0;
    let look = 228.0;
    let mut unstick = Unstick::default();
    // Held in the middle of the pocket, moving north at 40 px/s as if it had just turned there.
    let start = Vec2::new(340.0, 300.0);
    let mut body = Vehicle {
        pos: start,
        vel: Vec2::new(0.0, -40.0),
        heading: Vec2::NEG_Y,
    };
    // The wish (its behaviour's course) points into the west wall, as a trapped agent's would.
    let wish = Vec2::NEG_X;
    let mut first = None;
    for tick in 1..=130 {
        if unstick
            .update(&arena, &body, &p, r, wish, look, false, DT)
            .is_some()
        {
            first = Some(tick);
            break;
        }
    }
    let first = first.expect("a body kept on one spot counts as stuck");
    // (The first tick notes where it is; the seconds count from there, a tick later when the
    // sum of the ticks rounds below two seconds.)
    let due = (STUCK_AFTER / DT).round() as i32 + 1;
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
    assert!((e.run - look).abs() < 1e-3, "run {}", e.run);

    let (braked, left, min_clearance) = follow(&arena, &mut unstick, &mut body, &p, r, wish);
    // The body stopped on its braking line (straight north) before it turned east...
    assert!(
        (braked.x - 340.0).abs() < 1e-3 && (braked.y - 296.0).abs() < 0.5,
        "stopped at {braked:?}"
    );
    // ...and left the pocket along its middle, never touching a wall of it.
    let left = left.unwrap_or_else(|| panic!("still in the pocket at {:?}", body.pos));
    assert!((1.0..2.0).contains(&left), "left after {left} s");
    assert!(
        (body.pos.y - braked.y).abs() < 0.5,
        "ran east along y = {}",
        body.pos.y
    );
    assert!(min_clearance > 5.0, "came within {min_clearance} px");
    println!(
        "stuck after {first} ticks, stopped at {braked:?}, out after {left:.2} s, least clearance {min_clearance:.2} px"
    );
}

/// Follow the way out with the vehicle and the collision step: where the body stopped braking,
/// the second it left the pocket (its back edge past x = 480), and its least clearance.
fn follow(
    arena: &Arena,
    unstick: &mut Unstick,
    body: &mut Vehicle,
    p: &VehicleTuning,
    r: f32,
    wish: Vec2,
) -> (Vec2, Option<f32>, f32) {
    let mut braked = None;
    let mut left = None;
    let mut min_clearance = f32::INFINITY;
    for tick in 1..=180 {
        let braking = unstick.escape.is_some_and(|e| e.braking);
        let Some(force) = unstick.update(arena, body, p, r, wish, 228.0, false, DT) else {
            break;
        };
        if braking && !unstick.escape.is_some_and(|e| e.braking) {
            braked = Some(body.pos);
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
        min_clearance = min_clearance.min(clearance);
        if left.is_none() && body.pos.x - p.radius > 480.0 {
            left = Some(tick as f32 * DT);
        }
    }
    (
        braked.expect("the body stopped braking"),
        left,
        min_clearance,
    )
}

#[test]
fn sixty_evaders_hunted_among_three_hundred_random_obstacles_keep_moving() {
    let base = built_in();
    let mut report = Vec::new();
    for seed in 1..=3 {
        let data = DataSet {
            arena: with_random_obstacles(&base.arena, 300, seed),
            ..base.clone()
        };
        let s = headless::run(
            &data,
            WorldConfig {
                mode: Mode::Evade,
                seed,
                agents: Some(60),
                script: Script::Hunt,
                ..WorldConfig::default()
            },
            60.0,
            None::<&mut Recorder<std::io::Sink>>,
        )
        .expect("no recorder, no I/O");
        let what = format!("seed {seed}: {s:?}");
        assert_eq!(s.ticks, 3600, "{what}");
        assert_eq!(s.stuck_agents, 0, "{what}");
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        assert!(!s.non_finite, "{what}");
        report.push(format!("seed {seed}: tags {}", s.tags));
    }
    println!("60 evaders vs hunt among 300 random obstacles, 60 s: {report:?}");
}
