//! Property tests over every mode (proptest): random seeds, agent counts (0–300), tuning values
//! drawn from each slider's range, random arenas (obstacles that touch each other, touch or cross
//! the walls, and sit on the spawn points and the player's start) and random scripted players.
//!
//! Each case runs a few simulated seconds through `headless::run`, twice, recording every tick,
//! and checks:
//! - every position and velocity stays finite (the summary's `non_finite`, and no `null` in the
//!   record, which is how serde writes a NaN);
//! - no agent's centre leaves the arena (`out_of_bounds` 0);
//! - no agent overlaps an obstacle: in the modes whose agents are all continuous (line-of-sight
//!   chase, intercept, evade, wander, avoid, in both forms) the summary's `obstacle_overlaps` is
//!   0 — the avoiders steer clear, and for the chasers the collision step alone must keep them
//!   out. In the tile modes, patterns and the free-for-all the summary also counts tile agents,
//!   whose bodies sit on a tile centre and may be wider than a tile (radius up to 40 px, tiles
//!   down to 8 px), so they may overlap an obstacle in the next tile by design: there a
//!   tick-by-tick pass checks that continuous agents never overlap and that every tile agent
//!   stands on a free tile. Galaga ships fly over the obstacles and are not measured;
//! - no continuous agent moves farther in a tick than its top speed allows, beyond
//!   [`MAX_STEP_RATIO`] (tile agents jump a tile per step by design and are not measured, see
//!   `sim/metrics.rs`);
//! - the same inputs give the same record, byte for byte, and the same summary (`tick_ms` aside).
//!
//! Failures that proptest found and shrank are kept at the end as plain regression tests.

mod common;

use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError, TestRunner};
use serde_json::Value;
use steering_arena::data::arena::{ArenaData, ObstacleData};
use steering_arena::data::tuning::{SLIDERS, Tuning};
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::headless;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::path::Order;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::space::arena::{Arena, Response};
use steering_arena::sim::space::feelers::Layout;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// Cases per mode in a plain `cargo test`. Each case runs its world twice (determinism), so this
/// keeps the file to seconds in a debug build; the ignored [`every_mode_holds_over_many_cases`]
/// runs [`LONG_CASES`] (CI does).
const CASES: u32 = 8;
/// Cases per mode in the ignored long run.
const LONG_CASES: u32 = 32;
/// The generator's seed (see [`config`]).
const SEED: u64 = 8;
/// Largest per-tick displacement over `max_speed * dt` for continuous agents. 1.0 is the vehicle
/// model's own clamp; the margin covers f32 rounding and a collision's 0.01 px push-out skin.
const MAX_STEP_RATIO: f32 = 1.05;
/// Most agents a case asks for.
const MAX_CASE_AGENTS: usize = 300;

// --- the case --------------------------------------------------------------------------------

/// One run: everything that decides it. Its `Debug` output holds all that a regression test
/// needs to rebuild it.
#[derive(Debug, Clone)]
struct Case {
    mode: Mode,
    flip: bool,
    seed: u64,
    agents: usize,
    script: Script,
    /// Simulated seconds.
    seconds: f64,
    /// One value per row of `SLIDERS`, in order.
    sliders: Vec<f32>,
    rays: Layout,
    arena: ArenaData,
}

impl Case {
    fn data(&self) -> DataSet {
        let base = built_in();
        let mut tuning: Tuning = base.tuning.clone();
        for (slider, &v) in SLIDERS.iter().zip(&self.sliders) {
            (slider.set)(&mut tuning, v);
        }
        tuning.avoid.rays = self.rays;
        DataSet {
            arena: self.arena.clone(),
            tuning,
            ..base
        }
    }

    fn config(&self) -> WorldConfig {
        WorldConfig {
            mode: self.mode,
            flip: self.flip,
            seed: self.seed,
            agents: Some(self.agents),
            script: self.script,
            // (Only `pathfind` reads it: the seed picks its search.)
            order: Order::ALL[(self.seed % 3) as usize],
            ..WorldConfig::default()
        }
    }
}

/// A run's summary and its record.
struct Run {
    summary: Summary,
    record: Vec<u8>,
}

