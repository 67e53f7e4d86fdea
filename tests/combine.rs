//! `B`: how an agent's forces combine (weighted, prioritised, dithered).
//!
//! - the combiner itself: the weighted sum truncated, the running sum spending its budget in
//!   priority order, dithering taking the first force drawn that is not zero, scaled by its
//!   probability;
//! - choosing a mode's own method changes nothing: every tick the same as never choosing;
//! - every method replays to the same bytes, `B` pressed mid-run included, and runs to the same
//!   bytes on one thread and on two;
//! - the methods differ where they should: in mode 7 the prioritised sum keeps the feelers'
//!   force and the weighted one lets the pull to the player drown it; dithering uses at most one
//!   force per agent per tick; ORCA's answer taken apart collides where ORCA whole does not.

mod common;

use common::world::summary;
use glam::Vec2;
use steering_arena::data::DataSources;
use steering_arena::data::built_in;
use steering_arena::data::combine::Method;
use steering_arena::data::walkers::Avoidance;
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::behaviours::combine::{Dice, Part, Priority, Tally, combine};
use steering_arena::sim::command::Command;
use steering_arena::sim::headless;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::replay::ReplayData;
use steering_arena::sim::threads;
use steering_arena::sim::world::{Input, World, WorldConfig};

const NAMES: [&str; 3] = ["a", "b", "c"];

fn part(x: f32, y: f32, priority: Priority, probability: f32) -> Part {
    Part::new(Vec2::new(x, y), priority, 1.0, probability)
}

#[test]
fn weighted_sums_and_truncates_and_forces_pointing_apart_cancel() {
    let mut t = Tally::default();
    let parts = [
        part(3.0, 0.0, Priority::Obstacles, 1.0),
        part(-3.0, 0.0, Priority::Rest, 1.0),
        part(0.0, 4.0, Priority::Others, 1.0),
    ];
    let f = combine(Method::Weighted, &NAMES, &parts, 10.0, None, &mut t);
    assert_eq!(
        f,
        Vec2::new(0.0, 4.0),
        "the avoidance cancelled by the pull"
    );
    assert_eq!(t.used_count(), 3);
    let big = [part(30.0, 40.0, Priority::Rest, 1.0)];
    let f = combine(Method::Weighted, &NAMES[..1], &big, 10.0, None, &mut t);
    assert!((f - Vec2::new(6.0, 8.0)).length() < 1e-5, "{f}");
}

#[test]
fn prioritised_spends_the_budget_in_priority_order_whatever_the_listing() {
    let mut t = Tally::default();
    // Listed rest first: the walls still come first, then the obstacles, and the rest is left.
    let parts = [
        part(0.0, 8.0, Priority::Rest, 1.0),
        part(6.0, 0.0, Priority::Walls, 1.0),
        part(-3.0, 0.0, Priority::Obstacles, 1.0),
    ];
    let f = combine(Method::Prioritised, &NAMES, &parts, 10.0, None, &mut t);
    // Walls 6, then the obstacles' 3 (|6 − 3| = 3 spent of 10), then the rest cut to 7.
    assert!((f - Vec2::new(3.0, 7.0)).length() < 1e-5, "{f}");
    assert_eq!(
        (t.was_used(0), t.was_used(1), t.was_used(2)),
        (true, true, true)
    );
    let spent = [
        part(10.0, 0.0, Priority::Walls, 1.0),
        part(0.0, 5.0, Priority::Rest, 1.0),
    ];
    let f = combine(Method::Prioritised, &NAMES[..2], &spent, 10.0, None, &mut t);
    assert_eq!(f, Vec2::new(10.0, 0.0));
    assert!(t.was_used(0) && !t.was_used(1), "nothing left for the rest");
    assert!(
        (t.size(1) - 5.0).abs() < 1e-6,
        "its size is kept for the overlay"
    );
}

