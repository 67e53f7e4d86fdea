//! The flock (Shift+1) and the swarm (Shift+2) as the world runs them: in the default arena among
//! its obstacles they never overlap one, leave it or go non-finite, with either neighbourhood
//! and with the player wandering free, leading or preying; the summary names SPEC §5's fields;
//! the player as predator, crossing the flock, splits it and it is whole again within 20 s; a leader has the flock behind
//! it; the swarm gathers round a still player no nearer than 0.6 of its equilibrium; and `T` and
//! `E` are two forms that exclude each other, each changed through a `World` method and noted
//! as an event. (The behaviours' maths is held by `flock_core.rs`.)

mod common;

use common::{arena, world};
use glam::Vec2;
use std::collections::BTreeSet;
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::behaviours::flock::Neighbourhood;
use steering_arena::sim::behaviours::swarm;
use steering_arena::sim::group_metrics::{Groups, polarization};
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::neighbours::Neighbours;
use steering_arena::sim::world::{FLOCK_ROOM, GROWN_AREA, GROWN_SIDE, Input, World, WorldConfig};

fn data(neighbourhood: Neighbourhood) -> DataSet {
    let mut data = built_in();
    data.tuning.flock.neighbourhood = neighbourhood;
    data
}

fn config(mode: Mode, flip: bool, lead: bool, script: Script) -> WorldConfig {
    WorldConfig {
        mode,
        flip,
        lead,
        seed: 7,
        script,
        ..WorldConfig::default()
    }
}

/// Every form of the flock and the swarm, with each scripted player, for `seconds` in the
/// default arena heeding `neighbourhood`: no obstacle overlapped or arena left, nothing
/// non-finite, no step past the top speed, and nobody caught or tagged.
fn never_overlapped_left_or_made_non_finite(neighbourhood: Neighbourhood, seconds: f64) {
    let forms = [
        (Mode::Flock, false, false),
        (Mode::Flock, true, false),
        (Mode::Flock, false, true),
        (Mode::Swarm, false, false),
    ];
    let data = data(neighbourhood);
    for &(mode, flip, lead) in &forms {
        for script in [Script::Hunt, Script::Circle, Script::Zigzag] {
            let s = world::summary(&data, config(mode, flip, lead, script), seconds);
            let what = format!("{mode} flip {flip} lead {lead} {neighbourhood:?} {script:?}");
            assert_eq!(s.obstacle_overlaps, 0, "{what}");
            assert_eq!(s.out_of_bounds, 0, "{what}");
            assert!(!s.non_finite, "{what}");
            assert!(s.max_step_ratio <= 1.01, "{what}: {}", s.max_step_ratio);
            assert_eq!(s.catches + s.tags, 0, "{what}: nobody catches or is tagged");
        }
    }
}

/// How long each form runs in the default test run (s); the ignored tests run `LONG_SECONDS`.
const QUICK_SECONDS: f64 = 10.0;
const LONG_SECONDS: f64 = 40.0;

#[test]
fn the_default_arena_is_never_overlapped_left_or_made_non_finite_metric() {
    never_overlapped_left_or_made_non_finite(Neighbourhood::Metric, QUICK_SECONDS);
}

#[test]
fn the_default_arena_is_never_overlapped_left_or_made_non_finite_topological() {
    never_overlapped_left_or_made_non_finite(Neighbourhood::Topological, QUICK_SECONDS);
}

#[test]
#[ignore = "needs a long soak: run with --include-ignored (CI does)"]
fn the_default_arena_is_never_overlapped_left_or_made_non_finite_metric_for_40_s() {
    never_overlapped_left_or_made_non_finite(Neighbourhood::Metric, LONG_SECONDS);
}

#[test]
#[ignore = "needs a long soak: run with --include-ignored (CI does)"]
fn the_default_arena_is_never_overlapped_left_or_made_non_finite_topological_for_40_s() {
    never_overlapped_left_or_made_non_finite(Neighbourhood::Topological, LONG_SECONDS);
}

