//! What the window writes besides the settings folder: the `--record` file and screenshots. The
//! page in the browser has no files: there a screenshot says so instead of failing unseen.

use crate::sim::record::Recorder;
use crate::sim::world::World;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use super::view::View;

/// The `--record` file being written.
pub type RecordFile = Recorder<BufWriter<File>>;

/// The `--record` file, created (or the one-line reason it cannot be).
pub fn create_record(path: Option<&Path>) -> Result<Option<RecordFile>, String> {
    match path {
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| format!("{}: cannot write the record: {e}", path.display()))?;
            Ok(Some(Recorder::new(BufWriter::new(file))))
        }
        None => Ok(None),
    }
}

/// Write the tick just run to the record; a failure is shown and ends the record.
pub fn write_record(
    recorder: &mut Option<RecordFile>,
    world: &mut World,
    paused: bool,
    view: &mut View,
) {
    if let Some(r) = recorder.as_mut()
        && let Err(e) = r.write(world, paused).and_then(|_| r.flush())
    {
        view.error = Some(format!("record: {e}"));
        *recorder = None;
    }
}

/// Save what the window shows to `screenshots/shot-<unix time>-<n>.png`.
#[cfg(not(target_arch = "wasm32"))]
pub fn screenshot(n: u32) -> Result<String, String> {
    use macroquad::prelude::{screen_height, screen_width};
    if screen_width() < 1.0 || screen_height() < 1.0 {
        return Err("the window has no area".to_string());
    }
    std::fs::create_dir_all("screenshots").map_err(|e| format!("screenshots/: {e}"))?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let path = format!("screenshots/shot-{stamp}-{n}.png");
    // export_png panics on a write error, so prove the file can be written first.
    File::create(&path).map_err(|e| format!("{path}: {e}"))?;
    macroquad::texture::get_screen_data().export_png(&path);
    Ok(path)
}

/// The page writes no files: the reason, shown where the desktop names the file it wrote.
#[cfg(target_arch = "wasm32")]
pub fn screenshot(_n: u32) -> Result<String, String> {
    Err(crate::data::settings::no_folder_reason())
}
