//! Data-file fuzzing: thousands of mutations of each built-in file (`arena.json`, `tuning.json`,
//! `patterns.json`) — truncation at every byte, random byte edits, every value replaced by a
//! wrong type or a huge, negative or non-finite number, removed fields, unknown fields,
//! duplicated keys, odd key names, deep nesting, non-UTF-8 bytes and empty files.
//!
//! For every input the loader must return (an error, or `Ok` for a harmless mutation) without
//! panicking — each parse runs under `catch_unwind`, so a panic names the input that caused it —
//! and within [`PARSE_BOUND`]. Every error is one line naming a place: the line and column (syntax
//! and type errors) or a field path starting with one of the file's own fields (invalid values);
//! loaded from a file, it starts with the file's path. Data that parses is run for a few ticks in
//! every mode, which must not panic either (of the structural mutations that parse, one in
//! [`SMOKE_SAMPLE`] in a plain `cargo test`; each one in the ignored full run, which CI runs).
//!
//! Last, the documented size limits are enforced with clear errors: `MAX_OBSTACLES` obstacles
//! (`data/arena.rs`), `MAX_LIST` entries in every list of the patterns file (`data/patterns.rs`)
//! and `MAX_SIDE` for the arena's sides. (The 20,000-agent limit is a command-line flag; it is
//! checked in `tests/cli_errors.rs`.)

mod common;

use ::rand::rngs::StdRng;
use ::rand::{Rng, SeedableRng};
use common::scratch;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use steering_arena::data::{DataSet, DataSources, arena, built_in, patterns, tuning};
use steering_arena::sim::mode::Mode;
use steering_arena::sim::world::{Input, World, WorldConfig};

/// A sanity bound on one parse — it catches a hang or a blow-up on some input; it is not a
/// benchmark (a parse of these files takes well under a millisecond).
const PARSE_BOUND: Duration = Duration::from_secs(1);
/// Random byte-level mutations per file.
const BYTE_MUTATIONS: usize = 2_000;
/// Ticks each mode runs on data that parsed.
const SMOKE_TICKS: usize = 10;
/// In the default run, one in this many structural mutations that parse runs in every mode
/// (the ignored full run runs each).
const SMOKE_SAMPLE: usize = 16;

// --- the three files -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Arena,
    Tuning,
    Patterns,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Arena, Kind::Tuning, Kind::Patterns];

    fn name(self) -> &'static str {
        match self {
            Kind::Arena => arena::FILE_NAME,
            Kind::Tuning => tuning::FILE_NAME,
            Kind::Patterns => patterns::FILE_NAME,
        }
    }

    fn built_in(self) -> &'static str {
        match self {
            Kind::Arena => arena::BUILT_IN,
            Kind::Tuning => tuning::BUILT_IN,
            Kind::Patterns => patterns::BUILT_IN,
        }
    }

    fn value(self) -> Value {
        serde_json::from_str(self.built_in()).expect("the built-in file is JSON")
    }

    /// The built-in data with this file replaced by `text`'s contents, or the parse error.
    fn parse(self, text: &str) -> Result<DataSet, String> {
        static BUILT_IN: OnceLock<DataSet> = OnceLock::new();
        let mut data = BUILT_IN.get_or_init(built_in).clone();
        match self {
            Kind::Arena => data.arena = arena::parse(text)?,
            Kind::Tuning => data.tuning = tuning::parse(text)?,
            Kind::Patterns => data.patterns = patterns::parse(text)?,
        }
        Ok(data)
    }

    /// The file's own top-level fields: a field path in an error starts with one of them.
    fn fields(self) -> &'static [String] {
        static FIELDS: OnceLock<[Vec<String>; 3]> = OnceLock::new();
        let fields = FIELDS.get_or_init(|| {
            Kind::ALL.map(|k| match k.value() {
                Value::Object(m) => m.keys().cloned().collect(),
                _ => unreachable!("every data file is an object"),
            })
        });
        &fields[self as usize]
    }
}

// --- checking one input --------------------------------------------------------------------------

