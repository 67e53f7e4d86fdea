//! The command line (SPEC §2): argument types, loading the data files, and exit codes.
//! `main` only calls [`main`] here; the window, `sim` and `bench` are handed off from here.

use crate::data::classics::FormationShape;
use crate::data::combine::Method;
use crate::data::settings::{self, Flags};
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::data::{DataSources, Source, excerpt};
use crate::sim::headless;
use crate::sim::mode::Mode;
use crate::sim::path::Order;
use crate::sim::player::Script;
use crate::sim::record::Recorder;
use crate::sim::replay::ReplayData;
use crate::sim::threads;
use crate::sim::world::{MAX_AGENTS, WorldConfig};
use clap::{Args, Parser, Subcommand};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Exit code for success.
pub const EXIT_OK: i32 = 0;
/// Exit code for bad arguments or a bad data file.
pub const EXIT_USAGE: i32 = 2;
/// The seed when `--seed` is absent.
pub const DEFAULT_SEED: u64 = 1;
/// Simulated seconds `sim` runs when `--seconds` is absent.
pub const DEFAULT_SECONDS: f64 = 30.0;
/// Longest `sim --seconds` (a simulated day).
pub const MAX_SECONDS: f64 = 86_400.0;

#[derive(Debug, Parser)]
#[command(
    name = "steering-arena",
    version,
    about = "Classic game-AI movement behaviours in a top-down arena: play it, watch it, measure it."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub common: Common,
    /// Window only: quit after this many wall-clock seconds (for automation).
    #[arg(long, value_name = "S", value_parser = positive_seconds, allow_negative_numbers = true)]
    pub quit_after: Option<f64>,
    /// Window only: seconds without input before attract mode (the autopilot) takes over.
    #[arg(
        long,
        value_name = "S",
        value_parser = positive_seconds,
        default_value_t = crate::app::IDLE_SECONDS,
        allow_negative_numbers = true
    )]
    pub idle_seconds: f64,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run without a window and print one JSON summary to stdout.
    Sim {
        /// Simulated seconds to run [default: 30].
        #[arg(long, value_name = "S", value_parser = positive_seconds, allow_negative_numbers = true)]
        seconds: Option<f64>,
        /// Run a record's ticks again instead (its header says how the run began), check every
        /// line against the record, and write them to --record if given.
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
    },
    /// Open the window on a record and play it again: pause, step, step back, seek.
    Replay {
        /// The record (`--record` of the window or of sim).
        file: PathBuf,
    },
    /// Time the simulation at scale and print JSON: with no --mode, the default set (every mode
    /// at 2,000 and 20,000 agents, and avoid at 20,000 with 25 and 400 obstacles).
    Bench {
        /// Simulated seconds timed per run.
        #[arg(
            long,
            value_name = "S",
            default_value_t = 5.0,
            value_parser = positive_seconds,
            allow_negative_numbers = true
        )]
        seconds: f64,
        /// Replace the arena's obstacles with this many random, spaced ones (from the seed).
        #[arg(long, value_name = "K", value_parser = obstacle_count, allow_negative_numbers = true)]
        obstacles: Option<usize>,
        /// Time the whole set this many times, one round after another, and report each run's
        /// median round (a shared machine's speed drifts from second to second).
        #[arg(
            long,
            value_name = "R",
            default_value_t = 1,
            value_parser = round_count,
            allow_negative_numbers = true
        )]
        rounds: u32,
    },
}

