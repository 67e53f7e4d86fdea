//! `pathfind` (Shift+3) in the world: chasers that plan catch a still player on the default arena
//! and on the maze, where line of sight on tiles catches nobody; a new wall between a chaser and
//! the player changes its plan on the very next tick; a crowd of 2,000 on the flow field stays
//! clear of obstacles and inside, and closes in along the field; `V` steps through the searches as
//! world commands; the summary's figures tell A* from Dijkstra from greedy best-first.

mod common;

use common::{arena, bin, world};
use glam::Vec2;
use std::collections::BTreeMap;
use steering_arena::data::built_in;
use steering_arena::sim::agent::{Agent, Behaviour};
use steering_arena::sim::behaviours::pathfind::PathChase;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::path::{self, Order};
use steering_arena::sim::player::Script;
use steering_arena::sim::space::arena::Obstacle;
use steering_arena::sim::world::{Input, World, WorldConfig};

fn config(mode: Mode, agents: usize, order: Order) -> WorldConfig {
    WorldConfig {
        mode,
        agents: Some(agents),
        script: Script::Still,
        order,
        ..WorldConfig::default()
    }
}

fn chase(a: &Agent) -> &PathChase {
    match &a.behaviour {
        Behaviour::Path(c) => c,
        other => panic!("not a pathfind chaser: {other:?}"),
    }
}

/// Ticks `world` for `seconds`; returns the catches per agent id.
fn catches_by_id(world: &mut World, seconds: f64) -> BTreeMap<u32, u32> {
    let mut by_id = BTreeMap::new();
    for _ in 0..(seconds * 60.0) as u32 {
        world.tick(&Input::default());
        for e in world.take_events() {
            if let Some(id) = e.strip_prefix("catch:") {
                *by_id.entry(id.parse().expect("an id")).or_insert(0) += 1;
            }
        }
    }
    by_id
}

#[test]
fn every_planning_chaser_catches_a_still_player_on_the_arena_and_the_maze() {
    for (name, data) in [("arena", built_in()), ("maze", arena::maze())] {
        for order in Order::ALL {
            let mut world = World::new(&data, config(Mode::Pathfind, 4, order));
            let by_id = catches_by_id(&mut world, 30.0);
            let what = format!("{name}, {order:?}: catches by chaser {by_id:?}");
            assert_eq!(
                by_id.keys().copied().collect::<Vec<_>>(),
                [0, 1, 2, 3],
                "{what}"
            );
            assert!(
                world.max_wait() <= 1.0,
                "{what}: a chaser waited {} s",
                world.max_wait()
            );
        }
    }
}

#[test]
fn on_the_maze_line_of_sight_on_tiles_catches_nobody_and_a_star_catches_seventeen_times() {
    // The issue's own observation, on the maze: Bresenham's line runs into the first wall and
    // the chaser stands behind it; the search goes round. (30 s, 4 chasers, a still player.)
    let data = arena::maze();
    let los = world::summary(&data, config(Mode::TileLos, 4, Order::AStar), 30.0);
    let a_star = world::summary(&data, config(Mode::Pathfind, 4, Order::AStar), 30.0);
    let dijkstra = world::summary(&data, config(Mode::Pathfind, 4, Order::Dijkstra), 30.0);
    let best_first = world::summary(&data, config(Mode::Pathfind, 4, Order::BestFirst), 30.0);
    assert_eq!(los.catches, 0);
    assert_eq!(a_star.catches, 17);
    // Dijkstra finds paths of the same cost (not always the same tiles): as many catches.
    assert_eq!(dijkstra.catches, 17);
    // Best-first's detours cost it catches.
    assert_eq!(best_first.catches, 10);
    for s in [&a_star, &dijkstra, &best_first] {
        assert_eq!(s.obstacle_overlaps, 0);
        assert_eq!(s.out_of_bounds, 0);
        assert!(s.max_step_ratio <= 1.0 + 1e-3);
    }
}

