//! The arena's grid-accelerated queries agree with brute force, and collisions keep bodies out.

mod common;

use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::SQRT_2;
use steering_arena::data::arena::{ArenaData, ObstacleData};
use steering_arena::sim::space::arena::{Arena, Obstacle, Response};

fn random_arena(rng: &mut StdRng, count: usize) -> Arena {
    let obstacles = (0..count)
        .map(|_| {
            if rng.gen_bool(0.5) {
                ObstacleData::Circle {
                    x: rng.gen_range(0.0..1280.0),
                    y: rng.gen_range(0.0..768.0),
                    radius: rng.gen_range(2.0..80.0),
                }
            } else {
                ObstacleData::Rect {
                    x: rng.gen_range(-20.0..1260.0),
                    y: rng.gen_range(-20.0..750.0),
                    w: rng.gen_range(2.0..160.0),
                    h: rng.gen_range(2.0..160.0),
                }
            }
        })
        .collect();
    Arena::from_data(&ArenaData {
        obstacles,
        spawns: vec![[10.0, 10.0]],
        ..common::arena::empty(1280.0, 768.0)
    })
}

/// Every obstacle tested, the ray clipped at the walls as `ray_cast` documents.
fn brute_ray(arena: &Arena, origin: Vec2, dir: Vec2, length: f32) -> Option<f32> {
    let wall = |o: f32, d: f32, limit: f32| match d {
        d if d > 0.0 => (limit - o) / d,
        d if d < 0.0 => -o / d,
        _ => f32::INFINITY,
    };
    let length = length
        .min(wall(origin.x, dir.x, 1280.0))
        .min(wall(origin.y, dir.y, 768.0));
    arena
        .obstacles()
        .iter()
        .filter_map(|o| o.ray(origin, dir, length).map(|(t, _)| t))
        .reduce(f32::min)
}

#[test]
fn grid_ray_cast_finds_the_same_nearest_hit_as_a_brute_force_scan() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut hits = 0;
    for round in 0..40 {
        let arena = random_arena(&mut rng, 5 + round * 10);
        for _ in 0..250 {
            let origin = Vec2::new(rng.gen_range(0.0..1280.0), rng.gen_range(0.0..768.0));
            let angle: f32 = rng.gen_range(0.0..std::f32::consts::TAU);
            let dir = Vec2::new(angle.cos(), angle.sin());
            let length = rng.gen_range(1.0..900.0);
            let grid = arena.ray_cast(origin, dir, length).map(|h| h.t);
            let brute = brute_ray(&arena, origin, dir, length);
            match (grid, brute) {
                (Some(a), Some(b)) => {
                    assert!(
                        (a - b).abs() < 1e-3,
                        "grid {a} vs brute {b} from {origin} along {dir}"
                    );
                    hits += 1;
                }
                (None, None) => {}
                other => {
                    panic!("grid and brute force disagree: {other:?} from {origin} along {dir}")
                }
            }
        }
    }
    assert!(
        hits > 3000,
        "too few hits ({hits}) to be a meaningful comparison"
    );
}

#[test]
fn nearest_distance_matches_a_brute_force_scan() {
    let mut rng = StdRng::seed_from_u64(11);
    for count in [1, 3, 30, 300] {
        let arena = random_arena(&mut rng, count);
        for _ in 0..500 {
            let p = Vec2::new(rng.gen_range(0.0..1280.0), rng.gen_range(0.0..768.0));
            let brute = arena
                .obstacles()
                .iter()
                .map(|o| o.surface(p).0)
                .reduce(f32::min)
                .expect("at least one obstacle");
            let grid = arena.nearest_distance(p).expect("at least one obstacle");
            assert!(
                (grid - brute).abs() < 1e-3,
                "grid {grid} vs brute {brute} at {p}"
            );
        }
    }
}

