//! The `fsm` mode end to end in the world: every transition a run's record shows is one the
//! machine's table allows with its condition true at that tick (checked against the record and
//! the world); a guard does not see through an obstacle and does see in the open within one look
//! period; a search lasts its tuned time and a return reaches the route; a pickup sends every
//! guard to `flee` within the tick and the power-up ends on its tick; tags and catches send a
//! guard home; a broken machine file is refused with its field path.

mod common;

use common::{bin, scratch};
use glam::Vec2;
use serde::Deserialize;
use std::collections::BTreeMap;
use steering_arena::data::fsm::{self, Condition, FsmTuning, GuardBehaviour};
use steering_arena::data::tuning::SLIDERS;
use steering_arena::data::{DataSet, built_in};
use steering_arena::sim::behaviours::guard::Guard;
use steering_arena::sim::fsm::{Conditions, Hearing, LookSchedule, Machine, Vision};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::world::{Input, World, WorldConfig};

const TICK_HZ: f32 = 60.0;

#[derive(Debug, Deserialize)]
struct Line {
    tick: u64,
    player: Body,
    agents: Vec<AgentLine>,
    events: Vec<String>,
}

#[derive(Debug, Deserialize, Clone, Copy)]
struct Body {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
}

#[derive(Debug, Deserialize)]
struct AgentLine {
    id: u32,
    kind: String,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    state: String,
}

