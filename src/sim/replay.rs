//! Replay: run a record's ticks again from its header, its inputs and its commands, and check
//! every line the run writes against the line the record has. `sim --replay` streams a record
//! through [`Reader`]; the replay window holds one in a [`Replay`], which can also step back
//! (from the state kept every [`SNAPSHOT_EVERY`] lines, or from the start).
//!
//! Every fault — a record cut short, a line that is not JSON or misses a field or is longer than
//! [`MAX_LINE_BYTES`], a header from another version or other data files, a command the world
//! cannot take, a line the run does not reproduce — is a one-line [`ReplayError`] naming the file
//! and the line.

use crate::data::arena::MAX_OBSTACLES;
use crate::data::{
    DataHashes, DataSet, DataSources, excerpt, one_line, read_line_limited, size_label,
};
use crate::sim::command::{Command, TickInput};
use crate::sim::player::Script;
use crate::sim::record::{self, Header, MAGIC, VERSION};
use crate::sim::space::shape::Obstacle;
use crate::sim::world::{Input, World, WorldConfig};
use glam::Vec2;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::io::BufRead;

/// The replay window keeps the world's state every this many lines (five simulated seconds), so
/// a step back runs at most this many lines again.
pub const SNAPSHOT_EVERY: usize = 300;

/// The longest record line read (16 MiB, with its newline): a line of 20,000 agents is about
/// 2 MiB.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// A fault in a record: `rec.jsonl: line 12: ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayError {
    pub file: String,
    /// 1-based, the header being line 1.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: line {}: {}",
            one_line(&excerpt(&self.file)),
            self.line,
            one_line(&excerpt(&self.message))
        )
    }
}

impl std::error::Error for ReplayError {}

/// What a record line holds to run it again: the window's pause flag, the tick's input (`None`:
/// no tick ran) and the commands applied before it.
#[derive(Debug, Clone)]
pub struct Step {
    pub paused: bool,
    pub input: Option<TickInput>,
    pub commands: Vec<Command>,
}

#[derive(Deserialize)]
struct StepLine {
    paused: bool,
    #[serde(deserialize_with = "present")]
    input: Option<TickInput>,
    commands: Vec<Command>,
}

/// An `Option` field that must be there (as `null` or a value), not left out.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<TickInput>, D::Error> {
    Option::<TickInput>::deserialize(d)
}

impl Step {
    /// Run the line: apply its commands, then its tick (if one ran). A command the world cannot
    /// take (see [`check_command`]) stops the line there, with the command's field path.
    pub fn run(&self, world: &mut World) -> Result<(), String> {
        for (i, c) in self.commands.iter().enumerate() {
            check_command(c, world).map_err(|m| format!("commands[{i}].{m}"))?;
            world.apply(c.clone());
        }
        match self.input {
            Some(TickInput::Keys(d)) => {
                world.player.script = Script::Keys;
                world.tick(&Input { move_dir: d });
            }
            Some(TickInput::Script(s)) => {
                world.player.script = s;
                world.tick(&Input::default());
            }
            None => {}
        }
        Ok(())
    }
}

/// Whether `world` can take the command as it stands: an added obstacle must lie within the
/// arena grown by the arena's own width and height on each side (so its size and position stay
/// far from overflowing, whatever the record says), and the arena may hold at most
/// [`MAX_OBSTACLES`], as a file may. The error starts with the command's field path.
pub fn check_command(command: &Command, world: &World) -> Result<(), String> {
    let Command::AddObstacle(o) = command else {
        return Ok(());
    };
    let (field, lo, hi) = match *o {
        Obstacle::Circle { center, radius } => (
            "circle",
            center - Vec2::splat(radius),
            center + Vec2::splat(radius),
        ),
        Obstacle::Rect { min, max } => ("rect", min, max),
    };
    let size = world.arena.size();
    let (room_lo, room_hi) = (-size, size * 2.0);
    if !(lo.cmpge(room_lo).all() && hi.cmple(room_hi).all()) {
        return Err(format!(
            "add-obstacle.{field}: outside the arena grown by its own size on each side (x from \
             {} to {}, y from {} to {})",
            room_lo.x, room_hi.x, room_lo.y, room_hi.y
        ));
    }
    let held = world.arena.obstacles().len();
    if held >= MAX_OBSTACLES {
        return Err(format!(
            "add-obstacle: the arena holds {held} obstacles already, the most it may hold \
             ({MAX_OBSTACLES})"
        ));
    }
    Ok(())
}

