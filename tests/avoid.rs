//! Obstacle avoidance (mode 7): crowds of agents wander among obstacles — the default arena's and
//! 200 random ones — without overlapping them, leaving the arena or getting stuck; a single agent
//! driven straight at a wall, a circle or into a right-angled corner turns away before it touches;
//! an obstacle dropped in front of a moving agent (a mouse click) is avoided at once; and with
//! `T` the agents chase a still player through the obstacles and catch it.

mod common;

use common::{feel, world};
use glam::Vec2;
use std::sync::OnceLock;
use steering_arena::data::arena::{ArenaData, ObstacleData, with_random_obstacles};
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::agent::Agent;
use steering_arena::sim::metrics::{Metrics, Summary};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::CastSchedule;
use steering_arena::sim::space::arena::{Arena, Obstacle};
use steering_arena::sim::world::{Input, World, WorldConfig};

const SEEDS: std::ops::RangeInclusive<u64> = 1..=10;

fn avoid(seed: u64, chase: bool, agents: Option<usize>) -> WorldConfig {
    WorldConfig {
        mode: Mode::Avoid,
        flip: chase,
        lead: false,
        seed,
        agents,
        script: Script::Still,
        tick_hz: 60.0,
        ..WorldConfig::default()
    }
}

/// Distance from a body's edge to the nearest surface, walls included (negative: overlap).
fn clearance(arena: &Arena, pos: Vec2, r: f32) -> f32 {
    let wall = pos.min_element().min((arena.size() - pos).min_element());
    let obstacle = arena.nearest_distance(pos).unwrap_or(f32::INFINITY);
    wall.min(obstacle) - r
}

/// Whether the collision step moved the agent this tick. The vehicle moves by exactly
/// `vel * dt`; only a push out of an obstacle or a wall changes position or velocity after
/// that. (A push-out leaves the body 0.01 px clear, so a clearance above zero alone would not
/// show that it touched.)
fn touched(a: &Agent, dt: f32) -> bool {
    !a.respawned && (a.body.pos - (a.prev_pos + a.body.vel * dt)).length() > 1e-4
}

/// A crowd's run: the `sim` summary, plus touches and the smallest clearance with walls counted.
struct Crowd {
    summary: Summary,
    touches: u64,
    min_clearance: f32,
}

fn crowd(data: &DataSet, config: WorldConfig, seconds: f64) -> Crowd {
    let mut world = World::new(data, config);
    let ticks = (seconds * f64::from(world.config.tick_hz)).round() as u64;
    let size = world.arena.size();
    let mut metrics = Metrics::new();
    let mut touches = 0;
    let mut wall_clearance = f32::INFINITY;
    for _ in 0..ticks {
        world.tick(&Input::default());
        world.events.clear();
        metrics.observe(&world, 0.0);
        for a in &world.agents {
            let p = a.body.pos;
            let r = a.radius(&world.tuning);
            wall_clearance = wall_clearance.min(p.min_element().min((size - p).min_element()) - r);
            if touched(a, world.dt) {
                touches += 1;
            }
        }
    }
    let summary = metrics.summary(&world, world.config.script.name(), seconds);
    // The summary already holds the obstacles' side of the clearance.
    let min_clearance = summary
        .min_obstacle_clearance
        .map_or(wall_clearance, |c| c.min(wall_clearance));
    Crowd {
        summary,
        touches,
        min_clearance,
    }
}

/// The ten default-arena runs, shared by the tests that read them.
fn default_runs() -> &'static [Crowd] {
    static RUNS: OnceLock<Vec<Crowd>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let data = built_in();
        SEEDS
            .map(|seed| crowd(&data, avoid(seed, false, None), 120.0))
            .collect()
    })
}

/// 200 random obstacles added to the default arena, generated with the run's seed.
fn random_arena(seed: u64) -> DataSet {
    let base = built_in();
    DataSet {
        arena: with_random_obstacles(&base.arena, 200, seed),
        ..base
    }
}

/// The ten runs among 200 random obstacles (each arena generated with the run's seed).
fn random_runs() -> &'static [Crowd] {
    static RUNS: OnceLock<Vec<Crowd>> = OnceLock::new();
    RUNS.get_or_init(|| {
        SEEDS
            .map(|seed| crowd(&random_arena(seed), avoid(seed, false, None), 120.0))
            .collect()
    })
}

