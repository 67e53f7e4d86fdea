//! The guards' state machine without a window: the machine file parses and its mistakes are
//! named by field path, the compiled machine walks patrol → chase → search → return → patrol on
//! the right ticks, a power-up sends every state that lists it to flee, perception sees through
//! the open and not through the default arena's obstacles, within one look period, and none of
//! it allocates in a tick.

mod common;

use common::counting::{Counting, allocations};
use common::scratch;
use glam::Vec2;
use serde_json::{Value, json};
use steering_arena::data::Source;
use steering_arena::data::arena;
use steering_arena::data::fsm::{
    self, BUILT_IN, Condition, FSM_SLIDERS, FsmTuning, GuardBehaviour, RouteMode,
};
use steering_arena::sim::fsm::{
    Conditions, GuardMind, Hearing, LookSchedule, Machine, Route, RouteCursor, StateId, Tally,
    Vision,
};
use steering_arena::sim::space::arena::Arena;

#[global_allocator]
static GLOBAL: Counting = Counting;

const DT: f32 = 1.0 / 60.0;

fn machine() -> Machine {
    Machine::compile(&fsm::built_in()).expect("the built-in machine compiles")
}

fn default_arena() -> Arena {
    Arena::from_data(&arena::parse(arena::BUILT_IN).expect("built-in arena parses"))
}

fn id(m: &Machine, name: &str) -> StateId {
    m.state_named(name)
        .unwrap_or_else(|| panic!("no state {name}"))
}

fn default_value() -> Value {
    serde_json::from_str(BUILT_IN).expect("built-in fsm.json is JSON")
}

/// The error `fsm::parse` gives for `v`, checked to be one line.
fn error(v: &Value) -> String {
    error_of(&v.to_string())
}

fn error_of(text: &str) -> String {
    match fsm::parse(text) {
        Ok(d) => panic!("accepted a broken machine: {d:?}\nfrom {text}"),
        Err(e) => {
            assert!(!e.contains('\n'), "not one line: {e:?}");
            e
        }
    }
}

#[test]
fn the_default_machine_parses_into_five_states_eleven_transitions_and_four_routes() {
    let data = fsm::built_in();
    let m = machine();
    assert_eq!(m.state_count(), 5);
    assert_eq!(m.name(m.initial()), "patrol");
    for (s, name) in m
        .states()
        .zip(["patrol", "chase", "search", "flee", "return"])
    {
        assert_eq!(m.name(s), name);
        assert_eq!(m.behaviour(s).name(), name);
    }
    let rows: Vec<(&str, Condition)> = m
        .transitions()
        .iter()
        .enumerate()
        .map(|(i, t)| (m.label(i), t.condition))
        .collect();
    assert_eq!(
        rows,
        [
            ("patrol>flee", Condition::Powered),
            ("patrol>chase", Condition::SeesPlayer),
            ("chase>flee", Condition::Powered),
            ("chase>search", Condition::LostPlayerFor { seconds: 1.5 }),
            ("search>flee", Condition::Powered),
            ("search>chase", Condition::SeesPlayer),
            ("search>return", Condition::SearchDone),
            ("return>flee", Condition::Powered),
            ("return>chase", Condition::SeesPlayer),
            ("return>patrol", Condition::AtRoute),
            ("flee>return", Condition::PowerEnded),
        ]
    );
    assert_eq!(m.routes().len(), 4);
    let modes: Vec<RouteMode> = m.routes().iter().map(Route::mode).collect();
    assert_eq!(
        modes,
        [
            RouteMode::Loop,
            RouteMode::BackAndForth,
            RouteMode::Loop,
            RouteMode::BackAndForth
        ]
    );
    assert_eq!(data.check_routes_inside(1280.0, 768.0), Ok(()));
    // Written out and read back, the machine is the same.
    assert_eq!(fsm::parse(&fsm::to_json(&data)), Ok(data));
}

