//! What `bench` reports: each run's figures, and the ratios (crowd growth, obstacle growth,
//! density growth) worked out from the rounds of the runs timed side by side.

use super::case::{Case, Form};
use serde::Serialize;

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
    /// The crowds that grow their arena with their count (flock, swarm): the arena's sides
    /// (px) and the room each member has in it (px²) — the density, which decides how many
    /// neighbours each member meets and so what a tick costs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arena_px: Option<[f32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub px2_per_agent: Option<f64>,
    /// The flock: the neighbours a boid heeded, on average over the timed ticks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heeded_mean: Option<f64>,
    /// The mean tick before rounding (ms), for the ratios.
    #[serde(skip)]
    pub(super) mean_ms: f64,
}

/// How a mode's mean tick grows from its smallest crowd in the set to its largest (the
/// linearity target: at most 11× for ten times the agents).
#[derive(Debug, Clone, Serialize)]
pub struct Growth {
    pub mode: String,
    /// The case's form, when not plain (the crowd's method other than ORCA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<&'static str>,
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
    /// The threads each tick could use (`--threads`).
    pub threads: usize,
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

/// The round whose mean tick is the median (the lower of the middle two for an even count),
/// with every round's figure beside it.
pub(super) fn median_round(mut rounds: Vec<Run>) -> Run {
    let all: Vec<f64> = rounds.iter().map(|r| r.ns_per_agent_tick).collect();
    rounds.sort_by(|a, b| a.mean_ms.total_cmp(&b.mean_ms));
    let mut median = rounds.swap_remove(rounds.len().saturating_sub(1) / 2);
    median.rounds_ns_per_agent_tick = all;
    median
}

/// Mean tick of the largest crowd over the smallest, per mode and arena (runs on generated
/// obstacles are compared only with runs on the same count). `timed` holds each case's rounds.
pub(super) fn growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<Growth> {
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
                form: case.form.name(),
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
pub(super) fn density_growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<Growth> {
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
            form: None,
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
pub(super) fn obstacle_growth(cases: &[Case], timed: &[Vec<Run>]) -> Vec<ObstacleGrowth> {
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
