//! What the window keeps in the settings folder (SPEC §8): the saved tuning and arenas, the arena
//! `N` picked, and each mode's best time survived and most tags. Nothing here writes into
//! `assets/`; every message names the full path it wrote.

use crate::data::arena::{self, ArenaData};
use crate::data::best::{self, Best};
use crate::data::settings::{self, Flags};
use crate::data::tuning::{self, Tuning};
use crate::data::{DataHashes, DataSet, DataSources, Source};
use crate::sim::world::World;
use std::path::{Path, PathBuf};

/// The window's data files and saves.
#[derive(Debug)]
pub struct Saves {
    /// The settings folder (none when the platform has none or the variable says so).
    pub folder: Option<PathBuf>,
    flags: Flags,
    /// The arena file `N` picked, by name, when no `--arena` flag is in force.
    arena: String,
    /// Where the data is read from now.
    pub sources: DataSources,
    best: Best,
    /// `best.json` could not be read: the bests are kept in memory only, so that the file is
    /// not written over before someone looks at it.
    best_unreadable: bool,
    /// A best was beaten since the file was last written.
    unsaved_best: bool,
}

impl Saves {
    /// The sources for `flags` and `folder`, and the best times read; the one-line error when
    /// `best.json` cannot be read.
    pub fn new(flags: Flags, folder: Option<PathBuf>) -> (Saves, Option<String>) {
        let arena = arena::FILE_NAME.to_string();
        let sources = flags.sources_in(folder.as_deref(), &arena);
        let (best, error) = match read_best(folder.as_deref()) {
            Ok(best) => (best, None),
            Err(e) => (Best::default(), Some(e)),
        };
        let saves = Saves {
            folder,
            flags,
            arena,
            sources,
            best,
            best_unreadable: error.is_some(),
            unsaved_best: false,
        };
        (saves, error)
    }

    /// Where `sim` would read: the flags' files, `assets/` and the built-in copies, without the
    /// settings folder (the window falls back on it when a saved file is broken).
    pub fn without_settings(&self) -> DataSources {
        self.flags.sources()
    }

    /// The data at start: the files if they are good; when a file saved in the settings folder
    /// is not, the files `sim` would read, with the one-line error naming the broken file; else
    /// the built-in copies.
    pub fn initial_data(&self) -> (DataSet, DataHashes, Option<String>) {
        match self.sources.load_hashed() {
            Ok((d, h)) => (d, h, None),
            Err(e) => match self.without_settings().load_hashed() {
                Ok((d, h)) => (
                    d,
                    h,
                    Some(format!(
                        "{e} (running without the settings folder's files; Ctrl+R sets them \
                         aside)"
                    )),
                ),
                Err(_) => (
                    crate::data::built_in(),
                    DataHashes::built_in(),
                    Some(format!("{e} (running the built-in data)")),
                ),
            },
        }
    }

    /// Where the tuning panel's Save writes.
    pub fn tuning_path(&self) -> Option<PathBuf> {
        self.folder.as_ref().map(|dir| dir.join(tuning::FILE_NAME))
    }

    fn resolve(&mut self) {
        self.sources = self.flags.sources_in(self.folder.as_deref(), &self.arena);
    }

    /// Save the tuning to the settings folder; the message to show.
    pub fn save_tuning(&mut self, t: &Tuning) -> String {
        let text = tuning::to_json(t) + "\n";
        let said = said(
            "the tuning",
            settings::save(self.folder.as_deref(), tuning::FILE_NAME, &text),
        );
        self.resolve();
        said
    }

    /// Save the arena (Ctrl+S) under its file's name in the settings folder; the message.
    pub fn save_arena(&mut self, data: &ArenaData) -> String {
        let name = settings::arena_save_name(&self.sources.arena);
        let text = arena::to_json(data) + "\n";
        let said = said(
            "the arena",
            settings::save(self.folder.as_deref(), &name, &text),
        );
        if self.flags.arena.is_none() {
            self.arena = name;
        }
        self.resolve();
        said
    }