#[test]
fn the_summary_tells_the_searches_apart() {
    // The default arena, 20 s: the same 21 plans (a catch, a respawn, a new plan), A* closing a
    // tenth of the tiles Dijkstra closes; best-first fewer still, for paths up to 11% longer.
    let data = built_in();
    let extra = |order| world::summary(&data, config(Mode::Pathfind, 4, order), 20.0).extra;
    let a_star = extra(Order::AStar);
    let dijkstra = extra(Order::Dijkstra);
    let best_first = extra(Order::BestFirst);
    let f = |m: &serde_json::Map<String, serde_json::Value>, k: &str| m[k].as_f64().expect(k);
    assert_eq!(a_star["algorithm"], "astar");
    assert_eq!(dijkstra["algorithm"], "dijkstra");
    assert_eq!(best_first["algorithm"], "best-first");
    for m in [&a_star, &dijkstra, &best_first] {
        assert_eq!(f(m, "searches"), 21.0, "{m:?}");
        assert!(f(m, "max_wait_s") <= 1.0, "{m:?}");
    }
    assert_eq!(f(&a_star, "expansions_mean"), 35.238);
    assert_eq!(f(&dijkstra, "expansions_mean"), 400.952);
    assert_eq!(f(&best_first, "expansions_mean"), 20.143);
    assert_eq!(f(&a_star, "path_cost_ratio_max"), 1.0);
    assert_eq!(f(&dijkstra, "path_cost_ratio_max"), 1.0);
    assert_eq!(f(&best_first, "path_cost_ratio_max"), 1.1087);

    // Against a circling player every chaser plans again at each of the player's tiles: about a
    // thousand plans in 30 s, each measured against the shortest between its own two tiles.
    let circling = |order| {
        let config = WorldConfig {
            script: Script::Circle,
            ..config(Mode::Pathfind, 4, order)
        };
        world::summary(&data, config, 30.0).extra
    };
    let (a_star, dijkstra, best_first) = (
        circling(Order::AStar),
        circling(Order::Dijkstra),
        circling(Order::BestFirst),
    );
    assert_eq!(f(&a_star, "searches"), 1021.0);
    assert_eq!(f(&a_star, "path_cost_ratio_max"), 1.0);
    assert_eq!(f(&dijkstra, "path_cost_ratio_max"), 1.0);
    assert_eq!(f(&best_first, "path_cost_ratio_max"), 1.2043);
    assert!(f(&a_star, "expansions_mean") * 10.0 < f(&dijkstra, "expansions_mean"));
}

#[test]
fn a_new_wall_between_chaser_and_player_changes_the_plan_on_the_next_tick() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Pathfind, 1, Order::AStar));
    // The player stands still in the open; the chaser comes from its spawn at the top left.
    world.player.pos = Vec2::new(880.0, 400.0);
    world.player.prev_pos = world.player.pos;
    world::idle(&mut world, 30);
    let before = chase(&world.agents[0]).corners.clone();
    assert!(before.len() >= 2, "a plan: {before:?}");
    let radius = world.tuning.chaser.radius;
    let arena = &world.arena;
    assert!(
        before
            .windows(2)
            .all(|w| path::clear(arena, w[0], w[1], radius))
    );
    // A wall across the way in, just short of the player (the player steps behind it).
    let last = before[before.len() - 2];
    let toward = (world.player.pos - last).normalize();
    let c = world.player.pos - toward * 56.0;
    let half = if toward.x.abs() > toward.y.abs() {
        Vec2::new(8.0, 96.0)
    } else {
        Vec2::new(96.0, 8.0)
    };
    world.add_obstacle(Obstacle::Rect {
        min: c - half,
        max: c + half,
    });
    let arena = &world.arena;
    assert!(
        !before
            .windows(2)
            .all(|w| path::clear(arena, w[0], w[1], radius)),
        "the wall cuts the old plan"
    );
    world.tick(&Input::default());
    let a = &world.agents[0];
    assert_eq!(a.state, "plan");
    let after = &chase(a).corners;
    assert_ne!(after, &before);
    let arena = &world.arena;
    assert!(
        after
            .windows(2)
            .all(|w| path::clear(arena, w[0], w[1], radius)),
        "the new plan goes round the wall: {after:?}"
    );
    // And it still catches the player behind it.
    let by_id = catches_by_id(&mut world, 15.0);
    assert!(by_id.contains_key(&0), "no catch behind the wall");
}

#[test]
fn a_chaser_plans_again_when_the_player_changes_tile() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Pathfind, 4, Order::AStar));
    world.tick(&Input::default());
    let searches = world.paths.searches;
    assert_eq!(searches, 4, "each chaser planned on the first tick");
    world.tick(&Input::default());
    assert_eq!(world.paths.searches, 4, "nothing changed: no plan");
    world.player.pos += Vec2::new(64.0, 0.0);
    world.tick(&Input::default());
    assert_eq!(
        world.paths.searches, 8,
        "the player moved two tiles: every chaser planned"
    );
    let goal = world.path_goal();
    for a in &world.agents {
        assert_eq!(chase(a).goal, goal);
        assert_eq!(a.state, "plan");
    }
    world.tick(&Input::default());
    assert!(world.agents.iter().all(|a| a.state == "follow"));
}