#[test]
fn the_default_routes_keep_a_guard_clear_of_every_obstacle_of_the_default_arena() {
    let arena = default_arena();
    // A guard's radius (10) and a margin: the whole body passes every segment.
    let body = 16.0;
    let m = machine();
    let mut length = 0.0;
    for (r, route) in m.routes().iter().enumerate() {
        for (j, p) in route.points().iter().enumerate() {
            assert!(
                arena.is_clear(*p, body) && arena.contains(*p),
                "route {r} point {j} {p}"
            );
        }
        for i in 0..route.segment_count() {
            let (a, b) = route.segment(i);
            let d = b - a;
            let hit = arena.sweep_obstacles(a, d.normalize(), d.length(), body);
            assert_eq!(hit, None, "route {r} segment {i} from {a} to {b}");
            length += d.length();
        }
    }
    // Four routes of real length, not four points.
    assert!(length > 3000.0, "total route length {length}");
}

#[test]
fn an_unknown_state_is_named_by_its_field_path_and_the_file() {
    let mut v = default_value();
    v["transitions"][3]["to"] = json!("hunt");
    assert_eq!(error(&v), "transitions[3].to: unknown state \"hunt\"");

    let dir = scratch::folder("unknown-state");
    let path = scratch::write(&dir, "fsm.json", &v.to_string());
    let e = fsm::load(&Source::File(path.clone())).expect_err("the machine is broken");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: transitions[3].to: unknown state \"hunt\"",
            path.display()
        )
    );

    let mut v = default_value();
    v["transitions"][0]["from"] = json!("sleep");
    assert_eq!(error(&v), "transitions[0].from: unknown state \"sleep\"");
    let mut v = default_value();
    v["initial"] = json!("sleep");
    assert_eq!(error(&v), "initial: unknown state \"sleep\"");
}

#[test]
fn an_unknown_condition_is_named_with_the_closed_set() {
    let mut v = default_value();
    v["transitions"][1]["if"] = json!("smells_player");
    assert_eq!(
        error(&v),
        "transitions[1].if: unknown condition \"smells_player\" (one of sees_player, \
         lost_player_for, search_done, powered, power_ended, at_route)"
    );
}

#[test]
fn a_route_with_no_points_is_refused() {
    let mut v = default_value();
    v["routes"][2]["points"] = json!([]);
    assert_eq!(error(&v), "routes[2].points: must not be empty");
    let mut v = default_value();
    v["routes"] = json!([]);
    assert_eq!(error(&v), "routes: must not be empty");
}

#[test]
fn a_syntax_error_gives_its_line_and_column() {
    // A comma missing after line 3.
    let text = r#"{
  "initial": "patrol",
  "states": [{ "name": "patrol" }]
  "transitions": []
}
"#;
    assert_eq!(error_of(text), "line 4 column 3: expected `,` or `}`");
    assert_eq!(
        error_of("{\"initial\": \"patrol\", \"states\": [{\"name\": \"patrol\"}"),
        "line 1 column 51: EOF while parsing a list"
    );
}

/// A change to the default machine's JSON.
type Edit = fn(&mut Value);

