//! Modes 3 and 4's chasers (the book's chase, no avoidance) that end pressed against an obstacle
//! say so: `blocked` in their state word after half a second of barely moving against it.
//!
//! - one chaser behind a wall from a player standing still: not `blocked` before 0.5 s pressed,
//!   `blocked` after, in both modes; the fleeing form never;
//! - the default arena with the player standing still: at least two of four chasers end
//!   `blocked` within 10 s in each mode (as a new player meets it), every one of them slow and
//!   touching an obstacle;
//! - with no obstacles, no chaser is ever `blocked` (walls do not count), whatever the player does.

mod common;

use common::arena::{data_on, empty, open_built_in};
use common::world::{idle, one_agent};
use glam::Vec2;
use steering_arena::data::arena::ObstacleData;
use steering_arena::data::built_in;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{Input, World, WorldConfig};

fn config(mode: Mode, flip: bool, script: Script) -> WorldConfig {
    WorldConfig {
        mode,
        flip,
        script,
        seed: 1,
        ..WorldConfig::default()
    }
}

/// The ticks (of `ticks`) on which agent 0 said `blocked`.
fn blocked_ticks(world: &mut World, ticks: u64) -> Vec<u64> {
    let mut said = Vec::new();
    for tick in 1..=ticks {
        world.tick(&Input::default());
        if world.agents[0].state == "blocked" {
            said.push(tick);
        }
    }
    said
}

#[test]
fn a_chaser_pressed_against_a_wall_says_blocked_after_half_a_second() {
    // A wall across the way from the chaser (left) to the player (right, standing still).
    let arena = steering_arena::data::arena::ArenaData {
        obstacles: vec![ObstacleData::Rect {
            x: 500.0,
            y: 200.0,
            w: 40.0,
            h: 400.0,
        }],
        player_start: [900.0, 400.0],
        ..empty(1280.0, 800.0)
    };
    let data = data_on(arena);
    for mode in [Mode::LosChase, Mode::Intercept] {
        let mut world = one_agent(
            &data,
            config(mode, false, Script::Still),
            Vec2::new(400.0, 400.0),
            Vec2::ZERO,
        );
        let said = blocked_ticks(&mut world, 300);
        let first = *said
            .first()
            .unwrap_or_else(|| panic!("{mode:?}: never blocked"));
        // It reaches the wall (some 60 px away) from rest within 1.5 s, then is pressed 0.5 s.
        assert!(
            (30..=130).contains(&first),
            "{mode:?}: blocked from tick {first}"
        );
        assert_eq!(
            said.len() as u64,
            300 - first + 1,
            "{mode:?}: blocked on and off"
        );
        let a = &world.agents[0];
        assert!(
            a.body.pos.x < 500.0 && a.body.pos.x > 480.0,
            "{mode:?}: {}",
            a.body.pos
        );
        // Half a second pressed: the first 0.5 s against the wall are not `blocked`.
        assert!(a.pressed >= 0.5);

        let mut fleeing = one_agent(
            &data,
            config(mode, true, Script::Still),
            Vec2::new(600.0, 400.0),
            Vec2::ZERO,
        );
        assert!(
            blocked_ticks(&mut fleeing, 300).is_empty(),
            "{mode:?} flipped"
        );
    }
}

#[test]
fn on_the_default_arena_chasers_end_blocked_and_say_so() {
    for mode in [Mode::LosChase, Mode::Intercept] {
        let mut world = World::new(&built_in(), config(mode, false, Script::Still));
        let mut ever = std::collections::BTreeSet::new();
        for _ in 0..600 {
            world.tick(&Input::default());
            for a in world.agents.iter().filter(|a| a.state == "blocked") {
                ever.insert(a.id);
                let step = a.body.pos.distance(a.prev_pos) / world.dt;
                assert!(
                    step < 0.1 * world.tuning.chaser.max_speed,
                    "{mode:?}: {step} px/s"
                );
                let r = world.tuning.chaser.radius;
                assert!(
                    !world.arena.is_clear(a.body.pos, r + 1.0),
                    "{mode:?}: nothing near"
                );
            }
        }
        assert!(ever.len() >= 2, "{mode:?}: blocked chasers {ever:?}");
    }
}

#[test]
fn with_no_obstacles_no_chaser_is_ever_blocked() {
    let data = open_built_in();
    for mode in [Mode::LosChase, Mode::Intercept] {
        for script in [Script::Still, Script::Line, Script::Circle, Script::Flee] {
            let mut world = World::new(&data, config(mode, false, script));
            idle(&mut world, 0);
            for tick in 0..600 {
                world.tick(&Input::default());
                let blocked = world.agents.iter().filter(|a| a.state == "blocked").count();
                assert_eq!(blocked, 0, "{mode:?} {script:?} tick {tick}");
            }
        }
    }
}
