//! The accelerated obstacle queries against brute force: swept rays that start with
//! strides through the clearance field and walk the grid with bounding-circle pre-tests find the
//! same first contact as testing every obstacle; the field never overstates a distance (and is
//! tight enough to be worth having); the nearest surface within any reach is the brute-force one.
//! Arenas are both sparse and large-shaped (overlapping, crossing the walls) and dense and small
//! (the bench's 400-obstacle field).

mod common;

use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::arena::{ArenaData, ObstacleData, with_spaced_obstacles};
use steering_arena::data::tuning::{AvoidTuning, VehicleTuning};
use steering_arena::sim::space::arena::{Arena, MAX_SWEEP_RADIUS, RayHit, sweep_reach};
use steering_arena::sim::space::clear;
use steering_arena::sim::space::feelers::{self, Layout, Ray};
use steering_arena::sim::space::field::{FIELD_CAP, FIELD_CELL};

const W: f32 = 1280.0;
const H: f32 = 768.0;

fn bare() -> ArenaData {
    ArenaData {
        spawns: vec![[10.0, 10.0]],
        ..common::arena::empty(W, H)
    }
}

/// Large shapes anywhere, overlapping each other and the walls.
fn sparse(rng: &mut StdRng, count: usize) -> Arena {
    let mut data = bare();
    data.obstacles = (0..count)
        .map(|_| {
            if rng.gen_bool(0.5) {
                ObstacleData::Circle {
                    x: rng.gen_range(0.0..W),
                    y: rng.gen_range(0.0..H),
                    radius: rng.gen_range(2.0..80.0),
                }
            } else {
                ObstacleData::Rect {
                    x: rng.gen_range(-20.0..W - 20.0),
                    y: rng.gen_range(-20.0..H - 20.0),
                    w: rng.gen_range(2.0..160.0),
                    h: rng.gen_range(2.0..160.0),
                }
            }
        })
        .collect();
    Arena::from_data(&data)
}

/// The bench's field: `count` small obstacles at least 4 px apart.
fn dense(seed: u64, count: usize) -> Arena {
    Arena::from_data(&with_spaced_obstacles(&bare(), count, seed, 4.0))
}

fn arenas() -> Vec<(String, Arena)> {
    let mut rng = StdRng::seed_from_u64(3);
    let mut out: Vec<(String, Arena)> = [1, 8, 40, 120]
        .into_iter()
        .map(|n| (format!("{n} sparse"), sparse(&mut rng, n)))
        .collect();
    out.extend([25, 400].map(|n| (format!("{n} dense"), dense(n as u64, n))));
    out
}

