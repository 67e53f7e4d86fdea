//! `sim --replay`'s check: a record streamed line by line through a [`Reader`], each line run and
//! compared with the line the run writes, and where the two first differ.

use super::read::{ReplayData, ReplayError, read_step, start};
use crate::sim::record::{self, Header};
use crate::sim::world::World;
use serde_json::Value;

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
