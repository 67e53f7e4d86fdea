//! The chase family: tile chase walks diagonal-then-straight and catches after exactly
//! the Chebyshev distance in steps; tile line-of-sight walks Bresenham's line; intercept catches
//! sooner than line-of-sight, and catches a faster crossing prey that line-of-sight never does;
//! degenerate intercepts stay finite; and every reversed (`E`) mode runs away from the player.

mod common;

use common::arena::{TILE, tile_block};
use common::world;
use glam::{IVec2, Vec2};
use steering_arena::data::DataSet;
use steering_arena::data::arena::{ArenaData, ObstacleData};
use steering_arena::data::built_in;
use steering_arena::data::tuning::VehicleTuning;
use steering_arena::sim::behaviours::intercept::{self, Prediction};
use steering_arena::sim::behaviours::seek::seek;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::tiles::{bresenham_line, bresenham_nth};
use steering_arena::sim::vehicle::Vehicle;
use steering_arena::sim::world::{Input, World, WorldConfig};

const DT: f32 = 1.0 / 60.0;
/// The player's tile in the set-up scenarios; its centre is (656, 400).
const PLAYER_TILE: IVec2 = IVec2::new(20, 12);

fn t(x: i32, y: i32) -> IVec2 {
    IVec2::new(x, y)
}

/// A tile written as a pair, for hand-written lists.
type Tile = (i32, i32);

fn tiles(list: &[Tile]) -> Vec<IVec2> {
    list.iter().map(|&(x, y)| t(x, y)).collect()
}

fn centre(tile: IVec2) -> Vec2 {
    (tile.as_vec2() + 0.5) * TILE
}

/// The built-in tuning on a 1280x768 arena of 32 px tiles holding only `obstacles`, the player
/// starting at `player_start`.
fn open_arena(player_start: Vec2, obstacles: Vec<ObstacleData>) -> DataSet {
    common::arena::data_on(ArenaData {
        obstacles,
        spawns: vec![[64.0, 64.0], [1216.0, 704.0]],
        player_start: player_start.to_array(),
        ..common::arena::empty(1280.0, 768.0)
    })
}

/// One agent of `mode` standing still at `pos`, a still player on `PLAYER_TILE`'s centre.
fn one_agent(mode: Mode, flip: bool, pos: Vec2, obstacles: Vec<ObstacleData>) -> World {
    world::one_agent(
        &open_arena(centre(PLAYER_TILE), obstacles),
        WorldConfig {
            mode,
            flip,
            script: Script::Still,
            ..WorldConfig::default()
        },
        pos,
        Vec2::ZERO,
    )
}

/// Tick until the first catch (at most `max_ticks`): the tiles agent 0 stood on, consecutive
/// repeats removed, and the tick of the catch. A tile agent is caught only on the player's tile
/// (a neighbouring centre is 32 px away, beyond the 22 px reach), and the catch respawns it
/// before it can be read, so that tile closes the list.
fn walk_to_catch(world: &mut World, max_ticks: u64) -> (Vec<IVec2>, Option<u64>) {
    let mut walked = vec![world.agents[0].tile().expect("a tile agent")];
    while world.tick < max_ticks {
        world.tick(&Input::default());
        if world.score.catches > 0 {
            walked.push(world.arena.tiles.tile_of(world.player.pos));
            return (walked, Some(world.tick));
        }
        let tile = world.agents[0].tile().expect("a tile agent");
        if walked.last() != Some(&tile) {
            walked.push(tile);
        }
    }
    (walked, None)
}

fn chebyshev(a: IVec2, b: IVec2) -> i32 {
    (a - b).abs().max_element()
}

/// Ticks per tile step at the built-in rate (5 steps/s at 60 Hz).
fn ticks_per_step() -> u64 {
    let rate = built_in().tuning.tile.steps_per_second;
    (60.0 / rate).round() as u64
}

// ---------------------------------------------------------------------------------------------
// Tile chase

