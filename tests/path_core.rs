//! The window-free core of `pathfind`: on a thousand random grids A* and Dijkstra find paths as
//! short as a plain Dijkstra written here finds, greedy best-first never shorter, none through a
//! blocked tile or across a blocked corner, and A* never closes more tiles than Dijkstra; exact
//! paths on small grids; no allocation per search once the buffers have grown; string pulling
//! keeps only the corners a body cannot cut.

mod common;

use common::arena::{self, TILE};
use common::counting::{Counting, allocations};
use glam::IVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::arena::ArenaData;
use steering_arena::sim::path::{self, FlowField, Order, Search, TileState};
use steering_arena::sim::space::arena::{Arena, Obstacle};
use steering_arena::sim::space::tiles::TileGrid;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A grid of `cols` × `rows` tiles with the listed ones blocked (a square obstacle exactly on
/// each: touching edges do not block the neighbours).
fn grid(cols: i32, rows: i32, blocked: &[IVec2]) -> TileGrid {
    TileGrid::new(
        cols as f32 * TILE,
        rows as f32 * TILE,
        TILE,
        &squares(blocked),
    )
}

fn squares(blocked: &[IVec2]) -> Vec<Obstacle> {
    blocked
        .iter()
        .map(|t| Obstacle::Rect {
            min: t.as_vec2() * TILE,
            max: (t.as_vec2() + 1.0) * TILE,
        })
        .collect()
}

/// A grid drawn as text: `#` blocked, anything else free; returns it with the tiles of `S`, `G`.
fn picture(rows: &[&str]) -> (TileGrid, IVec2, IVec2) {
    let (mut blocked, mut s, mut g) = (Vec::new(), IVec2::ZERO, IVec2::ZERO);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let t = IVec2::new(x as i32, y as i32);
            match c {
                '#' => blocked.push(t),
                'S' => s = t,
                'G' => g = t,
                _ => {}
            }
        }
    }
    (
        grid(rows[0].len() as i32, rows.len() as i32, &blocked),
        s,
        g,
    )
}

fn arena_of(rows: &[&str]) -> (Arena, IVec2, IVec2) {
    let (tiles, s, g) = picture(rows);
    let mut obstacles = Vec::new();
    for y in 0..tiles.rows {
        for x in 0..tiles.cols {
            if tiles.blocked(IVec2::new(x, y)) {
                obstacles.push(arena::tile_block(IVec2::new(x, y)));
            }
        }
    }
    let data = ArenaData {
        obstacles,
        spawns: vec![[16.0, 16.0]],
        player_start: [16.0, 16.0],
        ..arena::empty(tiles.cols as f32 * TILE, tiles.rows as f32 * TILE)
    };
    (Arena::from_data(&data), s, g)
}

/// The plain Dijkstra of the textbook, no heap and no tricks: repeatedly settle the unsettled
/// tile of least distance. Same moves as the search under test: 8-way, 1 and √2, a diagonal only
/// when both tiles beside it are free.
fn reference(tiles: &TileGrid, from: IVec2, to: IVec2) -> Option<f64> {
    if tiles.blocked(from) || tiles.blocked(to) {
        return None;
    }
    let n = (tiles.cols * tiles.rows) as usize;
    let at = |t: IVec2| (t.y * tiles.cols + t.x) as usize;
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[at(from)] = 0.0;
    loop {
        let mut best: Option<usize> = None;
        for i in 0..n {
            if !done[i] && dist[i].is_finite() && best.is_none_or(|b| dist[i] < dist[b]) {
                best = Some(i);
            }
        }
        let i = best?;
        done[i] = true;
        let t = IVec2::new(i as i32 % tiles.cols, i as i32 / tiles.cols);
        if t == to {
            return Some(dist[i]);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let d = IVec2::new(dx, dy);
                if d == IVec2::ZERO || tiles.blocked(t + d) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal
                    && (tiles.blocked(IVec2::new(t.x + dx, t.y))
                        || tiles.blocked(IVec2::new(t.x, t.y + dy)))
                {
                    continue;
                }
                let step = if diagonal {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let j = at(t + d);
                if dist[i] + step < dist[j] {
                    dist[j] = dist[i] + step;
                }
            }
        }
    }
}

