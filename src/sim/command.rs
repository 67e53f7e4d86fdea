//! Commands: every change to a running world besides the tick itself — what the window's keys,
//! mouse and tuning panel ask for, and what a replay reads back from a record. The window and
//! `sim` change the world only through `World::apply`, which also keeps the command for the
//! record, so a record holds everything needed to run the same ticks again.
//!
//! A new command is one variant here (its record form comes from serde, named in kebab-case)
//! and one arm in `apply`.

use crate::data::DataSet;
use crate::data::classics::FormationShape;
use crate::data::combine::Method;
use crate::data::tuning::SLIDERS;
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::sim::mode::Mode;
use crate::sim::path::Order;
use crate::sim::player::Script;
use crate::sim::space::shape::Obstacle;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One change to the world, as the record writes it (`{"mode":"wander"}`, `"reset"`,
/// `{"tune":["player.max_speed",312.5]}` ...).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Command {
    /// A mode key: the agents start again in the new mode (by name, so modes added later read
    /// back as they are written).
    Mode(#[serde(with = "mode_name")] Mode),
    /// `E`, `V` or `T`: the mode's alternate form on or off.
    Flip(bool),
    /// `T` in `flock`: the player leads the flock, or stops leading it.
    Lead(bool),
    /// `V` in `pathfind`: the search the chasers plan with (by name: `astar`, `dijkstra`,
    /// `best-first`).
    Search(#[serde(with = "order_name")] Order),
    /// `T` in `crowd`: the scene (the crowd starts again in it).
    Scene(CrowdScene),
    /// `V` in `crowd`: how the walkers keep clear.
    Avoid(Avoidance),
    /// `V` in `formation`: the shape (`wedge`, `line`, `column`, `ring`).
    Shape(FormationShape),
    /// A left-drag in `pathway`: the pathway drawn, its points in order (`[[x,y],...]`).
    DrawPathway(#[serde(with = "points")] Vec<Vec2>),
    /// A right click in `pathway`: the data's pathways again.
    RestorePathway,
    /// `B`: how the forces combine (`weighted`, `prioritised`, `dithered`).
    Combine(Method),
    /// `R`: back to the start, mode, flip and agent count kept.
    Reset,
    /// `+` / `-`: the crowd's new size.
    Agents(usize),
    /// A left click: an obstacle added.
    AddObstacle(#[serde(with = "obstacle")] Obstacle),
    /// A right click: the obstacle under this point removed, if there is one.
    RemoveObstacle(#[serde(with = "point")] Vec2),
    /// A tuning slider set to a value: its path and the full value (already within its range).
    Tune(SliderPath, f32),
    /// F5 with good files: the run restarts on the data read then.
    Reload(Reloaded),
    /// Something the window notes in the record without changing the simulation
    /// (`demo:on`, `screenshot:PATH`, `reload-error`): applying it adds the same event.
    Note(String),
}

/// The data F5 read: each file's hash (what the record keeps) and, while running, the data.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reloaded {
    /// File name -> FNV-1a hash of its text, in hex (as the record's header has them).
    pub files: BTreeMap<String, String>,
    /// The data itself. A record holds only the hashes: the replay reads the files again and
    /// attaches them after checking the hashes (see `sim::replay`).
    #[serde(skip)]
    pub data: Option<Box<DataSet>>,
}

impl Command {
    /// A tuning change by slider path, `None` when no slider has that path or the value is not a
    /// number. The value is clamped to the slider's range, as the panel shows it.
    pub fn tune(path: &str, value: f32) -> Option<Command> {
        let slider = SLIDERS.iter().find(|s| s.path == path)?;
        value
            .is_finite()
            .then(|| Command::Tune(SliderPath(slider.path), value.clamp(slider.min, slider.max)))
    }
}

/// One tick's input as the record writes it: the keys' direction when the keyboard drives the
/// player (`[1.0,0.0]`), else the script's name (`"flee"`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TickInput {
    Keys(Vec2),
    Script(Script),
}

impl Serialize for TickInput {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TickInput::Keys(d) => [d.x, d.y].serialize(s),
            TickInput::Script(script) => s.serialize_str(script.name()),
        }
    }
}

impl<'de> Deserialize<'de> for TickInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Keys([f32; 2]),
            Script(String),
        }
        match Wire::deserialize(d)? {
            Wire::Keys([x, y]) if x.is_finite() && y.is_finite() => {
                Ok(TickInput::Keys(Vec2::new(x, y)))
            }
            Wire::Keys(_) => Err(serde::de::Error::custom("a key direction out of range")),
            Wire::Script(name) => Script::parse(&name)
                .map(TickInput::Script)
                .map_err(serde::de::Error::custom),
        }
    }
}