#[test]
fn tile_chase_catches_a_still_player_after_exactly_the_chebyshev_distance_in_steps() {
    let start = t(10, 5);
    let mut world = one_agent(Mode::TileChase, false, centre(start), vec![]);
    let (walked, catch_tick) = walk_to_catch(&mut world, 600);

    // Diagonal until the rows match (7 steps), then straight along the row (3 steps).
    let expected = tiles(&[
        (10, 5),
        (11, 6),
        (12, 7),
        (13, 8),
        (14, 9),
        (15, 10),
        (16, 11),
        (17, 12),
        (18, 12),
        (19, 12),
        (20, 12),
    ]);
    assert_eq!(walked, expected);
    let steps = chebyshev(start, PLAYER_TILE);
    assert_eq!(steps, 10);
    assert_eq!(walked.len() as i32 - 1, steps);

    let rate = f64::from(world.tuning.tile.steps_per_second);
    assert_eq!(rate, 5.0);
    let expected_t = f64::from(steps) / rate;
    let first = world.score.first_catch_t.expect("caught");
    assert!(
        (first - expected_t).abs() <= 1.0 / 60.0 + 1e-9,
        "first catch at {first} s, expected {expected_t} s (10 steps at 5 steps/s)"
    );
    assert_eq!(catch_tick, Some(steps as u64 * ticks_per_step()));
    assert_eq!(world.score.catches, 1);
}

#[test]
fn tile_chase_from_every_side_takes_the_chebyshev_distance_in_steps() {
    // Starts in all eight directions and at uneven offsets, near and far.
    for start in [
        t(0, 0),
        t(39, 23),
        t(20, 0),
        t(0, 12),
        t(25, 14),
        t(17, 20),
        t(33, 2),
        t(19, 11),
    ] {
        let mut world = one_agent(Mode::TileChase, false, centre(start), vec![]);
        let (walked, catch_tick) = walk_to_catch(&mut world, 3000);
        let steps = chebyshev(start, PLAYER_TILE) as u64;
        assert_eq!(
            catch_tick,
            Some(steps * ticks_per_step()),
            "from {start}: walked {walked:?}"
        );
        assert_eq!(walked.len() as u64 - 1, steps, "from {start}: {walked:?}");
        // Every step is one tile in x and y at most, and never away from the player on an axis.
        for w in walked.windows(2) {
            let d = w[1] - w[0];
            assert!(d.abs().max_element() == 1, "from {start}: {w:?}");
            let towards = (PLAYER_TILE - w[0]).signum();
            assert!(
                (d.x == 0 || d.x == towards.x) && (d.y == 0 || d.y == towards.y),
                "from {start}: step {w:?} is not toward {PLAYER_TILE}"
            );
        }
    }
}

#[test]
fn tile_chase_takes_the_single_axis_step_when_the_diagonal_is_blocked() {
    // (12, 7) lies on the diagonal from (10, 5); from (11, 6) the chaser steps along x to (12, 6)
    // and resumes the diagonal, which now meets the player's row one tile later.
    let start = t(10, 5);
    let mut world = one_agent(
        Mode::TileChase,
        false,
        centre(start),
        vec![tile_block(t(12, 7))],
    );
    assert!(world.arena.tiles.blocked(t(12, 7)));
    assert!(!world.arena.tiles.blocked(t(12, 6)));
    let (walked, catch_tick) = walk_to_catch(&mut world, 600);
    let expected = tiles(&[
        (10, 5),
        (11, 6),
        (12, 6),
        (13, 7),
        (14, 8),
        (15, 9),
        (16, 10),
        (17, 11),
        (18, 12),
        (19, 12),
        (20, 12),
    ]);
    assert_eq!(walked, expected);
    // x is the long axis, so the detour costs no step.
    assert_eq!(catch_tick, Some(10 * ticks_per_step()));
}

#[test]
fn tile_chase_takes_the_y_step_when_the_diagonal_and_the_x_step_are_blocked() {
    // A two-tile wall at x = 12 (rows 6 and 7): from (11, 6) both the diagonal (12, 7) and the
    // x step (12, 6) are blocked, so the chaser steps down to (11, 7); from there the diagonal to
    // (12, 8) squeezes past one blocked corner only, which is allowed.
    let start = t(10, 5);
    let wall = ObstacleData::Rect {
        x: 12.0 * TILE,
        y: 6.0 * TILE,
        w: TILE,
        h: 2.0 * TILE,
    };
    let mut world = one_agent(Mode::TileChase, false, centre(start), vec![wall]);
    let (walked, catch_tick) = walk_to_catch(&mut world, 600);
    let expected = tiles(&[
        (10, 5),
        (11, 6),
        (11, 7),
        (12, 8),
        (13, 9),
        (14, 10),
        (15, 11),
        (16, 12),
        (17, 12),
        (18, 12),
        (19, 12),
        (20, 12),
    ]);
    assert_eq!(walked, expected);
    // The y step gained nothing along x, the long axis: one step more than the Chebyshev 10.
    assert_eq!(catch_tick, Some(11 * ticks_per_step()));
}

