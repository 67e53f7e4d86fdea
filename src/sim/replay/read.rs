//! Reading a record: its lines bounded by [`MAX_LINE_BYTES`], the header checked against the
//! data files this run reads, each later line parsed into the [`Step`] it runs, and every fault a
//! [`ReplayError`] naming the file and the line.

use super::step::Step;
use crate::data::{
    DataHashes, DataSet, DataSources, excerpt, one_line, read_line_limited, size_label,
};
use crate::sim::command::{Command, TickInput};
use crate::sim::record::{self, Header, MAGIC, VERSION};
use crate::sim::world::{World, WorldConfig};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::io::BufRead;

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
        scene: header.scene,
        avoid: header.avoid,
        shape: header.shape,
        combine: header.combine,
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