#[test]
fn the_summary_names_the_fields_of_spec_section_five() {
    let data = built_in();
    let keys = |s: &Summary| s.extra.keys().cloned().collect::<BTreeSet<String>>();
    let flock = world::summary(
        &data,
        config(Mode::Flock, false, false, Script::Still),
        30.0,
    );
    let want: BTreeSet<String> = [
        "agent_overlaps",
        "dust_share",
        "group_polarization",
        "groups",
        "largest_group",
        "min_separation_px",
        "nn_distance_mean",
        "polarization",
        "settled_overlap_share",
        "settled_overlaps",
        "smallest_group",
    ]
    .map(String::from)
    .into();
    assert_eq!(keys(&flock), want);
    let polar = flock.extra["polarization"].as_f64().expect("a number");
    // 120 boids from random headings, wandering among obstacles: mostly one way by now (random
    // headings would give about 1/√120 = 0.09).
    assert!(polar > 0.3 && polar <= 1.0, "{polar}");
    let own = flock.extra["group_polarization"]
        .as_f64()
        .expect("a number");
    assert!(own > 0.3 && own <= 1.0, "{own}");
    let largest = flock.extra["largest_group"].as_u64().expect("a count");
    let smallest = flock.extra["smallest_group"].as_u64().expect("a count");
    assert!(
        (1..=largest).contains(&smallest) && largest <= 120,
        "{smallest} {largest}"
    );
    let dust = flock.extra["dust_share"].as_f64().expect("a number");
    assert!((0.0..=1.0).contains(&dust), "{dust}");
    let settled = flock.extra["settled_overlaps"].as_u64().expect("a count");
    let all = flock.extra["agent_overlaps"].as_u64().expect("a count");
    assert!(settled <= all, "{settled} of {all}");
    let share = flock.extra["settled_overlap_share"]
        .as_f64()
        .expect("a number");
    // (The member-ticks after the first 5 s of 30: 120 boids for 25 s.)
    let expected = settled as f64 / (120.0 * 25.0 * 60.0);
    assert!(
        (share - expected).abs() < 1e-5,
        "{share} against {expected}"
    );
    let groups = flock.extra["groups"].as_u64().expect("a count");
    assert!((1..=12).contains(&groups), "{groups}");
    let nn = flock.extra["nn_distance_mean"].as_f64().expect("a number");
    // Separation holds them about its radius (50 px) apart, and no farther than the neighbour
    // radius (80 px) on the whole.
    assert!((20.0..80.0).contains(&nn), "{nn}");
    let swarm = world::summary(
        &data,
        config(Mode::Swarm, false, false, Script::Still),
        30.0,
    );
    let want: BTreeSet<String> = [
        "agent_overlaps",
        "min_separation_px",
        "settled_overlap_share",
        "settled_overlaps",
    ]
    .map(String::from)
    .into();
    assert_eq!(keys(&swarm), want);
}

/// How many groups the boids form, joined at the flock's radius.
fn groups(world: &World) -> usize {
    let positions: Vec<Vec2> = world.agents.iter().map(|a| a.body.pos).collect();
    let mut grid = Neighbours::default();
    let radius = world.tuning.flock.radius;
    grid.rebuild(world.arena.size(), radius, positions.iter().copied());
    Groups::default().count(&grid, &positions, radius)
}

/// The share of the boids in the largest group (joined at the flock's radius).
fn largest_share(world: &World) -> f32 {
    let positions: Vec<Vec2> = world.agents.iter().map(|a| a.body.pos).collect();
    let mut grid = Neighbours::default();
    let radius = world.tuning.flock.radius;
    grid.rebuild(world.arena.size(), radius, positions.iter().copied());
    let mut groups = Groups::default();
    groups.count(&grid, &positions, radius);
    let mut sizes = std::collections::BTreeMap::new();
    for i in 0..positions.len() {
        *sizes.entry(groups.label(i)).or_insert(0usize) += 1;
    }
    sizes.values().copied().max().unwrap_or(0) as f32 / positions.len().max(1) as f32
}

/// The boids' mean position.
fn centre(world: &World) -> Vec2 {
    world.agents.iter().map(|a| a.body.pos).sum::<Vec2>() / world.agents.len() as f32
}

/// One tick with the player walking toward `to` (standing once there).
fn walk_to(world: &mut World, to: Vec2) {
    let way = to - world.player.pos;
    let move_dir = if way.length() > 4.0 {
        way.normalize()
    } else {
        Vec2::ZERO
    };
    world.tick(&Input { move_dir });
}

