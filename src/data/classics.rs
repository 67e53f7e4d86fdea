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

/// The shapes a formation takes (`V` cycles, `--shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormationShape {
    /// A filled V behind the leader, widening rank by rank.
    #[default]
    Wedge,
    /// Abreast: ranks side by side across the heading.
    Line,
    /// Files one behind another.
    Column,
    /// A defensive circle round the leader, ring outside ring.
    Ring,
}

impl FormationShape {
    pub const ALL: [FormationShape; 4] = [
        FormationShape::Wedge,
        FormationShape::Line,
        FormationShape::Column,
        FormationShape::Ring,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FormationShape::Wedge => "wedge",
            FormationShape::Line => "line",
            FormationShape::Column => "column",
            FormationShape::Ring => "ring",
        }
    }

    pub fn from_name(s: &str) -> Option<FormationShape> {
        FormationShape::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The next in `V`'s cycle.
    pub fn next(self) -> FormationShape {
        let i = FormationShape::ALL
            .iter()
            .position(|&c| c == self)
            .unwrap_or(0);
        FormationShape::ALL[(i + 1) % FormationShape::ALL.len()]
    }
}

/// The `formation` section (Shift+7). Lengths are pixels, speeds pixels per second.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FormationParams {
    /// Centre to centre between neighbouring slots.
    pub spacing: f32,
    /// How far behind the leader the anchor trails (the ring is centred on the leader).
    pub anchor_gap: f32,
    /// The anchor's top speed and turn rate: the moderated pace that keeps the slots from
    /// whipping round when the leader turns.
    pub anchor_speed: f32,
    pub anchor_turn_deg_s: f32,
    /// The innermost ring's radius.
    pub ring_radius: f32,
    /// A member slows down inside this distance of its slot.
    pub slowing_radius: f32,
    /// How hard members push apart (Reynolds' separation) and within what range.
    pub separation: f32,
    pub separation_range: f32,
}

impl Default for FormationParams {
    fn default() -> Self {
        FormationParams {
            spacing: 36.0,
            anchor_gap: 48.0,
            anchor_speed: 240.0,
            anchor_turn_deg_s: 90.0,
            ring_radius: 56.0,
            slowing_radius: 80.0,
            separation: 0.6,
            separation_range: 28.0,
        }
    }
}

/// Every number of the `formation` section.
pub const FORMATION_SLIDERS: &[SectionSlider<FormationParams>] = &[
    SectionSlider {
        path: "formation.spacing",
        label: "slot spacing (px)",
        min: 4.0,
        max: 200.0,
        get: |t| t.spacing,
        set: |t, v| t.spacing = v,
    },
    SectionSlider {
        path: "formation.anchor_gap",
        label: "anchor behind leader (px)",
        min: 0.0,
        max: 400.0,
        get: |t| t.anchor_gap,
        set: |t, v| t.anchor_gap = v,
    },
    SectionSlider {
        path: "formation.anchor_speed",
        label: "anchor top speed",
        min: 10.0,
        max: 1000.0,
        get: |t| t.anchor_speed,
        set: |t, v| t.anchor_speed = v,
    },
    SectionSlider {
        path: "formation.anchor_turn_deg_s",
        label: "anchor turn rate (deg/s)",
        min: 5.0,
        max: 1080.0,
        get: |t| t.anchor_turn_deg_s,
        set: |t, v| t.anchor_turn_deg_s = v,
    },
    SectionSlider {
        path: "formation.ring_radius",
        label: "inner ring radius (px)",
        min: 10.0,
        max: 400.0,
        get: |t| t.ring_radius,
        set: |t, v| t.ring_radius = v,
    },
    SectionSlider {
        path: "formation.slowing_radius",
        label: "slot slowing radius (px)",
        min: 1.0,
        max: 400.0,
        get: |t| t.slowing_radius,
        set: |t, v| t.slowing_radius = v,
    },
    SectionSlider {
        path: "formation.separation",
        label: "members' separation",
        min: 0.0,
        max: 10.0,
        get: |t| t.separation,
        set: |t, v| t.separation = v,
    },
    SectionSlider {
        path: "formation.separation_range",
        label: "separation range (px)",
        min: 1.0,
        max: 200.0,
        get: |t| t.separation_range,
        set: |t, v| t.separation_range = v,
    },
];

/// The `pathway` section (Shift+8). Lengths are pixels, times seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PathwayParams {
    /// Reynolds' prediction: how far ahead in time an agent predicts where it will be.
    pub predict_s: f32,
    /// The least distance along the path to the target a correction steers for (the target is
    /// `speed × predict_s` ahead, and at least this: an agent at rest still has somewhere to go).
    pub lead: f32,
    /// Two-way traffic keeps right: each way's lane is centred this share of the radius to the
    /// right of the centre line, and reaches to the pathway's edge (0: Reynolds' own, the
    /// whole pathway for both ways).
    pub keep_right: f32,
    /// How hard agents push apart (Reynolds' separation) and within what range.
    pub separation: f32,
    pub separation_range: f32,
    /// How hard agents keep off obstacles and walls nearer than `clearance` to their edge.
    pub obstacle: f32,
    pub clearance: f32,
}

impl Default for PathwayParams {
    fn default() -> Self {
        PathwayParams {
            predict_s: 0.5,
            lead: 24.0,
            keep_right: 0.5,
            separation: 1.0,
            separation_range: 32.0,
            obstacle: 1.0,
            clearance: 16.0,
        }
    }
}

/// Every number of the `pathway` section.
pub const PATHWAY_SLIDERS: &[SectionSlider<PathwayParams>] = &[
    SectionSlider {
        path: "pathway.predict_s",
        label: "prediction time (s)",
        min: 0.0,
        max: 3.0,
        get: |t| t.predict_s,
        set: |t, v| t.predict_s = v,
    },
    SectionSlider {
        path: "pathway.lead",
        label: "least target lead (px)",
        min: 1.0,
        max: 400.0,
        get: |t| t.lead,
        set: |t, v| t.lead = v,
    },
    SectionSlider {
        path: "pathway.keep_right",
        label: "keep right (share of radius)",
        min: 0.0,
        max: 0.9,
        get: |t| t.keep_right,
        set: |t, v| t.keep_right = v,
    },
    SectionSlider {
        path: "pathway.separation",
        label: "pedestrians' separation",
        min: 0.0,
        max: 10.0,
        get: |t| t.separation,
        set: |t, v| t.separation = v,
    },
    SectionSlider {
        path: "pathway.separation_range",
        label: "separation range (px)",
        min: 1.0,
        max: 200.0,
        get: |t| t.separation_range,
        set: |t, v| t.separation_range = v,
    },
    SectionSlider {
        path: "pathway.obstacle",
        label: "keep off obstacles",
        min: 0.0,
        max: 10.0,
        get: |t| t.obstacle,
        set: |t, v| t.obstacle = v,
    },
    SectionSlider {
        path: "pathway.clearance",
        label: "obstacle clearance (px)",
        min: 0.0,
        max: 200.0,
        get: |t| t.clearance,
        set: |t, v| t.clearance = v,
    },
];
