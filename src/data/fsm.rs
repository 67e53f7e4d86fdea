//! `fsm.json`: the guards' finite state machine (Bourg & Seemann ch. 9) as data — its states and
//! the behaviour each runs, the initial state, the transitions with their conditions, and the
//! guards' waypoint routes (ch. 6) — plus the `fsm` tuning section.
//!
//! Names are kept as text here and resolved when the file is validated, so every mistake (a
//! transition to a state that does not exist, a condition outside the closed set) is reported
//! with its field path; `sim::fsm::Machine` compiles the checked data into index tables.

use super::{DataError, FieldError, Source, check_range};
use serde::{Deserialize, Serialize};

pub const FILE_NAME: &str = "fsm.json";
pub const BUILT_IN: &str = include_str!("../../assets/fsm.json");

/// Most states a machine may hold (the corner diagram draws every one).
pub const MAX_STATES: usize = 16;
/// Most transitions, routes, and points in one route.
pub const MAX_TRANSITIONS: usize = 256;
pub const MAX_ROUTES: usize = 64;
pub const MAX_POINTS: usize = 256;
/// Longest `lost_player_for` wait (s).
pub const MAX_SECONDS: f32 = 3600.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FsmData {
    /// The state every guard starts in.
    pub initial: String,
    pub states: Vec<StateData>,
    /// Tried in file order among those leaving the guard's state: the first whose condition
    /// holds fires, so a state's more urgent exits come first.
    pub transitions: Vec<TransitionData>,
    /// Guard `i` walks route `i % routes.len()`.
    pub routes: Vec<RouteData>,
}

/// A state: its name (used by transitions, the record and the summary) and the behaviour a guard
/// runs while in it. The behaviour may be left out when the name is one of the behaviours'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateData {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<String>,
}

/// `{"from": "chase", "to": "search", "if": "lost_player_for", "seconds": 1.5}`: the condition is
/// a name from [`CONDITIONS`]; `seconds` belongs to `lost_player_for` alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransitionData {
    pub from: String,
    pub to: String,
    #[serde(rename = "if")]
    pub condition: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f32>,
}

/// A guard's waypoint route: points walked in order, round and round (`loop`) or to the end and
/// back (`back_and_forth`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteData {
    pub points: Vec<[f32; 2]>,
    pub mode: RouteMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteMode {
    Loop,
    BackAndForth,
}

/// What a guard does while in a state: the closed set of behaviours a state can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GuardBehaviour {
    /// Walk the route.
    Patrol,
    /// Intercept the player (mode 4's pursuit).
    Chase,
    /// Go to the spot the player was last seen at and look round.
    Search,
    /// Evade the player by prediction (mode 5's).
    Flee,
    /// Go back to the nearest point of the route (by A*).
    Return,
}

impl GuardBehaviour {
    pub const ALL: [GuardBehaviour; 5] = [
        GuardBehaviour::Patrol,
        GuardBehaviour::Chase,
        GuardBehaviour::Search,
        GuardBehaviour::Flee,
        GuardBehaviour::Return,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GuardBehaviour::Patrol => "patrol",
            GuardBehaviour::Chase => "chase",
            GuardBehaviour::Search => "search",
            GuardBehaviour::Flee => "flee",
            GuardBehaviour::Return => "return",
        }
    }

    pub fn named(name: &str) -> Option<GuardBehaviour> {
        GuardBehaviour::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// When a transition fires: the closed set of conditions, with their parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Condition {
    /// The guard's last look (vision cone with a clear line of sight, or hearing) found the player.
    SeesPlayer,
    /// The guard has seen the player before, does not now, and its last sighting is at least
    /// this many seconds old.
    LostPlayerFor { seconds: f32 },
    /// The guard has been in a `search` state for `fsm.search_seconds`.
    SearchDone,
    /// The player holds a power-up.
    Powered,
    /// The player holds no power-up.
    PowerEnded,
    /// The guard stands on its route (within `fsm.route_reach` of it).
    AtRoute,
}

/// The condition names a transition's `if` may hold, in the order error messages list them.
pub const CONDITIONS: [&str; 6] = [
    "sees_player",
    "lost_player_for",
    "search_done",
    "powered",
    "power_ended",
    "at_route",
];

impl Condition {
    pub fn name(&self) -> &'static str {
        match self {
            Condition::SeesPlayer => "sees_player",
            Condition::LostPlayerFor { .. } => "lost_player_for",
            Condition::SearchDone => "search_done",
            Condition::Powered => "powered",
            Condition::PowerEnded => "power_ended",
            Condition::AtRoute => "at_route",
        }
    }
}

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

/// Parse and validate `fsm.json` text.
pub fn parse(text: &str) -> Result<FsmData, String> {
    let data: FsmData = super::from_json(text)?;
    data.validate().map_err(|e| e.to_string())?;
    Ok(data)
}

/// Read and parse a machine file, errors carrying the source's name.
pub fn load(source: &Source) -> Result<FsmData, DataError> {
    let text = source.read(BUILT_IN)?;
    parse(&text).map_err(|message| DataError {
        file: source.label(),
        message,
    })
}

/// The built-in machine; always valid (a test checks it).
pub fn built_in() -> FsmData {
    parse(BUILT_IN).expect("built-in fsm.json is valid")
}

/// Pretty JSON, for tests and for writing a machine out.
pub fn to_json(data: &FsmData) -> String {
    serde_json::to_string_pretty(data).expect("machine data always serializes")
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
