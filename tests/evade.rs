//! Evade (mode 5): against a hunting player evaders stay inside the arena, out of obstacles and
//! on the move; a cornered evader gets out of the corner; one pushed at a flat wall slides along
//! it; a player running straight at an evader makes it run away, not towards the player; and
//! between the regulator's casts an evader acts on its last obstacle hit, brought nearer.

mod common;

use common::world;
use glam::Vec2;
use steering_arena::data::DataSet;
use steering_arena::data::arena::ArenaData;
use steering_arena::data::built_in;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{Input, World, WorldConfig};

const WIDTH: f32 = 1280.0;
const HEIGHT: f32 = 768.0;
/// Ticks in 3 s at 60 Hz.
const THREE_SECONDS: u64 = 180;

/// The built-in tuning on an empty 1280x768 arena, the player starting at `player_start`.
fn open_arena(player_start: Vec2) -> DataSet {
    common::arena::data_on(ArenaData {
        spawns: vec![[640.0, 384.0]],
        player_start: player_start.to_array(),
        ..common::arena::empty(WIDTH, HEIGHT)
    })
}

/// One evader at rest at `agent`, the player starting at `player` driven by `script`.
fn one_evader(agent: Vec2, player: Vec2, script: Script) -> World {
    world::one_agent(
        &open_arena(player),
        WorldConfig {
            mode: Mode::Evade,
            script,
            ..WorldConfig::default()
        },
        agent,
        Vec2::ZERO,
    )
}

#[test]
fn evaders_hunted_for_a_minute_stay_inside_clear_of_obstacles_and_moving() {
    let mut tags = Vec::new();
    for seed in 1..=5 {
        let s = world::summary(
            &built_in(),
            WorldConfig {
                mode: Mode::Evade,
                seed,
                script: Script::Hunt,
                ..WorldConfig::default()
            },
            60.0,
        );
        let what = format!("seed {seed}: {s:?}");
        assert_eq!(s.ticks, 3600, "{what}");
        assert_eq!(s.agents, 8, "{what}");
        assert_eq!(s.out_of_bounds, 0, "{what}");
        assert_eq!(s.obstacle_overlaps, 0, "{what}");
        assert!(s.min_obstacle_clearance.is_some_and(|c| c >= 0.0), "{what}");
        assert_eq!(s.stuck_agents, 0, "{what}");
        assert!(!s.non_finite, "{what}");
        assert!(s.max_step_ratio <= 1.0 + 1e-3, "{what}");
        assert!(s.tags > 0, "{what}");
        assert_eq!(s.catches, 0, "evaders never catch: {what}");
        tags.push(s.tags);
    }
    println!("evade vs hunt, 60 s, tags per seed 1..=5: {tags:?}");
}

/// The arena's four corners, each with the unit vector pointing into the arena along its
/// diagonal and the two inward directions along its walls.
fn corners() -> [(Vec2, Vec2, Vec2); 4] {
    [
        (Vec2::new(0.0, 0.0), Vec2::X, Vec2::Y),
        (Vec2::new(WIDTH, 0.0), Vec2::NEG_X, Vec2::Y),
        (Vec2::new(0.0, HEIGHT), Vec2::X, Vec2::NEG_Y),
        (Vec2::new(WIDTH, HEIGHT), Vec2::NEG_X, Vec2::NEG_Y),
    ]
}