fn assert_clear_inside_and_moving(name: &str, runs: &[Crowd]) {
    let mut report = Vec::new();
    for (seed, c) in SEEDS.zip(runs) {
        let s = &c.summary;
        let what = format!("{name}, seed {seed}: {s:?}");
        assert_eq!(s.seed, seed, "{what}");
        assert_eq!(s.agents, 30, "{what}");
        assert_eq!(s.ticks, 7200, "{what}");
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        assert_eq!(s.stuck_agents, 0, "{what}");
        assert!(!s.non_finite, "{what}");
        assert!(s.max_step_ratio <= 1.0 + 1e-3, "{what}");
        report.push(format!(
            "seed {seed}: min obstacle clearance {:.2} px, max turn {:.0}°/s",
            s.min_obstacle_clearance.unwrap_or(f32::NAN),
            s.max_turn_rate_deg_s
        ));
    }
    println!("{name}, 30 agents, 120 s:\n  {}", report.join("\n  "));
}

#[test]
fn thirty_agents_among_the_default_obstacles_stay_clear_inside_and_moving() {
    assert_clear_inside_and_moving("default arena", default_runs());
}

#[test]
fn the_generated_arena_holds_two_hundred_more_obstacles() {
    // The generator gives up when the arena is too full; 200 obstacles of at most 16 px radius
    // (or 32 px sides) spaced 26 px apart cover a small part of 1280x768, so every one fits.
    let base = built_in().arena.obstacles.len();
    for seed in SEEDS {
        let arena = random_arena(seed).arena;
        assert_eq!(arena.obstacles.len(), base + 200, "seed {seed}");
        assert!(arena.validate().is_ok(), "seed {seed}");
    }
}

#[test]
fn thirty_agents_among_two_hundred_random_obstacles_stay_clear_inside_and_moving() {
    assert_clear_inside_and_moving("200 random obstacles", random_runs());
}

#[test]
fn avoiding_crowds_never_lean_on_the_collision_push_out() {
    // `obstacle_overlaps` is measured after the collision step has pushed every body out, so it
    // stays 0 even for an agent that runs into an obstacle. Avoidance means (almost) never needing
    // that push: count the agent-ticks in which the collision step moved an agent (see
    // `touched`). In the default arena: never. Among 200 random obstacles, agents squeezing
    // through 26 px gaps still graze a surface now and then: 2-6 agent-ticks a run of 216,000,
    // an urgent course taking the whole force at once; the bound is one in ten thousand —
    // without avoidance it is in the thousands.
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for (name, runs, allowed) in [
        ("default arena", default_runs(), 0.0),
        ("200 random obstacles", random_runs(), 0.0001),
    ] {
        for (seed, c) in SEEDS.zip(runs) {
            let agent_ticks = c.summary.ticks * c.summary.agents as u64;
            let line = format!(
                "{name}, seed {seed}: {} touching agent-ticks of {agent_ticks}, min clearance \
                 {:.2} px (walls included)",
                c.touches, c.min_clearance
            );
            if c.touches as f64 > allowed * agent_ticks as f64 {
                failed.push(line.clone());
            }
            report.push(line);
        }
    }
    println!("touches, 30 agents, 120 s:\n  {}", report.join("\n  "));
    assert!(
        failed.is_empty(),
        "{} of {} runs touched an obstacle or a wall too often:\n  {}",
        failed.len(),
        report.len(),
        failed.join("\n  ")
    );
}

// ---- one agent driven at a surface ----

const SMALL_W: f32 = 800.0;
const SMALL_H: f32 = 600.0;

/// An 800x600 arena holding only `obstacles`, with the built-in tuning.
fn small_arena(obstacles: Vec<ObstacleData>) -> DataSet {
    common::arena::data_on(ArenaData {
        obstacles,
        player_start: [40.0, 40.0],
        ..common::arena::empty(SMALL_W, SMALL_H)
    })
}

/// One avoid agent (wandering) placed at `pos` moving at full speed along `dir`.
fn one_agent(data: &DataSet, seed: u64, pos: Vec2, dir: Vec2) -> World {
    let speed = data.tuning.wanderer.max_speed;
    world::one_agent(
        data,
        avoid(seed, false, Some(1)),
        pos,
        dir.normalize() * speed,
    )
}