fn run(case: &Case) -> Run {
    let data = case.data();
    let mut record = Vec::new();
    // `&mut Vec<u8>` is a writer, so the bytes stay reachable once the recorder is done.
    let mut recorder = Recorder::new(&mut record);
    let summary = headless::run(&data, case.config(), case.seconds, Some(&mut recorder))
        .expect("recording into memory cannot fail");
    Run { summary, record }
}

/// The summary as JSON without `tick_ms` (the one field that is wall time).
fn summary_without_timing(s: &Summary) -> Value {
    let mut v = serde_json::to_value(s).expect("the summary serializes");
    if let Some(m) = v.as_object_mut() {
        m.remove("tick_ms");
    }
    v
}

// --- the checks ------------------------------------------------------------------------------

/// Modes whose agents all move continuously and go through the collision step, so the summary's
/// `obstacle_overlaps` speaks for every agent.
fn all_continuous(mode: Mode) -> bool {
    matches!(
        mode,
        Mode::LosChase
            | Mode::Intercept
            | Mode::Evade
            | Mode::Wander
            | Mode::Avoid
            | Mode::Pathfind
            | Mode::Fsm
            | Mode::Hide
            | Mode::Formation
            | Mode::Pathway
    )
}

/// Every property of one case.
fn check(case: &Case) -> Result<(), TestCaseError> {
    prop_assert!(
        case.arena.validate().is_ok(),
        "the generator made an invalid arena: {:?}",
        case.arena.validate()
    );
    let first = run(case);
    let s = &first.summary;
    // Described only when an assertion fails (proptest formats its message lazily): the walk
    // runs the case again.
    let what = || {
        format!(
            "summary {}\n  first offences:\n  {}",
            summary_without_timing(s),
            walk(case).offences.join("\n  ")
        )
    };
    prop_assert!(
        !s.non_finite,
        "a position or velocity went non-finite; {}",
        what()
    );
    prop_assert!(
        s.out_of_bounds == 0,
        "agent centres left the arena; {}",
        what()
    );
    prop_assert!(
        !all_continuous(case.mode) || s.obstacle_overlaps == 0,
        "agents overlapped obstacles; {}",
        what()
    );
    prop_assert!(
        s.max_step_ratio <= MAX_STEP_RATIO,
        "a continuous agent moved {} times its top speed in a tick; {}",
        s.max_step_ratio,
        what()
    );
    prop_assert!(
        !contains(&first.record, b"null"),
        "the record holds a null (a NaN or infinity)"
    );
    let ticks = (case.seconds * 60.0).round() as u64;
    prop_assert_eq!(s.ticks, ticks);
    prop_assert_eq!(count_lines(&first.record), ticks as usize);
    if !matches!(case.mode, Mode::Galaga | Mode::Patterns | Mode::Mixed) {
        prop_assert_eq!(s.agents, case.agents, "agent count");
    }
    if !all_continuous(case.mode) && case.mode != Mode::Galaga {
        // Tile agents share the summary's overlap count: check the two kinds apart.
        let w = walk(case);
        prop_assert_eq!(
            w.continuous_overlaps,
            0,
            "continuous agents overlapped obstacles; {}",
            w.offences.join("\n  ")
        );
        prop_assert_eq!(
            w.tile_agents_on_blocked_tiles,
            0,
            "tile agents stood on blocked tiles; {}",
            w.offences.join("\n  ")
        );
    }

    let second = run(case);
    prop_assert!(
        first.record == second.record,
        "the same case recorded different bytes (first difference at byte {})",
        first_difference(&first.record, &second.record)
    );
    prop_assert_eq!(
        summary_without_timing(&first.summary),
        summary_without_timing(&second.summary)
    );
    Ok(())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// What a tick-by-tick pass over a case's world found.
struct Walk {
    /// The first few offending agent-ticks, described: which agent, doing what, where, and what
    /// the collision step left. Failure messages carry them, so a shrunk case says what went
    /// wrong, not only that it did.
    offences: Vec<String>,
    /// Agent-ticks where a continuous, grounded agent overlapped an obstacle.
    continuous_overlaps: u64,
    /// Agent-ticks where a tile agent stood on a blocked tile while a free one existed. (A tile
    /// agent's body is drawn on its tile's centre and may be wider than a tile, so it may
    /// overlap an obstacle in the next tile; the tile itself must be free.)
    tile_agents_on_blocked_tiles: u64,
}

/// Run a case's world tick by tick, looking at every agent.
fn walk(case: &Case) -> Walk {
    const KEEP: usize = 6;
    let data = case.data();
    let mut world = World::new(&data, case.config());
    let ticks = (case.seconds * 60.0).round() as u64;
    let grid = &world.arena.tiles;
    let any_free_tile = !grid.blocked(grid.nearest_free(glam::IVec2::ZERO));
    let mut w = Walk {
        offences: Vec::new(),
        continuous_overlaps: 0,
        tile_agents_on_blocked_tiles: 0,
    };
    for a in world.agents.iter().filter(|a| a.behaviour.grounded()) {
        let r = a.radius(&world.tuning);
        if a.tile().is_none()
            && let Some(d) = world.arena.nearest_distance(a.body.pos).filter(|&d| d < r)
        {
            w.offences.push(format!(
                "spawn: agent {} ({}) placed at {} overlapping an obstacle by {:.3} px",
                a.id,
                a.behaviour.kind(),
                a.body.pos,
                r - d
            ));
        }
    }
    for _ in 0..ticks {
        world.tick(&Input::default());
        world.events.clear();
        for a in &world.agents {
            let p = a.behaviour.params(&world.tuning);
            let clearance = |at| world.arena.nearest_distance(at).map(|d| d - p.radius);
            let step = a.body.pos.distance(a.prev_pos);
            let ratio = step / (p.max_speed * world.dt);
            let continuous = a.tile().is_none();
            let fast = continuous && !a.respawned && ratio > MAX_STEP_RATIO;
            let overlap = continuous
                && a.behaviour.grounded()
                && clearance(a.body.pos).is_some_and(|c| c < 0.0);
            let blocked_tile =
                any_free_tile && a.tile().is_some_and(|t| world.arena.tiles.blocked(t));
            let outside = !world.arena.contains(a.body.pos);
            let bad = !a.body.pos.is_finite() || !a.body.vel.is_finite();
            w.continuous_overlaps += u64::from(overlap);
            w.tile_agents_on_blocked_tiles += u64::from(blocked_tile);
            if (fast || overlap || blocked_tile || outside || bad) && w.offences.len() < KEEP {
                w.offences.push(format!(
                    "tick {}: agent {} ({}, state {}) {} -> {} (step {:.3} px = {:.3} x \
                     max_speed {} x dt), vel {}, radius {}, clearance {:?} -> {:?}",
                    world.tick,
                    a.id,
                    a.behaviour.kind(),
                    a.state,
                    a.prev_pos,
                    a.body.pos,
                    step,
                    ratio,
                    p.max_speed,
                    a.body.vel,
                    p.radius,
                    clearance(a.prev_pos),
                    clearance(a.body.pos)
                ));
            }
        }
    }
    w
}

// --- random arenas ---------------------------------------------------------------------------

/// A point as fractions of the arena's width and height; the edges themselves (0 and 1) are
/// drawn often, since spawn points and the player's start may lie on the walls.
fn fraction() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => 0.0f32..=1.0,
        1 => Just(0.0f32),
        1 => Just(1.0f32),
    ]
}

