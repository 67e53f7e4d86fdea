//! `--record`: JSON Lines, the same in the window and `sim`. The first line, the header, says what
//! the run started from (version, seed, mode, flip, agents, player, a hash of each data file);
//! then one object per record line: the world's state after it, its events, and — to run it
//! again — the tick's input (`null` when the window was paused and no tick ran) and the commands
//! applied before it.

use crate::data::DataHashes;
use crate::data::classics::FormationShape;
use crate::data::combine::Method;
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::sim::command::{Command, TickInput};
use crate::sim::mode::Mode;
use crate::sim::path::Order;
use crate::sim::player::Script;
use crate::sim::world::World;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What the header's `record` field says, so a replay knows a record from any other JSON file.
pub const MAGIC: &str = "steering-arena";
/// The program's version, which a replay requires to be its own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The record's first line: everything that, with the data files, decides how a run starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub record: String,
    pub version: String,
    pub seed: u64,
    #[serde(with = "crate::sim::command::mode_name")]
    pub mode: Mode,
    pub flip: bool,
    /// The player leads the flock (`--lead`).
    pub lead: bool,
    pub agents: usize,
    #[serde(with = "crate::sim::command::script_name")]
    pub player: Script,
    /// The search `pathfind` starts with (`--algorithm`).
    #[serde(with = "crate::sim::command::order_name")]
    pub algorithm: Order,
    /// The crowd's scene and method at the start (`--scene`, `--avoid`; written only when
    /// not the defaults, so other runs' headers are as they were).
    #[serde(default, skip_serializing_if = "is_default")]
    pub scene: CrowdScene,
    #[serde(default, skip_serializing_if = "is_default")]
    pub avoid: Avoidance,
    /// The shape `formation` starts in (`--shape`; written when not the first, `wedge`).
    #[serde(default, skip_serializing_if = "is_first_shape")]
    pub shape: FormationShape,
    /// How the forces combine at the start (`--combine`; written only when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combine: Option<Method>,
    /// Data file name -> FNV-1a hash of its text (16 hex digits).
    pub data: BTreeMap<String, String>,
}

fn is_first_shape(shape: &FormationShape) -> bool {
    *shape == FormationShape::default()
}

impl Header {
    /// The header of a run starting from `world` (before its first tick) on data with `hashes`.
    pub fn of(world: &World, hashes: &DataHashes) -> Header {
        Header {
            record: MAGIC.to_string(),
            version: VERSION.to_string(),
            seed: world.config.seed,
            mode: world.mode,
            flip: world.flip,
            lead: world.lead,
            agents: world.agents.len(),
            player: world.config.script,
            algorithm: world.order(),
            scene: world.walking.scene,
            avoid: world.walking.method,
            shape: world.formation.shape,
            combine: world.combine,
            data: hash_map(hashes),
        }
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Hashes as the record writes them.
pub fn hash_map(hashes: &DataHashes) -> BTreeMap<String, String> {
    hashes
        .0
        .iter()
        .map(|(name, h)| (name.to_string(), format!("{h:016x}")))
        .collect()
}

#[derive(Serialize)]
struct Line<'a> {
    tick: u64,
    t: f64,
    mode: &'a str,
    paused: bool,
    player: Body,
    agents: Vec<AgentLine<'a>>,
    events: Vec<String>,
    input: Option<TickInput>,
    commands: Vec<Command>,
}

#[derive(Serialize)]
struct Body {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
}

#[derive(Serialize)]
struct AgentLine<'a> {
    id: u32,
    kind: &'a str,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    state: &'a str,
}

pub struct Recorder<W: Write> {
    out: W,
}

impl<W: Write> Recorder<W> {
    pub fn new(out: W) -> Self {
        Recorder { out }
    }

    /// Write the header line (first, before any tick).
    pub fn header(&mut self, world: &World, hashes: &DataHashes) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &Header::of(world, hashes))?;
        self.out.write_all(b"\n")
    }

    /// Write the world's current state with the events, input and commands gathered since the
    /// last line.
    pub fn write(&mut self, world: &mut World, paused: bool) -> io::Result<()> {
        write_line(&mut self.out, world, paused)
    }

    /// Write a line the caller has already made (with its newline).
    pub fn raw(&mut self, line: &[u8]) -> io::Result<()> {
        self.out.write_all(line)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// One record line (with its newline) for the world as it is; takes the world's events,
/// commands and tick input.
pub fn write_line(out: &mut impl Write, world: &mut World, paused: bool) -> io::Result<()> {
    let events = world.take_events();
    let input = world.ticked.take();
    let commands = std::mem::take(&mut world.commands);
    let line = Line {
        tick: world.tick,
        t: world.time(),
        mode: world.mode.name(),
        paused,
        player: Body {
            x: world.player.pos.x,
            y: world.player.pos.y,
            vx: world.player.vel.x,
            vy: world.player.vel.y,
        },
        agents: world
            .agents
            .iter()
            .map(|a| AgentLine {
                id: a.id,
                kind: a.behaviour.kind(),
                x: a.body.pos.x,
                y: a.body.pos.y,
                vx: a.body.vel.x,
                vy: a.body.vel.y,
                state: world.state_word(a),
            })
            .collect(),
        events,
        input,
        commands,
    };
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}