/// What happened to an agent driven at a target.
#[derive(Debug)]
struct Approach {
    min_clearance: f32,
    touches: u32,
    /// Closest distance from the agent's centre to the target point.
    closest: f32,
    /// Farthest distance to the target after the closest approach.
    farthest_after: f32,
    /// Distance to the target at the end.
    last: f32,
    /// The first second at which the velocity pointed away from the target.
    heading_away_s: Option<f64>,
}

/// Run `seconds`, measuring clearance and the distance to `target(pos)` (the nearest point of
/// the surface the agent was driven at).
fn approach(world: &mut World, seconds: f64, target: impl Fn(Vec2) -> Vec2) -> Approach {
    let ticks = (seconds * 60.0).round() as u64;
    let r = world.tuning.wanderer.radius;
    let mut out = Approach {
        min_clearance: f32::INFINITY,
        touches: 0,
        closest: f32::INFINITY,
        farthest_after: 0.0,
        last: 0.0,
        heading_away_s: None,
    };
    for _ in 0..ticks {
        world.tick(&Input::default());
        let a = &world.agents[0];
        let p = a.body.pos;
        out.min_clearance = out.min_clearance.min(clearance(&world.arena, p, r));
        if touched(a, world.dt) {
            out.touches += 1;
        }
        let to = target(p) - p;
        let d = to.length();
        if d < out.closest {
            out.closest = d;
            out.farthest_after = d;
        }
        out.farthest_after = out.farthest_after.max(d);
        out.last = d;
        if out.heading_away_s.is_none() && a.body.vel.dot(to) < 0.0 {
            out.heading_away_s = Some(world.time());
        }
    }
    out
}

/// How far an agent must get from the target after its closest approach to count as having
/// turned away (rather than stopping at the surface or running along it).
const LEAVES_BY: f32 = 20.0;

/// Why the agent did not turn away cleanly, if it did not.
fn failure(a: &Approach) -> Option<&'static str> {
    if a.touches > 0 {
        Some("touched")
    } else if a.min_clearance <= 0.0 {
        Some("overlapped")
    } else if a.heading_away_s.is_none() {
        Some("never headed away")
    } else if a.farthest_after < a.closest + LEAVES_BY {
        Some("never got away after its closest approach")
    } else {
        None
    }
}

/// One line per case; the test fails listing every case that failed.
#[derive(Default)]
struct Cases {
    lines: Vec<String>,
    failed: Vec<String>,
}

impl Cases {
    fn add(&mut self, what: String, a: &Approach) {
        let line = format!(
            "{what}: clearance {:.1} px, closest {:.1}, then up to {:.1}, last {:.1}, \
             heading away at {}, touches {}",
            a.min_clearance,
            a.closest,
            a.farthest_after,
            a.last,
            a.heading_away_s
                .map_or("never".to_string(), |t| format!("{t:.2} s")),
            a.touches
        );
        if let Some(why) = failure(a) {
            self.failed.push(format!("{why}: {line}"));
        }
        self.lines.push(line);
    }

    fn check(self, title: &str) {
        println!("{title}:\n  {}", self.lines.join("\n  "));
        assert!(
            self.failed.is_empty(),
            "{title}: {} of {} cases failed:\n  {}",
            self.failed.len(),
            self.lines.len(),
            self.failed.join("\n  ")
        );
    }
}

#[test]
fn an_agent_driven_straight_at_a_wall_turns_away_without_touching() {
    let data = small_arena(vec![]);
    let mut cases = Cases::default();
    for seed in 1..=5 {
        for (name, pos, dir) in [
            ("right wall", Vec2::new(400.0, 300.0), Vec2::X),
            ("top wall", Vec2::new(400.0, 300.0), Vec2::NEG_Y),
            (
                "right wall at 45°",
                Vec2::new(500.0, 200.0),
                Vec2::new(1.0, 1.0),
            ),
        ] {
            let mut world = one_agent(&data, seed, pos, dir);
            // The nearest point of the wall it was driven at.
            let wall_point = move |p: Vec2| {
                if dir.x > 0.0 {
                    Vec2::new(SMALL_W, p.y)
                } else {
                    Vec2::new(p.x, 0.0)
                }
            };
            let a = approach(&mut world, 6.0, wall_point);
            cases.add(format!("seed {seed}, {name}"), &a);
        }
    }
    cases.check("driven at a wall (distances: centre to the wall)");
}

