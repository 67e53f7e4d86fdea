//! The data files: the built-in copies parse, syntax errors report line and column, invalid values
//! report their field path, and loading a file reports problems on one line starting with its
//! path.

mod common;

use common::scratch::{self, write};
use serde_json::{Value, json};
use std::path::Path;
use steering_arena::data::{DataSources, arena, built_in, tuning};

/// The built-in tuning as a JSON value.
fn tuning_value() -> Value {
    serde_json::from_str(tuning::BUILT_IN).expect("built-in tuning.json is JSON")
}

/// A small valid arena with two circles and a rectangle, written out so tests can edit it.
fn small_arena() -> Value {
    json!({
        "width": 640,
        "height": 480,
        "tile_size": 32,
        "obstacles": [
            { "shape": "circle", "x": 100, "y": 100, "radius": 20 },
            { "shape": "circle", "x": 300, "y": 200, "radius": 40 },
            { "shape": "rect", "x": 400, "y": 300, "w": 64, "h": 32 }
        ],
        "spawns": [[32, 32], [600, 440]],
        "player_start": [320, 240]
    })
}

fn arena_error(v: &Value) -> String {
    match arena::parse(&v.to_string()) {
        Ok(a) => panic!("accepted an invalid arena: {a:?}\nfrom {v}"),
        Err(e) => {
            assert!(!e.contains('\n'), "message not on one line: {e:?}");
            e
        }
    }
}

fn tuning_error(v: &Value) -> String {
    match tuning::parse(&v.to_string()) {
        Ok(t) => panic!("accepted an invalid tuning: {t:?}\nfrom {v}"),
        Err(e) => {
            assert!(!e.contains('\n'), "message not on one line: {e:?}");
            e
        }
    }
}

/// The error names `path` as the field at fault: the message begins with `path: `.
fn assert_path(message: &str, path: &str) {
    assert!(
        message.starts_with(&format!("{path}: ")),
        "expected the field path `{path}` first, got: {message}"
    );
}

// --- built-in copies -----------------------------------------------------------------------

#[test]
fn the_built_in_files_parse_and_describe_the_spec_arena() {
    let data = built_in();
    let a = &data.arena;
    assert_eq!((a.width, a.height, a.tile_size), (1280.0, 768.0, 32.0));
    assert!(!a.obstacles.is_empty());
    assert!(!a.spawns.is_empty());
    assert_eq!(a.player_start, [640.0, 384.0]);
    let t = &data.tuning;
    assert!(t.chaser.max_speed > 0.0 && t.chaser.max_force > 0.0 && t.chaser.mass > 0.0);
    assert!(t.player.max_speed > 0.0 && t.player.radius > 0.0);
    // The same text parses through the public entry points too.
    assert_eq!(arena::parse(arena::BUILT_IN).as_ref(), Ok(a));
    assert_eq!(tuning::parse(tuning::BUILT_IN).as_ref(), Ok(t));
}

#[test]
fn the_built_in_copies_are_the_files_in_assets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let arena_file = std::fs::read_to_string(root.join("assets").join(arena::FILE_NAME))
        .expect("assets/arena.json exists");
    let tuning_file = std::fs::read_to_string(root.join("assets").join(tuning::FILE_NAME))
        .expect("assets/tuning.json exists");
    assert_eq!(arena_file, arena::BUILT_IN);
    assert_eq!(tuning_file, tuning::BUILT_IN);
}

#[test]
fn the_sixteen_times_arena_is_the_default_arena_four_times_the_size() {
    // `assets/arena-16x.json` is for bench runs at a given obstacle density: the default arena
    // with every length four times over, so K generated obstacles in it stand as far apart as
    // K / 16 in the default arena.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("assets").join("arena-16x.json"))
        .expect("assets/arena-16x.json exists");
    let big = arena::parse(&text).expect("assets/arena-16x.json is a valid arena");
    let base = built_in().arena;
    let four = |p: [f32; 2]| [p[0] * 4.0, p[1] * 4.0];
    assert_eq!(
        (big.width, big.height),
        (base.width * 4.0, base.height * 4.0)
    );
    assert_eq!(big.tile_size, base.tile_size);
    assert_eq!(big.player_start, four(base.player_start));
    assert_eq!(
        big.spawns,
        base.spawns.iter().copied().map(four).collect::<Vec<_>>()
    );
    assert_eq!(big.obstacles.len(), base.obstacles.len());
}