#[test]
fn the_player_as_predator_splits_the_flock_and_it_closes_up_behind() {
    // Nothing in the arena but its walls, so that only the player parts the flock. A loose flock
    // in the data's own arena (no growth): each boid heeds an 80 px neighbourhood, aligning
    // with the weight of its cohesion, gathering weakly, wandering more and held off the walls by
    // its feelers alone. The default flock is stiffer (alignment 3, radius 120, docs/behaviours.md)
    // and a predator of the same reach parts it only now and then: in the grown arena of 120
    // boids, of eight seeds five gathered into one and the predator split three of them.
    let mut data = arena::open_built_in();
    let f = &mut data.tuning.flock;
    (
        f.alignment,
        f.cohesion,
        f.radius,
        f.gather,
        f.wander,
        f.wall,
        f.flee,
    ) = (1.0, 1.0, 80.0, 0.4, 0.3, 0.0, 3.0);
    let mut figures = Vec::new();
    // (A flock left to wander in an open arena is not always one: seed 4 wanders as two. The
    // seeds here gather into one first, so that the split is the predator's.)
    for seed in 1..=3 {
        let mut world = World::new(
            &data,
            WorldConfig {
                seed,
                fixed_arena: true,
                ..config(Mode::Flock, false, false, Script::Keys)
            },
        );
        // The player waits in a corner while the flock gathers, then turns predator (`E`).
        let corner = Vec2::new(40.0, 40.0);
        for _ in 0..40 * 60 {
            walk_to(&mut world, corner);
        }
        let before = groups(&world);
        world.set_flip(true);
        // It runs at the flock's centre and, once among it, straight on through for 6 s in all;
        // then goes back to its corner (crossing the flock again if it is in the way).
        let mut through = None;
        let (mut most, mut split_at, mut together, mut rejoined) = (0, None, 0, None);
        for t in 0..30 * 60u32 {
            let c = centre(&world);
            let to = if t >= 6 * 60 {
                corner
            } else if let Some(dir) = through {
                world.player.pos + dir * 100.0
            } else if c.distance(world.player.pos) > 60.0 {
                c
            } else {
                let dir = (c - world.player.pos).normalize_or(Vec2::X);
                through = Some(dir);
                world.player.pos + dir * 100.0
            };
            walk_to(&mut world, to);
            let g = groups(&world);
            most = most.max(g);
            if g > 1 && split_at.is_none() {
                split_at = Some(t);
            }
            // Nine in ten one group again for a whole second, once the crossing is over.
            let since = split_at.map_or(0, |s: u32| s.max(6 * 60));
            together = if split_at.is_some() && t >= since && largest_share(&world) >= 0.9 {
                together + 1
            } else {
                0
            };
            if together == 60 && rejoined.is_none() {
                rejoined = Some(t - 59 - since);
            }
        }
        figures.push((seed, before, most, split_at, rejoined));
    }
    println!(
        "predator (seed, groups before, most groups, first tick split, ticks from the split \
         (or the crossing's end) until nine in ten are one group for a second): {figures:?}"
    );
    for &(seed, before, most, split_at, rejoined) in &figures {
        assert_eq!(before, 1, "seed {seed}: the flock gathered into one");
        assert!(
            most > 1 && split_at.is_some(),
            "seed {seed}: the predator split the flock"
        );
        // Together again within 20 s of the split (or the crossing's end, if later): nine boids
        // in ten one group for a second (a straggler just past the joining distance is a group
        // of its own, so the count of groups flickers; and a wandering flock may part again
        // later by itself).
        let rejoined = rejoined.unwrap_or_else(|| panic!("seed {seed}: never together again"));
        assert!(
            rejoined <= 20 * 60,
            "seed {seed}: together after {rejoined} ticks"
        );
    }
}

#[test]
fn a_leading_player_has_the_flock_behind_it_and_out_of_its_path() {
    let data = arena::open_built_in();
    let mut world = World::new(&data, config(Mode::Flock, false, true, Script::Keys));
    // The player walks round the arena, corner to corner (a quarter turn at each).
    let corners = [
        Vec2::new(200.0, 150.0),
        Vec2::new(1080.0, 150.0),
        Vec2::new(1080.0, 620.0),
        Vec2::new(200.0, 620.0),
    ];
    let mut next = 0;
    let (mut behind, mut counted, mut in_path, mut boid_ticks) = (0, 0, 0usize, 0usize);
    let mut ahead_sum = 0.0f64;
    for t in 0..60 * 60 {
        if world.player.pos.distance(corners[next]) < 8.0 {
            next = (next + 1) % corners.len();
        }
        walk_to(&mut world, corners[next]);
        if t < 10 * 60 {
            continue;
        }
        let heading = world.flocking.leader_heading;
        let ahead = (centre(&world) - world.player.pos).dot(heading);
        counted += 1;
        behind += usize::from(ahead < 0.0);
        ahead_sum += f64::from(ahead);
        let fp = &world.tuning.flock;
        for a in &world.agents {
            let d = a.body.pos - world.player.pos;
            let along = d.dot(heading);
            let across = d.dot(heading.perp());
            boid_ticks += 1;
            in_path += usize::from(
                along > 0.0 && along < fp.corridor_length && across.abs() < fp.corridor_half_width,
            );
        }
    }
    let mean_ahead = ahead_sum / counted as f64;
    let behind = behind as f64 / counted as f64;
    let in_path = in_path as f64 / boid_ticks as f64;
    println!(
        "leader: centre behind {behind:.3} of ticks, {mean_ahead:.0} px ahead on average, \
         {in_path:.4} of boid-ticks in its path"
    );
    // (Each quarter turn has the flock beside the leader, not behind, until it has swung round.)
    assert!(mean_ahead < -fp_offset(&world) * 0.5, "{mean_ahead}");
    assert!(behind >= 0.7, "{behind}");
    assert!(in_path <= 0.03, "{in_path}");
}

