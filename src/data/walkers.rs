//! The crowd's numbers (Shift+5) as the tuning file's `crowd` section holds them, the scenes it
//! walks and the ways its walkers avoid one another: plain data, read by
//! `sim::behaviours::walker` and `sim::behaviours::orca`, where each number's part in the
//! formulas is explained.

use serde::{Deserialize, Serialize};

/// Where the crowd walks (`T` cycles, `--scene`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CrowdScene {
    /// Evenly on a circle, each to its antipode (RVO2's Circle).
    #[default]
    Circle,
    /// A wall across the arena with one gap; two groups swap sides.
    Doorway,
    /// Two streams at right angles; each walker goes back to its start on arrival.
    Crossing,
}

impl CrowdScene {
    pub const ALL: [CrowdScene; 3] = [
        CrowdScene::Circle,
        CrowdScene::Doorway,
        CrowdScene::Crossing,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CrowdScene::Circle => "circle",
            CrowdScene::Doorway => "doorway",
            CrowdScene::Crossing => "crossing",
        }
    }

    pub fn from_name(s: &str) -> Option<CrowdScene> {
        CrowdScene::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The next in `T`'s cycle.
    pub fn next(self) -> CrowdScene {
        let i = CrowdScene::ALL.iter().position(|&c| c == self).unwrap_or(0);
        CrowdScene::ALL[(i + 1) % CrowdScene::ALL.len()]
    }
}

/// How a walker keeps clear of the others (`V` cycles, `--avoid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Avoidance {
    /// Push apart from everyone within a radius.
    Separation,
    /// Reynolds' unaligned collision avoidance: steer from the most imminent nearest approach.
    Predictive,
    /// Optimal reciprocal collision avoidance (van den Berg et al. 2011).
    #[default]
    Orca,
}

impl Avoidance {
    pub const ALL: [Avoidance; 3] = [
        Avoidance::Separation,
        Avoidance::Predictive,
        Avoidance::Orca,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Avoidance::Separation => "separation",
            Avoidance::Predictive => "predictive",
            Avoidance::Orca => "orca",
        }
    }

    pub fn from_name(s: &str) -> Option<Avoidance> {
        Avoidance::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The next in `V`'s cycle.
    pub fn next(self) -> Avoidance {
        let i = Avoidance::ALL.iter().position(|&c| c == self).unwrap_or(0);
        Avoidance::ALL[(i + 1) % Avoidance::ALL.len()]
    }
}

/// The crowd's numbers. Lengths are pixels, speeds pixels per second, times seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WalkerParams {
    /// A walker's body.
    pub radius: f32,
    /// The speed a walker wants to walk at (RVO2's Circle: half the maximum).
    pub preferred_speed: f32,
    pub max_speed: f32,
    /// The largest steering force of the separation and predictive walkers (ORCA's walkers take
    /// the velocity they choose at once, as RVO2's agents do).
    pub max_force: f32,
    /// Who a walker looks at: everyone within this distance, the nearest `max_neighbours`.
    pub neighbour_radius: f32,
    pub max_neighbours: u32,
    /// ORCA's time horizon for other walkers and for obstacles and walls.
    pub time_horizon: f32,
    pub obstacle_horizon: f32,
    /// How much larger than the bodies' sum ORCA plans the gap between two walkers (px): a
    /// velocity on a half-plane's very edge grazes, and float rounding turns a graze into touch.
    pub margin: f32,
    /// Separation: the push's reach in body radii and its weight (a share of the preferred speed
    /// at contact).
    pub separation_reach: f32,
    pub separation_weight: f32,
    /// Predictive: how far ahead a nearest approach is heeded, and the sidestep's weight.
    pub predict_horizon: f32,
    pub predict_weight: f32,
    /// The preferred velocity is turned this much to the walker's right: symmetric starts (the
    /// circle) do not lock head-on, and streams fall into lanes.
    pub keep_right_deg: f32,
}