/// Whether `message` carries "line L column C".
fn has_line_and_column(message: &str) -> bool {
    message.match_indices("line ").any(|(i, _)| {
        let rest = &message[i + 5..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && {
            let rest = &rest[digits..];
            rest.strip_prefix(" column ")
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        }
    })
}

/// Whether the message names where the problem is: a line and column, or a field path that
/// begins with one of the file's fields (`obstacles[2].radius: ...`).
fn names_a_place(kind: Kind, message: &str) -> bool {
    has_line_and_column(message)
        || kind.fields().iter().any(|f| {
            [": ", ".", "["]
                .iter()
                .any(|sep| message.starts_with(&format!("{f}{sep}")))
        })
}

/// A short, printable picture of an input for failure messages.
fn preview(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let shown: String = text.chars().take(160).collect();
    format!(
        "{} bytes: {shown:?}{}",
        bytes.len(),
        if text.chars().count() > 160 {
            "…"
        } else {
            ""
        }
    )
}

/// What the fuzzing saw: inputs, how many parsed, and every failure (so one run reports every
/// kind of problem, not only the first).
#[derive(Default)]
struct Tally {
    inputs: AtomicUsize,
    accepted: AtomicUsize,
    failures: Mutex<Vec<String>>,
    /// Of the inputs that parse, every this-many-th runs in every mode (0 or 1: each one).
    smoke_every: usize,
}

impl Tally {
    /// A tally whose inputs that parse run in every mode only one in `n` (the quick form of a
    /// long run: every input is still parsed and its error checked).
    fn smoking_one_in(n: usize) -> Tally {
        Tally {
            smoke_every: n,
            ..Tally::default()
        }
    }

    fn fail(&self, failure: String) {
        self.failures.lock().expect("not poisoned").push(failure);
    }

    /// Print the counts; fail with the first few failures if there were any.
    fn finish(&self, what: &str) {
        let inputs = self.inputs.load(Ordering::Relaxed);
        let accepted = self.accepted.load(Ordering::Relaxed);
        let failures = self.failures.lock().expect("not poisoned");
        println!(
            "{what}: {inputs} inputs, {accepted} accepted, {} rejected, {} failures",
            inputs - accepted,
            failures.len()
        );
        assert!(
            failures.is_empty(),
            "{what}: {} of {inputs} inputs failed; the first:\n  {}",
            failures.len(),
            failures
                .iter()
                .take(8)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }
}

/// Parse `text` as `kind`: no panic, within the bound, and a one-line error naming a place.
/// Data that parses runs a few ticks in every mode.
fn check_text(kind: Kind, text: &str, what: &str, tally: &Tally) {
    tally.inputs.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| kind.parse(text)));
    let took = started.elapsed();
    let input = || preview(text.as_bytes());
    let Ok(result) = result else {
        return tally.fail(format!("the parser panicked on {what}: {}", input()));
    };
    if took >= PARSE_BOUND {
        tally.fail(format!("parsing took {took:?} on {what}: {}", input()));
    }
    match result {
        Err(message) => {
            if message.trim().is_empty() || message.contains('\n') || message.contains('\r') {
                tally.fail(format!(
                    "not a one-line message on {what}: {message:?}; input {}",
                    input()
                ));
            } else if !names_a_place(kind, &message) {
                tally.fail(format!(
                    "no line/column or field path on {what}: {message:?}; input {}",
                    input()
                ));
            }
        }
        Ok(data) => {
            let n = tally.accepted.fetch_add(1, Ordering::Relaxed);
            if !n.is_multiple_of(tally.smoke_every.max(1)) {
                return;
            }
            if let Err(e) = smoke(&data) {
                tally.fail(format!("accepted data ({what}) {e}"));
            }
        }
    }
}

/// A few ticks of every mode on data that parsed: no panic, nothing non-finite. Many mutations
/// load to the same data (a field removed that defaults to the value it had, a key given twice
/// whose last value is the file's own), so each distinct data set runs once and its outcome is
/// kept (by its `Debug` text, which tells every value apart).
fn smoke(data: &DataSet) -> Result<(), String> {
    static OUTCOMES: OnceLock<Mutex<HashMap<String, Result<(), String>>>> = OnceLock::new();
    let outcomes = OUTCOMES.get_or_init(Mutex::default);
    let key = format!("{data:?}");
    if let Some(known) = outcomes.lock().expect("not poisoned").get(&key) {
        return known.clone();
    }
    let outcome = run_every_mode(data);
    outcomes
        .lock()
        .expect("not poisoned")
        .insert(key, outcome.clone());
    outcome
}

