//! The `fsm` section of the tuning file: what guards perceive, how long they search, the
//! pickups' power-up, and the range of each number.

use crate::data::{FieldError, check_range};
use serde::{Deserialize, Serialize};

/// The `fsm` tuning section: what guards perceive, how long they search, and the pickups'
/// power-up.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FsmTuning {
    /// How far a guard sees (px, eye to the player's centre).
    pub vision_range: f32,
    /// Half the vision cone's opening, either side of the heading (degrees).
    pub vision_half_angle_deg: f32,
    /// Looks per second per guard; guards take turns, so a crowd's looks spread over the ticks.
    /// A player who comes into view is seen within `1 / perception_hz` s.
    pub perception_hz: f32,
    /// A player moving at `hearing_min_speed` or faster within this distance is heard through
    /// obstacles (px; 0: guards are deaf).
    pub hearing_radius: f32,
    /// Slowest speed that is heard (px/s).
    pub hearing_min_speed: f32,
    /// How long a guard searches the last seen spot (s).
    pub search_seconds: f32,
    /// How long a pickup powers the player (s).
    pub power_seconds: f32,
    /// How long a taken pickup stays away (s).
    pub pickup_respawn_s: f32,
    /// Centre distance within which the player takes a pickup (px).
    pub pickup_radius: f32,
    /// Centre distance within which a powered player tags a guard (px).
    pub tag_radius: f32,
    /// Distance from its route within which a guard counts as on it, and from a waypoint within
    /// which it turns to the next (px).
    pub route_reach: f32,
}

impl Default for FsmTuning {
    fn default() -> Self {
        FsmTuning {
            vision_range: 260.0,
            vision_half_angle_deg: 40.0,
            perception_hz: 10.0,
            hearing_radius: 80.0,
            hearing_min_speed: 150.0,
            search_seconds: 4.0,
            power_seconds: 8.0,
            pickup_respawn_s: 15.0,
            pickup_radius: 16.0,
            tag_radius: 22.0,
            route_reach: 12.0,
        }
    }
}

/// One tunable number of the `fsm` section: its path, label and range (for validation and the
/// tuning panel), and how to read and write it.
pub struct FsmSlider {
    pub path: &'static str,
    pub label: &'static str,
    pub min: f32,
    pub max: f32,
    pub get: fn(&FsmTuning) -> f32,
    pub set: fn(&mut FsmTuning, f32),
}

/// Every number of the `fsm` section.
pub const FSM_SLIDERS: &[FsmSlider] = &[
    FsmSlider {
        path: "fsm.vision_range",
        label: "vision range (px)",
        min: 10.0,
        max: 2000.0,
        get: |t| t.vision_range,
        set: |t, v| t.vision_range = v,
    },
    FsmSlider {
        path: "fsm.vision_half_angle_deg",
        label: "vision half-angle (deg)",
        min: 1.0,
        max: 180.0,
        get: |t| t.vision_half_angle_deg,
        set: |t, v| t.vision_half_angle_deg = v,
    },
    FsmSlider {
        path: "fsm.perception_hz",
        label: "looks per second",
        min: 0.5,
        max: 60.0,
        get: |t| t.perception_hz,
        set: |t, v| t.perception_hz = v,
    },
    FsmSlider {
        path: "fsm.hearing_radius",
        label: "hearing radius (px; 0: deaf)",
        min: 0.0,
        max: 1000.0,
        get: |t| t.hearing_radius,
        set: |t, v| t.hearing_radius = v,
    },
    FsmSlider {
        path: "fsm.hearing_min_speed",
        label: "heard above (px/s)",
        min: 0.0,
        max: 1000.0,
        get: |t| t.hearing_min_speed,
        set: |t, v| t.hearing_min_speed = v,
    },
    FsmSlider {
        path: "fsm.search_seconds",
        label: "search time (s)",
        min: 0.0,
        max: 60.0,
        get: |t| t.search_seconds,
        set: |t, v| t.search_seconds = v,
    },
    FsmSlider {
        path: "fsm.power_seconds",
        label: "power-up time (s)",
        min: 0.5,
        max: 120.0,
        get: |t| t.power_seconds,
        set: |t, v| t.power_seconds = v,
    },
    FsmSlider {
        path: "fsm.pickup_respawn_s",
        label: "pickup respawn (s)",
        min: 0.0,
        max: 600.0,
        get: |t| t.pickup_respawn_s,
        set: |t, v| t.pickup_respawn_s = v,
    },
    FsmSlider {
        path: "fsm.pickup_radius",
        label: "pickup radius (px)",
        min: 1.0,
        max: 100.0,
        get: |t| t.pickup_radius,
        set: |t, v| t.pickup_radius = v,
    },
    FsmSlider {
        path: "fsm.tag_radius",
        label: "tag radius (px)",
        min: 1.0,
        max: 200.0,
        get: |t| t.tag_radius,
        set: |t, v| t.tag_radius = v,
    },
    FsmSlider {
        path: "fsm.route_reach",
        label: "route reach (px)",
        min: 1.0,
        max: 100.0,
        get: |t| t.route_reach,
        set: |t, v| t.route_reach = v,
    },
];

impl FsmTuning {
    /// Every value inside its slider's range.
    pub fn validate(&self) -> Result<(), FieldError> {
        for s in FSM_SLIDERS {
            check_range(s.path, (s.get)(self), s.min, s.max)?;
        }
        Ok(())
    }
}