#[derive(Debug, Clone, Copy)]
enum Shape {
    /// Radius (px).
    Circle(f32),
    /// Width and height (px).
    Rect(f32, f32),
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (1.0f32..=60.0).prop_map(Shape::Circle),
        (1.0f32..=120.0, 1.0f32..=120.0).prop_map(|(w, h)| Shape::Rect(w, h)),
    ]
}

/// How an obstacle is placed, relative to the arena or to what came before.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Anywhere, by fractions of the arena.
    Free(f32, f32),
    /// Against the previous obstacle: at `angle` (radians) from its centre, touching it when
    /// `gap` is 0 (circles tangent, rectangles sharing an edge), overlapping it when negative.
    Touching { angle: f32, gap: f32 },
    /// At a wall (0 left, 1 top, 2 right, 3 bottom), `along` it (fraction). `depth` is how far
    /// the shape's far edge reaches into the arena, as a fraction of its size: 1 touches the wall
    /// from inside, 0.5 straddles it, near 0 pokes in from outside.
    Wall { wall: u8, along: f32, depth: f32 },
    /// Centred on spawn point `n` (mod the number of spawns): agents start inside it.
    OnSpawn(usize),
    /// Centred on the player's start.
    OnPlayer,
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        2 => (fraction(), fraction()).prop_map(|(x, y)| Place::Free(x, y)),
        3 => (0.0f32..std::f32::consts::TAU, prop_oneof![2 => Just(0.0f32), 1 => -10.0f32..=0.0])
            .prop_map(|(angle, gap)| Place::Touching { angle, gap }),
        2 => (0u8..4, fraction(), prop_oneof![Just(1.0f32), Just(0.5f32), 0.02f32..=1.0])
            .prop_map(|(wall, along, depth)| Place::Wall { wall, along, depth }),
        2 => (0usize..8).prop_map(Place::OnSpawn),
        1 => Just(Place::OnPlayer),
    ]
}