fn run_every_mode(data: &DataSet) -> Result<(), String> {
    for &mode in Mode::ALL {
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            let config = WorldConfig {
                mode,
                ..WorldConfig::default()
            };
            let mut world = World::new(data, config);
            for _ in 0..SMOKE_TICKS {
                world.tick(&Input::default());
            }
            world
                .agents
                .iter()
                .all(|a| a.body.pos.is_finite() && a.body.vel.is_finite())
        }));
        match ran {
            Ok(true) => {}
            Ok(false) => return Err(format!("gave non-finite agents in {mode}")),
            Err(_) => return Err(format!("panicked the world in {mode}")),
        }
    }
    Ok(())
}

// --- loading from a file -------------------------------------------------------------------------

/// Sources for all three files from `dir`, with `kind`'s at `path` and the other two the
/// built-in texts written out (so no `assets/` folder is consulted).
fn sources(dir: &Path, kind: Kind, path: &Path) -> DataSources {
    let file = |k: Kind| {
        if k == kind {
            path.to_path_buf()
        } else {
            let p = dir.join(format!("good-{}", k.name()));
            if !p.exists() {
                std::fs::write(&p, k.built_in()).expect("write a built-in copy");
            }
            p
        }
    };
    DataSources::resolve(
        Some(&file(Kind::Arena)),
        Some(&file(Kind::Tuning)),
        Some(&file(Kind::Patterns)),
    )
}

/// Load `bytes` from a file as `kind`: no panic, within the bound, and an error that is one
/// line starting with the file's path and then naming a place (or saying why it cannot be
/// read). Returns the message after the path, `None` when the file loaded.
fn check_file(dir: &Path, kind: Kind, bytes: &[u8], what: &str, tally: &Tally) -> Option<String> {
    tally.inputs.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(kind.name());
    std::fs::write(&path, bytes).expect("write the mutated file");
    let started = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| sources(dir, kind, &path).load()));
    let took = started.elapsed();
    let Ok(result) = result else {
        tally.fail(format!("loading panicked on {what}: {}", preview(bytes)));
        return None;
    };
    if took >= PARSE_BOUND {
        tally.fail(format!("loading took {took:?} on {what}"));
    }
    let e = match result {
        Ok(_) => {
            tally.accepted.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Err(e) => e.to_string(),
    };
    let prefix = format!("{}: ", path.display());
    match e.strip_prefix(&prefix) {
        _ if e.contains('\n') || e.contains('\r') => {
            tally.fail(format!("not one line on {what}: {e:?}"));
        }
        None => tally.fail(format!(
            "the error does not start with the file's path on {what}: {e:?}"
        )),
        Some(rest)
            if !names_a_place(kind, rest)
                && !rest.starts_with("not UTF-8 text")
                && !rest.starts_with("cannot read") =>
        {
            tally.fail(format!("the error names no place on {what}: {e:?}"));
        }
        Some(_) => {}
    }
    Some(e.strip_prefix(&prefix).unwrap_or(&e).to_string())
}

// --- structural mutations ------------------------------------------------------------------------

