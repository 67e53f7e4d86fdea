//! `best.json` in the settings folder: the longest time survived between two catches and the
//! most tags, for each mode, kept by the window from one game to the next.

use super::FieldError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FILE_NAME: &str = "best.json";

/// Most modes a file may hold (there are a few dozen; names of modes a later version adds are
/// kept as they are).
pub const MAX_MODES: usize = 256;

/// Each mode's best, by the mode's name as the command line writes it (`intercept`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Best {
    pub modes: BTreeMap<String, ModeBest>,
}

/// One mode's best: seconds survived between two catches, and tags in one run of the mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeBest {
    pub survived_s: f64,
    pub tags: u32,
}

/// Parse and validate `best.json` text.
pub fn parse(text: &str) -> Result<Best, String> {
    let best: Best = super::from_json(text)?;
    best.validate().map_err(|e| e.to_string())?;
    Ok(best)
}

impl Best {
    pub fn validate(&self) -> Result<(), FieldError> {
        if self.modes.len() > MAX_MODES {
            return Err(FieldError::new(
                "modes",
                format!("at most {MAX_MODES} modes, got {}", self.modes.len()),
            ));
        }
        for (name, m) in &self.modes {
            if !(m.survived_s.is_finite() && m.survived_s >= 0.0) {
                return Err(FieldError::new(
                    format!("modes.{name}.survived_s"),
                    format!(
                        "must be a number of seconds, 0 or more, got {}",
                        m.survived_s
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The mode's best so far (zeros when it has none).
    pub fn get(&self, mode: &str) -> ModeBest {
        self.modes.get(mode).copied().unwrap_or_default()
    }

    /// Keep `survived_s` (to the millisecond) and `tags` where they beat the mode's best;
    /// whether either did.
    pub fn offer(&mut self, mode: &str, survived_s: f64, tags: u32) -> bool {
        let survived_s = (survived_s * 1000.0).round() / 1000.0;
        let best = self.modes.entry(mode.to_string()).or_default();
        let mut better = false;
        if survived_s.is_finite() && survived_s > best.survived_s {
            best.survived_s = survived_s;
            better = true;
        }
        if tags > best.tags {
            best.tags = tags;
            better = true;
        }
        better
    }
}

/// The file's text: one mode a line, so it stays short and readable.
pub fn to_json(best: &Best) -> String {
    let lines: Vec<String> = best
        .modes
        .iter()
        .map(|(name, m)| {
            format!(
                "    {}: {}",
                serde_json::to_string(name).expect("a string always serializes"),
                serde_json::to_string(m).expect("numbers always serialize")
            )
        })
        .collect();
    if lines.is_empty() {
        return "{ \"modes\": {} }\n".to_string();
    }
    format!("{{\n  \"modes\": {{\n{}\n  }}\n}}\n", lines.join(",\n"))
}