// ---------------------------------------------------------------------------------------------
// Tile line-of-sight

#[test]
fn bresenham_line_matches_hand_drawn_lines() {
    let cases: &[(Tile, Tile, &[Tile])] = &[
        // Shallow: y = round(3x / 7).
        (
            (0, 0),
            (7, 3),
            &[
                (0, 0),
                (1, 0),
                (2, 1),
                (3, 1),
                (4, 2),
                (5, 2),
                (6, 3),
                (7, 3),
            ],
        ),
        // Steep: x = round(y / 3).
        (
            (0, 0),
            (2, 6),
            &[(0, 0), (0, 1), (1, 2), (1, 3), (1, 4), (2, 5), (2, 6)],
        ),
        // Both axes negative.
        (
            (5, 5),
            (0, 2),
            &[(5, 5), (4, 4), (3, 4), (2, 3), (1, 3), (0, 2)],
        ),
        // x negative, y positive, steep; the tie at y = 2 (x offset 1.5) keeps x.
        ((3, 0), (0, 4), &[(3, 0), (2, 1), (2, 2), (1, 3), (0, 4)]),
        // Exact diagonal, y negative.
        ((0, 0), (3, -3), &[(0, 0), (1, -1), (2, -2), (3, -3)]),
        // Horizontal, both ways.
        ((2, 3), (6, 3), &[(2, 3), (3, 3), (4, 3), (5, 3), (6, 3)]),
        ((6, 3), (3, 3), &[(6, 3), (5, 3), (4, 3), (3, 3)]),
        // Vertical, both ways.
        (
            (4, 6),
            (4, 1),
            &[(4, 6), (4, 5), (4, 4), (4, 3), (4, 2), (4, 1)],
        ),
        ((4, 1), (4, 3), &[(4, 1), (4, 2), (4, 3)]),
        // A single tile.
        ((3, 3), (3, 3), &[(3, 3)]),
        // Neighbours.
        ((3, 3), (4, 2), &[(3, 3), (4, 2)]),
    ];
    for &(from, to, expected) in cases {
        let (from, to) = (t(from.0, from.1), t(to.0, to.1));
        let line = bresenham_line(from, to);
        assert_eq!(line, tiles(expected), "{from} -> {to}");
        // The nth tile agrees with the list, and past the end it is the last tile.
        for (n, tile) in line.iter().enumerate() {
            assert_eq!(
                bresenham_nth(from, to, n as u32),
                *tile,
                "{from} -> {to} #{n}"
            );
        }
        assert_eq!(bresenham_nth(from, to, line.len() as u32 + 3), to);
    }
}

#[test]
fn bresenham_line_has_one_tile_per_step_along_the_major_axis() {
    for (from, to) in [
        (t(0, 0), t(17, 5)),
        (t(-3, 8), t(4, -9)),
        (t(39, 23), t(0, 0)),
        (t(10, 10), t(10, -10)),
    ] {
        let line = bresenham_line(from, to);
        assert_eq!(line.len() as i32, chebyshev(from, to) + 1, "{from} -> {to}");
        assert_eq!(line.first(), Some(&from));
        assert_eq!(line.last(), Some(&to));
        for w in line.windows(2) {
            assert_eq!(chebyshev(w[0], w[1]), 1, "{from} -> {to}: {w:?}");
        }
    }
}

#[test]
fn tile_los_walks_the_bresenham_line_to_a_still_player() {
    // The line (10, 5) -> (20, 12), by hand: y offset = round(0.7 i), the tie at i = 5 keeping y.
    let start = t(10, 5);
    let by_hand = tiles(&[
        (10, 5),
        (11, 6),
        (12, 6),
        (13, 7),
        (14, 8),
        (15, 8),
        (16, 9),
        (17, 10),
        (18, 11),
        (19, 11),
        (20, 12),
    ]);
    assert_eq!(bresenham_line(start, PLAYER_TILE), by_hand);
    let mut world = one_agent(Mode::TileLos, false, centre(start), vec![]);
    let (walked, catch_tick) = walk_to_catch(&mut world, 600);
    assert_eq!(walked, by_hand);
    assert_eq!(catch_tick, Some(10 * ticks_per_step()));

    // Steep, negative and axis-aligned walks, each equal to its Bresenham line.
    for start in [t(17, 2), t(23, 22), t(35, 20), t(4, 12), t(20, 1), t(39, 0)] {
        let mut world = one_agent(Mode::TileLos, false, centre(start), vec![]);
        let (walked, catch_tick) = walk_to_catch(&mut world, 3000);
        assert_eq!(walked, bresenham_line(start, PLAYER_TILE), "from {start}");
        let steps = chebyshev(start, PLAYER_TILE) as u64;
        assert_eq!(catch_tick, Some(steps * ticks_per_step()), "from {start}");
    }
}

