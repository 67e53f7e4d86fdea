//! `steering-arena bench`: time the simulation at scale, without a window, metrics or record.
//!
//! Each run builds a world, lets it settle, then times every tick. `ns_per_agent_tick` is the
//! mean tick divided by the agents; `floor_ns_per_agent_tick` is the cost of only integrating the
//! same agents' positions in place (`pos += vel · dt` over the same `Vec<Agent>`), the memory
//! floor every figure can be read against.
//!
//! Runs compared with each other (a mode at 2,000 against 20,000 agents, `avoid` among 25 against
//! 400 obstacles) are timed side by side, in turns of about `SLICE_MS` (40 ms) each: the speed of a
//! shared machine drifts by tens of percent over seconds, and timed one after the other two runs
//! would each catch a different stretch of it. The first tick of every turn is run untimed: it
//! brings its world back into the caches the other world's turn (or set-up) has filled, as no
//! tick of a world running alone has to. With several rounds the whole set is timed once per
//! round, and each run reports its median round.

use crate::data::DataSet;
use crate::data::arena::with_spaced_obstacles;
use crate::sim::behaviours::flock::Neighbourhood;
use crate::sim::mode::Mode;
use crate::sim::path::{Order, Search};
use crate::sim::player::Script;
use crate::sim::space::arena::Arena;
use crate::sim::world::{Input, World, WorldConfig};
use ::rand::rngs::StdRng;
use ::rand::{Rng, SeedableRng};
use glam::IVec2;
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// Ticks run before timing starts (spawns settle, stages launch).
const WARM_UP_TICKS: u32 = 30;
/// Smallest gap between generated obstacles (px): they never overlap; some gaps are too narrow
/// to pass, as in any crowded field.
const OBSTACLE_GAP: f32 = 4.0;
/// Wall-clock length of a turn when runs are timed side by side (ms).
const SLICE_MS: f64 = 40.0;

/// One timed configuration.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub mode: Mode,
    pub agents: usize,
    /// Generated obstacles replacing the arena's own; `None` keeps the arena file's.
    pub obstacles: Option<usize>,
    /// What else the case changes of the data.
    pub form: Form,
}

/// What a case changes of the data besides the obstacles: the flock's two targets' runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// The data as loaded.
    #[default]
    Plain,
    /// The flock heeds its `k` nearest (`flock.neighbourhood` topological), whatever the
    /// tuning says, packed into the data's arena (`WorldConfig::fixed_arena`): the target's
    /// run, ten times as dense at 20,000 as the arena the world would grow.
    Topological,
    /// The arena of ten times the default's area (`assets/arena-10x.json`, the default scaled
    /// 3.2 × 3.125): ten times the crowd at the same density.
    Spread,
}

impl Form {
    /// The run's `form` field (none for a plain run).
    fn name(self) -> Option<&'static str> {
        match self {
            Form::Plain => None,
            Form::Topological => Some("topological"),
            Form::Spread => Some("arena-10x"),
        }
    }
}

/// The spread form's arena.
const ARENA_10X: &str = include_str!("../assets/arena-10x.json");

#[derive(Debug, Clone, Serialize)]
pub struct TickMs {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub mode: String,
    /// The case's [`Form`], when not plain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<&'static str>,
    pub agents: usize,
    pub obstacles: usize,
    pub ticks: u32,
    pub tick_ms: TickMs,
    pub ns_per_agent_tick: f64,
    pub floor_ns_per_agent_tick: f64,
    /// `ns_per_agent_tick / floor_ns_per_agent_tick`.
    pub ratio_to_floor: f64,
    /// `ns_per_agent_tick` of every round, in the order they ran (the run's figures are the
    /// median round's).
    pub rounds_ns_per_agent_tick: Vec<f64>,
    /// The mean tick before rounding (ms), for the ratios.
    #[serde(skip)]
    mean_ms: f64,
}

/// How a mode's mean tick grows from its smallest crowd in the set to its largest (the
/// linearity target: at most 11× for ten times the agents).
#[derive(Debug, Clone, Serialize)]
pub struct Growth {
    pub mode: String,
    pub obstacles: usize,
    pub from_agents: usize,
    pub to_agents: usize,
    /// Mean tick at `to_agents` over mean tick at `from_agents`: the median over the rounds of
    /// each round's ratio (the two runs of a round timed side by side, in turns).
    pub tick_ratio: f64,
    /// Each round's ratio, in order.
    pub round_ratios: Vec<f64>,
}

