//! The user's settings folder (the platform's config directory, `~/.config/steering-arena/` on
//! Linux): where the window saves the tuning, arenas and best times, and where it looks for a
//! data file before `assets/` and the built-in copies. The program never writes into `assets/`.
//!
//! Only the window reads the folder. `sim` and `bench` read the files named by flags, then
//! `assets/`, then the built-in copies, so a command prints the same bytes on any machine with
//! the same repository, whatever anyone saved on it.

use super::{DataSources, MAX_DATA_FILE_BYTES, Source, arena, best, fsm, patterns, tuning};
use std::path::{Path, PathBuf};

/// Names another settings folder; set and empty, the window reads and writes no settings folder
/// at all (tests point it at a scratch folder so that nobody's saved files change them).
pub const ENV_VAR: &str = "STEERING_ARENA_CONFIG_DIR";

/// The folder with the data files the repository ships.
pub const ASSETS: &str = "assets";

/// The settings folder: [`ENV_VAR`] when set (none when it is empty), else the platform's config
/// directory for the program, if the platform has one (a user with no home folder has none).
pub fn folder() -> Option<PathBuf> {
    match std::env::var_os(ENV_VAR) {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => directories::ProjectDirs::from("", "", "steering-arena")
            .map(|dirs| dirs.config_dir().to_path_buf()),
    }
}

/// Why there is no settings folder, for the message that says nothing was saved.
pub fn no_folder_reason() -> String {
    if cfg!(target_arch = "wasm32") {
        "the page in the browser writes no files (the desktop program saves tunings, arenas, \
         best times and screenshots)"
            .to_string()
    } else if std::env::var_os(ENV_VAR).is_some() {
        format!("no settings folder ({ENV_VAR} is empty)")
    } else {
        "no settings folder (the platform names no config directory for this user)".to_string()
    }
}

/// The data files named on the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    pub arena: Option<PathBuf>,
    pub tuning: Option<PathBuf>,
    pub patterns: Option<PathBuf>,
    pub fsm: Option<PathBuf>,
}

impl Flags {
    /// Where `sim` and `bench` read: a flag's file, else `assets/<name>`, else the built-in copy.
    pub fn sources(&self) -> DataSources {
        DataSources::resolve(
            self.arena.as_deref(),
            self.tuning.as_deref(),
            self.patterns.as_deref(),
        )
        .with_fsm(self.fsm.as_deref())
    }

    /// Where the window reads: a flag's file, else `<settings>/<name>`, else `assets/<name>`,
    /// else the built-in copy. `arena` names the arena file when no flag does (`N` picks it).
    pub fn sources_in(&self, settings: Option<&Path>, arena: &str) -> DataSources {
        DataSources {
            arena: match &self.arena {
                Some(path) => Source::File(path.clone()),
                None => arena_source(settings, Path::new(ASSETS), arena),
            },
            tuning: find(self.tuning.as_deref(), settings, tuning::FILE_NAME),
            patterns: find(self.patterns.as_deref(), settings, patterns::FILE_NAME),
            fsm: find(self.fsm.as_deref(), settings, fsm::FILE_NAME),
        }
    }
}

/// A flag's file, else the settings folder's copy, else as [`Source::resolve`] finds it.
fn find(flag: Option<&Path>, settings: Option<&Path>, name: &'static str) -> Source {
    if flag.is_none()
        && let Some(path) = settings.map(|dir| dir.join(name))
        && path.is_file()
    {
        return Source::File(path);
    }
    Source::resolve(flag, name)
}

/// Arena file `name`: the settings folder's copy, else the one in `assets`, else the built-in
/// copy of that name (the default arena's when none has it).
pub fn arena_source(settings: Option<&Path>, assets: &Path, name: &str) -> Source {
    for dir in settings.into_iter().chain([assets]) {
        let path = dir.join(name);
        if path.is_file() {
            return Source::File(path);
        }
    }
    Source::BuiltIn(arena::built_in_named(name).map_or(arena::FILE_NAME, |(n, _)| n))
}

/// The data files that are not arenas: every other `.json` in `assets/` or the settings folder
/// is taken for one.
const NOT_ARENAS: [&str; 4] = [
    tuning::FILE_NAME,
    patterns::FILE_NAME,
    fsm::FILE_NAME,
    best::FILE_NAME,
];