/// An arena to build: size, tile size, spawns, player start and obstacles.
#[derive(Debug, Clone)]
struct ArenaPlan {
    width: f32,
    height: f32,
    tile_size: f32,
    spawns: Vec<(f32, f32)>,
    player: (f32, f32),
    obstacles: Vec<(Shape, Place)>,
}

fn arena_plan() -> impl Strategy<Value = ArenaPlan> {
    (
        256.0f32..=1600.0,
        256.0f32..=1200.0,
        prop_oneof![Just(32.0f32), 8.0f32..=64.0],
        prop::collection::vec((fraction(), fraction()), 1..=8),
        (fraction(), fraction()),
        prop::collection::vec((shape(), place()), 0..=24),
    )
        .prop_map(
            |(width, height, tile_size, spawns, player, obstacles)| ArenaPlan {
                width: width.round(),
                height: height.round(),
                tile_size: tile_size.round(),
                spawns,
                player,
                obstacles,
            },
        )
}

/// Axis-aligned bounds of an obstacle.
fn bounds(o: &ObstacleData) -> ([f32; 2], [f32; 2]) {
    match *o {
        ObstacleData::Circle { x, y, radius } => {
            ([x - radius, y - radius], [x + radius, y + radius])
        }
        ObstacleData::Rect { x, y, w, h } => ([x, y], [x + w, y + h]),
    }
}

/// `shape` with its centre at (cx, cy).
fn centred(shape: Shape, cx: f32, cy: f32) -> ObstacleData {
    match shape {
        Shape::Circle(radius) => ObstacleData::Circle {
            x: cx,
            y: cy,
            radius,
        },
        Shape::Rect(w, h) => ObstacleData::Rect {
            x: cx - w / 2.0,
            y: cy - h / 2.0,
            w,
            h,
        },
    }
}

/// Half the shape's extent along a unit direction (its support distance from the centre).
fn reach(shape: Shape, dir: (f32, f32)) -> f32 {
    match shape {
        Shape::Circle(r) => r,
        Shape::Rect(w, h) => {
            // Distance from the centre to the box's boundary along `dir`.
            let tx = if dir.0.abs() > 1e-6 {
                w / 2.0 / dir.0.abs()
            } else {
                f32::INFINITY
            };
            let ty = if dir.1.abs() > 1e-6 {
                h / 2.0 / dir.1.abs()
            } else {
                f32::INFINITY
            };
            tx.min(ty)
        }
    }
}

