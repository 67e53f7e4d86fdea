//! `tuning.json`: every behaviour's tunable numbers, and the slider table that exposes them.
//!
//! Sections default individually, so a file written by an older build still loads. The slider table
//! is the single description of each parameter's name and range: the tuning panel draws it, and
//! validation uses the same ranges.

use super::{FieldError, check_range};
use crate::sim::mode::Mode;
use serde::{Deserialize, Serialize};

pub const FILE_NAME: &str = "tuning.json";
pub const BUILT_IN: &str = include_str!("../../assets/tuning.json");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tuning {
    pub player: PlayerTuning,
    /// Shared by every chaser kind (tile and continuous) so modes compare fairly.
    pub chaser: VehicleTuning,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerTuning {
    /// Pixels per second.
    pub max_speed: f32,
    /// Pixels per second squared, towards the keyed direction (and braking when no key is held).
    pub acceleration: f32,
    pub radius: f32,
}

/// The vehicle model's parameters (SPEC: steering tutorial).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleTuning {
    /// Pixels per second.
    pub max_speed: f32,
    /// Largest steering force; divided by mass gives pixels per second squared.
    pub max_force: f32,
    pub mass: f32,
    pub radius: f32,
}

/// Parse and validate `tuning.json` text.
pub fn parse(text: &str) -> Result<Tuning, String> {
    let data: Tuning = super::from_json(text)?;
    data.validate().map_err(|e| e.to_string())?;
    Ok(data)
}

/// Pretty JSON for the tuning panel's Save button.
pub fn to_json(t: &Tuning) -> String {
    serde_json::to_string_pretty(t).expect("tuning always serializes")
}

/// One tunable number: its field path, the label the panel shows, the allowed range, and how to
/// read and write it. Validation and the panel share this table.
pub struct Slider {
    pub path: &'static str,
    pub label: &'static str,
    pub min: f32,
    pub max: f32,
    /// Modes whose panel shows it; empty means every mode.
    pub modes: &'static [Mode],
    pub get: fn(&Tuning) -> f32,
    pub set: fn(&mut Tuning, f32),
}

/// Every tunable number. Later behaviours add their rows here.
pub const SLIDERS: &[Slider] = &[
    Slider {
        path: "player.max_speed",
        label: "player max speed",
        min: 20.0,
        max: 600.0,
        modes: &[],
        get: |t| t.player.max_speed,
        set: |t, v| t.player.max_speed = v,
    },
    Slider {
        path: "player.acceleration",
        label: "player acceleration",
        min: 50.0,
        max: 5000.0,
        modes: &[],
        get: |t| t.player.acceleration,
        set: |t, v| t.player.acceleration = v,
    },
    Slider {
        path: "player.radius",
        label: "player radius",
        min: 4.0,
        max: 40.0,
        modes: &[],
        get: |t| t.player.radius,
        set: |t, v| t.player.radius = v,
    },
    Slider {
        path: "chaser.max_speed",
        label: "chaser max speed",
        min: 10.0,
        max: 600.0,
        modes: &[Mode::LosChase],
        get: |t| t.chaser.max_speed,
        set: |t, v| t.chaser.max_speed = v,
    },
    Slider {
        path: "chaser.max_force",
        label: "chaser max force",
        min: 10.0,
        max: 5000.0,
        modes: &[Mode::LosChase],
        get: |t| t.chaser.max_force,
        set: |t, v| t.chaser.max_force = v,
    },
    Slider {
        path: "chaser.mass",
        label: "chaser mass",
        min: 0.1,
        max: 20.0,
        modes: &[Mode::LosChase],
        get: |t| t.chaser.mass,
        set: |t, v| t.chaser.mass = v,
    },
    Slider {
        path: "chaser.radius",
        label: "chaser radius",
        min: 4.0,
        max: 40.0,
        modes: &[Mode::LosChase],
        get: |t| t.chaser.radius,
        set: |t, v| t.chaser.radius = v,
    },
];

impl Slider {
    pub fn shown_in(&self, mode: Mode) -> bool {
        self.modes.is_empty() || self.modes.contains(&mode)
    }
}

impl Tuning {
    /// Every value must lie inside its slider's range.
    pub fn validate(&self) -> Result<(), FieldError> {
        for s in SLIDERS {
            check_range(s.path, (s.get)(self), s.min, s.max)?;
        }
        Ok(())
    }
}