#[test]
fn a_cornered_evader_leaves_the_corner_within_three_seconds_untagged() {
    // The evader rests 20 px from both walls; the hunting player starts 200 px away (inside
    // the 220 px threat radius, so the evader is cornered from the first tick) and comes at it
    // along either wall or down the diagonal. The player is faster (200 px/s against 170).
    // It must slide out along a wall, so when it is 60 px out it is still within the wall
    // margin of one of the corner's walls, not bolting out across the open diagonal.
    let threat_radius = built_in().tuning.evade.threat_radius;
    let wall_margin = built_in().tuning.evade.wall_margin;
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (corner, along_a, along_b) in corners() {
        let agent = corner + (along_a + along_b) * 20.0;
        for (name, approach) in [
            ("along wall a", along_a),
            ("diagonal", (along_a + along_b).normalize()),
            ("along wall b", along_b),
        ] {
            let player = agent + approach * 200.0;
            assert!(player.distance(agent) < threat_radius);
            let mut world = one_evader(agent, player, Script::Hunt);
            let mut left = None;
            while world.tick < THREE_SECONDS {
                world.tick(&Input::default());
                if world.score.tags > 0 {
                    break;
                }
                if world.agents[0].body.pos.distance(corner) >= 60.0 {
                    left = Some(world.tick);
                    break;
                }
            }
            let what = format!("corner {corner}, player {name} from {player}");
            report.push(format!(
                "{what}: left at tick {left:?}, at {}, state {}",
                world.agents[0].body.pos, world.agents[0].state
            ));
            let pos = world.agents[0].body.pos;
            let from_walls = (pos - corner).abs();
            if left.is_some() && from_walls.min_element() > wall_margin {
                failures.push(format!(
                    "{what}: left across the open, not along a wall: at {pos} (player at {})",
                    world.player.pos
                ));
            }
            if left.is_none() {
                failures.push(format!(
                    "{what}: {} at tick {}, evader at {}",
                    if world.score.tags > 0 {
                        "tagged"
                    } else {
                        "still in the corner"
                    },
                    world.tick,
                    world.agents[0].body.pos
                ));
            }
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_evader_pushed_at_a_flat_wall_slides_along_it() {
    // The evader 20 px off a wall (10 px clearance), the still player 36 px further in, straight
    // opposite: fleeing straight away would press it into the wall.
    let radius = built_in().tuning.evader.radius;
    let cases = [
        (Vec2::new(640.0, 20.0), Vec2::Y),
        (Vec2::new(640.0, HEIGHT - 20.0), Vec2::NEG_Y),
        (Vec2::new(20.0, 384.0), Vec2::X),
        (Vec2::new(WIDTH - 20.0, 384.0), Vec2::NEG_X),
        // Off-centre, the player a little to one side.
        (Vec2::new(300.0, 20.0), Vec2::Y),
    ];
    for (agent, inward) in cases {
        let along = inward.perp();
        let player = agent + inward * 36.0 + along * if agent.x == 300.0 { 10.0 } else { 0.0 };
        let mut world = one_evader(agent, player, Script::Still);
        let wall_gap = |p: Vec2| (p - agent).dot(inward) + 20.0;
        let mut slid = None;
        while world.tick < THREE_SECONDS {
            world.tick(&Input::default());
            let p = world.agents[0].body.pos;
            assert!(
                wall_gap(p) >= radius - 0.02,
                "from {agent}: pressed into the wall at {p} (tick {})",
                world.tick
            );
            assert_eq!(world.score.tags, 0, "from {agent}: tagged");
            if slid.is_none() && (p - agent).dot(along).abs() > 100.0 {
                slid = Some(world.tick);
            }
        }
        println!("from {agent}: slid 100 px along the wall by tick {slid:?}");
        // Measured: 79 ticks (1.3 s).
        assert!(
            slid.is_some_and(|t| t <= THREE_SECONDS),
            "from {agent}: did not slide 100 px along the wall in 3 s, ended at {}",
            world.agents[0].body.pos
        );
    }
}

#[test]
fn an_evader_runs_away_from_a_player_coming_straight_at_it() {
    // Open ground, the evader at rest mid-arena, the hunting player (200 px/s) approaching head
    // on from inside the threat radius. After one tick the evader must be moving away from the
    // player, whatever the distance and direction.
    let agent = Vec2::new(640.0, 384.0);
    let mut failures = Vec::new();
    for distance in [60.0f32, 100.0, 150.0, 190.0, 210.0] {
        for deg in [0.0f32, 90.0, 135.0, 200.0] {
            let player = agent + Vec2::from_angle(deg.to_radians()) * distance;
            let mut world = one_evader(agent, player, Script::Hunt);
            world.tick(&Input::default());
            let a = &world.agents[0];
            let to_player = world.player.pos - a.body.pos;
            let closing = a.body.vel.dot(to_player.normalize());
            if a.state != "flee" || closing >= 0.0 {
                failures.push(format!(
                    "player {distance} px away at {deg} deg: state {}, velocity {} ({closing:.1} px/s towards the player), fleeing the point {}",
                    a.state, a.body.vel, a.aim
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn between_casts_an_evader_acts_on_its_last_cast_brought_nearer() {
    // The evaders' feelers are cast at obstacles on the regulator's turns (`avoid.sense_hz`, 20
    // on the 60 Hz tick: every third tick); in between an evader holds what it felt — the same
    // surface point — with the depth grown by the ground covered, as a cast would find it. At
    // 60 Hz it casts every tick and the point moves every tick. The player stands far away, so
    // the evader wanders straight on at the circle.
    use steering_arena::data::arena::ObstacleData;
    use steering_arena::sim::agent::Behaviour;
    for (hz, moves) in [(20.0, 2..=3), (60.0, 8..=8)] {
        let mut data = open_arena(Vec2::new(1200.0, 700.0));
        data.arena.obstacles = vec![ObstacleData::Circle {
            x: 360.0,
            y: 300.0,
            radius: 30.0,
        }];
        data.tuning.avoid.sense_hz = hz;
        let mut world = World::new(
            &data,
            WorldConfig {
                mode: Mode::Evade,
                agents: Some(1),
                script: Script::Still,
                ..WorldConfig::default()
            },
        );
        let speed = world.tuning.evader.max_speed;
        world.place_agent(0, Vec2::new(262.0, 300.0), Vec2::new(speed, 0.0));
        let mut felt = Vec::new();
        for _ in 0..9 {
            world.tick(&Input::default());
            let Behaviour::Evade(state) = &world.agents[0].behaviour else {
                panic!("an evader");
            };
            felt.push(
                state
                    .felt
                    .expect("the circle is within the feelers' reach all along"),
            );
        }
        for now in &felt {
            assert_eq!(now.hit.obstacle, Some(0), "{hz} Hz: {now:?}");
        }
        let moved = common::feel::casts_among(&felt, &format!("{hz} Hz"));
        assert!(
            moves.contains(&moved),
            "{hz} Hz: the felt point moved on {moved} of 8 ticks, expected {moves:?}"
        );
    }
}