/// A place in a JSON document: the keys and indices from the root.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every node's path, the root included.
fn all_paths(v: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(at.clone());
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    at.push(Step::Key(k.clone()));
                    walk(child, at, out);
                    at.pop();
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    at.push(Step::Index(i));
                    walk(child, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

fn show(path: &[Step]) -> String {
    let mut s = String::from("$");
    for step in path {
        match step {
            Step::Key(k) => s.push_str(&format!(".{k}")),
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

fn node<'a>(v: &'a Value, path: &[Step]) -> &'a Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &v[k.as_str()],
        Step::Index(i) => &v[*i],
    })
}

fn node_mut<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// A marker put where raw text goes, so any text — not only a valid `Value` — can be spliced in.
const HOLE: &str = "\u{1}HOLE\u{1}";

/// The document with the node at `path` replaced by raw JSON `text`.
fn splice(doc: &Value, path: &[Step], text: &str) -> String {
    let mut v = doc.clone();
    *node_mut(&mut v, path) = Value::String(HOLE.to_string());
    let hole = serde_json::to_string(&Value::String(HOLE.to_string())).expect("a string");
    serde_json::to_string_pretty(&v)
        .expect("serializes")
        .replacen(&hole, text, 1)
}

/// Raw JSON texts that replace a value: wrong types, huge, negative, tiny, non-finite and
/// out-of-range numbers, and some that are not JSON at all.
fn replacements() -> Vec<(String, String)> {
    let deep_array = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_object = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    let raw = [
        ("null", "null"),
        ("true", "true"),
        ("a string", "\"text\""),
        ("an empty string", "\"\""),
        ("an empty array", "[]"),
        ("an empty object", "{}"),
        ("an array of strings", "[\"a\", \"b\"]"),
        ("zero", "0"),
        ("minus one", "-1"),
        ("minus zero", "-0.0"),
        ("a half", "0.5"),
        ("a huge number", "1e300"),
        ("a huge negative number", "-1e300"),
        ("beyond f32", "1e39"),
        ("f32::MAX", "3.4028235e38"),
        ("a subnormal", "1e-45"),
        ("beyond f64", "1e400"),
        ("u32::MAX + 1", "4294967296"),
        ("u64::MAX", "18446744073709551615"),
        ("u64::MAX + 1", "18446744073709551616"),
        ("i64::MIN - 1", "-9223372036854775809"),
        ("a number with 400 digits", &"9".repeat(400)),
        ("NaN", "NaN"),
        ("Infinity", "Infinity"),
        ("a hex number", "0x10"),
        ("a bare word", "square"),
    ];
    let mut out: Vec<(String, String)> = raw
        .iter()
        .map(|(what, text)| (what.to_string(), text.to_string()))
        .collect();
    out.push(("10,000 nested arrays".into(), deep_array));
    out.push(("10,000 nested objects".into(), deep_object));
    out.push(("10,000 unclosed arrays".into(), "[".repeat(10_000)));
    out
}

/// Every structural mutation of `kind`'s built-in file: (description, text).
fn structural_mutations(kind: Kind) -> Vec<(String, String)> {
    let doc = kind.value();
    let replacements = replacements();
    let mut out = Vec::new();
    for path in all_paths(&doc) {
        let at = show(&path);
        for (what, text) in &replacements {
            out.push((
                format!("{at} replaced by {what}"),
                splice(&doc, &path, text),
            ));
        }
        let node = node(&doc, &path);
        if let Some((last, parent)) = path.split_last() {
            // Removed.
            let mut v = doc.clone();
            match (node_mut(&mut v, parent), last) {
                (Value::Object(m), Step::Key(k)) => {
                    m.remove(k);
                }
                (Value::Array(a), Step::Index(i)) => {
                    a.remove(*i);
                }
                _ => unreachable!("a path steps into objects and arrays"),
            }
            out.push((format!("{at} removed"), v.to_string()));
        }
        match node {
            Value::Object(m) => {
                // An unknown field.
                let mut extra = m.clone();
                extra.insert("zz_unknown".into(), json!(1));
                out.push((
                    format!("{at} with an unknown field"),
                    splice(&doc, &path, &Value::Object(extra).to_string()),
                ));
                // Every key duplicated (the second copy with a different value).
                let fields: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
                    .collect();
                for (k, v) in m {
                    let text = format!(
                        "{{{},{}:{}}}",
                        fields.join(","),
                        Value::String(k.clone()),
                        if v.is_number() { json!(-5) } else { v.clone() }
                    );
                    out.push((
                        format!("{at} with \"{k}\" twice"),
                        splice(&doc, &path, &text),
                    ));
                }
                // Keys renamed to odd names: empty, a newline, a quote, non-ASCII, very long.
                for odd in [
                    "",
                    "line\nbreak",
                    "quote\"d",
                    "tab\t",
                    "ünïcödé",
                    &"k".repeat(5_000),
                ] {
                    for k in m.keys() {
                        let renamed: Map<String, Value> = m
                            .iter()
                            .map(|(key, v)| {
                                if key == k {
                                    (odd.to_string(), v.clone())
                                } else {
                                    (key.clone(), v.clone())
                                }
                            })
                            .collect();
                        out.push((
                            format!("{at} with \"{k}\" renamed to {odd:?}"),
                            splice(&doc, &path, &Value::Object(renamed).to_string()),
                        ));
                    }
                }
            }
            Value::Array(a) if !a.is_empty() => {
                // Many copies of the first element (lists past their limits).
                let many = Value::Array(vec![a[0].clone(); 300]);
                out.push((
                    format!("{at} with 300 copies of its first element"),
                    splice(&doc, &path, &many.to_string()),
                ));
            }
            _ => {}
        }
    }
    out
}

// --- byte-level mutations ------------------------------------------------------------------------

/// Tokens inserted by the random edits.
const TOKENS: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"", "\\", "-", "0", "1e999", "-1", "null", "true", " ", "\n",
    "\u{0}", "é", "\u{feff}", "//", "/*", "NaN", "\"x\":", "[[[[", "}}}}",
];