/// Parse one JSON line into `T`, the message naming the field and the column.
fn parse_line<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let what = inner.to_string();
        let what = match what.rfind(" at line ") {
            Some(i) => what[..i].to_string(),
            None => what,
        };
        if inner.is_eof() {
            format!("cut short at column {}", inner.column())
        } else if path.is_empty() || path == "." || inner.is_syntax() {
            format!("column {}: {what}", inner.column())
        } else {
            format!("{path}: {what}")
        }
    })?;
    de.end()
        .map_err(|e| format!("column {}: trailing characters", e.column()))?;
    Ok(value)
}

/// The data a replay runs on: the files as the command line names them, loaded and hashed.
pub struct ReplayData {
    pub sources: DataSources,
    pub data: DataSet,
    pub hashes: DataHashes,
}

impl ReplayData {
    pub fn load(sources: DataSources) -> Result<ReplayData, String> {
        let (data, hashes) = sources.load_hashed().map_err(|e| e.to_string())?;
        Ok(ReplayData {
            sources,
            data,
            hashes,
        })
    }
}

/// Check the header line and build the world it starts from.
pub fn start(file: &str, text: &str, data: &ReplayData) -> Result<(Header, World), ReplayError> {
    let fail = |message: String| ReplayError {
        file: file.to_string(),
        line: 1,
        message,
    };
    if text.is_empty() {
        return Err(fail(
            "empty: a record starts with its header line".to_string(),
        ));
    }
    let Some(text) = text.strip_suffix('\n') else {
        return Err(fail("cut short: the header line has no end".to_string()));
    };
    let value: Value = parse_line(text).map_err(fail)?;
    if value.get("record").and_then(Value::as_str) != Some(MAGIC) {
        return Err(fail(format!(
            "not a {MAGIC} record: its first line is not a record header (`{{\"record\":\"{MAGIC}\",...}}`)"
        )));
    }
    let version = value.get("version").and_then(Value::as_str).unwrap_or("?");
    if version != VERSION {
        return Err(fail(format!(
            "made by {MAGIC} {version}; this is {VERSION}, which may run it differently (replay \
             it with {version})"
        )));
    }
    let header: Header = parse_line(text).map_err(fail)?;
    let ours = record::hash_map(&data.hashes);
    for (name, hash) in &header.data {
        match ours.get(name) {
            Some(h) if h == hash => {}
            Some(h) => {
                return Err(fail(format!(
                    "data.\"{name}\": made with another {name} (hash {hash}); this run reads {} \
                     (hash {h}): pass the file it was made with",
                    label(&data.sources, name)
                )));
            }
            None => return Err(fail(format!("data.\"{name}\": no such data file"))),
        }
    }
    if let Some(name) = ours.keys().find(|n| !header.data.contains_key(*n)) {
        return Err(fail(format!("data: {name} is missing")));
    }
    let config = WorldConfig {
        mode: header.mode,
        flip: header.flip,
        lead: header.lead,
        seed: header.seed,
        agents: Some(header.agents),
        script: header.player,
        order: header.algorithm,
        ..WorldConfig::default()
    };
    let mut world = World::new(&data.data, config);
    world.events.push(format!("mode:{}", world.mode.name()));
    Ok((header, world))
}

/// Where a data file (by its name in the header) is read from, for messages.
fn label(sources: &DataSources, name: &str) -> String {
    use crate::data::{arena, patterns, tuning};
    match name {
        arena::FILE_NAME => sources.arena.label(),
        tuning::FILE_NAME => sources.tuning.label(),
        patterns::FILE_NAME => sources.patterns.label(),
        _ => name.to_string(),
    }
}

/// Parse a record line (without its newline) into the step it runs. A reload reads the data
/// files again, which must be the ones the record was made with.
pub fn read_step(text: &str, data: &ReplayData) -> Result<Step, String> {
    let line: StepLine = parse_line(text)?;
    let mut commands = line.commands;
    for (i, c) in commands.iter_mut().enumerate() {
        if let Command::Reload(r) = c {
            let (fresh, hashes) = data.sources.load_hashed().map_err(|e| e.to_string())?;
            let ours = record::hash_map(&hashes);
            if ours != r.files {
                return Err(format!(
                    "commands[{i}].reload: the data files read again are not the ones F5 read \
                     when the record was made"
                ));
            }
            r.data = Some(Box::new(fresh));
        }
    }
    Ok(Step {
        paused: line.paused,
        input: line.input,
        commands,
    })
}

/// Where two lines first differ: the field path and both values.
pub fn difference(recorded: &str, replayed: &str) -> String {
    let (Ok(a), Ok(b)) = (
        serde_json::from_str::<Value>(recorded),
        serde_json::from_str::<Value>(replayed),
    ) else {
        return "the line differs from the replayed run".to_string();
    };
    let mut path = String::new();
    match first_difference(&a, &b, &mut path) {
        Some((x, y)) => format!(
            "the replayed run differs from the record at {}: the record has {}, the run {}",
            if path.is_empty() { "the line" } else { &path },
            excerpt_of(&x),
            excerpt_of(&y)
        ),
        None => "the line differs from the replayed run in its layout".to_string(),
    }
}

