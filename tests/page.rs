//! The page's address read as the program's command line (`src/page.rs`), natively: the settings
//! mean what the same flags mean, and a bad address gets a one-line reason naming the setting.

use steering_arena::page::{arguments, settings};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;

#[test]
fn the_readme_address_sets_mode_seed_and_agents() {
    let cli = settings("?mode=flock&seed=7&agents=500").expect("a good address");
    let world = cli.common.world_config(Script::Keys);
    assert_eq!(world.mode, Mode::Flock);
    assert_eq!(world.seed, 7);
    assert_eq!(world.agents, Some(500));
    assert_eq!(world.script, Script::Keys);
}

#[test]
fn no_query_is_the_programs_defaults() {
    for query in ["", "?", "?&&"] {
        let cli = settings(query).expect("an empty address");
        let world = cli.common.world_config(Script::Keys);
        assert_eq!(world.mode, Mode::LosChase, "{query:?}");
        assert_eq!(world.seed, 1, "{query:?}");
        assert_eq!(world.agents, None, "{query:?}");
        assert!(cli.command.is_none());
    }
}

#[test]
fn modes_by_digit_and_any_case_switches_and_escapes() {
    let cli = settings("?mode=3&evade_flip&lead=off&player=CIRCLE&idle-seconds=2.5").unwrap();
    let world = cli.common.world_config(Script::Keys);
    assert_eq!(world.mode, Mode::LosChase);
    assert!(world.flip);
    assert!(!world.lead);
    assert_eq!(world.script, Script::Circle);
    assert_eq!(cli.idle_seconds, 2.5);
    // `%2D` is '-', `+` a space (which the mode's name does not take).
    let cli = settings("?mode=tile%2Dchase&lead=1").unwrap();
    assert_eq!(cli.common.mode, Some(Mode::TileChase));
    assert!(cli.common.lead);
    assert!(settings("?mode=tile+chase").is_err());
}

#[test]
fn the_third_banks_scene_method_shape_and_combination_come_from_the_address() {
    let cli = settings("?mode=crowd&scene=doorway&avoid=Predictive&combine=dithered").unwrap();
    let world = cli.common.world_config(Script::Keys);
    assert_eq!(world.mode, Mode::Crowd);
    assert_eq!(world.scene.name(), "doorway");
    assert_eq!(world.avoid.name(), "predictive");
    assert_eq!(world.combine.map(|m| m.name()), Some("dithered"));
    let cli = settings("?mode=formation&shape=ring&assign=fixed").unwrap();
    let world = cli.common.world_config(Script::Keys);
    assert_eq!(world.shape.name(), "ring");
    assert!(world.flip, "fixed slots are the formation's flip");
    let world = settings("?mode=hide&bodyguards")
        .unwrap()
        .common
        .world_config(Script::Keys);
    assert!(world.flip, "bodyguards are hide's flip");
    let e = settings("?combine=sum").map(|_| ()).unwrap_err();
    assert!(e.starts_with("address: ") && e.contains("sum"), "{e}");
}

#[test]
fn a_query_becomes_one_argument_per_setting() {
    assert_eq!(
        arguments("?mode=flock&seed=7&lead").unwrap(),
        ["steering-arena", "--mode=flock", "--seed=7", "--lead"]
    );
    // A value is never read as a flag of its own.
    let e = settings("?mode=--help").unwrap_err();
    assert!(e.starts_with("address: ") && e.contains("--help"), "{e}");
}

#[test]
fn a_bad_address_says_which_setting_in_one_line() {
    let cases = [
        ("?seed=-1", "--seed"),
        ("?agents=lots", "--agents"),
        ("?mode=warp", "warp"),
        ("?record=/tmp/x", "unknown setting \"record\""),
        ("?arena=a.json", "unknown setting \"arena\""),
        ("?lead=maybe", "lead=maybe"),
        ("?seed=%zz", "%"),
        ("?seed=", "--seed"),
    ];
    for (query, named) in cases {
        let e = settings(query).map(|_| ()).unwrap_err();
        assert!(e.starts_with("address: "), "{query}: {e}");
        assert!(e.contains(named), "{query}: {e} does not name {named}");
        assert!(!e.contains('\n'), "{query}: {e}");
    }
}
