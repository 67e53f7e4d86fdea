//! Data files: serde types for the arena and tuning files, a pure `parse(&str)` for each, validation
//! that names the field path, and the copies built into the binary.
//!
//! Reading a file is kept apart from parsing it so that tests (and the window's reload) can feed
//! text directly, and so every error carries the file name it came from.

pub mod arena;
pub mod best;
pub mod classics;
pub mod combine;
pub mod crowds;
pub mod fsm;
pub mod pathways;
pub mod patterns;
pub mod settings;
pub mod tuning;
pub mod walkers;

use serde::de::DeserializeOwned;
use std::fmt;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// The largest data file read (16 MiB): an arena of the most obstacles a file may hold, written
/// out one number a line, is under 4 MiB; anything past this is not a data file.
pub const MAX_DATA_FILE_BYTES: u64 = 16 << 20;

/// The most characters an error message has: whatever a file or an argument held, the message
/// quotes a short excerpt of it and stays one readable line.
pub const EXCERPT_CHARS: usize = 400;

/// One-line error for a data file: `file: message`, where the message carries the line and column
/// for syntax errors or the field path for invalid values.
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    pub file: String,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}",
            one_line(&excerpt(&self.file)),
            one_line(&excerpt(&self.message))
        )
    }
}

/// The text cut to about [`EXCERPT_CHARS`] characters: its start and its end (where a message
/// puts the field path and the position) with the length left out named between them.
pub fn excerpt(s: &str) -> std::borrow::Cow<'_, str> {
    let count = s.chars().count();
    if count <= EXCERPT_CHARS {
        return s.into();
    }
    let head = EXCERPT_CHARS * 3 / 4;
    let tail = EXCERPT_CHARS - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(count - tail).collect();
    format!(
        "{start} …({} characters left out)… {end}",
        count - head - tail
    )
    .into()
}

/// The text with control characters (line breaks above all) escaped, so an error that quotes a
/// file name, a key or a value is always one line.
pub fn one_line(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl std::error::Error for DataError {}

/// A value rejected by validation: the field path (`obstacles[2].radius`) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub path: String,
    pub message: String,
}

impl FieldError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}",
            one_line(&excerpt(&self.path)),
            one_line(&excerpt(&self.message))
        )
    }
}

/// Deserialize JSON text, reporting syntax errors as `line L column C: ...` and type errors with
/// the path of the offending field.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    read_json(text).map_err(|e| one_line(&excerpt(&e)))
}

fn read_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let what = strip_position(&inner.to_string());
        let at = format!("line {} column {}", inner.line(), inner.column());
        if path.is_empty() || path == "." || inner.is_syntax() || inner.is_eof() {
            format!("{at}: {what}")
        } else {
            format!("{path}: {what} ({at})")
        }
    })?;
    de.end().map_err(|e| {
        format!(
            "line {} column {}: trailing characters",
            e.line(),
            e.column()
        )
    })?;
    Ok(value)
}

/// serde_json appends " at line L column C" to its messages; we print the position ourselves.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Where a data file comes from: an explicit path (flag, or a file the window found in the
/// settings folder: see [`settings`]), `assets/<name>.json` when it exists, or the copy built into
/// the binary.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    File(PathBuf),
    BuiltIn(&'static str),
}

impl Source {
    /// The flag's path if given, else `assets/<name>` if present, else the built-in copy.
    pub fn resolve(flag: Option<&Path>, name: &'static str) -> Source {
        if let Some(path) = flag {
            return Source::File(path.to_path_buf());
        }
        let default = Path::new("assets").join(name);
        if default.is_file() {
            Source::File(default)
        } else {
            Source::BuiltIn(name)
        }
    }

    /// The name errors are reported under.
    pub fn label(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::BuiltIn(name) => format!("built-in {name}"),
        }
    }

    /// Read the text (built-in copies cannot fail).
    pub fn read(&self, builtin: &'static str) -> Result<String, DataError> {
        match self {
            Source::BuiltIn(_) => Ok(builtin.to_string()),
            Source::File(p) => {
                let bytes = read_limited(p, MAX_DATA_FILE_BYTES).map_err(|e| DataError {
                    file: self.label(),
                    message: e,
                })?;
                String::from_utf8(bytes).map_err(|e| DataError {
                    file: self.label(),
                    message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                })
            }
        }
    }
}

/// Read a whole file of at most `limit` bytes, never holding more than that: a device or a file
/// that keeps growing stops at the limit. The error is the reason (`cannot read: ...`, `larger
/// than ...`).
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than the limit of {}", size_label(limit)));
    }
    Ok(bytes)
}

/// Read one line (up to and with its `\n`, or to the end of the input) into `line`, which is
/// cleared first, holding at most `limit` bytes of it. Returns the bytes read (0 at the end), or
/// `Err(None)` when the line is longer than `limit`, `Err(Some(e))` when reading fails.
pub fn read_line_limited(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> Result<usize, Option<std::io::Error>> {
    line.clear();
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Some(e)),
        };
        if buf.is_empty() {
            return Ok(line.len());
        }
        let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + taken > limit {
            return Err(None);
        }
        line.extend_from_slice(&buf[..taken]);
        input.consume(taken);
        if done {
            return Ok(line.len());
        }
    }
}

