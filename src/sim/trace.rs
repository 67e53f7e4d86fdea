//! What the overlay shows of an agent, as plain data: the rays it felt with and what they hit,
//! the line of sight, predicted points, the tiles it will walk, the wander circle, whom it heeds,
//! a guard's view cone and the path search of a chaser. The world fills a [`Trace`] only for the
//! agents the window asks for ([`crate::sim::world::World::trace_agents`]), from the state its
//! last tick left, so the window draws these quantities without running any of the simulation
//! itself. Tracing never writes to the simulation's state: records do not change with it.
//!
//! Each mark names the quantity it shows by a [`Role`]; the window maps roles to colours,
//! widths and scales.

use crate::sim::path::{Order, Search};
use glam::{IVec2, Vec2};

/// The quantity a mark shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The agent's steering force over its mass (a velocity change per second).
    Steering,
    /// A feeler that met nothing.
    Ray,
    /// The feeler that met something, and where.
    Hit,
    /// The surface normal where a feeler hit.
    Normal,
    /// A line of sight to what the agent heads for, or a view cone.
    Sight,
    /// A predicted point or a path predicted ahead.
    Predicted,
    /// What an evader flees from.
    Threat,
    /// Tiles the agent will walk.
    Path,
    /// Tiles of its line already walked.
    Walked,
    /// A blocked tile on its line.
    Blocked,
    /// A line of sight that an obstacle cuts (the hider it ends at is hidden).
    SightCut,
    /// The tile the agent stands on.
    Occupied,
    /// The wander circle and the line to its target.
    Wander,
    /// The way out of a pocket being followed.
    Escape,
    /// The push apart from the crowd, per unit of the pull toward the player.
    Apart,
    /// The line to the corner a path chaser heads for.
    Course,
    /// A line to a neighbour heeded.
    Neighbour,
    /// A walker's goal (and the line to where it heads).
    Goal,
    /// An ORCA half-plane's edge, drawn in velocity space round the walker (see
    /// `world/walk_trace.rs`).
    HalfPlane,
    /// The velocity a walker chose, in the same velocity space.
    Chosen,
    /// A pedestrian's predicted point projected on its lane (and the line to it).
    Projection,
    /// The target ahead on a pedestrian's lane (and the line to it while it corrects).
    Ahead,
}

/// The shape of a mark, in arena coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    Segment {
        from: Vec2,
        to: Vec2,
    },
    /// A quantity `v` drawn from `from` as an arrow, at the scale its role is drawn at.
    Vector {
        from: Vec2,
        v: Vec2,
    },
    Circle {
        at: Vec2,
        radius: f32,
    },
    Dot {
        at: Vec2,
    },
    Cross {
        at: Vec2,
    },
    Tile(IVec2),
    /// A disc of `radius` cut to `fov_deg` round `heading`.
    Cone {
        at: Vec2,
        heading: Vec2,
        radius: f32,
        fov_deg: f32,
    },
}

/// One item of a trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub role: Role,
    pub shape: Shape,
    /// The mark's start (a segment's or a vector's `from`, a circle's or cone's centre) is the
    /// agent's position or an offset from it, so the window draws it from where it draws the
    /// agent (between two ticks) rather than where the tick left it.
    pub follows: bool,
}

/// What one agent showed after the last tick.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// The agent's index in `World::agents` and its id.
    pub index: usize,
    pub id: u32,
    pub marks: Vec<Mark>,
    /// A guard's view cone: the ends of its rays from the eye, each stopped by the first
    /// obstacle (empty for every other agent).
    pub fan: Vec<Vec2>,
    /// How many neighbours a crowd member heeded (0 for others).
    pub heeded: usize,
    /// In the modes whose agents add several forces: each force this tick, in the order the
    /// mode lists them, and the most the sum may be (the vehicle's force; a walker's speed).
    pub forces: Vec<ForceBar>,
    pub force_max: f32,
}

/// One of an agent's forces this tick, as `B`'s method combined them: its size (weighted) and
/// whether it went into the steering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForceBar {
    pub name: &'static str,
    pub size: f32,
    pub used: bool,
}

impl Trace {
    pub fn mark(&mut self, role: Role, shape: Shape) {
        self.marks.push(Mark {
            role,
            shape,
            follows: false,
        });
    }

    /// A mark that starts at the agent (see [`Mark::follows`]).
    pub fn mark_at_agent(&mut self, role: Role, shape: Shape) {
        self.marks.push(Mark {
            role,
            shape,
            follows: true,
        });
    }
}

/// `pathfind`'s traced search: the chaser nearest the player among the traced ones, its search
/// run between the tiles its plan came from (or, in a crowd on the flow field, from its tile to
/// the goal), with its sets, paths and timings.
#[derive(Debug, Clone, Default)]
pub struct PathTrace {
    /// The chaser shown and the tiles its search ran between (`None`: no chaser has planned).
    pub shown: Option<(u32, IVec2, IVec2)>,
    /// Where that chaser is.
    pub at: Vec2,
    /// Its open and closed sets, as the search left them.
    pub search: Search,
    /// The raw tile path and the smoothed corners.
    pub tiles: Vec<IVec2>,
    pub corners: Vec<Vec2>,
    pub found: bool,
    pub order: Order,
    pub expanded: usize,
    /// The fastest of a few runs of the search, and of the crowd's field build (microseconds).
    pub search_us: f32,
    pub field_us: f32,
}
