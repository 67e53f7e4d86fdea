//! Replay: run a record's ticks again from its header, its inputs and its commands, and check
//! every line the run writes against the line the record has. `sim --replay` streams a record
//! through [`Reader`]; the replay window holds one in a [`Replay`], which can also step back
//! (from the state kept every [`SNAPSHOT_EVERY`] lines, or from the start).
//!
//! Every fault — a record cut short, a line that is not JSON or misses a field or is longer than
//! [`MAX_LINE_BYTES`], a header from another version or other data files, a command the world
//! cannot take, a line the run does not reproduce — is a one-line [`ReplayError`] naming the file
//! and the line.

mod check;
mod held;
mod read;
mod step;

pub use check::{Reader, difference};
pub use held::{Replay, SNAPSHOT_EVERY};
pub use read::{MAX_LINE_BYTES, ReplayData, ReplayError, read_line, read_step, start};
pub use step::{Step, check_command};