/// A size in bytes as the limits are stated (`16 MiB`).
pub fn size_label(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Write a data file, creating its folder if needed.
pub fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

pub(crate) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// Every data file the program reads, loaded and validated together.
#[derive(Debug, Clone)]
pub struct DataSet {
    pub arena: arena::ArenaData,
    pub tuning: tuning::Tuning,
    pub patterns: patterns::PatternsData,
    /// The guards' state machine (the `fsm` mode).
    pub fsm: fsm::FsmData,
}

/// Where each data file comes from.
#[derive(Debug, Clone)]
pub struct DataSources {
    pub arena: Source,
    pub tuning: Source,
    pub patterns: Source,
    pub fsm: Source,
}

impl DataSources {
    pub fn resolve(arena: Option<&Path>, tuning: Option<&Path>, patterns: Option<&Path>) -> Self {
        DataSources {
            arena: Source::resolve(arena, arena::FILE_NAME),
            tuning: Source::resolve(tuning, tuning::FILE_NAME),
            patterns: Source::resolve(patterns, patterns::FILE_NAME),
            fsm: Source::resolve(None, fsm::FILE_NAME),
        }
    }

    /// The machine file from `path` (`--fsm`), else as [`Source::resolve`] finds it.
    pub fn with_fsm(mut self, path: Option<&Path>) -> Self {
        self.fsm = Source::resolve(path, fsm::FILE_NAME);
        self
    }

    pub fn load(&self) -> Result<DataSet, DataError> {
        self.load_hashed().map(|(data, _)| data)
    }

    /// Load every file and hash the text each was parsed from (a record names its data by
    /// these hashes, so a replay can tell whether it reads the same files).
    pub fn load_hashed(&self) -> Result<(DataSet, DataHashes), DataError> {
        let mut hashes = DataHashes::default();
        // (`N` may pick the built-in maze.)
        let arena_text = match &self.arena {
            Source::BuiltIn(name) => arena::built_in_named(name).map_or(arena::BUILT_IN, |a| a.1),
            Source::File(_) => arena::BUILT_IN,
        };
        let arena = load_with(
            &self.arena,
            arena::FILE_NAME,
            arena_text,
            arena::parse,
            &mut hashes,
        )?;
        let tuning = load_with(
            &self.tuning,
            tuning::FILE_NAME,
            tuning::BUILT_IN,
            tuning::parse,
            &mut hashes,
        )?;
        let patterns = load_with(
            &self.patterns,
            patterns::FILE_NAME,
            patterns::BUILT_IN,
            patterns::parse,
            &mut hashes,
        )?;
        // (Its routes are fitted to the arena when a world runs it: any arena file goes with
        // any machine file.)
        let fsm = load_with(
            &self.fsm,
            fsm::FILE_NAME,
            fsm::BUILT_IN,
            fsm::parse,
            &mut hashes,
        )?;
        let data = DataSet {
            arena,
            tuning,
            patterns,
            fsm,
        };
        Ok((data, hashes))
    }
}

/// Each data file's name (`arena.json`) and the FNV-1a hash of the text it was read from, in
/// load order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataHashes(pub Vec<(&'static str, u64)>);

impl DataHashes {
    /// The hashes of the copies built into the binary.
    pub fn built_in() -> DataHashes {
        DataHashes(vec![
            (arena::FILE_NAME, fnv1a64(arena::BUILT_IN.as_bytes())),
            (tuning::FILE_NAME, fnv1a64(tuning::BUILT_IN.as_bytes())),
            (patterns::FILE_NAME, fnv1a64(patterns::BUILT_IN.as_bytes())),
            (fsm::FILE_NAME, fnv1a64(fsm::BUILT_IN.as_bytes())),
        ])
    }
}

/// FNV-1a, 64 bits: small, stable across builds and platforms, and plenty to tell two versions
/// of a data file apart (it is not meant to resist someone forging a file).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The data built into the binary; always valid (a test checks it).
pub fn built_in() -> DataSet {
    DataSet {
        arena: arena::parse(arena::BUILT_IN).expect("built-in arena.json is valid"),
        tuning: tuning::parse(tuning::BUILT_IN).expect("built-in tuning.json is valid"),
        patterns: patterns::parse(patterns::BUILT_IN).expect("built-in patterns.json is valid"),
        fsm: fsm::built_in(),
    }
}

fn load_with<T>(
    source: &Source,
    name: &'static str,
    builtin: &'static str,
    parse: fn(&str) -> Result<T, String>,
    hashes: &mut DataHashes,
) -> Result<T, DataError> {
    let text = source.read(builtin)?;
    hashes.0.push((name, fnv1a64(text.as_bytes())));
    parse(&text).map_err(|message| DataError {
        file: source.label(),
        message,
    })
}

/// A finite number greater than zero.
pub(crate) fn check_positive(path: &str, v: f32) -> Result<(), FieldError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(FieldError::new(
            path,
            format!("must be a positive number, got {v}"),
        ))
    }
}

/// A finite number inside `[lo, hi]`.
pub(crate) fn check_range(path: &str, v: f32, lo: f32, hi: f32) -> Result<(), FieldError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(FieldError::new(
            path,
            format!("must be between {lo} and {hi}, got {v}"),
        ))
    }
}
