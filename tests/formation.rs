//! Formations (Shift+7): the Hungarian method finds the least total distance (checked against
//! every permutation); following the circling player in every shape, `nearest` never costs more
//! than `fixed`, its members keep within one and a half body diameters of their slots on
//! average, and no two members' bodies overlap after the first three seconds (either
//! assignment); a change of shape re-forms within five seconds; 2,000 members run finite; past
//! 150 members the arena grows, and 2,000 start spread and seldom touch.

mod common;

use common::world::summary;
use glam::Vec2;
use steering_arena::data::built_in;
use steering_arena::data::classics::FormationShape;
use steering_arena::sim::assign::{cost, hungarian, nearest};
use steering_arena::sim::command::Command;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{Input, World, WorldConfig};

const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

fn config(seed: u64, fixed: bool, shape: FormationShape) -> WorldConfig {
    WorldConfig {
        mode: Mode::Formation,
        seed,
        flip: fixed,
        shape,
        script: Script::Circle,
        ..WorldConfig::default()
    }
}

/// The least total cost over every permutation of `n`.
fn brute(n: usize, c: &dyn Fn(usize, usize) -> f64) -> f64 {
    fn go(i: usize, n: usize, used: &mut Vec<bool>, c: &dyn Fn(usize, usize) -> f64) -> f64 {
        if i == n {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for j in 0..n {
            if !used[j] {
                used[j] = true;
                best = best.min(c(i, j) + go(i + 1, n, used, c));
                used[j] = false;
            }
        }
        best
    }
    go(0, n, &mut vec![false; n], c)
}

#[test]
fn the_hungarian_method_finds_the_least_total_distance() {
    // A small deterministic generator: points scattered over 1000 x 1000.
    let mut s = 12345u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as f32 / (1u64 << 31) as f32 * 1000.0
    };
    for n in 1..=7 {
        for _ in 0..5 {
            let a: Vec<Vec2> = (0..n).map(|_| Vec2::new(next(), next())).collect();
            let b: Vec<Vec2> = (0..n).map(|_| Vec2::new(next(), next())).collect();
            let c = |i: usize, j: usize| f64::from(a[i].distance(b[j]));
            let got = hungarian(n, c);
            let mut seen = got.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "not a permutation");
            let total = cost(&a, &b, &got);
            assert!((total - brute(n, &c)).abs() < 1e-3, "n {n}: {total}");
        }
    }
    // Beyond the exact size, by ranks: still a permutation, and no dearer than agent i, slot i.
    let a: Vec<Vec2> = (0..300).map(|_| Vec2::new(next(), next())).collect();
    let b: Vec<Vec2> = (0..300).map(|_| Vec2::new(next(), next())).collect();
    let got = nearest(&a, &b, Vec2::X);
    let mut seen = got.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..300).collect::<Vec<_>>());
    let identity: Vec<usize> = (0..300).collect();
    assert!(cost(&a, &b, &got) < cost(&a, &b, &identity));
}

#[test]
fn members_keep_to_their_slots_without_touching_and_nearest_costs_no_more_than_fixed() {
    let data = built_in();
    let diameter = 2.0 * f64::from(data.tuning.member.radius);
    for seed in SEEDS {
        for shape in FormationShape::ALL {
            let near = summary(&data, config(seed, false, shape), 30.0);
            let fixed = summary(&data, config(seed, true, shape), 30.0);
            let cost = |s: &steering_arena::sim::metrics::Summary| {
                s.extra["assignment_cost_px"].as_f64().expect("cost")
            };
            let error = near.extra["slot_error_mean_px"].as_f64().expect("error");
            let overlaps = |s: &steering_arena::sim::metrics::Summary| {
                s.extra["agent_overlaps"].as_u64().expect("overlaps")
            };
            println!(
                "seed {seed} {}: slot error {error:.1} px (fixed {}), cost {:.0} vs fixed {:.0}, \
                 overlaps {} (fixed {})",
                shape.name(),
                fixed.extra["slot_error_mean_px"],
                cost(&near),
                cost(&fixed),
                overlaps(&near),
                overlaps(&fixed)
            );
            assert!(cost(&near) <= cost(&fixed) + 1e-6, "seed {seed} {shape:?}");
            assert!(
                error <= 1.5 * diameter,
                "seed {seed} {shape:?}: {error} px from the slots"
            );
            for s in [&near, &fixed] {
                assert_eq!(overlaps(s), 0, "seed {seed} {shape:?}: bodies overlapped");
                assert!(!s.non_finite && s.out_of_bounds == 0);
                assert_eq!(s.obstacle_overlaps, 0, "seed {seed} {shape:?}");
            }
        }
    }
}

