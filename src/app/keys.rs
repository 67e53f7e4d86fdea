//! The key table: the one source for input handling and the help overlay. Input is captured into a
//! plain value each frame; the rest of the window reads that value, never a `KeyCode`.

use crate::sim::mode::{Bank, Key, Mode};
use glam::Vec2;
use macroquad::input::{
    KeyCode, MouseButton, get_last_key_pressed, is_key_down, is_key_pressed, is_key_released,
    is_mouse_button_down, is_mouse_button_pressed, mouse_position,
};
use std::sync::LazyLock;

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Held: move the player this way.
    Move(Vec2),
    Mode(Mode),
    /// `E`, `V` or `T`: the current mode's alternate form, if that is its key.
    Alternate(char),
    Overlay,
    /// The time-to-catch chart.
    Chart,
    /// `Y`: heading smoothing.
    Smooth,
    /// `B`: how the forces combine, the next way.
    Combine,
    Grid,
    Tuning,
    Pause,
    Step,
    Slower,
    Faster,
    MoreAgents,
    FewerAgents,
    Reset,
    Reload,
    Screenshot,
    /// Mouse: at the cursor.
    AddObstacle,
    RemoveObstacle,
    /// Ctrl+S.
    SaveArena,
    /// The next arena file.
    NextArena,
    /// Ctrl+R: set the saved tuning and arenas aside and read the defaults again.
    RestoreDefaults,
    Help,
    Quit,
}

#[derive(Clone, Copy)]
pub struct Binding {
    pub keys: &'static [KeyCode],
    /// How the help overlay names the keys.
    pub label: &'static str,
    pub action: Action,
    pub help: &'static str,
}

const UP: Vec2 = Vec2::new(0.0, -1.0);
const DOWN: Vec2 = Vec2::new(0.0, 1.0);
const LEFT: Vec2 = Vec2::new(-1.0, 0.0);
const RIGHT: Vec2 = Vec2::new(1.0, 0.0);

/// The movement rows, first in the table.
const MOVES: &[Binding] = &[
    Binding {
        keys: &[KeyCode::W, KeyCode::Up],
        label: "W / Up",
        action: Action::Move(UP),
        help: "move up",
    },
    Binding {
        keys: &[KeyCode::A, KeyCode::Left],
        label: "A / Left",
        action: Action::Move(LEFT),
        help: "move left",
    },
    Binding {
        keys: &[KeyCode::S, KeyCode::Down],
        label: "S / Down",
        action: Action::Move(DOWN),
        help: "move down",
    },
    Binding {
        keys: &[KeyCode::D, KeyCode::Right],
        label: "D / Right",
        action: Action::Move(RIGHT),
        help: "move right",
    },
];

