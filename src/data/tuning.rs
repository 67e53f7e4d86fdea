//! `tuning.json`: every behaviour's tunable numbers, and the slider table that exposes them.
//!
//! Sections default individually, so a file that leaves some out still loads. The slider table is
//! the single description of each parameter's name and range: the tuning panel draws it, and
//! validation uses the same ranges.

use super::classics::{FORMATION_SLIDERS, FormationParams, HIDE_SLIDERS, HideParams};
use super::classics::{PATHWAY_SLIDERS, PathwayParams};
use super::fsm::{FSM_SLIDERS, FsmTuning};
use super::walkers::{WALKER_SLIDERS, WalkerParams};
use super::{FieldError, check_range};
use crate::data::crowds::{FlockParams, Neighbourhood, SwarmParams};
use serde::{Deserialize, Serialize};

pub const FILE_NAME: &str = "tuning.json";
pub const BUILT_IN: &str = include_str!("../../assets/tuning.json");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tuning {
    pub player: PlayerTuning,
    /// Shared by line-of-sight chase and intercept (and their reversals) so they compare fairly.
    pub chaser: VehicleTuning,
    /// The tile chasers (modes 1 and 2).
    #[serde(default = "defaults::tile")]
    pub tile: TileTuning,
    #[serde(default = "defaults::intercept")]
    pub intercept: InterceptTuning,
    /// The evaders' vehicle (mode 5).
    #[serde(default = "defaults::evader")]
    pub evader: VehicleTuning,
    #[serde(default = "defaults::evade")]
    pub evade: EvadeTuning,
    /// The vehicle of the wanderers (mode 6) and of the agents among obstacles (mode 7).
    #[serde(default = "defaults::wanderer")]
    pub wanderer: VehicleTuning,
    #[serde(default = "defaults::wander")]
    pub wander: WanderTuning,
    #[serde(default = "defaults::avoid")]
    pub avoid: AvoidTuning,
    /// The physics of mode 9's pattern walkers.
    #[serde(default = "defaults::pattern")]
    pub pattern: PatternTuning,
    /// The guards of the `fsm` mode: perception, search, pickups.
    #[serde(default)]
    pub fsm: FsmTuning,
    /// The vehicle of the flock's boids and the swarm's members (Shift+1, Shift+2).
    #[serde(default = "defaults::boid")]
    pub boid: VehicleTuning,
    /// The flock's weights, radii and view (Shift+1).
    #[serde(default = "defaults::flock")]
    pub flock: FlockParams,
    /// The swarm's Lennard-Jones numbers (Shift+2).
    #[serde(default = "defaults::swarm")]
    pub swarm: SwarmParams,
    /// The hiders' spots and the bodyguards (Shift+6).
    #[serde(default)]
    pub hide: HideParams,
    /// The crowd's walkers and how they avoid one another (Shift+5).
    #[serde(default)]
    pub crowd: WalkerParams,
    /// The vehicle of a formation's members (Shift+7): faster than the leader, so the slots on
    /// the outside of a turn can keep up.
    #[serde(default = "defaults::member")]
    pub member: VehicleTuning,
    /// The formation's slots and anchor (Shift+7).
    #[serde(default)]
    pub formation: FormationParams,
    /// The vehicle of a pathway's pedestrians (Shift+8).
    #[serde(default = "defaults::pedestrian")]
    pub pedestrian: VehicleTuning,
    /// How pedestrians follow a pathway and keep apart (Shift+8).
    #[serde(default)]
    pub pathway: PathwayParams,
}

/// Missing sections (a hand-written file may name only the ones it changes) take the built-in
/// values.
mod defaults {
    use super::*;
    use std::sync::OnceLock;