#[test]
fn saved_files_parse_back_to_the_same_data() {
    let data = built_in();
    assert_eq!(
        arena::parse(&arena::to_json(&data.arena)),
        Ok(data.arena.clone())
    );
    assert_eq!(
        tuning::parse(&tuning::to_json(&data.tuning)),
        Ok(data.tuning.clone())
    );
}

// --- syntax errors: line and column ----------------------------------------------------------

#[test]
fn a_stray_token_reports_its_line_and_column() {
    // The `x` is on line 3, column 17 (columns count from 1: two spaces, `"height":` in 3–11,
    // a space, `768` in 13–15, a space, `x`).
    let text = "{\n  \"width\": 1280,\n  \"height\": 768 x\n}\n";
    let e = arena::parse(text).expect_err("syntax error");
    assert!(e.contains("line 3 column 17"), "{e}");
    assert!(!e.contains('\n'), "{e:?}");
}

#[test]
fn a_missing_comma_between_sections_reports_the_next_key() {
    // After the chaser object on line 3 a comma is missing; the parser meets the `"` of "extra"
    // at line 4, column 3.
    let text = concat!(
        "{\n",
        "  \"player\": { \"max_speed\": 200.0, \"acceleration\": 1200.0, \"radius\": 12.0 },\n",
        "  \"chaser\": { \"max_speed\": 160.0, \"max_force\": 480.0, \"mass\": 1.0, \"radius\": 10.0 }\n",
        "  \"extra\": {}\n",
        "}\n"
    );
    let e = tuning::parse(text).expect_err("syntax error");
    assert!(e.contains("line 4 column 3"), "{e}");
    assert!(!e.contains('\n'), "{e:?}");
}

#[test]
fn a_trailing_comma_reports_where_the_list_closes() {
    // Line 5 is `  "spawns": [[64, 64],],`: the `]` after the trailing comma is column 23.
    let text = concat!(
        "{\n",
        "  \"width\": 1280,\n",
        "  \"height\": 768,\n",
        "  \"tile_size\": 32,\n",
        "  \"spawns\": [[64, 64],],\n",
        "  \"player_start\": [640, 384]\n",
        "}\n"
    );
    let e = arena::parse(text).expect_err("syntax error");
    assert!(e.contains("line 5 column 23"), "{e}");
}

#[test]
fn text_after_the_closing_brace_reports_its_position() {
    // A second object after a complete, valid first one: line 3, column 1.
    let valid = serde_json::to_string(&small_arena()).expect("serializes");
    let text = format!("{valid}\n\n{{}}\n");
    let e = arena::parse(&text).expect_err("trailing characters");
    assert!(e.contains("line 3 column 1"), "{e}");
}

#[test]
fn a_bad_number_deep_in_a_file_reports_its_line_and_column() {
    // Pretty-printed tuning with `"mass": 1.0` replaced by `"mass": 1..0` on whatever line it is:
    // the column is that of the second `.` (the first character that cannot continue the number).
    let pretty = serde_json::to_string_pretty(&tuning_value()).expect("serializes");
    let (line_index, line) = pretty
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"mass\""))
        .expect("tuning has a mass");
    let broken_line = line.replacen("1.0", "1..0", 1);
    let column = broken_line.find("..").expect("the break is there") + 2;
    let text: Vec<String> = pretty
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line_index {
                broken_line.clone()
            } else {
                l.to_string()
            }
        })
        .collect();
    let e = tuning::parse(&text.join("\n")).expect_err("syntax error");
    let at = format!("line {} column {}", line_index + 1, column);
    assert!(e.contains(&at), "expected `{at}` in: {e}");
}

#[test]
fn an_empty_file_and_a_truncated_file_are_syntax_errors_on_one_line() {
    for text in ["", "   \n", "{", "{\n  \"width\": 12", "[1, 2"] {
        let e = arena::parse(text).expect_err("truncated");
        assert!(
            e.contains("line ") && e.contains(" column "),
            "{text:?}: {e}"
        );
        assert!(!e.contains('\n'), "{e:?}");
    }
}

// --- invalid values: field paths --------------------------------------------------------------

#[test]
fn a_negative_radius_reports_its_obstacle_and_field() {
    let mut v = small_arena();
    v["obstacles"][1]["radius"] = json!(-5);
    let e = arena_error(&v);
    assert_path(&e, "obstacles[1].radius");
    // Zero is no better.
    v["obstacles"][1]["radius"] = json!(0);
    assert_path(&arena_error(&v), "obstacles[1].radius");
}

