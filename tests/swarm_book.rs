//! The book's Lennard-Jones settings (Bourg ch. 5) as `V` sets them in the swarm: its chase
//! example between units (the default, with the arena's own rules toward the player and off
//! obstacles) and its swarm example whole (between units, toward the player, off obstacles),
//! each as sixteen slider changes the record keeps; the player's and the obstacles' potentials
//! as the formulas say; and the swarm example's swarm round a still and a zigzagging player.

mod common;

use glam::Vec2;
use steering_arena::data::crowds::{BOOK_SWARMS, BookSwarm, SwarmParams};
use steering_arena::data::tuning::SLIDERS;
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::behaviours::swarm;
use steering_arena::sim::command::Command;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{World, WorldConfig};

fn config(script: Script) -> WorldConfig {
    WorldConfig {
        mode: Mode::Swarm,
        seed: 1,
        script,
        ..WorldConfig::default()
    }
}

/// The data with `s` set through the sliders' own paths, as `V` sets it.
fn with(s: &BookSwarm) -> DataSet {
    let mut data = built_in();
    for (path, value) in s.settings() {
        let slider = SLIDERS.iter().find(|x| x.path == path).expect(path);
        (slider.set)(&mut data.tuning, value);
    }
    assert_eq!(data.tuning.swarm.book_swarm(), Some(*s));
    data
}

#[test]
fn v_steps_between_the_books_chase_and_swarm_examples_as_slider_changes() {
    let data = built_in();
    let mut world = World::new(&data, config(Script::Still));
    // The default is the chase example: `V` goes on to the swarm example, and back.
    let start = world.tuning.swarm.book_swarm().map(|s| s.name);
    assert_eq!(start, Some("chase example"));
    let mut seen = Vec::new();
    for _ in 0..2 {
        let s = world.next_book_swarm();
        assert_eq!(world.tuning.swarm.book_swarm(), Some(s));
        let r = swarm::equilibrium(&world.tuning.swarm).expect("an equilibrium");
        // The range reaches one and a half equilibria.
        assert!((s.range - 1.5 * r).abs() < 1e-4, "{} {r}", s.name);
        seen.push((s.name, r));
    }
    assert_eq!(seen, [("swarm example", 5.0), ("chase example", 2.0)]);
    // Back at the chase example, every number is the default's again.
    assert_eq!(world.tuning.swarm, data.tuning.swarm);
    assert_eq!(world.commands.len(), 32);
    let paths: Vec<&str> = world.commands[..16]
        .iter()
        .map(|c| match c {
            Command::Tune(path, _) => path.0,
            other => panic!("not a slider change: {other:?}"),
        })
        .collect();
    assert_eq!(
        paths,
        [
            "swarm.a",
            "swarm.b",
            "swarm.n",
            "swarm.m",
            "swarm.range",
            "swarm.player_weight",
            "swarm.pull",
            "swarm.obstacle",
            "swarm.player_a",
            "swarm.player_b",
            "swarm.player_n",
            "swarm.player_m",
            "swarm.obstacle_a",
            "swarm.obstacle_b",
            "swarm.obstacle_n",
            "swarm.obstacle_m",
        ]
    );
    // The swarm example: the book's three potentials, the arena's own rules off.
    let p = &BOOK_SWARMS[1];
    assert_eq!((p.a, p.b, p.n, p.m), (2000.0, 10000.0, 1.0, 2.0));
    let (t, o) = (p.player, p.obstacles);
    assert_eq!((t.a, t.b, t.n, t.m), (10000.0, 10000.0, 1.0, 2.0));
    assert_eq!((o.a, o.b, o.m), (0.0, 20000.0, 3.0));
    assert_eq!((p.player_weight, p.pull, p.obstacle), (0.0, 0.0, 0.0));
    // The chase example's are off, as by default.
    assert!(!BOOK_SWARMS[0].player.on() && !BOOK_SWARMS[0].obstacles.on());
    assert_eq!(BOOK_SWARMS.len(), 2);
}

