//! The simulation allocates nothing in a tick: the crowd's buffers are kept from tick to tick and
//! every query works in fixed arrays. A counting allocator watches every tick of every mode
//! (both forms, on one thread and split between two) and of a crowd among 400 obstacles (on
//! two); only a tick that logs a catch or a tag may allocate (its event's text, and the respawned
//! agent). Split ticks run in a pool whose threads all count, rayon's own allocations included.

mod common;

use common::counting::{Counting, counted_pool};
use steering_arena::data::arena::with_spaced_obstacles;
use steering_arena::data::built_in;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::path::Order;
use steering_arena::sim::player::Script;
use steering_arena::sim::threads;
use steering_arena::sim::world::{Input, World, WorldConfig};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Ticks `world` for `ticks` after a warm-up, on two threads (a crowd of more than
/// `threads::PARALLEL_FROM` is split between them, whatever its work, and every allocation of either thread, rayon's
/// own included, is counted); returns the ticks that allocated without logging an event, and how
/// many ticks logged one.
fn quiet_ticks_that_allocate(world: &mut World, ticks: u32) -> (Vec<(u64, u64)>, u32) {
    quiet_ticks_on(2, world, ticks)
}

/// [`quiet_ticks_that_allocate`] on `threads` threads.
fn quiet_ticks_on(threads: usize, world: &mut World, ticks: u32) -> (Vec<(u64, u64)>, u32) {
    threads::split_at_any_cost();
    let pool = counted_pool(threads);
    pool.pool
        .install(|| quiet_ticks(world, ticks, || pool.allocations()))
}

fn quiet_ticks(
    world: &mut World,
    ticks: u32,
    allocations: impl Fn() -> u64,
) -> (Vec<(u64, u64)>, u32) {
    let input = Input::default();
    // (The first ticks grow the buffers to the crowd's size.)
    for _ in 0..30 {
        world.tick(&input);
        world.events.clear();
    }
    let mut bad = Vec::new();
    let mut eventful = 0;
    for _ in 0..ticks {
        let before = allocations();
        world.tick(&input);
        let made = allocations() - before;
        if world.events.is_empty() {
            if made > 0 {
                bad.push((world.tick, made));
            }
        } else {
            eventful += 1;
        }
        world.events.clear();
    }
    (bad, eventful)
}

#[test]
fn no_mode_allocates_in_a_tick() {
    let data = built_in();
    for (&mode, threads) in Mode::ALL.iter().flat_map(|m| [(m, 1), (m, 2)]) {
        for flip in [false, true] {
            let mut world = World::new(
                &data,
                WorldConfig {
                    mode,
                    flip,
                    lead: false,
                    seed: 3,
                    agents: Some(400),
                    script: Script::Hunt,
                    tick_hz: 60.0,
                    ..WorldConfig::default()
                },
            );
            // (The stage's first dives come after some 35 s.)
            let ticks = if world.stage.is_some() { 3600 } else { 1200 };
            // (One thread runs the same loop as two but for the split: a shorter watch.)
            let ticks = if threads == 1 { ticks / 4 } else { ticks };
            let (bad, eventful) = quiet_ticks_on(threads, &mut world, ticks);
            println!("{mode:?} flip {flip} on {threads} threads: {eventful} ticks with events");
            assert!(
                bad.is_empty(),
                "{mode:?} (flip {flip}, {threads} threads) allocated on ticks that logged nothing: (tick, allocations) {:?}",
                &bad[..bad.len().min(10)]
            );
        }
    }
}

#[test]
fn a_crowd_among_400_obstacles_allocates_nothing() {
    let mut data = built_in();
    data.arena = with_spaced_obstacles(&data.arena, 400, 1, 4.0);
    for mode in [Mode::Avoid, Mode::Evade, Mode::Wander] {
        let mut world = World::new(
            &data,
            WorldConfig {
                mode,
                flip: false,
                lead: false,
                seed: 1,
                agents: Some(2000),
                script: Script::Circle,
                tick_hz: 60.0,
                ..WorldConfig::default()
            },
        );
        let (bad, _) = quiet_ticks_that_allocate(&mut world, 400);
        assert!(
            bad.is_empty(),
            "{mode:?} allocated: {:?}",
            &bad[..bad.len().min(10)]
        );
    }
}

#[test]
fn pathfind_plans_allocate_nothing() {
    // Chasers that plan (up to the crowd's 64) with each search, against a player who keeps
    // changing tile (every chaser plans again each time), on the default arena and the maze.
    for data in [built_in(), common::arena::maze()] {
        for order in Order::ALL {
            for agents in [4, 64] {
                let mut world = World::new(
                    &data,
                    WorldConfig {
                        mode: Mode::Pathfind,
                        seed: 5,
                        agents: Some(agents),
                        script: Script::Circle,
                        order,
                        ..WorldConfig::default()
                    },
                );
                let (bad, _) = quiet_ticks_that_allocate(&mut world, 1200);
                assert!(
                    world.paths.searches > 100,
                    "{order:?}: only {} searches",
                    world.paths.searches
                );
                assert!(
                    bad.is_empty(),
                    "{order:?} with {agents} allocated: {:?}",
                    &bad[..bad.len().min(10)]
                );
            }
        }
    }
}

#[test]
fn no_way_of_combining_forces_allocates_in_a_tick() {
    use steering_arena::data::combine::Method;
    use steering_arena::data::walkers::Avoidance;
    let data = built_in();
    let modes = [
        (Mode::Avoid, false, Avoidance::Orca),
        (Mode::Avoid, true, Avoidance::Orca),
        (Mode::Flock, false, Avoidance::Orca),
        (Mode::Hide, true, Avoidance::Orca),
        (Mode::Formation, false, Avoidance::Orca),
        (Mode::Crowd, false, Avoidance::Separation),
        (Mode::Crowd, false, Avoidance::Predictive),
        (Mode::Crowd, false, Avoidance::Orca),
    ];
    for (mode, flip, avoid) in modes {
        for method in Method::ALL {
            let mut world = World::new(
                &data,
                WorldConfig {
                    mode,
                    flip,
                    seed: 2,
                    agents: (mode == Mode::Flock).then_some(200),
                    script: Script::Hunt,
                    avoid,
                    combine: Some(method),
                    ..WorldConfig::default()
                },
            );
            let (bad, _) = quiet_ticks_that_allocate(&mut world, 150);
            assert!(
                bad.is_empty(),
                "{mode:?} (flip {flip}, {avoid:?}) {method:?} allocated: {:?}",
                &bad[..bad.len().min(10)]
            );
        }
    }
}