#[test]
fn v_steps_through_the_searches_as_world_commands() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Pathfind, 4, Order::AStar));
    assert!(Mode::Pathfind.cycles() && !Mode::Pathfind.has_flip());
    assert_eq!(Mode::Pathfind.alternate_key(), Some('V'));
    world.tick(&Input::default());
    world.take_events();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let searches = world.paths.searches;
        world.alternate();
        seen.extend(world.take_events());
        world.tick(&Input::default());
        assert_eq!(
            world.paths.searches,
            searches + 4,
            "every chaser plans with the new search"
        );
    }
    assert_eq!(
        seen,
        [
            "algorithm:dijkstra",
            "algorithm:best-first",
            "algorithm:astar"
        ]
    );
    assert_eq!(world.paths.order, Order::AStar);
    // The flip of the other modes does nothing here; choosing the search it has already is no
    // command at all.
    world.set_flip(true);
    world.set_order(Order::AStar);
    assert!(!world.flip);
    assert!(world.take_events().is_empty());
    // The search outlives a reset and a change of mode.
    world.set_order(Order::Dijkstra);
    world.reset();
    world.set_mode(Mode::LosChase);
    world.set_mode(Mode::Pathfind);
    assert_eq!(world.paths.order, Order::Dijkstra);
}

#[test]
fn a_crowd_of_two_thousand_flows_clear_of_obstacles_and_closes_in_along_the_field() {
    let data = built_in();
    let s = world::summary(&data, config(Mode::Pathfind, 2000, Order::AStar), 20.0);
    assert_eq!(s.obstacle_overlaps, 0);
    assert_eq!(s.out_of_bounds, 0);
    assert!(!s.non_finite);
    assert_eq!(s.extra["searches"], 0, "a crowd searches no paths");
    assert_eq!(s.extra["field_builds"], 1, "a still player: one field");
    assert!(s.catches > 0);

    // Along the field the crowd closes in: over each of 15 seconds the chasers still on their
    // first run are nearer the player in all, and over the first 5 s every one of them is nearer
    // than it started but those that start in the jam forming round the player.
    let mut world = World::new(&data, config(Mode::Pathfind, 2000, Order::AStar));
    let costs = |w: &World| -> Vec<f32> {
        let tiles = &w.arena.tiles;
        w.agents
            .iter()
            .map(|a| {
                let t = tiles.nearest_free(tiles.tile_of(a.body.pos));
                w.paths
                    .field
                    .cost(t)
                    .expect("every free tile has a way to the player")
            })
            .collect()
    };
    let start = costs(&world);
    for second in 1..=15 {
        let was = costs(&world);
        world::idle(&mut world, 60);
        let now = costs(&world);
        let first_run = |i: &usize| world.agents[*i].born == 0.0;
        let sum = |c: &[f32]| {
            (0..c.len())
                .filter(first_run)
                .map(|i| f64::from(c[i]))
                .sum::<f64>()
        };
        assert!(
            sum(&now) < sum(&was) - 1.0,
            "second {second}: the crowd went from {} to {} tiles in all",
            sum(&was),
            sum(&now)
        );
        if second == 5 {
            let mut nearer = 0;
            for (i, a) in world.agents.iter().enumerate() {
                if a.born != 0.0 {
                    continue;
                }
                if now[i] < start[i] {
                    nearer += 1;
                } else {
                    assert!(
                        start[i] < JAM_TILES,
                        "chaser {} went from {} to {} tiles",
                        a.id,
                        start[i],
                        now[i]
                    );
                }
            }
            assert!(nearer > 1800, "only {nearer} chasers nearer after 5 s");
        }
    }
}

/// The jam of 2,000 bodies pressing round a still player reaches the nearest spawn points (the
/// middles of the top and bottom walls, 11.7 and 12.1 tiles along the field from the centre)
/// within seconds: a chaser that starts there can be held up by those ahead of it, waiting for
/// them to catch the player.
const JAM_TILES: f32 = 12.5;

#[test]
fn the_command_line_chooses_the_search() {
    let out = bin::run([
        "sim",
        "--mode",
        "pathfind",
        "--seconds",
        "2",
        "--algorithm",
        "best-first",
    ]);
    assert!(out.status.success());
    let v = bin::summary(&out);
    assert_eq!(v["mode"], "pathfind");
    assert_eq!(v["extra"]["algorithm"], "best-first");
    for key in [
        "searches",
        "expansions_mean",
        "path_cost_ratio_max",
        "max_wait_s",
    ] {
        assert!(v["extra"].get(key).is_some(), "missing {key}: {v}");
    }
    let out = bin::run(["sim", "--mode", "pathfind", "--algorithm", "bfs"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown algorithm \"bfs\""), "{err}");
}