impl Default for WalkerParams {
    fn default() -> Self {
        WalkerParams {
            radius: 2.5,
            preferred_speed: 40.0,
            max_speed: 80.0,
            max_force: 400.0,
            neighbour_radius: 30.0,
            max_neighbours: 10,
            time_horizon: 1.0,
            obstacle_horizon: 0.5,
            margin: 0.5,
            separation_reach: 4.0,
            separation_weight: 2.0,
            predict_horizon: 2.0,
            predict_weight: 1.5,
            keep_right_deg: 10.0,
        }
    }
}

/// One tunable number of the `crowd` section: its path, label and range (for validation and the
/// tuning panel), and how to read and write it.
pub struct WalkerSlider {
    pub path: &'static str,
    pub label: &'static str,
    pub min: f32,
    pub max: f32,
    pub get: fn(&WalkerParams) -> f32,
    pub set: fn(&mut WalkerParams, f32),
}

/// Every number of the `crowd` section.
pub const WALKER_SLIDERS: &[WalkerSlider] = &[
    WalkerSlider {
        path: "crowd.radius",
        label: "walker radius",
        min: 1.0,
        max: 20.0,
        get: |t| t.radius,
        set: |t, v| t.radius = v,
    },
    WalkerSlider {
        path: "crowd.preferred_speed",
        label: "preferred speed",
        min: 1.0,
        max: 600.0,
        get: |t| t.preferred_speed,
        set: |t, v| t.preferred_speed = v,
    },
    WalkerSlider {
        path: "crowd.max_speed",
        label: "walker max speed",
        min: 1.0,
        max: 600.0,
        get: |t| t.max_speed,
        set: |t, v| t.max_speed = v,
    },
    WalkerSlider {
        path: "crowd.max_force",
        label: "walker max force",
        min: 10.0,
        max: 5000.0,
        get: |t| t.max_force,
        set: |t, v| t.max_force = v,
    },
    WalkerSlider {
        path: "crowd.neighbour_radius",
        label: "neighbour radius",
        min: 1.0,
        max: 300.0,
        get: |t| t.neighbour_radius,
        set: |t, v| t.neighbour_radius = v,
    },
    WalkerSlider {
        path: "crowd.max_neighbours",
        label: "most neighbours heeded",
        min: 1.0,
        max: 32.0,
        get: |t| t.max_neighbours as f32,
        set: |t, v| t.max_neighbours = v.round() as u32,
    },
    WalkerSlider {
        path: "crowd.time_horizon",
        label: "ORCA time horizon (s)",
        min: 0.05,
        max: 10.0,
        get: |t| t.time_horizon,
        set: |t, v| t.time_horizon = v,
    },
    WalkerSlider {
        path: "crowd.obstacle_horizon",
        label: "ORCA obstacle horizon (s)",
        min: 0.05,
        max: 10.0,
        get: |t| t.obstacle_horizon,
        set: |t, v| t.obstacle_horizon = v,
    },
    WalkerSlider {
        path: "crowd.margin",
        label: "ORCA margin (px)",
        min: 0.0,
        max: 10.0,
        get: |t| t.margin,
        set: |t, v| t.margin = v,
    },
    WalkerSlider {
        path: "crowd.separation_reach",
        label: "separation reach (radii)",
        min: 2.0,
        max: 20.0,
        get: |t| t.separation_reach,
        set: |t, v| t.separation_reach = v,
    },
    WalkerSlider {
        path: "crowd.separation_weight",
        label: "separation weight",
        min: 0.0,
        max: 10.0,
        get: |t| t.separation_weight,
        set: |t, v| t.separation_weight = v,
    },
    WalkerSlider {
        path: "crowd.predict_horizon",
        label: "nearest-approach horizon (s)",
        min: 0.05,
        max: 10.0,
        get: |t| t.predict_horizon,
        set: |t, v| t.predict_horizon = v,
    },
    WalkerSlider {
        path: "crowd.predict_weight",
        label: "sidestep weight",
        min: 0.0,
        max: 10.0,
        get: |t| t.predict_weight,
        set: |t, v| t.predict_weight = v,
    },
    WalkerSlider {
        path: "crowd.keep_right_deg",
        label: "keep right (deg)",
        min: 0.0,
        max: 45.0,
        get: |t| t.keep_right_deg,
        set: |t, v| t.keep_right_deg = v,
    },
];
