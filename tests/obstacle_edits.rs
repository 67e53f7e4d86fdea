//! Obstacle edits are cheap and exact: an added or removed obstacle changes the arena's grid,
//! clearance field and tiles only near it, and leaves them equal, value for value, to a whole
//! build of the obstacle list (`Arena::rebuilt`).
//!
//! - random adds and removals (circles and rectangles, inside, across the walls and outside,
//!   removals from the middle of the list and at empty points) on the default arena, the maze and
//!   an arena whose sides are no whole number of cells: after each, the arena equals its rebuild;
//! - a thousand `add-obstacle` commands on one record line (a whole rebuild each took 10 s in a
//!   release build) and removals after them record and replay to the same bytes.

mod common;

use common::arena::{data_on, empty, maze};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::{DataSet, DataSources, built_in};
use steering_arena::sim::command::Command;
use steering_arena::sim::headless;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::replay::ReplayData;
use steering_arena::sim::space::Arena;
use steering_arena::sim::space::shape::Obstacle;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// A random obstacle over `size` and a margin past its walls: a circle or a rectangle, small or
/// large.
fn obstacle(rng: &mut StdRng, size: Vec2) -> Obstacle {
    let at = Vec2::new(
        rng.gen_range(-60.0..size.x + 60.0),
        rng.gen_range(-60.0..size.y + 60.0),
    );
    let extent = if rng.gen_bool(0.2) { 120.0 } else { 24.0 };
    if rng.gen_bool(0.5) {
        Obstacle::Circle {
            center: at,
            radius: rng.gen_range(1.0..extent),
        }
    } else {
        let half = Vec2::new(rng.gen_range(0.5..extent), rng.gen_range(0.5..extent));
        Obstacle::Rect {
            min: at - half,
            max: at + half,
        }
    }
}

/// `edits` random edits on `data`'s arena, each checked against a whole build.
fn edits_match_rebuilds(data: &DataSet, seed: u64, edits: usize) {
    let mut arena = Arena::from_data(&data.arena);
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut added, mut removed) = (0, 0);
    for edit in 0..edits {
        let roll = rng.gen_range(0..10);
        if roll < 6 || arena.obstacles().is_empty() {
            arena.add_obstacle(obstacle(&mut rng, arena.size()));
            added += 1;
        } else if roll < 9 {
            // The centre of one already there (from anywhere in the list): a hit unless a later
            // one covers it, which is then the one taken.
            let i = rng.gen_range(0..arena.obstacles().len());
            let at = arena.obstacles()[i].center();
            assert!(arena.remove_obstacle_at(at).is_some(), "edit {edit}");
            removed += 1;
        } else {
            let at = Vec2::new(
                rng.gen_range(0.0..arena.width),
                rng.gen_range(0.0..arena.height),
            );
            removed += usize::from(arena.remove_obstacle_at(at).is_some());
        }
        assert!(
            arena == arena.rebuilt(),
            "seed {seed}, edit {edit}: the edited arena differs from a whole build"
        );
    }
    assert!(
        added > edits / 2 && removed > edits / 4,
        "{added} added, {removed} removed"
    );
}

#[test]
fn every_edit_leaves_the_default_arena_as_a_whole_build_would() {
    edits_match_rebuilds(&built_in(), 1, 120);
}

#[test]
fn every_edit_leaves_the_maze_as_a_whole_build_would() {
    edits_match_rebuilds(&maze(), 2, 80);
}

#[test]
fn every_edit_leaves_an_odd_sized_arena_as_a_whole_build_would() {
    // Sides no whole number of grid, field or tile cells, and tiles of an odd size.
    let arena = steering_arena::data::arena::ArenaData {
        tile_size: 21.0,
        ..empty(1001.0, 579.0)
    };
    edits_match_rebuilds(&data_on(arena), 3, 120);
}

/// A record of `avoid` on the assets' data: a few ticks, then one line whose commands add a
/// thousand obstacles, more ticks, then a line removing a handful; the world after it.
fn thousand_edit_record(data: &ReplayData) -> (Vec<u8>, World) {
    let config = WorldConfig {
        mode: Mode::Avoid,
        script: Script::Circle,
        seed: 5,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data.data, config);
    world.events.push(format!("mode:{}", world.mode.name()));
    let mut out = Vec::new();
    let mut rec = Recorder::new(&mut out);
    rec.header(&world, &data.hashes).expect("to memory");
    let ticks = |world: &mut World, rec: &mut Recorder<&mut Vec<u8>>, n: usize| {
        for _ in 0..n {
            world.tick(&Input::default());
            rec.write(world, false).expect("to memory");
        }
    };
    ticks(&mut world, &mut rec, 3);
    let mut rng = StdRng::seed_from_u64(9);
    let size = world.arena.size();
    for _ in 0..1000 {
        let center = Vec2::new(rng.gen_range(0.0..size.x), rng.gen_range(0.0..size.y));
        let radius = rng.gen_range(2.0..20.0);
        world.apply(Command::AddObstacle(Obstacle::Circle { center, radius }));
    }
    ticks(&mut world, &mut rec, 3);
    for k in 0..8 {
        let at = world.arena.obstacles()[100 * k + 3].center();
        world.apply(Command::RemoveObstacle(at));
    }
    ticks(&mut world, &mut rec, 3);
    (out, world)
}

#[test]
fn a_thousand_obstacles_on_one_record_line_record_and_replay_to_the_same_bytes() {
    let data = ReplayData::load(DataSources::resolve(None, None, None)).expect("the assets");
    let (record, world) = thousand_edit_record(&data);
    let held = world.arena.obstacles().len();
    assert_eq!(held, data.data.arena.obstacles.len() + 1000 - 8);
    assert!(world.arena == world.arena.rebuilt());
    let mut again = Vec::new();
    let mut recorder = Recorder::new(&mut again);
    headless::replay("rec.jsonl", &record[..], &data, Some(&mut recorder)).expect("it replays");
    assert_eq!(
        String::from_utf8(again).expect("UTF-8"),
        String::from_utf8(record).expect("UTF-8"),
        "the replay's record differs"
    );
}
