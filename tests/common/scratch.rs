//! Scratch folders for the tests that write files or run the binary away from `assets/`: one
//! folder a test, under Cargo's scratch space for integration tests, grouped by test file.

use std::path::{Path, PathBuf};

/// A fresh, empty folder `name` for one test (emptied if a run before left it behind).
pub fn folder(name: &str) -> PathBuf {
    // The crate being compiled is the test file including this module: its folders stay apart
    // from another file's tests of the same name.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(env!("CARGO_CRATE_NAME"))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// `text` written to `dir/name`; the file's path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}
