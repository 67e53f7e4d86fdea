//! The behaviour modes: names for the command line and record, digits for the keyboard, and the
//! one-line descriptions the HUD shows.

use std::fmt;

/// A closed set: each mode is a number key in the window and a name on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    LosChase,
}

impl Mode {
    /// Every mode this build has, in key order.
    pub const ALL: &'static [Mode] = &[Mode::LosChase];

    /// The command-line and record name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::LosChase => "los-chase",
        }
    }

    /// The number key that selects it.
    pub fn digit(self) -> char {
        match self {
            Mode::LosChase => '3',
        }
    }

    /// The HUD's title.
    pub fn title(self) -> &'static str {
        match self {
            Mode::LosChase => "line-of-sight chase",
        }
    }

    /// One line saying what the algorithm does (`flipped`: after `E`).
    pub fn description(self, flipped: bool) -> &'static str {
        match (self, flipped) {
            (Mode::LosChase, false) => {
                "seek: steer straight at the player's current position (desired = dir * max_speed)"
            }
            (Mode::LosChase, true) => {
                "flee: steer straight away from the player's current position (seek negated)"
            }
        }
    }

    pub fn default_agents(self) -> usize {
        match self {
            Mode::LosChase => 4,
        }
    }

    /// Whether `E` / `--evade-flip` reverses this mode.
    pub fn has_flip(self) -> bool {
        matches!(self, Mode::LosChase)
    }

    /// Modes whose agents are meant to keep moving (the `stuck_agents` metric applies).
    pub fn agents_must_move(self) -> bool {
        false
    }

    /// A name or a digit.
    pub fn parse(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s || s.len() == 1 && s.starts_with(m.digit()))
            .ok_or_else(|| {
                let names: Vec<String> = Mode::ALL
                    .iter()
                    .map(|m| format!("{} ({})", m.name(), m.digit()))
                    .collect();
                format!(
                    "unknown mode \"{s}\" (this build has: {})",
                    names.join(", ")
                )
            })
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
