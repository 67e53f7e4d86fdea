//! The behaviour modes, and one table of what the program says about each: its command-line and
//! record name, its key (bank and digit), its help line, its HUD title and descriptions, the
//! tuning panel's sections it shows, whether its crowd moves together, the crowd it starts with
//! and the key of its alternate form.
//!
//! The table is one struct per mode ([`ModeInfo`]), returned by one exhaustive `match`
//! ([`Mode::info`]), rather than a `match` per fact: a mode's plain facts then read together, a new
//! mode is one arm whose fields the compiler asks for, and the key table, the help overlay, the
//! HUD and the tuning panel all read it. Facts that belong to another room stay in that room as
//! one exhaustive `match` each (zemeroth's style), because this file may not import them: the
//! looks of each agent kind (`app/style.rs`), the summary's figures (`sim/world/extra.rs`), and
//! a mode's behaviour, spawning and vehicle (`sim/agent/behaviour.rs`, `sim/world/spawn.rs`).

use crate::data::combine::Method;
use crate::data::tuning::{Section, Slider};
use std::fmt;

/// The free-for-all's ground agents, by the mode whose behaviour each runs: two of each chaser
/// kind, evaders, wanderers, avoiders and a pattern walker. `+` repeats the list.
pub const MIXED_GROUND: [Mode; 18] = [
    Mode::TileChase,
    Mode::TileChase,
    Mode::TileLos,
    Mode::TileLos,
    Mode::LosChase,
    Mode::LosChase,
    Mode::Intercept,
    Mode::Intercept,
    Mode::Evade,
    Mode::Evade,
    Mode::Evade,
    Mode::Wander,
    Mode::Wander,
    Mode::Wander,
    Mode::Avoid,
    Mode::Avoid,
    Mode::Avoid,
    Mode::Patterns,
];
/// The free-for-all's Galaga squadron: the stage's first wave.
pub const MIXED_SHIPS: usize = 8;
/// The free-for-all's whole crowd.
const MIXED_AGENTS: usize = MIXED_GROUND.len() + MIXED_SHIPS;

/// Which number row a mode's digit is on: the first bank is the bare digit, the second Shift +
/// the digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bank {
    First,
    Second,
}

/// The key that selects a mode in the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub bank: Bank,
    /// 0–9.
    pub digit: u8,
}

/// Everything the program says about a mode outside its behaviour: one entry per mode in
/// [`Mode::info`].
#[derive(Debug)]
pub struct ModeInfo {
    /// The command-line and record name.
    pub name: &'static str,
    pub key: Key,
    /// The help overlay's (and the README's) line for its key.
    pub help: &'static str,
    /// The HUD's title.
    pub title: &'static str,
    /// The HUD's line saying what the algorithm does.
    pub description: &'static str,
    /// That line in the alternate form (`E`, `V`, `T`); the same line where there is none.
    pub alternate: &'static str,
    /// The tuning panel's sections, shown in the slider table's order whatever the order here.
    pub sections: &'static [Section],
    /// A crowd that moves together (the flock, the swarm): the world steers it as one group over
    /// a shared neighbour grid, spreads it over the arena at spawn, grows the arena with it, and
    /// the summary measures it as a group.
    pub moves_together: bool,
    /// The crowd it starts with (Galaga's world starts with its data's stage, which is 40 ships
    /// in the built-in data).
    pub agents: usize,
    /// The key that switches it to its alternate form, if it has one: `E` reverses modes 1–4 and
    /// makes the player the flock's predator, `V` switches wander to waypoints, `T` makes the
    /// agents among obstacles chase. `--evade-flip` selects the alternate form on the command
    /// line. (The flock's other form, the player leading it, is `T` and `--lead`: see
    /// [`Mode::has_lead`].) In `pathfind`, `V` steps through the search orders instead (see
    /// [`Mode::cycles`]).
    pub alternate_key: Option<char>,
    /// How the mode puts its agents' several forces together when `B` has not chosen (what it
    /// has always done, named by the method it is); `None`: its agents do not add several
    /// forces, and `B` does nothing.
    pub combine: Option<Method>,
}