/// A path from `from` to `to` of neighbouring free tiles, no diagonal past a blocked tile.
fn assert_walkable(tiles: &TileGrid, path: &[IVec2], from: IVec2, to: IVec2, what: &str) {
    assert_eq!(path.first(), Some(&from), "{what}: starts at the start");
    assert_eq!(path.last(), Some(&to), "{what}: ends at the goal");
    for &t in path {
        assert!(!tiles.blocked(t), "{what}: steps on blocked tile {t}");
    }
    for w in path.windows(2) {
        let d = w[1] - w[0];
        assert!(
            d != IVec2::ZERO && d.x.abs() <= 1 && d.y.abs() <= 1,
            "{what}: {} to {} is not one step",
            w[0],
            w[1]
        );
        if d.x != 0 && d.y != 0 {
            assert!(
                !tiles.blocked(IVec2::new(w[0].x + d.x, w[0].y))
                    && !tiles.blocked(IVec2::new(w[0].x, w[0].y + d.y)),
                "{what}: {} to {} cuts a blocked corner",
                w[0],
                w[1]
            );
        }
    }
}

#[test]
fn on_a_thousand_random_grids_a_star_and_dijkstra_are_optimal_and_best_first_never_shorter() {
    let mut rng = StdRng::seed_from_u64(28);
    let mut search = Search::new();
    let mut path = Vec::new();
    let (mut reachable, mut best_first_longer, mut a_star_fewer) = (0, 0, 0);
    for round in 0..1000 {
        let cols = rng.gen_range(2..=24);
        let rows = rng.gen_range(2..=16);
        let density = rng.gen_range(0.0..0.45);
        let mut blocked = Vec::new();
        for y in 0..rows {
            for x in 0..cols {
                if rng.gen_bool(density) {
                    blocked.push(IVec2::new(x, y));
                }
            }
        }
        let tiles = grid(cols, rows, &blocked);
        // Ends inside, now and then blocked; one in twenty outside.
        let end = |rng: &mut StdRng| {
            if rng.gen_bool(0.05) {
                IVec2::new(rng.gen_range(-1..=cols), -1)
            } else {
                IVec2::new(rng.gen_range(0..cols), rng.gen_range(0..rows))
            }
        };
        let (from, to) = (end(&mut rng), end(&mut rng));
        let truth = reference(&tiles, from, to);
        let what = format!("grid {round} ({cols}x{rows}, {from} to {to})");

        let mut expanded = [0; 3];
        let mut costs = [None; 3];
        for (k, order) in Order::ALL.into_iter().enumerate() {
            let found = search.find(&tiles, from, to, order, &mut path);
            assert_eq!(
                found.is_some(),
                truth.is_some(),
                "{what}: {order:?} and the reference disagree on reaching the goal"
            );
            match found {
                Some(c) => {
                    assert_walkable(&tiles, &path, from, to, &format!("{what} {order:?}"));
                    assert!(
                        (f64::from(c) - f64::from(path::cost(&path))).abs() < 1e-4,
                        "{what}: {order:?} reports {c}, its path costs {}",
                        path::cost(&path)
                    );
                }
                None => assert!(path.is_empty(), "{what}: no path, yet tiles written"),
            }
            expanded[k] = search.expanded();
            costs[k] = found;
        }
        let Some(truth) = truth else { continue };
        reachable += 1;
        let [a_star, dijkstra, best_first] = costs.map(|c| f64::from(c.expect("reachable")));
        assert!(
            (a_star - truth).abs() < 1e-4,
            "{what}: A* {a_star}, optimal {truth}"
        );
        assert!(
            (dijkstra - truth).abs() < 1e-4,
            "{what}: Dijkstra {dijkstra}, optimal {truth}"
        );
        assert!(
            best_first >= truth - 1e-4,
            "{what}: best-first {best_first} < optimal {truth}"
        );
        assert!(
            expanded[0] <= expanded[1],
            "{what}: A* closed {} tiles, Dijkstra {}",
            expanded[0],
            expanded[1]
        );
        best_first_longer += usize::from(best_first > truth + 1e-4);
        a_star_fewer += usize::from(expanded[0] < expanded[1]);
    }
    // The grids are varied enough to tell the orders apart, not mostly trivial.
    assert!(reachable > 450, "only {reachable} of 1,000 reachable");
    eprintln!(
        "reachable {reachable}, best-first longer {best_first_longer}, A* fewer {a_star_fewer}"
    );
    assert!(
        best_first_longer > 30,
        "best-first longer on only {best_first_longer}"
    );
    assert!(
        a_star_fewer > reachable / 2,
        "A* fewer on only {a_star_fewer} of {reachable}"
    );
}