/// A value quoted in a message: a short excerpt of it (a fifth of what a message may hold).
fn excerpt_of(value: &str) -> String {
    let cut = crate::data::EXCERPT_CHARS / 5;
    if value.chars().count() <= cut {
        value.to_string()
    } else {
        let start: String = value.chars().take(cut).collect();
        format!("{start}…")
    }
}

fn first_difference(a: &Value, b: &Value, path: &mut String) -> Option<(String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, path) {
                            return Some(d);
                        }
                    }
                    None => return Some((va.to_string(), "nothing".to_string())),
                }
                path.truncate(len);
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                ("nothing".to_string(), y[k].to_string())
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if let Some(d) = first_difference(va, vb, path) {
                    return Some(d);
                }
                path.truncate(len);
            }
            (x.len() != y.len())
                .then(|| (format!("{} items", x.len()), format!("{} items", y.len())))
        }
        _ => (a != b).then(|| (a.to_string(), b.to_string())),
    }
}

/// Runs a record line by line, checking each against the line the run writes.
pub struct Reader<'a> {
    pub file: String,
    pub header: Header,
    pub world: World,
    data: &'a ReplayData,
    /// The record line last read (1 = the header).
    pub line: usize,
    /// The line the run wrote for the last step (with its newline).
    pub written: Vec<u8>,
}

