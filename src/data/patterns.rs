//! `patterns.json`: the control-data patterns of mode 9 (Bourg & Seemann ch. 3) and the Galaga
//! stage of mode 8 — flight paths as step lists in the arcade's own encoding, waves, formation
//! and dives. Every reference (a path named by a wave, a dive or a `jump`, a pattern named by a
//! walker) is checked after parsing, and errors name the field path.

use super::{FieldError, check_positive, check_range};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FILE_NAME: &str = "patterns.json";
pub const BUILT_IN: &str = include_str!("../../assets/patterns.json");

/// Longest instruction or step list, and most patterns, paths or waves (keeps data bounded).
pub const MAX_LIST: usize = 256;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternsData {
    /// Physics-driven patterns by name: lists of instructions, looped.
    pub patterns: BTreeMap<String, Vec<Instruction>>,
    /// Tile patterns by name: turn-and-step instructions on the grid, looped.
    pub tile_patterns: BTreeMap<String, Vec<TileInstruction>>,
    /// The agents mode 9 shows, in order (`+` adds more, cycling through the list).
    pub walkers: Vec<Walker>,
    pub galaga: GalagaData,
}

/// One instruction of a physics-driven pattern. It ends when the heading has changed by
/// `turn_deg` or the agent has travelled `distance` since it began (whichever comes first; at
/// least one is required).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instruction {
    pub steer: Steer,
    pub thrust: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_deg: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Steer {
    /// Turn left (counter-clockwise on screen).
    Port,
    /// Turn right (clockwise on screen).
    Starboard,
    None,
}

/// Turn (relative to the current tile heading, in 45° steps) then walk `steps` tiles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileInstruction {
    /// Eighths of a turn, positive clockwise: 2 is a right angle to the right, −2 to the left.
    pub turn: i32,
    pub steps: u32,
}

/// Where mode 9 puts an agent and which pattern it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walker {
    /// A name in `patterns`, or in `tile_patterns` when `tile` is true.
    pub pattern: String,
    #[serde(default)]
    pub tile: bool,
    pub start: [f32; 2],
    /// Degrees, 0 along +x, 90 down the screen (tile walkers: rounded to 45°).
    pub heading: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GalagaData {
    /// Fastest any path flies (px/s): the ships' max speed.
    pub max_speed: f32,
    /// Largest turn rate `home` may use (degrees per second).
    pub home_turn_rate: f32,
    pub formation: FormationData,
    pub paths: BTreeMap<String, PathData>,
    pub waves: Vec<WaveData>,
    pub dives: DiveData,
}

/// The formation: slot spacing, where its top centre is, the sway while it fills and the
/// breathing once full.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationData {
    /// Top centre of the formation (px).
    pub top: [f32; 2],
    pub column_spacing: f32,
    pub row_spacing: f32,
    /// Side-to-side sway while filling: amplitude (px) and period (s).
    pub sway: f32,
    pub sway_period: f32,
    /// Breathing once full: how much the spacing grows at most (fraction) and the period (s).
    pub breathe: f32,
    pub breathe_period: f32,
}

/// A flight path: where an entry starts (dives start wherever the ship is) and its steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<[f32; 2]>,
    /// Heading at the start (degrees, 0 along +x, 90 down the screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<f32>,
    pub steps: Vec<Step>,
}