#[test]
fn tile_los_steers_round_a_blocked_tile_with_a_tile_chase_step_and_redraws() {
    // (13, 7) lies on the line (10, 5) -> (20, 12). At (12, 6) the next tile is blocked: the
    // chaser takes a tile-chase step (diagonal (13, 7) blocked, so x: (13, 6)), says `blocked`,
    // and walks the new line (13, 6) -> (20, 12): 10 steps in all, as the x step lost nothing
    // along x, the long axis.
    let start = t(10, 5);
    let mut world = one_agent(
        Mode::TileLos,
        false,
        centre(start),
        vec![tile_block(t(13, 7))],
    );
    let mut steps: Vec<(IVec2, &str)> = Vec::new();
    let mut last = start;
    while world.score.catches == 0 && world.tick < 600 {
        world.tick(&Input::default());
        let a = &world.agents[0];
        if world.score.catches == 0 && a.tile() != Some(last) {
            last = a.tile().expect("a tile agent");
            steps.push((last, a.state));
        }
    }
    let expected: Vec<(IVec2, &str)> = vec![
        (t(11, 6), "line"),
        (t(12, 6), "line"),
        (t(13, 6), "blocked"),
        (t(14, 7), "line"),
        (t(15, 8), "line"),
        (t(16, 9), "line"),
        (t(17, 9), "line"),
        (t(18, 10), "line"),
        (t(19, 11), "line"),
    ];
    assert_eq!(steps, expected);
    // The new line by hand: y offset = round(6i / 7).
    let redrawn = tiles(&[
        (13, 6),
        (14, 7),
        (15, 8),
        (16, 9),
        (17, 9),
        (18, 10),
        (19, 11),
        (20, 12),
    ]);
    assert_eq!(bresenham_line(t(13, 6), PLAYER_TILE), redrawn);
    assert_eq!(world.tick, 10 * ticks_per_step(), "caught on the 10th step");
    assert_eq!(world.score.catches, 1);
}

#[test]
fn tile_los_waits_when_the_line_and_every_tile_step_are_blocked() {
    // The chaser at (10, 12), the player at (20, 12): a wall at x = 11 over rows 11..=13 blocks
    // the line's next tile and all three tile-chase steps, so it waits, saying `wait`.
    let start = t(10, 12);
    let wall = ObstacleData::Rect {
        x: 11.0 * TILE,
        y: 11.0 * TILE,
        w: TILE,
        h: 3.0 * TILE,
    };
    let mut world = one_agent(Mode::TileLos, false, centre(start), vec![wall]);
    for _ in 0..5 * ticks_per_step() {
        world.tick(&Input::default());
        assert_eq!(world.agents[0].tile(), Some(start));
    }
    assert_eq!(world.agents[0].state, "wait");
    assert_eq!(world.score.catches, 0);
}

// ---------------------------------------------------------------------------------------------
// Intercept

fn first_catch(mode: Mode, seed: u64) -> f64 {
    let summary = world::summary(
        &built_in(),
        WorldConfig {
            mode,
            seed,
            script: Script::Line,
            ..WorldConfig::default()
        },
        60.0,
    );
    assert!(!summary.non_finite, "{mode} seed {seed}");
    summary.first_catch_s.unwrap_or(60.0)
}

#[test]
fn intercept_catches_a_line_player_sooner_than_line_of_sight() {
    let seeds = 1..=5u64;
    let los: Vec<f64> = seeds
        .clone()
        .map(|s| first_catch(Mode::LosChase, s))
        .collect();
    let icp: Vec<f64> = seeds
        .clone()
        .map(|s| first_catch(Mode::Intercept, s))
        .collect();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (los_mean, icp_mean) = (mean(&los), mean(&icp));
    let report = format!(
        "first_catch_s per seed 1..=5: los-chase {los:?} (mean {los_mean:.3}), \
         intercept {icp:?} (mean {icp_mean:.3}), ratio {:.3}",
        icp_mean / los_mean
    );
    println!("{report}");
    assert!(icp_mean <= 0.85 * los_mean, "{report}");
}