#[test]
fn an_obstacle_outside_the_arena_reports_the_obstacle() {
    for (x, y) in [
        (-100.0, 100.0),
        (100.0, -100.0),
        (700.0, 100.0),
        (100.0, 600.0),
    ] {
        let mut v = small_arena();
        v["obstacles"][0]["x"] = json!(x);
        v["obstacles"][0]["y"] = json!(y);
        assert_path(&arena_error(&v), "obstacles[0]");
    }
    // A rectangle entirely past the right wall, as the third obstacle.
    let mut v = small_arena();
    v["obstacles"][2]["x"] = json!(700);
    assert_path(&arena_error(&v), "obstacles[2]");
    // One that only crosses the wall is allowed.
    let mut v = small_arena();
    v["obstacles"][0]["x"] = json!(630);
    assert!(arena::parse(&v.to_string()).is_ok());
}

#[test]
fn a_bad_rectangle_size_reports_its_field() {
    let mut v = small_arena();
    v["obstacles"][2]["w"] = json!(-1);
    assert_path(&arena_error(&v), "obstacles[2].w");
    let mut v = small_arena();
    v["obstacles"][2]["h"] = json!(0);
    assert_path(&arena_error(&v), "obstacles[2].h");
}

#[test]
fn a_zero_or_negative_tile_size_reports_tile_size() {
    for size in [json!(0), json!(-32), json!(0.0), json!(1e39)] {
        let mut v = small_arena();
        v["tile_size"] = size.clone();
        let e = arena_error(&v);
        assert_path(&e, "tile_size");
    }
}

#[test]
fn bad_arena_sizes_and_points_report_their_fields() {
    let mut v = small_arena();
    v["width"] = json!(0);
    assert_path(&arena_error(&v), "width");
    let mut v = small_arena();
    v["height"] = json!(-768);
    assert_path(&arena_error(&v), "height");
    let mut v = small_arena();
    v["spawns"][1] = json!([641, 10]);
    assert_path(&arena_error(&v), "spawns[1]");
    let mut v = small_arena();
    v["spawns"] = json!([]);
    assert_path(&arena_error(&v), "spawns");
    let mut v = small_arena();
    v["player_start"] = json!([-1, 10]);
    assert_path(&arena_error(&v), "player_start");
}

#[test]
fn a_non_positive_speed_in_tuning_reports_its_path() {
    for section in ["chaser", "player"] {
        for speed in [json!(0), json!(-160), json!(0.0), json!(1e39)] {
            let mut v = tuning_value();
            v[section]["max_speed"] = speed.clone();
            let e = tuning_error(&v);
            assert_path(&e, &format!("{section}.max_speed"));
        }
    }
}

#[test]
fn other_out_of_range_tuning_values_report_their_paths() {
    for (section, field) in [
        ("chaser", "max_force"),
        ("chaser", "mass"),
        ("chaser", "radius"),
        ("player", "acceleration"),
        ("player", "radius"),
    ] {
        let mut v = tuning_value();
        v[section][field] = json!(-1);
        assert_path(&tuning_error(&v), &format!("{section}.{field}"));
    }
}

#[test]
fn a_wrong_type_reports_its_path() {
    let mut v = small_arena();
    v["width"] = json!("wide");
    assert_path(&arena_error(&v), "width");

    let mut v = small_arena();
    v["spawns"][1] = json!([600, "down"]);
    assert_path(&arena_error(&v), "spawns[1][1]");

    let mut v = small_arena();
    v["player_start"] = json!({ "x": 1, "y": 2 });
    assert_path(&arena_error(&v), "player_start");

    let mut v = tuning_value();
    v["chaser"]["max_speed"] = json!("fast");
    assert_path(&tuning_error(&v), "chaser.max_speed");

    let mut v = tuning_value();
    v["player"] = json!(200);
    assert_path(&tuning_error(&v), "player");

    let mut v = small_arena();
    v["obstacles"] = json!({ "shape": "circle" });
    assert_path(&arena_error(&v), "obstacles");
}

#[test]
fn a_wrong_type_inside_an_obstacle_names_the_obstacle() {
    let mut v = small_arena();
    v["obstacles"][1]["radius"] = json!("big");
    let e = arena_error(&v);
    assert!(
        e.starts_with("obstacles[1]"),
        "expected obstacles[1] first: {e}"
    );
    let mut v = small_arena();
    v["obstacles"][1]["shape"] = json!("hexagon");
    let e = arena_error(&v);
    assert!(
        e.starts_with("obstacles[1]"),
        "expected obstacles[1] first: {e}"
    );
}