/// The rows after the modes'.
const COMMANDS: &[Binding] = &[
    Binding {
        keys: &[KeyCode::E],
        label: "E",
        action: Action::Alternate('E'),
        help: "modes 1-4: reverse (chase becomes evade); flock: predator",
    },
    Binding {
        keys: &[KeyCode::V],
        label: "V",
        action: Action::Alternate('V'),
        help: "mode 6: circle / waypoint wander; Shift+3: next search; flock: the book's views; swarm: the book's numbers; crowd: method; formation: shape",
    },
    Binding {
        keys: &[KeyCode::T],
        label: "T",
        action: Action::Alternate('T'),
        help: "mode 7: wander / chase you through obstacles; flock: lead; hide: bodyguards; crowd: scene; formation: fixed slots",
    },
    Binding {
        keys: &[KeyCode::B],
        label: "B",
        action: Action::Combine,
        help: "avoid, flock, crowd, hide, formation, pathway: forces combine weighted / prioritised / dithered",
    },
    Binding {
        keys: &[KeyCode::Tab],
        label: "Tab",
        action: Action::Overlay,
        help: "debug overlay: velocity, steering force, line of sight, states",
    },
    Binding {
        keys: &[KeyCode::C],
        label: "C",
        action: Action::Chart,
        help: "time-to-catch chart per chaser kind",
    },
    Binding {
        keys: &[KeyCode::Y],
        label: "Y",
        action: Action::Smooth,
        help: super::smooth::HELP,
    },
    Binding {
        keys: &[KeyCode::G],
        label: "G",
        action: Action::Grid,
        help: "tile grid on/off",
    },
    Binding {
        keys: &[KeyCode::U],
        label: "U",
        action: Action::Tuning,
        help: "tuning panel (sliders; Save keeps them in the settings folder)",
    },
    Binding {
        keys: &[KeyCode::Space, KeyCode::P],
        label: "Space / P",
        action: Action::Pause,
        help: "pause / resume",
    },
    Binding {
        keys: &[KeyCode::Period],
        label: ".",
        action: Action::Step,
        help: "one tick while paused",
    },
    Binding {
        keys: &[KeyCode::LeftBracket],
        label: "[",
        action: Action::Slower,
        help: "slower time (down to 0.25x)",
    },
    Binding {
        keys: &[KeyCode::RightBracket],
        label: "]",
        action: Action::Faster,
        help: "faster time (up to 4x)",
    },
    Binding {
        keys: &[KeyCode::Equal, KeyCode::KpAdd],
        label: "+",
        action: Action::MoreAgents,
        help: "more agents",
    },
    Binding {
        keys: &[KeyCode::Minus, KeyCode::KpSubtract],
        label: "-",
        action: Action::FewerAgents,
        help: "fewer agents",
    },
    Binding {
        keys: &[KeyCode::R],
        label: "R",
        action: Action::Reset,
        help: "reset the mode (same seed, same start)",
    },
    Binding {
        keys: &[KeyCode::F5],
        label: "F5",
        action: Action::Reload,
        help: "reload the data files (a bad file keeps the running data)",
    },
    Binding {
        keys: &[],
        label: "left click",
        action: Action::AddObstacle,
        help: "add a circular obstacle (pathway: drag to draw a new pathway)",
    },
    Binding {
        keys: &[],
        label: "right click",
        action: Action::RemoveObstacle,
        help: "remove the obstacle under the cursor (pathway: the data's pathways again)",
    },
    Binding {
        keys: &[KeyCode::S],
        label: "Ctrl+S",
        action: Action::SaveArena,
        help: "save the arena (obstacles included) to the settings folder",
    },
    Binding {
        keys: &[KeyCode::N],
        label: "N",
        action: Action::NextArena,
        help: "next arena: assets/ and saved ones, the maze among them",
    },
    Binding {
        keys: &[KeyCode::R],
        label: "Ctrl+R",
        action: Action::RestoreDefaults,
        help: "restore the defaults (saved tuning and arenas set aside)",
    },
    Binding {
        keys: &[KeyCode::F12],
        label: "F12",
        action: Action::Screenshot,
        help: "screenshot to screenshots/",
    },
    Binding {
        keys: &[KeyCode::H, KeyCode::F1],
        label: "H / F1",
        action: Action::Help,
        help: "this help",
    },
    Binding {
        keys: &[KeyCode::Escape],
        label: "Esc",
        action: Action::Quit,
        help: "quit",
    },
];

/// The whole table in the help overlay's order: moving, the modes in key order (each row from
/// the mode's own entry, [`Mode::info`]), then the commands.
pub static BINDINGS: LazyLock<Vec<Binding>> = LazyLock::new(|| {
    let modes = Mode::ALL.iter().map(|&m| mode_row(m));
    MOVES
        .iter()
        .copied()
        .chain(modes)
        .chain(COMMANDS.iter().copied())
        .collect()
});

/// The number keys, top row and keypad, by digit.
static DIGIT_KEYS: [[KeyCode; 2]; 10] = [
    [KeyCode::Key0, KeyCode::Kp0],
    [KeyCode::Key1, KeyCode::Kp1],
    [KeyCode::Key2, KeyCode::Kp2],
    [KeyCode::Key3, KeyCode::Kp3],
    [KeyCode::Key4, KeyCode::Kp4],
    [KeyCode::Key5, KeyCode::Kp5],
    [KeyCode::Key6, KeyCode::Kp6],
    [KeyCode::Key7, KeyCode::Kp7],
    [KeyCode::Key8, KeyCode::Kp8],
    [KeyCode::Key9, KeyCode::Kp9],
];
static DIGIT_LABELS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
static SHIFT_LABELS: [&str; 10] = [
    "Shift+0", "Shift+1", "Shift+2", "Shift+3", "Shift+4", "Shift+5", "Shift+6", "Shift+7",
    "Shift+8", "Shift+9",
];

