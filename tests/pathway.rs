//! Pathways (Shift+8): the polyline's projection and distances; 40 pedestrians on the default
//! arena's loop, half each way, stay inside it, each completes traversals, and bodies overlap
//! in at most 0.1 % of agent-ticks; a drawn pathway is followed (an open one both ways, turning
//! at its ends) and a right click gives the data's back; bad pathways in an arena file are one
//! line naming the file and the field, exit 2.

mod common;

use common::world::summary;
use glam::Vec2;
use steering_arena::data::arena;
use steering_arena::data::built_in;
use steering_arena::sim::agent::Behaviour;
use steering_arena::sim::command::Command;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::space::pathway::Pathway;
use steering_arena::sim::world::{Input, World, WorldConfig};

const SEEDS: [u64; 4] = [1, 2, 3, 4];

fn config(seed: u64) -> WorldConfig {
    WorldConfig {
        mode: Mode::Pathway,
        seed,
        agents: Some(40),
        ..WorldConfig::default()
    }
}

fn figure(s: &Summary, name: &str) -> f64 {
    s.extra[name]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} in {:?}", s.extra))
}

#[test]
fn a_point_projects_onto_the_nearest_segment_with_its_distance_along() {
    let square = [
        Vec2::new(0.0, 0.0),
        Vec2::new(100.0, 0.0),
        Vec2::new(100.0, 100.0),
        Vec2::new(0.0, 100.0),
    ];
    let open = Pathway::new(&square, 10.0, false).expect("three segments");
    assert_eq!(open.length(), 300.0);
    let p = open.project(Vec2::new(130.0, 40.0));
    assert_eq!(p.point, Vec2::new(100.0, 40.0));
    assert_eq!(p.along, 140.0);
    assert_eq!(p.distance, 30.0);
    assert_eq!(p.tangent, Vec2::Y);
    assert_eq!(open.at(250.0), (Vec2::new(50.0, 100.0), Vec2::NEG_X));
    // Held to an open pathway's ends; a loop wraps round and measures the short way.
    assert_eq!(open.at(-20.0).0, Vec2::ZERO);
    let ring = Pathway::new(&square, 10.0, true).expect("a loop of four");
    assert_eq!(ring.length(), 400.0);
    assert_eq!(ring.at(410.0).0, Vec2::new(10.0, 0.0));
    assert_eq!(ring.project(Vec2::new(-5.0, 50.0)).along, 350.0);
    assert_eq!(ring.delta(390.0, 10.0), 20.0);
    assert_eq!(ring.delta(10.0, 390.0), -20.0);
    assert_eq!(open.delta(10.0, 290.0), 280.0);
    // Too few distinct points is no pathway.
    assert!(Pathway::new(&[Vec2::ONE, Vec2::ONE], 10.0, false).is_none());
    assert!(Pathway::new(&square[..2], 10.0, true).is_none());
}

#[test]
fn forty_pedestrians_stay_inside_complete_traversals_and_pass_without_touching() {
    let data = built_in();
    assert_eq!(
        data.arena.pathways.len(),
        1,
        "the default arena has its loop"
    );
    for seed in SEEDS {
        let s = summary(&data, config(seed), 90.0);
        let outside = figure(&s, "outside_fraction");
        let collisions = figure(&s, "collisions");
        let agent_ticks = 40.0 * s.ticks as f64;
        println!(
            "seed {seed}: outside {outside}, traversals {} (least {}), collisions {collisions} \
             ({:.4} % of agent-ticks)",
            s.extra["traversals"],
            s.extra["traversals_min"],
            100.0 * collisions / agent_ticks
        );
        assert!(outside <= 0.02, "seed {seed}: {outside} outside");
        assert!(figure(&s, "traversals_min") >= 1.0, "seed {seed}");
        assert!(
            collisions / agent_ticks <= 0.001,
            "seed {seed}: {collisions} overlaps in {agent_ticks} agent-ticks"
        );
        assert!(!s.non_finite && s.out_of_bounds == 0 && s.stuck_agents == 0);
        assert_eq!(s.obstacle_overlaps, 0, "seed {seed}");
    }
}

#[test]
fn half_go_each_way_and_both_streams_move_along_the_loop() {
    let data = built_in();
    let mut world = World::new(&data, config(1));
    let forward = |w: &World| {
        w.agents
            .iter()
            .filter(|a| matches!(&a.behaviour, Behaviour::Pedestrian(p) if p.forward))
            .count()
    };
    assert_eq!(forward(&world), 20);
    for _ in 0..600 {
        world.tick(&Input::default());
    }
    let way = world.pathway.ways[0].clone();
    // Each pedestrian's velocity along the path's direction where it stands has its way's sign.
    let mut along = [0.0f32; 2];
    for a in &world.agents {
        let Behaviour::Pedestrian(p) = &a.behaviour else {
            panic!("only pedestrians in this mode");
        };
        let speed = a.body.vel.dot(way.project(a.body.pos).tangent) * p.sign();
        assert!(speed > 0.0, "agent {} goes the wrong way: {speed}", a.id);
        along[usize::from(p.forward)] += speed;
    }
    assert!(
        along[0] / 20.0 > 50.0 && along[1] / 20.0 > 50.0,
        "{along:?}"
    );
    assert_eq!(forward(&world), 20);
}