#[test]
fn the_other_mistakes_each_name_their_field() {
    let cases: Vec<(Edit, &str)> = vec![
        (
            |v| v["states"][2]["name"] = json!("patrol"),
            "states[2].name: duplicate state \"patrol\"",
        ),
        (
            |v| v["transitions"][0]["to"] = json!("patrol"),
            "transitions[0].to: a transition from \"patrol\" to itself",
        ),
        (
            |v| {
                v["transitions"][3]
                    .as_object_mut()
                    .expect("a transition is an object")
                    .remove("seconds");
            },
            "transitions[3].seconds: required by lost_player_for",
        ),
        (
            |v| v["transitions"][1]["seconds"] = json!(2),
            "transitions[1].seconds: sees_player takes no seconds",
        ),
        (
            |v| v["transitions"][3]["seconds"] = json!(1e39),
            "transitions[3].seconds: must be between 0 and 3600, got inf",
        ),
        (
            |v| v["transitions"][3]["seconds"] = json!(-1),
            "transitions[3].seconds: must be between 0 and 3600, got -1",
        ),
        (
            |v| v["routes"][0]["points"][1][0] = json!(1e39),
            "routes[0].points[1][0]: must be between -100000 and 100000, got inf",
        ),
        (
            |v| v["states"][0]["behaviour"] = json!("dance"),
            "states[0].behaviour: unknown behaviour \"dance\" (one of patrol, chase, search, \
             flee, return)",
        ),
        (
            |v| v["states"][4] = json!({"name": "hunt"}),
            "states[4].behaviour: state \"hunt\" needs a behaviour (one of patrol, chase, \
             search, flee, return)",
        ),
        (
            |v| v["states"][0]["name"] = json!("pa>trol"),
            "states[0].name: \"pa>trol\": a state name is 1-32 letters, digits, '_' or '-'",
        ),
        (|v| v["states"] = json!([]), "states: must not be empty"),
    ];
    for (edit, want) in cases {
        let mut v = default_value();
        edit(&mut v);
        assert_eq!(error(&v), want);
    }
    // Mistakes serde catches carry their path too.
    let mut v = default_value();
    v["routes"][0]["mode"] = json!("circle");
    let e = error(&v);
    assert!(
        e.starts_with(
            "routes[0].mode: unknown variant `circle`, expected `loop` or `back_and_forth`"
        ),
        "{e}"
    );
    let mut v = default_value();
    v["transitions"][0]["iff"] = json!("powered");
    let e = error(&v);
    assert!(
        e.starts_with(
            "transitions[0].iff: unknown field `iff`, expected one of `from`, `to`, `if`, `seconds`"
        ),
        "{e}"
    );
}

#[test]
fn a_user_machine_with_its_own_names_compiles_and_steps() {
    let text = json!({
        "initial": "watch",
        "states": [
            {"name": "watch", "behaviour": "patrol"},
            {"name": "hunt", "behaviour": "chase"}
        ],
        "transitions": [
            {"from": "watch", "to": "hunt", "if": "sees_player"},
            {"from": "hunt", "to": "watch", "if": "lost_player_for", "seconds": 0.5}
        ],
        "routes": [{"mode": "loop", "points": [[100, 100]]}]
    })
    .to_string();
    let m = Machine::compile(&fsm::parse(&text).expect("a valid user machine")).expect("compiles");
    assert_eq!(m.behaviour(id(&m, "hunt")), GuardBehaviour::Chase);
    let seen = Conditions {
        sees_player: true,
        lost_for: Some(0.0),
        ..Conditions::default()
    };
    let f = m.step(id(&m, "watch"), &seen).expect("sees_player fires");
    assert_eq!((m.label(f.index), f.index), ("watch>hunt", 0));
    let lost = Conditions {
        lost_for: Some(0.5),
        ..Conditions::default()
    };
    assert_eq!(m.step(id(&m, "hunt"), &lost).map(|f| f.index), Some(1));
    let barely = Conditions {
        lost_for: Some(0.45),
        ..Conditions::default()
    };
    assert_eq!(m.step(id(&m, "hunt"), &barely), None);
}

/// One scripted guard run through the tick order of `sim::fsm`: the player is visible on the
/// ticks `visible` says, the guard stands on its route when `on_route` says. Returns each
/// transition that fired as (tick, "from>to"), and the tally.
fn run(
    m: &Machine,
    tuning: &FsmTuning,
    ticks: u64,
    visible: impl Fn(u64) -> bool,
    on_route: impl Fn(u64) -> bool,
) -> (Vec<(u64, String)>, Tally, GuardMind) {
    let schedule = LookSchedule::new(tuning.perception_hz, 60.0);
    let mut mind = GuardMind::new(m, 0);
    let mut tally = Tally::new(m);
    let mut log = Vec::new();
    let player = Vec2::new(640.0, 384.0);
    for tick in 0..ticks {
        mind.advance(DT);
        if schedule.due(tick, 0) {
            mind.perceive(visible(tick), player + Vec2::new(tick as f32, 0.0));
        }
        let c = mind.conditions(m, tuning, false, on_route(tick));
        if let Some(f) = mind.think(m, &c, Vec2::new(320.0, 100.0)) {
            tally.fired(&f);
            log.push((tick, m.label(f.index).to_string()));
        }
        tally.ticked(mind.state);
    }
    (log, tally, mind)
}

