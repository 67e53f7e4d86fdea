//! How a mode's several forces combine (`B`, `--combine`): the setting, as the command line,
//! the record and the mode table name it. The combining itself is `sim/behaviours/combine.rs`.

use serde::{Deserialize, Serialize};

/// How a mode's forces are put together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Weighted,
    Prioritised,
    Dithered,
}

impl Method {
    pub const ALL: [Method; 3] = [Method::Weighted, Method::Prioritised, Method::Dithered];

    pub fn name(self) -> &'static str {
        match self {
            Method::Weighted => "weighted",
            Method::Prioritised => "prioritised",
            Method::Dithered => "dithered",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The one `B` goes to next.
    pub fn next(self) -> Method {
        match self {
            Method::Weighted => Method::Prioritised,
            Method::Prioritised => Method::Dithered,
            Method::Dithered => Method::Weighted,
        }
    }
}
