//! The settings folder (SPEC §8): the window's saves land there and never in `assets/`, a saved
//! arena keeps the compact shape it is read in, `Ctrl+R` restores the defaults, the best times
//! survive a round trip, `N` steps through the arenas, and a broken saved file is a one-line
//! error while the last good data keeps running. Each test gets its own scratch folder as the
//! settings folder, so nobody's saved files change them.

mod common;

use common::scratch;
use glam::Vec2;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use steering_arena::app::burst::{self, Bursts};
use steering_arena::app::saves::{Saves, read_best};
use steering_arena::data::best::{self, Best, ModeBest};
use steering_arena::data::settings::{self, Flags};
use steering_arena::data::{self, DataSources, Source, arena, tuning};
use steering_arena::sim::command::Command;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::space::arena::Obstacle;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// Every file under `assets/` (its folders too), by name, with its bytes.
fn assets_bytes() -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut folders = vec![Path::new("assets").to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the repository's assets/") {
            let p = entry.expect("an entry").path();
            if p.is_dir() {
                folders.push(p);
            } else {
                let bytes = std::fs::read(&p).expect("read an asset");
                files.insert(p.display().to_string(), bytes);
            }
        }
    }
    files
}

fn window_saves(folder: &Path) -> Saves {
    let (saves, error) = Saves::new(Flags::default(), Some(folder.to_path_buf()));
    assert_eq!(error, None, "a fresh settings folder has nothing broken");
    saves
}

fn world_on(data: &data::DataSet, mode: Mode) -> World {
    World::new(
        data,
        WorldConfig {
            mode,
            script: Script::Keys,
            ..WorldConfig::default()
        },
    )
}

#[test]
fn saves_go_to_the_settings_folder_and_leave_assets_byte_for_byte_as_they_were() {
    let folder = scratch::folder("saves_go_to_the_settings_folder");
    let before = assets_bytes();
    let mut saves = window_saves(&folder);
    let (data, _, error) = saves.initial_data();
    assert_eq!(error, None);
    let mut world = world_on(&data, Mode::Avoid);
    world.apply(Command::tune("player.max_speed", 321.0).expect("a slider"));
    world.apply(Command::AddObstacle(Obstacle::Circle {
        center: Vec2::new(700.0, 300.0),
        radius: 24.0,
    }));

    let said = saves.save_tuning(&world.tuning);
    let tuning_file = folder.join("tuning.json");
    assert_eq!(
        said,
        format!("saved the tuning to {}", tuning_file.display())
    );
    let said = saves.save_arena(&world.arena_to_save());
    let arena_file = folder.join("arena.json");
    assert_eq!(said, format!("saved the arena to {}", arena_file.display()));

    assert_eq!(assets_bytes(), before, "nothing under assets/ changed");
    let saved = tuning::parse(&std::fs::read_to_string(&tuning_file).expect("saved"))
        .expect("the saved tuning reads");
    assert_eq!(saved.player.max_speed, 321.0);
    // The window now reads the saved files before assets/.
    assert_eq!(saves.sources.tuning, Source::File(tuning_file));
    assert_eq!(saves.sources.arena, Source::File(arena_file));
    let (again, _, _) = window_saves(&folder).initial_data();
    assert_eq!(again.tuning.player.max_speed, 321.0);
    assert_eq!(again.arena.obstacles.len(), data.arena.obstacles.len() + 1);
    // `sim` does not: its sources are the repository's.
    let sim = DataSources::resolve(None, None, None);
    assert_eq!(
        sim.tuning,
        Source::File(PathBuf::from("assets/tuning.json"))
    );
    assert_eq!(saves.without_settings().tuning, sim.tuning);
}

#[test]
fn no_settings_folder_saves_nothing_and_says_so() {
    let before = assets_bytes();
    let (mut saves, error) = Saves::new(Flags::default(), None);
    assert_eq!(error, None);
    let data = data::built_in();
    let said = saves.save_tuning(&data.tuning);
    assert!(
        said.starts_with("the tuning not saved: no settings folder"),
        "{said}"
    );
    let said = saves.save_arena(&data.arena);
    assert!(
        said.starts_with("the arena not saved: no settings folder"),
        "{said}"
    );
    assert_eq!(assets_bytes(), before);
}