/// `text` with one to four random edits (deletions, insertions, replacements, duplications).
fn byte_mutation(rng: &mut StdRng, text: &[u8]) -> (String, Vec<u8>) {
    let mut bytes = text.to_vec();
    let mut what = Vec::new();
    for _ in 0..rng.gen_range(1..=4) {
        let len = bytes.len();
        let at = rng.gen_range(0..=len);
        match rng.gen_range(0..6) {
            0 if len > 0 => {
                let end = (at + rng.gen_range(1..=16)).min(len);
                what.push(format!("delete {at}..{end}"));
                bytes.drain(at.min(end)..end);
            }
            1 => {
                let t = TOKENS[rng.gen_range(0..TOKENS.len())];
                what.push(format!("insert {t:?} at {at}"));
                bytes.splice(at..at, t.bytes());
            }
            2 if at < len => {
                let b: u8 = rng.r#gen();
                what.push(format!("byte {at} = {b:#04x}"));
                bytes[at] = b;
            }
            3 if len > 0 => {
                let start = rng.gen_range(0..len);
                let end = (start + rng.gen_range(1..=64)).min(len);
                let copy = bytes[start..end].to_vec();
                what.push(format!("copy {start}..{end} to {at}"));
                bytes.splice(at..at, copy);
            }
            4 => {
                what.push(format!("truncate at {at}"));
                bytes.truncate(at);
            }
            _ => {
                // A digit run turned into a huge or negative number.
                if let Some(i) = bytes.iter().position(|b| b.is_ascii_digit()) {
                    let n = ["-", "999999999999", "1e38", "-0.000001"][rng.gen_range(0..4)];
                    what.push(format!("insert {n:?} before the first digit"));
                    bytes.splice(i..i, n.bytes());
                }
            }
        }
    }
    (what.join(", "), bytes)
}

// --- the tests -----------------------------------------------------------------------------------

#[test]
fn every_truncation_of_each_file_is_a_one_line_error_naming_a_place() {
    let tally = Tally::default();
    for kind in Kind::ALL {
        let text = kind.built_in();
        assert!(
            text.is_ascii(),
            "truncating at any byte keeps the text valid UTF-8"
        );
        let accepted_before = tally.accepted.load(Ordering::Relaxed);
        for end in 0..text.len() {
            check_text(
                kind,
                &text[..end],
                &format!("truncated to {end} bytes"),
                &tally,
            );
        }
        // Only the whole file, less trailing whitespace, parses.
        let whitespace = text.len() - text.trim_end().len();
        assert_eq!(
            tally.accepted.load(Ordering::Relaxed) - accepted_before,
            whitespace,
            "{}: truncations that parsed",
            kind.name()
        );
    }
    tally.finish("truncations of the three files");
}

/// Every structural mutation of the three files parsed and its error checked; of those that
/// parse, one in `smoke_one_in` runs in every mode.
fn structural_mutations_are_reported(smoke_one_in: usize) {
    let tally = Tally::smoking_one_in(smoke_one_in);
    for kind in Kind::ALL {
        let mutations = structural_mutations(kind);
        assert!(
            mutations.len() >= 1_000,
            "{}: {} mutations",
            kind.name(),
            mutations.len()
        );
        for (what, text) in &mutations {
            check_text(kind, text, &format!("{}: {what}", kind.name()), &tally);
        }
    }
    tally.finish("structural mutations of the three files");
}