#[test]
fn the_players_and_the_obstacles_potentials_act_as_the_formulas_say() {
    // One member of the swarm example 30 px off the left wall (no obstacle within its range of
    // 7.5 lengths), the player still at the arena's centre.
    let data = with(&BOOK_SWARMS[1]);
    let at = Vec2::new(40.0, 600.0);
    let mut world = common::world::one_agent(&data, config(Script::Still), at, Vec2::ZERO);
    let player = world.player.pos;
    common::world::idle(&mut world, 1);
    let Behaviour::Swarmer(mind) = &world.agents[0].behaviour else {
        panic!("a swarm member");
    };
    // Toward the player: r is the centre distance over the two radii summed (10 + 12 px).
    let r = at.distance(player) / 22.0;
    let f = -10000.0 / r + 10000.0 / (r * r);
    let want = (at - player).normalize() * f;
    assert!(f < -300.0, "{f}");
    assert!(
        (mind.forces.pull - want).length() < 0.01 * f.abs(),
        "{:?} {want:?}",
        mind.forces.pull
    );
    assert_eq!(mind.forces.player, Vec2::ZERO);
    // Off the wall: r is the gap (30 − 10 px) in body lengths plus one, 2.5: B/r³ = 1,280 px/s.
    let want = Vec2::new(20000.0 / 2.5f32.powi(3), 0.0);
    assert!((mind.obstacle - want).length() < 0.5, "{:?}", mind.obstacle);
    // The gradient turns all three into −dU/dr.
    let p = SwarmParams {
        gradient: true,
        ..data.tuning.swarm
    }
    .felt();
    assert_eq!(
        (p.player_a, p.player_n, p.player_b, p.player_m),
        (10000.0, 2.0, 20000.0, 3.0)
    );
    assert_eq!(
        (p.obstacle_a, p.obstacle_b, p.obstacle_m),
        (0.0, 60000.0, 4.0)
    );
}

/// 60 s of the swarm in the default arena (80 members) with `data`, `script` and `seed`: the
/// agent-ticks overlapped after the first 5 s, and the obstacle overlaps and ticks out of
/// bounds.
fn overlaps(data: &DataSet, script: Script, seed: u64) -> (u64, u64) {
    let config = WorldConfig {
        seed,
        ..config(script)
    };
    let summary = common::world::summary(data, config, 60.0);
    let settled = summary.extra["settled_overlaps"].as_u64().expect("a count");
    (settled, summary.obstacle_overlaps + summary.out_of_bounds)
}

/// The players the swarm is run round: a still one and the four that move (zigzag and line
/// overlapped bodies without the contact rule).
const PLAYERS: [Script; 5] = [
    Script::Still,
    Script::Zigzag,
    Script::Line,
    Script::Circle,
    Script::Hunt,
];

/// Every player round either example on `seeds`: no overlap after the start, none with an
/// obstacle, never out of bounds.
fn apart_on(seeds: [u64; 2]) {
    for s in &BOOK_SWARMS {
        let data = with(s);
        for script in PLAYERS {
            let runs: Vec<(u64, u64)> = seeds.map(|seed| overlaps(&data, script, seed)).to_vec();
            println!("{}, {script:?}, seeds {seeds:?}, 60 s: {runs:?}", s.name);
            assert!(
                runs.iter().all(|&r| r == (0, 0)),
                "{} {script:?}: {runs:?}",
                s.name
            );
        }
    }
}

#[test]
fn no_bodies_overlap_after_the_start_whatever_the_player_does_in_either_example() {
    apart_on([1, 2]);
}

#[test]
#[ignore = "needs about 15 s more: seeds 3 and 4 of the same"]
fn no_bodies_overlap_after_the_start_on_two_more_seeds() {
    apart_on([3, 4]);
}

#[test]
fn the_gradient_is_minus_the_derivative_of_u_and_balances_farther_out() {
    let u = |r: f32, p: &steering_arena::data::crowds::SwarmParams| {
        -p.a / r.powf(p.n) + p.b / r.powf(p.m)
    };
    let book = built_in().tuning.swarm;
    let gradient = steering_arena::data::crowds::SwarmParams {
        gradient: true,
        ..book
    };
    // `−dU/dr` by a central difference of U, against the force felt.
    for r in [1.0f32, 1.7, 2.5, 3.0, 4.0] {
        let h = 1e-3;
        let slope = -(u(r + h, &book) - u(r - h, &book)) / (2.0 * h);
        let f = swarm::force(r, &gradient);
        assert!(
            (f - slope).abs() <= 0.01 * slope.abs().max(1.0),
            "{r}: {f} {slope}"
        );
        // Without it, U itself is the force.
        assert!((swarm::force(r, &book) - u(r, &book)).abs() < 1e-2 * u(r, &book).abs().max(1.0));
    }
    // The chase example's numbers balance at 2 lengths as U, at mB/(nA) = 3 as its gradient.
    let at = swarm::equilibrium(&gradient).expect("an equilibrium");
    assert!((at - 3.0).abs() < 1e-5, "{at}");
    assert!(swarm::force(at, &gradient).abs() < 1e-2);
    // A swarm feeling the gradient gathers round a still player too, bodies apart after 5 s.
    let mut data = built_in();
    data.tuning.swarm.gradient = true;
    let s = common::world::summary(&data, config(Script::Still), 30.0);
    let settled = s.extra["settled_overlaps"].as_u64().expect("a count");
    println!("gradient, seed 1, 30 s, still: {settled} overlapped after 5 s");
    assert_eq!(settled, 0);
}