#[test]
fn a_missing_field_is_rejected_with_its_name() {
    let mut v = small_arena();
    v.as_object_mut().expect("object").remove("tile_size");
    let e = arena_error(&v);
    assert!(e.contains("tile_size"), "{e}");
    let mut v = tuning_value();
    v["chaser"].as_object_mut().expect("object").remove("mass");
    let e = tuning_error(&v);
    assert!(e.contains("mass"), "{e}");
}

#[test]
fn an_unknown_field_is_rejected() {
    let mut v = small_arena();
    v["colour"] = json!("red");
    let e = arena_error(&v);
    assert!(e.contains("unknown field `colour`"), "{e}");

    let mut v = tuning_value();
    v["chaser"]["max_sped"] = json!(160);
    let e = tuning_error(&v);
    assert!(e.contains("unknown field `max_sped`"), "{e}");
    assert_path(&e, "chaser.max_sped");

    let mut v = tuning_value();
    v["chasers"] = json!({});
    let e = tuning_error(&v);
    assert!(e.contains("unknown field `chasers`"), "{e}");

    let mut v = small_arena();
    v["obstacles"][0]["colour"] = json!("red");
    let e = arena_error(&v);
    assert!(e.contains("colour"), "{e}");
    assert!(e.starts_with("obstacles[0]"), "{e}");
}

// --- loading files through DataSources -----------------------------------------------------

#[test]
fn a_bad_arena_file_is_reported_on_one_line_starting_with_its_path() {
    let dir = scratch::folder("bad-arena");
    let syntax = write(
        &dir,
        "syntax.json",
        "{\n  \"width\": 1280,\n  \"height\": 768 x\n}\n",
    );
    let mut invalid = small_arena();
    invalid["obstacles"][1]["radius"] = json!(-3);
    let invalid = write(&dir, "invalid.json", &invalid.to_string());

    for (path, detail) in [
        (&syntax, "line 3 column 17"),
        (&invalid, "obstacles[1].radius: "),
    ] {
        let e = DataSources::resolve(Some(path), None, None)
            .load()
            .expect_err("a bad file must not load");
        let message = e.to_string();
        let prefix = format!("{}: ", path.display());
        assert!(message.starts_with(&prefix), "{message}");
        assert!(message.contains(detail), "{message}");
        assert!(!message.contains('\n'), "{message:?}");
        assert_eq!(e.file, path.display().to_string());
    }
}

#[test]
fn a_bad_tuning_file_is_reported_on_one_line_starting_with_its_path() {
    let dir = scratch::folder("bad-tuning");
    let mut v = tuning_value();
    v["chaser"]["max_speed"] = json!(0);
    let path = write(&dir, "tuning.json", &v.to_string());
    let arena = write(&dir, "arena.json", &small_arena().to_string());
    let e = DataSources::resolve(Some(&arena), Some(&path), None)
        .load()
        .expect_err("a bad file must not load");
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{}: chaser.max_speed: ", path.display())),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message:?}");
}

#[test]
fn a_missing_file_and_a_directory_are_one_line_errors_naming_the_path() {
    let dir = scratch::folder("missing");
    let missing = dir.join("no-such-arena.json");
    for path in [&missing, &dir] {
        let e = DataSources::resolve(Some(path), None, None)
            .load()
            .expect_err("cannot load");
        let message = e.to_string();
        assert!(
            message.starts_with(&format!("{}: ", path.display())),
            "{message}"
        );
        assert!(!message.contains('\n'), "{message:?}");
        // Says why, without the OS error number.
        assert!(
            message.len() > path.display().to_string().len() + 4,
            "{message}"
        );
        assert!(!message.contains("os error"), "{message}");
    }
}

#[test]
fn a_file_that_is_not_text_is_a_one_line_error() {
    let dir = scratch::folder("binary");
    let path = dir.join("arena.json");
    std::fs::write(&path, [0x7b, 0xff, 0xfe, 0x00, 0x7d, b'\n', b'x']).expect("write");
    let e = DataSources::resolve(Some(&path), None, None)
        .load()
        .expect_err("cannot load");
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{}: ", path.display())),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message:?}");
}

#[test]
fn good_files_load_through_data_sources() {
    let dir = scratch::folder("good");
    let arena_path = write(&dir, "arena.json", &small_arena().to_string());
    let mut t = tuning_value();
    t["chaser"]["max_speed"] = json!(123.0);
    let tuning_path = write(&dir, "tuning.json", &t.to_string());
    let data = DataSources::resolve(Some(&arena_path), Some(&tuning_path), None)
        .load()
        .expect("valid files load");
    assert_eq!(data.arena.width, 640.0);
    assert_eq!(data.arena.obstacles.len(), 3);
    assert_eq!(data.tuning.chaser.max_speed, 123.0);
}
