//! A search cannot blow a tick: the chasers' searches close at most a budget of tiles a tick
//! (`SEARCH_BUDGET`), going on over the next ticks when a search needs more, and a search run in
//! slices finds exactly what it finds at once.
//!
//! - A*, Dijkstra and best-first, sliced into 1, 7 and 5,000 tiles at a time on the maze at 4-px
//!   tiles (75,000 tiles), and on no way at all: the same path, cost and tiles closed as one
//!   whole search, each slice closing no more than it was given;
//! - `pathfind` on the maze half as large again (138,240 tiles): no tick closes more than the budget, searches that need more end
//!   over several ticks and every chaser ends up with a plan;
//! - a crowd's flow field built in slices of the budget equals one built at once, tile for tile,
//!   and a crowd of 65 on the 4-px maze never closes more than the budget in a tick;
//! - on the 960-tile maze every one of 64 chasers plans again (with Dijkstra, the A* beside it)
//!   in the tick after an obstacle is added: small grids are never searched in slices.

mod common;

use common::arena::{data_on, maze};
use glam::{IVec2, Vec2};
use steering_arena::data::DataSet;
use steering_arena::data::arena::ObstacleData;
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::command::Command;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::path::{FlowField, Order, Search};
use steering_arena::sim::player::Script;
use steering_arena::sim::space::Arena;
use steering_arena::sim::space::shape::Obstacle;
use steering_arena::sim::world::{
    Input, SEARCH_BUDGET, SMALL_GRID, World, WorldConfig, search_budget,
};

/// The maze stretched `scale` times with 4-px tiles.
fn fine_maze(scale: f32) -> DataSet {
    let mut data = maze().arena;
    let s = |v: f32| v * scale;
    data.width = s(data.width);
    data.height = s(data.height);
    data.tile_size = 4.0;
    for o in &mut data.obstacles {
        if let ObstacleData::Rect { x, y, w, h } = o {
            (*x, *y, *w, *h) = (s(*x), s(*y), s(*w), s(*h));
        }
    }
    for p in data.spawns.iter_mut().chain([&mut data.player_start]) {
        *p = [s(p[0]), s(p[1])];
    }
    for p in &mut data.pickups {
        *p = [s(p[0]), s(p[1])];
    }
    data_on(data)
}

#[test]
fn a_search_in_slices_finds_what_one_whole_search_finds() {
    let arena = Arena::from_data(&fine_maze(1.0).arena);
    let tiles = &arena.tiles;
    assert!((tiles.cols * tiles.rows) as usize > SEARCH_BUDGET);
    let corner = |x: i32, y: i32| tiles.nearest_free(IVec2::new(x, y));
    let ends = [
        (corner(2, 2), corner(tiles.cols - 3, tiles.rows - 3)),
        (
            corner(tiles.cols / 2, tiles.rows / 2),
            corner(1, tiles.rows - 2),
        ),
        // Into a blocked tile: no way, found after no search at all.
        (corner(2, 2), tiles.tile_of(Vec2::new(600.0, 270.0))),
    ];
    assert!(tiles.blocked(ends[2].1));
    let (mut whole, mut sliced) = (Vec::new(), Vec::new());
    for order in Order::ALL {
        for &(from, to) in &ends {
            let mut search = Search::new();
            let cost = search.find(tiles, from, to, order, &mut whole);
            assert_eq!(
                cost.is_some(),
                !tiles.blocked(to),
                "{order:?} {from} → {to}"
            );
            let closed = search.expanded();
            for slice in [1, 7, 5_000] {
                let mut s = Search::new();
                s.start(tiles, from, to, order);
                let mut slices = 0;
                let found = loop {
                    let before = s.expanded();
                    let ended = s.advance(tiles, slice);
                    assert!(s.expanded() - before <= slice, "{order:?}: over its slice");
                    slices += 1;
                    if let Some(found) = ended {
                        break found;
                    }
                };
                let what = format!("{order:?} {from} → {to} in slices of {slice}");
                assert_eq!(found, cost.is_some(), "{what}");
                assert_eq!(s.path(&mut sliced), cost, "{what}");
                assert_eq!(sliced, whole, "{what}");
                assert_eq!(s.expanded(), closed, "{what}");
                assert!(slices >= closed / slice, "{what}: {slices} slices");
            }
        }
    }
}