#[test]
fn a_guard_walks_patrol_chase_search_return_patrol_on_the_right_ticks() {
    let m = machine();
    let tuning = FsmTuning::default();
    assert_eq!((tuning.perception_hz, tuning.search_seconds), (10.0, 4.0));
    // Visible from tick 60 to 119; looks every 6 ticks, so the last look that finds the player
    // is at tick 114. Lost for 1.5 s (90 ticks) after that: tick 204. Search lasts 4 s (240
    // ticks): tick 444. The guard is back on its route 60 ticks later.
    let (log, tally, mind) = run(&m, &tuning, 700, |t| (60..120).contains(&t), |t| t >= 504);
    let want: Vec<(u64, String)> = [
        (60, "patrol>chase"),
        (204, "chase>search"),
        (444, "search>return"),
        (504, "return>patrol"),
    ]
    .iter()
    .map(|(t, l)| (*t, l.to_string()))
    .collect();
    assert_eq!(log, want);
    assert_eq!(mind.last_seen, Some(Vec2::new(640.0 + 114.0, 384.0)));
    assert_eq!(m.name(mind.state), "patrol");
    // Rejoining at (320, 110) on the first segment of route 0, the guard walks on to its second
    // point.
    assert_eq!(mind.cursor.target, 1);
    assert_eq!(
        tally.transitions(&m),
        [
            ("patrol>flee", 0),
            ("patrol>chase", 1),
            ("chase>flee", 0),
            ("chase>search", 1),
            ("search>flee", 0),
            ("search>chase", 0),
            ("search>return", 1),
            ("return>flee", 0),
            ("return>chase", 0),
            ("return>patrol", 1),
            ("flee>return", 0),
        ]
        .map(|(l, n)| (l.to_string(), n))
    );
    let seconds = tally.seconds_in_state(&m, DT);
    let ticks: Vec<(String, u64)> = seconds
        .iter()
        .map(|(s, t)| (s.clone(), (t * 60.0).round() as u64))
        .collect();
    // Each tick counts in the state the guard ends it in.
    assert_eq!(
        ticks,
        [
            ("patrol", 60 + (700 - 504)),
            ("chase", 204 - 60),
            ("search", 444 - 204),
            ("flee", 0),
            ("return", 504 - 444),
        ]
        .map(|(s, n)| (s.to_string(), n as u64))
    );
}

#[test]
fn search_lasts_its_tuned_time_to_within_one_tick() {
    let m = machine();
    for seconds in [0.25, 0.5, 1.0, 1.01, 2.5, 4.0, 7.3, 20.0] {
        let tuning = FsmTuning {
            search_seconds: seconds,
            ..FsmTuning::default()
        };
        let (log, _, _) = run(&m, &tuning, 2000, |t| t == 0, |_| false);
        let entered = log
            .iter()
            .find(|(_, l)| l == "chase>search")
            .map(|(t, _)| *t)
            .expect("the guard searches");
        let left = log
            .iter()
            .find(|(_, l)| l == "search>return")
            .map(|(t, _)| *t)
            .expect("the search ends");
        let lasted = (left - entered) as f32 * DT;
        assert!(
            lasted >= seconds - 1e-4 && lasted < seconds + DT,
            "search_seconds {seconds}: lasted {lasted} s ({} ticks)",
            left - entered
        );
        // Seen at tick 0 only: lost for 1.5 s at tick 90.
        assert_eq!(entered, 90);
    }
    // Whole numbers of ticks come out exact.
    let tuning = FsmTuning::default();
    let (log, _, _) = run(&m, &tuning, 600, |t| t == 0, |_| false);
    assert_eq!(log[1], (90, "chase>search".to_string()));
    assert_eq!(log[2], (330, "search>return".to_string()));
}

#[test]
fn a_player_seen_again_while_searching_is_chased() {
    let m = machine();
    let tuning = FsmTuning::default();
    let (log, _, _) = run(&m, &tuning, 400, |t| t == 0 || t == 150, |_| false);
    let labels: Vec<(u64, &str)> = log.iter().map(|(t, l)| (*t, l.as_str())).collect();
    assert_eq!(
        labels,
        [
            (0, "patrol>chase"),
            (90, "chase>search"),
            (150, "search>chase"),
            (240, "chase>search")
        ]
    );
}