/// A closed set: each mode is a number key in the window and a name on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    TileChase,
    TileLos,
    LosChase,
    Intercept,
    Evade,
    Wander,
    Avoid,
    Galaga,
    Patterns,
    Mixed,
    Flock,
    Swarm,
    Pathfind,
    /// Second bank: guards run by finite state machines.
    Fsm,
    /// Third bank: a crowd crossing a scene to its goals, avoiding one another.
    Crowd,
    /// Third bank: hiders take cover behind obstacles; bodyguards interpose.
    Hide,
    /// Third bank: the player leads a formation.
    Formation,
    /// Third bank: pedestrians follow a pathway both ways.
    Pathway,
}

/// [`Mode::ALL`] from one list, checked against the enum: a mode left out of the list leaves the
/// `match` beside it without an arm, which the compiler refuses.
macro_rules! every_mode {
    ($($mode:ident),* $(,)?) => {
        impl Mode {
            /// Every mode this build has, in key order.
            pub const ALL: &'static [Mode] = &[$(Mode::$mode),*];
        }
        const _: fn(Mode) = |mode| match mode {
            $(Mode::$mode)|* => {}
        };
    };
}

every_mode!(
    TileChase, TileLos, LosChase, Intercept, Evade, Wander, Avoid, Galaga, Patterns, Mixed, Flock,
    Swarm, Pathfind, Fsm, Crowd, Hide, Formation, Pathway,
);

