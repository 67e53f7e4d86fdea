//! `fsm.json`: the guards' finite state machine (Bourg & Seemann ch. 9) as data — its states and
//! the behaviour each runs, the initial state, the transitions with their conditions, and the
//! guards' waypoint routes (ch. 6) — plus the `fsm` tuning section.
//!
//! Names are kept as text here and resolved when the file is validated, so every mistake (a
//! transition to a state that does not exist, a condition outside the closed set) is reported
//! with its field path; `sim::fsm::Machine` compiles the checked data into index tables.

mod machine;
mod tuning;
mod validate;

pub use machine::{
    CONDITIONS, Condition, FsmData, GuardBehaviour, MAX_POINTS, MAX_ROUTES, MAX_SECONDS,
    MAX_STATES, MAX_TRANSITIONS, RouteData, RouteMode, StateData, TransitionData,
};
pub use tuning::{FSM_SLIDERS, FsmSlider, FsmTuning};

use super::{DataError, Source};

pub const FILE_NAME: &str = "fsm.json";
pub const BUILT_IN: &str = include_str!("../../../assets/fsm.json");

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
