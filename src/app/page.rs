//! The arena as a web page (wasm32 only): the settings come from the page's address, the title
//! names the mode, and what the page cannot do (write files) is said on the screen. The three
//! functions imported here are the page's own, registered with macroquad's loader in
//! `web/index.html`.

use crate::app::AppConfig;
use crate::cli::Cli;
use crate::data::settings::{Flags, no_folder_reason};
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use clap::Parser;
use std::cell::Cell;

unsafe extern "C" {
    /// Bytes of the address's query (`?mode=flock&seed=7`), UTF-8.
    fn page_query_len() -> u32;
    /// Copy the query's bytes to `to` (`len` of them).
    fn page_query_read(to: *mut u8, len: u32);
    /// Set the document's title from UTF-8 bytes.
    fn page_title(text: *const u8, len: u32);
    /// miniquad's loader: a NUL-terminated line to the browser console's errors.
    fn console_error(text: *const std::ffi::c_char);
}

/// The loader asks every registered plugin for its version (its `name` + `_crate_version`).
#[unsafe(no_mangle)]
pub extern "C" fn steering_page_crate_version() -> u32 {
    1
}

thread_local! {
    /// The mode the title names now.
    static TITLED: Cell<Option<Mode>> = const { Cell::new(None) };
}

/// Read the address and run the arena in the page's canvas.
pub fn start() {
    let (cli, start_error) = match crate::page::settings(&query()) {
        Ok(cli) => (cli, None),
        Err(e) => (
            Cli::try_parse_from(["steering-arena"]).expect("no arguments is a valid command line"),
            Some(format!("{e} (running with the defaults)")),
        ),
    };
    let config = AppConfig {
        world: cli.common.world_config(Script::Keys),
        flags: Flags::default(),
        settings: None,
        record: None,
        quit_after: None,
        idle_seconds: cli.idle_seconds,
        start_error,
        start_status: Some(no_folder_reason()),
    };
    if let Err(e) = crate::app::run(config) {
        let line = std::ffi::CString::new(e.replace('\0', " ")).expect("NULs were replaced");
        // SAFETY: the loader reads the NUL-terminated string before this returns.
        unsafe { console_error(line.as_ptr()) };
    }
}

/// Name the mode in the page's title (`steering-arena: flock`) when it changed.
pub fn show_mode(mode: Mode) {
    if TITLED.with(|t| t.replace(Some(mode))) == Some(mode) {
        return;
    }
    let title = format!("steering-arena: {}", mode.name());
    // SAFETY: the loader reads `len` bytes from `title` before this returns.
    unsafe { page_title(title.as_ptr(), title.len() as u32) };
}

/// The address's query, or nothing when it is not UTF-8.
fn query() -> String {
    // SAFETY: the loader writes exactly `len` bytes into the buffer of that length.
    let bytes = unsafe {
        let len = page_query_len();
        let mut bytes = vec![0u8; len as usize];
        page_query_read(bytes.as_mut_ptr(), len);
        bytes
    };
    String::from_utf8(bytes).unwrap_or_default()
}