/// How a mode's mean tick grows with the obstacles at one crowd size (the target: 400 obstacles
/// at most 1.5× the time of 25).
#[derive(Debug, Clone, Serialize)]
pub struct ObstacleGrowth {
    pub mode: String,
    pub agents: usize,
    pub from_obstacles: usize,
    pub to_obstacles: usize,
    /// As in [`Growth`]: the median of the rounds' ratios.
    pub tick_ratio: f64,
    pub round_ratios: Vec<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub seed: u64,
    pub seconds: f64,
    /// How many times the set was timed.
    pub rounds: u32,
    /// The floor of the largest run (most agents), the headline figure.
    pub floor_ns_per_agent_tick: f64,
    pub runs: Vec<Run>,
    /// Per mode and obstacle count with two crowd sizes: the growth of the mean tick.
    pub growth: Vec<Growth>,
    /// Per mode and crowd size with two generated obstacle counts: the growth of the mean tick.
    pub obstacle_growth: Vec<ObstacleGrowth>,
    /// When `pathfind` is in the set: the median microseconds of one A* search on the arena's
    /// tile grid between random free tiles (see [`search_us`]).
    pub search_us: Option<f64>,
    /// Per mode run in the spread arena: the growth of the mean tick from a tenth of the crowd
    /// in the default arena to the whole crowd in the spread one, at one density (the target:
    /// at most 11×).
    pub density_growth: Vec<Growth>,
}

/// The default set: every mode at 2,000 and 20,000 agents; the flock at 20,000 heeding its 7
/// nearest, and at 20,000 in the arena of ten times the area (timed beside its 2,000 in the
/// default one); and `avoid` at 20,000 with 25 and with 400 generated obstacles.
pub fn default_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let case = |mode, agents, obstacles, form| Case {
        mode,
        agents,
        obstacles,
        form,
    };
    for &mode in Mode::ALL {
        for agents in [2_000, 20_000] {
            cases.push(case(mode, agents, None, Form::Plain));
        }
    }
    cases.push(case(Mode::Flock, 20_000, None, Form::Topological));
    cases.push(case(Mode::Flock, 20_000, None, Form::Spread));
    for obstacles in [25, 400] {
        cases.push(case(Mode::Avoid, 20_000, Some(obstacles), Form::Plain));
    }
    cases
}

/// The player bench runs against unless `--player` says otherwise: one that moves keeps every
/// behaviour busy (chasers chase, evaders flee).
pub const PLAYER: Script = Script::Circle;

/// Time every case for `seconds` of simulated time, `rounds` times over.
pub fn run(
    data: &DataSet,
    cases: &[Case],
    seed: u64,
    seconds: f64,
    player: Script,
    forms: (bool, Order),
    rounds: u32,
) -> Report {
    let mut timed: Vec<Vec<Run>> = vec![Vec::new(); cases.len()];
    let groups = side_by_side(cases);
    for _ in 0..rounds.max(1) {
        for group in &groups {
            let mut timings: Vec<Timing> = group
                .iter()
                .map(|&c| Timing::new(data, &cases[c], seed, seconds, player, forms))
                .collect();
            time_in_turns(&mut timings);
            for (&c, timing) in group.iter().zip(timings) {
                timed[c].push(timing.finish(&cases[c]));
            }
        }
    }
    let growth = growth(cases, &timed);
    let obstacle_growth = obstacle_growth(cases, &timed);
    let density_growth = density_growth(cases, &timed);
    let runs: Vec<Run> = timed.into_iter().map(median_round).collect();
    let floor = runs
        .iter()
        .max_by_key(|r| r.agents)
        .map_or(0.0, |r| r.floor_ns_per_agent_tick);
    Report {
        seed,
        seconds,
        rounds: rounds.max(1),
        floor_ns_per_agent_tick: floor,
        growth,
        obstacle_growth,
        density_growth,
        runs,
        search_us: cases
            .iter()
            .any(|c| c.mode == Mode::Pathfind)
            .then(|| search_us(&Arena::from_data(&data.arena), seed)),
    }
}

/// Searches timed by [`search_us`].
const SEARCHES: usize = 2_000;