#[test]
fn a_saved_arena_reads_back_equal_in_the_compact_shape_of_the_assets() {
    // The default arena: 8 obstacles, 8 spawn points, 4 pickups, one pathway; the file in assets/
    // is 25 lines.
    let data = data::built_in();
    let text = arena::to_json(&data.arena);
    assert_eq!(arena::parse(&text), Ok(data.arena.clone()));
    // { + 3 sizes + "obstacles": [ + 8 + ], + "spawns": [ + 2 lines of 4 + ], + start + pickups
    // + "pathways": [ + 1 + ] + }
    assert_eq!(text.lines().count(), 24, "{text}");
    assert!(text.lines().count() <= arena::BUILT_IN.lines().count());
    assert!(
        text.contains("\n    { \"shape\": \"circle\", \"x\": 320, \"y\": 224, \"radius\": 48 },\n")
    );
    assert!(text.contains("\n    { \"radius\": 36, \"cyclic\": true, \"points\": [[100, 100], "));

    // With a clicked obstacle at a fractional place: one line more, every number read back.
    let mut world = world_on(&data, Mode::Avoid);
    world.apply(Command::AddObstacle(Obstacle::Circle {
        center: Vec2::new(700.3, 301.7),
        radius: 24.0,
    }));
    let saved = world.arena_to_save();
    let text = arena::to_json(&saved);
    assert_eq!(arena::parse(&text), Ok(saved));
    assert_eq!(text.lines().count(), 25);

    // The maze (24 rectangles, 34 lines as shipped) stays as short.
    let (_, maze_text) = arena::built_in_named("maze.json").expect("the maze is built in");
    let maze = arena::parse(maze_text).expect("the maze reads");
    let text = arena::to_json(&maze);
    assert_eq!(arena::parse(&text), Ok(maze.clone()));
    assert!(text.lines().count() <= maze_text.lines().count(), "{text}");
    assert_eq!(
        text.lines().count(),
        // { + 3 sizes + 2 brackets and the obstacles + 2 and the spawn lines + start + } = 10
        maze.obstacles.len()
            + maze.spawns.len().div_ceil(arena::POINTS_PER_LINE)
            + usize::from(!maze.pickups.is_empty())
            + 10
    );

    // Saved twice over, the file does not grow.
    let folder = scratch::folder("a_saved_arena_reads_back_equal");
    let mut saves = window_saves(&folder);
    saves.save_arena(&data.arena);
    let once = std::fs::read(folder.join("arena.json")).expect("saved");
    let (reread, _, _) = saves.initial_data();
    saves.save_arena(&reread.arena);
    assert_eq!(
        std::fs::read(folder.join("arena.json")).expect("saved"),
        once
    );
}

#[test]
fn restore_defaults_sets_the_saved_files_aside_and_reads_the_repositorys_again() {
    let folder = scratch::folder("restore_defaults");
    let shipped = data::built_in();
    let mut saves = window_saves(&folder);
    let mut tuned = shipped.tuning.clone();
    tuned.player.max_speed = 123.0;
    saves.save_tuning(&tuned);
    let mut arena = shipped.arena.clone();
    arena.obstacles.truncate(2);
    saves.save_arena(&arena);
    let mut best = Best::default();
    best.offer("intercept", 12.5, 0);
    std::fs::write(folder.join(best::FILE_NAME), best::to_json(&best)).expect("write");

    let (data, _, _) = window_saves(&folder).initial_data();
    assert_eq!(data.tuning.player.max_speed, 123.0);
    assert_eq!(data.arena.obstacles.len(), 2);

    let said = saves.restore_defaults().expect("restored");
    assert_eq!(
        said,
        format!(
            "defaults restored; saved files set aside in {}: arena.json.bak, tuning.json.bak",
            folder.display()
        )
    );
    let (data, _, error) = saves.initial_data();
    assert_eq!(error, None);
    assert_eq!(data.tuning, shipped.tuning, "the repository's tuning again");
    assert_eq!(
        data.arena.obstacles.len(),
        8,
        "the repository's arena again"
    );
    assert_eq!(
        saves.sources.tuning,
        Source::File("assets/tuning.json".into())
    );
    assert!(folder.join("tuning.json.bak").is_file() && !folder.join("tuning.json").exists());
    // The best times stay, and a second restore has nothing to set aside.
    assert_eq!(read_best(Some(&folder)), Ok(best));
    assert_eq!(
        saves.restore_defaults(),
        Ok(format!(
            "defaults restored (nothing was saved in {})",
            folder.display()
        ))
    );
}