impl<'a> Reader<'a> {
    /// Begin with the header line (with its newline).
    pub fn new(file: &str, header: &str, data: &'a ReplayData) -> Result<Reader<'a>, ReplayError> {
        let (header, world) = start(file, header, data)?;
        Ok(Reader {
            file: file.to_string(),
            header,
            world,
            data,
            line: 1,
            written: Vec::new(),
        })
    }

    fn fail(&self, message: String) -> ReplayError {
        ReplayError {
            file: self.file.clone(),
            line: self.line,
            message,
        }
    }

    /// Run the next record line (with its newline, as read); `written` then holds the run's line.
    /// Returns whether a tick ran.
    pub fn next(&mut self, text: &[u8]) -> Result<bool, ReplayError> {
        self.line += 1;
        let text = std::str::from_utf8(text)
            .map_err(|e| self.fail(format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
        let Some(body) = text.strip_suffix('\n') else {
            return Err(self.fail("cut short: the line has no end".to_string()));
        };
        let step = read_step(body, self.data).map_err(|m| self.fail(m))?;
        step.run(&mut self.world).map_err(|m| self.fail(m))?;
        self.written.clear();
        record::write_line(&mut self.written, &mut self.world, step.paused)
            .map_err(|e| self.fail(format!("cannot write the line: {e}")))?;
        if self.written != text.as_bytes() {
            let replayed = String::from_utf8_lossy(&self.written).into_owned();
            return Err(self.fail(difference(body, replayed.trim_end())));
        }
        Ok(step.input.is_some())
    }
}

/// A whole record held for the window: its steps, the run's state at any of them, and the state
/// kept every [`SNAPSHOT_EVERY`] lines for stepping back.
pub struct Replay {
    pub file: String,
    pub header: Header,
    steps: Vec<Step>,
    /// FNV-1a of each step's line as recorded (with its newline).
    hashes: Vec<u64>,
    /// `snapshots[k]`: the world after `k * SNAPSHOT_EVERY` steps (the start is `snapshots[0]`).
    snapshots: Vec<World>,
    pub world: World,
    /// Steps run: 0 is the start, `len()` the end.
    pub pos: usize,
    /// Steps below this were checked against the record once already.
    checked: usize,
    /// The record line of the state `world` is in (empty at the start).
    pub shown: Vec<u8>,
    /// The first fault: in the record, read up front (the replay ends before that line), or in
    /// the run, found while playing (the replay ends at that line).
    pub error: Option<ReplayError>,
}

impl Replay {
    /// Read a whole record held in memory (see [`Replay::read`]).
    pub fn open(file: &str, text: &[u8], data: &ReplayData) -> Result<Replay, ReplayError> {
        Replay::read(file, text, data)
    }

    /// Read a whole record, line by line, each at most [`MAX_LINE_BYTES`]. A bad header is an
    /// error; a bad line later ends the replay before it and is kept in `error`.
    pub fn read(
        file: &str,
        mut input: impl BufRead,
        data: &ReplayData,
    ) -> Result<Replay, ReplayError> {
        let mut raw = Vec::new();
        let fail_at = |line: usize, message: String| ReplayError {
            file: file.to_string(),
            line,
            message,
        };
        read_line(&mut input, &mut raw).map_err(|m| fail_at(1, m))?;
        let first = std::str::from_utf8(&raw)
            .map_err(|e| fail_at(1, format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
        let (header, world) = start(file, first, data)?;
        let mut steps = Vec::new();
        let mut hashes = Vec::new();
        let mut error = None;
        for i in 0.. {
            let fail = |message: String| fail_at(i + 2, message);
            match read_line(&mut input, &mut raw) {
                Ok(0) => break,
                Ok(_) => {}
                Err(m) => {
                    error = Some(fail(m));
                    break;
                }
            }
            let parsed = std::str::from_utf8(&raw)
                .map_err(|e| fail(format!("not UTF-8 text (byte {})", e.valid_up_to())))
                .and_then(|t| {
                    t.strip_suffix('\n')
                        .ok_or_else(|| fail("cut short: the line has no end".to_string()))
                })
                .and_then(|t| read_step(t, data).map_err(fail));
            match parsed {
                Ok(step) => {
                    steps.push(step);
                    hashes.push(crate::data::fnv1a64(&raw));
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        Ok(Replay {
            file: file.to_string(),
            header,
            steps,
            hashes,
            snapshots: vec![world.clone()],
            world,
            pos: 0,
            checked: 0,
            shown: Vec::new(),
            error,
        })
    }

    /// Steps the record holds (its lines after the header).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the step the world is at ran a tick while the window was paused.
    pub fn paused_here(&self) -> bool {
        self.pos > 0 && self.steps[self.pos - 1].paused
    }

    /// Run one step forward; false at the end.
    pub fn forward(&mut self) -> bool {
        if self.pos >= self.steps.len() {
            return false;
        }
        let step = &self.steps[self.pos];
        if let Err(message) = step.run(&mut self.world) {
            // A command the world cannot take: the replay ends before this line, and says so.
            self.error = Some(ReplayError {
                file: self.file.clone(),
                line: self.pos + 2,
                message,
            });
            self.steps.truncate(self.pos);
            // The world ran part of the refused line: back to the state before it.
            let here = self.pos;
            self.pos += 1;
            self.seek(here, usize::MAX);
            return false;
        }
        self.shown.clear();
        record::write_line(&mut self.shown, &mut self.world, step.paused)
            .expect("writing to memory cannot fail");
        if self.pos >= self.checked {
            if crate::data::fnv1a64(&self.shown) != self.hashes[self.pos] {
                // The run left the record here: the replay ends at this line, and says so.
                self.error = Some(ReplayError {
                    file: self.file.clone(),
                    line: self.pos + 2,
                    message: "the replayed run differs from the record here (`sim --replay` \
                              names the field)"
                        .to_string(),
                });
                self.steps.truncate(self.pos + 1);
            }
            self.checked = self.pos + 1;
        }
        self.pos += 1;
        if self.pos.is_multiple_of(SNAPSHOT_EVERY)
            && self.snapshots.len() == self.pos / SNAPSHOT_EVERY
        {
            let mut kept = self.world.clone();
            kept.forget_log();
            self.snapshots.push(kept);
        }
        true
    }

    /// Move towards step `target` (clamped to the record), running at most `budget` steps;
    /// true when there. Going back starts from the nearest kept state at or before `target`.
    pub fn seek(&mut self, target: usize, budget: usize) -> bool {
        let target = target.min(self.steps.len());
        if target < self.pos {
            // From a state strictly before the target (unless it is the start), so that the
            // last step run writes the line shown.
            let k = (target.saturating_sub(1) / SNAPSHOT_EVERY).min(self.snapshots.len() - 1);
            self.world = self.snapshots[k].clone();
            self.pos = k * SNAPSHOT_EVERY;
            self.shown.clear();
        }
        let mut left = budget;
        // (A refused line shortens the record: `forward` then says there is no more.)
        while self.pos < target && left > 0 && self.forward() {
            left -= 1;
        }
        self.pos == target.min(self.steps.len())
    }
}

/// Read one record line into `raw` (see [`read_line_limited`]); the error is the message.
pub fn read_line(input: &mut impl BufRead, raw: &mut Vec<u8>) -> Result<usize, String> {
    read_line_limited(input, raw, MAX_LINE_BYTES).map_err(|e| match e {
        Some(e) => format!("cannot read: {}", crate::data::io_reason(&e)),
        None => format!(
            "longer than the limit of {} a record line may have",
            size_label(MAX_LINE_BYTES as u64)
        ),
    })
}