#[test]
fn a_change_of_shape_re_forms_within_five_seconds() {
    let data = built_in();
    let diameter = 2.0 * data.tuning.member.radius;
    for seed in SEEDS {
        let mut world = World::new(&data, config(seed, false, FormationShape::Wedge));
        for _ in 0..600 {
            world.tick(&Input::default());
        }
        world.apply(Command::Shape(FormationShape::Ring));
        assert_eq!(world.formation.reassignments, 1);
        let mut took = None;
        for t in 1..=300 {
            world.tick(&Input::default());
            if world
                .formation
                .last_error()
                .is_some_and(|e| e <= 1.5 * diameter)
            {
                took = Some(t as f32 / 60.0);
                break;
            }
        }
        println!("seed {seed}: re-formed in {took:?} s");
        assert!(took.is_some(), "seed {seed}: not re-formed within 5 s");
    }
}

#[test]
fn two_thousand_members_run_finite_inside_the_arena() {
    let data = built_in();
    let mut world = World::new(
        &data,
        WorldConfig {
            agents: Some(2000),
            ..config(1, false, FormationShape::Wedge)
        },
    );
    for _ in 0..30 {
        world.tick(&Input::default());
    }
    world.apply(Command::Shape(FormationShape::Line));
    world.tick(&Input::default());
    assert_eq!(world.agents.len(), 2000);
    for a in &world.agents {
        assert!(a.body.pos.is_finite() && world.arena.contains(a.body.pos));
    }
}

#[test]
fn past_150_members_the_arena_grows_and_2000_start_spread_and_seldom_touch() {
    let data = built_in();
    let with = |n: usize| WorldConfig {
        agents: Some(n),
        ..config(1, false, FormationShape::Wedge)
    };
    let area = |w: &World| f64::from(w.arena.width) * f64::from(w.arena.height);
    let default = f64::from(data.arena.width) * f64::from(data.arena.height);
    // 150 fit the default arena; 2,000 get the same room each (6,554 px²).
    let w = World::new(&data, with(150));
    assert_eq!(area(&w), default);
    let w = World::new(&data, with(2000));
    let each = area(&w) / 2000.0;
    assert!(
        (each / (default / 150.0) - 1.0).abs() < 0.01,
        "{each} px² a member"
    );
    // 250 start round each of the 8 spawn points, over a square that holds them at the
    // spacing: an 80-px square round a spawn point (where all 250 would start scattered the
    // usual 40 px each way) holds a few.
    let most = w
        .arena
        .spawns
        .iter()
        .map(|&s| {
            w.agents
                .iter()
                .filter(|a| (a.body.pos - s).abs().max_element() <= 40.0)
                .count()
        })
        .max()
        .expect("spawn points");
    assert!(
        most <= 25,
        "{most} members start within 40 px of a spawn point"
    );
    // Following the circling player for 10 s: bodies seldom overlap (789 member-ticks of
    // 840,000 after the first 3 s; started as eight piles, 428,615).
    let s = summary(&data, with(2000), 10.0);
    let overlaps = s.extra["agent_overlaps"].as_u64().expect("overlaps");
    assert!(overlaps <= 2000, "{overlaps} member-ticks overlapping");
}