    fn built_in() -> &'static Tuning {
        static BUILT: OnceLock<Tuning> = OnceLock::new();
        // The built-in file names every section, so parsing it never calls these defaults.
        BUILT.get_or_init(|| parse(BUILT_IN).expect("built-in tuning.json is valid"))
    }

    pub fn tile() -> TileTuning {
        built_in().tile
    }
    pub fn intercept() -> InterceptTuning {
        built_in().intercept
    }
    pub fn evader() -> VehicleTuning {
        built_in().evader
    }
    pub fn evade() -> EvadeTuning {
        built_in().evade
    }
    pub fn wanderer() -> VehicleTuning {
        built_in().wanderer
    }
    pub fn wander() -> WanderTuning {
        built_in().wander
    }
    pub fn avoid() -> AvoidTuning {
        built_in().avoid
    }
    pub fn sense_hz() -> f32 {
        built_in().avoid.sense_hz
    }
    pub fn unstick_after_s() -> f32 {
        built_in().avoid.unstick_after_s
    }
    pub fn separation() -> f32 {
        built_in().avoid.separation
    }
    pub fn separation_range() -> f32 {
        built_in().avoid.separation_range
    }
    pub fn pattern() -> PatternTuning {
        built_in().pattern
    }
    pub fn boid() -> VehicleTuning {
        built_in().boid
    }
    pub fn flock() -> FlockParams {
        built_in().flock
    }
    pub fn swarm() -> SwarmParams {
        built_in().swarm
    }
    pub fn member() -> VehicleTuning {
        built_in().member
    }
    pub fn pedestrian() -> VehicleTuning {
        built_in().pedestrian
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileTuning {
    /// Tile steps per second. The default, 5, moves 160 px/s orthogonally: the continuous
    /// chaser's speed, so tile and continuous chasers compare fairly.
    pub steps_per_second: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterceptTuning {
    /// Cap on the time to close `Tc`, in seconds: how far ahead the predator aims.
    pub max_prediction_time: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvadeTuning {
    /// Evaders flee when the player is closer than this (px); otherwise they wander.
    pub threat_radius: f32,
    /// Cap on how far ahead (s) an evader predicts the player's position.
    pub max_prediction_time: f32,
    /// Length of the central feeler at full speed (px); whiskers are 60% of it.
    pub feeler_length: f32,
    /// Within this distance of a wall, an evader stops fleeing into it and slides along it (px).
    pub wall_margin: f32,
    /// Reynolds' wander while unthreatened: circle radius and distance ahead (px), jitter (px/s).
    pub wander_radius: f32,
    pub wander_distance: f32,
    pub wander_jitter: f32,
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

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WanderTuning {
    /// Radius of the wander circle (px).
    pub radius: f32,
    /// How far ahead of the agent the circle's centre sits (px).
    pub distance: f32,
    /// Random displacement of the target, px per √s (see `behaviours::wander`).
    pub jitter: f32,
    /// Waypoint variant: seconds before the target jumps to a new spot.
    pub waypoint_seconds: f32,
    /// Waypoint variant: how far the wander circle swings the course (0 = straight at it).
    pub wobble: f32,
}

/// Which rays an agent casts: a tuning choice, not a subclass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// The central ray only.
    Single,
    /// The central ray and two shorter whiskers at ± an angle.
    Whiskers,
    /// The central ray and two parallel rays from the body's left and right edges.
    Parallel,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvoidTuning {
    /// Ray layout: `single`, `whiskers` or `parallel`.
    pub rays: Layout,
    /// Length the central ray gains at full speed (px): `min_length + look_ahead · speed / max`.
    pub look_ahead: f32,
    /// Central ray length at rest (px; never shorter than the body radius).
    pub min_length: f32,
    /// Whisker (or parallel side ray) length (px).
    pub whisker_length: f32,
    /// Whisker angle either side of the heading (degrees).
    pub whisker_angle_deg: f32,
    /// How hard a hit turns the course, per unit of ray depth.
    pub strength: f32,
    /// Ray casts per second per agent (Buckland's regulator). Between casts an agent acts on what
    /// it last felt; agents take turns, so a crowd's sensing is spread over the ticks. At the
    /// tick rate (60) every agent casts every tick.
    #[serde(default = "defaults::sense_hz")]
    pub sense_hz: f32,
    /// Seconds within two body diameters of one spot after which an agent (modes 5–7) counts as
    /// stuck and takes a way out of the pocket it is in; 0: never.
    #[serde(default = "defaults::unstick_after_s")]
    pub unstick_after_s: f32,
    /// Mode 7's chasers (`T`): how hard each is pushed away from the others within
    /// `separation_range` (Reynolds' separation), against the pull of 1 toward the player; 0: not
    /// at all.
    #[serde(default = "defaults::separation")]
    pub separation: f32,
    /// Centre-to-centre distance within which mode 7's chasers push one another apart (px).
    #[serde(default = "defaults::separation_range")]
    pub separation_range: f32,
}

/// The book's physically simulated pattern vehicle: thrust pushes it up to its top speed, drag
/// slows it when the thrust is off, and the rudder turns it at up to `turn_rate_deg`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternTuning {
    /// Top speed under thrust (px/s).
    pub max_speed: f32,
    /// Acceleration while thrusting (px/s²).
    pub thrust: f32,
    /// Speed lost per second without thrust (fraction per second: v' = −drag·v).
    pub drag: f32,
    /// Fastest turn (degrees per second), eased off near an instruction's limit.
    pub turn_rate_deg: f32,
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

/// A set of sliders that modes show together in the tuning panel: each mode names the sections
/// its agents use, and the panel shows their sliders in [`SLIDERS`]' order. The free-for-all
/// (mode 0) runs every ground behaviour in its first form, so it names every section of those
/// behaviours but the waypoint wander's (only `V` in mode 6 makes waypoint wanderers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The player's vehicle: every mode has a player.
    Player,
    /// The continuous chasers' top speed and force (the guards' too).
    ChaserSteering,
    ChaserMass,
    /// The chasers' body, which the tile chasers share.
    ChaserRadius,
    /// The tile agents' step rate.
    TileSteps,
    /// Intercept's look-ahead cap.
    Prediction,
    /// The evaders' vehicle.
    Evader,
    /// When an evader (or a powered-down guard) feels threatened, and how far ahead it predicts.
    Threat,
    /// The evaders' feelers, wall margin and unthreatened wander.
    EvadeCourse,
    /// The wanderers' vehicle.
    Wanderer,
    /// Reynolds' wander circle.
    WanderCircle,
    /// The waypoint wander's timing and wobble.
    Waypoints,
    /// The avoidance rays.
    Rays,
    /// How often the rays are cast.
    SenseRate,
    /// When a pocketed agent counts as stuck.
    Unstick,
    /// How chasers keep apart.
    Separation,
    /// The pattern walkers' physics.
    Pattern,
    /// The guards' perception, search and pickups.
    Fsm,
    /// The flock's and the swarm's vehicle.
    Boid,
    Flock,
    Swarm,
    /// The hiders' spots and the bodyguards (Shift+6).
    Hide,
    /// The crowd's walkers (Shift+5).
    Crowd,
    /// A formation's members, slots and anchor (Shift+7).
    Formation,
    /// A pathway's pedestrians and how they follow it (Shift+8).
    Pathway,
}

/// One tunable number: its field path, the label the panel shows, the allowed range, and how to
/// read and write it. Validation and the panel share this table.
pub struct Slider {
    pub path: &'static str,
    pub label: &'static str,
    pub min: f32,
    pub max: f32,
    /// Which of the panel's sections it belongs to: a mode's panel shows the sections that mode
    /// names (see `Mode::sections`).
    pub section: Section,
    pub get: fn(&Tuning) -> f32,
    pub set: fn(&mut Tuning, f32),
}

/// The `fsm` section's slider `i` of [`FSM_SLIDERS`] (its own table, which the machine's tests
/// use) as a row of this table, shown in the `fsm` mode.
macro_rules! fsm_slider {
    ($i:literal) => {
        Slider {
            path: FSM_SLIDERS[$i].path,
            label: FSM_SLIDERS[$i].label,
            min: FSM_SLIDERS[$i].min,
            max: FSM_SLIDERS[$i].max,
            section: Section::Fsm,
            get: |t| (FSM_SLIDERS[$i].get)(&t.fsm),
            set: |t, v| (FSM_SLIDERS[$i].set)(&mut t.fsm, v),
        }
    };
}

/// Row `$i` of a section's own slider table (`$table`, over the tuning's `$field`) as a row of
/// this table, in `$section`.
macro_rules! section_slider {
    ($table:ident, $field:ident, $section:expr, $i:literal) => {
        Slider {
            path: $table[$i].path,
            label: $table[$i].label,
            min: $table[$i].min,
            max: $table[$i].max,
            section: $section,
            get: |t| ($table[$i].get)(&t.$field),
            set: |t, v| ($table[$i].set)(&mut t.$field, v),
        }
    };
}

/// Every tunable number.
pub const SLIDERS: &[Slider] = &[
    Slider {
        path: "player.max_speed",
        label: "player max speed",
        min: 20.0,
        max: 600.0,
        section: Section::Player,
        get: |t| t.player.max_speed,
        set: |t, v| t.player.max_speed = v,
    },
    Slider {
        path: "player.acceleration",
        label: "player acceleration",
        min: 50.0,
        max: 5000.0,
        section: Section::Player,
        get: |t| t.player.acceleration,
        set: |t, v| t.player.acceleration = v,
    },
    Slider {
        path: "player.radius",
        label: "player radius",
        min: 4.0,
        max: 40.0,
        section: Section::Player,
        get: |t| t.player.radius,
        set: |t, v| t.player.radius = v,
    },
    Slider {
        path: "chaser.max_speed",
        label: "chaser max speed",
        min: 10.0,
        max: 600.0,
        section: Section::ChaserSteering,
        get: |t| t.chaser.max_speed,
        set: |t, v| t.chaser.max_speed = v,
    },
    Slider {
        path: "chaser.max_force",
        label: "chaser max force",
        min: 10.0,
        max: 5000.0,
        section: Section::ChaserSteering,
        get: |t| t.chaser.max_force,
        set: |t, v| t.chaser.max_force = v,
    },
    Slider {
        path: "chaser.mass",
        label: "chaser mass",
        min: 0.1,
        max: 20.0,
        section: Section::ChaserMass,
        get: |t| t.chaser.mass,
        set: |t, v| t.chaser.mass = v,
    },
    Slider {
        path: "chaser.radius",
        label: "chaser radius",
        min: 4.0,
        max: 40.0,
        section: Section::ChaserRadius,
        get: |t| t.chaser.radius,
        set: |t, v| t.chaser.radius = v,
    },
    Slider {
        path: "tile.steps_per_second",
        label: "tile steps per second",
        min: 0.5,
        max: 20.0,
        section: Section::TileSteps,
        get: |t| t.tile.steps_per_second,
        set: |t, v| t.tile.steps_per_second = v,
    },
    Slider {
        path: "intercept.max_prediction_time",
        label: "max prediction time (s)",
        min: 0.0,
        max: 10.0,
        section: Section::Prediction,
        get: |t| t.intercept.max_prediction_time,
        set: |t, v| t.intercept.max_prediction_time = v,
    },
    Slider {
        path: "evader.max_speed",
        label: "evader max speed",
        min: 10.0,
        max: 600.0,
        section: Section::Evader,
        get: |t| t.evader.max_speed,
        set: |t, v| t.evader.max_speed = v,
    },
    Slider {
        path: "evader.max_force",
        label: "evader max force",
        min: 10.0,
        max: 5000.0,
        section: Section::Evader,
        get: |t| t.evader.max_force,
        set: |t, v| t.evader.max_force = v,
    },
    Slider {
        path: "evader.mass",
        label: "evader mass",
        min: 0.1,
        max: 20.0,
        section: Section::Evader,
        get: |t| t.evader.mass,
        set: |t, v| t.evader.mass = v,
    },
    Slider {
        path: "evader.radius",
        label: "evader radius",
        min: 4.0,
        max: 20.0,
        section: Section::Evader,
        get: |t| t.evader.radius,
        set: |t, v| t.evader.radius = v,
    },
    Slider {
        path: "evade.threat_radius",
        label: "threat radius",
        min: 20.0,
        max: 1000.0,
        section: Section::Threat,
        get: |t| t.evade.threat_radius,
        set: |t, v| t.evade.threat_radius = v,
    },
    Slider {
        path: "evade.max_prediction_time",
        label: "evade prediction (s)",
        min: 0.0,
        max: 10.0,
        section: Section::Threat,
        get: |t| t.evade.max_prediction_time,
        set: |t, v| t.evade.max_prediction_time = v,
    },
    Slider {
        path: "evade.feeler_length",
        label: "feeler length",
        min: 5.0,
        max: 300.0,
        section: Section::EvadeCourse,
        get: |t| t.evade.feeler_length,
        set: |t, v| t.evade.feeler_length = v,
    },
    Slider {
        path: "evade.wall_margin",
        label: "wall margin",
        min: 0.0,
        max: 200.0,
        section: Section::EvadeCourse,
        get: |t| t.evade.wall_margin,
        set: |t, v| t.evade.wall_margin = v,
    },
    Slider {
        path: "evade.wander_radius",
        label: "wander radius",
        min: 0.0,
        max: 200.0,
        section: Section::EvadeCourse,
        get: |t| t.evade.wander_radius,
        set: |t, v| t.evade.wander_radius = v,
    },
    Slider {
        path: "evade.wander_distance",
        label: "wander distance",
        min: 0.0,
        max: 300.0,
        section: Section::EvadeCourse,
        get: |t| t.evade.wander_distance,
        set: |t, v| t.evade.wander_distance = v,
    },
    Slider {
        path: "evade.wander_jitter",
        label: "wander jitter",
        min: 0.0,
        max: 2000.0,
        section: Section::EvadeCourse,
        get: |t| t.evade.wander_jitter,
        set: |t, v| t.evade.wander_jitter = v,
    },
    Slider {
        path: "wanderer.max_speed",
        label: "wanderer max speed",
        min: 10.0,
        max: 600.0,
        section: Section::Wanderer,
        get: |t| t.wanderer.max_speed,
        set: |t, v| t.wanderer.max_speed = v,
    },
    Slider {
        path: "wanderer.max_force",
        label: "wanderer max force",
        min: 10.0,
        max: 5000.0,
        section: Section::Wanderer,
        get: |t| t.wanderer.max_force,
        set: |t, v| t.wanderer.max_force = v,
    },
    Slider {
        path: "wanderer.mass",
        label: "wanderer mass",
        min: 0.1,
        max: 20.0,
        section: Section::Wanderer,
        get: |t| t.wanderer.mass,
        set: |t, v| t.wanderer.mass = v,
    },
    Slider {
        path: "wanderer.radius",
        label: "wanderer radius",
        min: 4.0,
        max: 20.0,
        section: Section::Wanderer,
        get: |t| t.wanderer.radius,
        set: |t, v| t.wanderer.radius = v,
    },
    Slider {
        path: "wander.radius",
        label: "wander radius",
        min: 0.0,
        max: 200.0,
        section: Section::WanderCircle,
        get: |t| t.wander.radius,
        set: |t, v| t.wander.radius = v,
    },
    Slider {
        path: "wander.distance",
        label: "wander distance",
        min: 0.0,
        max: 300.0,
        section: Section::WanderCircle,
        get: |t| t.wander.distance,
        set: |t, v| t.wander.distance = v,
    },
    Slider {
        path: "wander.jitter",
        label: "wander jitter (px/sqrt s)",
        min: 0.0,
        max: 500.0,
        section: Section::WanderCircle,
        get: |t| t.wander.jitter,
        set: |t, v| t.wander.jitter = v,
    },
    Slider {
        path: "wander.waypoint_seconds",
        label: "waypoint seconds",
        min: 0.5,
        max: 30.0,
        section: Section::Waypoints,
        get: |t| t.wander.waypoint_seconds,
        set: |t, v| t.wander.waypoint_seconds = v,
    },
    Slider {
        path: "wander.wobble",
        label: "waypoint wobble",
        min: 0.0,
        max: 2.0,
        section: Section::Waypoints,
        get: |t| t.wander.wobble,
        set: |t, v| t.wander.wobble = v,
    },
    Slider {
        path: "avoid.look_ahead",
        label: "ray look-ahead",
        min: 0.0,
        max: 400.0,
        section: Section::Rays,
        get: |t| t.avoid.look_ahead,
        set: |t, v| t.avoid.look_ahead = v,
    },
    Slider {
        path: "avoid.min_length",
        label: "ray min length",
        min: 0.0,
        max: 200.0,
        section: Section::Rays,
        get: |t| t.avoid.min_length,
        set: |t, v| t.avoid.min_length = v,
    },
    Slider {
        path: "avoid.whisker_length",
        label: "whisker length",
        min: 0.0,
        max: 300.0,
        section: Section::Rays,
        get: |t| t.avoid.whisker_length,
        set: |t, v| t.avoid.whisker_length = v,
    },
    Slider {
        path: "avoid.whisker_angle_deg",
        label: "whisker angle (deg)",
        min: 0.0,
        max: 90.0,
        section: Section::Rays,
        get: |t| t.avoid.whisker_angle_deg,
        set: |t, v| t.avoid.whisker_angle_deg = v,
    },
    Slider {
        path: "avoid.strength",
        label: "avoidance strength",
        min: 0.0,
        max: 10.0,
        section: Section::Rays,
        get: |t| t.avoid.strength,
        set: |t, v| t.avoid.strength = v,
    },
    Slider {
        path: "avoid.sense_hz",
        label: "ray casts per second",
        min: 1.0,
        max: 60.0,
        section: Section::SenseRate,
        get: |t| t.avoid.sense_hz,
        set: |t, v| t.avoid.sense_hz = v,
    },
    Slider {
        path: "avoid.unstick_after_s",
        label: "stuck after (s; 0: never)",
        min: 0.0,
        max: 10.0,
        section: Section::Unstick,
        get: |t| t.avoid.unstick_after_s,
        set: |t, v| t.avoid.unstick_after_s = v,
    },
    Slider {
        path: "avoid.separation",
        label: "chasers' separation (T)",
        min: 0.0,
        max: 5.0,
        section: Section::Separation,
        get: |t| t.avoid.separation,
        set: |t, v| t.avoid.separation = v,
    },
    Slider {
        path: "avoid.separation_range",
        label: "separation range (px)",
        min: 0.0,
        max: 200.0,
        section: Section::Separation,
        get: |t| t.avoid.separation_range,
        set: |t, v| t.avoid.separation_range = v,
    },
    Slider {
        path: "pattern.max_speed",
        label: "pattern top speed",
        min: 10.0,
        max: 600.0,
        section: Section::Pattern,
        get: |t| t.pattern.max_speed,
        set: |t, v| t.pattern.max_speed = v,
    },
    Slider {
        path: "pattern.thrust",
        label: "pattern thrust",
        min: 10.0,
        max: 5000.0,
        section: Section::Pattern,
        get: |t| t.pattern.thrust,
        set: |t, v| t.pattern.thrust = v,
    },
    Slider {
        path: "pattern.drag",
        label: "pattern drag (1/s)",
        min: 0.0,
        max: 20.0,
        section: Section::Pattern,
        get: |t| t.pattern.drag,
        set: |t, v| t.pattern.drag = v,
    },
    Slider {
        path: "pattern.turn_rate_deg",
        label: "pattern turn rate (deg/s)",
        min: 10.0,
        max: 1440.0,
        section: Section::Pattern,
        get: |t| t.pattern.turn_rate_deg,
        set: |t, v| t.pattern.turn_rate_deg = v,
    },
    Slider {
        path: "pattern.radius",
        label: "pattern radius",
        min: 4.0,
        max: 40.0,
        section: Section::Pattern,
        get: |t| t.pattern.radius,
        set: |t, v| t.pattern.radius = v,
    },
    fsm_slider!(0),
    fsm_slider!(1),
    fsm_slider!(2),
    fsm_slider!(3),
    fsm_slider!(4),
    fsm_slider!(5),
    fsm_slider!(6),
    fsm_slider!(7),
    fsm_slider!(8),
    fsm_slider!(9),
    fsm_slider!(10),
    Slider {
        path: "boid.max_speed",
        label: "boid max speed",
        min: 10.0,
        max: 600.0,
        section: Section::Boid,
        get: |t| t.boid.max_speed,
        set: |t, v| t.boid.max_speed = v,
    },
    Slider {
        path: "boid.max_force",
        label: "boid max force",
        min: 10.0,
        max: 5000.0,
        section: Section::Boid,
        get: |t| t.boid.max_force,
        set: |t, v| t.boid.max_force = v,
    },
    Slider {
        path: "boid.mass",
        label: "boid mass",
        min: 0.1,
        max: 20.0,
        section: Section::Boid,
        get: |t| t.boid.mass,
        set: |t, v| t.boid.mass = v,
    },
    Slider {
        path: "boid.radius",
        label: "boid radius",
        min: 2.0,
        max: 40.0,
        section: Section::Boid,
        get: |t| t.boid.radius,
        set: |t, v| t.boid.radius = v,
    },
    Slider {
        path: "flock.separation",
        label: "separation weight",
        min: 0.0,
        max: 10.0,
        section: Section::Flock,
        get: |t| t.flock.separation,
        set: |t, v| t.flock.separation = v,
    },
    Slider {
        path: "flock.alignment",
        label: "alignment weight",
        min: 0.0,
        max: 10.0,
        section: Section::Flock,
        get: |t| t.flock.alignment,
        set: |t, v| t.flock.alignment = v,
    },
    Slider {
        path: "flock.cohesion",
        label: "cohesion weight",
        min: 0.0,
        max: 10.0,
        section: Section::Flock,
        get: |t| t.flock.cohesion,
        set: |t, v| t.flock.cohesion = v,
    },
    Slider {
        path: "flock.radius",
        label: "neighbour radius (metric)",
        min: 10.0,
        max: 400.0,
        section: Section::Flock,
        get: |t| t.flock.radius,
        set: |t, v| t.flock.radius = v,
    },
    Slider {
        path: "flock.separation_radius",
        label: "separation radius",
        min: 5.0,
        max: 200.0,
        section: Section::Flock,
        get: |t| t.flock.separation_radius,
        set: |t, v| t.flock.separation_radius = v,
    },
    Slider {
        path: "flock.fov_deg",
        label: "field of view (deg)",
        min: 0.0,
        max: 360.0,
        section: Section::Flock,
        get: |t| t.flock.fov_deg,
        set: |t, v| t.flock.fov_deg = v,
    },
    Slider {
        path: "flock.neighbourhood",
        label: "neighbours: 0 metric, 1 topological",
        min: 0.0,
        max: 1.0,
        section: Section::Flock,
        get: |t| match t.flock.neighbourhood {
            Neighbourhood::Metric => 0.0,
            Neighbourhood::Topological => 1.0,
        },
        set: |t, v| {
            t.flock.neighbourhood = if v >= 0.5 {
                Neighbourhood::Topological
            } else {
                Neighbourhood::Metric
            }
        },
    },
    Slider {
        path: "flock.k",
        label: "topological k (nearest heeded)",
        min: 1.0,
        max: 16.0,
        section: Section::Flock,
        get: |t| t.flock.k as f32,
        set: |t, v| t.flock.k = v.round() as u32,
    },
    Slider {
        path: "flock.reach",
        label: "topological reach",
        min: 10.0,
        max: 1000.0,
        section: Section::Flock,
        get: |t| t.flock.reach,
        set: |t, v| t.flock.reach = v,
    },
    Slider {
        path: "flock.gather",
        label: "gathering weight",
        min: 0.0,
        max: 5.0,
        section: Section::Flock,
        get: |t| t.flock.gather,
        set: |t, v| t.flock.gather = v,
    },
    Slider {
        path: "flock.gather_radius",
        label: "gathering radius",
        min: 50.0,
        max: 2000.0,
        section: Section::Flock,
        get: |t| t.flock.gather_radius,
        set: |t, v| t.flock.gather_radius = v,
    },
    Slider {
        path: "flock.wander",
        label: "wander weight",
        min: 0.0,
        max: 5.0,
        section: Section::Flock,
        get: |t| t.flock.wander,
        set: |t, v| t.flock.wander = v,
    },
    Slider {
        path: "flock.wall",
        label: "wall turn weight",
        min: 0.0,
        max: 5.0,
        section: Section::Flock,
        get: |t| t.flock.wall,
        set: |t, v| t.flock.wall = v,
    },
    Slider {
        path: "flock.wall_margin",
        label: "wall margin",
        min: 0.0,
        max: 400.0,
        section: Section::Flock,
        get: |t| t.flock.wall_margin,
        set: |t, v| t.flock.wall_margin = v,
    },
    Slider {
        path: "flock.wall_look",
        label: "wall look-ahead",
        min: 0.0,
        max: 1000.0,
        section: Section::Flock,
        get: |t| t.flock.wall_look,
        set: |t, v| t.flock.wall_look = v,
    },
    Slider {
        path: "flock.flee",
        label: "flee weight (E)",
        min: 0.0,
        max: 10.0,
        section: Section::Flock,
        get: |t| t.flock.flee,
        set: |t, v| t.flock.flee = v,
    },
    Slider {
        path: "flock.threat_radius",
        label: "threat radius (E)",
        min: 10.0,
        max: 600.0,
        section: Section::Flock,
        get: |t| t.flock.threat_radius,
        set: |t, v| t.flock.threat_radius = v,
    },
    Slider {
        path: "flock.follow",
        label: "follow weight (T)",
        min: 0.0,
        max: 10.0,
        section: Section::Flock,
        get: |t| t.flock.follow,
        set: |t, v| t.flock.follow = v,
    },
    Slider {
        path: "flock.leader_offset",
        label: "offset behind leader (T)",
        min: 0.0,
        max: 300.0,
        section: Section::Flock,
        get: |t| t.flock.leader_offset,
        set: |t, v| t.flock.leader_offset = v,
    },
    Slider {
        path: "flock.leader_slowing",
        label: "arrival radius (T)",
        min: 1.0,
        max: 400.0,
        section: Section::Flock,
        get: |t| t.flock.leader_slowing,
        set: |t, v| t.flock.leader_slowing = v,
    },
    Slider {
        path: "flock.corridor_length",
        label: "leader corridor length (T)",
        min: 0.0,
        max: 600.0,
        section: Section::Flock,
        get: |t| t.flock.corridor_length,
        set: |t, v| t.flock.corridor_length = v,
    },
    Slider {
        path: "flock.corridor_half_width",
        label: "leader corridor half width (T)",
        min: 0.0,
        max: 300.0,
        section: Section::Flock,
        get: |t| t.flock.corridor_half_width,
        set: |t, v| t.flock.corridor_half_width = v,
    },
    Slider {
        path: "swarm.a",
        label: "A (attraction)",
        min: 0.0,
        max: 20000.0,
        section: Section::Swarm,
        get: |t| t.swarm.a,
        set: |t, v| t.swarm.a = v,
    },
    Slider {
        path: "swarm.n",
        label: "n (attraction exponent)",
        min: 0.5,
        max: 8.0,
        section: Section::Swarm,
        get: |t| t.swarm.n,
        set: |t, v| t.swarm.n = v,
    },
    Slider {
        path: "swarm.b",
        label: "B (repulsion)",
        min: 0.0,
        max: 40000.0,
        section: Section::Swarm,
        get: |t| t.swarm.b,
        set: |t, v| t.swarm.b = v,
    },
    Slider {
        path: "swarm.m",
        label: "m (repulsion exponent)",
        min: 0.5,
        max: 12.0,
        section: Section::Swarm,
        get: |t| t.swarm.m,
        set: |t, v| t.swarm.m = v,
    },
    Slider {
        path: "swarm.range",
        label: "range (body lengths)",
        min: 1.0,
        max: 10.0,
        section: Section::Swarm,
        get: |t| t.swarm.range,
        set: |t, v| t.swarm.range = v,
    },
    Slider {
        path: "swarm.player_weight",
        label: "player's weight",
        min: 0.0,
        max: 10.0,
        section: Section::Swarm,
        get: |t| t.swarm.player_weight,
        set: |t, v| t.swarm.player_weight = v,
    },
    Slider {
        path: "swarm.pull",
        label: "pull to player (px/s)",
        min: 0.0,
        max: 400.0,
        section: Section::Swarm,
        get: |t| t.swarm.pull,
        set: |t, v| t.swarm.pull = v,
    },
    Slider {
        path: "swarm.response_s",
        label: "response time (s)",
        min: 0.02,
        max: 5.0,
        section: Section::Swarm,
        get: |t| t.swarm.response_s,
        set: |t, v| t.swarm.response_s = v,
    },
    Slider {
        path: "swarm.obstacle",
        label: "obstacle push weight",
        min: 0.0,
        max: 5.0,
        section: Section::Swarm,
        get: |t| t.swarm.obstacle,
        set: |t, v| t.swarm.obstacle = v,
    },
    Slider {
        path: "swarm.player_a",
        label: "player A (attraction)",
        min: 0.0,
        max: 20000.0,
        section: Section::Swarm,
        get: |t| t.swarm.player_a,
        set: |t, v| t.swarm.player_a = v,
    },
    Slider {
        path: "swarm.player_n",
        label: "player n",
        min: 0.5,
        max: 8.0,
        section: Section::Swarm,
        get: |t| t.swarm.player_n,
        set: |t, v| t.swarm.player_n = v,
    },
    Slider {
        path: "swarm.player_b",
        label: "player B (repulsion)",
        min: 0.0,
        max: 40000.0,
        section: Section::Swarm,
        get: |t| t.swarm.player_b,
        set: |t, v| t.swarm.player_b = v,
    },
    Slider {
        path: "swarm.player_m",
        label: "player m",
        min: 0.5,
        max: 12.0,
        section: Section::Swarm,
        get: |t| t.swarm.player_m,
        set: |t, v| t.swarm.player_m = v,
    },
    Slider {
        path: "swarm.obstacle_a",
        label: "obstacle A (attraction)",
        min: 0.0,
        max: 20000.0,
        section: Section::Swarm,
        get: |t| t.swarm.obstacle_a,
        set: |t, v| t.swarm.obstacle_a = v,
    },
    Slider {
        path: "swarm.obstacle_n",
        label: "obstacle n",
        min: 0.5,
        max: 8.0,
        section: Section::Swarm,
        get: |t| t.swarm.obstacle_n,
        set: |t, v| t.swarm.obstacle_n = v,
    },
    Slider {
        path: "swarm.obstacle_b",
        label: "obstacle B (repulsion)",
        min: 0.0,
        max: 40000.0,
        section: Section::Swarm,
        get: |t| t.swarm.obstacle_b,
        set: |t, v| t.swarm.obstacle_b = v,
    },
    Slider {
        path: "swarm.obstacle_m",
        label: "obstacle m",
        min: 0.5,
        max: 12.0,
        section: Section::Swarm,
        get: |t| t.swarm.obstacle_m,
        set: |t, v| t.swarm.obstacle_m = v,
    },
    section_slider!(HIDE_SLIDERS, hide, Section::Hide, 0),
    section_slider!(HIDE_SLIDERS, hide, Section::Hide, 1),
    section_slider!(HIDE_SLIDERS, hide, Section::Hide, 2),
    section_slider!(HIDE_SLIDERS, hide, Section::Hide, 3),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 0),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 1),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 2),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 3),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 4),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 5),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 6),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 7),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 8),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 9),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 10),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 11),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 12),
    section_slider!(WALKER_SLIDERS, crowd, Section::Crowd, 13),
    Slider {
        path: "member.max_speed",
        label: "member max speed",
        min: 10.0,
        max: 1000.0,
        section: Section::Formation,
        get: |t| t.member.max_speed,
        set: |t, v| t.member.max_speed = v,
    },
    Slider {
        path: "member.max_force",
        label: "member max force",
        min: 10.0,
        max: 10000.0,
        section: Section::Formation,
        get: |t| t.member.max_force,
        set: |t, v| t.member.max_force = v,
    },
    Slider {
        path: "member.mass",
        label: "member mass",
        min: 0.1,
        max: 20.0,
        section: Section::Formation,
        get: |t| t.member.mass,
        set: |t, v| t.member.mass = v,
    },
    Slider {
        path: "member.radius",
        label: "member radius",
        min: 2.0,
        max: 40.0,
        section: Section::Formation,
        get: |t| t.member.radius,
        set: |t, v| t.member.radius = v,
    },
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 0),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 1),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 2),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 3),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 4),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 5),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 6),
    section_slider!(FORMATION_SLIDERS, formation, Section::Formation, 7),
    Slider {
        path: "pedestrian.max_speed",
        label: "pedestrian max speed",
        min: 10.0,
        max: 1000.0,
        section: Section::Pathway,
        get: |t| t.pedestrian.max_speed,
        set: |t, v| t.pedestrian.max_speed = v,
    },
    Slider {
        path: "pedestrian.max_force",
        label: "pedestrian max force",
        min: 10.0,
        max: 10000.0,
        section: Section::Pathway,
        get: |t| t.pedestrian.max_force,
        set: |t, v| t.pedestrian.max_force = v,
    },
    Slider {
        path: "pedestrian.mass",
        label: "pedestrian mass",
        min: 0.1,
        max: 20.0,
        section: Section::Pathway,
        get: |t| t.pedestrian.mass,
        set: |t, v| t.pedestrian.mass = v,
    },
    Slider {
        path: "pedestrian.radius",
        label: "pedestrian radius",
        min: 2.0,
        max: 40.0,
        section: Section::Pathway,
        get: |t| t.pedestrian.radius,
        set: |t, v| t.pedestrian.radius = v,
    },
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 0),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 1),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 2),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 3),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 4),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 5),
    section_slider!(PATHWAY_SLIDERS, pathway, Section::Pathway, 6),
];

impl Tuning {
    /// Every value must lie inside its slider's range.
    pub fn validate(&self) -> Result<(), FieldError> {
        for s in SLIDERS {
            check_range(s.path, (s.get)(self), s.min, s.max)?;
        }
        Ok(())
    }
}