/// The chaser tuning's shape with a top speed of 150 px/s.
fn slow_predator() -> VehicleTuning {
    VehicleTuning {
        max_speed: 150.0,
        ..built_in().tuning.chaser
    }
}

/// Crossing courses: the predator starts at the origin already running at its top speed along
/// +y; the prey starts at `prey_start` and runs along +x at 200 px/s, across the predator's
/// course. Returns the time of the catch (centres closer than 22 px, the two radii) and the
/// closest approach within `seconds`.
fn crossing(use_intercept: bool, prey_start: Vec2, seconds: f32) -> (Option<f32>, f32) {
    let p = slow_predator();
    let max_time = built_in().tuning.intercept.max_prediction_time;
    let mut predator = Vehicle::new(Vec2::ZERO, Vec2::Y);
    predator.vel = Vec2::Y * p.max_speed;
    let mut prey = prey_start;
    let prey_vel = Vec2::new(200.0, 0.0);
    let mut closest = predator.pos.distance(prey);
    let ticks = (seconds / DT).round() as u32;
    for i in 1..=ticks {
        // The world's order: the prey moves, then the predator reacts to where it now is.
        prey += prey_vel * DT;
        let aim = if use_intercept {
            intercept::predict(predator.pos, predator.vel, prey, prey_vel, max_time).aim
        } else {
            prey
        };
        let force = seek(&predator, aim, p.max_speed);
        predator.apply(force, &p, DT);
        assert!(predator.speed() <= p.max_speed + 1e-3);
        let d = predator.pos.distance(prey);
        closest = closest.min(d);
        if d < 22.0 {
            return (Some(i as f32 * DT), closest);
        }
    }
    (None, closest)
}

#[test]
fn intercept_catches_a_faster_crossing_prey_that_line_of_sight_never_reaches() {
    // The prey starts 450 px to the left and 300 px ahead: it would cross the predator's course
    // at t = 2.25 s, a quarter of a second after the predator passes y = 300.
    let start = Vec2::new(-450.0, 300.0);
    let (icp_catch, icp_closest) = crossing(true, start, 8.0);
    let (los_catch, los_closest) = crossing(false, start, 8.0);
    println!(
        "crossing from {start}: intercept catch {icp_catch:?} s (closest {icp_closest:.1} px), \
         line-of-sight catch {los_catch:?} (closest {los_closest:.1} px)"
    );
    // Measured: caught at 2.00 s; line-of-sight falls in behind and gets no closer than 85 px.
    let t = icp_catch.expect("intercept catches the crossing prey");
    assert!((t - 2.0).abs() <= 2.5 * DT, "intercept caught at {t} s");
    assert_eq!(los_catch, None, "line-of-sight never catches");
    assert!(
        los_closest >= 80.0,
        "line-of-sight came within {los_closest} px"
    );

    // Not a lucky start: 25-50 px either way along and across the prey's course, the same.
    for offset in [
        Vec2::new(-50.0, 0.0),
        Vec2::new(50.0, 0.0),
        Vec2::new(0.0, -25.0),
        Vec2::new(0.0, 25.0),
    ] {
        let start = start + offset;
        let (icp_catch, _) = crossing(true, start, 8.0);
        let (los_catch, los_closest) = crossing(false, start, 8.0);
        assert!(
            icp_catch.is_some_and(|t| t < 2.5),
            "from {start}: {icp_catch:?}"
        );
        assert_eq!(los_catch, None, "from {start}: line-of-sight caught");
        assert!(
            los_closest >= 50.0,
            "from {start}: line-of-sight within {los_closest} px"
        );
    }
}

fn assert_finite(p: &Prediction, what: &str) {
    assert!(p.aim.is_finite(), "{what}: aim {:?}", p.aim);
    if let Some(tc) = p.tc {
        assert!(tc.is_finite() && tc >= 0.0, "{what}: tc {tc}");
    }
}