#[test]
fn best_times_round_trip_through_the_settings_folder() {
    let folder = scratch::folder("best_times_round_trip");
    let mut saves = window_saves(&folder);
    let data = data::built_in();
    // Wander has no chasers: after 3 s the time survived is 3 s, and it is the mode's best.
    let mut world = world_on(&data, Mode::Wander);
    for _ in 0..180 {
        world.tick(&Input::default());
    }
    assert!(
        (world.survived() - 3.0).abs() < 1e-6,
        "{}",
        world.survived()
    );
    saves.offer(&world, false);
    assert_eq!(saves.keep_best(), None);
    assert!(
        !folder.join("best.json").exists(),
        "autopilot play sets no best"
    );
    saves.offer(&world, true);
    assert_eq!(saves.keep_best(), None);
    assert_eq!(saves.hud_line(&world), "best 3.0 s   arena arena.json");
    let kept = read_best(Some(&folder)).expect("best.json reads");
    assert_eq!(
        kept.get("wander"),
        ModeBest {
            survived_s: 3.0,
            tags: 0
        }
    );
    // A shorter time does not replace it; more tags in another mode add to it.
    let mut best = kept.clone();
    assert!(!best.offer("wander", 1.0, 0));
    assert!(best.offer("evade", 0.5, 7));
    let text = best::to_json(&best);
    assert_eq!(best::parse(&text), Ok(best.clone()));
    assert_eq!(text.lines().count(), 6, "one line a mode: {text}");
    assert_eq!(
        best.get("evade"),
        ModeBest {
            survived_s: 0.5,
            tags: 7
        }
    );
    // A new game reads what the last one kept.
    let (again, _) = Saves::new(Flags::default(), Some(folder.clone()));
    assert_eq!(again.hud_line(&world), "best 3.0 s   arena arena.json");
}

#[test]
fn a_broken_saved_file_is_one_line_naming_it_and_the_last_good_data_keeps_running() {
    let folder = scratch::folder("a_broken_saved_file");
    let broken = scratch::write(
        &folder,
        "tuning.json",
        "{\n  \"player\": {\n    \"max_speed\": ,\n",
    );
    let saves = window_saves(&folder);
    let (data, _, error) = saves.initial_data();
    let error = error.expect("the broken file is reported");
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(
        error.starts_with(&format!("{}: line 3 column 18", broken.display())),
        "{error}"
    );
    // It runs on the repository's files meanwhile.
    assert_eq!(data.tuning, data::built_in().tuning);
    // F5 (the window's reload) on the broken file is refused: the running data stays.
    let e = saves.sources.load().expect_err("still broken");
    assert!(e.to_string().starts_with(&broken.display().to_string()));

    // A broken best.json: one line naming it, and the game's bests are not written over it.
    let bad_best = "{ \"modes\": { \"evade\": { \"survived_s\": -1, \"tags\": 2 } } }";
    let best_path = scratch::write(&folder, "best.json", bad_best);
    let (mut saves, error) = Saves::new(Flags::default(), Some(folder.clone()));
    assert_eq!(
        error,
        Some(format!(
            "{}: modes.evade.survived_s: must be a number of seconds, 0 or more, got -1",
            best_path.display()
        ))
    );
    let mut world = world_on(&data::built_in(), Mode::Wander);
    world.tick(&Input::default());
    saves.offer(&world, true);
    assert_eq!(saves.keep_best(), None);
    assert_eq!(std::fs::read_to_string(&best_path).expect("kept"), bad_best);
}