#[test]
fn a_star_goes_round_a_wall_by_the_shortest_way_and_closes_fewer_tiles_than_dijkstra() {
    let (tiles, s, g) = picture(&[
        "..........",
        "....#.....",
        "....#.....",
        ".S..#..G..",
        "....#.....",
        "....######",
        "..........",
    ]);
    let mut search = Search::new();
    let mut path = Vec::new();
    let cost = search
        .find(&tiles, s, g, Order::AStar, &mut path)
        .expect("the way round the top is open");
    // Over the wall's top end at (4,0): two diagonals up, a straight to row 0 (a diagonal there
    // would clip the wall's corner), three straights along it past the wall, two diagonals and a
    // straight back down: 4 + 4√2, as the reference finds.
    assert!(
        (cost - (4.0 + 4.0 * std::f32::consts::SQRT_2)).abs() < 1e-4,
        "{cost}"
    );
    assert!((f64::from(cost) - reference(&tiles, s, g).expect("open")).abs() < 1e-4);
    assert_walkable(&tiles, &path, s, g, "round the wall");
    assert!(
        path.iter().any(|t| t.y == 0 && t.x == 4),
        "crosses above the wall: {path:?}"
    );
    let a_star = search.expanded();
    assert_eq!(search.state(g), TileState::Closed);
    search.find(&tiles, s, g, Order::Dijkstra, &mut path);
    let dijkstra = search.expanded();
    // A* closes 26 tiles; Dijkstra 48 of the grid's 61 free ones.
    assert_eq!((a_star, dijkstra), (26, 48));
}

#[test]
fn straight_runs_stay_straight() {
    // On open ground the straightness tie-break keeps the path on the line between the ends
    // (Bresenham-like), not diagonals first and a straight run after.
    let (tiles, s, g) = picture(&["S.........", "..........", ".........G"]);
    let mut search = Search::new();
    let mut path = Vec::new();
    search.find(&tiles, s, g, Order::AStar, &mut path);
    let expected: Vec<IVec2> = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 2),
        (8, 2),
        (9, 2),
    ]
    .iter()
    .map(|&(x, y)| IVec2::new(x, y))
    .collect();
    assert_eq!(path, expected);
    // A* on open ground closes only the tiles of its own path.
    assert_eq!(search.expanded(), path.len());
}

#[test]
fn no_squeezing_past_a_corner_and_none_between_two() {
    let (tiles, s, g) = picture(&["S#", ".G"]);
    let mut search = Search::new();
    let mut path = Vec::new();
    let cost = search.find(&tiles, s, g, Order::AStar, &mut path);
    assert_eq!(path, [IVec2::new(0, 0), IVec2::new(0, 1), IVec2::new(1, 1)]);
    assert_eq!(cost, Some(2.0));
    let (tiles, s, g) = picture(&["S#", "#G"]);
    assert_eq!(search.find(&tiles, s, g, Order::AStar, &mut path), None);
    assert!(path.is_empty());
}

#[test]
fn ends_blocked_or_outside_have_no_path() {
    let (tiles, s, _) = picture(&["S.#", "..."]);
    let mut search = Search::new();
    let mut path = vec![IVec2::ONE];
    for to in [
        IVec2::new(2, 0),
        IVec2::new(-1, 0),
        IVec2::new(3, 1),
        IVec2::new(0, 9),
    ] {
        for order in Order::ALL {
            assert_eq!(
                search.find(&tiles, s, to, order, &mut path),
                None,
                "{to} {order:?}"
            );
            assert!(path.is_empty());
            assert_eq!(
                search.find(&tiles, to, s, order, &mut path),
                None,
                "{to} {order:?}"
            );
        }
    }
    assert_eq!(
        search.find(&tiles, s, s, Order::AStar, &mut path),
        Some(0.0)
    );
    assert_eq!(path, [s]);
}