#[test]
fn a_ray_hits_a_circle_and_a_rectangle_at_the_expected_distance() {
    let circle = Obstacle::Circle {
        center: Vec2::new(100.0, 0.0),
        radius: 10.0,
    };
    let (t, n) = circle.ray(Vec2::ZERO, Vec2::X, 200.0).expect("hits");
    assert!((t - 90.0).abs() < 1e-4);
    assert!((n - Vec2::new(-1.0, 0.0)).length() < 1e-5);
    assert!(circle.ray(Vec2::ZERO, Vec2::X, 89.0).is_none());
    let rect = Obstacle::Rect {
        min: Vec2::new(50.0, -10.0),
        max: Vec2::new(60.0, 10.0),
    };
    let (t, n) = rect
        .ray(Vec2::new(55.0, 100.0), Vec2::new(0.0, -1.0), 200.0)
        .expect("hits");
    assert!((t - 90.0).abs() < 1e-4);
    assert_eq!(n, Vec2::new(0.0, 1.0));
}

#[test]
fn collide_keeps_moving_bodies_out_of_obstacles_and_inside_the_walls() {
    let mut rng = StdRng::seed_from_u64(3);
    let arena = random_arena(&mut rng, 60);
    let r = 10.0;
    let dt = 1.0 / 60.0;
    let mut bodies = 0;
    let mut ticks = 0;
    while bodies < 200 {
        let mut pos = Vec2::new(rng.gen_range(0.0..1280.0), rng.gen_range(0.0..768.0));
        if !arena.is_clear(pos, r) || !arena.contains(pos) {
            continue;
        }
        bodies += 1;
        let mut vel = Vec2::ZERO;
        for _ in 0..300 {
            // A random walk at up to 300 px/s pressing into whatever is there.
            let push = Vec2::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)) * 3000.0;
            vel = (vel + push * dt).clamp_length_max(300.0);
            let speed = vel.length();
            let from = pos;
            pos += vel * dt;
            arena.collide(from, &mut pos, &mut vel, r, Response::Slide);
            ticks += 1;
            assert!(pos.is_finite() && vel.is_finite());
            assert!(pos.x >= r && pos.x <= 1280.0 - r && pos.y >= r && pos.y <= 768.0 - r);
            assert!(vel.length() <= speed + 1e-3, "sliding never adds speed");
            let d = arena.nearest_distance(pos).expect("obstacles");
            assert!(
                d >= r - 1e-3,
                "body overlaps an obstacle by {} at {pos}",
                r - d
            );
        }
    }
    assert_eq!(ticks, 60_000);
}

#[test]
fn collide_never_produces_nan_from_any_start() {
    let mut rng = StdRng::seed_from_u64(5);
    let arena = random_arena(&mut rng, 60);
    for _ in 0..2000 {
        let mut pos = Vec2::new(rng.gen_range(-50.0..1330.0), rng.gen_range(-50.0..818.0));
        let mut vel = Vec2::new(rng.gen_range(-200.0..200.0), rng.gen_range(-200.0..200.0));
        arena.collide(pos, &mut pos, &mut vel, 10.0, Response::Slide);
        assert!(pos.is_finite() && vel.is_finite());
        assert!(pos.x >= 10.0 && pos.x <= 1270.0 && pos.y >= 10.0 && pos.y <= 758.0);
    }
}

#[test]
fn a_bounce_reflects_the_velocity_off_a_wall() {
    let arena = random_arena(&mut StdRng::seed_from_u64(1), 0);
    let mut pos = Vec2::new(1275.0, 300.0);
    let mut vel = Vec2::new(100.0, 50.0);
    let normal = arena.collide(pos, &mut pos, &mut vel, 10.0, Response::Bounce);
    assert_eq!(normal, Some(Vec2::new(-1.0, 0.0)));
    assert_eq!(vel, Vec2::new(-100.0, 50.0));
    assert_eq!(pos.x, 1270.0);
}

// ---- rays, shape by shape, with exact numbers ----

const TOL: f32 = 1e-4;