    /// Step to the next arena file (`N`); the data sources now name it.
    pub fn next_arena(&mut self) {
        let names = settings::arena_names(self.folder.as_deref(), Path::new(settings::ASSETS));
        let current = match &self.flags.arena {
            Some(path) => path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string(),
            None => self.arena.clone(),
        };
        let next = match names.iter().position(|n| *n == current) {
            Some(i) => names[(i + 1) % names.len()].clone(),
            None => names
                .first()
                .cloned()
                .unwrap_or_else(|| arena::FILE_NAME.to_string()),
        };
        self.flags.arena = None;
        self.arena = next;
        self.resolve();
    }

    /// Ctrl+R: set the saved data files aside and read the repository's copies again (the
    /// flags' files stay); the message to show, or why nothing was restored.
    pub fn restore_defaults(&mut self) -> Result<String, String> {
        let moved = settings::restore_defaults(self.folder.as_deref())?;
        // An arena that was only ever in the settings folder is gone: back to the default one.
        if settings::arena_source(None, Path::new(settings::ASSETS), &self.arena)
            == Source::BuiltIn(arena::FILE_NAME)
            && self.arena != arena::FILE_NAME
        {
            self.arena = arena::FILE_NAME.to_string();
        }
        self.resolve();
        let folder = self
            .folder
            .as_deref()
            .map_or_else(String::new, |d| d.display().to_string());
        Ok(if moved.is_empty() {
            format!("defaults restored (nothing was saved in {folder})")
        } else {
            let names: Vec<String> = moved
                .iter()
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect();
            format!(
                "defaults restored; saved files set aside in {folder}: {}",
                names.join(", ")
            )
        })
    }

    /// Offer what the player has done in the running mode: a longer time survived or more tags
    /// than the mode's best become its best. Only a player at the keys sets a best.
    pub fn offer(&mut self, world: &World, playing: bool) {
        if playing {
            self.unsaved_best |=
                self.best
                    .offer(world.mode.name(), world.survived(), world.score.tags);
        }
    }

    /// Write the best times if one was beaten since they were last written; the message when
    /// they could not be.
    pub fn keep_best(&mut self) -> Option<String> {
        if !self.unsaved_best || self.best_unreadable || self.folder.is_none() {
            return None;
        }
        self.unsaved_best = false;
        let text = best::to_json(&self.best);
        settings::save(self.folder.as_deref(), best::FILE_NAME, &text)
            .err()
            .map(|e| format!("best times not kept: {e}"))
    }

    /// The arena file as the HUD names it.
    pub fn arena_label(&self) -> String {
        settings::file_label(&self.sources.arena, self.folder.as_deref())
    }

    /// The HUD's line: the running mode's best and the arena file.
    pub fn hud_line(&self, world: &World) -> String {
        let best = self.best.get(world.mode.name());
        let mut line = format!("best {:.1} s", best.survived_s);
        if best.tags > 0 || world.score.tags > 0 {
            line.push_str(&format!("   most tags {}", best.tags));
        }
        line.push_str(&format!("   arena {}", self.arena_label()));
        line
    }
}

/// `best.json` from the settings folder: none saved yet is no best; a file that cannot be read
/// is the one-line error naming it.
pub fn read_best(folder: Option<&Path>) -> Result<Best, String> {
    let Some(path) = folder.map(|dir| dir.join(best::FILE_NAME)) else {
        return Ok(Best::default());
    };
    if !path.exists() {
        return Ok(Best::default());
    }
    let source = Source::File(path);
    let text = source.read("").map_err(|e| e.to_string())?;
    best::parse(&text).map_err(|message| {
        crate::data::DataError {
            file: source.label(),
            message,
        }
        .to_string()
    })
}

fn said(what: &str, saved: Result<PathBuf, String>) -> String {
    match saved {
        Ok(path) => format!("saved {what} to {}", path.display()),
        Err(e) => format!("{what} not saved: {e}"),
    }
}
