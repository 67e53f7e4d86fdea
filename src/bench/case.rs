//! What `bench` times: a case (a mode, a crowd, an arena), the default set of cases, and which of
//! them are timed side by side because a ratio compares them.

use crate::data::walkers::Avoidance;
use crate::sim::mode::Mode;
use crate::sim::player::Script;

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
    /// The crowd keeping clear by another method than ORCA, its default.
    Avoid(Avoidance),
}

impl Form {
    /// The run's `form` field (none for a plain run).
    pub(super) fn name(self) -> Option<&'static str> {
        match self {
            Form::Plain => None,
            Form::Topological => Some("topological"),
            Form::Spread => Some("arena-10x"),
            Form::Avoid(a) => Some(a.name()),
        }
    }
}

/// The default set: every mode at 2,000 and 20,000 agents (the crowd crossing, by ORCA); the flock at
/// 20,000 heeding its 7 nearest, and at 20,000 in the arena of ten times the area (timed beside
/// its 2,000 in the default one); `avoid` at 20,000 with 25 and with 400 generated obstacles;
/// and the crowd at 2,000 and 20,000 keeping clear by separation and by prediction.
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
    for avoid in [Avoidance::Separation, Avoidance::Predictive] {
        for agents in [2_000, 20_000] {
            cases.push(case(Mode::Crowd, agents, None, Form::Avoid(avoid)));
        }
    }
    cases
}

/// The player bench runs against unless `--player` says otherwise: one that moves keeps every
/// behaviour busy (chasers chase, evaders flee).
pub const PLAYER: Script = Script::Circle;

/// The cases timed side by side, as lists of indices in `cases` (in order of their first case):
/// a mode's crowds on the arena file's obstacles (in every form: the spread arena's crowd is
/// compared with the default one's), and a mode's generated obstacle counts at one crowd size —
/// the runs the growth ratios compare.
pub(super) fn side_by_side(cases: &[Case]) -> Vec<Vec<usize>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runs_each_ratio_compares_are_timed_together() {
        let cases = default_cases();
        let groups = side_by_side(&cases);
        // Every mode's two crowds (the flock's with its topological and spread runs, the
        // crowd's with its separation and prediction runs), then `avoid` among 25 and 400
        // generated obstacles.
        assert_eq!(groups.len(), Mode::ALL.len() + 1);
        let at = |mode| Mode::ALL.iter().position(|&m| m == mode);
        let extra = 2 * Mode::ALL.len();
        for (m, group) in groups.iter().take(Mode::ALL.len()).enumerate() {
            if Some(m) == at(Mode::Flock) {
                assert_eq!(group, &vec![2 * m, 2 * m + 1, extra, extra + 1]);
            } else if Some(m) == at(Mode::Crowd) {
                let others: Vec<usize> = (extra + 4..extra + 8).collect();
                assert_eq!(group, &[vec![2 * m, 2 * m + 1], others].concat());
                for &c in &group[2..] {
                    assert!(matches!(cases[c].form, Form::Avoid(_)));
                }
            } else {
                assert_eq!(group, &vec![2 * m, 2 * m + 1]);
            }
        }
        assert_eq!(groups.last(), Some(&vec![extra + 2, extra + 3]));
        let one = [Case {
            mode: Mode::Wander,
            agents: 300,
            obstacles: None,
            form: Form::Plain,
        }];
        assert_eq!(side_by_side(&one), vec![vec![0]]);
    }
}