/// Asserts a hit at distance `t` with unit normal `normal`.
#[track_caller]
fn assert_hit(got: Option<(f32, Vec2)>, t: f32, normal: Vec2) {
    let (got_t, got_n) = got.unwrap_or_else(|| panic!("expected a hit at {t}, got none"));
    assert!(
        (got_t - t).abs() < TOL && (got_n - normal).length() < TOL,
        "expected t {t} normal {normal}, got t {got_t} normal {got_n}"
    );
    assert!(
        (got_n.length() - 1.0).abs() < TOL,
        "normal {got_n} is not unit"
    );
}

/// A circle of radius 10 at (100, 50).
const CIRCLE: Obstacle = Obstacle::Circle {
    center: Vec2::new(100.0, 50.0),
    radius: 10.0,
};

/// A 40x20 rectangle from (100, 100) to (140, 120).
const RECT: Obstacle = Obstacle::Rect {
    min: Vec2::new(100.0, 100.0),
    max: Vec2::new(140.0, 120.0),
};

/// A long enough ray.
const FAR: f32 = 500.0;

#[test]
fn a_ray_meets_a_circle_from_every_side_at_the_exact_distance_with_the_outward_normal() {
    let diagonal = Vec2::new(0.6, 0.8);
    // (origin, direction, distance, normal)
    let cases = [
        (Vec2::new(0.0, 50.0), Vec2::X, 90.0, Vec2::NEG_X),
        (Vec2::new(200.0, 50.0), Vec2::NEG_X, 90.0, Vec2::X),
        (Vec2::new(100.0, -50.0), Vec2::Y, 90.0, Vec2::NEG_Y),
        (Vec2::new(100.0, 150.0), Vec2::NEG_Y, 90.0, Vec2::Y),
        // Along a 3-4-5 diagonal aimed at the centre from 50 px away.
        (Vec2::new(70.0, 10.0), diagonal, 40.0, -diagonal),
        // Off centre by 6: the ray meets the circle at (92, 56), where the normal is (-0.8, 0.6).
        (Vec2::new(0.0, 56.0), Vec2::X, 92.0, Vec2::new(-0.8, 0.6)),
    ];
    for (from, dir, t, normal) in cases {
        assert_hit(CIRCLE.ray(from, dir, FAR), t, normal);
        // The length limit is inclusive.
        assert_hit(CIRCLE.ray(from, dir, t), t, normal);
        assert_eq!(CIRCLE.ray(from, dir, t - 0.1), None);
    }
    // Pointing away, and passing by.
    assert_eq!(CIRCLE.ray(Vec2::new(0.0, 50.0), Vec2::NEG_X, FAR), None);
    assert_eq!(CIRCLE.ray(Vec2::new(0.0, 70.0), Vec2::X, FAR), None);
}

#[test]
fn a_ray_meets_a_rectangle_from_every_side_at_the_exact_distance_with_the_face_normal() {
    let cases = [
        (Vec2::new(0.0, 110.0), Vec2::X, 100.0, Vec2::NEG_X),
        (Vec2::new(200.0, 110.0), Vec2::NEG_X, 60.0, Vec2::X),
        (Vec2::new(120.0, 0.0), Vec2::Y, 100.0, Vec2::NEG_Y),
        (Vec2::new(120.0, 200.0), Vec2::NEG_Y, 80.0, Vec2::Y),
        // Oblique: the left face at (100, 110) and the top face at (125, 100), both after 25 px.
        (
            Vec2::new(80.0, 95.0),
            Vec2::new(0.8, 0.6),
            25.0,
            Vec2::NEG_X,
        ),
        (
            Vec2::new(110.0, 80.0),
            Vec2::new(0.6, 0.8),
            25.0,
            Vec2::NEG_Y,
        ),
        // Exactly through the corner (100, 100): both faces are met at once and the x face wins
        // (ties go to the first axis).
        (
            Vec2::new(90.0, 90.0),
            Vec2::ONE.normalize(),
            10.0 * SQRT_2,
            Vec2::NEG_X,
        ),
    ];
    for (from, dir, t, normal) in cases {
        assert_hit(RECT.ray(from, dir, FAR), t, normal);
        assert_hit(RECT.ray(from, dir, t), t, normal);
        assert_eq!(RECT.ray(from, dir, t - 0.1), None);
    }
    // Pointing away, and passing by.
    assert_eq!(RECT.ray(Vec2::new(0.0, 110.0), Vec2::NEG_X, FAR), None);
    assert_eq!(RECT.ray(Vec2::new(0.0, 130.0), Vec2::X, FAR), None);
}