/// The arena a plan describes. Every obstacle keeps some part inside the walls (validation asks
/// for that), so placements that would leave the arena are pulled back in.
fn build_arena(plan: &ArenaPlan) -> ArenaData {
    let (w, h) = (plan.width, plan.height);
    let point = |(fx, fy): (f32, f32)| [fx * w, fy * h];
    let spawns: Vec<[f32; 2]> = plan.spawns.iter().copied().map(point).collect();
    let player_start = point(plan.player);
    let mut obstacles: Vec<ObstacleData> = Vec::new();
    for &(shape, place) in &plan.obstacles {
        let (cx, cy) = match place {
            Place::Free(fx, fy) => (fx * w, fy * h),
            Place::OnSpawn(n) => {
                let s = spawns[n % spawns.len()];
                (s[0], s[1])
            }
            Place::OnPlayer => (player_start[0], player_start[1]),
            Place::Touching { angle, gap } => match obstacles.last() {
                None => (w / 2.0, h / 2.0),
                Some(prev) => {
                    let (min, max) = bounds(prev);
                    let c = ((min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0);
                    let prev_shape = match *prev {
                        ObstacleData::Circle { radius, .. } => Shape::Circle(radius),
                        ObstacleData::Rect { w, h, .. } => Shape::Rect(w, h),
                    };
                    let dir = (angle.cos(), angle.sin());
                    // Two boxes touch along an axis; snap rectangles to the nearest side so
                    // their edges meet exactly.
                    let dir = match (prev_shape, shape) {
                        (Shape::Rect(..), Shape::Rect(..)) => {
                            if dir.0.abs() >= dir.1.abs() {
                                (dir.0.signum(), 0.0)
                            } else {
                                (0.0, dir.1.signum())
                            }
                        }
                        _ => dir,
                    };
                    let d = reach(prev_shape, dir) + reach(shape, dir) + gap;
                    (c.0 + dir.0 * d, c.1 + dir.1 * d)
                }
            },
            Place::Wall { wall, along, depth } => {
                let (hx, hy) = match shape {
                    Shape::Circle(r) => (r, r),
                    Shape::Rect(rw, rh) => (rw / 2.0, rh / 2.0),
                };
                // The far edge sits `depth * 2 * half` inside the wall.
                match wall {
                    0 => (depth * 2.0 * hx - hx, along * h),
                    1 => (along * w, depth * 2.0 * hy - hy),
                    2 => (w - depth * 2.0 * hx + hx, along * h),
                    _ => (along * w, h - depth * 2.0 * hy + hy),
                }
            }
        };
        // Keep the centre where the shape still reaches inside the arena.
        let (hx, hy) = match shape {
            Shape::Circle(r) => (r, r),
            Shape::Rect(rw, rh) => (rw / 2.0, rh / 2.0),
        };
        let cx = cx.clamp(-hx * 0.9, w + hx * 0.9);
        let cy = cy.clamp(-hy * 0.9, h + hy * 0.9);
        obstacles.push(centred(shape, cx, cy));
    }
    ArenaData {
        width: w,
        height: h,
        tile_size: plan.tile_size.min(w.min(h)),
        obstacles,
        // (The `fsm` player takes a power-up at once, and finds more at the spawns.)
        pickups: std::iter::once(player_start)
            .chain(spawns.iter().copied())
            .collect(),
        spawns,
        player_start,
        pathways: Vec::new(),
    }
}

// --- random tuning and cases -----------------------------------------------------------------

/// One value per slider: its ends are drawn often, since that is where trouble lives.
fn slider_values() -> Vec<BoxedStrategy<f32>> {
    SLIDERS
        .iter()
        .map(|s| {
            prop_oneof![
                4 => s.min..=s.max,
                1 => Just(s.min),
                1 => Just(s.max),
            ]
            .boxed()
        })
        .collect()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Single),
        Just(Layout::Whiskers),
        Just(Layout::Parallel)
    ]
}

fn script() -> impl Strategy<Value = Script> {
    prop::sample::select(Script::ALL)
}

fn agent_count() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => 0..=40usize,
        1 => 0..=MAX_CASE_AGENTS,
        1 => Just(0usize),
    ]
}

fn case(mode: Mode) -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        any::<u64>(),
        agent_count(),
        script(),
        // Whole ticks, 0.5–3 s.
        (30u32..=180).prop_map(|t| f64::from(t) / 60.0),
        slider_values(),
        layout(),
        arena_plan(),
    )
        .prop_map(
            move |(flip, seed, agents, script, seconds, sliders, rays, plan)| Case {
                mode,
                flip,
                seed,
                agents,
                script,
                seconds,
                sliders,
                rays,
                arena: build_arena(&plan),
            },
        )
}