/// A mode's row: its digit's keys, labelled with its bank.
fn mode_row(mode: Mode) -> Binding {
    let Key { bank, digit } = mode.info().key;
    let d = usize::from(digit);
    Binding {
        keys: &DIGIT_KEYS[d],
        label: match bank {
            Bank::First => DIGIT_LABELS[d],
            Bank::Second => SHIFT_LABELS[d],
        },
        action: Action::Mode(mode),
        help: mode.help(),
    }
}

thread_local! {
    /// Whether Ctrl and Shift have each fired their chord since they last went down.
    static SPENT: std::cell::Cell<[bool; 2]> = const { std::cell::Cell::new([false; 2]) };
}

/// One frame's input.
#[derive(Debug, Clone, Default)]
pub struct FrameInput {
    /// Actions whose key went down this frame, in table order.
    pub actions: Vec<Action>,
    /// Where the mouse is, in window pixels (for the obstacle actions).
    pub mouse: Vec2,
    /// Sum of the held movement keys (not normalised).
    pub move_dir: Vec2,
    /// Whether any key is down (for attract mode and idle detection).
    pub any_key: bool,
    /// Whether the left button is held (a drag drawing a pathway).
    pub left_held: bool,
}

/// Read the keyboard and mouse through the table. `ui_has_mouse`: the tuning panel is under the
/// cursor, so clicks belong to it.
pub fn capture(ui_has_mouse: bool) -> FrameInput {
    // A Ctrl or Shift tapped together with a letter or digit may be down no longer when the
    // frame reads the keys: pressed in this frame, or let go in it (down at the letter's press,
    // when the frame before saw it go down), it still counts.
    // A modifier let go after its chord has already fired is spent: the letter that arrives in
    // the same frame as its release is a key of its own (Ctrl+S, then N at once, is N).
    const CTRL: [KeyCode; 2] = [KeyCode::LeftControl, KeyCode::RightControl];
    const SHIFT: [KeyCode; 2] = [KeyCode::LeftShift, KeyCode::RightShift];
    let mut spent = SPENT.get();
    let held = |keys: [KeyCode; 2], spent: &mut bool| {
        if keys.iter().any(|&k| is_key_pressed(k)) {
            *spent = false;
        }
        keys.iter()
            .any(|&k| is_key_down(k) || is_key_pressed(k) || (is_key_released(k) && !*spent))
    };
    let ctrl = held(CTRL, &mut spent[0]);
    let shift = held(SHIFT, &mut spent[1]);
    let (mx, my) = mouse_position();
    let mut input = FrameInput {
        mouse: Vec2::new(mx, my),
        left_held: is_mouse_button_down(MouseButton::Left),
        ..FrameInput::default()
    };
    for b in BINDINGS.iter() {
        let pressed = || b.keys.iter().any(|&k| is_key_pressed(k));
        let fired = match b.action {
            Action::Move(dir) => {
                // Ctrl+S is a save, not a step down.
                if !ctrl && b.keys.iter().any(|&k| is_key_down(k)) {
                    input.move_dir += dir;
                    input.any_key = true;
                }
                false
            }
            Action::SaveArena | Action::RestoreDefaults => ctrl && pressed(),
            // A digit selects the first bank's mode; with Shift, the second bank's.
            Action::Mode(m) => !ctrl && shift == m.shifted() && pressed(),
            Action::AddObstacle => !ui_has_mouse && is_mouse_button_pressed(MouseButton::Left),
            Action::RemoveObstacle => !ui_has_mouse && is_mouse_button_pressed(MouseButton::Right),
            _ => !ctrl && pressed(),
        };
        if fired {
            match b.action {
                Action::SaveArena | Action::RestoreDefaults => spent[0] = true,
                Action::Mode(m) if m.shifted() => spent[1] = true,
                _ => {}
            }
            input.actions.push(b.action);
            input.any_key = true;
        }
    }
    SPENT.set(spent);
    // Attract mode ends on any key at all, bound or not, however briefly tapped (a press and
    // release inside one frame still counts as pressed), and on a click.
    input.any_key |= get_last_key_pressed().is_some()
        || is_mouse_button_pressed(MouseButton::Left)
        || is_mouse_button_pressed(MouseButton::Right);
    input
}

/// Growth of the crowd per `+` press: one at a time while small, then by half.
pub fn more_agents(n: usize) -> usize {
    if n < 10 { n + 1 } else { n + n / 2 }
}

/// The inverse steps of [`more_agents`].
pub fn fewer_agents(n: usize) -> usize {
    if n <= 10 {
        n.saturating_sub(1)
    } else {
        (n * 2 / 3).max(10)
    }
}