#[test]
fn wrong_types_odd_numbers_unknown_and_duplicated_fields_and_deep_nesting_are_reported() {
    // About a thousand mutations parse; each runs every mode for a few ticks, about half a
    // second in a debug build. The default run tries one in SMOKE_SAMPLE of them.
    structural_mutations_are_reported(SMOKE_SAMPLE);
}

#[test]
#[ignore = "needs a long fuzz run: run with --include-ignored (CI does)"]
fn wrong_types_odd_numbers_unknown_and_duplicated_fields_and_deep_nesting_all_run_in_every_mode() {
    structural_mutations_are_reported(1);
}

#[test]
fn random_byte_edits_never_panic_and_report_one_line_naming_the_file_and_place() {
    let dir = scratch::folder("bytes");
    let mut rng = StdRng::seed_from_u64(8);
    let text_tally = Tally::default();
    let file_tally = Tally::default();
    for kind in Kind::ALL {
        for n in 0..BYTE_MUTATIONS {
            let (what, bytes) = byte_mutation(&mut rng, kind.built_in().as_bytes());
            let what = format!("{} edit {n}: {what}", kind.name());
            match std::str::from_utf8(&bytes) {
                Ok(text) => {
                    check_text(kind, text, &what, &text_tally);
                    // Every tenth also goes through a file: the same outcome, the path first.
                    if n % 10 == 0 {
                        check_file(&dir, kind, &bytes, &what, &file_tally);
                    }
                }
                Err(_) => {
                    let e = check_file(&dir, kind, &bytes, &what, &file_tally);
                    if !e
                        .as_deref()
                        .is_some_and(|e| e.starts_with("not UTF-8 text (byte "))
                    {
                        file_tally.fail(format!("{what}: not reported as non-UTF-8: {e:?}"));
                    }
                }
            }
        }
    }
    text_tally.finish("random edits of the three files");
    file_tally.finish("random edits loaded from a file");
}

#[test]
fn non_utf8_bytes_in_a_file_are_a_one_line_error_naming_the_file_and_byte() {
    let dir = scratch::folder("utf8");
    let tally = Tally::default();
    let bad: [(&str, &[u8]); 7] = [
        ("a lone 0xff", &[0xff]),
        ("a lone continuation byte", &[0x80]),
        ("an overlong NUL", &[0xc0, 0x80]),
        ("a UTF-16 surrogate", &[0xed, 0xa0, 0x80]),
        ("a cut-off euro sign", &[0xe2, 0x82]),
        ("Latin-1 é", &[0xe9]),
        ("a UTF-16 byte-order mark", &[0xff, 0xfe]),
    ];
    for kind in Kind::ALL {
        let text = kind.built_in().as_bytes();
        for (what, insert) in bad {
            for at in [
                0,
                1,
                text.len() / 3,
                text.len() / 2,
                text.len() - 1,
                text.len(),
            ] {
                let mut bytes = text.to_vec();
                bytes.splice(at..at, insert.iter().copied());
                let what = format!("{}: {what} at byte {at}", kind.name());
                let e = check_file(&dir, kind, &bytes, &what, &tally);
                let expected = format!("not UTF-8 text (byte {at})");
                if e.as_deref() != Some(expected.as_str()) {
                    tally.fail(format!("{what}: expected {expected:?}, got {e:?}"));
                }
            }
        }
    }
    tally.finish("non-UTF-8 files");
}

#[test]
fn empty_and_blank_files_are_a_one_line_error_naming_the_file_and_place() {
    let dir = scratch::folder("empty");
    let tally = Tally::default();
    for kind in Kind::ALL {
        for (what, bytes) in [
            ("an empty file", &b""[..]),
            ("a blank line", b"\n"),
            ("spaces", b"   \t  "),
            ("a byte-order mark only", "\u{feff}".as_bytes()),
            ("a NUL byte", b"\0"),
            ("null", b"null"),
            ("an empty object", b"{}"),
            ("an empty array", b"[]"),
        ] {
            let what = format!("{}: {what}", kind.name());
            if check_file(&dir, kind, bytes, &what, &tally).is_none() {
                tally.fail(format!("{what}: loaded"));
            }
            let text = std::str::from_utf8(bytes).expect("UTF-8");
            check_text(kind, text, &what, &tally);
        }
    }
    assert_eq!(
        tally.accepted.load(Ordering::Relaxed),
        0,
        "an empty file parsed"
    );
    tally.finish("empty and blank files");
}