/// A fixed seed, so every run (and CI) tries the same cases; `PROPTEST_RNG_SEED` and
/// `PROPTEST_CASES` explore further. Failures are kept as plain regression tests below rather
/// than in a persistence file.
fn config() -> ProptestConfig {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    ProptestConfig {
        cases: env("PROPTEST_CASES").map_or(CASES, |n| n as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(SEED)),
        failure_persistence: None,
        // A failing case runs for seconds; keep the shrinking of one bounded.
        max_shrink_iters: 300,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn tile_chase_stays_finite_inside_and_deterministic(c in case(Mode::TileChase)) {
        check(&c)?;
    }

    #[test]
    fn tile_los_stays_finite_inside_and_deterministic(c in case(Mode::TileLos)) {
        check(&c)?;
    }

    #[test]
    fn los_chase_stays_finite_inside_clear_and_deterministic(c in case(Mode::LosChase)) {
        check(&c)?;
    }

    #[test]
    fn intercept_stays_finite_inside_clear_and_deterministic(c in case(Mode::Intercept)) {
        check(&c)?;
    }

    #[test]
    fn evade_stays_finite_inside_clear_and_deterministic(c in case(Mode::Evade)) {
        check(&c)?;
    }

    #[test]
    fn wander_stays_finite_inside_clear_and_deterministic(c in case(Mode::Wander)) {
        check(&c)?;
    }

    #[test]
    fn avoid_stays_finite_inside_clear_and_deterministic(c in case(Mode::Avoid)) {
        check(&c)?;
    }

    #[test]
    fn flock_stays_finite_inside_clear_and_deterministic(c in case(Mode::Flock)) {
        check(&c)?;
    }

    #[test]
    fn swarm_stays_finite_inside_clear_and_deterministic(c in case(Mode::Swarm)) {
        check(&c)?;
    }

    #[test]
    fn galaga_stays_finite_inside_and_deterministic(c in case(Mode::Galaga)) {
        check(&c)?;
    }

    #[test]
    fn patterns_stay_finite_inside_clear_and_deterministic(c in case(Mode::Patterns)) {
        check(&c)?;
    }

    #[test]
    fn mixed_stays_finite_inside_clear_and_deterministic(c in case(Mode::Mixed)) {
        check(&c)?;
    }

    #[test]
    fn pathfind_stays_finite_inside_clear_and_deterministic(c in case(Mode::Pathfind)) {
        check(&c)?;
    }

    #[test]
    fn fsm_stays_finite_inside_clear_and_deterministic(c in case(Mode::Fsm)) {
        check(&c)?;
    }

    #[test]
    fn hide_stays_finite_inside_clear_and_deterministic(c in case(Mode::Hide)) {
        check(&c)?;
    }

    #[test]
    fn crowd_stays_finite_inside_clear_and_deterministic(c in case(Mode::Crowd)) {
        check(&c)?;
    }

    #[test]
    fn formation_stays_finite_inside_clear_and_deterministic(c in case(Mode::Formation)) {
        check(&c)?;
    }

    #[test]
    fn pathway_stays_finite_inside_clear_and_deterministic(c in case(Mode::Pathway)) {
        check(&c)?;
    }
}

/// Every mode's property over [`LONG_CASES`] cases, drawn from the same seed as the tests above.
#[test]
#[ignore = "needs a long fuzz run: run with --include-ignored (CI does)"]
fn every_mode_holds_over_many_cases() {
    for &mode in Mode::ALL {
        let config = ProptestConfig {
            cases: std::env::var("PROPTEST_CASES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(LONG_CASES),
            ..config()
        };
        let mut runner = TestRunner::new(config);
        if let Err(e) = runner.run(&case(mode), |c| check(&c)) {
            panic!("{mode}: {e}");
        }
    }
}

/// Every mode has its property above.
#[test]
fn every_mode_has_a_property() {
    assert_eq!(
        Mode::ALL.len(),
        18,
        "a new mode needs its own property here"
    );
}

// --- regression cases --------------------------------------------------------------------------
//
// Cases the properties above found, shrunk, kept as plain tests. Each says what would go wrong
// without the code it guards.

/// The built-in tuning, as slider values.
fn default_sliders() -> Vec<f32> {
    let tuning = built_in().tuning;
    SLIDERS.iter().map(|s| (s.get)(&tuning)).collect()
}

/// A 256 x 256 arena with `obstacles` and one spawn point.
fn small_arena(obstacles: Vec<ObstacleData>, spawn: [f32; 2]) -> ArenaData {
    ArenaData {
        obstacles,
        spawns: vec![spawn],
        ..common::arena::empty(256.0, 256.0)
    }
}

fn regression(mode: Mode, agents: usize, arena: ArenaData) -> Case {
    Case {
        mode,
        flip: false,
        seed: 0,
        agents,
        script: Script::Still,
        seconds: 0.5,
        sliders: default_sliders(),
        rays: Layout::Whiskers,
        arena,
    }
}

fn assert_holds(case: &Case) {
    if let Err(e) = check(case) {
        panic!("{e}\ncase: {case:?}");
    }
}

/// `Arena::collide` counts clamping a body back inside the walls as a move, so its loop checks
/// the obstacles again at the clamped spot. Were it not to, a spawn scattered beyond a wall
/// would land inside an obstacle that touches or crosses that wall, and the next tick's push-out
/// would make it jump (33 times its top speed in this case).
#[test]
fn regression_agents_scattered_past_a_wall_start_clear_of_a_wall_crossing_obstacle() {
    let arena = small_arena(
        vec![
            ObstacleData::Circle {
                x: 0.0,
                y: 0.0,
                radius: 1.0,
            },
            ObstacleData::Circle {
                x: 13.992222,
                y: 0.0,
                radius: 12.992222,
            },
        ],
        [0.0, 0.0],
    );
    for mode in [
        Mode::LosChase,
        Mode::Intercept,
        Mode::Evade,
        Mode::Wander,
        Mode::Avoid,
    ] {
        assert_holds(&regression(mode, 8, arena.clone()));
    }
}

/// The same at its root: a body just beyond the top wall, above an obstacle that crosses the
/// wall, is clamped inside the walls and must not be left inside the obstacle.
#[test]
fn regression_collide_leaves_a_body_clamped_inside_the_walls_clear_of_obstacles() {
    let data = small_arena(
        vec![ObstacleData::Rect {
            x: 100.0,
            y: -18.0,
            w: 48.0,
            h: 36.0,
        }],
        [0.0, 0.0],
    );
    let arena = Arena::from_data(&data);
    let r = 4.0;
    let from = Vec2::new(124.0, -30.0);
    let mut pos = from;
    let mut vel = Vec2::ZERO;
    arena.collide(from, &mut pos, &mut vel, r, Response::Slide);
    let clearance = arena.nearest_distance(pos).expect("one obstacle") - r;
    assert!(arena.contains(pos), "{pos} is outside the arena");
    assert!(
        clearance >= 0.0,
        "collide({from}) left the body at {pos}, {:.3} px inside the obstacle",
        -clearance
    );
}

/// `World::new_agent` searches outward for a spot where a continuous agent's body fits when
/// pushing it out cannot free it. One `Arena::collide` call cannot free a body from a gap
/// narrower than the body: pushed out of the obstacle into the wall and back for its 16 passes,
/// it gives up, and its fallback (the spawn point, here on the wall) may lie inside the obstacle
/// or outside the arena. Here a spawn point on the right wall faces a rectangle 13 px from the
/// wall; the chaser is 20 px wide.
#[test]
fn regression_an_agent_spawned_in_a_gap_narrower_than_itself_starts_where_it_fits() {
    let arena = ArenaData {
        width: 256.0,
        height: 256.0,
        tile_size: 32.0,
        obstacles: vec![ObstacleData::Rect {
            x: 183.0,
            y: 90.0,
            w: 60.0,
            h: 75.0,
        }],
        spawns: vec![[256.0, 100.0]],
        player_start: [40.0, 40.0],
        pickups: Vec::new(),
        pathways: Vec::new(),
    };
    for mode in [Mode::LosChase, Mode::Evade, Mode::Avoid] {
        let mut case = regression(mode, 1, arena.clone());
        case.seed = 1;
        assert_holds(&case);
    }
}

/// The Galaga stage keeps the patterns file's coordinates (entries at x = 600 and y = 600, a
/// formation centred on x = 640) inside the arena it flies in: path starts are moved inside the
/// walls and the formation is shrunk to fit. Taken as they are, in an arena narrower than that,
/// queued ships would wait outside the walls (`out_of_bounds`) and be snapped inside at launch,
/// a jump of 356 px in one tick.
#[test]
fn regression_galaga_ships_stay_inside_an_arena_smaller_than_the_paths() {
    for mode in [Mode::Galaga, Mode::Mixed] {
        assert_holds(&regression(mode, 40, small_arena(Vec::new(), [0.0, 0.0])));
    }
}

/// Mode 9's walkers (`World::walker`) start at the patterns file's position clamped to the
/// rectangle their radius fits in, and clear of obstacles as the other agents are. Clamped to
/// the arena's own rectangle, in a 256 x 256 arena the square walker would start on the corner
/// (256, 256) and the first tick's collision would move it 5.7 px (34 times its top speed).
#[test]
fn regression_pattern_walkers_start_inside_a_small_arena() {
    assert_holds(&regression(
        Mode::Patterns,
        4,
        small_arena(Vec::new(), [0.0, 0.0]),
    ));
}

/// The same with an obstacle on the square walker's start (395, 270) in the default arena: the
/// walker must not start inside it and be thrown out on the first tick.
#[test]
fn regression_a_pattern_walker_starting_inside_an_obstacle_starts_clear_of_it() {
    let mut arena = built_in().arena;
    arena.obstacles.push(ObstacleData::Circle {
        x: 395.0,
        y: 270.0,
        radius: 30.0,
    });
    assert_holds(&regression(Mode::Patterns, 4, arena));
}

/// `Arena::collide` sweeps the body along its step. A push-out through the *nearest* surface,
/// wherever the body came from, would let a body that moves more than its radius plus half an
/// obstacle's thickness in one tick end past the middle and be pushed out on the far side: it
/// would pass through. Here a body of radius 4 moving 5.8 px (a pattern walker at 349 px/s)
/// meets a 1 px thick wall.
#[test]
fn regression_a_fast_body_does_not_pass_through_a_thin_obstacle() {
    let data = small_arena(
        vec![ObstacleData::Rect {
            x: 236.0,
            y: 40.0,
            w: 1.0,
            h: 60.0,
        }],
        [0.0, 0.0],
    );
    let arena = Arena::from_data(&data);
    let r = 4.0;
    let from = Vec2::new(232.0 - 0.07, 70.0);
    assert!(arena.is_clear(from, r));
    let mut pos = from + Vec2::new(5.8, 0.0);
    let mut vel = Vec2::new(349.0, 0.0);
    arena.collide(from, &mut pos, &mut vel, r, Response::Slide);
    assert!(
        pos.x < 236.0,
        "the body went from {from} through the wall at x = 236..237 to {pos}"
    );
}

/// The swept collide-and-slide (move to contact, then slide the rest along the surface) never
/// exceeds the step. A position-based push-out, at a convex corner, would move a body sideways
/// on top of its own step: a body sliding down a rectangle's side and round its corner would
/// travel up to about 10% farther in that tick than it asked to (here, a pattern walker
/// bouncing off a rectangle's corner, 1.064 times its top speed; `MAX_STEP_RATIO` is 1.05).
#[test]
fn regression_a_body_rounding_a_corner_moves_no_farther_than_its_step() {
    let data = small_arena(
        vec![ObstacleData::Rect {
            x: 100.0,
            y: 100.0,
            w: 72.0,
            h: 110.0,
        }],
        [0.0, 0.0],
    );
    let arena = Arena::from_data(&data);
    let r = 4.0;
    let step = 3.0;
    let corner = Vec2::new(172.0, 210.0);
    // Touching the rectangle's right side just above its bottom-right corner, stepping
    // down and to the left round the corner.
    let from = corner + Vec2::new(3.9126, 0.83163);
    assert!(arena.is_clear(from, r), "{from} starts clear");
    let mut pos = from + Vec2::new(-2.62387, 1.45444).normalize() * step;
    let mut vel = (pos - from) * 60.0;
    arena.collide(from, &mut pos, &mut vel, r, Response::Slide);
    let ratio = pos.distance(from) / step;
    assert!(
        ratio <= MAX_STEP_RATIO,
        "asked to move {step} px from {from}, the body moved {:.3} px to {pos} ({ratio:.3} x)",
        pos.distance(from)
    );
}