#[test]
fn dithering_takes_the_first_force_drawn_that_is_not_zero_scaled_by_its_probability() {
    let mut t = Tally::default();
    let sure = [
        part(0.0, 0.0, Priority::Walls, 1.0),
        part(1.0, 0.0, Priority::Obstacles, 1.0),
        part(0.0, 1.0, Priority::Rest, 1.0),
    ];
    let mut dice = Dice::default();
    let f = combine(
        Method::Dithered,
        &NAMES,
        &sure,
        10.0,
        Some(&mut dice),
        &mut t,
    );
    assert_eq!(f, Vec2::new(1.0, 0.0), "the walls' zero passes the turn");
    assert_eq!(t.used_count(), 1);
    // One force at a quarter's chance: a quarter of the draws take it, four times as strong.
    let rare = [part(1.0, 0.0, Priority::Rest, 0.25)];
    let mut dice = Dice::default();
    let mut taken = 0;
    for _ in 0..10_000 {
        let f = combine(
            Method::Dithered,
            &NAMES[..1],
            &rare,
            10.0,
            Some(&mut dice),
            &mut t,
        );
        if f != Vec2::ZERO {
            assert!((f.x - 4.0).abs() < 1e-5, "{f}");
            taken += 1;
        }
    }
    assert!((2_300..2_700).contains(&taken), "{taken} of 10,000");
    // Without dice (nothing drawn), nothing is considered.
    let f = combine(Method::Dithered, &NAMES, &sure, 10.0, None, &mut t);
    assert_eq!(f, Vec2::ZERO);
}

/// The modes that combine, each with the forms that change which forces there are.
fn combining() -> Vec<WorldConfig> {
    let base = WorldConfig {
        seed: 4,
        script: Script::Hunt,
        ..WorldConfig::default()
    };
    let mut out = Vec::new();
    for (mode, flip) in [
        (Mode::Avoid, false),
        (Mode::Avoid, true),
        (Mode::Flock, false),
        (Mode::Flock, true),
        (Mode::Hide, false),
        (Mode::Hide, true),
        (Mode::Formation, false),
        (Mode::Pathway, false),
    ] {
        out.push(WorldConfig {
            mode,
            flip,
            agents: (mode == Mode::Flock).then_some(150),
            ..base.clone()
        });
    }
    for avoid in Avoidance::ALL {
        out.push(WorldConfig {
            mode: Mode::Crowd,
            avoid,
            agents: Some(120),
            ..base.clone()
        });
    }
    out
}

fn bodies(w: &World) -> Vec<[u32; 4]> {
    w.agents
        .iter()
        .map(|a| {
            let (p, v) = (a.body.pos, a.body.vel);
            [p.x.to_bits(), p.y.to_bits(), v.x.to_bits(), v.y.to_bits()]
        })
        .collect()
}

#[test]
fn choosing_a_modes_own_method_changes_no_tick() {
    let data = built_in();
    for config in combining() {
        let own = config.mode.own_combine().expect("a combining mode");
        let mut plain = World::new(&data, config.clone());
        let chosen_config = WorldConfig {
            combine: Some(own),
            ..config.clone()
        };
        let mut chosen = World::new(&data, chosen_config);
        // And `B` round to it again mid-run.
        let mut cycled = World::new(&data, config.clone());
        for tick in 0..200 {
            if tick == 80 {
                for _ in 0..3 {
                    let next = cycled.combine_method().expect("combines").next();
                    cycled.apply(Command::Combine(next));
                }
                assert_eq!(cycled.combine_method(), Some(own));
            }
            for w in [&mut plain, &mut chosen, &mut cycled] {
                w.tick(&Input::default());
            }
            let b = bodies(&plain);
            assert!(
                b == bodies(&chosen) && b == bodies(&cycled),
                "{:?} flip {} avoid {:?}: tick {tick} differs",
                config.mode,
                config.flip,
                config.avoid
            );
        }
    }
}

fn replay_data() -> ReplayData {
    ReplayData::load(DataSources::resolve(None, None, None)).expect("the assets are valid")
}

