//! The overlay's traces: the world fills them for the agents the window asks for, they hold the
//! quantities the overlay draws, and tracing changes nothing the simulation does.

use steering_arena::data::built_in;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::trace::{Role, Shape};
use steering_arena::sim::world::{Input, World, WorldConfig};

fn world(mode: Mode) -> World {
    World::new(
        &built_in(),
        WorldConfig {
            mode,
            seed: 3,
            script: Script::Hunt,
            ..WorldConfig::default()
        },
    )
}

fn everyone(world: &World) -> Vec<(usize, u32)> {
    world
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (i, a.id))
        .collect()
}

/// The clock the traced search is timed with (seconds).
fn clock() -> f64 {
    std::time::UNIX_EPOCH
        .elapsed()
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Ticks `world`, tracing every agent, until `done` holds or `ticks` pass.
fn traced_until(world: &mut World, ticks: u32, done: impl Fn(&World) -> bool) {
    for _ in 0..ticks {
        world.tick(&Input::default());
        let picks = everyone(world);
        world.trace_agents(&picks, clock);
        if done(world) {
            return;
        }
    }
}

#[test]
fn tracing_every_agent_changes_nothing_the_simulation_does() {
    for &mode in Mode::ALL {
        let mut plain = world(mode);
        let mut traced = world(mode);
        for _ in 0..240 {
            plain.tick(&Input::default());
            traced.tick(&Input::default());
            let picks = everyone(&traced);
            traced.trace_agents(&picks, clock);
        }
        assert!(!traced.traces().is_empty(), "{mode:?} traced nothing");
        let bodies = |w: &World| -> Vec<[u32; 4]> {
            w.agents
                .iter()
                .map(|a| {
                    let (p, v) = (a.body.pos, a.body.vel);
                    [p.x.to_bits(), p.y.to_bits(), v.x.to_bits(), v.y.to_bits()]
                })
                .collect()
        };
        assert_eq!(bodies(&plain), bodies(&traced), "{mode:?}");
        assert_eq!(plain.score.catches, traced.score.catches, "{mode:?}");
        assert_eq!(plain.score.tags, traced.score.tags, "{mode:?}");
    }
}

#[test]
fn an_avoider_traces_three_feelers_from_where_it_stands_and_its_steering() {
    let mut w = world(Mode::Avoid);
    traced_until(&mut w, 30, |_| false);
    let t = w.trace_of(0).expect("agent 0 is traced");
    let a = &w.agents[0];
    let feelers: Vec<_> = t
        .marks
        .iter()
        .filter(|m| matches!(m.role, Role::Ray | Role::Hit))
        .filter_map(|m| match m.shape {
            Shape::Segment { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    assert_eq!(feelers.len(), 3, "{:?}", t.marks);
    assert!(feelers.iter().all(|&from| from == a.body.pos));
    let steering = t.marks.iter().find(|m| m.role == Role::Steering);
    let Some(Shape::Vector { v, .. }) = steering.map(|m| m.shape) else {
        panic!("no steering traced: {:?}", t.marks);
    };
    let mass = w.tuning.chaser.mass;
    assert!((v * mass - a.steer).length() < 1e-3 * a.steer.length().max(1.0));
}

#[test]
fn a_guard_traces_its_view_cone_as_rays_no_longer_than_its_range() {
    let mut w = world(Mode::Fsm);
    traced_until(&mut w, 10, |_| false);
    let (i, guard) = w
        .agents
        .iter()
        .enumerate()
        .find(|(_, a)| a.behaviour.guard().is_some())
        .expect("the fsm mode has guards");
    let t = w.trace_of(i).expect("the guard is traced");
    assert_eq!(t.fan.len(), 29);
    let range = w.tuning.fsm.vision_range;
    assert!(
        t.fan
            .iter()
            .all(|&end| end.distance(guard.body.pos) <= range + 1e-3)
    );
}

#[test]
fn pathfind_traces_the_search_of_the_chaser_nearest_the_player() {
    let mut w = world(Mode::Pathfind);
    traced_until(&mut w, 600, |w| w.path_trace().shown.is_some());
    let p = w.path_trace();
    let (id, from, to) = p.shown.expect("a chaser planned within ten seconds");
    assert!(w.agents.iter().any(|a| a.id == id));
    assert!(p.found && p.expanded > 0);
    assert_eq!(p.tiles.first(), Some(&from));
    assert_eq!(p.tiles.last(), Some(&to));
}

#[test]
fn nothing_traced_keeps_no_traces() {
    let mut w = world(Mode::Wander);
    traced_until(&mut w, 5, |_| false);
    assert!(!w.traces().is_empty());
    w.tick(&Input::default());
    w.trace_agents(&[], clock);
    assert!(w.traces().is_empty());
    assert!(w.trace_of(0).is_none());
}