#[test]
fn best_first_takes_the_bait_of_a_dead_end() {
    // The goal lies straight ahead behind a cup open towards the start; greedy best-first runs
    // into the cup, A* weighs what it has walked and goes round.
    let (tiles, s, g) = picture(&[
        "............",
        "......#.....",
        "......#.....",
        "S.....#...G.",
        "......#.....",
        "...####.....",
        "............",
    ]);
    let mut search = Search::new();
    let mut path = Vec::new();
    let a_star = search
        .find(&tiles, s, g, Order::AStar, &mut path)
        .expect("open");
    let best_first = search
        .find(&tiles, s, g, Order::BestFirst, &mut path)
        .expect("open");
    let truth = reference(&tiles, s, g).expect("open") as f32;
    assert!((a_star - truth).abs() < 1e-4);
    assert!(
        best_first > a_star + 0.5,
        "best-first {best_first}, A* {a_star}"
    );
}

#[test]
fn searches_allocate_nothing_once_grown() {
    let mut rng = StdRng::seed_from_u64(7);
    let blocked: Vec<IVec2> = (0..200)
        .map(|_| IVec2::new(rng.gen_range(0..40), rng.gen_range(0..24)))
        .collect();
    let tiles = grid(40, 24, &blocked);
    let mut search = Search::new();
    let mut path = Vec::with_capacity(40 * 24);
    let ends: Vec<(IVec2, IVec2)> = (0..200)
        .map(|_| {
            let mut t =
                || tiles.nearest_free(IVec2::new(rng.gen_range(0..40), rng.gen_range(0..24)));
            (t(), t())
        })
        .collect();
    // The first search sizes the buffers to the grid; the frontier never holds a tile twice, so
    // no later search needs more.
    search.find(&tiles, ends[0].0, ends[0].1, Order::AStar, &mut path);
    let before = allocations();
    for &(a, b) in &ends {
        for order in Order::ALL {
            search.find(&tiles, a, b, order, &mut path);
        }
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn string_pulling_keeps_only_the_corners_a_body_cannot_cut() {
    let (arena, s, g) = arena_of(&[
        "..........",
        "..........",
        ".S..#..G..",
        "....#.....",
        "....#.....",
        "..........",
    ]);
    let mut search = Search::new();
    let mut tiles_path = Vec::new();
    search
        .find(&arena.tiles, s, g, Order::AStar, &mut tiles_path)
        .expect("open");
    let mut corners = Vec::new();
    path::smooth(&arena, &tiles_path, 10.0, &mut corners);
    let c = |x: i32, y: i32| arena.tiles.center(IVec2::new(x, y));
    assert_eq!(corners.first(), Some(&c(s.x, s.y)));
    assert_eq!(corners.last(), Some(&c(g.x, g.y)));
    // Over the wall's top end: the two corners either side of it, in row 1, the rest cut (one
    // corner straight above the wall would leave the body a tenth of a pixel off the wall's
    // corner, and the sweep inflates a rectangle as a square).
    assert_eq!(
        corners[1..3],
        [c(3, 1), c(5, 1)],
        "{corners:?} from {tiles_path:?}"
    );
    assert_eq!(corners.len(), 4, "{corners:?} from {tiles_path:?}");
    for w in corners.windows(2) {
        assert!(path::clear(&arena, w[0], w[1], 10.0), "{w:?} is blocked");
    }
    // Nothing in the way: start and end only.
    let (arena, s, g) = arena_of(&["S.........", "..........", ".........G"]);
    search.find(&arena.tiles, s, g, Order::AStar, &mut tiles_path);
    path::smooth(&arena, &tiles_path, 10.0, &mut corners);
    assert_eq!(corners, [c(0, 0), c(9, 2)]);
    // A path of one tile is one point; none is none.
    path::smooth(&arena, &[s], 10.0, &mut corners);
    assert_eq!(corners, [c(0, 0)]);
    path::smooth(&arena, &[], 10.0, &mut corners);
    assert!(corners.is_empty());
}

#[test]
fn smoothed_paths_on_random_arenas_never_touch_an_obstacle() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut search = Search::new();
    let (mut tiles_path, mut corners) = (Vec::new(), Vec::new());
    let mut shortened = 0;
    for _ in 0..100 {
        let rows: Vec<String> = (0..12)
            .map(|_| {
                (0..20)
                    .map(|_| if rng.gen_bool(0.2) { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (arena, _, _) = arena_of(&rows);
        let mut pick = || {
            arena
                .tiles
                .nearest_free(IVec2::new(rng.gen_range(0..20), rng.gen_range(0..12)))
        };
        let (a, b) = (pick(), pick());
        if search
            .find(&arena.tiles, a, b, Order::AStar, &mut tiles_path)
            .is_none()
        {
            continue;
        }
        path::smooth(&arena, &tiles_path, 10.0, &mut corners);
        assert!(corners.len() <= tiles_path.len());
        for w in corners.windows(2) {
            assert!(path::clear(&arena, w[0], w[1], 10.0), "{w:?} on {rows:?}");
        }
        let length: f32 = corners.windows(2).map(|w| w[0].distance(w[1])).sum();
        let raw: f32 = tiles_path
            .windows(2)
            .map(|w| arena.tiles.center(w[0]).distance(arena.tiles.center(w[1])))
            .sum();
        assert!(
            length <= raw + 1e-3,
            "smoothing made it longer: {length} > {raw}"
        );
        shortened += usize::from(length < raw - 1.0);
    }
    assert!(shortened > 30, "only {shortened} paths shortened");
}

#[test]
fn a_flow_field_leads_every_tile_down_a_shortest_path_to_the_goal() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut field = FlowField::new();
    let mut walked = Vec::new();
    let mut checked = 0;
    for round in 0..60 {
        let (cols, rows) = (rng.gen_range(3..=16), rng.gen_range(3..=12));
        let blocked: Vec<IVec2> = (0..cols * rows / 4)
            .map(|_| IVec2::new(rng.gen_range(0..cols), rng.gen_range(0..rows)))
            .collect();
        let tiles = grid(cols, rows, &blocked);
        let goal = tiles.nearest_free(IVec2::new(rng.gen_range(0..cols), rng.gen_range(0..rows)));
        field.build(&tiles, goal);
        assert_eq!(field.goal(), Some(goal));
        assert_eq!(field.step(goal), None, "the goal is where the flow ends");
        for y in 0..rows {
            for x in 0..cols {
                let t = IVec2::new(x, y);
                let truth = reference(&tiles, t, goal);
                if tiles.blocked(t) {
                    assert_eq!(field.cost(t), None);
                    // A blocked tile beside a free one that leads on steps out onto it.
                    if let Some(n) = field.step(t) {
                        assert!(!tiles.blocked(n) && (n - t).abs().max_element() == 1);
                    }
                    continue;
                }
                let Some(truth) = truth else {
                    assert_eq!(
                        field.cost(t),
                        None,
                        "round {round}: {t} cannot reach {goal}"
                    );
                    assert_eq!(field.step(t), None);
                    continue;
                };
                let cost = f64::from(field.cost(t).expect("reachable"));
                assert!(
                    (cost - truth).abs() < 1e-4,
                    "round {round}: {t}: {cost} vs {truth}"
                );
                // Following the steps walks a shortest path.
                walked.clear();
                walked.push(t);
                let mut at = t;
                while let Some(n) = field.step(at) {
                    walked.push(n);
                    at = n;
                    assert!(walked.len() <= (cols * rows) as usize, "a loop from {t}");
                }
                assert_walkable(&tiles, &walked, t, goal, &format!("round {round} from {t}"));
                assert!((f64::from(path::cost(&walked)) - truth).abs() < 1e-4);
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "only {checked} tiles checked");
    // A goal on a blocked tile or outside: no field.
    let tiles = grid(3, 3, &[IVec2::ONE]);
    field.build(&tiles, IVec2::ONE);
    assert_eq!(field.goal(), None);
    assert_eq!(field.step(IVec2::ZERO), None);
    field.build(&tiles, IVec2::new(5, 0));
    assert_eq!(field.cost(IVec2::ZERO), None);
}

#[test]
fn a_flow_field_rebuilds_without_allocating() {
    let tiles = grid(40, 24, &[IVec2::new(3, 3), IVec2::new(20, 10)]);
    let mut field = FlowField::new();
    field.build(&tiles, IVec2::new(1, 1));
    let before = allocations();
    for x in 0..40 {
        field.build(&tiles, IVec2::new(x, 12));
    }
    assert_eq!(allocations() - before, 0);
    assert_eq!(field.expanded(), 40 * 24 - 2);
}