/// Whether a file of this name is taken for an arena (a `.json` that no other data file is).
pub fn is_arena_name(name: &str) -> bool {
    name.ends_with(".json") && !NOT_ARENAS.contains(&name)
}

/// The arena files `N` steps through: every arena in `assets` (the built-in copies when it holds
/// none) and in the settings folder, smallest first (by area, then name; the default arena before
/// the maze, both before the large bench arenas); a file that does not read as an arena comes
/// last, so stepping onto it shows why.
pub fn arena_names(settings: Option<&Path>, assets: &Path) -> Vec<String> {
    let mut names: Vec<String> = json_names(assets)
        .into_iter()
        .filter(|n| is_arena_name(n))
        .collect();
    if names.is_empty() {
        names = arena::BUILT_INS
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
    }
    if let Some(dir) = settings {
        names.extend(json_names(dir).into_iter().filter(|n| is_arena_name(n)));
    }
    names.sort();
    names.dedup();
    let area = |name: &str| {
        arena_source(settings, assets, name)
            .read(arena::built_in_named(name).map_or(arena::BUILT_IN, |(_, text)| text))
            .ok()
            .and_then(|text| arena::parse(&text).ok())
            .map_or(f64::INFINITY, |a| f64::from(a.width) * f64::from(a.height))
    };
    let mut keyed: Vec<(f64, String)> = names.into_iter().map(|n| (area(&n), n)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, n)| n).collect()
}

/// The names of the `.json` files in `dir` (none when it cannot be read).
fn json_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect()
}

/// The name an arena is saved under in the settings folder: the file's own name when it is an
/// arena's, else the default arena's (an arena given as `--arena x/tuning.json` must not be
/// saved where the tuning is read from).
pub fn arena_save_name(source: &Source) -> String {
    let name = match source {
        Source::File(path) => path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(arena::FILE_NAME),
        Source::BuiltIn(name) => name,
    };
    if is_arena_name(name) {
        name.to_string()
    } else {
        arena::FILE_NAME.to_string()
    }
}

/// A data file's name as the HUD shows it: `maze.json` from `assets/`, `maze.json (saved)` from
/// the settings folder `settings`, `maze.json (built in)`, or the path a flag gave.
pub fn file_label(source: &Source, settings: Option<&Path>) -> String {
    match source {
        Source::File(path) => {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            if path.parent() == Some(Path::new(ASSETS)) {
                name
            } else if settings.is_some() && path.parent() == settings {
                format!("{name} (saved)")
            } else {
                path.display().to_string()
            }
        }
        Source::BuiltIn(name) => format!("{name} (built in)"),
    }
}

/// Write `text` as `<folder>/<name>` (creating the folder); the full path written, or the
/// one-line reason it could not be.
pub fn save(folder: Option<&Path>, name: &str, text: &str) -> Result<PathBuf, String> {
    let folder = folder.ok_or_else(no_folder_reason)?;
    let path = folder.join(name);
    if text.len() as u64 > MAX_DATA_FILE_BYTES {
        return Err(format!(
            "{}: larger than the limit of {}",
            path.display(),
            super::size_label(MAX_DATA_FILE_BYTES)
        ));
    }
    super::write_file(&path, text)
        .map_err(|e| format!("{}: cannot write: {}", path.display(), super::io_reason(&e)))?;
    Ok(path)
}

/// Move the saved data files (the tuning, every arena, and any patterns or machine file) aside
/// to `<name>.bak`, so the window reads the repository's copies again; the best times stay.
/// Returns the files moved, by their new paths.
pub fn restore_defaults(folder: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let folder = folder.ok_or_else(no_folder_reason)?;
    let mut moved = Vec::new();
    let mut names = json_names(folder);
    names.sort();
    for name in names.into_iter().filter(|n| n != best::FILE_NAME) {
        let from = folder.join(&name);
        let to = folder.join(format!("{name}.bak"));
        std::fs::rename(&from, &to).map_err(|e| {
            format!(
                "{}: cannot move aside: {}",
                from.display(),
                super::io_reason(&e)
            )
        })?;
        moved.push(to);
    }
    Ok(moved)
}
