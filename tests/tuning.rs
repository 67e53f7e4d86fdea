//! The tuning panel's sliders (`U`): each mode shows the sliders of the behaviours its agents run
//! — the free-for-all (mode 0) every one its crowd uses — and a slider the free-for-all shows
//! acts on its agents of that kind.

use std::collections::BTreeMap;
use steering_arena::data::tuning::{SLIDERS, Tuning};
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{Input, World, WorldConfig};

fn shown(mode: Mode) -> Vec<&'static str> {
    SLIDERS
        .iter()
        .filter(|s| mode.shows(s))
        .map(|s| s.path)
        .collect()
}

fn set(tuning: &mut Tuning, path: &str, value: f32) {
    let slider = SLIDERS
        .iter()
        .find(|s| s.path == path)
        .expect("a slider of that path");
    (slider.set)(tuning, value);
}

#[test]
fn each_panel_shows_the_sliders_of_its_own_behaviours() {
    assert_eq!(
        shown(Mode::LosChase),
        [
            "player.max_speed",
            "player.acceleration",
            "player.radius",
            "chaser.max_speed",
            "chaser.max_force",
            "chaser.mass",
            "chaser.radius",
        ]
    );
    // Galaga's flights come from the patterns file: only the player is tuned here.
    assert_eq!(
        shown(Mode::Galaga),
        ["player.max_speed", "player.acceleration", "player.radius"]
    );
    // The guards: the player, their vehicle (the chasers'), intercept's look-ahead for chase,
    // evade's threat radius and look-ahead for flee, and the fsm section.
    let fsm = shown(Mode::Fsm);
    assert_eq!(
        fsm[..9],
        [
            "player.max_speed",
            "player.acceleration",
            "player.radius",
            "chaser.max_speed",
            "chaser.max_force",
            "chaser.radius",
            "intercept.max_prediction_time",
            "evade.threat_radius",
            "evade.max_prediction_time",
        ]
    );
    assert_eq!(fsm.len(), 9 + 11);
    // The hiders: the player, the bodyguards' vehicle (the chasers'), the hiders' (the evaders')
    // with their threat and feelers for evading, and the hide section.
    let hiding = shown(Mode::Hide);
    assert_eq!(hiding.len(), 3 + 2 + 1 + 4 + 2 + 5 + 4);
    assert!(
        hiding[hiding.len() - 4..]
            .iter()
            .all(|p| p.starts_with("hide."))
    );
    // The formation: the player, its members' vehicle and the formation section.
    assert_eq!(shown(Mode::Formation).len(), 3 + 4 + 8);
    // The pathway: the player, its pedestrians' vehicle and the pathway section.
    let walking = shown(Mode::Pathway);
    assert_eq!(walking.len(), 3 + 4 + 7);
    assert!(walking[3..7].iter().all(|p| p.starts_with("pedestrian.")));
    assert!(walking[7..].iter().all(|p| p.starts_with("pathway.")));
    assert!(fsm[9..].iter().all(|p| p.starts_with("fsm.")));
    // The free-for-all runs every ground behaviour in its first form (no guards): every slider
    // but the waypoint wander's, mode 7's chasers' separation and the fsm section (54 in all).
    let mixed = shown(Mode::Mixed);
    // (The second bank's flock and swarm are not in it, nor the third bank's walkers, hiders,
    // formations and pedestrians: their sliders show in their own modes.)
    let third = |p: &&str| {
        [
            "hide.",
            "crowd.",
            "member.",
            "formation.",
            "pedestrian.",
            "pathway.",
        ]
        .iter()
        .any(|s| p.starts_with(s))
    };
    let grouped = |p: &&str| {
        ["boid.", "flock.", "swarm."]
            .iter()
            .any(|s| p.starts_with(s))
    };
    let hidden: Vec<_> = SLIDERS
        .iter()
        .map(|s| s.path)
        .filter(|p| !mixed.contains(p) && !grouped(p) && !third(p))
        .collect();
    // (+ 8: the swarm's potentials toward the player and off obstacles, A, n, B, m each.)
    assert_eq!(SLIDERS.len(), 86 + 8 + 3 + 4 + 14 + 4 + 8 + 4 + 7);
    assert_eq!(
        SLIDERS.iter().filter(|s| third(&s.path)).count(),
        4 + 14 + 4 + 8 + 4 + 7
    );
    assert_eq!(SLIDERS.iter().filter(|s| grouped(&s.path)).count(), 35 + 8);
    assert_eq!(
        hidden[..4],
        [
            "wander.waypoint_seconds",
            "wander.wobble",
            "avoid.separation",
            "avoid.separation_range"
        ]
    );
    assert_eq!(hidden.len(), 4 + 11);
    assert!(hidden[4..].iter().all(|p| p.starts_with("fsm.")));
    // And each of its sliders is one some single mode shows too.
    for path in mixed {
        let elsewhere = Mode::ALL
            .iter()
            .filter(|&&m| m != Mode::Mixed)
            .any(|&m| shown(m).contains(&path));
        assert!(elsewhere, "{path} is shown only in the free-for-all");
    }
}

/// The fastest each kind of the free-for-all's ground crowd went over 10 s against `hunt`.
fn fastest_by_kind(tuning: &Tuning) -> BTreeMap<&'static str, f32> {
    let data = DataSet {
        tuning: tuning.clone(),
        ..built_in()
    };
    let mut world = World::new(
        &data,
        WorldConfig {
            mode: Mode::Mixed,
            script: Script::Hunt,
            ..WorldConfig::default()
        },
    );
    let mut fastest = BTreeMap::new();
    for _ in 0..600 {
        world.tick(&Input::default());
        for a in &world.agents {
            let speed = fastest.entry(a.behaviour.kind()).or_insert(0.0f32);
            *speed = speed.max(a.body.vel.length());
        }
    }
    fastest
}

#[test]
fn the_free_for_all_speed_sliders_hold_its_agents_of_each_kind() {
    let kinds = [
        ("chaser.max_speed", &["los-chase", "intercept"][..]),
        ("evader.max_speed", &["evade"]),
        ("wanderer.max_speed", &["wander", "avoid-wander"]),
        ("pattern.max_speed", &["pattern"]),
    ];
    let cap = 30.0;
    let before = fastest_by_kind(&built_in().tuning);
    let mut slow = built_in().tuning;
    for (path, _) in kinds {
        assert!(
            shown(Mode::Mixed).contains(&path),
            "{path} in mode 0's panel"
        );
        set(&mut slow, path, cap);
    }
    let after = fastest_by_kind(&slow);
    for (path, list) in kinds {
        for kind in list {
            let (was, now) = (before[kind], after[kind]);
            assert!(
                was > 2.0 * cap,
                "{kind} ran at {was} px/s before {path} was lowered"
            );
            assert!(
                now <= cap * 1.0001,
                "{kind} ran at {now} px/s with {path} at {cap}"
            );
        }
    }
    // The ships and the tile agents are not held by those sliders.
    assert!(before["drone"] > cap && after["drone"] > cap);
}
