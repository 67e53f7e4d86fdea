//! Hide and interpose (Shift+6): a hiding spot lies beyond an obstacle as the hunter sees it and
//! is out of its sight; hiders hunted for a minute stay out of sight far more than mode 5's
//! evaders in the same arena; bodyguards keep to the line between the hunter and their charges;
//! `T` adds the bodyguards and takes them away again.

mod common;

use common::world::summary;
use glam::Vec2;
use steering_arena::data::DataSet;
use steering_arena::data::built_in;
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::behaviours::hide::{hiding_spot, interpose_point, off_segment};
use steering_arena::sim::command::Command;
use steering_arena::sim::fsm::line_of_sight;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::arena::{Arena, Obstacle};
use steering_arena::sim::world::{Input, World, WorldConfig};

const SEEDS: [u64; 3] = [1, 2, 3];

fn config(mode: Mode, seed: u64, flip: bool) -> WorldConfig {
    WorldConfig {
        mode,
        seed,
        flip,
        script: Script::Hunt,
        ..WorldConfig::default()
    }
}

/// The share of agent-ticks the player had no line of sight to, over `seconds` of `mode`
/// against the hunting player (the same test the hide mode counts by).
fn out_of_sight(data: &DataSet, mode: Mode, seed: u64, seconds: f64) -> f64 {
    let mut world = World::new(data, config(mode, seed, false));
    let ticks = (seconds * 60.0) as u64;
    let (mut hidden, mut all) = (0u64, 0u64);
    for _ in 0..ticks {
        world.tick(&Input::default());
        for a in &world.agents {
            all += 1;
            if !line_of_sight(&world.arena, world.player.pos, a.body.pos) {
                hidden += 1;
            }
        }
    }
    hidden as f64 / all as f64
}

#[test]
fn a_hiding_spot_lies_beyond_the_obstacle_out_of_the_hunters_sight() {
    let data = built_in();
    let arena = Arena::from_data(&data.arena);
    let hunter = Vec2::new(640.0, 384.0);
    for o in arena.obstacles() {
        let spot = hiding_spot(o, hunter, 10.0, 24.0);
        let centre = o.center();
        // Beyond the centre, on the ray from the hunter.
        let (to_centre, to_spot) = (centre - hunter, spot - hunter);
        assert!(
            to_spot.length() > to_centre.length() + 10.0,
            "{o:?}: {spot}"
        );
        assert!(to_centre.normalize().dot(to_spot.normalize()) > 0.9999);
        assert!(!line_of_sight(&arena, hunter, spot), "{o:?}: {spot} seen");
    }
    let circle = Obstacle::Circle {
        center: Vec2::new(100.0, 0.0),
        radius: 30.0,
    };
    let spot = hiding_spot(&circle, Vec2::ZERO, 10.0, 20.0);
    assert!(spot.distance(Vec2::new(160.0, 0.0)) < 1e-3, "{spot}");
    let rect = Obstacle::Rect {
        min: Vec2::new(80.0, -20.0),
        max: Vec2::new(120.0, 20.0),
    };
    let spot = hiding_spot(&rect, Vec2::ZERO, 10.0, 20.0);
    assert!(spot.distance(Vec2::new(150.0, 0.0)) < 1e-3, "{spot}");
}

#[test]
fn the_interposition_point_is_the_midpoint_of_both_predicted() {
    let still = interpose_point(
        Vec2::ZERO,
        100.0,
        (Vec2::new(200.0, 0.0), Vec2::ZERO),
        (Vec2::new(0.0, 200.0), Vec2::ZERO),
    );
    assert!(still.distance(Vec2::new(100.0, 100.0)) < 1e-4);
    // Both moving right at 50 px/s; the midpoint is 100 px away at 100 px/s: a second ahead.
    let moving = interpose_point(
        Vec2::ZERO,
        100.0,
        (Vec2::new(0.0, 0.0), Vec2::new(50.0, 0.0)),
        (Vec2::new(0.0, 200.0), Vec2::new(50.0, 0.0)),
    );
    assert!(moving.distance(Vec2::new(50.0, 100.0)) < 1e-3, "{moving}");
    assert!(
        (off_segment(Vec2::new(5.0, 3.0), Vec2::ZERO, Vec2::new(10.0, 0.0)) - 3.0).abs() < 1e-6
    );
}

#[test]
fn hunted_hiders_stay_out_of_sight_far_more_than_evaders() {
    let data = built_in();
    for seed in SEEDS {
        let s = summary(&data, config(Mode::Hide, seed, false), 60.0);
        let hidden = s.extra["hidden_fraction"]
            .as_f64()
            .expect("hidden_fraction");
        let evade = out_of_sight(&data, Mode::Evade, seed, 60.0);
        println!("seed {seed}: hide {hidden:.3}, evade {evade:.3}");
        assert!(hidden >= 0.6, "seed {seed}: hidden_fraction {hidden}");
        assert!(
            hidden >= evade + 0.3,
            "seed {seed}: hide {hidden} vs evade {evade}"
        );
        assert_eq!(s.obstacle_overlaps, 0, "seed {seed}");
        assert!(!s.non_finite);
        assert!(
            s.max_step_ratio <= 1.01,
            "seed {seed}: {}",
            s.max_step_ratio
        );
    }
}

#[test]
fn bodyguards_keep_to_the_line_between_the_hunter_and_their_charges() {
    let data = built_in();
    let diameter = 2.0 * f64::from(data.tuning.chaser.radius);
    for seed in SEEDS {
        let s = summary(&data, config(Mode::Hide, seed, true), 60.0);
        let off = s.extra["guard_off_line_px"]
            .as_f64()
            .expect("guard_off_line_px");
        println!(
            "seed {seed}: off the line {off:.2} px, catches {}",
            s.catches
        );
        assert!(off <= diameter, "seed {seed}: {off} px off the line");
        assert_eq!(s.agents, 8 + data.tuning.hide.bodyguards as usize);
    }
}

#[test]
fn t_adds_the_bodyguards_and_takes_them_away() {
    let data = built_in();
    let mut world = World::new(&data, config(Mode::Hide, 1, false));
    let guards = |w: &World| {
        w.agents
            .iter()
            .filter(|a| matches!(a.behaviour, Behaviour::Bodyguard(_)))
            .count()
    };
    assert_eq!((world.agents.len(), guards(&world)), (8, 0));
    world.apply(Command::Flip(true));
    let n = data.tuning.hide.bodyguards as usize;
    assert_eq!((world.agents.len(), guards(&world)), (8 + n, n));
    for _ in 0..30 {
        world.tick(&Input::default());
    }
    for (i, a) in world.agents.iter().enumerate() {
        assert_eq!(a.id as usize, i);
        let word = world.state_word(a);
        assert!(["hide", "evade", "guard"].contains(&word), "{word}");
    }
    world.apply(Command::Flip(false));
    assert_eq!((world.agents.len(), guards(&world)), (8, 0));
}