#[test]
fn an_agent_driven_straight_at_a_circle_turns_away_without_touching() {
    let centre = Vec2::new(450.0, 300.0);
    let radius = 40.0;
    let data = small_arena(vec![ObstacleData::Circle {
        x: centre.x,
        y: centre.y,
        radius,
    }]);
    let mut cases = Cases::default();
    for seed in 1..=5 {
        // Dead centre, and slightly off to either side (the hardest cases: no side is shorter).
        for offset in [0.0, 3.0, -3.0, 12.0, -12.0] {
            let start = Vec2::new(150.0, centre.y + offset);
            let mut world = one_agent(&data, seed, start, Vec2::X);
            let surface = move |p: Vec2| centre + (p - centre).normalize_or_zero() * radius;
            let a = approach(&mut world, 6.0, surface);
            cases.add(format!("seed {seed}, offset {offset:+}"), &a);
        }
    }
    cases.check("driven at a circle of radius 40 (distances: centre to its surface)");
}

#[test]
fn an_agent_driven_into_a_right_angled_corner_turns_away_without_touching() {
    // The arena's bottom-right corner, approached down the diagonal.
    let walls = small_arena(vec![]);
    let corner = Vec2::new(SMALL_W, SMALL_H);
    // An L of two rectangles standing in the open: the inside corner at (500, 430).
    let l_shape = small_arena(vec![
        ObstacleData::Rect {
            x: 500.0,
            y: 150.0,
            w: 20.0,
            h: 300.0,
        },
        ObstacleData::Rect {
            x: 300.0,
            y: 430.0,
            w: 220.0,
            h: 20.0,
        },
    ]);
    let inside = Vec2::new(500.0, 430.0);
    let mut cases = Cases::default();
    for seed in 1..=5 {
        for (name, data, target, start) in [
            ("arena corner", &walls, corner, corner - Vec2::splat(300.0)),
            (
                "inside of an L of two rectangles",
                &l_shape,
                inside,
                inside - Vec2::splat(200.0),
            ),
        ] {
            let mut world = one_agent(data, seed, start, target - start);
            let a = approach(&mut world, 6.0, |_| target);
            cases.add(format!("seed {seed}, {name}"), &a);
        }
    }
    cases.check("driven into a corner (distances: centre to the corner point)");
}

#[test]
fn an_obstacle_dropped_in_front_of_a_moving_agent_is_avoided_at_once() {
    // 100 px ahead (its surface 80 px ahead, 71 px from the agent's edge): inside the feelers'
    // reach at full speed (min_length + look_ahead = 114 px, plus the body's radius), and far
    // enough that a turn is possible at all — at 110 px/s with 200 px/s² the tightest turn
    // has a radius of about 60 px, which gains the 29 px of sideways room a body needs within
    // about 51 px of travel.
    let data = small_arena(vec![]);
    let mut cases = Cases::default();
    for seed in 1..=5 {
        let mut world = one_agent(&data, seed, Vec2::new(150.0, 300.0), Vec2::X);
        world::idle(&mut world, 10);
        world.events.clear();
        let a = &world.agents[0];
        let centre = a.body.pos + a.body.heading * 100.0;
        world.add_obstacle(Obstacle::Circle {
            center: centre,
            radius: 20.0,
        });
        assert_eq!(world.events, vec!["obstacle-added".to_string()]);
        assert_eq!(world.arena.obstacles().len(), 1);
        world.tick(&Input::default());
        let felt = world.agents[0]
            .behaviour
            .wander_walk()
            .and_then(|w| w.avoid.held.felt)
            .map(|f| f.hit.obstacle);
        assert_eq!(
            felt,
            Some(Some(0)),
            "seed {seed}: the tick after the click the rays must feel the new obstacle"
        );
        assert_eq!(world.agents[0].state, "avoid", "seed {seed}");
        let a = approach(&mut world, 4.0, move |p| {
            centre + (p - centre).normalize_or_zero() * 20.0
        });
        cases.add(format!("seed {seed}, dropped 100 px ahead"), &a);

        // A right click removes it again.
        assert!(world.remove_obstacle_at(centre));
        assert!(world.events.iter().any(|e| e == "obstacle-removed"));
        assert!(world.arena.obstacles().is_empty());
        assert!(!world.remove_obstacle_at(centre), "nothing left to remove");
    }
    cases.check("mouse-placed circle of radius 20 (distances: centre to its surface)");
}