/// The first contact of a body of radius `r` swept from `origin` along `dir`, testing every
/// obstacle (grown by `r`, square corners, as the sweep documents), the way clipped at the walls.
fn brute_sweep(arena: &Arena, origin: Vec2, dir: Vec2, length: f32, r: f32) -> Option<(f32, u32)> {
    if !arena.contains(origin) {
        return None;
    }
    let wall = |o: f32, d: f32, limit: f32| match d {
        d if d > 0.0 => (limit - o) / d,
        d if d < 0.0 => -o / d,
        _ => f32::INFINITY,
    };
    let length = length
        .min(wall(origin.x, dir.x, W))
        .min(wall(origin.y, dir.y, H));
    arena
        .obstacles()
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            o.inflated(r)
                .ray(origin, dir, length)
                .map(|(t, _)| (t, i as u32))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

fn brute_distance(arena: &Arena, p: Vec2) -> Option<f32> {
    arena
        .obstacles()
        .iter()
        .map(|o| o.surface(p).0)
        .reduce(f32::min)
}

/// A sweep's answer (`label`) against the brute-force first contact: the same distance and the
/// same obstacle (or another met at that distance), or none for both. Whether it was a hit.
fn agrees_with_brute_force(
    arena: &Arena,
    got: Option<RayHit>,
    (origin, dir, length): (Vec2, Vec2, f32),
    r: f32,
    label: &str,
    what: &str,
) -> bool {
    match (got, brute_sweep(arena, origin, dir, length, r)) {
        (Some(g), Some((t, index))) => {
            assert!(
                (g.t - t).abs() < 1e-3,
                "{what}: {label} {} vs brute {t}",
                g.t
            );
            // Two obstacles can meet the ray at the same distance; otherwise the same one.
            let same_t = arena.obstacles()[g.obstacle.expect("an obstacle") as usize]
                .inflated(r)
                .ray(origin, dir, length)
                .is_some_and(|(gt, _)| (gt - t).abs() < 1e-3);
            assert!(
                g.obstacle == Some(index) || same_t,
                "{what}: {label} hit {:?}, brute {index}",
                g.obstacle
            );
            true
        }
        (None, None) => false,
        other => panic!("{what}: {label} and brute force disagree: {other:?}"),
    }
}

#[test]
fn swept_rays_find_the_same_first_contact_as_a_brute_force_scan() {
    let mut rng = StdRng::seed_from_u64(17);
    let mut hits = 0;
    let mut misses = 0;
    let mut compared = 0;
    for (name, arena) in arenas() {
        for _ in 0..2_000 {
            let origin = Vec2::new(rng.gen_range(0.0..W), rng.gen_range(0.0..H));
            let angle: f32 = rng.gen_range(0.0..std::f32::consts::TAU);
            let dir = Vec2::from_angle(angle);
            let length = rng.gen_range(1.0..400.0);
            let r = [0.0, 4.0, 9.0, 20.0, MAX_SWEEP_RADIUS][rng.gen_range(0..5)];
            let grid = arena.sweep_obstacles(origin, dir, length, r);
            // Rays from one point share the field's look ahead: the same answer.
            let clear = arena.field().free(origin) - sweep_reach(r);
            let shared = arena.sweep_obstacles_past(origin, dir, length, r, clear);
            let what = format!("{name}: from {origin} along {dir}, length {length}, radius {r}");
            assert_eq!(grid, shared, "{what}");
            compared += 1;
            if agrees_with_brute_force(&arena, grid, (origin, dir, length), r, "grid", &what) {
                hits += 1;
            } else {
                misses += 1;
            }
        }
    }
    println!("{compared} sweeps: {hits} hits, {misses} misses");
    both_seen(("hits", hits, 4_000), ("misses", misses, 2_000));
}

/// A comparison means something only when both of its outcomes came up often enough: more than
/// the given number of each.
fn both_seen(
    (yes, yes_count, yes_least): (&str, u32, u32),
    (no, no_count, no_least): (&str, u32, u32),
) {
    assert!(
        yes_count > yes_least,
        "too few {yes} ({yes_count}) to be a comparison"
    );
    assert!(
        no_count > no_least,
        "too few {no} ({no_count}) to be a comparison"
    );
}

/// An agent's feelers cast together (`sweep_fan`): whiskers from one point and parallel rays
/// from the body's edges, some starting outside the walls or with no length. Each ray's hit is the
/// brute-force first contact (of two at the same distance, the lower index) and the single sweep's.
#[test]
fn a_fan_of_feelers_finds_for_each_ray_the_brute_force_first_contact() {
    let mut rng = StdRng::seed_from_u64(29);
    let mut hits = 0;
    let mut misses = 0;
    for (name, arena) in arenas() {
        for _ in 0..1_000 {
            let origin = Vec2::new(
                rng.gen_range(-10.0..W + 10.0),
                rng.gen_range(-10.0..H + 10.0),
            );
            let heading = Vec2::from_angle(rng.gen_range(0.0..std::f32::consts::TAU));
            let r = [0.0, 4.0, 9.0, 20.0, MAX_SWEEP_RADIUS][rng.gen_range(0..5)];
            let central = rng.gen_range(0.0..200.0);
            let side = rng.gen_range(0.0..80.0);
            let rays = if rng.gen_bool(0.5) {
                let turn = Vec2::from_angle(rng.gen_range(0.2..1.6));
                [
                    (origin, heading, central),
                    (origin, turn.rotate(heading), side),
                    (origin, Vec2::new(turn.x, -turn.y).rotate(heading), side),
                ]
            } else {
                let edge = heading.perp() * r.max(4.0);
                [
                    (origin, heading, central),
                    (origin + edge, heading, side),
                    (origin - edge, heading, side),
                ]
            };
            let fan = arena.sweep_fan(&rays, r);
            for (k, &(o, d, length)) in rays.iter().enumerate() {
                let what =
                    format!("{name}: ray {k} from {o} along {d}, length {length}, radius {r}");
                let single = arena.sweep_obstacles(o, d, length, r);
                if agrees_with_brute_force(&arena, fan[k], (o, d, length), r, "fan", &what) {
                    let (f, single) = (
                        fan[k].expect("a hit"),
                        single.expect("the single sweep hits too"),
                    );
                    assert!(
                        (f.t - single.t).abs() < 1e-3,
                        "{what}: fan {} vs single {}",
                        f.t,
                        single.t
                    );
                    hits += 1;
                } else {
                    assert_eq!(single, None, "{what}");
                    misses += 1;
                }
            }
        }
    }
    println!("fans: {hits} ray hits, {misses} misses");
    both_seen(("hits", hits, 3_000), ("misses", misses, 3_000));
}

#[test]
fn the_clearance_field_never_overstates_a_distance_and_stays_within_a_cell_of_it() {
    let mut rng = StdRng::seed_from_u64(5);
    for (name, arena) in arenas() {
        let field = arena.field();
        let mut gaps = Vec::new();
        for _ in 0..4_000 {
            // Some points outside the arena too: the field knows nothing there and says 0.
            let p = Vec2::new(
                rng.gen_range(-40.0..W + 40.0),
                rng.gen_range(-40.0..H + 40.0),
            );
            let truth = brute_distance(&arena, p).expect("obstacles").max(0.0);
            let free = field.free(p);
            assert!(
                free <= truth,
                "{name}: the field says {free} px free at {p}, the nearest surface is {truth} px"
            );
            for reach in [0.0, 5.0, 12.0, 40.0, 130.0] {
                if field.clear_within(p, reach) {
                    assert!(
                        truth >= reach,
                        "{name}: clear within {reach} at {p}, truth {truth}"
                    );
                }
            }
            if arena.contains(p) && truth < FIELD_CAP - 20.0 {
                gaps.push(truth - free);
            }
        }
        // The bound loses at most the way to the cell's centre twice (half a cell's diagonal
        // each: 2 × 2.83 px for 4-px cells) and the whole pixel it is stored in.
        let limit = FIELD_CELL * std::f32::consts::SQRT_2 + 1.0 + 0.01;
        let worst = gaps.iter().copied().fold(0.0, f32::max);
        let mean = gaps.iter().sum::<f32>() / gaps.len().max(1) as f32;
        println!("{name}: the field is at most {worst} px short, on average {mean}");
        assert!(
            worst <= limit,
            "{name}: the field is {worst} px short somewhere (limit {limit})"
        );
        assert!(
            mean <= limit * 0.4,
            "{name}: the field is {mean} px short on average"
        );
    }
}

/// The field's second record: where it names the one obstacle that can come within a reach of a
/// point, every other obstacle is farther than that; and a fan that stays within that reach, cast
/// against the named obstacle alone, finds exactly what the whole fan finds.
#[test]
fn the_one_obstacle_within_reach_is_the_only_one_there_and_a_fan_against_it_alone_agrees() {
    let mut rng = StdRng::seed_from_u64(47);
    let (mut named, mut unnamed, mut fans_hit) = (0, 0, 0);
    for (name, arena) in arenas() {
        let field = arena.field();
        for _ in 0..3_000 {
            let p = Vec2::new(
                rng.gen_range(-20.0..W + 20.0),
                rng.gen_range(-20.0..H + 20.0),
            );
            let reach = rng.gen_range(0.0..FIELD_CAP);
            let Some(only) = field.only_within(p, reach) else {
                unnamed += 1;
                continue;
            };
            named += 1;
            for (j, o) in arena.obstacles().iter().enumerate() {
                let d = o.surface(p).0;
                assert!(
                    j as u32 == only || d >= reach,
                    "{name}: at {p} only obstacle {only} was to be within {reach}, but {j} is {d}"
                );
            }
            // A fan of whiskers whose swept bodies stay within the reach of `p`.
            let r = [0.0, 4.0, 9.0][rng.gen_range(0..3)];
            let length = ((reach - sweep_reach(r) - 0.02) * 0.5).max(0.0);
            let heading = Vec2::from_angle(rng.gen_range(0.0..std::f32::consts::TAU));
            let origin = p - heading * length;
            let turn = Vec2::from_angle(rng.gen_range(0.2..1.2));
            let rays = [
                (origin, heading, length * 2.0),
                (origin, turn.rotate(heading), length),
                (origin, Vec2::new(turn.x, -turn.y).rotate(heading), length),
            ];
            let whole = arena.sweep_fan(&rays, r);
            assert_eq!(
                arena.sweep_fan_only(only, &rays, r),
                whole,
                "{name}: fan about {p} within {reach} against obstacle {only} alone"
            );
            if whole.iter().any(Option::is_some) {
                fans_hit += 1;
            }
        }
    }
    println!("one obstacle named {named} times, none {unnamed}; {fans_hit} fans against it hit");
    both_seen(
        ("points near one obstacle", named, 2_000),
        ("others", unnamed, 2_000),
    );
    assert!(
        fans_hit > 300,
        "too few fans met the one obstacle ({fans_hit})"
    );
}

#[test]
fn the_nearest_surface_within_any_reach_is_the_brute_force_one() {
    let mut rng = StdRng::seed_from_u64(23);
    let mut found = 0;
    for (name, arena) in arenas() {
        for _ in 0..2_000 {
            let p = Vec2::new(rng.gen_range(0.0..W), rng.gen_range(0.0..H));
            let max_dist = [0.0, 5.0, 9.0, 24.0, 30.0, 100.0][rng.gen_range(0..6)];
            let truth = brute_distance(&arena, p).expect("obstacles");
            match arena.nearest_surface(p, max_dist) {
                Some(s) => {
                    assert!(
                        (s.distance - truth).abs() < 1e-3 && s.distance <= max_dist,
                        "{name}: at {p} within {max_dist}: {} vs brute {truth}",
                        s.distance
                    );
                    found += 1;
                }
                None => assert!(
                    truth > max_dist,
                    "{name}: at {p} nothing within {max_dist}, brute {truth}"
                ),
            }
        }
    }
    assert!(found > 2_000, "too few surfaces found ({found})");
}

/// The deepest of a fan's hits as `feelers` defines it (depth `1 − t / length`, the first ray on
/// a tie), from the fan alone: no field, no early way out.
fn deepest_of_fan(arena: &Arena, rays: &[Ray; 3], r: f32) -> Option<(u8, f32, Option<u32>)> {
    let fan = arena.sweep_fan(&rays.map(|ray| (ray.origin, ray.dir, ray.length)), r);
    let mut best: Option<(u8, f32, Option<u32>)> = None;
    for (k, ray) in rays.iter().enumerate() {
        if ray.length <= 0.0 {
            continue;
        }
        if let Some(hit) = fan[k] {
            let depth = 1.0 - hit.t / ray.length;
            if best.is_none_or(|b| depth > b.1) {
                best = Some((k as u8, depth, hit.obstacle));
            }
        }
    }
    best
}

/// What an agent's feelers feel goes through shortcuts: the field is asked about the rays' whole
/// reach and then about the disc round the middle of the central ray before any obstacle is
/// looked at, and the walls are not swept at all when the central ray's end and the disc holding
/// the side rays are inside them. None of it may change what is felt: over every layout, speeds
/// from rest to full and whiskers opened up to their widest, the obstacles felt are those the
/// plain fan finds, and no ray the wall test passes over reaches a wall.
#[test]
fn the_feelers_shortcuts_feel_what_the_plain_fan_and_wall_sweeps_feel() {
    let mut rng = StdRng::seed_from_u64(41);
    let (mut felt, mut open, mut walls_skipped, mut walls_felt) = (0, 0, 0, 0);
    for (name, arena) in arenas() {
        for _ in 0..1_500 {
            let p = VehicleTuning {
                max_speed: 110.0,
                max_force: 200.0,
                mass: 1.0,
                radius: [4.0, 9.0, 16.0][rng.gen_range(0..3)],
            };
            let t = AvoidTuning {
                rays: [Layout::Whiskers, Layout::Parallel, Layout::Single][rng.gen_range(0..3)],
                look_ahead: rng.gen_range(0.0..150.0),
                min_length: rng.gen_range(0.0..40.0),
                whisker_length: rng.gen_range(0.0..90.0),
                whisker_angle_deg: rng.gen_range(10.0..60.0),
                strength: 2.0,
                sense_hz: 20.0,
                unstick_after_s: 2.0,
                separation: 1.0,
                separation_range: 40.0,
            };
            let cfg = clear::feelers(&p, &t);
            let r = cfg.sweep_radius();
            let pos = Vec2::new(rng.gen_range(1.0..W - 1.0), rng.gen_range(1.0..H - 1.0));
            let heading = Vec2::from_angle(rng.gen_range(0.0..std::f32::consts::TAU));
            let speed_frac = rng.gen_range(0.0..1.0);
            let extra = if rng.gen_bool(0.5) {
                0.0
            } else {
                rng.gen_range(0.0..clear::MAX_SPREAD)
            };
            let rays = cfg.rays(pos, heading, speed_frac, extra);
            let what = format!(
                "{name}: {:?} from {pos} along {heading} at {speed_frac}",
                t.rays
            );

            let expected = deepest_of_fan(&arena, &rays, r);
            for (how, got) in [
                ("feel_obstacles", feelers::feel_obstacles(&arena, &rays, r)),
                (
                    "feel_obstacles_near",
                    feelers::feel_obstacles_near(&arena, &rays, r),
                ),
            ] {
                let got = got.map(|f| (f.ray, f.depth, f.hit.obstacle));
                assert_eq!(got, expected, "{what}: {how}");
            }
            if expected.is_some() {
                felt += 1;
            } else {
                open += 1;
            }

            let wall = feelers::feel_walls(&arena, &rays, r);
            if cfg.clear_of_walls(&arena, pos, heading, speed_frac, r) {
                assert_eq!(wall, None, "{what}: a wall the shortcut passed over");
                walls_skipped += 1;
            } else if wall.is_some() {
                walls_felt += 1;
            }
        }
    }
    println!(
        "feelers: {felt} felt an obstacle, {open} nothing; walls skipped {walls_skipped} times, \
         felt {walls_felt}"
    );
    both_seen(
        ("obstacles felt", felt, 1_500),
        ("casts in the open", open, 1_500),
    );
    both_seen(
        ("wall sweeps skipped", walls_skipped, 3_000),
        ("walls felt", walls_felt, 500),
    );
}