/// One step, the arcade's encoding: fly at a speed turning at a rate for a time, or a command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Fly at `speed` px/s, turning `turn` degrees per second (positive clockwise) for `time` s.
    Fly { speed: f32, turn: f32, time: f32 },
    /// Fly like `Fly` until the ship crosses the height `y` (either way).
    Until { speed: f32, turn: f32, y: f32 },
    /// Turn to face the player.
    Aim,
    /// Fly back to the formation slot.
    Home,
    /// Leave through the bottom and drop back in at the top.
    Wrap,
    /// Continue with another path's steps.
    Jump(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaveData {
    pub pairs: Vec<PairData>,
}

/// Two ships on one path, the wing-man a little behind its leader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairData {
    pub path: String,
    /// Fly the path mirrored (x reflected, turns negated) for the other flank.
    #[serde(default)]
    pub mirror: bool,
    /// The leader's and the wing-man's kind.
    pub kinds: [ShipKind; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShipKind {
    Boss,
    Escort,
    Drone,
}

/// Dive timing and paths, per kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiveData {
    /// Seconds between pairs of a wave, and between leader and wing-man.
    pub pair_interval: f32,
    pub wingman_delay: f32,
    /// Seconds between dives of each kind, once the formation is full.
    pub boss_every: f32,
    pub escort_every: f32,
    pub drone_every: f32,
    /// Most ships diving at once (a boss with its escorts counts them all).
    pub max_in_flight: usize,
    /// How many escorts fly with a diving boss (0–2).
    pub boss_escorts: usize,
    pub boss_path: String,
    pub escort_path: String,
    pub drone_path: String,
}

/// The arcade's formation: 4 bosses, 16 escorts, 20 drones in rows of 4, 8, 8, 10, 10.
pub const FORMATION_ROWS: [(ShipKind, usize); 5] = [
    (ShipKind::Boss, 4),
    (ShipKind::Escort, 8),
    (ShipKind::Escort, 8),
    (ShipKind::Drone, 10),
    (ShipKind::Drone, 10),
];

/// Parse and validate `patterns.json` text.
pub fn parse(text: &str) -> Result<PatternsData, String> {
    let data: PatternsData = super::from_json(text)?;
    data.validate().map_err(|e| e.to_string())?;
    Ok(data)
}

impl PatternsData {
    pub fn validate(&self) -> Result<(), FieldError> {
        check_len("patterns", self.patterns.len())?;
        for (name, list) in &self.patterns {
            let path = format!("patterns.{name}");
            check_nonempty(&path, list.len())?;
            check_len(&path, list.len())?;
            for (i, ins) in list.iter().enumerate() {
                ins.validate(&format!("{path}[{i}]"))?;
            }
        }
        check_len("tile_patterns", self.tile_patterns.len())?;
        for (name, list) in &self.tile_patterns {
            let path = format!("tile_patterns.{name}");
            check_nonempty(&path, list.len())?;
            check_len(&path, list.len())?;
            if list.iter().all(|i| i.steps == 0) {
                return Err(FieldError::new(path, "needs at least one step"));
            }
            for (i, ins) in list.iter().enumerate() {
                if ins.steps > 1000 || ins.turn.abs() > 8 {
                    return Err(FieldError::new(
                        format!("{path}[{i}]"),
                        "turn must be -8…8 eighths and steps at most 1000",
                    ));
                }
            }
        }
        check_len("walkers", self.walkers.len())?;
        for (i, w) in self.walkers.iter().enumerate() {
            let path = format!("walkers[{i}]");
            let known = if w.tile {
                self.tile_patterns.contains_key(&w.pattern)
            } else {
                self.patterns.contains_key(&w.pattern)
            };
            if !known {
                return Err(FieldError::new(
                    format!("{path}.pattern"),
                    format!(
                        "unknown {}pattern \"{}\"",
                        if w.tile { "tile " } else { "" },
                        w.pattern
                    ),
                ));
            }
            for (axis, v) in w.start.iter().enumerate() {
                check_range(&format!("{path}.start[{axis}]"), *v, -1e5, 1e5)?;
            }
            check_range(&format!("{path}.heading"), w.heading, -3600.0, 3600.0)?;
        }
        self.galaga.validate()
    }
}

impl Instruction {
    fn validate(&self, path: &str) -> Result<(), FieldError> {
        if self.turn_deg.is_none() && self.distance.is_none() {
            return Err(FieldError::new(
                path,
                "needs turn_deg or distance (when it ends)",
            ));
        }
        if let Some(t) = self.turn_deg {
            check_range(&format!("{path}.turn_deg"), t, 0.001, 3600.0)?;
            if self.steer == Steer::None && self.distance.is_none() {
                return Err(FieldError::new(
                    format!("{path}.turn_deg"),
                    "a turn limit with steer \"none\" never ends; add a distance",
                ));
            }
        }
        if let Some(d) = self.distance {
            check_range(&format!("{path}.distance"), d, 0.001, 1e5)?;
            if !self.thrust && self.turn_deg.is_none() {
                return Err(FieldError::new(
                    format!("{path}.distance"),
                    "a distance limit without thrust may never end; add thrust or turn_deg",
                ));
            }
        }
        Ok(())
    }
}

impl GalagaData {
    fn validate(&self) -> Result<(), FieldError> {
        check_positive("galaga.max_speed", self.max_speed)?;
        check_range("galaga.max_speed", self.max_speed, 1.0, 5000.0)?;
        check_range("galaga.home_turn_rate", self.home_turn_rate, 1.0, 100_000.0)?;
        let f = &self.formation;
        for (name, v) in [
            ("column_spacing", f.column_spacing),
            ("row_spacing", f.row_spacing),
            ("sway_period", f.sway_period),
            ("breathe_period", f.breathe_period),
        ] {
            check_positive(&format!("galaga.formation.{name}"), v)?;
        }
        check_range("galaga.formation.sway", f.sway, 0.0, 1000.0)?;
        check_range("galaga.formation.breathe", f.breathe, 0.0, 1.0)?;
        check_range("galaga.formation.top[0]", f.top[0], -1e5, 1e5)?;
        check_range("galaga.formation.top[1]", f.top[1], -1e5, 1e5)?;
        check_len("galaga.paths", self.paths.len())?;
        for (name, p) in &self.paths {
            let path = format!("galaga.paths.{name}");
            if let Some(start) = p.start {
                check_range(&format!("{path}.start[0]"), start[0], -1e5, 1e5)?;
                check_range(&format!("{path}.start[1]"), start[1], -1e5, 1e5)?;
            }
            if let Some(h) = p.heading {
                check_range(&format!("{path}.heading"), h, -3600.0, 3600.0)?;
            }
            check_nonempty(&format!("{path}.steps"), p.steps.len())?;
            check_len(&format!("{path}.steps"), p.steps.len())?;
            for (i, s) in p.steps.iter().enumerate() {
                let at = format!("{path}.steps[{i}]");
                match s {
                    Step::Fly { speed, turn, time } => {
                        self.check_speed(&format!("{at}.fly.speed"), *speed)?;
                        check_range(&format!("{at}.fly.turn"), *turn, -100_000.0, 100_000.0)?;
                        if !time.is_finite() || *time < 0.0 {
                            return Err(FieldError::new(
                                format!("{at}.fly.time"),
                                format!("must be a duration of 0 s or more, got {time}"),
                            ));
                        }
                        check_range(&format!("{at}.fly.time"), *time, 0.0, 3600.0)?;
                    }
                    Step::Until { speed, turn, y } => {
                        self.check_speed(&format!("{at}.until.speed"), *speed)?;
                        if *speed <= 0.0 {
                            return Err(FieldError::new(
                                format!("{at}.until.speed"),
                                "must be positive, or the height is never reached",
                            ));
                        }
                        check_range(&format!("{at}.until.turn"), *turn, -100_000.0, 100_000.0)?;
                        check_range(&format!("{at}.until.y"), *y, -1e5, 1e5)?;
                    }
                    Step::Jump(target) => {
                        if !self.paths.contains_key(target) {
                            return Err(FieldError::new(
                                format!("{at}.jump"),
                                format!("unknown path \"{target}\""),
                            ));
                        }
                    }
                    Step::Aim | Step::Home | Step::Wrap => {}
                }
            }
        }
        check_nonempty("galaga.waves", self.waves.len())?;
        check_len("galaga.waves", self.waves.len())?;
        let mut counts = BTreeMap::new();
        for (w, wave) in self.waves.iter().enumerate() {
            let at = format!("galaga.waves[{w}].pairs");
            check_nonempty(&at, wave.pairs.len())?;
            check_len(&at, wave.pairs.len())?;
            for (p, pair) in wave.pairs.iter().enumerate() {
                let pp = format!("{at}[{p}]");
                let path = self.paths.get(&pair.path).ok_or_else(|| {
                    FieldError::new(
                        format!("{pp}.path"),
                        format!("unknown path \"{}\"", pair.path),
                    )
                })?;
                if path.start.is_none() || path.heading.is_none() {
                    return Err(FieldError::new(
                        format!("{pp}.path"),
                        format!(
                            "path \"{}\" has no start and heading, so it cannot enter",
                            pair.path
                        ),
                    ));
                }
                for k in pair.kinds {
                    *counts.entry(k).or_insert(0usize) += 1;
                }
            }
        }
        for (kind, row) in FORMATION_ROWS
            .iter()
            .fold(BTreeMap::new(), |mut m, (k, n)| {
                *m.entry(*k).or_insert(0usize) += n;
                m
            })
        {
            let have = counts.get(&kind).copied().unwrap_or(0);
            if have > row {
                return Err(FieldError::new(
                    "galaga.waves",
                    format!("{have} {kind:?} ships but the formation has {row} slots for them"),
                ));
            }
        }
        let d = &self.dives;
        for (name, v) in [
            ("boss_every", d.boss_every),
            ("escort_every", d.escort_every),
            ("drone_every", d.drone_every),
        ] {
            check_range(&format!("galaga.dives.{name}"), v, 0.1, 3600.0)?;
        }
        check_range("galaga.dives.pair_interval", d.pair_interval, 0.0, 60.0)?;
        check_range("galaga.dives.wingman_delay", d.wingman_delay, 0.0, 10.0)?;
        if d.max_in_flight == 0 || d.max_in_flight > 40 {
            return Err(FieldError::new(
                "galaga.dives.max_in_flight",
                "must be 1…40",
            ));
        }
        if d.boss_escorts > 2 {
            return Err(FieldError::new("galaga.dives.boss_escorts", "at most 2"));
        }
        for (name, p) in [
            ("boss_path", &d.boss_path),
            ("escort_path", &d.escort_path),
            ("drone_path", &d.drone_path),
        ] {
            if !self.paths.contains_key(p) {
                return Err(FieldError::new(
                    format!("galaga.dives.{name}"),
                    format!("unknown path \"{p}\""),
                ));
            }
        }
        Ok(())
    }

    fn check_speed(&self, path: &str, v: f32) -> Result<(), FieldError> {
        check_range(path, v, 0.0, self.max_speed)
    }
}

fn check_nonempty(path: &str, len: usize) -> Result<(), FieldError> {
    if len == 0 {
        Err(FieldError::new(path, "must not be empty"))
    } else {
        Ok(())
    }
}

fn check_len(path: &str, len: usize) -> Result<(), FieldError> {
    if len > MAX_LIST {
        Err(FieldError::new(
            path,
            format!("at most {MAX_LIST} entries, got {len}"),
        ))
    } else {
        Ok(())
    }
}
