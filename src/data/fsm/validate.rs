//! Checking a machine file: every name resolves to a state, behaviour or condition, every number
//! is in range and no list is empty or overlong, each fault with its field path.

use super::machine::{
    CONDITIONS, Condition, FsmData, GuardBehaviour, MAX_POINTS, MAX_ROUTES, MAX_SECONDS,
    MAX_STATES, MAX_TRANSITIONS, StateData, TransitionData,
};
use crate::data::{FieldError, check_range};

impl TransitionData {
    /// The condition this transition names, checked: `path` is the transition's own
    /// (`transitions[3]`).
    pub fn condition(&self, path: &str) -> Result<Condition, FieldError> {
        let takes_seconds = self.condition == "lost_player_for";
        let condition = match self.condition.as_str() {
            "sees_player" => Condition::SeesPlayer,
            "search_done" => Condition::SearchDone,
            "powered" => Condition::Powered,
            "power_ended" => Condition::PowerEnded,
            "at_route" => Condition::AtRoute,
            "lost_player_for" => {
                let seconds = self.seconds.ok_or_else(|| {
                    FieldError::new(format!("{path}.seconds"), "required by lost_player_for")
                })?;
                check_range(&format!("{path}.seconds"), seconds, 0.0, MAX_SECONDS)?;
                Condition::LostPlayerFor { seconds }
            }
            other => {
                return Err(FieldError::new(
                    format!("{path}.if"),
                    format!(
                        "unknown condition \"{other}\" (one of {})",
                        CONDITIONS.join(", ")
                    ),
                ));
            }
        };
        if !takes_seconds && self.seconds.is_some() {
            return Err(FieldError::new(
                format!("{path}.seconds"),
                format!("{} takes no seconds", self.condition),
            ));
        }
        Ok(condition)
    }
}

impl StateData {
    /// The behaviour the state runs: the one it names, else the one its name is.
    pub fn behaviour(&self, path: &str) -> Result<GuardBehaviour, FieldError> {
        let list = || {
            GuardBehaviour::ALL
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.behaviour {
            Some(b) => GuardBehaviour::named(b).ok_or_else(|| {
                FieldError::new(
                    format!("{path}.behaviour"),
                    format!("unknown behaviour \"{b}\" (one of {})", list()),
                )
            }),
            None => GuardBehaviour::named(&self.name).ok_or_else(|| {
                FieldError::new(
                    format!("{path}.behaviour"),
                    format!(
                        "state \"{}\" needs a behaviour (one of {})",
                        self.name,
                        list()
                    ),
                )
            }),
        }
    }
}

impl FsmData {
    /// Every name resolves, every number is finite and in range, no list is empty or overlong.
    pub fn validate(&self) -> Result<(), FieldError> {
        if self.states.is_empty() {
            return Err(FieldError::new("states", "must not be empty"));
        }
        check_len("states", self.states.len(), MAX_STATES)?;
        for (i, s) in self.states.iter().enumerate() {
            let path = format!("states[{i}]");
            check_name(&format!("{path}.name"), &s.name)?;
            if self.states[..i].iter().any(|t| t.name == s.name) {
                return Err(FieldError::new(
                    format!("{path}.name"),
                    format!("duplicate state \"{}\"", s.name),
                ));
            }
            s.behaviour(&path)?;
        }
        self.state("initial", &self.initial)?;
        check_len("transitions", self.transitions.len(), MAX_TRANSITIONS)?;
        for (i, t) in self.transitions.iter().enumerate() {
            let path = format!("transitions[{i}]");
            self.state(&format!("{path}.from"), &t.from)?;
            self.state(&format!("{path}.to"), &t.to)?;
            // A state entering itself would reset its clocks and log an event for no change.
            if t.from == t.to {
                return Err(FieldError::new(
                    format!("{path}.to"),
                    format!("a transition from \"{}\" to itself", t.from),
                ));
            }
            t.condition(&path)?;
        }
        if self.routes.is_empty() {
            return Err(FieldError::new("routes", "must not be empty"));
        }
        check_len("routes", self.routes.len(), MAX_ROUTES)?;
        for (i, r) in self.routes.iter().enumerate() {
            let path = format!("routes[{i}].points");
            if r.points.is_empty() {
                return Err(FieldError::new(path, "must not be empty"));
            }
            check_len(&path, r.points.len(), MAX_POINTS)?;
            for (j, p) in r.points.iter().enumerate() {
                for (axis, v) in p.iter().enumerate() {
                    check_range(&format!("{path}[{j}][{axis}]"), *v, -1e5, 1e5)?;
                }
            }
        }
        Ok(())
    }

    /// Every route point lies inside a `width`×`height` arena. Loading does not require it (any
    /// machine file goes with any arena file: a world moves the points to where a guard fits);
    /// this says whether a machine was drawn for an arena of that size.
    pub fn check_routes_inside(&self, width: f32, height: f32) -> Result<(), FieldError> {
        for (i, r) in self.routes.iter().enumerate() {
            for (j, p) in r.points.iter().enumerate() {
                let inside = (0.0..=width).contains(&p[0]) && (0.0..=height).contains(&p[1]);
                if !inside {
                    return Err(FieldError::new(
                        format!("routes[{i}].points[{j}]"),
                        format!(
                            "point ({}, {}) is outside the {width}x{height} arena",
                            p[0], p[1]
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The index of the state named `name`, or an error at `path`.
    pub fn state(&self, path: &str, name: &str) -> Result<usize, FieldError> {
        self.states
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| FieldError::new(path, format!("unknown state \"{name}\"")))
    }
}

/// State names appear in `state:ID:FROM>TO` events and `"from>to"` summary keys, so they keep to
/// characters that cannot split those.
fn check_name(path: &str, name: &str) -> Result<(), FieldError> {
    if name.is_empty() {
        return Err(FieldError::new(path, "must not be empty"));
    }
    if name.len() > 32
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(FieldError::new(
            path,
            format!("\"{name}\": a state name is 1-32 letters, digits, '_' or '-'"),
        ));
    }
    Ok(())
}

fn check_len(path: &str, len: usize, max: usize) -> Result<(), FieldError> {
    if len > max {
        Err(FieldError::new(
            path,
            format!("at most {max} entries, got {len}"),
        ))
    } else {
        Ok(())
    }
}