#[test]
fn chasing_agents_catch_a_still_player_through_the_obstacles() {
    // The nearest spawn points lie about 340 px from the player at the arena centre; at 110 px/s
    // that is 3 s in a straight line, more round the obstacles (measured: 5.1–5.6 s).
    const LIMIT_S: f64 = 8.0;
    let mut firsts = Vec::new();
    for seed in SEEDS {
        let s = world::summary(&built_in(), avoid(seed, true, None), 30.0);
        let what = format!("seed {seed}: {s:?}");
        assert_eq!(s.mode, "avoid", "{what}");
        assert!(s.catches > 0, "{what}");
        let first = s.first_catch_s.expect("a catch has a time");
        assert!(first <= LIMIT_S, "{what}");
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        firsts.push((first, s.catches));
    }
    println!("avoid + T (chase), still player, 30 s: (first catch s, catches) per seed {firsts:?}");
}

#[test]
fn between_casts_an_agent_acts_on_its_last_cast_brought_nearer() {
    // `avoid.sense_hz` 20 on the 60 Hz tick: each agent casts its rays every third tick. In between
    // it holds what it felt — the same surface point — with the depth grown by the ground covered,
    // as a cast would find it. At 60 Hz it casts every tick and the point moves every tick.
    let circle = ObstacleData::Circle {
        x: 400.0,
        y: 300.0,
        radius: 30.0,
    };
    for (hz, casts) in [(20.0, 3..=5), (60.0, 11..=11)] {
        let mut data = small_arena(vec![circle]);
        data.tuning.avoid.sense_hz = hz;
        let mut world = one_agent(&data, 1, Vec2::new(262.0, 300.0), Vec2::X);
        let mut held = Vec::new();
        for _ in 0..12 {
            world.tick(&Input::default());
            let walk = world.agents[0].behaviour.wander_walk().expect("an avoider");
            held.push(
                walk.avoid
                    .held
                    .felt
                    .expect("the circle is within the rays' reach all along"),
            );
        }
        let moved = feel::casts_among(&held, &format!("{hz} Hz"));
        assert!(
            casts.contains(&moved),
            "{hz} Hz: the felt point moved on {moved} of 11 ticks, expected {casts:?}"
        );
    }
}

#[test]
fn agents_cast_their_rays_at_the_rate_asked_in_turns() {
    // 20 on the 60 Hz tick: agent `id` casts exactly when (tick + id) is a multiple of 3.
    let twenty = CastSchedule::new(20.0, 60.0);
    for id in 0..7 {
        for tick in 0..600u64 {
            assert_eq!(
                twenty.due(tick, id),
                (tick + u64::from(id)) % 3 == 0,
                "20 Hz, agent {id}, tick {tick}"
            );
        }
    }
    // Any rate, also one that does not divide the tick: so many casts in ten seconds (600 ticks),
    // no two casts further apart than the interval rounded up, and the agents' turns spread over
    // the ticks (never all at once below 60).
    for hz in [1.0f32, 7.5, 12.0, 20.0, 25.0, 45.0, 59.0, 60.0] {
        let schedule = CastSchedule::new(hz, 60.0);
        let longest = (60.0 / f64::from(hz)).ceil() as u64;
        for id in 0..40 {
            let ticks: Vec<u64> = (0..600).filter(|&t| schedule.due(t, id)).collect();
            let casts = ticks.len() as f64;
            assert!(
                (casts - f64::from(hz) * 10.0).abs() <= 1.0,
                "{hz} Hz, agent {id}: {casts} casts in 10 s"
            );
            let gap = ticks.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            assert!(
                gap <= longest,
                "{hz} Hz, agent {id}: {gap} ticks between casts"
            );
        }
        let at_once = (0..40).filter(|&id| schedule.due(100, id)).count();
        if hz < 60.0 {
            assert!(at_once < 40, "{hz} Hz: all 40 agents cast on one tick");
        } else {
            assert_eq!(at_once, 40, "60 Hz: every agent casts every tick");
        }
    }
}