#[test]
fn every_method_replays_to_the_same_bytes() {
    let data = replay_data();
    for config in combining() {
        for method in Method::ALL {
            let mut world = World::new(
                &data.data,
                WorldConfig {
                    combine: Some(method),
                    ..config.clone()
                },
            );
            world.events.push(format!("mode:{}", world.mode.name()));
            let mut out = Vec::new();
            let mut rec = Recorder::new(&mut out);
            rec.header(&world, &data.hashes).expect("to memory");
            for tick in 0..80 {
                if tick == 40 {
                    world.apply(Command::Combine(method.next()));
                }
                world.tick(&Input::default());
                rec.write(&mut world, false).expect("to memory");
            }
            let mut again = Vec::new();
            let mut rec = Recorder::new(&mut again);
            headless::replay("rec.jsonl", &out[..], &data, Some(&mut rec))
                .unwrap_or_else(|e| panic!("{:?} {method:?}: {e}", config.mode));
            assert!(
                out == again,
                "{:?} flip {} {method:?}: the replay differs",
                config.mode,
                config.flip
            );
            let text = String::from_utf8(out).expect("JSON is UTF-8");
            let header = text.lines().next().expect("a header");
            assert!(
                header.contains(&format!("\"combine\":\"{}\"", method.name())),
                "{header}"
            );
            assert!(text.contains(&format!("{{\"combine\":\"{}\"}}", method.next().name())));
        }
    }
}

fn run(mode: Mode, flip: bool, method: Method, seed: u64, seconds: f64) -> Summary {
    let data = built_in();
    let config = WorldConfig {
        mode,
        flip,
        seed,
        script: Script::Circle,
        combine: Some(method),
        ..WorldConfig::default()
    };
    summary(&data, config, seconds)
}

fn figure(s: &Summary, name: &str) -> f64 {
    s.extra[name]
        .as_f64()
        .unwrap_or_else(|| panic!("{name}: {:?}", s.extra[name]))
}

#[test]
fn in_mode_7_the_prioritised_sum_keeps_the_feelers_force_and_the_weighted_one_drowns_it() {
    for seed in 1..=3 {
        let clearance = |s: &Summary| s.min_obstacle_clearance.expect("obstacles in the arena");
        let own = run(Mode::Avoid, false, Method::Prioritised, seed, 30.0);
        let weighted = run(Mode::Avoid, false, Method::Weighted, seed, 30.0);
        let dithered = run(Mode::Avoid, false, Method::Dithered, seed, 30.0);
        for s in [&own, &weighted, &dithered] {
            assert_eq!(
                (s.obstacle_overlaps, s.non_finite),
                (0, false),
                "seed {seed}"
            );
        }
        // The wander's pull, summed with the feelers' course, takes the wanderers closer to
        // what they feel; one force at a time takes them closest, and turns them hardest.
        assert!(clearance(&own) >= 5.0, "seed {seed}: {}", clearance(&own));
        assert!(
            clearance(&weighted) < clearance(&own) - 2.0,
            "seed {seed}: weighted {} against {}",
            clearance(&weighted),
            clearance(&own)
        );
        assert!(clearance(&dithered) < 1.0, "seed {seed}");
        assert!(
            dithered.max_turn_rate_deg_s > 3.0 * own.max_turn_rate_deg_s,
            "seed {seed}: dithering jitters: {} against {} deg/s",
            dithered.max_turn_rate_deg_s,
            own.max_turn_rate_deg_s
        );
    }
}

/// The tally an agent's last tick left, in the modes that combine.
fn tally(b: &Behaviour) -> Option<&Tally> {
    match b {
        Behaviour::Avoid { walk, .. } => Some(&walk.tally),
        Behaviour::Boid(m) => Some(&m.tally),
        Behaviour::Walker(m) => Some(&m.tally),
        Behaviour::Hide(h) => Some(&h.tally),
        Behaviour::Member(m) => Some(&m.tally),
        Behaviour::Pedestrian(w) => Some(&w.tally),
        _ => None,
    }
}

