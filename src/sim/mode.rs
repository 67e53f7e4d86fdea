//! The behaviour modes: names for the command line and record, digits for the keyboard, and the
//! one-line descriptions the HUD shows.

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
}

impl Mode {
    /// Every mode this build has, in key order.
    pub const ALL: &'static [Mode] = &[
        Mode::TileChase,
        Mode::TileLos,
        Mode::LosChase,
        Mode::Intercept,
        Mode::Evade,
        Mode::Wander,
        Mode::Avoid,
        Mode::Galaga,
        Mode::Patterns,
        Mode::Mixed,
        Mode::Flock,
        Mode::Swarm,
        Mode::Pathfind,
        Mode::Fsm,
    ];

    /// The command-line and record name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::TileChase => "tile-chase",
            Mode::TileLos => "tile-los",
            Mode::LosChase => "los-chase",
            Mode::Intercept => "intercept",
            Mode::Evade => "evade",
            Mode::Wander => "wander",
            Mode::Avoid => "avoid",
            Mode::Galaga => "galaga",
            Mode::Patterns => "patterns",
            Mode::Mixed => "mixed",
            Mode::Flock => "flock",
            Mode::Swarm => "swarm",
            Mode::Pathfind => "pathfind",
            Mode::Fsm => "fsm",
        }
    }

    /// The number key that selects it (with Shift held for the second bank, see
    /// [`Mode::shifted`]).
    pub fn digit(self) -> char {
        match self {
            Mode::TileChase => '1',
            Mode::TileLos => '2',
            Mode::LosChase => '3',
            Mode::Intercept => '4',
            Mode::Evade => '5',
            Mode::Wander => '6',
            Mode::Avoid => '7',
            Mode::Galaga => '8',
            Mode::Patterns => '9',
            Mode::Mixed => '0',
            Mode::Flock => '1',
            Mode::Swarm => '2',
            Mode::Pathfind => '3',
            Mode::Fsm => '4',
        }
    }

    /// Whether the mode is in the second bank: selected by Shift + its digit, by name only on
    /// the command line (a bare digit names the first bank's mode).
    pub fn shifted(self) -> bool {
        matches!(self, Mode::Flock | Mode::Swarm | Mode::Pathfind | Mode::Fsm)
    }

    /// How the HUD and help name its key: `3`, or `Shift+3` in the second bank.
    pub fn key_label(self) -> String {
        if self.shifted() {
            format!("Shift+{}", self.digit())
        } else {
            self.digit().to_string()
        }
    }

    /// The HUD's title.
    pub fn title(self) -> &'static str {
        match self {
            Mode::TileChase => "tile chase",
            Mode::TileLos => "tile line-of-sight chase",
            Mode::LosChase => "line-of-sight chase",
            Mode::Intercept => "intercept",
            Mode::Evade => "evade",
            Mode::Wander => "wander",
            Mode::Avoid => "obstacle avoidance",
            Mode::Galaga => "Galaga pattern flights",
            Mode::Patterns => "pattern movement",
            Mode::Mixed => "free-for-all",
            Mode::Flock => "flocking",
            Mode::Swarm => "potential-function swarm",
            Mode::Pathfind => "finding the way",
            Mode::Fsm => "guards run by finite state machines",
        }
    }

    /// One line saying what the algorithm does (`flipped`: after `E`).
    pub fn description(self, flipped: bool) -> &'static str {
        match (self, flipped) {
            (Mode::TileChase, false) => {
                "one tile per step, x and y each toward the player: diagonal until one axis matches, then straight"
            }
            (Mode::TileChase, true) => {
                "tile evade: one tile per step, x and y each away from the player"
            }
            (Mode::TileLos, false) => {
                "walk the Bresenham line from my tile to the player's tile, redrawn when the player changes tile"
            }
            (Mode::TileLos, true) => {
                "walk the Bresenham line away from the player: the line from the player through me, extended"
            }
            (Mode::LosChase, false) => {
                "seek: steer straight at the player's current position (desired = dir * max_speed)"
            }
            (Mode::LosChase, true) => {
                "flee: steer straight away from the player's current position (seek negated)"
            }
            (Mode::Intercept, false) => {
                "aim where the player will be: Tc = |Sr| / |Vr|, St = Sprey + Vprey * Tc; plain seek when ahead of it"
            }
            (Mode::Intercept, true) => {
                "evade by prediction: flee the player's predicted position St = Sprey + Vprey * Tc"
            }
            (Mode::Evade, _) => {
                "flee the player's predicted position inside the threat radius, wander outside it; tag them!"
            }
            (Mode::Wander, false) => {
                "seek a target on a circle ahead that jitters randomly each tick: a walk that never turns round (V: waypoints)"
            }
            (Mode::Wander, true) => {
                "waypoint wander: seek a random open spot that moves every few seconds, with a wobble (V: circle)"
            }
            (Mode::Avoid, false) => {
                "wander among obstacles, feeling ahead with rays that grow with speed (T: chase the player)"
            }
            (Mode::Avoid, true) => {
                "chase the player through the obstacles, keeping apart and feeling ahead with rays that grow with speed (T: wander)"
            }
            (Mode::Galaga, _) => {
                "waves fly in along step-list paths (speed, turn rate, time), fill a swaying, breathing formation, then dive"
            }
            (Mode::Mixed, _) => {
                "every behaviour at once, each kind in its colour: which algorithm catches you most? (C: chart)"
            }
            (Mode::Flock, false) => {
                "boids: separation, alignment, cohesion over the neighbours in radius and view, feelers for walls (T: lead, E: predator)"
            }
            (Mode::Flock, true) => {
                "you are the predator: boids within the threat radius flee you; the flock splits round you and closes up behind (E: off)"
            }
            (Mode::Swarm, _) => {
                "Lennard-Jones: F(r) = -A/r^n + B/r^m from each neighbour (attraction far, repulsion near), a pull to you, a push off obstacles"
            }
            (Mode::Pathfind, _) => {
                "search the tiles to the player's tile, pull the path straight, arrive at each corner; a crowd shares one flow field (V: next search)"
            }
            (Mode::Fsm, _) => {
                "guards patrol, chase what their cones see, search, return by A*; take a pickup and they flee: tag them!"
            }
            (Mode::Patterns, _) => {
                "control data: steer port/starboard/none, thrust or coast, until a heading change or distance; the list loops"
            }
        }
    }

    /// The crowd a mode starts with (Galaga's world starts with its data's stage, which is 40
    /// ships in the built-in data).
    pub fn default_agents(self) -> usize {
        match self {
            Mode::TileChase | Mode::TileLos | Mode::LosChase | Mode::Intercept | Mode::Pathfind => {
                4
            }
            Mode::Evade => 8,
            Mode::Wander => 12,
            Mode::Avoid => 30,
            Mode::Galaga => 40,
            Mode::Patterns | Mode::Fsm => 4,
            Mode::Mixed => MIXED_GROUND.len() + MIXED_SHIPS,
            Mode::Flock => 120,
            Mode::Swarm => 80,
        }
    }

    /// The key that switches this mode to its alternate form, if it has one: `E` reverses modes
    /// 1–4 and makes the player the flock's predator, `V` switches wander to waypoints, `T` makes
    /// the agents among obstacles chase. `--evade-flip` selects the alternate form on the
    /// command line. (The flock's other form, the player leading it, is `T` and `--lead`: see
    /// [`Mode::has_lead`].) In `pathfind`, `V` steps through the search orders instead (see
    /// [`Mode::cycles`]).
    pub fn alternate_key(self) -> Option<char> {
        match self {
            Mode::TileChase | Mode::TileLos | Mode::LosChase | Mode::Intercept => Some('E'),
            Mode::Flock => Some('E'),
            Mode::Wander | Mode::Pathfind => Some('V'),
            Mode::Avoid => Some('T'),
            Mode::Evade | Mode::Galaga | Mode::Patterns | Mode::Mixed | Mode::Swarm | Mode::Fsm => {
                None
            }
        }
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