#[test]
fn a_power_up_sends_every_state_that_lists_it_to_flee_in_one_step() {
    let m = machine();
    let flee = id(&m, "flee");
    // Every other condition true at once: `powered` comes first in each state's exits.
    let everything = Conditions {
        sees_player: true,
        lost_for: Some(100.0),
        search_done: true,
        powered: true,
        at_route: true,
    };
    let listing: Vec<&str> = m
        .states()
        .filter(|&s| {
            m.exits(s)
                .any(|(_, t)| t.condition == Condition::Powered && t.to == flee)
        })
        .map(|s| m.name(s))
        .collect();
    assert_eq!(listing, ["patrol", "chase", "search", "return"]);
    for s in m.states() {
        let fired = m.step(s, &everything);
        if s == flee {
            assert_eq!(fired, None, "flee stays while the power lasts");
        } else {
            let f = fired.expect("powered fires");
            assert_eq!((f.from, f.to), (s, flee), "{}", m.label(f.index));
        }
    }
    // When the power ends, flee returns; the guard then rejoins its route and patrols.
    let mut mind = GuardMind::new(&m, 0);
    mind.state = flee;
    let off = mind.conditions(&m, &FsmTuning::default(), false, false);
    let f = mind.think(&m, &off, Vec2::ZERO).expect("power_ended fires");
    assert_eq!(m.label(f.index), "flee>return");
    assert_eq!(mind.time_in_state, 0.0);
    let home = mind.conditions(&m, &FsmTuning::default(), false, true);
    let f = mind.think(&m, &home, Vec2::ZERO).expect("at_route fires");
    assert_eq!(m.label(f.index), "return>patrol");
}

#[test]
fn a_guard_sees_the_player_in_the_open_inside_its_cone() {
    let arena = default_arena();
    let vision = Vision::from_tuning(&FsmTuning::default());
    assert_eq!(vision.range, 260.0);
    let eye = Vec2::new(640.0, 300.0);
    let east = Vec2::X;
    assert!(vision.sees(&arena, eye, east, eye + Vec2::new(200.0, 0.0)));
    // The cone's edge: 40° either side, 260 px.
    let at = |deg: f32, d: f32| eye + Vec2::from_angle(deg.to_radians()) * d;
    assert!(vision.sees(&arena, eye, east, at(39.0, 200.0)));
    assert!(vision.sees(&arena, eye, east, at(-39.0, 200.0)));
    assert!(!vision.sees(&arena, eye, east, at(41.0, 200.0)));
    assert!(!vision.sees(&arena, eye, east, at(-41.0, 200.0)));
    assert!(!vision.sees(&arena, eye, east, at(180.0, 50.0)));
    assert!(vision.sees(&arena, eye, east, at(0.0, 259.0)));
    assert!(!vision.sees(&arena, eye, east, at(0.0, 261.0)));
    // Drawn edges are the cone's.
    let (left, right) = vision.edges(eye, east);
    assert!((left - at(-40.0, 260.0)).length() < 1e-3, "{left}");
    assert!((right - at(40.0, 260.0)).length() < 1e-3, "{right}");
}

#[test]
fn the_same_player_behind_an_obstacle_of_the_default_arena_is_not_seen() {
    let arena = default_arena();
    let vision = Vision::from_tuning(&FsmTuning::default());
    // The circle of radius 48 at (320, 224) between them, 200 px apart as in the open.
    let eye = Vec2::new(220.0, 224.0);
    let player = eye + Vec2::new(200.0, 0.0);
    assert!(vision.in_cone(eye, Vec2::X, player));
    assert!(!vision.sees(&arena, eye, Vec2::X, player));
    // The rectangle 576-704 x 128-160, looking down.
    let eye = Vec2::new(640.0, 60.0);
    let player = eye + Vec2::new(0.0, 180.0);
    assert!(vision.in_cone(eye, Vec2::Y, player));
    assert!(!vision.sees(&arena, eye, Vec2::Y, player));
    // Hearing passes the wall 160-192 x 352-448: a running player 75 px away is heard, a still
    // one is not, and neither is seen.
    let hearing = Hearing::from_tuning(&FsmTuning::default());
    let ear = Vec2::new(140.0, 400.0);
    let player = Vec2::new(215.0, 400.0);
    assert!(!vision.sees(&arena, ear, Vec2::X, player));
    assert!(hearing.hears(ear, player, Vec2::new(200.0, 0.0)));
    assert!(!hearing.hears(ear, player, Vec2::ZERO));
    assert!(!hearing.hears(ear, player + Vec2::new(10.0, 0.0), Vec2::new(200.0, 0.0)));
}