#[test]
fn n_steps_through_the_arenas_smallest_first_and_back_to_the_first() {
    let assets = Path::new("assets");
    let names = settings::arena_names(None, assets);
    assert_eq!(
        names,
        [
            "arena.json",
            "maze.json",
            "arena-10x.json",
            "arena-16x.json"
        ]
    );
    // Without assets/, the built-in arena and maze.
    let empty = scratch::folder("n_steps_no_assets");
    assert_eq!(
        settings::arena_names(None, &empty),
        ["arena.json", "maze.json"]
    );
    let maze = settings::arena_source(None, &empty, "maze.json");
    assert_eq!(maze, Source::BuiltIn("maze.json"));
    let sources = DataSources {
        arena: maze,
        ..DataSources::resolve(None, None, None)
    };
    let loaded = sources.load().expect("the built-in maze loads");
    assert_eq!(
        loaded.arena.obstacles.len(),
        common::arena::maze().arena.obstacles.len()
    );

    // A saved arena of its own joins the cycle (a small one comes first).
    let folder = scratch::folder("n_steps_saved");
    let mut small = data::built_in().arena;
    small.width = 640.0;
    small.height = 384.0;
    small.obstacles.clear();
    small.spawns = vec![[32.0, 32.0]];
    small.player_start = [320.0, 192.0];
    small.pickups.clear();
    small.pathways.clear();
    scratch::write(&folder, "mine.json", &arena::to_json(&small));
    let mut saves = window_saves(&folder);
    let mut seen = Vec::new();
    for _ in 0..6 {
        saves.next_arena();
        let label = saves.arena_label();
        let data = saves.sources.load().expect("every arena loads");
        seen.push((label, data.arena.width));
    }
    assert_eq!(
        seen,
        [
            ("maze.json".to_string(), 1280.0),
            ("arena-10x.json".to_string(), 4096.0),
            ("arena-16x.json".to_string(), 5120.0),
            ("mine.json (saved)".to_string(), 640.0),
            ("arena.json".to_string(), 1280.0),
            ("maze.json".to_string(), 1280.0),
        ]
    );
    // Ctrl+S on the maze saves it under its own name.
    let (data, _, _) = saves.initial_data();
    let said = saves.save_arena(&data.arena);
    assert_eq!(
        said,
        format!("saved the arena to {}", folder.join("maze.json").display())
    );
}

#[test]
fn an_arena_given_under_another_data_files_name_is_saved_as_the_arena() {
    let source = Source::File("elsewhere/tuning.json".into());
    assert_eq!(settings::arena_save_name(&source), "arena.json");
    let source = Source::File("elsewhere/cave.json".into());
    assert_eq!(settings::arena_save_name(&source), "cave.json");
    assert!(!settings::is_arena_name("best.json"));
    assert!(!settings::is_arena_name("arena.json.bak"));
}

#[test]
fn a_catch_burst_opens_to_its_full_ring_and_is_gone_after_its_time() {
    assert_eq!(burst::shape(0.0), Some((0.0, 1.0)));
    let (r, a) = burst::shape(burst::SECONDS / 2.0).expect("under way");
    assert!((r - burst::RING_RADIUS * 0.75).abs() < 1e-3, "{r}");
    assert!((a - 0.5).abs() < 1e-6);
    assert_eq!(burst::shape(burst::SECONDS), None);
    // The sparks sit on or near the ring, all around it.
    let far: Vec<f32> = (0..burst::SPARKS)
        .map(|i| burst::spark(i, 50.0).length())
        .collect();
    assert!(far.iter().all(|&d| (39.9..=57.6).contains(&d)), "{far:?}");
    let mut bursts = Bursts::default();
    bursts.add(Vec2::new(100.0, 100.0), false);
    bursts.advance(0.5);
    bursts.add(Vec2::new(200.0, 100.0), true);
    assert_eq!(bursts.len(), 2);
    bursts.advance(0.4);
    assert_eq!(
        bursts.len(),
        1,
        "the first burst ended after {} s",
        burst::SECONDS
    );
    bursts.advance(0.5);
    assert!(bursts.is_empty());
}