#[test]
fn dithering_uses_at_most_one_force_an_agent_a_tick_and_the_others_use_several() {
    let data = built_in();
    for config in combining() {
        for method in Method::ALL {
            let mut w = World::new(
                &data,
                WorldConfig {
                    combine: Some(method),
                    ..config.clone()
                },
            );
            let (mut one, mut several, mut seen) = (0u32, 0u32, 0u32);
            // (Long enough for the crowd's walkers to meet in the middle.)
            for _ in 0..300 {
                w.tick(&Input::default());
                for t in w.agents.iter().filter_map(|a| tally(&a.behaviour)) {
                    if t.names.is_empty() {
                        continue;
                    }
                    seen += 1;
                    match t.used_count() {
                        0 => {}
                        1 => one += 1,
                        _ => several += 1,
                    }
                }
            }
            let what = format!(
                "{:?} flip {} {:?} {method:?}",
                config.mode, config.flip, config.avoid
            );
            assert!(seen > 0, "{what}");
            if method == Method::Dithered {
                assert_eq!(several, 0, "{what}");
                assert!(one * 2 > seen, "{what}: {one} of {seen} with one force");
            } else if config.mode != Mode::Hide {
                // (A hider has one force but while its way round is needed; a walker's
                // avoidance is zero while nobody comes near.)
                assert!(several > 0, "{what}: {several} of {seen} with several");
            }
        }
    }
}

fn crowd(avoid: Avoidance, method: Method, seed: u64) -> Summary {
    let data = built_in();
    let config = WorldConfig {
        mode: Mode::Crowd,
        avoid,
        seed,
        script: Script::Still,
        combine: Some(method),
        ..WorldConfig::default()
    };
    summary(&data, config, 25.0)
}

#[test]
fn the_crowd_collides_less_with_its_avoidance_first_and_orca_only_holds_whole() {
    let collisions = |s: &Summary| figure(s, "collisions");
    // Predictive avoidance first, the goal with what is left: the circle passes untouched, late.
    let weighted = crowd(Avoidance::Predictive, Method::Weighted, 1);
    let prioritised = crowd(Avoidance::Predictive, Method::Prioritised, 1);
    assert!(collisions(&weighted) > 100.0, "{}", collisions(&weighted));
    assert!(
        collisions(&prioritised) * 10.0 < collisions(&weighted),
        "{} against {}",
        collisions(&prioritised),
        collisions(&weighted)
    );
    assert!(figure(&prioritised, "arrival_ratio_mean") > figure(&weighted, "arrival_ratio_mean"));
    // ORCA's velocity is safe only whole: one of its parts at a time walks into the others.
    let whole = crowd(Avoidance::Orca, Method::Weighted, 1);
    let dithered = crowd(Avoidance::Orca, Method::Dithered, 1);
    assert_eq!(collisions(&whole), 0.0);
    assert!(collisions(&dithered) > 300.0, "{}", collisions(&dithered));
    assert!(figure(&dithered, "arrived") < figure(&whole, "arrived"));
}

#[test]
fn every_method_runs_the_same_on_one_thread_and_on_two() {
    let data = built_in();
    // (Crowds of 200 hold too little work to be split but for this.)
    threads::split_at_any_cost();
    for config in combining() {
        for method in Method::ALL {
            let config = WorldConfig {
                combine: Some(method),
                agents: Some(200),
                ..config.clone()
            };
            let bodies_on = |n: usize| {
                threads::pool(n).expect("a few threads").install(|| {
                    let mut w = World::new(&data, config.clone());
                    for _ in 0..60 {
                        w.tick(&Input::default());
                    }
                    bodies(&w)
                })
            };
            assert!(
                bodies_on(1) == bodies_on(2),
                "{:?} flip {} {:?} {method:?}: the threads' run differs",
                config.mode,
                config.flip,
                config.avoid
            );
        }
    }
}