#[test]
fn looks_come_at_least_perception_hz_times_a_second_spread_over_the_guards() {
    for (hz, period) in [
        (10.0, 6),
        (7.0, 8),
        (25.0, 2),
        (60.0, 1),
        (0.5, 120),
        (120.0, 1),
    ] {
        let s = LookSchedule::new(hz, 60.0);
        assert_eq!(s.period(), period, "{hz} Hz");
        // As often as asked, or every tick when asked for more.
        assert!(period as f32 / 60.0 <= 1.0 / hz.min(60.0) + 1e-6);
    }
    let s = LookSchedule::new(10.0, 60.0);
    let mut per_guard = [0u32; 4];
    for tick in 0..600 {
        let looking: Vec<u32> = (0..4).filter(|&g| s.due(tick, g)).collect();
        assert!(looking.len() <= 1, "tick {tick}: {looking:?}");
        for g in looking {
            per_guard[g as usize] += 1;
        }
    }
    assert_eq!(per_guard, [100; 4]);
}

#[test]
fn a_player_who_steps_into_view_is_seen_within_one_look_period() {
    let arena = default_arena();
    let eye = Vec2::new(220.0, 224.0);
    let vision = Vision::from_tuning(&FsmTuning::default());
    // The player walks down from behind the circle at 200 px/s along x = 420.
    let player_at = |tick: u64| Vec2::new(420.0, 224.0 + 200.0 * DT * tick as f32);
    let truth = (0..600)
        .find(|&t| vision.sees(&arena, eye, Vec2::X, player_at(t)))
        .expect("the player comes into view");
    // The sight line clears the circle once it passes 48 px from its centre: 109.4 px down,
    // on tick 33.
    assert_eq!(truth, 33, "in view at {}", player_at(truth));
    for hz in [5.0, 7.0, 10.0, 20.0, 30.0] {
        let schedule = LookSchedule::new(hz, 60.0);
        let mut worst = 0;
        for guard in 0..schedule.period() {
            let mut mind = GuardMind::new(&machine(), guard as usize);
            let mut seen_at = None;
            for tick in 0..600u64 {
                mind.advance(DT);
                if schedule.due(tick, guard) {
                    let p = player_at(tick);
                    mind.perceive(vision.sees(&arena, eye, Vec2::X, p), p);
                }
                if mind.sees_player {
                    seen_at = Some(tick);
                    break;
                }
            }
            let delay = seen_at.expect("seen") - truth;
            assert!(
                (delay as f32) * DT < 1.0 / hz,
                "{hz} Hz, guard {guard}: {delay} ticks late"
            );
            worst = worst.max(delay);
        }
        // Some guard does wait the whole period less a tick: looks are not every tick.
        assert_eq!(worst, u64::from(schedule.period()) - 1, "{hz} Hz");
    }
}