impl Body {
    fn pos(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
    fn vel(&self) -> Vec2 {
        Vec2::new(self.vx, self.vy)
    }
}

impl AgentLine {
    fn pos(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
    fn vel(&self) -> Vec2 {
        Vec2::new(self.vx, self.vy)
    }
}

fn world(data: &DataSet, agents: usize, script: Script, seed: u64) -> World {
    World::new(
        data,
        WorldConfig {
            mode: Mode::Fsm,
            seed,
            agents: Some(agents),
            script,
            ..WorldConfig::default()
        },
    )
}

/// One tick, and its record line.
fn tick(w: &mut World) -> Line {
    w.tick(&Input::default());
    let mut buf = Vec::new();
    Recorder::new(&mut buf)
        .write(w, false)
        .expect("a record line writes to memory");
    serde_json::from_slice(&buf).expect("a record line is JSON")
}

fn guard(w: &World, i: usize) -> &Guard {
    w.agents[i]
        .behaviour
        .guard()
        .expect("every agent is a guard")
}

fn state_events(line: &Line) -> Vec<(u32, String, String)> {
    line.events
        .iter()
        .filter_map(|e| {
            let rest = e.strip_prefix("state:")?;
            let (id, change) = rest.split_once(':')?;
            let (from, to) = change.split_once('>')?;
            Some((id.parse().ok()?, from.to_string(), to.to_string()))
        })
        .collect()
}

/// What a record says about one run, line by line, with the facts each guard decided on.
struct Run {
    lines: Vec<Line>,
    /// Per line: each guard's facts and whether the world's player held a power-up.
    facts: Vec<(Vec<Conditions>, bool)>,
}

fn record(w: &mut World, ticks: usize) -> Run {
    let mut run = Run {
        lines: Vec::new(),
        facts: Vec::new(),
    };
    for _ in 0..ticks {
        let line = tick(w);
        let facts = (0..w.agents.len()).map(|i| guard(w, i).facts).collect();
        run.facts.push((facts, w.fsm.powered()));
        run.lines.push(line);
    }
    run
}

#[test]
fn every_recorded_transition_is_in_the_table_with_its_condition_true_at_that_tick() {
    let data = built_in();
    let t = data.tuning.fsm;
    let machine = Machine::compile(&data.fsm).expect("the built-in machine compiles");
    let vision = Vision::from_tuning(&t);
    let hearing = Hearing::from_tuning(&t);
    let period = LookSchedule::new(t.perception_hz, TICK_HZ).period() as u64;
    let power_ticks = (t.power_seconds * TICK_HZ).round() as u64;
    let search_ticks = (t.search_seconds * TICK_HZ).round() as u64;
    let mut fired: BTreeMap<String, u32> = BTreeMap::new();
    let mut checked = BTreeMap::<&str, u32>::new();
    for (script, seed) in [
        (Script::Hunt, 1),
        (Script::Circle, 2),
        (Script::Zigzag, 3),
        (Script::Flee, 4),
        (Script::Line, 5),
    ] {
        let mut w = world(&data, 6, script, seed);
        let arena = w.arena.clone();
        let run = record(&mut w, 120 * 60);
        // What the record alone says: the last pickup, each guard's heading and last state change.
        let mut last_pickup: Option<u64> = None;
        let mut heading: Vec<Vec2> = Vec::new();
        let mut entered: Vec<(String, u64)> = Vec::new();
        let mut prev: Option<&Line> = None;
        for (k, line) in run.lines.iter().enumerate() {
            if line.events.iter().any(|e| e.starts_with("pickup:")) {
                last_pickup = Some(line.tick);
            }
            // The decision of this line's tick ran on tick `line.tick - 1`.
            let decided = line.tick - 1;
            let powered = last_pickup.is_some_and(|p| line.tick - p < power_ticks);
            let (facts, world_powered) = &run.facts[k];
            assert_eq!(
                powered, *world_powered,
                "tick {}: the record's pickups say powered = {powered}",
                line.tick
            );
            for (id, from, to) in state_events(line) {
                let what = format!(
                    "{script:?} seed {seed} tick {}: {from}>{to} of guard {id}",
                    line.tick
                );
                let i = id as usize;
                *fired.entry(format!("{from}>{to}")).or_insert(0) += 1;
                let from_id = machine.state_named(&from).expect("a state of the machine");
                let to_id = machine.state_named(&to).expect("a state of the machine");
                let f = &facts[i];
                // First true wins: the row that fired is the first of `from`'s exits that holds,
                // and it leads to `to`.
                let (_, row) = machine
                    .exits(from_id)
                    .find(|(_, r)| f.holds(&r.condition))
                    .unwrap_or_else(|| panic!("{what}: no exit of {from} holds on {f:?}"));
                assert_eq!(row.to, to_id, "{what}: the first true exit leads elsewhere");
                // Each fact the condition rests on, from the record.
                let before = prev.expect("no transition on the first tick");
                let g_before = &before.agents[i];
                let mut h = heading[i];
                if g_before.vel().length() > 5.0 {
                    h = g_before.vel().normalize();
                }
                match row.condition {
                    Condition::Powered => assert!(powered, "{what}: not powered"),
                    Condition::PowerEnded => assert!(!powered, "{what}: still powered"),
                    Condition::AtRoute => {
                        let d = machine
                            .route(machine.route_of(i))
                            .distance_to(g_before.pos());
                        assert!(d <= t.route_reach, "{what}: {d} px off the route");
                    }
                    Condition::SearchDone => {
                        let (state, since) = &entered[i];
                        assert_eq!(state, "search", "{what}");
                        assert_eq!(
                            line.tick - since,
                            search_ticks,
                            "{what}: searched too short"
                        );
                    }
                    Condition::SeesPlayer => {
                        // The guard's last look: where it stood and faced as that tick began,
                        // where the player was once it had moved.
                        let look = (0..=decided)
                            .rev()
                            .find(|l| (l + u64::from(id)) % period == 0)
                            .expect("a look");
                        let at = |tick: u64| &run.lines[(tick - run.lines[0].tick) as usize];
                        let (eye, facing) = if look == decided {
                            (g_before.pos(), h)
                        } else {
                            let g = &at(look).agents[i];
                            (g.pos(), g.vel().normalize_or_zero())
                        };
                        // (A catch on that tick sends the player to the start before the line is
                        // written: where the guard saw it is not in the record.)
                        let after = at(look + 1);
                        let p = after.player;
                        let seen = vision.sees(&arena, eye, facing, p.pos())
                            || hearing.hears(eye, p.pos(), p.vel());
                        let caught = after.events.iter().any(|e| e.starts_with("catch:"));
                        if look == decided && !caught {
                            assert!(seen, "{what}: the look at tick {look} finds no player");
                            *checked.entry("sees_player from the record").or_insert(0) += 1;
                        }
                        assert!(f.sees_player, "{what}");
                    }
                    Condition::LostPlayerFor { seconds } => {
                        let lost = f.lost_for.expect("seen before");
                        assert!(!f.sees_player && lost >= seconds - 1e-3, "{what}: {f:?}");
                    }
                }
                *checked.entry(row.condition.name()).or_insert(0) += 1;
                entered[i] = (to.clone(), line.tick);
            }
            // Each guard's recorded state is where its last transition led.
            if entered.is_empty() {
                entered = line.agents.iter().map(|a| (a.state.clone(), 0)).collect();
                heading = line
                    .agents
                    .iter()
                    .map(|a| a.vel().normalize_or_zero())
                    .collect();
            }
            for (i, a) in line.agents.iter().enumerate() {
                assert_eq!(a.kind, "guard");
                assert_eq!(a.id as usize, i);
                assert_eq!(a.state, entered[i].0, "tick {}: guard {i}", line.tick);
                if a.vel().length() > 5.0 {
                    heading[i] = a.vel().normalize();
                }
            }
            prev = Some(line);
        }
    }
    println!("fired: {fired:?}\nchecked: {checked:?}");
    // Every row of the default table fired in these runs, each checked.
    for (i, _) in machine.transitions().iter().enumerate() {
        assert!(
            fired.get(machine.label(i)).is_some_and(|&n| n > 0),
            "{} never fired: {fired:?}",
            machine.label(i)
        );
    }
    assert!(checked["sees_player from the record"] >= 20, "{checked:?}");
}

/// A machine of one guard that stands on a route of one point, `at`.
fn standing_guard(at: Vec2) -> fsm::FsmData {
    let mut m = fsm::built_in();
    m.routes.truncate(1);
    m.routes[0].points = vec![[at.x, at.y]];
    m
}

/// One guard standing at `eye` facing `facing`, the still player at `player`; ticks until the
/// guard chases or `ticks` run out: the tick of its `patrol>chase`, if any.
fn first_sighting(
    t: FsmTuning,
    eye: Vec2,
    facing: Vec2,
    player: Vec2,
    ticks: usize,
) -> Option<u64> {
    let mut data = built_in();
    data.fsm = standing_guard(eye);
    data.tuning.fsm = t;
    let mut w = world(&data, 1, Script::Still, 1);
    w.place_agent(0, eye, facing * 20.0);
    w.place_player(player, Vec2::ZERO);
    let start = w.tick;
    for _ in 0..ticks {
        let line = tick(&mut w);
        if state_events(&line)
            .iter()
            .any(|(_, f, to)| f == "patrol" && to == "chase")
        {
            return Some(line.tick - start);
        }
        assert!(!guard(&w, 0).mind.sees_player);
    }
    None
}

#[test]
fn a_player_behind_an_obstacle_is_not_seen_and_in_the_open_is_seen_within_one_look_period() {
    let t = built_in().tuning.fsm;
    let period = LookSchedule::new(t.perception_hz, TICK_HZ).period();
    assert_eq!(period, 6);
    // The default arena's circle at (320, 224), radius 48, stands between: 240 px apart, inside
    // the 260 px range, dead ahead.
    let blocked = first_sighting(
        t,
        Vec2::new(200.0, 224.0),
        Vec2::X,
        Vec2::new(440.0, 224.0),
        600,
    );
    assert_eq!(blocked, None, "seen through the obstacle");
    // In the open, as far and as straight ahead: within one period of looks.
    let open = first_sighting(
        t,
        Vec2::new(700.0, 384.0),
        Vec2::X,
        Vec2::new(940.0, 384.0),
        600,
    )
    .expect("seen in the open");
    assert!(open <= u64::from(period), "seen after {open} ticks");
    // Out of range (the range slider at 200 px), or outside the half-angle (10°, the player 30°
    // off the heading): not seen.
    let short = FsmTuning {
        vision_range: 200.0,
        ..t
    };
    let far = first_sighting(
        short,
        Vec2::new(700.0, 384.0),
        Vec2::X,
        Vec2::new(940.0, 384.0),
        600,
    );
    assert_eq!(far, None, "seen beyond the range");
    let narrow = FsmTuning {
        vision_half_angle_deg: 10.0,
        ..t
    };
    let off_axis = Vec2::new(700.0, 384.0) + Vec2::from_angle(30f32.to_radians()) * 150.0;
    assert_eq!(
        first_sighting(narrow, Vec2::new(700.0, 384.0), Vec2::X, off_axis, 600),
        None,
        "seen outside the cone"
    );
    // ... and with the default 40° half-angle, the same spot is seen.
    assert!(first_sighting(t, Vec2::new(700.0, 384.0), Vec2::X, off_axis, 600).is_some());
    // The fsm sliders are all in the panel's table, shown in this mode.
    let shown = SLIDERS
        .iter()
        .filter(|s| s.path.starts_with("fsm.") && Mode::Fsm.shows(s))
        .count();
    assert_eq!(shown, fsm::FSM_SLIDERS.len());
}

#[test]
fn a_search_lasts_its_tuned_time_then_a_return_by_path_reaches_the_route() {
    // The guard sees the player, who then stands behind the circle obstacle out of sight: chase,
    // then search for exactly `search_seconds`, then return along the path to its route.
    let mut data = built_in();
    let eye = Vec2::new(200.0, 130.0);
    data.fsm = standing_guard(eye);
    let t = data.tuning.fsm;
    let mut w = world(&data, 1, Script::Still, 1);
    w.place_agent(0, eye, Vec2::Y * 20.0);
    w.place_player(Vec2::new(200.0, 300.0), Vec2::ZERO);
    let mut changes: Vec<(u64, String)> = Vec::new();
    let mut hidden = false;
    let mut on_route_at_patrol = None;
    for _ in 0..(20 * 60) {
        let line = tick(&mut w);
        for (_, from, to) in state_events(&line) {
            changes.push((line.tick, format!("{from}>{to}")));
            if to == "patrol" {
                let d = w.fsm.machine.route(0).distance_to(w.agents[0].body.pos);
                on_route_at_patrol = Some(d);
            }
        }
        if !hidden && changes.iter().any(|(_, c)| c == "patrol>chase") {
            // Gone: behind the circle at (320, 224), out of its cone and out of earshot.
            w.place_player(Vec2::new(390.0, 250.0), Vec2::ZERO);
            hidden = true;
        }
    }
    println!("{changes:?}");
    let names: Vec<&str> = changes.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(
        names,
        [
            "patrol>chase",
            "chase>search",
            "search>return",
            "return>patrol"
        ]
    );
    // Seen on the first look (tick 0), lost from then on: the chase gives up 1.5 s (90 ticks)
    // after that look, the search ends `search_seconds` (240 ticks) later.
    assert_eq!(changes[0].0, 1);
    assert_eq!(changes[1].0, 91);
    let search = changes[2].0 - changes[1].0;
    assert_eq!(search, (t.search_seconds * TICK_HZ).round() as u64);
    assert!(changes[3].0 - changes[2].0 < 4 * 60, "{changes:?}");
    let d = on_route_at_patrol.expect("patrolling again");
    assert!(d <= t.route_reach, "{d}");
}

#[test]
fn a_pickup_sends_every_guard_to_flee_within_the_tick_and_they_return_when_it_ends() {
    // Blind and deaf guards: nothing but the power-up moves them between states.
    let mut data = built_in();
    data.tuning.fsm.vision_range = 10.0;
    data.tuning.fsm.hearing_radius = 0.0;
    let t = data.tuning.fsm;
    let mut w = world(&data, 4, Script::Still, 1);
    for _ in 0..120 {
        tick(&mut w);
    }
    let pickup = w.arena.pickups[0];
    w.place_player(pickup, Vec2::ZERO);
    let line = tick(&mut w);
    let took = line.tick;
    assert!(
        line.events.contains(&"pickup:0".to_string()),
        "{:?}",
        line.events
    );
    let fled: Vec<u32> = state_events(&line)
        .into_iter()
        .filter(|(_, _, to)| to == "flee")
        .map(|(id, _, _)| id)
        .collect();
    assert_eq!(fled, [0, 1, 2, 3]);
    assert!(w.agents.iter().all(|a| {
        a.behaviour
            .guard()
            .is_some_and(|g| g.doing == GuardBehaviour::Flee)
    }));
    // The pickup is gone until `pickup_respawn_s` has passed; the power lasts `power_seconds`.
    assert!(!w.fsm.pickups[0].present());
    w.place_player(w.arena.player_start, Vec2::ZERO);
    let power = (t.power_seconds * TICK_HZ).round() as u64;
    let mut ended = None;
    let mut returned = BTreeMap::new();
    let mut patrolling = BTreeMap::new();
    for _ in 0..(30 * 60) {
        let line = tick(&mut w);
        if line.events.iter().any(|e| e == "power-end") {
            ended = Some(line.tick);
        }
        for (id, from, to) in state_events(&line) {
            match (from.as_str(), to.as_str()) {
                ("flee", "return") => {
                    returned.insert(id, line.tick);
                }
                ("return", "patrol") => {
                    let d = w
                        .fsm
                        .machine
                        .route(id as usize)
                        .distance_to(w.agents[id as usize].body.pos);
                    assert!(d <= t.route_reach);
                    patrolling.insert(id, line.tick);
                }
                other => panic!("{other:?} at tick {}", line.tick),
            }
        }
        if line.tick == took + (t.pickup_respawn_s * TICK_HZ).round() as u64 - 1 {
            assert!(!w.fsm.pickups[0].present());
        }
        if line.tick == took + (t.pickup_respawn_s * TICK_HZ).round() as u64 {
            assert!(w.fsm.pickups[0].present());
        }
    }
    println!("returned {returned:?}, patrolling {patrolling:?}");
    let ended = ended.expect("the power ends");
    assert_eq!(ended - took, power);
    assert!(returned.values().all(|&at| at == ended), "{returned:?}");
    assert_eq!(patrolling.len(), 4, "{patrolling:?}");
    assert!(patrolling.values().all(|&at| at - ended < 15 * 60));
}

#[test]
fn a_powered_player_tags_a_guard_home_and_an_unpowered_one_is_caught_back_to_the_start() {
    let data = built_in();
    let mut w = world(&data, 4, Script::Still, 1);
    for _ in 0..60 {
        tick(&mut w);
    }
    let home = guard(&w, 2).home;
    // Powered: the player takes a pickup, then stands on guard 2.
    w.place_player(w.arena.pickups[0], Vec2::ZERO);
    tick(&mut w);
    assert!(w.fsm.powered());
    let at = w.agents[2].body.pos;
    w.place_player(at, Vec2::ZERO);
    let line = tick(&mut w);
    assert!(
        line.events.contains(&"tag:2".to_string()),
        "{:?}",
        line.events
    );
    assert_eq!(w.score.tags, 1);
    assert_eq!(w.agents[2].body.pos, home);
    assert_eq!(
        guard(&w, 2).doing,
        GuardBehaviour::Flee,
        "the machine alone changes states"
    );
    // Standing on it at home tags it once, not every tick.
    w.place_player(home, Vec2::ZERO);
    for _ in 0..30 {
        tick(&mut w);
    }
    assert_eq!(w.score.tags, 1);
    // Unpowered (the power-up runs out): a guard's touch catches the player, who starts again.
    let mut data = built_in();
    data.arena.pickups.clear();
    let mut w = world(&data, 4, Script::Still, 1);
    for _ in 0..60 {
        tick(&mut w);
    }
    let home = guard(&w, 1).home;
    let at = w.agents[1].body.pos;
    w.place_player(at, Vec2::ZERO);
    let line = tick(&mut w);
    assert!(
        line.events.contains(&"catch:1".to_string()),
        "{:?}",
        line.events
    );
    assert_eq!(w.score.catches, 1);
    assert_eq!(w.agents[1].body.pos, home);
    assert_eq!(w.player.pos, w.arena.player_start);
}

#[test]
fn the_summary_counts_transitions_and_seconds_in_state_in_the_machine_file_order() {
    let args = [
        "sim",
        "--mode",
        "fsm",
        "--seconds",
        "60",
        "--player",
        "zigzag",
    ];
    let out = bin::run(args);
    assert!(out.status.success());
    let v = bin::summary(&out);
    let extra = &v["extra"];
    let transitions = extra["transitions"].as_object().expect("an object");
    let seconds = extra["seconds_in_state"].as_object().expect("an object");
    assert_eq!(transitions.len(), 11);
    assert_eq!(
        seconds.keys().collect::<Vec<_>>(),
        ["chase", "flee", "patrol", "return", "search"]
    );
    // Four guards for 60 s: 240 guard-seconds in all.
    let total: f64 = seconds.values().filter_map(|s| s.as_f64()).sum();
    assert!((total - 240.0).abs() < 0.01, "{total}");
    let fired: u64 = transitions.values().filter_map(|n| n.as_u64()).sum();
    assert!(fired > 10, "{transitions:?}");
    // Same command, same bytes (but for the tick timings).
    let again = bin::run(args);
    assert_eq!(
        bin::summary_without_tick_ms(&out),
        bin::summary_without_tick_ms(&again)
    );
}

#[test]
fn a_broken_machine_file_is_refused_with_its_field_path_and_exit_2() {
    let dir = scratch::folder("broken");
    let run_with = |file: &std::path::Path| {
        let file = file.to_str().expect("the scratch folder's path is UTF-8");
        bin::run(["sim", "--mode", "fsm", "--seconds", "1", "--fsm", file])
    };
    let good: serde_json::Value = serde_json::from_str(fsm::BUILT_IN).expect("JSON");
    let mut unknown_state = good.clone();
    unknown_state["transitions"][1]["to"] = "hunt".into();
    let mut unknown_condition = good.clone();
    unknown_condition["transitions"][3]["if"] = "hears_player".into();
    let mut empty_route = good.clone();
    empty_route["routes"][2]["points"] = serde_json::json!([]);
    for (name, v, path) in [
        ("state", unknown_state, "transitions[1].to"),
        ("condition", unknown_condition, "transitions[3].if"),
        ("route", empty_route, "routes[2].points"),
    ] {
        let file = scratch::write(&dir, &format!("{name}.json"), &v.to_string());
        let out = run_with(&file);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with(&format!("{}: {path}: ", file.display())),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
    // The good file runs.
    let file = scratch::write(&dir, "good.json", &good.to_string());
    let out = run_with(&file);
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
