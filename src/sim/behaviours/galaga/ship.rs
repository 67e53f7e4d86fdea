//! A ship of the stage: its kind, its slot, what it is doing, and where it is in its flight.

use crate::data::patterns::ShipKind;
use crate::data::tuning::VehicleTuning;
use glam::{DVec2, Vec2};
use std::sync::Arc;

/// Radius of a ship's body (px).
pub const SHIP_RADIUS: f32 = 12.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipState {
    Queued,
    Entering,
    Homing,
    Formation,
    Diving,
    Returning,
}

impl ShipState {
    pub fn word(self) -> &'static str {
        match self {
            ShipState::Queued => "queued",
            ShipState::Entering => "entering",
            ShipState::Homing => "homing",
            ShipState::Formation => "formation",
            ShipState::Diving => "diving",
            ShipState::Returning => "returning",
        }
    }

    pub fn in_flight(self) -> bool {
        matches!(self, ShipState::Diving | ShipState::Returning)
    }
}

/// Where a ship is in its path. `path: None` means straight home.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The path flown (`None`: straight home); shared with the stage's names, so starting a
    /// flight or jumping to another path allocates nothing.
    pub path: Option<PathName>,
    pub step: usize,
    pub elapsed: f32,
    pub mirror: bool,
    /// For `until`: which side of the height the ship started on.
    pub started_above: Option<bool>,
}

impl Flight {
    /// A flight from the first step of `path` (`None`: straight home), on the mirrored flank or
    /// not.
    pub fn new(path: Option<PathName>, mirror: bool) -> Self {
        Flight {
            path,
            step: 0,
            elapsed: 0.0,
            mirror,
            started_above: None,
        }
    }
}

/// An escort flying its boss's path: it keeps its place beside the leader.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Follow {
    pub leader: usize,
    /// Offset from the leader in the leader's frame (x along its heading).
    pub offset: Vec2,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ship {
    pub kind: ShipKind,
    pub slot: usize,
    pub state: ShipState,
    pub flight: Option<Flight>,
    /// Radians (0 along +x, π/2 down the screen). Flights are integrated in f64: a mirrored
    /// path far from the origin would otherwise round differently from its original and drift
    /// off the exact reflection.
    pub heading: f64,
    /// Exact position (the agent's body holds it rounded to f32).
    pub pos: DVec2,
    pub speed: f32,
    pub launch_at: Option<f32>,
    pub wave: usize,
    /// Entry path and flank, flown once the wave launches.
    pub entry: (PathName, bool),
    pub follow: Option<Follow>,
    /// Caught the player on this flight already (one catch per flight).
    pub caught: bool,
    pub params: VehicleTuning,
}

/// A path's name, as the stage holds it (see [`Stage::path_name`](super::Stage::path_name)).
pub type PathName = Arc<str>;

/// Where a kind's figures sit in the stage's arrays (boss, escort, drone).
pub(super) fn kind_index(k: ShipKind) -> usize {
    match k {
        ShipKind::Boss => 0,
        ShipKind::Escort => 1,
        ShipKind::Drone => 2,
    }
}

/// The unit vector of a heading (f64).
pub(super) fn dir(heading: f64) -> DVec2 {
    DVec2::new(heading.cos(), heading.sin())
}
