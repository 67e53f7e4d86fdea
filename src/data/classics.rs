//! The numbers of the classic repertoire's modes as the tuning file holds them: `hide`
//! (Shift+6), `formation` (Shift+7) and `pathway` (Shift+8), with the range of each. Plain data,
//! read by `sim::behaviours::hide`, `formation` and `pathway`, where each number's part in the
//! formulas is explained.

use serde::{Deserialize, Serialize};

/// The `hide` section (Shift+6). Lengths are pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HideParams {
    /// Buckland's `DistanceFromBoundary`: how far beyond an obstacle's far surface (and the
    /// hider's own radius) its hiding spot lies.
    pub boundary: f32,
    /// Obstacles whose hiding spot is farther than this from a hider are not considered; with
    /// none in reach it evades.
    pub reach: f32,
    /// A hider slows down inside this distance of its spot (arrive).
    pub slowing_radius: f32,
    /// How many bodyguards `T` adds.
    pub bodyguards: u32,
}

impl Default for HideParams {
    fn default() -> Self {
        HideParams {
            boundary: 24.0,
            reach: 480.0,
            slowing_radius: 60.0,
            bodyguards: 3,
        }
    }
}

/// One tunable number of a section `T`: its path, label and range (for validation and the tuning
/// panel), and how to read and write it.
pub struct SectionSlider<T> {
    pub path: &'static str,
    pub label: &'static str,
    pub min: f32,
    pub max: f32,
    pub get: fn(&T) -> f32,
    pub set: fn(&mut T, f32),
}

/// Every number of the `hide` section.
pub const HIDE_SLIDERS: &[SectionSlider<HideParams>] = &[
    SectionSlider {
        path: "hide.boundary",
        label: "spot beyond obstacle (px)",
        min: 0.0,
        max: 200.0,
        get: |t| t.boundary,
        set: |t, v| t.boundary = v,
    },
    SectionSlider {
        path: "hide.reach",
        label: "spots in reach (px)",
        min: 10.0,
        max: 3000.0,
        get: |t| t.reach,
        set: |t, v| t.reach = v,
    },
    SectionSlider {
        path: "hide.slowing_radius",
        label: "arrive slowing radius (px)",
        min: 1.0,
        max: 400.0,
        get: |t| t.slowing_radius,
        set: |t, v| t.slowing_radius = v,
    },
    SectionSlider {
        path: "hide.bodyguards",
        label: "bodyguards (T)",
        min: 1.0,
        max: 32.0,
        get: |t| t.bodyguards as f32,
        set: |t, v| t.bodyguards = v.round() as u32,
    },
];