#[test]
fn intercept_prediction_is_finite_for_degenerate_inputs() {
    let max_time = built_in().tuning.intercept.max_prediction_time;
    let prey = Vec2::new(600.0, 300.0);

    // Zero closing speed: equal velocities. No prediction: plain line-of-sight at the prey.
    let v = Vec2::new(120.0, -50.0);
    let p = intercept::predict(Vec2::new(100.0, 100.0), v, prey, v, max_time);
    assert_finite(&p, "equal velocities");
    assert_eq!(p.tc, None);
    assert_eq!(p.aim, prey);
    assert_eq!(p.state(), "los-fallback");

    // Both standing still: zero closing speed too.
    let p = intercept::predict(
        Vec2::new(100.0, 100.0),
        Vec2::ZERO,
        prey,
        Vec2::ZERO,
        max_time,
    );
    assert_eq!((p.aim, p.tc, p.state()), (prey, None, "los-fallback"));

    // A still prey and a moving predator: Tc = |Sr| / |Vr| = 500 / 100 = 5 s, capped at 2 s;
    // the aim point is the prey itself (it is not going anywhere).
    let p = intercept::predict(
        prey - Vec2::new(300.0, 400.0),
        Vec2::new(0.0, 100.0),
        prey,
        Vec2::ZERO,
        max_time,
    );
    assert_finite(&p, "still prey");
    assert_eq!(p.aim, prey);
    assert_eq!(p.tc, Some(max_time));
    assert_eq!(p.state(), "predict");
    let p = intercept::predict(
        prey - Vec2::new(30.0, 40.0),
        Vec2::new(0.0, 100.0),
        prey,
        Vec2::ZERO,
        max_time,
    );
    assert_eq!((p.aim, p.tc), (prey, Some(0.5)));

    // Coincident predator and prey, moving or not.
    for (pred_vel, prey_vel) in [
        (Vec2::ZERO, Vec2::ZERO),
        (Vec2::new(100.0, 0.0), Vec2::ZERO),
        (Vec2::ZERO, Vec2::new(0.0, 200.0)),
        (Vec2::new(100.0, 0.0), Vec2::new(0.0, 200.0)),
        (Vec2::new(100.0, 0.0), Vec2::new(100.0, 0.0)),
    ] {
        let p = intercept::predict(prey, pred_vel, prey, prey_vel, max_time);
        assert_finite(&p, "coincident");
        assert_eq!(p.aim, prey, "coincident {pred_vel} {prey_vel}");
        assert!(p.tc.is_none_or(|tc| tc == 0.0), "coincident: {p:?}");
    }

    // The predator ahead of the prey (the prey runs straight at it): line-of-sight.
    let p = intercept::predict(
        prey + Vec2::new(200.0, 0.0),
        Vec2::ZERO,
        prey,
        Vec2::new(150.0, 0.0),
        max_time,
    );
    assert_eq!((p.aim, p.tc, p.state()), (prey, None, "los-fallback"));

    // Huge and zero prediction caps.
    let p = intercept::predict(Vec2::ZERO, Vec2::ZERO, prey, Vec2::new(0.0, 1e30), 1e30);
    assert_finite(&p, "huge prey speed");
    let p = intercept::predict(Vec2::ZERO, Vec2::ZERO, prey, Vec2::new(0.0, 100.0), 0.0);
    assert_eq!((p.aim, p.tc), (prey, Some(0.0)));
}

fn assert_agent_finite(world: &World, what: &str) {
    for a in &world.agents {
        assert!(
            a.body.pos.is_finite()
                && a.body.vel.is_finite()
                && a.body.heading.is_finite()
                && a.aim.is_finite()
                && a.steer.is_finite()
                && a.tc().is_none_or(f32::is_finite),
            "{what}: {a:?}"
        );
    }
}

