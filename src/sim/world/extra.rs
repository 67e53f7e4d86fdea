//! The figures read off the world: the summary's `extra`, time survived, events.

use super::World;
use crate::sim::agent::Behaviour;
use crate::sim::mode::Mode;

impl World {
    /// The mode's own figures for the `sim` summary's `extra`.
    pub fn extra(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut m = serde_json::Map::new();
        match self.mode {
            Mode::Patterns => {
                let mut cycles = 0;
                let mut closure = None;
                for a in &self.agents {
                    match &a.behaviour {
                        Behaviour::Pattern { run, .. } => {
                            cycles += run.cycles;
                            if &*run.name == "square" && closure.is_none() {
                                let side = run
                                    .list
                                    .iter()
                                    .filter_map(|i| i.distance)
                                    .fold(0.0f32, f32::max);
                                closure = run
                                    .first_closure
                                    .filter(|_| side > 0.0)
                                    .map(|d| f64::from(d / side));
                            }
                        }
                        Behaviour::TilePattern { run, .. } => cycles += run.cycles,
                        Behaviour::TileChase { .. }
                        | Behaviour::TileLos { .. }
                        | Behaviour::Los { .. }
                        | Behaviour::Intercept { .. }
                        | Behaviour::Evade(_)
                        | Behaviour::Wander { .. }
                        | Behaviour::Avoid { .. }
                        | Behaviour::Ship(_)
                        | Behaviour::Boid(_)
                        | Behaviour::Swarmer(_)
                        | Behaviour::Path(_)
                        | Behaviour::Guard(_)
                        | Behaviour::Hide(_)
                        | Behaviour::Bodyguard(_)
                        | Behaviour::Walker(_)
                        | Behaviour::Member(_)
                        | Behaviour::Pedestrian(_) => {}
                    }
                }
                m.insert("cycles".into(), json!(cycles));
                m.insert(
                    "square_closure_error".into(),
                    json!(closure.map(|c| (c * 1e6).round() / 1e6)),
                );
            }
            Mode::Galaga => {
                if let Some(s) = &self.stage {
                    m.insert("waves_launched".into(), json!(s.waves_launched));
                    m.insert("ships".into(), json!(self.agents.len()));
                    m.insert(
                        "formation_complete_s".into(),
                        json!(s.complete_at.map(|t| (f64::from(t) * 1e3).round() / 1e3)),
                    );
                    m.insert("dives".into(), json!(s.dives));
                    m.insert("max_in_flight".into(), json!(s.max_in_flight));
                }
            }
            Mode::Mixed => {
                m.insert("catches_by_kind".into(), json!(self.score.by_kind));
            }
            Mode::Pathfind => self.path_extra(&mut m),
            Mode::Pathway => {
                let run = &self.pathway;
                let (traversals, least) = self.traversals();
                let round = |v: Option<f64>| v.map(|v| (v * 1e6).round() / 1e6);
                m.insert("pathways".into(), json!(run.ways.len()));
                m.insert("drawn".into(), json!(run.drawn.is_some()));
                m.insert(
                    "outside_fraction".into(),
                    json!(round(run.outside_fraction())),
                );
                m.insert("traversals".into(), json!(traversals));
                m.insert("traversals_min".into(), json!(least));
                m.insert("collisions".into(), json!(run.collisions));
                let share =
                    (run.agent_ticks > 0).then(|| run.collisions as f64 / run.agent_ticks as f64);
                m.insert("collisions_per_agent_tick".into(), json!(round(share)));
            }
            Mode::Formation => {
                let f = &self.formation;
                let error = f.slot_error().map(|e| (e * 1e3).round() / 1e3);
                m.insert("shape".into(), json!(f.shape.name()));
                m.insert(
                    "assign".into(),
                    json!(if self.flip { "fixed" } else { "nearest" }),
                );
                m.insert("slot_error_mean_px".into(), json!(error));
                m.insert("assignment_cost_px".into(), json!(f.cost));
                m.insert("reassignments".into(), json!(f.reassignments));
                m.insert("agent_overlaps".into(), json!(f.overlaps));
            }
            Mode::Hide => {
                let round = |v: Option<f64>| v.map(|v| (v * 1e6).round() / 1e6);
                m.insert(
                    "hidden_fraction".into(),
                    json!(round(self.hiding.hidden_fraction())),
                );
                m.insert(
                    "guard_off_line_px".into(),
                    json!(round(self.hiding.guard_off_line_px())),
                );
            }
            Mode::Crowd => self.crowd_extra(&mut m),
            Mode::Fsm => {
                let machine = &self.fsm.machine;
                let fired: serde_json::Map<String, serde_json::Value> = self
                    .fsm
                    .tally
                    .transitions(machine)
                    .into_iter()
                    .map(|(k, n)| (k, json!(n)))
                    .collect();
                let seconds: serde_json::Map<String, serde_json::Value> = self
                    .fsm
                    .tally
                    .seconds_in_state(machine, self.dt)
                    .into_iter()
                    .map(|(k, s)| (k, json!((s * 1e3).round() / 1e3)))
                    .collect();
                m.insert("transitions".into(), serde_json::Value::Object(fired));
                m.insert(
                    "seconds_in_state".into(),
                    serde_json::Value::Object(seconds),
                );
            }
            // The flock's and the swarm's figures come from the metrics' group watch
            // (`Metrics::group_extra`); the others have none of their own.
            Mode::TileChase
            | Mode::TileLos
            | Mode::LosChase
            | Mode::Intercept
            | Mode::Evade
            | Mode::Wander
            | Mode::Avoid
            | Mode::Flock
            | Mode::Swarm => {}
        }
        m
    }

    /// The record's `state` for agent `a`: a guard's machine state by the machine's name for it,
    /// any other agent's behaviour word.
    pub fn state_word<'a>(&'a self, a: &'a crate::sim::agent::Agent) -> &'a str {
        if let Behaviour::Guard(g) = &a.behaviour {
            self.fsm.machine.name(g.mind.state)
        } else {
            a.state
        }
    }

    /// Seconds survived since the last catch.
    pub fn survived(&self) -> f64 {
        self.time() - self.score.last_catch_t
    }

    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}
