//! Pattern movement and Galaga flights: the square closes on itself from any start
//! heading, the zigzag keeps its mean heading, the tile `box` walks its exact tiles, copies of the
//! walkers start where their loops run clear and keep walking, `sim --mode
//! patterns` and `sim --mode galaga` report their figures, a mirrored path is the exact
//! x-reflection of the original, ships in formation sit exactly on their slots, and every kind of
//! bad `patterns.json` is refused with its own field path.

mod common;

use common::{bin, scratch, world};
use glam::{IVec2, Vec2};
use serde_json::{Value, json};
use steering_arena::data::DataSet;
use steering_arena::data::built_in;
use steering_arena::data::patterns::{
    self, PairData, PatternsData, ShipKind, Steer, TileInstruction, WaveData,
};
use steering_arena::data::tuning::PatternTuning;
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::behaviours::galaga::{self, Flight, SHIP_RADIUS, Ship, ShipState, Stage};
use steering_arena::sim::behaviours::pattern::{PatternRun, TileRun};
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::tiles::TileGrid;
use steering_arena::sim::world::{Input, World, WorldConfig};

const DT: f32 = 1.0 / 60.0;
/// The built-in square's side and the zigzag's leg (assets/patterns.json).
const SQUARE_SIDE: f32 = 200.0;

/// Heading difference folded into −180° … 180°.
fn wrap_deg(d: f32) -> f32 {
    (d + 180.0).rem_euclid(360.0) - 180.0
}

fn direction_deg(v: Vec2) -> f32 {
    v.y.atan2(v.x).to_degrees()
}

/// A physics-driven pattern in open space (no arena, no walls): the tick `agent.rs` runs —
/// `step` gives the velocity, the body moves by it, then `advance` ends the instruction.
struct OpenWalker {
    run: PatternRun,
    pos: Vec2,
    tuning: PatternTuning,
    ticks: u64,
}

impl OpenWalker {
    fn new(pattern: &str, start: Vec2, heading_deg: f32) -> Self {
        let data = built_in();
        let list = &data.patterns.patterns[pattern];
        OpenWalker {
            run: PatternRun::new(pattern, list, start, heading_deg),
            pos: start,
            tuning: data.tuning.pattern,
            ticks: 0,
        }
    }

    fn tick(&mut self) {
        let vel = self.run.step(&self.tuning, DT);
        self.pos += vel * DT;
        self.run.advance(self.pos);
        self.ticks += 1;
    }

