//! The machine file's shape: states, transitions, routes as read (names kept as text), the
//! closed sets of guard behaviours and conditions they resolve to, and the file's size limits.

use serde::{Deserialize, Serialize};

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