fn path_world(data: &DataSet, agents: usize, order: Order) -> World {
    World::new(
        data,
        WorldConfig {
            mode: Mode::Pathfind,
            agents: Some(agents),
            script: Script::Circle,
            order,
            seed: 3,
            ..WorldConfig::default()
        },
    )
}

/// The chasers that hold a plan for the arena as it is.
fn planned(world: &World) -> usize {
    world
        .agents
        .iter()
        .filter(|a| matches!(&a.behaviour, Behaviour::Path(c) if c.planned && !c.stale))
        .count()
}

#[test]
fn no_tick_closes_more_than_the_budget_and_every_chaser_plans() {
    let data = fine_maze(1.5);
    let mut world = path_world(&data, 3, Order::Dijkstra);
    let (mut spread, mut last) = (0, 0);
    for tick in 0..90 {
        world.paths.most_closed = 0;
        world.tick(&Input::default());
        let closed = world.paths.most_closed;
        assert!(
            closed <= SEARCH_BUDGET,
            "tick {tick}: {closed} tiles closed"
        );
        // A tick that used the whole budget and ended no plan: a search spread over ticks.
        spread += usize::from(closed == SEARCH_BUDGET && world.paths.searches == last);
        last = world.paths.searches;
    }
    assert!(spread >= 4, "{spread} ticks went on with a search");
    assert!(world.paths.searches >= 3, "{} plans", world.paths.searches);
    assert_eq!(planned(&world), 3);
    assert!(world.paths.cost_ratio_max.is_some_and(|r| r == 1.0));
}

#[test]
fn on_a_small_grid_every_chaser_plans_again_in_one_tick() {
    let data = maze();
    let tiles = (Arena::from_data(&data.arena).tiles.cols
        * Arena::from_data(&data.arena).tiles.rows) as usize;
    assert!(tiles <= SMALL_GRID);
    assert_eq!(search_budget(tiles), 2 * 64 * tiles);
    let mut world = path_world(&data, 64, Order::Dijkstra);
    world.tick(&Input::default());
    assert_eq!(planned(&world), 64);
    world.apply(Command::AddObstacle(Obstacle::Circle {
        center: Vec2::new(700.0, 700.0),
        radius: 10.0,
    }));
    let searches = world.paths.searches;
    world.tick(&Input::default());
    assert_eq!(planned(&world), 64);
    assert_eq!(world.paths.searches, searches + 64);
}

#[test]
fn a_crowds_field_built_in_slices_is_the_whole_build_and_no_tick_blows_the_budget() {
    let data = fine_maze(1.0);
    let arena = Arena::from_data(&data.arena);
    let tiles = &arena.tiles;
    let goal = tiles.nearest_free(IVec2::new(100, 100));
    let mut whole = FlowField::new();
    whole.build(tiles, goal);
    let mut sliced = FlowField::new();
    sliced.begin(tiles, goal);
    let mut slices = 0;
    loop {
        let (used, built) = sliced.advance(tiles, SEARCH_BUDGET);
        assert!(used <= SEARCH_BUDGET, "{used} tiles in a slice");
        slices += 1;
        if built {
            break;
        }
        // Until it is built, the field flows as before (here: not at all).
        assert_eq!(sliced.goal(), None);
    }
    assert!(slices >= 2, "{slices} slices");
    assert_eq!(sliced.goal(), Some(goal));
    assert_eq!(sliced.expanded(), whole.expanded());
    for y in 0..tiles.rows {
        for x in 0..tiles.cols {
            let t = IVec2::new(x, y);
            assert_eq!(sliced.step(t), whole.step(t), "{t}");
            let p = tiles.center(t);
            assert_eq!(sliced.course(p), whole.course(p), "{t}");
        }
    }

    let mut world = path_world(&data, 65, Order::AStar);
    let mut built = 0;
    for tick in 0..12 {
        world.paths.most_closed = 0;
        let before = world.paths.field_builds;
        world.tick(&Input::default());
        let closed = world.paths.most_closed;
        assert!(closed <= SEARCH_BUDGET, "tick {tick}: {closed} tiles");
        built += world.paths.field_builds - before;
    }
    assert!(built >= 2, "{built} fields built in 12 ticks");
}
