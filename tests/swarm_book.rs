//! The book's Lennard-Jones settings between units (Bourg ch. 5) as `V` sets them in the swarm:
//! its chase example (the default) and its swarm example, each as five slider changes the
//! record keeps; and the swarm example's swarm round a still and a zigzagging player.

mod common;

use steering_arena::data::built_in;
use steering_arena::data::crowds::BOOK_SWARMS;
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
    assert_eq!(world.commands.len(), 10);
    let paths: Vec<&str> = world.commands[..5]
        .iter()
        .map(|c| match c {
            Command::Tune(path, _) => path.0,
            other => panic!("not a slider change: {other:?}"),
        })
        .collect();
    assert_eq!(
        paths,
        ["swarm.a", "swarm.b", "swarm.n", "swarm.m", "swarm.range"]
    );
    assert_eq!(BOOK_SWARMS.len(), 2);
}

#[test]
fn the_swarm_example_keeps_bodies_apart_after_the_start_round_a_still_or_zigzagging_player() {
    let mut data = built_in();
    let s = BOOK_SWARMS[1];
    let p = &mut data.tuning.swarm;
    (p.a, p.b, p.n, p.m, p.range) = (s.a, s.b, s.n, s.m, s.range);
    for script in [Script::Still, Script::Zigzag] {
        let summary = common::world::summary(&data, config(script), 30.0);
        let settled = summary.extra["settled_overlaps"].as_u64().expect("a count");
        println!("swarm example, seed 1, 30 s, {script:?}: {settled} overlapped after 5 s");
        assert_eq!(settled, 0, "{script:?}");
        assert_eq!(summary.obstacle_overlaps + summary.out_of_bounds, 0);
    }
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