#[test]
fn intercept_in_the_world_is_finite_for_still_coincident_and_matched_prey() {
    let player = centre(PLAYER_TILE);

    // A still player and a predator at rest: no closing speed, line-of-sight on the first tick;
    // once it moves, it predicts, and the aim point is the still player itself.
    let mut world = one_agent(Mode::Intercept, false, Vec2::new(300.0, 200.0), vec![]);
    world.tick(&Input::default());
    let a = &world.agents[0];
    assert_eq!((a.state, a.tc(), a.aim), ("los-fallback", None, player));
    assert_agent_finite(&world, "still, first tick");
    world.tick(&Input::default());
    let a = &world.agents[0];
    assert_eq!(a.state, "predict");
    assert_eq!(a.aim, player);
    let tc = a.tc().expect("predicting");
    assert!(tc > 0.0 && tc <= world.tuning.intercept.max_prediction_time);

    // Coincident with a still player: caught on the first tick, nothing non-finite.
    let mut world = one_agent(Mode::Intercept, false, player, vec![]);
    world.tick(&Input::default());
    assert_eq!(world.score.catches, 1);
    assert_agent_finite(&world, "coincident");

    // Coincident with a moving player and the same velocity.
    let data = open_arena(player, vec![]);
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Intercept,
            agents: Some(1),
            script: Script::Line,
            ..WorldConfig::default()
        },
    );
    world.tick(&Input::default());
    let (pos, vel) = (world.player.pos, world.player.vel);
    world.place_agent(0, pos, vel);
    world.tick(&Input::default());
    assert_agent_finite(&world, "coincident, moving");
    assert_eq!(world.score.catches, 1);

    // Zero closing speed: the predator a little way off, moving exactly as the player does.
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Intercept,
            agents: Some(1),
            script: Script::Line,
            ..WorldConfig::default()
        },
    );
    world.tick(&Input::default());
    let vel = world.player.vel;
    assert!(vel.length() > 100.0, "the line player moves: {vel}");
    // Beside the course, so the predator is not ahead of the prey.
    let side = vel.perp().normalize() * 200.0;
    world.place_agent(0, world.player.pos + side, vel);
    world.tick(&Input::default());
    let a = &world.agents[0];
    assert_eq!(a.state, "los-fallback");
    assert_eq!(a.tc(), None);
    assert_eq!(a.aim, world.player.pos);
    assert_agent_finite(&world, "matched velocity");
}

// ---------------------------------------------------------------------------------------------
// E: every chase mode reversed

/// Whether agent 0 touches a wall: a tile agent on an edge tile, a continuous one within a
/// pixel of the wall's contact distance (its radius).
fn touches_wall(world: &World) -> bool {
    let a = &world.agents[0];
    match a.tile() {
        Some(tile) => {
            let g = &world.arena.tiles;
            tile.x == 0 || tile.y == 0 || tile.x == g.cols - 1 || tile.y == g.rows - 1
        }
        None => {
            let r = a.radius(&world.tuning) + 1.0;
            let p = a.body.pos;
            p.x <= r || p.y <= r || p.x >= world.arena.width - r || p.y >= world.arena.height - r
        }
    }
}

/// Run agent 0 until it touches a wall, checking the distance to the player grows every tick
/// (tile agents: every step, unchanged between steps). Returns the tick it touched a wall and
/// the number of tile steps taken and the tile it stands on (continuous agents: `None`).
fn flee_to_wall(mut world: World, what: &str) -> (u64, u32, Option<IVec2>) {
    let player = world.player.pos;
    let mut prev = world.agents[0].body.pos.distance(player);
    let mut prev_tile = world.agents[0].tile();
    let mut steps = 0;
    while !touches_wall(&world) {
        assert!(world.tick < 1200, "{what}: no wall after 20 s");
        world.tick(&Input::default());
        let a = &world.agents[0];
        let d = a.body.pos.distance(player);
        let stepped = a.tile() != prev_tile;
        if a.tile().is_some() && !stepped {
            assert_eq!(d, prev, "{what}: tick {} moved without a step", world.tick);
        } else {
            assert!(
                d > prev,
                "{what}: tick {}: distance {d} after {prev}",
                world.tick
            );
        }
        steps += u32::from(stepped && a.tile().is_some());
        assert_eq!(world.player.pos, player, "{what}: the player stays still");
        assert_eq!(world.score.catches + world.score.tags, 0, "{what}");
        prev = d;
        prev_tile = a.tile();
    }
    (world.tick, steps, world.agents[0].tile())
}