fn fp_offset(world: &World) -> f64 {
    f64::from(world.tuning.flock.leader_offset)
}

#[test]
fn the_swarm_gathers_round_a_still_player_no_nearer_than_most_of_its_spacing() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Swarm, false, false, Script::Still));
    let input = Input::default();
    let sp = &data.tuning.swarm;
    let length = 2.0 * data.tuning.boid.radius;
    let spacing = swarm::equilibrium(sp).expect("the built-in swarm has one") * length;
    let mut least = f32::INFINITY;
    for t in 0..40 * 60 {
        world.tick(&input);
        if t >= 20 * 60 {
            let positions: Vec<Vec2> = world.agents.iter().map(|a| a.body.pos).collect();
            for (i, p) in positions.iter().enumerate() {
                for q in &positions[i + 1..] {
                    least = least.min(p.distance(*q));
                }
            }
        }
    }
    let hold = world.flocking.hold;
    let farthest = world
        .agents
        .iter()
        .map(|a| a.body.pos.distance(world.player.pos))
        .fold(0.0f32, f32::max);
    println!(
        "swarm: least {least:.1} px apart over 20-40 s (r* {spacing:.0} px), farthest {farthest:.0} \
         px from the player (hold {hold:.0} px)"
    );
    assert!(least >= 0.6 * spacing, "{least} < 0.6 × {spacing}");
    assert!(
        farthest <= hold + 3.0 * spacing,
        "{farthest} vs hold {hold}"
    );
    // Settled: hardly moving any more, whichever way.
    assert!(polarization(world.agents.iter().map(|a| a.body.vel)) < 0.5);
}

#[test]
fn lead_and_predator_exclude_each_other_and_are_recorded() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Flock, false, false, Script::Still));
    world.set_lead(true);
    assert!(world.lead && !world.flip);
    world.set_flip(true);
    assert!(world.flip && !world.lead);
    world.set_lead(true);
    assert!(world.lead && !world.flip);
    assert_eq!(
        world.take_events(),
        ["lead:on", "lead:off", "flip:on", "flip:off", "lead:on"]
    );
    // Neither form outlives the flock: the swarm has none, and back in the flock it starts free.
    world.set_mode(Mode::Swarm);
    world.set_lead(true);
    world.set_flip(true);
    assert!(!world.lead && !world.flip);
    world.set_mode(Mode::Flock);
    assert!(!world.lead && !world.flip);
    // Asked for both on the command line, the predator wins.
    let both = World::new(&data, config(Mode::Flock, true, true, Script::Still));
    assert!(both.flip && !both.lead);
}

#[test]
fn the_spread_arena_is_the_default_at_ten_times_the_area() {
    // `bench`'s constant-density run: 20,000 boids here against 2,000 in the default arena.
    let text = include_str!("../assets/arena-10x.json");
    let spread = steering_arena::data::arena::parse(text).expect("arena-10x.json is valid");
    let default = built_in().arena;
    let area = |a: &steering_arena::data::arena::ArenaData| f64::from(a.width * a.height);
    assert_eq!(area(&spread), 10.0 * area(&default));
    assert_eq!(spread.obstacles.len(), default.obstacles.len());
    assert_eq!(spread.spawns.len(), default.spawns.len());
}