    /// Tick until the pattern has completed `cycles` cycles (at most `max_ticks`).
    fn run_until_cycles(&mut self, cycles: u32, max_ticks: u64) {
        while self.run.cycles < cycles && self.ticks < max_ticks {
            self.tick();
        }
        assert_eq!(
            self.run.cycles, cycles,
            "{} did not complete {cycles} cycle(s) in {max_ticks} ticks",
            self.run.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Physics-driven patterns (mode 9)

#[test]
fn the_square_closes_within_a_tenth_of_its_side_and_ten_degrees_from_any_start_heading() {
    let start = Vec2::new(0.0, 0.0);
    for heading in [0.0f32, 37.0, -120.0] {
        let mut w = OpenWalker::new("square", start, heading);
        // The first leg runs 200 px along the start heading: the pattern is relative to it.
        while w.run.index == 0 {
            w.tick();
        }
        let corner = start + Vec2::from_angle(heading.to_radians()) * SQUARE_SIDE;
        let first_leg_miss = w.pos.distance(corner);
        assert!(
            first_leg_miss <= 2.5,
            "start {heading}°: the first leg ended {first_leg_miss:.3} px from {corner} \
             (expected within 2.5 px: one tick at 120 px/s is 2 px)"
        );
        w.run_until_cycles(1, 60 * 60);
        let closure = w.pos.distance(start) / SQUARE_SIDE;
        // Four starboard right angles: the accumulated heading grows by 360°.
        let heading_error = wrap_deg(w.run.heading.to_degrees() - heading - 360.0);
        let turned = w.run.heading.to_degrees() - heading;
        println!(
            "square from {heading:>6}°: closure {closure:.4} of the side ({:.2} px), heading \
             error {heading_error:.3}°, turned {turned:.2}°, {} ticks",
            closure * SQUARE_SIDE,
            w.ticks
        );
        assert!(
            closure < 0.1,
            "start {heading}°: after one cycle the square ended {:.2} px ({closure:.4} of the \
             side) from its start, expected under 0.1",
            closure * SQUARE_SIDE
        );
        assert!(
            heading_error.abs() < 10.0,
            "start {heading}°: heading after one cycle off by {heading_error:.3}°, expected \
             within 10°"
        );
        assert!(
            (turned - 360.0).abs() < 10.0,
            "start {heading}°: turned {turned:.2}° in one cycle, expected 360° (starboard, \
             clockwise on screen)"
        );
        // The run's own figure (what `extra.square_closure_error` reports) agrees.
        let reported = w.run.first_closure.expect("one cycle completed");
        assert!(
            (reported - closure * SQUARE_SIDE).abs() < 1e-3,
            "start {heading}°: PatternRun.first_closure {reported} px, measured {} px",
            closure * SQUARE_SIDE
        );
    }
}

#[test]
fn the_zigzag_keeps_its_mean_heading_thirty_degrees_to_port_of_its_start() {
    // Legs alternate between the start heading h and h − 60° (a port turn of 60°, then 60°
    // back to starboard), so each cycle's net displacement points along about h − 30°.
    const CYCLES: u32 = 6;
    let zigzag = &built_in().patterns.patterns["zigzag"];
    let port = zigzag
        .iter()
        .find(|i| i.steer == Steer::Port)
        .and_then(|i| i.turn_deg)
        .expect("the zigzag turns to port");
    let starboard = zigzag
        .iter()
        .find(|i| i.steer == Steer::Starboard)
        .and_then(|i| i.turn_deg)
        .expect("the zigzag turns back to starboard");
    assert_eq!(
        (port, starboard),
        (60.0, 60.0),
        "the built-in zigzag's turns"
    );
    for heading in [30.0f32, -75.0] {
        let mut w = OpenWalker::new("zigzag", Vec2::ZERO, heading);
        let mut ends = vec![w.pos];
        for c in 1..=CYCLES {
            w.run_until_cycles(c, 60 * 60);
            ends.push(w.pos);
        }
        let expected = heading - port / 2.0;
        let directions: Vec<f32> = ends
            .windows(2)
            .map(|p| direction_deg(p[1] - p[0]))
            .collect();
        let lengths: Vec<f32> = ends.windows(2).map(|p| p[1].distance(p[0])).collect();
        println!(
            "zigzag from {heading}°: net direction per cycle {directions:.3?} (expected \
             {expected}°), net length per cycle {lengths:.2?} px"
        );
        for (c, d) in directions.iter().enumerate() {
            let off = wrap_deg(d - expected);
            assert!(
                off.abs() < 3.0,
                "start {heading}°: cycle {} moved along {d:.3}°, expected {expected}° within 3° \
                 (off by {off:.3}°)",
                c + 1
            );
        }
        // From the second cycle on the walker starts each cycle in the same state, so the
        // direction is constant to a tiny tolerance.
        let steady = &directions[1..];
        let spread = steady
            .iter()
            .map(|d| wrap_deg(d - steady[0]).abs())
            .fold(0.0f32, f32::max);
        assert!(
            spread < 0.1,
            "start {heading}°: cycles 2…{CYCLES} moved along {steady:.3?}, spread {spread:.4}° \
             (expected under 0.1°)"
        );
        // Each cycle is two 100 px thrust legs at 60° to each other (2·100·cos 30° ≈ 173 px
        // net) plus the glide through each coasting turn (about 1 s at a speed decaying from
        // 120 px/s with drag 2: ≈ 50 px), so ≈ 271 px; the same length every cycle.
        for (c, l) in lengths.iter().enumerate() {
            assert!(
                (173.0..300.0).contains(l),
                "start {heading}°: cycle {} moved {l:.2} px net, expected 173…300 px",
                c + 1
            );
            assert!(
                (l - lengths[1]).abs() < 0.5,
                "start {heading}°: cycle {} moved {l:.2} px net, cycle 2 moved {:.2} px",
                c + 1,
                lengths[1]
            );
        }
    }
}

/// The tiles `box` walks from tile (10, 10) facing north (−90°): turn right and walk 5 east,
/// right and 3 south, right and 5 west, right and 3 north, back on the start tile.
const BOX_FROM_10_10: [(i32, i32); 16] = [
    (11, 10),
    (12, 10),
    (13, 10),
    (14, 10),
    (15, 10),
    (15, 11),
    (15, 12),
    (15, 13),
    (14, 13),
    (13, 13),
    (12, 13),
    (11, 13),
    (10, 13),
    (10, 12),
    (10, 11),
    (10, 10),
];

#[test]
fn the_tile_box_walks_its_exact_tiles_and_returns_to_its_start_tile() {
    let expected: Vec<IVec2> = BOX_FROM_10_10
        .iter()
        .map(|&(x, y)| IVec2::new(x, y))
        .collect();
    let data = common::arena::open_built_in();
    let list: Vec<TileInstruction> = data.patterns.tile_patterns["box"].clone();

    // The run alone, on an open grid.
    let grid = TileGrid::new(1280.0, 768.0, 32.0, &[]);
    let mut run = TileRun::new("box", &list, -90.0);
    let mut tile = IVec2::new(10, 10);
    let mut walked = Vec::new();
    for _ in 0..expected.len() {
        let (next, state) = run.step(&grid, tile);
        assert_eq!(state, "step", "blocked on an open grid at {tile}");
        tile = next.expect("a step on an open grid");
        walked.push(tile);
    }
    assert_eq!(walked, expected, "box from (10, 10) facing north");
    assert_eq!(tile, IVec2::new(10, 10), "box ends on its start tile");
    // The cycle is counted as the next one begins, and it begins like the first.
    let (next, _) = run.step(&grid, tile);
    assert_eq!(run.cycles, 1, "one cycle after the 17th step");
    assert_eq!(
        next,
        Some(IVec2::new(11, 10)),
        "the second cycle starts east"
    );

    // The same walk in a world: a single tile walker on an empty arena, one step per
    // 1/steps_per_second.
    let walkers = json!([{ "pattern": "box", "tile": true, "start": [336, 336], "heading": -90 }]);
    let data = DataSet {
        patterns: PatternsData {
            walkers: serde_json::from_value(walkers).expect("walker list"),
            ..data.patterns
        },
        ..data
    };
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Patterns,
            agents: Some(1),
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    assert_eq!(world.agents[0].tile(), Some(IVec2::new(10, 10)));
    let ticks_per_step = (60.0 / data.tuning.tile.steps_per_second).round() as u64;
    let mut walked = Vec::new();
    let mut last = IVec2::new(10, 10);
    for _ in 0..ticks_per_step * expected.len() as u64 {
        world.tick(&Input::default());
        let t = world.agents[0].tile().expect("a tile walker");
        if t != last {
            walked.push(t);
            last = t;
        }
    }
    assert_eq!(
        walked, expected,
        "the world's box walker from (10, 10) in {} ticks",
        world.tick
    );
    assert_eq!(
        world.agents[0].body.pos,
        Vec2::new(336.0, 336.0),
        "back on the start tile's centre"
    );
}

/// `sim` on the built-in data against a still player: `agents` of `mode` (`None`: its own count).
fn sim_summary(mode: Mode, agents: Option<usize>, seconds: f64) -> Summary {
    world::summary(
        &built_in(),
        WorldConfig {
            mode,
            agents,
            script: Script::Still,
            ..WorldConfig::default()
        },
        seconds,
    )
}

#[test]
fn sim_patterns_reports_completed_cycles_and_a_square_closing_within_a_tenth_of_its_side() {
    let s = sim_summary(Mode::Patterns, None, 30.0);
    let cycles = s.extra["cycles"].as_u64().expect("extra.cycles is a count");
    let closure = s.extra["square_closure_error"]
        .as_f64()
        .expect("extra.square_closure_error is a number after 30 s");
    println!(
        "sim --mode patterns --seconds 30: cycles {cycles}, square_closure_error {closure}, \
         max_step_ratio {}, stuck {}",
        s.max_step_ratio, s.stuck_agents
    );
    assert!(cycles > 0, "extra.cycles = {cycles}, expected > 0");
    assert!(
        closure < 0.1,
        "extra.square_closure_error = {closure}, expected < 0.1"
    );
    assert!(!s.non_finite, "non-finite positions in patterns mode");
    assert_eq!(s.stuck_agents, 0, "a pattern walker got stuck");
}

#[test]
fn every_copy_of_a_walker_keeps_walking_in_crowds_of_30_200_and_1275() {
    // A copy started anywhere but where its loop runs clear can stand still for good: a `box`
    // walker whose loop crosses a blocked tile waits at it for ever, and a crowd of 30 puts
    // eight `box` copies among the default arena's obstacles.
    for count in [30, 200, 1275] {
        let s = sim_summary(Mode::Patterns, Some(count), 30.0);
        println!(
            "{count} walkers, 30 s: stuck {}, overlaps {}, out of bounds {}, cycles {}",
            s.stuck_agents, s.obstacle_overlaps, s.out_of_bounds, s.extra["cycles"]
        );
        assert_eq!(s.agents, count);
        assert_eq!(s.stuck_agents, 0, "{count} walkers: some stopped for good");
        assert_eq!(s.obstacle_overlaps, 0, "{count} walkers: overlaps");
        assert_eq!(s.out_of_bounds, 0, "{count} walkers: out of bounds");
        assert!(!s.non_finite);
    }
}

#[test]
fn each_copy_of_the_tile_box_starts_on_its_own_tile_with_its_whole_loop_open() {
    let world = World::new(
        &built_in(),
        WorldConfig {
            mode: Mode::Patterns,
            agents: Some(400),
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    let grid = &world.arena.tiles;
    let origin = IVec2::new(10, 10);
    let mut starts = Vec::new();
    for a in &world.agents {
        let Some(tile) = a.tile() else { continue };
        assert!(
            !starts.contains(&tile),
            "two box walkers start on tile {tile}"
        );
        starts.push(tile);
        let mut at = tile;
        for &(x, y) in &BOX_FROM_10_10 {
            let next = tile + IVec2::new(x, y) - origin;
            assert!(
                grid.can_step(at, next),
                "the box from {tile} is blocked at {next}"
            );
            at = next;
        }
    }
    assert_eq!(starts.len(), 100, "one walker in four runs the box");
    // Physics walkers: no two on one spot either.
    let physics: Vec<Vec2> = world
        .agents
        .iter()
        .filter(|a| a.tile().is_none())
        .map(|a| a.body.pos)
        .collect();
    assert_eq!(physics.len(), 300);
    for (i, p) in physics.iter().enumerate() {
        for q in &physics[i + 1..] {
            assert!(p.distance(*q) >= 1.0, "two physics walkers start at {p}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Galaga (mode 8)

fn ship(world: &World, i: usize) -> &Ship {
    match &world.agents[i].behaviour {
        Behaviour::Ship(s) => s,
        other => panic!("agent {i} is not a ship: {}", other.kind()),
    }
}

/// A Galaga world whose only wave is one pair on `path`, mirrored or not.
fn one_pair_world(path: &str, mirror: bool) -> World {
    let data = built_in();
    let mut patterns = data.patterns.clone();
    patterns.galaga.waves = vec![WaveData {
        pairs: vec![PairData {
            path: path.to_string(),
            mirror,
            kinds: [ShipKind::Drone, ShipKind::Drone],
        }],
    }];
    patterns.validate().expect("a one-pair stage is valid");
    let data = DataSet { patterns, ..data };
    let world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Galaga,
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    assert_eq!(world.agents.len(), 2, "one pair: a leader and a wing-man");
    world
}

/// The path points `preview` draws for ship `i` now.
fn preview_of(world: &World, i: usize) -> Vec<Vec2> {
    let stage = world.stage.as_ref().expect("a Galaga world has a stage");
    let mut out = Vec::new();
    galaga::preview(stage, ship(world, i), world.agents[i].body.pos, &mut out);
    out
}

#[test]
fn a_mirrored_entry_path_is_the_exact_x_reflection_of_the_original_at_every_tick() {
    for path in ["top", "side"] {
        let mut plain = one_pair_world(path, false);
        let mut mirrored = one_pair_world(path, true);
        let width = plain.arena.width;
        let mut compared = [0u32; 2];
        let mut worst = 0.0f32;
        let mut previews_checked = [false; 2];
        for _ in 0..600 {
            plain.tick(&Input::default());
            mirrored.tick(&Input::default());
            for i in 0..2 {
                let (a, b) = (ship(&plain, i), ship(&mirrored, i));
                let entering = (
                    a.state == ShipState::Entering,
                    b.state == ShipState::Entering,
                );
                assert_eq!(
                    entering.0, entering.1,
                    "{path} ship {i} tick {}: plain is {:?}, mirrored is {:?} (the flights \
                     should last the same number of ticks)",
                    plain.tick, a.state, b.state
                );
                if !entering.0 {
                    continue;
                }
                let (p, q) = (plain.agents[i].body.pos, mirrored.agents[i].body.pos);
                let reflected = Vec2::new(width - q.x, q.y);
                let miss = p.distance(reflected);
                worst = worst.max(miss);
                assert!(
                    (p.x - (width - q.x)).abs() < 1e-3 && (p.y - q.y).abs() < 1e-3,
                    "{path} ship {i} tick {}: plain at {p}, mirrored at {q} (reflected {reflected}, \
                     {miss:.6} px apart; expected within 1e-3)",
                    plain.tick
                );
                let (h, k) = (
                    plain.agents[i].body.heading,
                    mirrored.agents[i].body.heading,
                );
                assert!(
                    (h.x + k.x).abs() < 1e-4 && (h.y - k.y).abs() < 1e-4,
                    "{path} ship {i} tick {}: headings {h} and {k} are not reflections",
                    plain.tick
                );
                if !previews_checked[i] {
                    // The overlay's drawing of the path is mirrored the same way, up to its
                    // last point: the slot `home` flies to, which is not mirrored.
                    let (pa, pb) = (preview_of(&plain, i), preview_of(&mirrored, i));
                    assert_eq!(pa.len(), pb.len(), "{path} ship {i}: preview lengths");
                    assert!(
                        pa.len() > 10,
                        "{path} ship {i}: preview has {} points",
                        pa.len()
                    );
                    let flown = pa.len() - 1;
                    for (n, (u, v)) in pa[..flown].iter().zip(&pb[..flown]).enumerate() {
                        assert!(
                            (u.x - (width - v.x)).abs() < 1e-3 && (u.y - v.y).abs() < 1e-3,
                            "{path} ship {i}: preview point {n} {u} vs mirrored {v}"
                        );
                    }
                    previews_checked[i] = true;
                }
                compared[i] += 1;
            }
            let home = |w: &World| {
                (0..2).all(|i| matches!(ship(w, i).state, ShipState::Homing | ShipState::Formation))
            };
            if home(&plain) && home(&mirrored) {
                break;
            }
        }
        // The path's fly steps last so many seconds; each ship is compared on the tick it
        // appears at its start and on every tick it flies them.
        let path_data = &plain.patterns.galaga.paths[path];
        let seconds: f32 = path_data
            .steps
            .iter()
            .map(|s| match s {
                patterns::Step::Fly { time, .. } => *time,
                _ => 0.0,
            })
            .sum();
        let expected = (seconds * 60.0).round() as u32 + 1;
        println!(
            "mirror {path}: compared {compared:?} ticks (expected {expected} each), worst \
             reflection error {worst:.6} px"
        );
        assert_eq!(
            compared,
            [expected, expected],
            "{path}: ticks compared per ship, expected the path's {seconds} s of flight + 1"
        );
    }
}

#[test]
fn sim_galaga_for_60_seconds_launches_5_waves_of_40_ships_fills_the_formation_and_dives() {
    let s = sim_summary(Mode::Galaga, None, 60.0);
    let cap = built_in().patterns.galaga.dives.max_in_flight as u64;
    let e = &s.extra;
    println!(
        "sim --mode galaga --seconds 60: extra {}, max_step_ratio {}, catches {}",
        Value::Object(e.clone()),
        s.max_step_ratio,
        s.catches
    );
    assert_eq!(e["waves_launched"], json!(5), "extra.waves_launched");
    assert_eq!(e["ships"], json!(40), "extra.ships");
    assert_eq!(s.agents, 40, "agents");
    let complete = e["formation_complete_s"]
        .as_f64()
        .unwrap_or_else(|| panic!("formation never complete: {}", e["formation_complete_s"]));
    assert!(
        complete > 0.0 && complete < 60.0,
        "formation_complete_s = {complete}"
    );
    let dives = e["dives"].as_u64().expect("extra.dives is a count");
    assert!(dives >= 3, "extra.dives = {dives}, expected at least 3");
    let in_flight = e["max_in_flight"]
        .as_u64()
        .expect("extra.max_in_flight is a count");
    assert!(
        in_flight >= 1 && in_flight <= cap,
        "extra.max_in_flight = {in_flight}, expected 1…{cap} (galaga.dives.max_in_flight)"
    );
    assert!(
        s.max_step_ratio <= 1.05,
        "max_step_ratio = {}, expected at most 1.05 (no teleports)",
        s.max_step_ratio
    );
    assert!(!s.non_finite, "non-finite positions in Galaga mode");
    assert_eq!(s.out_of_bounds, 0, "ships outside the arena");
}

#[test]
fn a_ship_homing_with_its_slot_abeam_inside_its_turning_circle_still_reaches_it() {
    // At 60 px/s and 540 deg/s a ship turns on a circle 12.7 px across: a slot 9 px to its side
    // lies inside that circle, and a ship that kept to its least homing speed would circle the
    // slot for good — its formation never full, the next wave never launched. (In a fleet of
    // 20,000 a slot can come that close abeam.) Here the formation stands still.
    let mut data = built_in();
    data.patterns.galaga.formation.sway = 0.0;
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Galaga,
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    world.tick(&Input::default());
    let stage = world.stage.as_ref().expect("a Galaga world has a stage");
    let slot = ship(&world, 0).slot;
    let at = stage.slot_position(slot) - Vec2::new(9.0, 0.0);
    let Behaviour::Ship(s) = &mut world.agents[0].behaviour else {
        panic!("agent 0 is a ship");
    };
    s.state = ShipState::Homing;
    s.flight = Some(Flight::new(None, false));
    s.pos = at.as_dvec2();
    s.heading = -std::f64::consts::FRAC_PI_2;
    s.speed = 280.0;
    world.agents[0].body.pos = at;
    let home = (1..=60).find(|_| {
        world.tick(&Input::default());

        ship(&world, 0).state == ShipState::Formation
    });
    let home = home.unwrap_or_else(|| {
        let stage = world.stage.as_ref().expect("a stage");
        panic!(
            "still {:?} after 1 s, {:.1} px from its slot",
            ship(&world, 0).state,
            world.agents[0].body.pos.distance(stage.slot_position(slot))
        )
    });
    println!("in formation after {home} ticks");
    assert!(home <= 30, "{home} ticks to reach a slot 9 px away");
}

#[test]
fn galaga_with_100_ships_flies_three_squadrons_each_in_its_own_formation_and_its_own_dives() {
    let data = built_in();
    let cap = data.patterns.galaga.dives.max_in_flight as usize;
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Galaga,
            agents: Some(100),
            script: Script::Circle,
            ..WorldConfig::default()
        },
    );
    let stage = world.stage.as_ref().expect("a Galaga world has a stage");
    assert_eq!(world.agents.len(), 100);
    assert_eq!(stage.per_squadron, 40, "the data's stage is one squadron");
    assert_eq!(stage.slots.len(), 120, "three squadrons' formations");
    let squadrons: Vec<_> = stage.squadrons(100).collect();
    assert_eq!(squadrons, vec![0..40, 40..80, 80..100]);
    // Each ship has a slot of its own squadron's formation, none shared.
    let mut slots: Vec<usize> = (0..100).map(|i| ship(&world, i).slot).collect();
    for (j, range) in squadrons.iter().enumerate() {
        for i in range.clone() {
            assert_eq!(
                slots[i] / 40,
                j,
                "ship {i} has slot {} of another squadron",
                slots[i]
            );
        }
    }
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), 100, "two ships share a slot");
    // The formations stand apart, inside the arena and above its middle; the stage is shrunk to
    // fit, sway and breath alike.
    assert!(
        stage.scale > 0.5 && stage.scale <= 1.0,
        "scale {}",
        stage.scale
    );
    let bounds = |j: usize| {
        (j * 40..(j + 1) * 40).map(|i| stage.slot_position(i)).fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        )
    };
    for j in 0..3 {
        let (lo, hi) = bounds(j);
        assert!(
            lo.x >= SHIP_RADIUS && hi.x <= 1280.0 - SHIP_RADIUS,
            "squadron {j}: {lo} {hi}"
        );
        assert!(
            hi.y <= 0.45 * 768.0,
            "squadron {j} reaches down to {}",
            hi.y
        );
        for k in j + 1..3 {
            let (lo2, hi2) = bounds(k);
            let apart = hi.x < lo2.x || hi2.x < lo.x || hi.y < lo2.y || hi2.y < lo.y;
            assert!(
                apart,
                "squadrons {j} and {k} overlap: {lo} {hi} / {lo2} {hi2}"
            );
        }
    }
    // 60 s: every squadron fills its formation, dives, and never has more in flight than the cap.
    let mut most = [0usize; 3];
    let mut dived = [false; 3];
    for _ in 0..3_600 {
        world.tick(&Input::default());
        for (j, range) in squadrons.iter().enumerate() {
            let flying = range
                .clone()
                .filter(|&i| ship(&world, i).state.in_flight())
                .count();
            most[j] = most[j].max(flying);
            dived[j] |= flying > 0;
        }
    }
    let stage = world.stage.as_ref().expect("a Galaga world has a stage");
    let complete = stage.complete_at.expect("the formations fill within 60 s");
    println!(
        "100 ships: formations full at {complete:.2} s, most in flight {most:?}, dives {}",
        stage.dives
    );
    assert!(complete < 45.0, "formations full only at {complete} s");
    assert_eq!(dived, [true; 3], "a squadron never dived");
    assert!(
        most.iter().all(|&m| m <= cap),
        "in flight {most:?}, cap {cap} each"
    );
    assert!(
        stage.max_in_flight as usize > cap,
        "the fleet's {} in flight",
        stage.max_in_flight
    );
}

#[test]
fn plus_at_20000_ships_or_walkers_changes_nothing_and_minus_still_restarts() {
    let world_of = |mode, agents| {
        World::new(
            &built_in(),
            WorldConfig {
                mode,
                agents: Some(agents),
                script: Script::Still,
                ..WorldConfig::default()
            },
        )
    };
    let positions = |w: &World| w.agents.iter().map(|a| a.body.pos).collect::<Vec<_>>();
    for (mode, start, more, ticks) in [
        (Mode::Galaga, 20_000, 30_000, 120),
        (Mode::Patterns, 20_000, 30_000, 120),
    ] {
        let mut world = world_of(mode, start);
        assert_eq!(world.agents.len(), start, "{mode:?}");
        let at_start = positions(&world);
        world::idle(&mut world, ticks);
        let before = positions(&world);
        let moved = |a: &[Vec2], b: &[Vec2]| {
            a.iter()
                .zip(b)
                .filter(|(p, q)| p.distance(**q) > 1.0)
                .count()
        };
        // (A restart would put these back where they started.)
        let away = moved(&at_start, &before);
        assert!(away > 100, "{mode:?}: only {away} have moved");
        // `+` once more: the count is at its cap, so the run goes on where it was.
        world.set_agent_count(more);
        assert_eq!(world.agents.len(), start, "{mode:?}: count after +");
        assert_eq!(positions(&world), before, "{mode:?}: + restarted the run");
        // `−` is a new count: the stage or the walkers start again from the data.
        world.set_agent_count(start - 1);
        assert_eq!(
            positions(&world),
            positions(&world_of(mode, start - 1)),
            "{mode:?}: − is a fresh start with one fewer"
        );
    }
}

#[test]
fn every_ship_in_formation_sits_exactly_on_its_slot_at_every_tick() {
    let mut world = World::new(
        &built_in(),
        WorldConfig {
            mode: Mode::Galaga,
            script: Script::Still,
            ..WorldConfig::default()
        },
    );
    let mut checks = 0u64;
    let mut worst = 0.0f32;
    let mut most_in_formation = 0;
    let mut saw = [false; 6];
    for _ in 0..60 * 60 {
        world.tick(&Input::default());
        let stage: &Stage = world.stage.as_ref().expect("a Galaga world has a stage");
        let mut in_formation = 0;
        for i in 0..world.agents.len() {
            let s = ship(&world, i);
            saw[s.state as usize] = true;
            if s.state != ShipState::Formation {
                continue;
            }
            in_formation += 1;
            let slot = stage.slot_position(s.slot);
            let pos = world.agents[i].body.pos;
            let off = pos.distance(slot);
            worst = worst.max(off);
            checks += 1;
            assert!(
                off <= 1e-4,
                "tick {}: ship {i} in formation at {pos}, its slot {} is at {slot} ({off} px away)",
                world.tick,
                s.slot
            );
        }
        most_in_formation = most_in_formation.max(in_formation);
    }
    println!(
        "formation: {checks} ship-ticks checked, worst offset {worst} px, at most \
         {most_in_formation} in formation at once, states seen {saw:?}"
    );
    assert_eq!(
        most_in_formation, 40,
        "the whole formation filled at some tick"
    );
    assert!(
        saw.iter().all(|&s| s),
        "every state (queued, entering, homing, formation, diving, returning) seen: {saw:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad patterns.json

/// The built-in file's text with one edit applied.
fn edited(edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(patterns::BUILT_IN).expect("built-in JSON");
    edit(&mut v);
    serde_json::to_string_pretty(&v).expect("serialize the edited file")
}

#[test]
fn each_bad_patterns_file_is_refused_with_its_own_field_path() {
    // The editing itself is harmless: the unedited text round-trips and parses.
    assert!(patterns::parse(&edited(|_| {})).is_ok());
    type Edit = fn(&mut Value);
    // (case, edit, what the error must start with)
    let cases: [(&str, Edit, &str); 10] = [
        (
            "unknown command",
            |v| v["galaga"]["paths"]["top"]["steps"][1] = json!({ "loop": {} }),
            "galaga.paths.top.steps[1]: unknown variant `loop`",
        ),
        (
            "unknown bare command",
            |v| v["galaga"]["paths"]["side"]["steps"][3] = json!("loop"),
            "galaga.paths.side.steps[3]: unknown variant `loop`",
        ),
        (
            "negative duration",
            |v| v["galaga"]["paths"]["top"]["steps"][1]["fly"]["time"] = json!(-1),
            "galaga.paths.top.steps[1].fly.time: must be a duration of 0 s or more, got -1",
        ),
        (
            "missing path",
            |v| v["galaga"]["waves"][2]["pairs"][0]["path"] = json!("loop9"),
            "galaga.waves[2].pairs[0].path: unknown path \"loop9\"",
        ),
        (
            "empty wave",
            |v| v["galaga"]["waves"][3]["pairs"] = json!([]),
            "galaga.waves[3].pairs: must not be empty",
        ),
        (
            "dive path that does not exist",
            |v| v["galaga"]["dives"]["escort_path"] = json!("dive_nowhere"),
            "galaga.dives.escort_path: unknown path \"dive_nowhere\"",
        ),
        (
            "jump to a missing path",
            |v| v["galaga"]["paths"]["dive_boss"]["steps"][3] = json!({ "jump": "loop_away" }),
            "galaga.paths.dive_boss.steps[3].jump: unknown path \"loop_away\"",
        ),
        (
            "instruction that never ends",
            |v| v["patterns"]["zigzag"][1] = json!({ "steer": "port", "thrust": false }),
            "patterns.zigzag[1]: needs turn_deg or distance",
        ),
        (
            "walker naming an unknown pattern",
            |v| v["walkers"][1]["pattern"] = json!("spiral"),
            "walkers[1].pattern: unknown pattern \"spiral\"",
        ),
        (
            "tile walker naming a physics pattern",
            |v| v["walkers"][3]["pattern"] = json!("square"),
            "walkers[3].pattern: unknown tile pattern \"square\"",
        ),
    ];
    let mut failures = Vec::new();
    let mut messages = Vec::new();
    for (case, edit, want) in cases {
        match patterns::parse(&edited(edit)) {
            Ok(_) => failures.push(format!("{case}: accepted, expected \"{want}…\"")),
            Err(e) => {
                println!("{case}: {e}");
                if !e.starts_with(want) {
                    failures.push(format!("{case}: got \"{e}\", expected \"{want}…\""));
                }
                if e.contains('\n') {
                    failures.push(format!("{case}: message is not one line: {e:?}"));
                }
                messages.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let mut distinct = messages.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), messages.len(), "two cases share a message");
}

#[test]
fn sim_with_a_bad_patterns_file_exits_2_with_one_line_naming_the_file_and_field() {
    let bad = edited(|v| v["galaga"]["waves"][2]["pairs"][0]["path"] = json!("loop9"));
    let dir = scratch::folder("bad-patterns");
    std::fs::write(dir.join("BAD.json"), &bad).expect("write BAD.json");
    std::fs::create_dir_all(dir.join("assets")).expect("create assets/");
    std::fs::write(dir.join("assets").join("patterns.json"), &bad).expect("write assets file");
    let field = "galaga.waves[2].pairs[0].path: unknown path \"loop9\"";
    for (args, file) in [
        (
            vec!["sim", "--mode", "galaga", "--patterns", "BAD.json"],
            "BAD.json",
        ),
        // No flag: assets/patterns.json is read, as SPEC §2's example shows.
        (vec!["sim", "--mode", "patterns"], "assets/patterns.json"),
    ] {
        let o = bin::run_in(&dir, &args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: exit code; stderr {err:?}"
        );
        assert!(o.stdout.is_empty(), "{args:?}: printed a summary anyway");
        assert_eq!(err, format!("{file}: {field}\n"), "{args:?}: the message");
    }
}