#[test]
fn a_drawn_pathway_is_followed_both_ways_and_a_right_click_restores_the_data() {
    let data = built_in();
    let mut world = World::new(&data, config(2));
    // An open line across the middle, left to right and back.
    let line: Vec<Vec2> = (0..=10)
        .map(|i| {
            Vec2::new(
                200.0 + 88.0 * i as f32,
                384.0 + 60.0 * (i as f32 * 0.7).sin(),
            )
        })
        .collect();
    world.apply(Command::DrawPathway(line.clone()));
    assert!(world.events.iter().any(|e| e == "pathway:drawn"));
    assert_eq!(world.pathway.ways.len(), 1);
    assert!(!world.pathway.ways[0].cyclic);
    let way = world.pathway.ways[0].clone();
    for _ in 0..(60 * 60) {
        world.tick(&Input::default());
    }
    let inside = world
        .agents
        .iter()
        .filter(|a| way.project(a.body.pos).distance <= way.radius)
        .count();
    let turned = world
        .agents
        .iter()
        .filter(|a| matches!(&a.behaviour, Behaviour::Pedestrian(p) if p.traversals > 0))
        .count();
    println!("drawn line: {inside} of 40 inside, {turned} completed a trip");

    assert_eq!(inside, 40, "{inside} of 40 on the drawn pathway");
    assert!(
        turned >= 30,
        "{turned} of 40 went from one end to the other"
    );
    // A drag that ends near where it began closes a loop.
    let mut ring = line[..6].to_vec();
    ring.push(Vec2::new(500.0, 600.0));
    ring.push(Vec2::new(210.0, 400.0));
    world.apply(Command::DrawPathway(ring));
    assert!(world.pathway.ways[0].cyclic);
    // Ctrl+S saves the drawn pathway in place of the data's, and the file reads back.
    let saved = world.arena_to_save();
    assert_eq!(saved.pathways.len(), 1);
    assert!(saved.pathways[0].cyclic && saved.pathways[0].points.len() == 8);
    assert_eq!(arena::parse(&arena::to_json(&saved)), Ok(saved));
    world.apply(Command::RestorePathway);
    assert!(world.pathway.drawn.is_none());
    assert_eq!(
        world.pathway.ways,
        vec![Pathway::from_data(&data.arena.pathways[0]).expect("the data's loop")]
    );
    assert!(world.events.iter().any(|e| e == "pathway:data"));
    // The command's record form reads back the same.
    let c = Command::DrawPathway(vec![Vec2::new(1.5, 2.0), Vec2::new(30.0, 40.0)]);
    let text = serde_json::to_string(&c).expect("serialises");
    assert_eq!(text, r#"{"draw-pathway":[[1.5,2.0],[30.0,40.0]]}"#);
    let back: Command = serde_json::from_str(&text).expect("reads back");
    assert!(matches!(back, Command::DrawPathway(p) if p.len() == 2));
    assert!(serde_json::from_str::<Command>(r#"{"draw-pathway":[[1e39,2]]}"#).is_err());
}

#[test]
fn an_arena_without_pathways_gets_a_loop_inside_its_walls() {
    let mut data = built_in();
    data.arena.pathways.clear();
    let s = summary(&data, config(3), 40.0);
    assert_eq!(s.extra["pathways"], 1);
    assert!(figure(&s, "outside_fraction") <= 0.02, "{:?}", s.extra);
    assert!(!s.non_finite && s.out_of_bounds == 0);
}

#[test]
fn bad_pathways_name_their_field() {
    let good = arena::BUILT_IN;
    let cases = [
        (
            r#"[{"radius": 20, "points": [[10, 10]]}]"#,
            "pathways[0].points: needs at least 2 points",
        ),
        (
            r#"[{"radius": 20, "cyclic": true, "points": [[10, 10], [50, 50]]}]"#,
            "pathways[0].points: needs at least 3 points for a loop",
        ),
        (
            r#"[{"radius": 20, "points": [[10, 10], [5000, 50]]}]"#,
            "pathways[0].points[1]: point (5000, 50) is outside",
        ),
        (
            r#"[{"radius": 20, "points": [[10, 10], [10, 10.5]]}]"#,
            "pathways[0].points[1]: repeats the point before it",
        ),
        (
            r#"[{"radius": 0, "points": [[10, 10], [50, 50]]}]"#,
            "pathways[0].radius: must be between 2 and",
        ),
        (
            r#"[{"radius": 20, "points": [[10, 10], [50, 50]], "width": 3}]"#,
            "pathways[0].width: unknown field `width`",
        ),
    ];
    let start = good
        .find("\"pathways\"")
        .expect("the default arena lists pathways");
    let end = good.rfind(']').expect("the list ends") + 1;
    for (list, want) in cases {
        let text = format!("{}\"pathways\": {list}{}", &good[..start], &good[end..]);
        let err = arena::parse(&text).expect_err(want);
        assert!(err.contains(want), "{err}\n  wanted {want}");
        assert!(!err.contains('\n'));
    }
    // From the command line: one line naming the file and the field, exit 2.
    let dir = common::scratch::folder("bad_pathway");
    let list = r#"[{"radius": 20, "points": [[10, 10], [5000, 50]]}]"#;
    let text = format!("{}\"pathways\": {list}{}", &good[..start], &good[end..]);
    let file = common::scratch::write(&dir, "arena.json", &text);
    let out = common::bin::run([
        "sim".as_ref(),
        "--mode".as_ref(),
        "pathway".as_ref(),
        "--arena".as_ref(),
        file.as_os_str(),
    ]);
    let err = common::bin::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("arena.json") && err.contains("pathways[0].points[1]"),
        "{err}"
    );
}