#[derive(Debug, Args)]
pub struct Common {
    /// Behaviour mode, by name or digit (los-chase / 3).
    #[arg(long, global = true, value_name = "M", value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// Reverse the algorithm (the E key) in modes that have a reversal.
    #[arg(long, global = true)]
    pub evade_flip: bool,
    /// The player leads the flock (the T key in flock mode).
    #[arg(long, global = true)]
    pub lead: bool,
    /// Bodyguards interpose between the player and the hiders (the T key in hide mode).
    #[arg(long, global = true)]
    pub bodyguards: bool,
    /// Seed of the world's random generator [default: 1].
    #[arg(long, global = true, value_name = "N", value_parser = seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Number of agents (default: the mode's own).
    #[arg(
        long,
        global = true,
        value_name = "N",
        value_parser = agent_count,
        allow_negative_numbers = true
    )]
    pub agents: Option<usize>,
    /// Arena file (default: assets/arena.json if present, else the built-in copy;
    /// the window looks in the settings folder first).
    #[arg(long, global = true, value_name = "FILE")]
    pub arena: Option<PathBuf>,
    /// Tuning file (default: assets/tuning.json if present, else the built-in copy;
    /// the window looks in the settings folder first).
    #[arg(long, global = true, value_name = "FILE")]
    pub tuning: Option<PathBuf>,
    /// Patterns file (default: assets/patterns.json if present, else the built-in copy;
    /// the window looks in the settings folder first).
    #[arg(long, global = true, value_name = "FILE")]
    pub patterns: Option<PathBuf>,
    /// Guards' state machine file for the fsm mode (default: assets/fsm.json if present, else
    /// the built-in copy).
    #[arg(long, global = true, value_name = "FILE")]
    pub fsm: Option<PathBuf>,
    /// Write the run to FILE: a header line, then one JSON line per simulation tick (`replay`
    /// and `sim --replay` run it again).
    #[arg(long, global = true, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The search pathfind's chasers plan with: astar, dijkstra, best-first (V in the window)
    /// [default: astar].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_order)]
    pub algorithm: Option<Order>,
    /// The crowd's scene: circle, doorway, crossing (T in the window) [default: circle].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_scene)]
    pub scene: Option<CrowdScene>,
    /// How the crowd's walkers keep clear: separation, predictive, orca (V in the window)
    /// [default: orca].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_avoid)]
    pub avoid: Option<Avoidance>,
    /// The shape formation starts in: wedge, line, column, ring (V in the window) [default: wedge].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_shape)]
    pub shape: Option<FormationShape>,
    /// How the forces combine in the modes that add several (avoid, flock, crowd, hide,
    /// formation): weighted, prioritised, dithered (B in the window) [default: each mode's own].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_combine)]
    pub combine: Option<Method>,
    /// How formation assigns slots: nearest (least total distance) or fixed (agent i, slot i;
    /// T in the window) [default: nearest].
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_assign)]
    pub assign: Option<bool>,
    /// Player script: still, line, circle, zigzag, flee, hunt, keys.
    #[arg(long, global = true, value_name = "SCRIPT", value_parser = parse_script)]
    pub player: Option<Script>,
    /// Threads a tick may use (default: every core). The run is the same, bit for bit, on any
    /// number.
    #[arg(
        long,
        global = true,
        value_name = "N",
        value_parser = thread_count,
        allow_negative_numbers = true
    )]
    pub threads: Option<usize>,
}

/// A name as the program writes it (lower case), or as typed when that is not a name.
fn by_name<T>(s: &str, parse: impl Fn(&str) -> Result<T, String>) -> Result<T, String> {
    parse(s).or_else(|e| parse(&s.to_lowercase()).map_err(|_| excerpt(&e).into_owned()))
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    by_name(s, Mode::parse)
}

fn parse_script(s: &str) -> Result<Script, String> {
    by_name(s, Script::parse)
}

fn parse_scene(s: &str) -> Result<CrowdScene, String> {
    by_name(s, |s| {
        CrowdScene::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = CrowdScene::ALL.iter().map(|o| o.name()).collect();
            format!("unknown scene \"{s}\" (one of: {})", names.join(", "))
        })
    })
}

fn parse_shape(s: &str) -> Result<FormationShape, String> {
    by_name(s, |s| {
        FormationShape::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = FormationShape::ALL.iter().map(|o| o.name()).collect();
            format!("unknown shape \"{s}\" (one of: {})", names.join(", "))
        })
    })
}

fn parse_avoid(s: &str) -> Result<Avoidance, String> {
    by_name(s, |s| {
        Avoidance::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Avoidance::ALL.iter().map(|o| o.name()).collect();
            format!("unknown avoidance \"{s}\" (one of: {})", names.join(", "))
        })
    })
}