#[test]
fn a_ray_starting_inside_a_shape_hits_at_once_with_the_nearest_surface_normal() {
    // Inside the circle, 5 px from its centre towards (0.6, 0.8): t = 0, normal outward through
    // the start, whatever the ray's direction.
    let inside = Vec2::new(103.0, 54.0);
    for dir in [Vec2::X, Vec2::NEG_X, Vec2::new(0.6, -0.8)] {
        assert_hit(CIRCLE.ray(inside, dir, FAR), 0.0, Vec2::new(0.6, 0.8));
    }
    // On the surface counts as inside: t = 0 even pointing away.
    assert_hit(
        CIRCLE.ray(Vec2::new(90.0, 50.0), Vec2::X, FAR),
        0.0,
        Vec2::NEG_X,
    );
    assert_hit(
        CIRCLE.ray(Vec2::new(90.0, 50.0), Vec2::NEG_X, FAR),
        0.0,
        Vec2::NEG_X,
    );
    // At the very centre there is no outward direction: the code returns t = 0 and a zero
    // normal (finite, no NaN). (`Obstacle::surface` picks +x there instead.)
    assert_eq!(
        CIRCLE.ray(Vec2::new(100.0, 50.0), Vec2::X, FAR),
        Some((0.0, Vec2::ZERO))
    );
    // Inside the rectangle the normal is that of the nearest face: 5 px from the right face
    // (and 8 from the bottom) gives +x; 1 px below the top face gives -y.
    for dir in [Vec2::X, Vec2::NEG_Y, Vec2::new(-0.6, 0.8)] {
        assert_hit(RECT.ray(Vec2::new(135.0, 112.0), dir, FAR), 0.0, Vec2::X);
        assert_hit(
            RECT.ray(Vec2::new(110.0, 101.0), dir, FAR),
            0.0,
            Vec2::NEG_Y,
        );
    }
    // The arena's ray cast agrees, and names the obstacle.
    let arena = small_arena(vec![ObstacleData::Circle {
        x: 400.0,
        y: 300.0,
        radius: 40.0,
    }]);
    let hit = arena
        .ray_cast(Vec2::new(410.0, 300.0), Vec2::NEG_Y, 100.0)
        .expect("starts inside");
    assert_eq!((hit.t, hit.normal, hit.obstacle), (0.0, Vec2::X, Some(0)));
}