/// The crowds' arenas for `seconds` each: the flock's grown to [`FLOCK_ROOM`] per boid (120 and
/// 4,000 boids the same room and about the same nearest-neighbour distance; 20,000 in the largest
/// arena a crowd grows, twice as long a side as a file may have, and 98 % of the room), the swarm's to 2,000's density in the default arena; at 20,000 both
/// safe.
fn the_crowds_keep_their_room(seconds: f64) {
    let data = built_in();
    let run = |mode, agents| {
        let config = WorldConfig {
            agents: Some(agents),
            ..config(mode, false, false, Script::Hunt)
        };
        let world = World::new(&data, config.clone());
        (
            world.arena.size(),
            world.arena_scale,
            world::summary(&data, config, seconds),
        )
    };
    let default = Vec2::new(data.arena.width, data.arena.height);
    let room = |size: Vec2, n: f32| f64::from(size.x * size.y / n);
    let (small_size, small_scale, small) = run(Mode::Flock, 120);
    assert!(
        (small_scale - 2.0).abs() < 1e-4,
        "120 boids: scale {small_scale}"
    );
    assert!((room(small_size, 120.0) / FLOCK_ROOM - 1.0).abs() < 1e-3);
    let (size, _, large) = run(Mode::Flock, 4_000);
    assert!((room(size, 4_000.0) / FLOCK_ROOM - 1.0).abs() < 1e-3);
    let nn = |s: &Summary| s.extra["nn_distance_mean"].as_f64().expect("a number");
    let held = nn(&large) / nn(&small);
    println!("{seconds} s: 4,000 boids' nearest neighbour {held}× 120's");
    assert!(
        (0.85..=1.15).contains(&held),
        "nearest neighbour {held}× 120's"
    );
    let (size, scale, flock) = run(Mode::Flock, 20_000);
    assert_eq!(size.x, GROWN_SIDE, "the largest arena (scale {scale})");
    assert!(f64::from(size.x) * f64::from(size.y) <= GROWN_AREA);
    let share = room(size, 20_000.0) / FLOCK_ROOM;
    assert!(
        (0.98..1.0).contains(&share),
        "20,000 boids: {share} of the room"
    );
    let (swarm_size, swarm_scale, _) = run(Mode::Swarm, 2_000);
    assert_eq!(
        (swarm_size, swarm_scale),
        (default, 1.0),
        "2,000 is the swarm the default arena is made for"
    );
    let (size, scale, swarm) = run(Mode::Swarm, 20_000);
    assert!((scale - 10f32.sqrt()).abs() < 1e-4, "scale {scale}");
    let ratio = room(size, 20_000.0) / room(default, 2_000.0);
    assert!(
        (ratio - 1.0).abs() < 1e-3,
        "room per member {ratio}× 2,000's"
    );
    for (what, s) in [("flock", &flock), ("swarm", &swarm)] {
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        assert!(!s.non_finite, "{what}");
    }
}

#[test]
fn the_crowds_arenas_grow_to_their_room_and_twenty_thousand_run_safely() {
    // A tenth of a second: twenty thousand boids tick slowly in a debug build.
    the_crowds_keep_their_room(0.1);
}

#[test]
#[ignore = "needs a long soak: run with --include-ignored (CI does)"]
fn the_crowds_arenas_grow_to_their_room_and_twenty_thousand_run_safely_for_a_second() {
    the_crowds_keep_their_room(1.0);
}

#[test]
fn the_grown_arena_follows_plus_minus_reset_and_the_mode() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Swarm, false, false, Script::Still));
    let base = world.arena.size();
    let start = world.player.pos;
    assert_eq!(world.arena_scale, 1.0, "the default crowd");
    world.set_agent_count(8_000);
    let scale = world.arena_scale;
    assert!(
        (scale - 2.0).abs() < 1e-4,
        "8,000: twice the sides, got {scale}"
    );
    assert_eq!(world.arena.size(), base * scale);
    assert_eq!(
        world.player.pos,
        start * scale,
        "the player moves with the arena"
    );
    let inside = |w: &World| {
        w.agents.iter().all(|a| {
            let r = a.radius(&w.tuning);
            w.arena.is_clear(a.body.pos, r * 0.999)
                && a.body.pos.cmpge(Vec2::splat(r * 0.999)).all()
                && a.body.pos.cmple(w.arena.size() - r * 0.999).all()
        })
    };
    assert!(inside(&world), "grown");
    world::idle(&mut world, 30);
    world.reset();
    assert_eq!(
        world.arena_scale, scale,
        "reset keeps the crowd and its arena"
    );
    assert_eq!(world.player.pos, start * scale);
    world.set_agent_count(1_000);
    assert_eq!(
        world.arena_scale, 1.0,
        "`-` below 2,000 is back in the data's arena"
    );
    assert_eq!(world.arena.size(), base);
    assert!(inside(&world), "shrunk");
    world.set_agent_count(20_000);
    world.set_mode(Mode::Avoid);
    assert_eq!(
        world.arena_scale, 1.0,
        "every other mode runs in the data's arena"
    );
    assert_eq!(world.arena.size(), base);
    let fixed = WorldConfig {
        agents: Some(20_000),
        fixed_arena: true,
        ..config(Mode::Flock, false, false, Script::Still)
    };
    assert_eq!(
        World::new(&data, fixed).arena_scale,
        1.0,
        "bench's packed run"
    );
}