fn parse_combine(s: &str) -> Result<Method, String> {
    by_name(s, |s| {
        Method::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Method::ALL.iter().map(|o| o.name()).collect();
            format!(
                "unknown way to combine \"{s}\" (one of: {})",
                names.join(", ")
            )
        })
    })
}

/// `fixed` is the formation's alternate form (`T`): true.
fn parse_assign(s: &str) -> Result<bool, String> {
    by_name(s, |s| match s {
        "fixed" => Ok(true),
        "nearest" => Ok(false),
        _ => Err(format!(
            "unknown assignment \"{s}\" (one of: nearest, fixed)"
        )),
    })
}

fn parse_order(s: &str) -> Result<Order, String> {
    by_name(s, |s| {
        Order::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Order::ALL.iter().map(|o| o.name()).collect();
            format!("unknown algorithm \"{s}\" (one of: {})", names.join(", "))
        })
    })
}

/// A whole number from `min` to `max`, parsed as a wider signed one first, so that a negative
/// or a too large value is told the range rather than that it is not a number.
fn whole(s: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    let range = format!("at least {min}, at most {max}{what}");
    match s.parse::<i128>() {
        Ok(v) => u64::try_from(v)
            .ok()
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| format!("out of range (allowed: {range})")),
        Err(_) => Err(format!("not a whole number (allowed: {range})")),
    }
}

fn seed(s: &str) -> Result<u64, String> {
    whole(s, "", 0, u64::MAX)
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    let range = format!("allowed: more than 0, at most {MAX_SECONDS} seconds");
    let v: f64 = s
        .parse()
        .map_err(|_| format!("not a number of seconds ({range})"))?;
    if v.is_finite() && v > 0.0 && v <= MAX_SECONDS {
        Ok(v)
    } else {
        Err(format!("out of range ({range})"))
    }
}

fn obstacle_count(s: &str) -> Result<usize, String> {
    let max = crate::data::arena::MAX_OBSTACLES;
    whole(s, " obstacles", 0, max as u64).map(|v| v as usize)
}

/// Most rounds `bench --rounds` takes (a full set of rounds is a few minutes each way).
const MAX_ROUNDS: u32 = 25;

fn round_count(s: &str) -> Result<u32, String> {
    whole(s, " rounds", 1, u64::from(MAX_ROUNDS)).map(|v| v as u32)
}

fn thread_count(s: &str) -> Result<usize, String> {
    whole(s, " threads", 1, threads::MAX_THREADS as u64).map(|v| v as usize)
}

fn agent_count(s: &str) -> Result<usize, String> {
    whole(s, " agents", 0, MAX_AGENTS as u64).map(|v| v as usize)
}

impl Common {
    /// The world's starting configuration; `default_script` applies when `--player` is absent.
    pub fn world_config(&self, default_script: Script) -> WorldConfig {
        WorldConfig {
            mode: self.mode.unwrap_or(Mode::LosChase),
            flip: self.evade_flip || self.bodyguards || self.assign == Some(true),
            lead: self.lead,
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            agents: self.agents,
            script: self.player.unwrap_or(default_script),
            order: self.algorithm.unwrap_or_default(),
            scene: self.scene.unwrap_or_default(),
            avoid: self.avoid.unwrap_or_default(),
            shape: self.shape.unwrap_or_default(),
            combine: self.combine,
            ..WorldConfig::default()
        }
    }

    /// The data files the flags name.
    pub fn flags(&self) -> Flags {
        Flags {
            arena: self.arena.clone(),
            tuning: self.tuning.clone(),
            patterns: self.patterns.clone(),
            fsm: self.fsm.clone(),
        }
    }

    /// Where `sim`, `bench` and the replays read (never the settings folder).
    pub fn sources(&self) -> DataSources {
        self.flags().sources()
    }
}

/// Parse the process's arguments and run; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                return EXIT_OK;
            }
            eprintln!("{}", first_line(&e));
            return EXIT_USAGE;
        }
    };
    match run(cli) {
        Ok(()) => EXIT_OK,
        Err(message) => {
            eprintln!("{}", crate::data::one_line(&excerpt(&message)));
            EXIT_USAGE
        }
    }
}