#[test]
fn grazing_rays_count_as_hits() {
    // Tangent to the circle: the ray y = 60 touches it at (100, 60) — a hit at t = 100 with the
    // normal (0, 1). A hundredth of a pixel further out misses; a hundredth further in hits
    // just before the tangent point.
    assert_hit(
        CIRCLE.ray(Vec2::new(0.0, 60.0), Vec2::X, FAR),
        100.0,
        Vec2::Y,
    );
    assert_eq!(CIRCLE.ray(Vec2::new(0.0, 60.01), Vec2::X, FAR), None);
    let (t, n) = CIRCLE
        .ray(Vec2::new(0.0, 59.99), Vec2::X, FAR)
        .expect("just inside the tangent");
    let expected_t = 100.0 - (100.0f32 - 9.99 * 9.99).sqrt();
    assert!((t - expected_t).abs() < 1e-2, "t {t} vs {expected_t}");
    assert!(
        n.y > 0.99 && n.x < 0.0 && (n.length() - 1.0).abs() < TOL,
        "{n}"
    );
    // Along a rectangle's edge: the ray on the line y = 100 (the top face) or y = 120 (the
    // bottom face) meets the left face's corner at t = 100 with the left face's normal; the
    // ray on x = 100 going down meets the top face. A thousandth of a pixel outside misses.
    assert_hit(
        RECT.ray(Vec2::new(0.0, 100.0), Vec2::X, FAR),
        100.0,
        Vec2::NEG_X,
    );
    assert_hit(
        RECT.ray(Vec2::new(0.0, 120.0), Vec2::X, FAR),
        100.0,
        Vec2::NEG_X,
    );
    assert_hit(
        RECT.ray(Vec2::new(100.0, 0.0), Vec2::Y, FAR),
        100.0,
        Vec2::NEG_Y,
    );
    assert_eq!(RECT.ray(Vec2::new(0.0, 99.999), Vec2::X, FAR), None);
    assert_eq!(RECT.ray(Vec2::new(0.0, 120.001), Vec2::X, FAR), None);
    // Clipping the corner (100, 100) at 45° from below left: the single touching point counts.
    let up_right = Vec2::new(1.0, -1.0).normalize();
    assert_hit(
        RECT.ray(Vec2::new(90.0, 110.0), up_right, FAR),
        10.0 * SQRT_2,
        Vec2::NEG_X,
    );
}

#[test]
fn zero_length_and_degenerate_rays_hit_nothing_and_never_give_nan() {
    // A shape: no length from outside reaches nothing; from inside the start itself is the hit
    // ("a ray starting inside hits at t = 0", whatever its length).
    assert_eq!(CIRCLE.ray(Vec2::new(0.0, 50.0), Vec2::X, 0.0), None);
    assert_eq!(RECT.ray(Vec2::new(0.0, 110.0), Vec2::X, 0.0), None);
    assert_hit(
        CIRCLE.ray(Vec2::new(103.0, 54.0), Vec2::X, 0.0),
        0.0,
        Vec2::new(0.6, 0.8),
    );
    assert_hit(
        RECT.ray(Vec2::new(135.0, 112.0), Vec2::X, 0.0),
        0.0,
        Vec2::X,
    );
    // A zero direction from outside reaches nothing either.
    assert_eq!(CIRCLE.ray(Vec2::new(0.0, 50.0), Vec2::ZERO, FAR), None);
    assert_eq!(RECT.ray(Vec2::new(0.0, 110.0), Vec2::ZERO, FAR), None);

    // The arena's queries: zero, negative or NaN length, or a zero direction, give no hit.
    let arena = small_arena(vec![ObstacleData::Circle {
        x: 400.0,
        y: 300.0,
        radius: 40.0,
    }]);
    let from = Vec2::new(100.0, 300.0);
    for (length, dir) in [
        (0.0, Vec2::X),
        (-5.0, Vec2::X),
        (f32::NAN, Vec2::X),
        (500.0, Vec2::ZERO),
    ] {
        let what = format!("length {length}, direction {dir}");
        assert_eq!(arena.ray_cast(from, dir, length), None, "{what}");
        assert_eq!(
            arena.sweep_obstacles(from, dir, length, 10.0),
            None,
            "{what}"
        );
        assert_eq!(arena.ray_cast_walls(from, dir, length), None, "{what}");
        assert_eq!(arena.sweep(from, dir, length, 10.0), None, "{what}");
    }
    // A ray that starts outside the walls hits nothing (what lies beyond a wall is out of reach).
    assert_eq!(
        arena.ray_cast(Vec2::new(-10.0, 300.0), Vec2::X, 1000.0),
        None
    );
}

