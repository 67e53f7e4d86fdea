//! The compiled machine: states by index, each state's exits as a slice of the transition table
//! in file order, so a step is a short scan with no text and no allocation.

use super::conditions::Conditions;
use super::route::Route;
use crate::data::FieldError;
use crate::data::fsm::{Condition, FsmData, GuardBehaviour, MAX_STATES};

/// A state of the machine, by its index in the file's `states`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u8);

impl StateId {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// One row of the transition table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transition {
    pub from: StateId,
    pub to: StateId,
    pub condition: Condition,
}

/// A transition that fired: where from, where to, and its index in the file's `transitions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fired {
    pub from: StateId,
    pub to: StateId,
    pub index: usize,
}

#[derive(Debug, Clone)]
pub struct Machine {
    names: Vec<String>,
    behaviours: Vec<GuardBehaviour>,
    initial: StateId,
    table: Vec<Transition>,
    /// `"from>to"` for each row: the summary's keys and the record's event text.
    labels: Vec<String>,
    /// Row indices grouped by the state they leave, file order kept within a group; state `s`'s
    /// exits are `exits[starts[s]..starts[s + 1]]`.
    exits: Vec<u16>,
    starts: Vec<u16>,
    routes: Vec<Route>,
}

impl Machine {
    /// Validate the data and compile it.
    pub fn compile(data: &FsmData) -> Result<Machine, FieldError> {
        data.validate()?;
        let mut behaviours = Vec::with_capacity(data.states.len());
        for (i, s) in data.states.iter().enumerate() {
            behaviours.push(s.behaviour(&format!("states[{i}]"))?);
        }
        let id = |path: &str, name: &str| -> Result<StateId, FieldError> {
            let i = data.state(path, name)?;
            u8::try_from(i)
                .map(StateId)
                .map_err(|_| FieldError::new(path, format!("at most {MAX_STATES} states")))
        };
        let initial = id("initial", &data.initial)?;
        let mut table = Vec::with_capacity(data.transitions.len());
        for (i, t) in data.transitions.iter().enumerate() {
            let path = format!("transitions[{i}]");
            table.push(Transition {
                from: id(&format!("{path}.from"), &t.from)?,
                to: id(&format!("{path}.to"), &t.to)?,
                condition: t.condition(&path)?,
            });
        }
        let labels = table
            .iter()
            .map(|t| {
                format!(
                    "{}>{}",
                    data.states[t.from.index()].name,
                    data.states[t.to.index()].name
                )
            })
            .collect();
        let mut exits = Vec::with_capacity(table.len());
        let mut starts = Vec::with_capacity(data.states.len() + 1);
        for s in 0..data.states.len() {
            starts.push(exits.len() as u16);
            exits.extend(
                table
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.from.index() == s)
                    .map(|(i, _)| i as u16),
            );
        }
        starts.push(exits.len() as u16);
        Ok(Machine {
            names: data.states.iter().map(|s| s.name.clone()).collect(),
            behaviours,
            initial,
            table,
            labels,
            exits,
            starts,
            routes: data.routes.iter().map(Route::from_data).collect(),
        })
    }

    /// The first of `from`'s exits, in file order, whose condition holds.
    pub fn step(&self, from: StateId, c: &Conditions) -> Option<Fired> {
        let s = from.index().min(self.names.len().saturating_sub(1));
        let rows = &self.exits[usize::from(self.starts[s])..usize::from(self.starts[s + 1])];
        rows.iter().find_map(|&i| {
            let t = &self.table[usize::from(i)];
            c.holds(&t.condition).then_some(Fired {
                from: t.from,
                to: t.to,
                index: usize::from(i),
            })
        })
    }

    pub fn initial(&self) -> StateId {
        self.initial
    }

    pub fn state_count(&self) -> usize {
        self.names.len()
    }

    /// Every state, in file order.
    pub fn states(&self) -> impl Iterator<Item = StateId> + '_ {
        (0..self.names.len()).map(|i| StateId(i as u8))
    }

    pub fn name(&self, s: StateId) -> &str {
        self.names.get(s.index()).map_or("", String::as_str)
    }

    pub fn behaviour(&self, s: StateId) -> GuardBehaviour {
        self.behaviours
            .get(s.index())
            .copied()
            .unwrap_or(GuardBehaviour::Patrol)
    }

    pub fn state_named(&self, name: &str) -> Option<StateId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| StateId(i as u8))
    }

    /// The transition table in file order (the diagram draws one arrow per row).
    pub fn transitions(&self) -> &[Transition] {
        &self.table
    }

    /// `"from>to"` for row `index`.
    pub fn label(&self, index: usize) -> &str {
        self.labels.get(index).map_or("", String::as_str)
    }

    /// Rows leaving `s`, in the order they are tried.
    pub fn exits(&self, s: StateId) -> impl Iterator<Item = (usize, &Transition)> + '_ {
        let s = s.index().min(self.names.len().saturating_sub(1));
        self.exits[usize::from(self.starts[s])..usize::from(self.starts[s + 1])]
            .iter()
            .map(|&i| (usize::from(i), &self.table[usize::from(i)]))
    }

    pub fn routes(&self) -> &[Route] {
        &self.routes
    }

    /// Move every route point by `fit` (see [`Route::fit`]).
    pub fn fit_routes(&mut self, fit: impl Fn(glam::Vec2) -> glam::Vec2) {
        for r in &mut self.routes {
            r.fit(&fit);
        }
    }

    /// The route guard `id` walks: `id` modulo the number of routes.
    pub fn route_of(&self, id: usize) -> usize {
        id % self.routes.len().max(1)
    }

    pub fn route(&self, index: usize) -> &Route {
        &self.routes[index % self.routes.len()]
    }
}

/// Counts for the summary's `transitions` and `seconds_in_state`: fires per row and guard-ticks
/// per state, kept in fixed vectors sized once.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    fired: Vec<u32>,
    ticks_in_state: Vec<u64>,
}

impl Tally {
    pub fn new(machine: &Machine) -> Tally {
        Tally {
            fired: vec![0; machine.transitions().len()],
            ticks_in_state: vec![0; machine.state_count()],
        }
    }

    pub fn fired(&mut self, f: &Fired) {
        if let Some(n) = self.fired.get_mut(f.index) {
            *n += 1;
        }
    }

    /// One guard spent one tick in `s`.
    pub fn ticked(&mut self, s: StateId) {
        if let Some(n) = self.ticks_in_state.get_mut(s.index()) {
            *n += 1;
        }
    }

    /// How many times row `index` fired.
    pub fn fires(&self, index: usize) -> u32 {
        self.fired.get(index).copied().unwrap_or(0)
    }

    /// `("from>to", count)` in the order each key first appears in the table; rows sharing a key
    /// (two conditions between the same states) add up.
    pub fn transitions(&self, machine: &Machine) -> Vec<(String, u32)> {
        let mut out: Vec<(String, u32)> = Vec::new();
        for (i, n) in self.fired.iter().enumerate() {
            let label = machine.label(i);
            match out.iter_mut().find(|(l, _)| l == label) {
                Some((_, m)) => *m += n,
                None => out.push((label.to_string(), *n)),
            }
        }
        out
    }

    /// `(state, guard-seconds)` for every state, in file order.
    pub fn seconds_in_state(&self, machine: &Machine, dt: f32) -> Vec<(String, f64)> {
        machine
            .states()
            .map(|s| {
                (
                    machine.name(s).to_string(),
                    self.ticks_in_state[s.index()] as f64 * f64::from(dt),
                )
            })
            .collect()
    }
}
