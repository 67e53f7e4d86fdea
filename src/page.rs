//! The page's address as a command line: `?mode=flock&seed=7&agents=500` is read as
//! `steering-arena --mode flock --seed 7 --agents 500` by the desktop program's own parser, so a
//! setting means the same and a bad value gets the same reason in both. Only the settings that
//! make sense in a browser are taken: the page has no files, no `sim` and no `bench`.

use crate::cli::Cli;
use clap::Parser;

/// The settings an address may give, as the command line spells them.
pub const SETTINGS: &[&str] = &[
    "mode",
    "seed",
    "agents",
    "player",
    "algorithm",
    "evade-flip",
    "lead",
    "bodyguards",
    "idle-seconds",
    "scene",
    "avoid",
    "shape",
    "assign",
    "combine",
];

/// The settings that are switches: present (or `=1`, `=true`, `=yes`, `=on`) turns them on.
const SWITCHES: &[&str] = &["evade-flip", "lead", "bodyguards"];

/// The command line an address's query stands for (program name first); the one-line reason
/// when a part of it names no setting or a switch has a value that is neither on nor off.
pub fn arguments(query: &str) -> Result<Vec<String>, String> {
    let mut args = vec!["steering-arena".to_string()];
    let query = query.strip_prefix('?').unwrap_or(query);
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = match part.split_once('=') {
            Some((k, v)) => (decode(k)?, Some(decode(v)?)),
            None => (decode(part)?, None),
        };
        let key = key.trim().to_lowercase().replace('_', "-");
        if !SETTINGS.contains(&key.as_str()) {
            return Err(format!(
                "address: unknown setting \"{}\" (one of: {})",
                crate::data::excerpt(&key),
                SETTINGS.join(", ")
            ));
        }
        if SWITCHES.contains(&key.as_str()) {
            match value.as_deref().map(str::to_lowercase).as_deref() {
                None | Some("" | "1" | "true" | "yes" | "on") => args.push(format!("--{key}")),
                Some("0" | "false" | "no" | "off") => {}
                Some(other) => {
                    return Err(format!(
                        "address: {key}={} is neither on (1, true) nor off (0, false)",
                        crate::data::excerpt(other)
                    ));
                }
            }
        } else {
            // One argument, so that no value is ever read as a flag of its own.
            args.push(format!("--{key}={}", value.unwrap_or_default()));
        }
    }
    Ok(args)
}

/// The page's settings from its address's query, or the one-line reason it cannot be read.
pub fn settings(query: &str) -> Result<Cli, String> {
    let args = arguments(query)?;
    Cli::try_parse_from(args).map_err(|e| format!("address: {}", crate::cli::first_line(&e)))
}

/// Undo the address's escapes: `%XX` bytes and `+` for a space.
fn decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let byte = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        format!(
                            "address: \"{}\" has a % not followed by two hex digits",
                            crate::data::excerpt(s)
                        )
                    })?;
                out.push(byte);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| {
        format!(
            "address: \"{}\" is not UTF-8 once decoded",
            crate::data::excerpt(s)
        )
    })
}