/// clap's message is several lines (usage, hint); the first says what was wrong.
pub fn first_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("error: bad arguments");
    crate::data::one_line(&excerpt(first))
}

fn run(cli: Cli) -> Result<(), String> {
    let replayed = match &cli.command {
        Some(Command::Sim {
            replay: Some(file), ..
        })
        | Some(Command::Replay { file }) => Some(file.as_path()),
        _ => None,
    };
    // The window reads the settings folder too: its record must not overwrite a file there.
    let settings = settings::folder();
    let sources = match &cli.command {
        None => cli
            .common
            .flags()
            .sources_in(settings.as_deref(), crate::data::arena::FILE_NAME),
        Some(_) => cli.common.sources(),
    };
    check_record_target(&cli.common, &sources, replayed)?;
    let threads = cli.common.threads.unwrap_or_else(threads::available);
    // `sim` and `bench` run on a pool of their own, so each tick's split starts on one of its
    // threads; the window ticks on its own thread and splits into the global pool.
    let in_pool =
        |run: &(dyn Fn() -> Result<(), String> + Sync)| threads::pool(threads)?.install(run);
    match cli.command {
        Some(Command::Sim {
            seconds,
            replay: Some(file),
        }) => {
            run_only_from_record(&cli.common, seconds.is_some(), "sim --replay")?;
            in_pool(&|| sim_replay(&cli.common, &file))
        }
        Some(Command::Sim {
            seconds,
            replay: None,
        }) => in_pool(&|| sim(&cli.common, seconds.unwrap_or(DEFAULT_SECONDS))),
        Some(Command::Replay { file }) => {
            run_only_from_record(&cli.common, false, "replay")?;
            threads::set_global(threads)?;
            crate::app::replay::run(crate::app::replay::ReplayConfig {
                file,
                sources: cli.common.sources(),
                record: cli.common.record.clone(),
                quit_after: cli.quit_after,
            })
        }
        Some(Command::Bench {
            seconds,
            obstacles,
            rounds,
        }) => in_pool(&|| bench(&cli.common, seconds, obstacles, rounds)),
        None => {
            threads::set_global(threads)?;
            // A bad data file stops the window before it opens, as it stops `sim` (a bad file
            // in the settings folder does not: the window opens without it and says why).
            cli.common.sources().load().map_err(|e| e.to_string())?;
            let config = crate::app::AppConfig {
                world: cli.common.world_config(Script::Keys),
                flags: cli.common.flags(),
                settings,
                record: cli.common.record.clone(),
                quit_after: cli.quit_after,
                idle_seconds: cli.idle_seconds,
                start_error: None,
                start_status: None,
            };
            crate::app::run(config)
        }
    }
}

fn bench(
    common: &Common,
    seconds: f64,
    obstacles: Option<usize>,
    rounds: u32,
) -> Result<(), String> {
    if common.record.is_some() {
        return Err("bench times the simulation alone: --record is for the window and sim".into());
    }
    let data = common.sources().load().map_err(|e| e.to_string())?;
    let cases = match (common.mode, common.agents) {
        (None, None) if obstacles.is_none() => crate::bench::default_cases(),
        (mode, agents) => vec![crate::bench::Case {
            mode: mode.unwrap_or(Mode::Avoid),
            agents: agents.unwrap_or(20_000),
            obstacles,
            form: match common.avoid {
                Some(a) if a != Avoidance::default() => crate::bench::Form::Avoid(a),
                _ => crate::bench::Form::Plain,
            },
        }],
    };
    let report = crate::bench::run(
        &data,
        &cases,
        common.seed.unwrap_or(DEFAULT_SEED),
        seconds,
        common.player.unwrap_or(crate::bench::PLAYER),
        crate::bench::Forms {
            flip: common.evade_flip,
            order: common.algorithm.unwrap_or_default(),
            combine: common.combine,
            scene: common.scene,
        },
        rounds,
    );
    let json = serde_json::to_string(&report).map_err(|e| format!("cannot print: {e}"))?;
    println!("{json}");
    Ok(())
}