/// The median wall time (µs) of one A* search on `arena`'s tiles from a random free tile to
/// another (both drawn from `seed`; pairs with no way between them are timed too, as a chaser
/// would meet them), each timed alone after one untimed pass over them all.
pub fn search_us(arena: &Arena, seed: u64) -> f64 {
    let tiles = &arena.tiles;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut free = || loop {
        let t = IVec2::new(rng.gen_range(0..tiles.cols), rng.gen_range(0..tiles.rows));
        if !tiles.blocked(t) {
            return t;
        }
    };
    if (0..tiles.cols * tiles.rows)
        .all(|i| tiles.blocked(IVec2::new(i % tiles.cols, i / tiles.cols)))
    {
        return 0.0;
    }
    let pairs: Vec<(IVec2, IVec2)> = (0..SEARCHES).map(|_| (free(), free())).collect();
    let mut search = Search::new();
    let mut path = Vec::with_capacity((tiles.cols * tiles.rows) as usize);
    for &(a, b) in &pairs {
        black_box(search.find(tiles, a, b, Order::AStar, &mut path));
    }
    let mut times: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| {
            let started = Instant::now();
            black_box(search.find(tiles, a, b, Order::AStar, &mut path));
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2] * 100.0).round() / 100.0
}

/// The round whose mean tick is the median (the lower of the middle two for an even count),
/// with every round's figure beside it.
fn median_round(mut rounds: Vec<Run>) -> Run {
    let all: Vec<f64> = rounds.iter().map(|r| r.ns_per_agent_tick).collect();
    rounds.sort_by(|a, b| a.mean_ms.total_cmp(&b.mean_ms));
    let mut median = rounds.swap_remove(rounds.len().saturating_sub(1) / 2);
    median.rounds_ns_per_agent_tick = all;
    median
}

/// Mean tick of the largest crowd over the smallest, per mode and arena (runs on generated
/// obstacles are compared only with runs on the same count). `timed` holds each case's rounds.
fn growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<Growth> {
    let mut out = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let same =
            |c: &Case| c.mode == case.mode && c.obstacles == case.obstacles && c.form == case.form;
        if cases[..i].iter().any(same) {
            continue;
        }
        if let Some((small, large, ratios)) = spread(cases, timed, same, |c| c.agents, |r| r.agents)
        {
            out.push(Growth {
                mode: case.mode.name().to_string(),
                obstacles: small.obstacles,
                from_agents: small.agents,
                to_agents: large.agents,
                tick_ratio: median(&ratios),
                round_ratios: ratios,
            });
        }
    }
    out
}

/// Mean tick of a mode's crowd in the spread arena over a tenth of it in the default one.
fn density_growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<Growth> {
    let mut out = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if case.form != Form::Spread {
            continue;
        }
        let tenth = |c: &Case| {
            c.mode == case.mode
                && c.form == Form::Plain
                && c.obstacles.is_none()
                && c.agents * 10 == case.agents
        };
        let Some(j) = cases.iter().position(tenth) else {
            continue;
        };
        let (Some(small), Some(large)) = (timed[j].first(), timed[i].first()) else {
            continue;
        };
        let ratios: Vec<f64> = timed[j]
            .iter()
            .zip(&timed[i])
            .map(|(a, b)| ratio(b.mean_ms, a.mean_ms))
            .collect();
        out.push(Growth {
            mode: case.mode.name().to_string(),
            obstacles: small.obstacles,
            from_agents: small.agents,
            to_agents: large.agents,
            tick_ratio: median(&ratios),
            round_ratios: ratios,
        });
    }
    out
}

/// Mean tick among the most generated obstacles over the fewest, per mode and crowd size.
fn obstacle_growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<ObstacleGrowth> {
    let mut out = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let same = |c: &Case| {
            c.mode == case.mode
                && c.agents == case.agents
                && c.obstacles.is_some()
                && c.form == case.form
        };
        if case.obstacles.is_none() || cases[..i].iter().any(same) {
            continue;
        }
        let count = |c: &Case| c.obstacles.unwrap_or(0);
        if let Some((few, many, ratios)) = spread(cases, timed, same, count, |r| r.obstacles) {
            out.push(ObstacleGrowth {
                mode: case.mode.name().to_string(),
                agents: few.agents,
                from_obstacles: few.obstacles,
                to_obstacles: many.obstacles,
                tick_ratio: median(&ratios),
                round_ratios: ratios,
            });
        }
    }
    out
}

