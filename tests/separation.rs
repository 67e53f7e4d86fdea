//! Mode 7's chasers (`T`) keep apart (Reynolds' separation, `avoid.separation` and
//! `avoid.separation_range`): the crowd grid finds exactly the neighbours a scan of everyone
//! finds; chasers started on one spot spread out while those without separation stay one body;
//! a chasing crowd overlaps itself a tenth as often or less; and the wanderers are untouched.

mod common;

use common::world;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::neighbours::{MAX_LOOKED, MAX_PUSHERS, Member, Neighbours};
use steering_arena::sim::world::{World, WorldConfig};

const SIZE: Vec2 = Vec2::new(1280.0, 768.0);

/// The push a scan of every member gives (the formula of `Neighbours::apart`, no grid, no caps),
/// and how many push.
fn brute_apart(members: &[Member], id: u32, pos: Vec2, range: f32) -> (Vec2, usize) {
    let mut push = Vec2::ZERO;
    let mut n = 0;
    for m in members.iter().filter(|m| m.id != id) {
        let d = pos.distance(m.pos);
        if d < range {
            push += if d >= 1.0 {
                (pos - m.pos) / d * (range / d - d / range)
            } else if d > 0.0 {
                // Within a pixel: the push of a pixel apart, scaled down with the distance.
                (pos - m.pos) * (range - 1.0 / range)
            } else if id < m.id {
                Vec2::new(1.0 / range - range, 0.0)
            } else {
                Vec2::new(range - 1.0 / range, 0.0)
            };
            n += 1;
        }
    }
    (push, n)
}

#[test]
fn the_grid_finds_the_same_neighbours_as_a_scan_of_everyone() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut crowd = Neighbours::default();
    let (mut compared, mut pushed) = (0, 0);
    for case in 0..200 {
        let range = rng.gen_range(8.0..60.0);
        let count = rng.gen_range(2..300);
        // Some stand outside the arena (they count in its edge cells) and some on one spot.
        let members: Vec<Member> = (0..count)
            .map(|id| Member {
                id,
                pos: if id % 17 == 5 && id > 0 {
                    Vec2::new(300.0, 200.0)
                } else {
                    Vec2::new(
                        rng.gen_range(-20.0..SIZE.x + 20.0),
                        rng.gen_range(-20.0..SIZE.y + 20.0),
                    )
                },
            })
            .collect();
        crowd.rebuild_members(SIZE, range, members.iter().copied());
        assert_eq!(crowd.len(), members.len());
        for m in &members {
            let (want, n) = brute_apart(&members, m.id, m.pos, range);
            // The caps decide only when this many are near (a generous bound on those looked
            // at: everyone within two cells' width in both axes).
            let side = range.max((SIZE.x * SIZE.y / (count as f32 * 4.0).max(1024.0)).sqrt());
            let looked = members
                .iter()
                .filter(|o| (o.pos - m.pos).abs().max_element() < 2.0 * side)
                .count();
            if n > MAX_PUSHERS || looked > MAX_LOOKED {
                continue;
            }
            let got = crowd.apart(m.id, m.pos);
            assert!(
                got.distance(want) <= 1e-3 * want.length().max(1.0),
                "case {case}, member {}: grid {got}, scan {want} ({n} within {range})",
                m.id
            );
            let reach = range * 0.6;
            let near = members
                .iter()
                .any(|o| o.id != m.id && o.pos.distance_squared(m.pos) < reach * reach);
            assert_eq!(crowd.any_within(m.id, m.pos, reach), near, "case {case}");
            compared += 1;
            pushed += usize::from(n > 0);
        }
    }
    // Most members were compared, and many of them had neighbours.
    assert!(compared > 20_000, "{compared}");
    assert!(pushed > 5_000, "{pushed}");
}

#[test]
fn two_on_one_spot_push_apart_along_x_and_a_packed_crowd_stays_bounded() {
    let mut crowd = Neighbours::default();
    let spot = Vec2::new(100.0, 100.0);
    let pair = [Member { id: 3, pos: spot }, Member { id: 9, pos: spot }];
    crowd.rebuild_members(SIZE, 40.0, pair.into_iter());
    let each = 40.0 - 1.0 / 40.0;
    assert_eq!(crowd.apart(3, spot), Vec2::new(-each, 0.0));
    assert_eq!(crowd.apart(9, spot), Vec2::new(each, 0.0));
    // Alone, nobody pushes.
    crowd.rebuild_members(SIZE, 40.0, pair[..1].iter().copied());
    assert_eq!(crowd.apart(3, spot), Vec2::ZERO);
    // A thousand in a 10-px square: at most MAX_PUSHERS push, so the push is finite and at most
    // that many same-spot pushes.
    let mut rng = StdRng::seed_from_u64(1);
    let packed: Vec<Member> = (0..1000)
        .map(|id| Member {
            id,
            pos: spot + Vec2::new(rng.gen_range(0.0..10.0), rng.gen_range(0.0..10.0)),
        })
        .collect();
    crowd.rebuild_members(SIZE, 40.0, packed.iter().copied());
    for m in &packed {
        let push = crowd.apart(m.id, m.pos);
        assert!(push.is_finite(), "{push}");
        assert!(push.length() <= MAX_PUSHERS as f32 * each, "{push}");
    }
    // No range, or no arena: nobody; a member at NaN is left out.
    crowd.rebuild_members(SIZE, 0.0, pair.into_iter());
    assert!(crowd.is_empty());
    crowd.rebuild_members(Vec2::ZERO, 40.0, pair.into_iter());
    assert!(crowd.is_empty());
    let odd = [
        pair[0],
        Member {
            id: 4,
            pos: Vec2::NAN,
        },
    ];
    crowd.rebuild_members(SIZE, 40.0, odd.into_iter());
    assert_eq!(crowd.len(), 1);
    assert_eq!(crowd.apart(4, Vec2::NAN), Vec2::ZERO);
}