pub(crate) mod mode_name {
    use crate::sim::mode::Mode;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &Mode, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(m.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Mode, D::Error> {
        let name = String::deserialize(d)?;
        Mode::parse(&name).map_err(serde::de::Error::custom)
    }
}

/// A tuning slider, by its path in the tuning file (`player.max_speed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliderPath(pub &'static str);

impl Serialize for SliderPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for SliderPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let path = String::deserialize(d)?;
        SLIDERS
            .iter()
            .find(|s| s.path == path)
            .map(|s| SliderPath(s.path))
            .ok_or_else(|| serde::de::Error::custom(format!("no tuning slider \"{path}\"")))
    }
}

/// Every coordinate finite, and every extent made from them too (a shape from -3e38 to 3e38 has
/// finite corners and an infinite width).
fn finite<E: serde::de::Error>(values: &[f32]) -> Result<(), E> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(E::custom("a coordinate out of range"))
    }
}

mod point {
    use glam::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(p: &Vec2, s: S) -> Result<S::Ok, S::Error> {
        [p.x, p.y].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        let [x, y] = <[f32; 2]>::deserialize(d)?;
        super::finite(&[x, y])?;
        Ok(Vec2::new(x, y))
    }
}

mod points {
    use glam::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(ps: &[Vec2], s: S) -> Result<S::Ok, S::Error> {
        let wire: Vec<[f32; 2]> = ps.iter().map(|p| [p.x, p.y]).collect();
        wire.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec2>, D::Error> {
        let wire = Vec::<[f32; 2]>::deserialize(d)?;
        wire.iter().try_for_each(|p| super::finite(p))?;
        Ok(wire.into_iter().map(Vec2::from).collect())
    }
}

mod obstacle {
    use crate::sim::space::shape::Obstacle;
    use glam::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// `{"circle":[x,y,radius]}` or `{"rect":[min_x,min_y,max_x,max_y]}`.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case", deny_unknown_fields)]
    enum Wire {
        Circle([f32; 3]),
        Rect([f32; 4]),
    }

    pub fn serialize<S: Serializer>(o: &Obstacle, s: S) -> Result<S::Ok, S::Error> {
        match *o {
            Obstacle::Circle { center, radius } => Wire::Circle([center.x, center.y, radius]),
            Obstacle::Rect { min, max } => Wire::Rect([min.x, min.y, max.x, max.y]),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Obstacle, D::Error> {
        match Wire::deserialize(d)? {
            Wire::Circle([x, y, r]) => {
                super::finite(&[x, y, r, x - r, x + r, y - r, y + r])?;
                if r <= 0.0 {
                    return Err(serde::de::Error::custom(
                        "a circle's radius must be positive",
                    ));
                }
                Ok(Obstacle::Circle {
                    center: Vec2::new(x, y),
                    radius: r,
                })
            }
            Wire::Rect([x0, y0, x1, y1]) => {
                super::finite(&[x0, y0, x1, y1, x1 - x0, y1 - y0])?;
                if x1 <= x0 || y1 <= y0 {
                    return Err(serde::de::Error::custom(
                        "a rectangle's max must exceed its min",
                    ));
                }
                Ok(Obstacle::Rect {
                    min: Vec2::new(x0, y0),
                    max: Vec2::new(x1, y1),
                })
            }
        }
    }
}

pub(crate) mod script_name {
    use crate::sim::player::Script;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Script, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Script, D::Error> {
        let name = String::deserialize(d)?;
        Script::parse(&name).map_err(serde::de::Error::custom)
    }
}

pub(crate) mod order_name {
    use crate::sim::path::Order;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(o: &Order, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(o.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Order, D::Error> {
        let name = String::deserialize(d)?;
        Order::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown algorithm \"{name}\"")))
    }
}