/// Of the cases `same` picks, the one where `size` is least and the one where it is most (when
/// they differ, as asked by `size` and as run by `size_of`): their first rounds, and each round's
/// ratio of mean ticks, most over least.
fn spread<'a>(
    cases: &[Case],
    timed: &'a [Vec<Run>],
    same: impl Fn(&Case) -> bool,
    size: impl Fn(&Case) -> usize,
    size_of: impl Fn(&Run) -> usize,
) -> Option<(&'a Run, &'a Run, Vec<f64>)> {
    let group: Vec<(usize, &Vec<Run>)> = cases
        .iter()
        .zip(timed)
        .filter(|(c, _)| same(c))
        .map(|(c, rounds)| (size(c), rounds))
        .collect();
    let least = group.iter().min_by_key(|(n, _)| *n)?;
    let most = group.iter().max_by_key(|(n, _)| *n)?;
    if most.0 <= least.0 {
        return None;
    }
    let ratios = least
        .1
        .iter()
        .zip(most.1)
        .map(|(a, b)| ratio(b.mean_ms, a.mean_ms))
        .collect();
    let (least, most) = (least.1.first()?, most.1.first()?);
    // (A world may not run the count asked for: a Galaga stage whose data has no ships.)
    if size_of(least) == size_of(most) {
        return None;
    }
    Some((least, most, ratios))
}

/// The median of a few numbers (the lower middle one for an even count; 0 for none).
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0.0)
}

/// `a / b` to two decimals (0 when `b` is not positive).
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        (a / b * 100.0).round() / 100.0
    } else {
        0.0
    }
}

