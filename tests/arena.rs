//! The arena's grid-accelerated queries agree with brute force, and collisions keep bodies out.

use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::arena::{ArenaData, ObstacleData};
use steering_arena::sim::arena::{Arena, Obstacle, Response};

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
        width: 1280.0,
        height: 768.0,
        tile_size: 32.0,
        obstacles,
        spawns: vec![[10.0, 10.0]],
        player_start: [640.0, 384.0],
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