// --- size limits ---------------------------------------------------------------------------------

/// A small circle obstacle inside the default arena, the `i`th of a grid of them.
fn circle(i: usize) -> Value {
    json!({ "shape": "circle", "x": 10 + (i % 100) * 12, "y": 10 + (i / 100) * 7, "radius": 2 })
}

#[test]
fn an_arena_may_hold_max_obstacles_and_one_more_is_a_clear_error() {
    let mut v = Kind::Arena.value();
    v["obstacles"] = Value::Array((0..arena::MAX_OBSTACLES).map(circle).collect());
    let started = Instant::now();
    let data = arena::parse(&v.to_string()).expect("MAX_OBSTACLES obstacles are allowed");
    assert_eq!(data.obstacles.len(), arena::MAX_OBSTACLES);
    v["obstacles"]
        .as_array_mut()
        .expect("an array")
        .push(circle(arena::MAX_OBSTACLES));
    let e = arena::parse(&v.to_string()).expect_err("one more is too many");
    assert_eq!(
        e,
        format!(
            "obstacles: at most {} obstacles, got {}",
            arena::MAX_OBSTACLES,
            arena::MAX_OBSTACLES + 1
        )
    );
    assert!(
        started.elapsed() < PARSE_BOUND * 2,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn arena_sides_beyond_max_side_are_a_clear_error() {
    for field in ["width", "height"] {
        let mut v = Kind::Arena.value();
        v[field] = json!(arena::MAX_SIDE + 1.0);
        let e = arena::parse(&v.to_string()).expect_err("too big");
        assert_eq!(e, format!("{field}: at most {} pixels", arena::MAX_SIDE));
    }
}

/// `list` with `n` copies of its first element.
fn grow(list: &mut Value, n: usize) {
    let first = list.as_array().expect("a list")[0].clone();
    *list = Value::Array(vec![first; n]);
}

/// `map` with `n` entries: its first entry under `name0`, `name1`, …
fn grow_map(map: &mut Value, n: usize) {
    let (_, first) = map
        .as_object()
        .expect("a map")
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
        .expect("not empty");
    let mut m = map.as_object().expect("a map").clone();
    let mut i = 0;
    while m.len() < n {
        m.insert(format!("extra{i}"), first.clone());
        i += 1;
    }
    *map = Value::Object(m);
}

/// Each list of the patterns file that `MAX_LIST` bounds, as (path in errors, how to grow it).
#[allow(clippy::type_complexity)]
fn patterns_lists() -> Vec<(&'static str, Box<dyn Fn(&mut Value, usize)>)> {
    vec![
        ("patterns", Box::new(|v, n| grow_map(&mut v["patterns"], n))),
        (
            "patterns.square",
            Box::new(|v, n| grow(&mut v["patterns"]["square"], n)),
        ),
        (
            "tile_patterns",
            Box::new(|v, n| grow_map(&mut v["tile_patterns"], n)),
        ),
        (
            "tile_patterns.box",
            Box::new(|v, n| grow(&mut v["tile_patterns"]["box"], n)),
        ),
        ("walkers", Box::new(|v, n| grow(&mut v["walkers"], n))),
        (
            "galaga.paths",
            Box::new(|v, n| grow_map(&mut v["galaga"]["paths"], n)),
        ),
        (
            "galaga.paths.top.steps",
            Box::new(|v, n| grow(&mut v["galaga"]["paths"]["top"]["steps"], n)),
        ),
        (
            "galaga.waves",
            Box::new(|v, n| {
                // Waves of one pair of drones each, so the formation's slots are not what fails.
                let wave = json!({ "pairs": [{ "path": "top", "kinds": ["drone", "drone"] }] });
                v["galaga"]["waves"] = Value::Array(vec![wave; n]);
            }),
        ),
        (
            "galaga.waves[0].pairs",
            Box::new(|v, n| grow(&mut v["galaga"]["waves"][0]["pairs"], n)),
        ),
    ]
}

#[test]
fn every_list_in_the_patterns_file_is_limited_to_max_list_with_a_clear_error() {
    let limit = patterns::MAX_LIST;
    let mut failures = Vec::new();
    for (path, grow) in patterns_lists() {
        let mut v = Kind::Patterns.value();
        grow(&mut v, limit + 1);
        match patterns::parse(&v.to_string()) {
            Ok(_) => failures.push(format!("{path}: {} entries accepted", limit + 1)),
            Err(e) => {
                let expected = format!("{path}: at most {limit} entries, got {}", limit + 1);
                if e != expected {
                    failures.push(format!("{path}: expected {expected:?}, got {e:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "MAX_LIST ({limit}) not enforced:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn lists_at_max_list_in_the_patterns_file_are_not_rejected_for_their_length() {
    let limit = patterns::MAX_LIST;
    for (path, grow) in patterns_lists() {
        let mut v = Kind::Patterns.value();
        grow(&mut v, limit);
        if let Err(e) = patterns::parse(&v.to_string()) {
            // At the limit, only the content may be at fault (too many ships for the
            // formation's slots), never the length.
            assert!(!e.contains("at most 256 entries"), "{path}: {e}");
        }
    }
}

// --- cases the fuzzing found ---------------------------------------------------------------------

/// A key or variant name with a line break (`"a\nb"` in JSON) reaches the error message — through
/// `data::from_json` from serde's message and field path, and through `FieldError`'s `Display`
/// from a pattern's or path's name. Control characters in it are escaped (`a\nb`), so the error
/// stays one line (and the command line prints one line on stderr).
#[test]
fn a_name_with_a_line_break_is_reported_on_one_line() {
    let mut arena = Kind::Arena.value();
    arena["line\nbreak"] = json!(1);
    let mut patterns = Kind::Patterns.value();
    patterns["patterns"]["bad\nname"] = json!([]);
    let mut steer = Kind::Patterns.value();
    steer["patterns"]["square"][0]["steer"] = json!("star\rboard");
    let mut failures = Vec::new();
    for (kind, v, what) in [
        (
            Kind::Arena,
            arena,
            "an unknown field named \"line\\nbreak\"",
        ),
        (
            Kind::Patterns,
            patterns,
            "an empty pattern named \"bad\\nname\"",
        ),
        (Kind::Patterns, steer, "a steer of \"star\\rboard\""),
    ] {
        match kind.parse(&v.to_string()) {
            Ok(_) => failures.push(format!("{what}: accepted")),
            Err(e) if e.contains('\n') || e.contains('\r') => {
                failures.push(format!("{what}: {e:?}"));
            }
            Err(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "messages on more than one line:\n  {}",
        failures.join("\n  ")
    );
}

/// `galaga.paths.<name>.start` and `.heading` are validated like every other number of a path.
/// Unchecked, a start of 1e39 — infinity as an f32 — would load and `sim --mode galaga` report
/// `"non_finite": true` (queued ships sit at the start); a heading of 1e39 would load and the
/// ships teleport (`max_step_ratio` 125 in a 20 s run).
#[test]
fn galaga_path_starts_and_headings_must_be_finite_and_in_range() {
    let doc = Kind::Patterns.value();
    let top = |rest: &[Step]| {
        let mut at = vec![
            Step::Key("galaga".into()),
            Step::Key("paths".into()),
            Step::Key("top".into()),
        ];
        at.extend_from_slice(rest);
        at
    };
    let start = |i| top(&[Step::Key("start".into()), Step::Index(i)]);
    let heading = top(&[Step::Key("heading".into())]);
    let mut failures = Vec::new();
    for (at, value) in [
        (start(0), "1e39"),
        (start(1), "-1e39"),
        (start(0), "1e30"),
        (heading.clone(), "1e39"),
        (heading, "1e30"),
    ] {
        let what = format!("{} = {value}", show(&at));
        match patterns::parse(&splice(&doc, &at, value)) {
            Ok(_) => failures.push(format!("{what}: accepted")),
            Err(e) if !e.starts_with("galaga.paths.top.") => failures.push(format!("{what}: {e}")),
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