/// An empty 800×600 arena with the built-in tuning, separation at `separation`.
fn open_arena(separation: f32) -> DataSet {
    let mut data = common::arena::data_on(common::arena::empty(800.0, 600.0));
    data.tuning.avoid.separation = separation;
    data
}

fn chase(seed: u64, agents: Option<usize>, script: Script) -> WorldConfig {
    WorldConfig {
        mode: Mode::Avoid,
        flip: true,
        lead: false,
        seed,
        agents,
        script,
        tick_hz: 60.0,
        ..WorldConfig::default()
    }
}

/// The smallest distance between two of the agents.
fn closest_pair(world: &World) -> f32 {
    let a = &world.agents;
    let mut best = f32::INFINITY;
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            best = best.min(a[i].body.pos.distance(a[j].body.pos));
        }
    }
    best
}

#[test]
fn ten_chasers_started_on_one_spot_spread_out_unless_separation_is_off() {
    // Ten at rest on one spot 300 px left of a still player (at the centre): the chase takes them
    // there in about 3 s. After 1.5 s with the built-in separation no two are within a body
    // width (18 px); with separation 0 they move as one body, all on the same spot.
    let r = built_in().tuning.wanderer.radius;
    let mut closest = Vec::new();
    for separation in [built_in().tuning.avoid.separation, 0.0] {
        let data = open_arena(separation);
        let mut world = World::new(&data, chase(1, Some(10), Script::Still));
        for i in 0..10 {
            world.place_agent(i, Vec2::new(100.0, 300.0), Vec2::ZERO);
        }
        world::idle(&mut world, 90);
        assert_eq!(world.score.catches, 0, "none has reached the player yet");
        closest.push(closest_pair(&world));
    }
    println!("closest pair after 1.5 s, built-in separation and 0: {closest:?}");
    assert!(closest[0] >= 2.0 * r, "{closest:?}");
    assert_eq!(closest[1], 0.0, "{closest:?}");
}

fn overlaps(s: &Summary) -> u64 {
    s.extra["agent_overlaps"]
        .as_u64()
        .expect("mode 7 reports agent_overlaps")
}

#[test]
fn a_chasing_crowd_overlaps_itself_a_tenth_as_often_and_still_catches() {
    // 30 chasers, 30 s (54,000 agent-ticks), default arena. Measured with the built-in
    // separation (1.0 within 40 px) against 0, seeds 1-5: a still player 1,328-2,495 agent-ticks
    // against 22,287-29,636; a circling player 736-1,447 against 42,921-47,065. (Respawns are
    // scattered round their spawn point: chasers caught in one tick would otherwise come back
    // on one spot and overlap until separation parts them.)
    let mut off = built_in();
    off.tuning.avoid.separation = 0.0;
    let mut seen = Vec::new();
    for seed in 1..=5 {
        for script in [Script::Still, Script::Circle] {
            let on = world::summary(&built_in(), chase(seed, None, script), 30.0);
            let without = world::summary(&off, chase(seed, None, script), 30.0);
            let what = format!("seed {seed} {script:?}: {on:?} / {without:?}");
            assert_eq!(on.agents, 30, "{what}");
            assert!(overlaps(&on) * 8 <= overlaps(&without), "{what}");
            assert!(overlaps(&on) <= 3_000, "{what}");
            assert!(overlaps(&without) >= 20_000, "{what}");
            // It still chases: it catches, first within the time the separation-free crowd
            // takes plus a second, and stays clear of the obstacles and inside.
            assert!(on.catches > 0, "{what}");
            let (first, first_without) =
                (on.first_catch_s.unwrap(), without.first_catch_s.unwrap());
            assert!(first <= first_without + 1.0, "{what}");
            assert_eq!(on.obstacle_overlaps, 0, "{what}");
            assert_eq!(on.out_of_bounds, 0, "{what}");
            assert_eq!(on.stuck_agents, 0, "{what}");
            seen.push((seed, overlaps(&on), overlaps(&without)));
        }
    }
    println!("agent overlaps (seed, separation on, off): {seen:?}");
}

#[test]
fn the_wanderers_of_mode_7_are_untouched_by_the_chasers_separation() {
    // Without `T` nobody separates: the summary is the same to the byte whatever the sliders say.
    let mut strong = built_in();
    strong.tuning.avoid.separation = 5.0;
    strong.tuning.avoid.separation_range = 200.0;
    for seed in 1..=3 {
        let config = WorldConfig {
            flip: false,
            ..chase(seed, None, Script::Hunt)
        };
        let mut a = world::summary(&built_in(), config.clone(), 30.0);
        let mut b = world::summary(&strong, config, 30.0);
        a.tick_ms.mean = 0.0;
        a.tick_ms.p99 = 0.0;
        b.tick_ms = a.tick_ms.clone();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap(),
            "seed {seed}"
        );
        assert!(overlaps(&a) > 0, "wanderers do cross one another: {a:?}");
    }
}
