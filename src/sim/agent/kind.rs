//! The closed set of agent kinds: what an agent is, finer than its mode (a reversed chaser, a
//! Galaga ship's rank). The record writes each as its `kind` word; the window keys an agent's
//! looks on it, with one `match` that a new kind must complete.

/// One kind of agent (see [`Behaviour::kind_of`](super::Behaviour::kind_of)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    TileChase,
    TileEvade,
    TileLos,
    TileLosAway,
    LosChase,
    Flee,
    Intercept,
    EvadePredict,
    Evade,
    Wander,
    WanderWaypoint,
    AvoidWander,
    AvoidChase,
    Boss,
    Escort,
    Drone,
    Pattern,
    TilePattern,
    Boid,
    Swarmer,
    Pathfind,
    Guard,
    Hider,
    Bodyguard,
    Walker,
    Member,
    Pedestrian,
}

impl Kind {
    /// The record's `kind`, and the key of the summary's catches by kind.
    pub fn word(self) -> &'static str {
        match self {
            Kind::TileChase => "tile-chase",
            Kind::TileEvade => "tile-evade",
            Kind::TileLos => "tile-los",
            Kind::TileLosAway => "tile-los-away",
            Kind::LosChase => "los-chase",
            Kind::Flee => "flee",
            Kind::Intercept => "intercept",
            Kind::EvadePredict => "evade-predict",
            Kind::Evade => "evade",
            Kind::Wander => "wander",
            Kind::WanderWaypoint => "wander-waypoint",
            Kind::AvoidWander => "avoid-wander",
            Kind::AvoidChase => "avoid-chase",
            Kind::Boss => "boss",
            Kind::Escort => "escort",
            Kind::Drone => "drone",
            Kind::Pattern => "pattern",
            Kind::TilePattern => "tile-pattern",
            Kind::Boid => "boid",
            Kind::Swarmer => "swarmer",
            Kind::Pathfind => "pathfind",
            Kind::Guard => "guard",
            Kind::Hider => "hider",
            Kind::Bodyguard => "bodyguard",
            Kind::Walker => "walker",
            Kind::Member => "member",
            Kind::Pedestrian => "pedestrian",
        }
    }
}
