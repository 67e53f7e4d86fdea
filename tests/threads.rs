//! A tick split among threads is the same run: every mode's record, made on 1, 2 and 4 threads,
//! is the same bytes (each mode in both forms, crowds large enough to be split, the flock's
//! topological neighbourhood and the player leading it, the swarm in the book's swarm example,
//! the crowd's every scene and method too), and a record made on 2 threads replays line for
//! line on 1 and on 4.

use steering_arena::data::crowds::{BOOK_SWARMS, Neighbourhood};
use steering_arena::data::tuning::SLIDERS;
use steering_arena::data::walkers::{Avoidance, CrowdScene};
use steering_arena::data::{DataHashes, DataSet, DataSources, built_in};
use steering_arena::sim::headless;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::record::Recorder;
use steering_arena::sim::replay::ReplayData;
use steering_arena::sim::threads;
use steering_arena::sim::world::WorldConfig;

/// Agents in the runs compared: above `threads::PARALLEL_FROM`, several batches of
/// `threads::WORD`, so two and four threads each get a share (every crowd that may be split is,
/// however little its work: see `in_pool`).
const AGENTS: usize = 160;
/// Simulated seconds a record holds.
const SECONDS: f64 = 1.0;

fn in_pool<R: Send>(threads: usize, run: impl FnOnce() -> R + Send) -> R {
    threads::split_at_any_cost();
    threads::pool(threads)
        .expect("the machine starts a few threads")
        .install(run)
}

/// The record of `config` on `data` run on `threads` threads (header and every tick).
fn record(data: &DataSet, config: &WorldConfig, threads: usize) -> Vec<u8> {
    in_pool(threads, || {
        assert_eq!(threads::parallel(AGENTS), threads > 1, "the split is live");
        let mut out = Vec::new();
        headless::run_recorded(
            data,
            &DataHashes::built_in(),
            config.clone(),
            SECONDS,
            Some(&mut Recorder::new(&mut out)),
        )
        .expect("a record in memory cannot fail to write");
        out
    })
}

fn config(mode: Mode, flip: bool, lead: bool, script: Script) -> WorldConfig {
    WorldConfig {
        mode,
        flip,
        lead,
        seed: 11,
        agents: Some(AGENTS),
        script,
        ..WorldConfig::default()
    }
}

/// Which of `threads` gives a record other than one thread's, for `config` on `data`.
fn differing(data: &DataSet, config: &WorldConfig) -> Vec<usize> {
    let one = record(data, config, 1);
    assert!(
        one.len() > 1000,
        "{:?}: a record of every tick",
        config.mode
    );
    [2, 4]
        .into_iter()
        .filter(|&t| record(data, config, t) != one)
        .collect()
}

#[test]
fn every_mode_records_the_same_bytes_on_one_two_and_four_threads() {
    let data = built_in();
    let mut bad = Vec::new();
    for &mode in Mode::ALL {
        // The reversals and alternate forms draw differently (waypoint wanderers draw spots,
        // mode 7's chasers push apart, the flock's predator scatters it).
        for (flip, script) in [(false, Script::Hunt), (true, Script::Zigzag)] {
            let c = config(mode, flip, false, script);
            for t in differing(&data, &c) {
                bad.push(format!("{} (alternate {flip}) on {t} threads", mode.name()));
            }
        }
    }
    assert!(bad.is_empty(), "records differ from one thread's: {bad:?}");
}

#[test]
fn the_flock_led_or_topological_records_the_same_bytes_on_any_thread_count() {
    let data = built_in();
    let led = config(Mode::Flock, false, true, Script::Circle);
    assert_eq!(differing(&data, &led), Vec::<usize>::new(), "led flock");
    let mut topological = built_in();
    topological.tuning.flock.neighbourhood = Neighbourhood::Topological;
    let c = config(Mode::Flock, false, false, Script::Circle);
    assert_eq!(
        differing(&topological, &c),
        Vec::<usize>::new(),
        "topological flock"
    );
}

#[test]
fn the_books_swarm_example_records_the_same_bytes_on_any_thread_count() {
    // (Its three potentials, and members pressed together by its pull: contacts cut.)
    let mut data = built_in();
    let s = &BOOK_SWARMS[1];
    for (path, value) in s.settings() {
        let slider = SLIDERS.iter().find(|x| x.path == path).expect(path);
        (slider.set)(&mut data.tuning, value);
    }
    assert_eq!(data.tuning.swarm.book_swarm(), Some(*s));
    let c = config(Mode::Swarm, false, false, Script::Zigzag);
    assert_eq!(differing(&data, &c), Vec::<usize>::new(), "swarm example");
}

#[test]
fn the_crowd_in_every_scene_and_method_records_the_same_bytes_on_any_thread_count() {
    let data = built_in();
    let mut bad = Vec::new();
    for scene in CrowdScene::ALL {
        for avoid in Avoidance::ALL {
            let c = WorldConfig {
                scene,
                avoid,
                ..config(Mode::Crowd, false, false, Script::Zigzag)
            };
            for t in differing(&data, &c) {
                bad.push(format!("{scene:?} by {avoid:?} on {t} threads"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the crowd's records differ from one thread's: {bad:?}"
    );
}

#[test]
fn a_record_made_on_two_threads_replays_line_for_line_on_one_and_four() {
    let data = built_in();
    let replay_data = ReplayData {
        sources: DataSources::resolve(None, None, None),
        data: built_in(),
        hashes: DataHashes::built_in(),
    };
    for mode in [
        Mode::Flock,
        Mode::Swarm,
        Mode::Evade,
        Mode::Avoid,
        Mode::Wander,
    ] {
        let made = record(&data, &config(mode, true, false, Script::Zigzag), 2);
        for t in [1, 4] {
            let again = in_pool(t, || {
                let mut out = Vec::new();
                let summary = headless::replay(
                    "made.jsonl",
                    made.as_slice(),
                    &replay_data,
                    Some(&mut Recorder::new(&mut out)),
                )
                .unwrap_or_else(|e| panic!("{} on {t} threads: {e}", mode.name()));
                assert_eq!(summary.ticks, (SECONDS * 60.0) as u64);
                out
            });
            assert!(
                again == made,
                "{} replayed on {t} threads differs",
                mode.name()
            );
        }
    }
}