/// A replay takes its run from the record: the options that would start another run are refused.
fn run_only_from_record(common: &Common, seconds: bool, what: &str) -> Result<(), String> {
    let given: Vec<&str> = [
        ("--mode", common.mode.is_some()),
        ("--evade-flip", common.evade_flip),
        ("--lead", common.lead),
        ("--bodyguards", common.bodyguards),
        ("--seed", common.seed.is_some()),
        ("--agents", common.agents.is_some()),
        ("--player", common.player.is_some()),
        ("--algorithm", common.algorithm.is_some()),
        ("--scene", common.scene.is_some()),
        ("--avoid", common.avoid.is_some()),
        ("--shape", common.shape.is_some()),
        ("--assign", common.assign.is_some()),
        ("--combine", common.combine.is_some()),
        ("--seconds", seconds),
    ]
    .into_iter()
    .filter_map(|(flag, on)| on.then_some(flag))
    .collect();
    if given.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what} runs what the record says: {} cannot change it (only the data files and \
             --record can be given)",
            given.join(", ")
        ))
    }
}

fn sim_replay(common: &Common, file: &std::path::Path) -> Result<(), String> {
    let data = ReplayData::load(common.sources())?;
    let name = file.display().to_string();
    let input = std::fs::File::open(file)
        .map_err(|e| format!("{name}: cannot read: {}", crate::data::io_reason(&e)))?;
    let input = std::io::BufReader::new(input);
    let summary = match &common.record {
        Some(path) => {
            let out = std::fs::File::create(path)
                .map_err(|e| format!("{}: cannot write the record: {e}", path.display()))?;
            let mut recorder = Recorder::new(BufWriter::new(out));
            headless::replay(&name, input, &data, Some(&mut recorder)).map_err(|e| {
                if e.starts_with("cannot write") {
                    format!("{}: {e}", path.display())
                } else {
                    e
                }
            })?
        }
        None => headless::replay(&name, input, &data, None::<&mut Recorder<std::io::Sink>>)?,
    };
    let json = serde_json::to_string(&summary).map_err(|e| format!("cannot print: {e}"))?;
    println!("{json}");
    Ok(())
}

/// Refuse a `--record` that names a file this run reads: the record being replayed or a data
/// file (given by a flag or found in `assets/`), under any path or link to it.
fn check_record_target(
    common: &Common,
    sources: &DataSources,
    replayed: Option<&Path>,
) -> Result<(), String> {
    let Some(out) = &common.record else {
        return Ok(());
    };
    if let Some(file) = replayed
        && same_file(out, file)
    {
        return Err(format!(
            "{}: --record would overwrite the record being replayed",
            excerpt(&out.display().to_string())
        ));
    }
    for source in [
        &sources.arena,
        &sources.tuning,
        &sources.patterns,
        &sources.fsm,
    ] {
        if let Source::File(input) = source
            && same_file(out, input)
        {
            return Err(format!(
                "{}: --record would overwrite {}, a data file this run reads",
                excerpt(&out.display().to_string()),
                excerpt(&input.display().to_string())
            ));
        }
    }
    Ok(())
}

/// Whether two paths name one file: the same device and inode, so hard links and symbolic
/// links count (a path that does not exist names no file yet).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Whether two paths name one file, by their canonical paths (hard links are not seen here).
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn sim(common: &Common, seconds: f64) -> Result<(), String> {
    let (data, hashes) = common.sources().load_hashed().map_err(|e| e.to_string())?;
    let config = common.world_config(Script::Still);
    let summary = match &common.record {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("{}: cannot write the record: {e}", path.display()))?;
            let mut recorder = Recorder::new(BufWriter::new(file));
            headless::run_recorded(&data, &hashes, config, seconds, Some(&mut recorder))
                .map_err(|e| format!("{}: cannot write the record: {e}", path.display()))?
        }
        None => headless::run(&data, config, seconds, None::<&mut Recorder<std::io::Sink>>)
            .map_err(|e| format!("cannot run: {e}"))?,
    };
    let json = serde_json::to_string(&summary).map_err(|e| format!("cannot print: {e}"))?;
    println!("{json}");
    Ok(())
}