/// An 800x600 arena holding `obstacles`.
fn small_arena(obstacles: Vec<ObstacleData>) -> Arena {
    Arena::from_data(&ArenaData {
        obstacles,
        spawns: vec![[10.0, 10.0]],
        player_start: [20.0, 20.0],
        ..common::arena::empty(800.0, 600.0)
    })
}

#[test]
fn a_sweep_stops_a_body_radius_short_of_the_surface() {
    let arena = small_arena(vec![
        ObstacleData::Circle {
            x: 400.0,
            y: 300.0,
            radius: 40.0,
        },
        ObstacleData::Rect {
            x: 500.0,
            y: 100.0,
            w: 40.0,
            h: 100.0,
        },
    ]);
    let from = Vec2::new(100.0, 300.0);
    // Head-on at the circle: the centre ray meets the surface at 260 px; a body of radius 10
    // touches it 10 px sooner. The hit point is the surface point either way.
    let ray = arena.ray_cast(from, Vec2::X, FAR).expect("hits the circle");
    assert_eq!(
        (ray.t, ray.point, ray.normal, ray.obstacle),
        (260.0, Vec2::new(360.0, 300.0), Vec2::NEG_X, Some(0))
    );
    let body = arena
        .sweep(from, Vec2::X, 500.0, 10.0)
        .expect("hits the circle");
    assert_eq!(
        (body.t, body.point, body.normal, body.obstacle),
        (250.0, Vec2::new(360.0, 300.0), Vec2::NEG_X, Some(0))
    );
    assert_eq!(arena.sweep(from, Vec2::X, 249.0, 10.0), None, "too short");
    // Radii beyond MAX_SWEEP_RADIUS are clamped to it for obstacles.
    assert_eq!(
        arena
            .sweep_obstacles(from, Vec2::X, 500.0, 100.0)
            .map(|h| h.t),
        Some(260.0 - steering_arena::sim::space::arena::MAX_SWEEP_RADIUS)
    );
    // Head-on at the rectangle's left face.
    let rect = arena
        .sweep(Vec2::new(300.0, 150.0), Vec2::X, 500.0, 10.0)
        .expect("hits the rectangle");
    assert_eq!(
        (rect.t, rect.normal, rect.obstacle),
        (190.0, Vec2::NEG_X, Some(1))
    );
    // Passing 8 px above its top face, a body of radius 10 first touches the corner (500, 100)
    // with its centre at x = 494 (t = 194). The rectangle is inflated with square corners, so
    // the sweep warns at t = 190: a little early, never late.
    let corner = arena
        .sweep(Vec2::new(300.0, 92.0), Vec2::X, 500.0, 10.0)
        .expect("grazes the corner");
    assert_eq!(
        (corner.t, corner.normal, corner.obstacle),
        (190.0, Vec2::NEG_X, Some(1))
    );
    assert!(corner.t <= 194.0);
    // The walls stand a radius closer too.
    let wall = arena
        .sweep(from, Vec2::NEG_X, 500.0, 10.0)
        .expect("left wall");
    assert_eq!(
        (wall.t, wall.point, wall.normal, wall.obstacle),
        (90.0, Vec2::new(0.0, 300.0), Vec2::X, None)
    );
    let dir = Vec2::new(0.6, 0.8);
    let floor = arena
        .ray_cast_walls(from, dir, 1000.0)
        .expect("bottom wall");
    assert!((floor.t - 375.0).abs() < TOL, "{floor:?}");
    assert!(
        (floor.point - Vec2::new(325.0, 600.0)).length() < 1e-3,
        "{floor:?}"
    );
    assert_eq!(floor.normal, Vec2::NEG_Y);
    let floor = arena
        .sweep_walls(from, dir, 1000.0, 10.0)
        .expect("bottom wall");
    assert!((floor.t - 362.5).abs() < TOL, "{floor:?}");
    assert!(
        (floor.point - Vec2::new(317.5, 600.0)).length() < 1e-3,
        "{floor:?}"
    );
}