/// The cases timed side by side, as lists of indices in `cases` (in order of their first case):
/// a mode's crowds on the arena file's obstacles (in every form: the spread arena's crowd is
/// compared with the default one's), and a mode's generated obstacle counts at one crowd size —
/// the runs the growth ratios compare.
fn side_by_side(cases: &[Case]) -> Vec<Vec<usize>> {
    let key = |c: &Case| match c.obstacles {
        None => (c.mode, None),
        Some(_) => (c.mode, Some(c.agents)),
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match groups.iter_mut().find(|g| key(&cases[g[0]]) == key(case)) {
            Some(group) => group.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// A world being timed: its tick times so far and how many it is to have.
struct Timing {
    world: World,
    input: Input,
    ticks: u32,
    times: Vec<f64>,
}

impl Timing {
    /// The case's world, settled by the warm-up ticks.
    fn new(
        data: &DataSet,
        case: &Case,
        seed: u64,
        seconds: f64,
        player: Script,
        (flip, order): (bool, Order),
    ) -> Timing {
        let mut data = data.clone();
        match case.form {
            Form::Plain => {}
            Form::Topological => data.tuning.flock.neighbourhood = Neighbourhood::Topological,
            Form::Spread => {
                data.arena = crate::data::arena::parse(ARENA_10X)
                    .expect("the built-in spread arena is valid");
            }
        }
        if let Some(k) = case.obstacles {
            let mut bare = data.arena.clone();
            bare.obstacles.clear();
            data.arena = with_spaced_obstacles(&bare, k, seed, OBSTACLE_GAP);
        }
        let config = WorldConfig {
            mode: case.mode,
            seed,
            agents: Some(case.agents),
            flip,
            script: player,
            order,
            fixed_arena: case.form == Form::Topological,
            ..WorldConfig::default()
        };
        let mut world = World::new(&data, config);
        let input = Input::default();
        for _ in 0..WARM_UP_TICKS {
            world.tick(&input);
            world.events.clear();
        }
        let ticks = ((seconds * f64::from(world.config.tick_hz)).round() as u32).max(1);
        Timing {
            world,
            input,
            ticks,
            times: Vec::with_capacity(ticks as usize),
        }
    }

    fn done(&self) -> bool {
        self.times.len() >= self.ticks as usize
    }

    fn tick(&mut self) -> f64 {
        let started = Instant::now();
        self.world.tick(&self.input);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        // What the window and `sim` do with each tick's events (record or drop them), untimed.
        self.world.events.clear();
        ms
    }

    /// Timed ticks until the turn has lasted `slice_ms` or the world has all its ticks.
    fn turn(&mut self, slice_ms: f64) {
        let mut spent = 0.0;
        while !self.done() && spent < slice_ms {
            let ms = self.tick();
            self.times.push(ms);
            spent += ms;
        }
    }

    /// The figures of the timed ticks, and the floor over the same agents.
    fn finish(mut self, case: &Case) -> Run {
        let agents = self.world.agents.len().max(1);
        let floor = floor_ns(&mut self.world, self.ticks);
        let mut times = self.times;
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let pick =
            |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        let ns = mean * 1e6 / agents as f64;
        Run {
            mode: case.mode.name().to_string(),
            form: case.form.name(),
            agents: self.world.agents.len(),
            obstacles: self.world.arena.obstacles().len(),
            ticks: self.ticks,
            tick_ms: TickMs {
                mean: round3(mean),
                p50: round3(pick(0.5)),
                p99: round3(pick(0.99)),
            },
            ns_per_agent_tick: round1(ns),
            floor_ns_per_agent_tick: round1(floor),
            ratio_to_floor: round1(ns / floor.max(1e-9)),
            rounds_ns_per_agent_tick: Vec::new(),
            mean_ms: mean,
        }
    }
}

/// Time the worlds in turns until each has its ticks. A world alone runs straight through; side
/// by side, each turn starts with an untimed tick (see the module notes).
fn time_in_turns(timings: &mut [Timing]) {
    if let [alone] = timings {
        alone.turn(f64::INFINITY);
        return;
    }
    while timings.iter().any(|t| !t.done()) {
        for t in timings.iter_mut().filter(|t| !t.done()) {
            t.tick();
            t.turn(SLICE_MS);
        }
    }
}

/// Nanoseconds per agent to integrate every agent's position in place, over the same agents.
fn floor_ns(world: &mut World, ticks: u32) -> f64 {
    let dt = world.dt;
    let agents = world.agents.len().max(1);
    let started = Instant::now();
    for _ in 0..ticks {
        for a in world.agents.iter_mut() {
            a.body.pos += a.body.vel * dt;
        }
        black_box(&world.agents);
    }
    started.elapsed().as_secs_f64() * 1e9 / (f64::from(ticks) * agents as f64)
}

fn round3(v: f64) -> f64 {
    (v * 1e3).round() / 1e3
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runs_each_ratio_compares_are_timed_together() {
        let cases = default_cases();
        let groups = side_by_side(&cases);
        // Every mode's two crowds (the flock's with its topological and spread runs), then
        // `avoid` among 25 and 400 generated obstacles.
        assert_eq!(groups.len(), Mode::ALL.len() + 1);
        let flock = Mode::ALL.iter().position(|&m| m == Mode::Flock);
        for (m, group) in groups.iter().take(Mode::ALL.len()).enumerate() {
            if Some(m) == flock {
                let extra = 2 * Mode::ALL.len();
                assert_eq!(group, &vec![2 * m, 2 * m + 1, extra, extra + 1]);
            } else {
                assert_eq!(group, &vec![2 * m, 2 * m + 1]);
            }
        }
        assert_eq!(groups.last(), Some(&vec![cases.len() - 2, cases.len() - 1]));
        let one = [Case {
            mode: Mode::Wander,
            agents: 300,
            obstacles: None,
            form: Form::Plain,
        }];
        assert_eq!(side_by_side(&one), vec![vec![0]]);
    }

    #[test]
    fn worlds_in_turns_each_get_their_ticks_and_one_untimed_tick_a_turn() {
        let data = crate::data::built_in();
        let case = |agents| Case {
            mode: Mode::Wander,
            agents,
            obstacles: None,
            form: Form::Plain,
        };
        let cases = [case(50), case(500)];
        let mut timings: Vec<Timing> = cases
            .iter()
            .map(|c| Timing::new(&data, c, 1, 0.5, PLAYER, (false, Order::AStar)))
            .collect();
        time_in_turns(&mut timings);
        for t in &timings {
            assert_eq!(t.ticks, 30, "0.5 s at 60 Hz");
            assert_eq!(t.times.len(), 30);
            // Warm-up, timed ticks, and an untimed tick opening each turn (at least one turn).
            let untimed = t.world.tick - u64::from(WARM_UP_TICKS) - 30;
            assert!((1..=30).contains(&untimed), "{untimed} turns");
        }
        // Alone, a world runs straight through: no untimed ticks.
        let mut alone = vec![Timing::new(
            &data,
            &case(50),
            1,
            0.5,
            PLAYER,
            (false, Order::AStar),
        )];
        time_in_turns(&mut alone);
        assert_eq!(alone[0].world.tick, u64::from(WARM_UP_TICKS) + 30);
        let run = alone.pop().expect("one timing").finish(&case(50));
        assert_eq!((run.agents, run.ticks), (50, 30));
        assert!(run.tick_ms.p50 <= run.tick_ms.p99);
    }
}