#[test]
fn each_reversed_chase_mode_runs_from_a_still_player_until_it_reaches_a_wall() {
    // The agent starts on (15, 9), centre (496, 304): 160 px left of and 96 px above the player.
    let start = centre(t(15, 9));
    let per_step = ticks_per_step();
    for mode in [
        Mode::TileChase,
        Mode::TileLos,
        Mode::LosChase,
        Mode::Intercept,
    ] {
        // Flipped from the start (`--evade-flip`) and by `E` after the agent is placed.
        let from_config = one_agent(mode, true, start, vec![]);
        let mut by_key = one_agent(mode, false, start, vec![]);
        by_key.set_flip(true);
        assert!(by_key.flip);
        assert_eq!(
            by_key.agents[0].behaviour.kind(),
            from_config.agents[0].behaviour.kind()
        );
        let a = flee_to_wall(from_config, &format!("{mode} --evade-flip"));
        let b = flee_to_wall(by_key, &format!("{mode} E"));
        assert_eq!(a, b, "{mode}: E and --evade-flip agree");
        let (tick, steps, tile) = a;
        println!("{mode} reversed: wall at tick {tick}, {steps} tile steps");
        match mode {
            // Tile evade: (-1, -1) every step, from row 9 to row 0 in 9 steps, at (6, 0).
            Mode::TileChase => {
                assert_eq!((tick, steps, tile), (9 * per_step, 9, Some(t(6, 0))));
            }
            // Away along the line player -> agent extended, (-5, -3) per 5 steps: through the
            // lattice point (0, 0) on the 15th step.
            Mode::TileLos => {
                assert_eq!((tick, steps, tile), (15 * per_step, 15, Some(t(0, 0))));
            }
            // Flee along (-5, -3) from rest. Speed follows dv/dt = 160 - v (the steering
            // `desired - vel` never reaches the 480 force cap), so the path length is
            // 160 (t - 1 + e^-t); the wall contact is 566 px away, reached at t = 4.52 s.
            _ => {
                assert_eq!((tick, steps, tile), (271, 0, None));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Where agents appear

/// The default arena's spawns in the farther half from its centre, where the player starts: its
/// four corners.
const CORNER_SPAWNS: [Vec2; 4] = [
    Vec2::new(64.0, 64.0),
    Vec2::new(1216.0, 64.0),
    Vec2::new(64.0, 704.0),
    Vec2::new(1216.0, 704.0),
];

/// How far `p` is from the nearest corner spawn along its farther axis.
fn from_corner_spawn(p: Vec2) -> f32 {
    CORNER_SPAWNS
        .iter()
        .map(|s| (p - *s).abs().max_element())
        .fold(f32::INFINITY, f32::min)
}

/// How many of `points` share their exact position with another.
fn stacked(points: &[Vec2]) -> usize {
    let mut keys: Vec<(u32, u32)> = points
        .iter()
        .map(|p| (p.x.to_bits(), p.y.to_bits()))
        .collect();
    keys.sort_unstable();
    (0..keys.len())
        .filter(|&i| (i > 0 && keys[i - 1] == keys[i]) || keys.get(i + 1) == Some(&keys[i]))
        .count()
}

#[test]
fn agents_added_by_plus_appear_scattered_round_the_far_spawns_not_stacked_on_them() {
    // `+` grows the crowd through `set_agent_count`. Each newcomer is drawn within 40 px (each
    // way) of a spawn in the farther half; on the spawn itself 2,000 seekers would stand on four
    // points and, steered alike, move as four bodies for ever.
    let mut world = World::new(
        &built_in(),
        WorldConfig {
            mode: Mode::LosChase,
            agents: Some(4),
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    world.set_agent_count(2_000);
    let added: Vec<Vec2> = world.agents[4..].iter().map(|a| a.body.pos).collect();
    assert_eq!(added.len(), 1_996);
    assert_eq!(stacked(&added), 0);
    let farthest = added
        .iter()
        .map(|&p| from_corner_spawn(p))
        .fold(0.0, f32::max);
    assert!(farthest <= 40.0, "{farthest}");
    // They use the whole square, not a corner of it.
    assert!(farthest >= 39.0, "{farthest}");
    // Steered alike from different spots, they stay apart until they reach the player.
    world::idle(&mut world, 30);
    let moved: Vec<Vec2> = world.agents.iter().map(|a| a.body.pos).collect();
    assert_eq!(stacked(&moved), 0);
}

#[test]
fn a_caught_chaser_respawns_scattered_round_a_far_spawn() {
    // 200 seekers against a still player for 20 s: every respawn (an agent born after the start)
    // stands within 40 px of a corner spawn, and no two share a spot.
    let mut world = World::new(
        &built_in(),
        WorldConfig {
            mode: Mode::LosChase,
            agents: Some(200),
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    let mut respawns = Vec::new();
    for _ in 0..1_200 {
        world.tick(&Input::default());
        let now = world.time();
        respawns.extend(
            world
                .agents
                .iter()
                .filter(|a| a.born == now)
                .map(|a| a.body.pos),
        );
    }
    assert_eq!(respawns.len() as u32, world.score.catches);
    assert!(respawns.len() >= 100, "{}", respawns.len());
    assert_eq!(stacked(&respawns), 0);
    let farthest = respawns
        .iter()
        .map(|&p| from_corner_spawn(p))
        .fold(0.0, f32::max);
    assert!(farthest <= 40.0, "{farthest}");
}