impl Mode {
    /// The table: one entry per mode. A new mode is a new arm here, which the compiler asks
    /// for; the facts that belong to other rooms (its looks in `app/style.rs`, its summary
    /// figures in `sim/world/extra.rs`, its behaviour and vehicle in `sim/agent/`) are
    /// exhaustive matches there, which the compiler asks for too.
    pub const fn info(self) -> &'static ModeInfo {
        match self {
            Mode::TileChase => &ModeInfo {
                name: "tile-chase",
                key: Key {
                    bank: Bank::First,
                    digit: 1,
                },
                help: "tile chase: x and y each step toward the player",
                title: "tile chase",
                description: "one tile per step, x and y each toward the player: diagonal until one axis matches, then straight",
                alternate: "tile evade: one tile per step, x and y each away from the player",
                sections: &[Section::Player, Section::ChaserRadius, Section::TileSteps],
                moves_together: false,
                agents: 4,
                alternate_key: Some('E'),
                combine: None,
            },
            Mode::TileLos => &ModeInfo {
                name: "tile-los",
                key: Key {
                    bank: Bank::First,
                    digit: 2,
                },
                help: "tile line-of-sight: walk the Bresenham line to the player",
                title: "tile line-of-sight chase",
                description: "walk the Bresenham line from my tile to the player's tile, redrawn when the player changes tile",
                alternate: "walk the Bresenham line away from the player: the line from the player through me, extended",
                sections: &[Section::Player, Section::ChaserRadius, Section::TileSteps],
                moves_together: false,
                agents: 4,
                alternate_key: Some('E'),
                combine: None,
            },
            Mode::LosChase => &ModeInfo {
                name: "los-chase",
                key: Key {
                    bank: Bank::First,
                    digit: 3,
                },
                help: "line-of-sight chase: seek the player's current position",
                title: "line-of-sight chase",
                description: "seek: steer straight at the player's current position (desired = dir * max_speed)",
                alternate: "flee: steer straight away from the player's current position (seek negated)",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserMass,
                    Section::ChaserRadius,
                ],
                moves_together: false,
                agents: 4,
                alternate_key: Some('E'),
                combine: None,
            },
            Mode::Intercept => &ModeInfo {
                name: "intercept",
                key: Key {
                    bank: Bank::First,
                    digit: 4,
                },
                help: "intercept: seek the predicted meeting point",
                title: "intercept",
                description: "aim where the player will be: Tc = |Sr| / |Vr|, St = Sprey + Vprey * Tc; plain seek when ahead of it",
                alternate: "evade by prediction: flee the player's predicted position St = Sprey + Vprey * Tc",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserMass,
                    Section::ChaserRadius,
                    Section::Prediction,
                ],
                moves_together: false,
                agents: 4,
                alternate_key: Some('E'),
                combine: None,
            },
            Mode::Evade => &ModeInfo {
                name: "evade",
                key: Key {
                    bank: Bank::First,
                    digit: 5,
                },
                help: "evade: agents flee you; touch them to tag them",
                title: "evade",
                description: "flee the player's predicted position inside the threat radius, wander outside it; tag them!",
                alternate: "flee the player's predicted position inside the threat radius, wander outside it; tag them!",
                sections: &[
                    Section::Player,
                    Section::Evader,
                    Section::Threat,
                    Section::EvadeCourse,
                    Section::SenseRate,
                    Section::Unstick,
                ],
                moves_together: false,
                agents: 8,
                alternate_key: None,
                combine: None,
            },
            Mode::Wander => &ModeInfo {
                name: "wander",
                key: Key {
                    bank: Bank::First,
                    digit: 6,
                },
                help: "wander: Reynolds' jittered circle",
                title: "wander",
                description: "seek a target on a circle ahead that jitters randomly each tick: a walk that never turns round (V: waypoints)",
                alternate: "waypoint wander: seek a random open spot that moves every few seconds, with a wobble (V: circle)",
                sections: &[
                    Section::Player,
                    Section::Wanderer,
                    Section::WanderCircle,
                    Section::Waypoints,
                    Section::Rays,
                    Section::SenseRate,
                    Section::Unstick,
                ],
                moves_together: false,
                agents: 12,
                alternate_key: Some('V'),
                combine: None,
            },
            Mode::Avoid => &ModeInfo {
                name: "avoid",
                key: Key {
                    bank: Bank::First,
                    digit: 7,
                },
                help: "obstacle avoidance: feel ahead with rays",
                title: "obstacle avoidance",
                description: "wander among obstacles, feeling ahead with rays that grow with speed (T: chase the player)",
                alternate: "chase the player through the obstacles, keeping apart and feeling ahead with rays that grow with speed (T: wander)",
                sections: &[
                    Section::Player,
                    Section::Wanderer,
                    Section::WanderCircle,
                    Section::Rays,
                    Section::SenseRate,
                    Section::Unstick,
                    Section::Separation,
                ],
                moves_together: false,
                agents: 30,
                alternate_key: Some('T'),
                combine: Some(Method::Prioritised),
            },
            Mode::Galaga => &ModeInfo {
                name: "galaga",
                key: Key {
                    bank: Bank::First,
                    digit: 8,
                },
                help: "Galaga: waves, formation, dives",
                title: "Galaga pattern flights",
                description: "waves fly in along step-list paths (speed, turn rate, time), fill a swaying, breathing formation, then dive",
                alternate: "waves fly in along step-list paths (speed, turn rate, time), fill a swaying, breathing formation, then dive",
                sections: &[Section::Player],
                moves_together: false,
                agents: 40,
                alternate_key: None,
                combine: None,
            },
            Mode::Patterns => &ModeInfo {
                name: "patterns",
                key: Key {
                    bank: Bank::First,
                    digit: 9,
                },
                help: "pattern movement: square, zigzag, racetrack, tile box",
                title: "pattern movement",
                description: "control data: steer port/starboard/none, thrust or coast, until a heading change or distance; the list loops",
                alternate: "control data: steer port/starboard/none, thrust or coast, until a heading change or distance; the list loops",
                sections: &[Section::Player, Section::TileSteps, Section::Pattern],
                moves_together: false,
                agents: 4,
                alternate_key: None,
                combine: None,
            },
            Mode::Mixed => &ModeInfo {
                name: "mixed",
                key: Key {
                    bank: Bank::First,
                    digit: 0,
                },
                help: "free-for-all: every behaviour at once, with a legend",
                title: "free-for-all",
                description: "every behaviour at once, each kind in its colour: which algorithm catches you most? (C: chart)",
                alternate: "every behaviour at once, each kind in its colour: which algorithm catches you most? (C: chart)",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserMass,
                    Section::ChaserRadius,
                    Section::TileSteps,
                    Section::Prediction,
                    Section::Evader,
                    Section::Threat,
                    Section::EvadeCourse,
                    Section::Wanderer,
                    Section::WanderCircle,
                    Section::Rays,
                    Section::SenseRate,
                    Section::Unstick,
                    Section::Pattern,
                ],
                moves_together: false,
                agents: MIXED_AGENTS,
                alternate_key: None,
                combine: None,
            },
            Mode::Flock => &ModeInfo {
                name: "flock",
                key: Key {
                    bank: Bank::Second,
                    digit: 1,
                },
                help: "flock: Reynolds' boids, metric or topological neighbours",
                title: "flocking",
                description: "boids: separation, alignment, cohesion over the neighbours in radius and view, feelers for walls (T: lead, E: predator)",
                alternate: "you are the predator: boids within the threat radius flee you; the flock splits round you and closes up behind (E: off)",
                sections: &[
                    Section::Player,
                    Section::WanderCircle,
                    Section::Rays,
                    Section::SenseRate,
                    Section::Boid,
                    Section::Flock,
                ],
                moves_together: true,
                agents: 120,
                alternate_key: Some('E'),
                combine: Some(Method::Weighted),
            },
            Mode::Swarm => &ModeInfo {
                name: "swarm",
                key: Key {
                    bank: Bank::Second,
                    digit: 2,
                },
                help: "swarm: Lennard-Jones forces gather a swarm round you",
                title: "potential-function swarm",
                description: "Lennard-Jones: F(r) = -A/r^n + B/r^m from each neighbour (attraction far, repulsion near), a pull to you, a push off obstacles",
                alternate: "Lennard-Jones: F(r) = -A/r^n + B/r^m from each neighbour (attraction far, repulsion near), a pull to you, a push off obstacles",
                sections: &[Section::Player, Section::Boid, Section::Swarm],
                moves_together: true,
                agents: 80,
                alternate_key: None,
                combine: None,
            },
            Mode::Pathfind => &ModeInfo {
                name: "pathfind",
                key: Key {
                    bank: Bank::Second,
                    digit: 3,
                },
                help: "finding the way: A* on the tiles, flow fields",
                title: "finding the way",
                description: "search the tiles to the player's tile, pull the path straight, arrive at each corner; a crowd shares one flow field (V: next search)",
                alternate: "search the tiles to the player's tile, pull the path straight, arrive at each corner; a crowd shares one flow field (V: next search)",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserMass,
                    Section::ChaserRadius,
                    Section::Separation,
                ],
                moves_together: false,
                agents: 4,
                alternate_key: Some('V'),
                combine: None,
            },
            Mode::Fsm => &ModeInfo {
                name: "fsm",
                key: Key {
                    bank: Bank::Second,
                    digit: 4,
                },
                help: "state machines: guards patrol, see, chase, search, return; pickups make them flee",
                title: "guards run by finite state machines",
                description: "guards patrol, chase what their cones see, search, return by A*; take a pickup and they flee: tag them!",
                alternate: "guards patrol, chase what their cones see, search, return by A*; take a pickup and they flee: tag them!",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserRadius,
                    Section::Prediction,
                    Section::Threat,
                    Section::Fsm,
                ],
                moves_together: false,
                agents: 4,
                alternate_key: None,
                combine: None,
            },
            Mode::Hide => &ModeInfo {
                name: "hide",
                key: Key {
                    bank: Bank::Second,
                    digit: 6,
                },
                help: "hide: take cover behind obstacles from you; tag them (T: bodyguards)",
                title: "hide and interpose",
                description: "arrive at the nearest spot behind an obstacle as you see it, evade when none is near; tag them! (T: bodyguards)",
                alternate: "hiders take cover; bodyguards steer to the midpoint of you and their charge, both predicted, and catch you (T: off)",
                sections: &[
                    Section::Player,
                    Section::ChaserSteering,
                    Section::ChaserRadius,
                    Section::Evader,
                    Section::Threat,
                    Section::EvadeCourse,
                    Section::Hide,
                ],
                moves_together: false,
                agents: 8,
                alternate_key: Some('T'),
                combine: Some(Method::Prioritised),
            },
            Mode::Crowd => &ModeInfo {
                name: "crowd",
                key: Key {
                    bank: Bank::Second,
                    digit: 5,
                },
                help: "crowd: walkers cross to their goals without touching (T: scene, V: method)",
                title: "crowds that do not push",
                description: "walk to the goal turned a little right; keep clear by separation, predicted nearest approach or ORCA half-planes (T: scene, V: method)",
                alternate: "walk to the goal turned a little right; keep clear by separation, predicted nearest approach or ORCA half-planes (T: scene, V: method)",
                sections: &[Section::Player, Section::Crowd],
                moves_together: false,
                agents: 250,
                alternate_key: None,
                combine: Some(Method::Weighted),
            },
            Mode::Formation => &ModeInfo {
                name: "formation",
                key: Key {
                    bank: Bank::Second,
                    digit: 7,
                },
                help: "formation: you lead a wedge, line, column or ring (V: shape, T: slots)",
                title: "formations",
                description: "each member offset-pursues its slot, assigned by least total distance; the anchor trails you at a moderated pace (V: shape, T: fixed slots)",
                alternate: "each member offset-pursues slot i, its own by number; the anchor trails you at a moderated pace (V: shape, T: nearest slots)",
                sections: &[Section::Player, Section::Formation],
                moves_together: false,
                agents: 12,
                alternate_key: Some('T'),
                combine: Some(Method::Prioritised),
            },
            Mode::Pathway => &ModeInfo {
                name: "pathway",
                key: Key {
                    bank: Bank::Second,
                    digit: 8,
                },
                help: "pathway: pedestrians follow a pathway both ways (drag: draw one, right click: the data's)",
                title: "path following",
                description: "predict, project onto the pathway, steer ahead along it only when the prediction leaves the lane; half go each way, keeping right (drag: draw a pathway)",
                alternate: "predict, project onto the pathway, steer ahead along it only when the prediction leaves the lane; half go each way, keeping right (drag: draw a pathway)",
                sections: &[Section::Player, Section::Pathway],
                moves_together: false,
                agents: 40,
                alternate_key: None,
                combine: Some(Method::Weighted),
            },
        }
    }

    /// The command-line and record name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The number key that selects it (with Shift held in the second bank, see [`Mode::bank`]).
    pub fn digit(self) -> char {
        char::from(b'0' + self.info().key.digit)
    }

    pub fn bank(self) -> Bank {
        self.info().key.bank
    }

    /// Whether the mode is in the second bank: selected by Shift + its digit, by name only on
    /// the command line (a bare digit names the first bank's mode).
    pub fn shifted(self) -> bool {
        self.bank() == Bank::Second
    }

    /// How the HUD and help name its key: `3`, or `Shift+3` in the second bank.
    pub fn key_label(self) -> String {
        match self.bank() {
            Bank::First => self.digit().to_string(),
            Bank::Second => format!("Shift+{}", self.digit()),
        }
    }

    /// The help overlay's line for its key.
    pub fn help(self) -> &'static str {
        self.info().help
    }

    /// The HUD's title.
    pub fn title(self) -> &'static str {
        self.info().title
    }

    /// One line saying what the algorithm does (`flipped`: after `E`).
    pub fn description(self, flipped: bool) -> &'static str {
        let info = self.info();
        if flipped {
            info.alternate
        } else {
            info.description
        }
    }

    /// The tuning panel's sections for this mode.
    pub fn sections(self) -> &'static [Section] {
        self.info().sections
    }

    /// Whether the tuning panel shows `slider` in this mode.
    pub fn shows(self, slider: &Slider) -> bool {
        self.sections().contains(&slider.section)
    }

    /// About what one of the mode's agents costs a tick on one thread (ns, `bench` on a quiet
    /// 2-core Xeon, rounded), which decides from what crowd its tick is split among threads
    /// (see [`threads::pays`](crate::sim::threads::pays)). `None`: never split — the tile
    /// agents step a few times a second, so their tick is mostly a walk through memory that
    /// two threads do not shorten; the guards' and the hiders' draws hang on their machines or
    /// on the numbers themselves, so each moves on the tick's own thread anyway; Galaga's ships
    /// move together on one.
    pub fn agent_ns(self) -> Option<u32> {
        match self {
            Mode::TileChase | Mode::TileLos | Mode::Galaga | Mode::Fsm | Mode::Hide => None,
            Mode::Patterns => Some(27),
            Mode::Intercept => Some(30),
            Mode::LosChase => Some(40),
            Mode::Mixed => Some(55),
            Mode::Evade => Some(70),
            Mode::Pathfind => Some(75),
            Mode::Wander | Mode::Avoid => Some(80),
            Mode::Swarm => Some(150),
            Mode::Crowd => Some(200),
            Mode::Formation => Some(260),
            Mode::Flock => Some(400),
            Mode::Pathway => Some(700),
        }
    }

    /// Whether the mode's agents are one crowd that moves together (see
    /// [`ModeInfo::moves_together`]).
    pub fn moves_together(self) -> bool {
        self.info().moves_together
    }

    /// How the mode combines its forces unless `B` chose (see [`ModeInfo::combine`]).
    pub fn own_combine(self) -> Option<Method> {
        self.info().combine
    }

    /// The crowd a mode starts with (see [`ModeInfo::agents`]).
    pub fn default_agents(self) -> usize {
        self.info().agents
    }

    /// The key that switches this mode to its alternate form, if it has one (see
    /// [`ModeInfo::alternate_key`]).
    pub fn alternate_key(self) -> Option<char> {
        self.info().alternate_key
    }

    /// Whether `T` (`--lead`) makes the player the agents' leader: the flock's third form, beside
    /// wandering free and fleeing the player (`E`). Leading and being the predator exclude each
    /// other.
    pub fn has_lead(self) -> bool {
        self == Mode::Flock
    }

    /// The HUD's line while the player leads.
    pub fn lead_description(self) -> &'static str {
        "you lead: boids follow at an offset behind you and clear out of the corridor ahead of you (T: off)"
    }

    /// What the HUD calls the alternate form.
    pub fn alternate_name(self) -> &'static str {
        match self.alternate_key() {
            Some('V') => "waypoints",
            Some('T') if self == Mode::Hide => "bodyguards",
            Some('T') if self == Mode::Formation => "fixed slots",
            Some('T') => "chasing",
            Some('E') if self == Mode::Flock => "predator",
            _ => "reversed",
        }
    }

    /// Whether the mode has an alternate form (see [`Mode::alternate_key`]).
    pub fn has_flip(self) -> bool {
        self.alternate_key().is_some() && !self.cycles()
    }

    /// Whether the alternate key steps through more than two forms rather than flipping between
    /// two: `pathfind`'s `V` cycles A*, Dijkstra and greedy best-first (the world's
    /// [`Order`](crate::sim::path::Order), `--algorithm` on the command line).
    pub fn cycles(self) -> bool {
        matches!(self, Mode::Pathfind)
    }

    /// A name or a digit.
    pub fn parse(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s || !m.shifted() && s.len() == 1 && s.starts_with(m.digit()))
            .ok_or_else(|| {
                let names: Vec<String> = Mode::ALL
                    .iter()
                    .map(|m| format!("{} ({})", m.name(), m.key_label()))
                    .collect();
                format!(
                    "unknown mode \"{s}\" (this build has: {})",
                    names.join(", ")
                )
            })
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