#[test]
fn routes_loop_or_turn_at_their_ends_and_rejoin_at_the_nearest_point() {
    let m = machine();
    let order = |r: usize, steps: usize| {
        let route = &m.routes()[r];
        let mut c = RouteCursor::start();
        (0..steps)
            .map(|_| {
                c.advance(route);
                c.target
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(order(0, 6), [1, 2, 3, 0, 1, 2]);
    assert_eq!(order(1, 8), [1, 2, 3, 2, 1, 0, 1, 2]);
    let loop0 = &m.routes()[0];
    let spot = loop0.nearest(Vec2::new(320.0, 100.0));
    assert_eq!(
        (spot.point, spot.segment, spot.distance),
        (Vec2::new(320.0, 110.0), 0, 10.0)
    );
    // The closing segment of a loop counts: (200, 320) back to (200, 110).
    let spot = loop0.nearest(Vec2::new(150.0, 200.0));
    assert_eq!((spot.point, spot.segment), (Vec2::new(200.0, 200.0), 3));
    let mut c = RouteCursor::start();
    c.resume(loop0, spot);
    assert_eq!(c.target, 0);
    // Back and forth: walking backwards, a rejoining guard heads for the segment's start.
    let line = &m.routes()[1];
    let spot = line.nearest(Vec2::new(1050.0, 60.0));
    assert_eq!((spot.point, spot.segment), (Vec2::new(1050.0, 90.0), 1));
    let mut c = RouteCursor {
        target: 0,
        forward: false,
    };
    c.resume(line, spot);
    assert_eq!(
        c,
        RouteCursor {
            target: 1,
            forward: false
        }
    );
    // Following: within reach of the waypoint, on to the next.
    let mut c = RouteCursor::start();
    assert_eq!(
        c.follow(loop0, Vec2::new(300.0, 300.0), 12.0),
        Vec2::new(200.0, 110.0)
    );
    assert_eq!(
        c.follow(loop0, Vec2::new(205.0, 115.0), 12.0),
        Vec2::new(440.0, 110.0)
    );
}

#[test]
fn the_tuning_section_defaults_fill_a_partial_section_and_stay_in_range() {
    let t = FsmTuning::default();
    assert_eq!(t.validate(), Ok(()));
    assert_eq!((t.power_seconds, t.pickup_respawn_s), (8.0, 15.0));
    let partial: FsmTuning =
        serde_json::from_str(r#"{"power_seconds": 3.0}"#).expect("a partial section loads");
    assert_eq!(
        partial,
        FsmTuning {
            power_seconds: 3.0,
            ..t
        }
    );
    assert!(FSM_SLIDERS.iter().all(|s| s.path.starts_with("fsm.")));
    let mut bad = t;
    (FSM_SLIDERS[0].set)(&mut bad, f32::NAN);
    assert_eq!(
        bad.validate().map_err(|e| e.to_string()),
        Err("fsm.vision_range: must be between 10 and 2000, got NaN".to_string())
    );
}

#[test]
fn a_guard_tick_allocates_nothing() {
    let m = machine();
    let tuning = FsmTuning::default();
    let arena = default_arena();
    let vision = Vision::from_tuning(&tuning);
    let hearing = Hearing::from_tuning(&tuning);
    let schedule = LookSchedule::new(tuning.perception_hz, 60.0);
    let mut minds: Vec<GuardMind> = (0..4).map(|i| GuardMind::new(&m, i)).collect();
    let mut tally = Tally::new(&m);
    let eye = Vec2::new(220.0, 224.0);
    let mut fired = 0;
    let before = allocations();
    for tick in 0..1200u64 {
        let player = Vec2::new(420.0, 100.0 + (tick % 400) as f32);
        let powered = (600..900).contains(&tick);
        for (g, mind) in minds.iter_mut().enumerate() {
            mind.advance(DT);
            if schedule.due(tick, g as u32) {
                let found = vision.sees(&arena, eye, Vec2::X, player)
                    || hearing.hears(eye, player, Vec2::new(0.0, 60.0));
                mind.perceive(found, player);
            }
            let pos = mind.patrol_target(&m, eye, tuning.route_reach);
            let at_route = m.route(mind.route).distance_to(pos) <= tuning.route_reach;
            let c = mind.conditions(&m, &tuning, powered, at_route);
            if let Some(f) = mind.think(&m, &c, pos) {
                tally.fired(&f);
                fired += 1;
            }
            tally.ticked(mind.state);
        }
    }
    assert_eq!(allocations() - before, 0);
    // The run did exercise the machine.
    assert!(fired >= 12, "{fired} transitions");
    assert!(tally.fires(0) + tally.fires(2) + tally.fires(4) + tally.fires(7) >= 4);
}
