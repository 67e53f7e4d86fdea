//! The replay window (`steering-arena replay FILE`): a record's run played again in the game's
//! own drawing — the world is run again, not drawn from positions, so the overlay, the grid, the
//! chart and the legend show what they show in live play. Play and pause, single steps both ways,
//! the time scale and a position bar to click; a step back runs again from the state kept every
//! few seconds (see `sim::replay`), and a long seek runs a slice per frame so the window never
//! stalls. With `--record OUT` it writes the record line of every state it shows, which is how a
//! test (or a person) can check that the screen stands where the record says.

use super::files::{RecordFile, create_record};
use super::help;
use super::layout::{BAR_HEIGHT, BAR_TOP};
use super::palette::{DIM, PANEL_BG, TEXT};
use super::text;
use super::view::View;
use super::{open_window, style, trails};
use crate::data::DataSources;
use crate::sim::clock::{Clock, TICK_HZ, TIME_SCALES};
use crate::sim::replay::{Replay, ReplayData};
use glam::Vec2;
use macroquad::input::{KeyCode, MouseButton, is_key_pressed, is_mouse_button_pressed};
use macroquad::prelude::{
    Color, draw_rectangle, get_frame_time, get_time, mouse_position, next_frame, screen_height,
    screen_width,
};
use std::fs::File;
use std::path::PathBuf;

/// Everything the replay window needs to start.
#[derive(Debug, Clone)]
pub struct ReplayConfig {
    pub file: PathBuf,
    pub sources: DataSources,
    /// Where to write the line of every state shown.
    pub record: Option<PathBuf>,
    pub quit_after: Option<f64>,
}

/// What a replay key asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReplayAction {
    Play,
    Step,
    Back,
    Forward,
    Start,
    End,
    Slower,
    Faster,
    Overlay,
    Grid,
    Chart,
    Smooth,
    Help,
    Screenshot,
    Quit,
}

/// The replay window's key table: the one source for its input and its help overlay.
pub const REPLAY_KEYS: &[(&[KeyCode], &str, ReplayAction, &str)] = &[
    (
        &[KeyCode::Space, KeyCode::P],
        "Space / P",
        ReplayAction::Play,
        "play / pause",
    ),
    (
        &[KeyCode::Period],
        ".",
        ReplayAction::Step,
        "one line forward (pauses)",
    ),
    (
        &[KeyCode::Left],
        "Left",
        ReplayAction::Back,
        "one line back (pauses)",
    ),
    (
        &[KeyCode::Right],
        "Right",
        ReplayAction::Forward,
        "one line forward (pauses)",
    ),
    (
        &[KeyCode::Home],
        "Home",
        ReplayAction::Start,
        "back to the start",
    ),
    (&[KeyCode::End], "End", ReplayAction::End, "to the end"),
    (
        &[KeyCode::LeftBracket],
        "[",
        ReplayAction::Slower,
        "slower (down to 0.25x)",
    ),
    (
        &[KeyCode::RightBracket],
        "]",
        ReplayAction::Faster,
        "faster (up to 4x)",
    ),
    (
        &[KeyCode::Tab],
        "Tab",
        ReplayAction::Overlay,
        "debug overlay",
    ),
    (&[KeyCode::G], "G", ReplayAction::Grid, "tile grid on/off"),
    (
        &[KeyCode::C],
        "C",
        ReplayAction::Chart,
        "time-to-catch chart",
    ),
    (
        &[KeyCode::Y],
        "Y",
        ReplayAction::Smooth,
        super::smooth::HELP,
    ),
    (
        &[KeyCode::H, KeyCode::F1],
        "H / F1",
        ReplayAction::Help,
        "this help",
    ),
    (
        &[KeyCode::F12],
        "F12",
        ReplayAction::Screenshot,
        "screenshot to screenshots/",
    ),
    (&[KeyCode::Escape], "Esc", ReplayAction::Quit, "quit"),
];

/// The replay window's keys for its help overlay.
fn help_rows() -> Vec<(&'static str, &'static str)> {
    REPLAY_KEYS.iter().map(|&(_, l, _, h)| (l, h)).collect()
}

/// Wall-clock seconds a seek may take of one frame before the frame is drawn.
const SEEK_SLICE: f64 = 0.025;
/// Steps run between looks at the clock while seeking.
const SEEK_CHUNK: usize = 16;
const BAR_PAD: f32 = 12.0;
const TRACK: Color = Color::new(0.22, 0.25, 0.31, 1.0);
const FILL: Color = Color::new(0.35, 0.85, 1.0, 0.85);

/// Read and check the record, then open the window on it. A record whose header cannot be run
/// (not a record, another version, other data files) is an error before the window opens; a
/// fault further on ends the replay there and is shown in the window.
pub fn run(config: ReplayConfig) -> Result<(), String> {
    let data = ReplayData::load(config.sources.clone())?;
    let name = config.file.display().to_string();
    let input = File::open(&config.file)
        .map_err(|e| format!("{name}: cannot read: {}", crate::data::io_reason(&e)))?;
    let replay =
        Replay::read(&name, std::io::BufReader::new(input), &data).map_err(|e| e.to_string())?;
    let mut out = create_record(config.record.as_deref())?;
    if let Some(r) = out.as_mut() {
        r.header(&replay.world, &data.hashes)
            .and_then(|_| r.flush())
            .map_err(|e| format!("{}: cannot write: {e}", name))?;
    }
    open_window(play(replay, out, config.quit_after))
}

fn capture() -> Vec<ReplayAction> {
    REPLAY_KEYS
        .iter()
        .filter(|(keys, ..)| keys.iter().any(|&k| is_key_pressed(k)))
        .map(|&(_, _, action, _)| action)
        .collect()
}

/// The bar's track in window pixels: x, width.
fn track() -> (f32, f32) {
    (BAR_PAD + 6.0, screen_width() - 2.0 * BAR_PAD - 12.0)
}

async fn play(mut replay: Replay, mut out: Option<RecordFile>, quit: Option<f64>) {
    let mut view = View {
        overlay: false,
        grid: false,
        tuning: false,
        help: false,
        help_page: 0,
        legend: Default::default(),
        paused: false,
        scale_index: TIME_SCALES.iter().position(|&s| s == 1.0).unwrap_or(0),
        error: None,
        status: None,
        tick_ms: 0.0,
        frame_ms: 0.0,
        chart: false,
        demo: false,
        replaying: true,
        shake: 0.0,
        kept: String::new(),
        headings: Default::default(),
        sketch: Default::default(),
    };
    let mut clock = Clock::new(TICK_HZ);
    let mut trails = trails::Trails::default();
    let mut batch = style::Batch::default();
    let mut picks = Vec::new();
    let mut target: Option<usize> = None;
    let started = get_time();
    let mut screenshots = 0u32;
    loop {
        let mut shoot = false;
        let mut stop = quit.is_some_and(|s| get_time() - started >= s);
        let here = target.unwrap_or(replay.pos);
        for action in capture() {
            match action {
                ReplayAction::Play => {
                    view.paused = !view.paused;
                    if !view.paused && replay.pos >= replay.len() {
                        target = Some(0);
                    }
                }
                ReplayAction::Step | ReplayAction::Forward => {
                    view.paused = true;
                    target = Some(here + 1);
                }
                ReplayAction::Back => {
                    view.paused = true;
                    target = Some(here.saturating_sub(1));
                }
                ReplayAction::Start => target = Some(0),
                ReplayAction::End => target = Some(replay.len()),
                ReplayAction::Slower => view.scale_index = view.scale_index.saturating_sub(1),
                ReplayAction::Faster => {
                    view.scale_index = (view.scale_index + 1).min(TIME_SCALES.len() - 1)
                }
                ReplayAction::Overlay => view.overlay = !view.overlay,
                ReplayAction::Grid => view.grid = !view.grid,
                ReplayAction::Chart => view.chart = !view.chart,
                ReplayAction::Smooth => view.headings.toggle(),
                ReplayAction::Help => {
                    let rows = help_rows();
                    view.turn_help(&rows);
                }
                ReplayAction::Screenshot => shoot = true,
                ReplayAction::Quit => stop = true,
            }
        }
        if stop {
            break;
        }
        let (mx, my) = mouse_position();
        if is_mouse_button_pressed(MouseButton::Left)
            && (BAR_TOP..BAR_TOP + BAR_HEIGHT).contains(&my)
        {
            let (x, w) = track();
            let frac = ((mx - x) / w).clamp(0.0, 1.0);
            target = Some((frac * replay.len() as f32).round() as usize);
        }

        let frame_seconds = get_frame_time();
        view.frame_ms = frame_seconds * 1000.0;
        let ran = get_time();
        let mut steps = 0u32;
        if let Some(t) = target {
            let back = t < replay.pos;
            let arrived = loop {
                if replay.seek(t, SEEK_CHUNK) {
                    break true;
                }
                if get_time() - ran >= SEEK_SLICE {
                    break false;
                }
            };
            if back {
                trails = trails::Trails::default();
            }
            if arrived {
                // (A jump: the headings seen before it are not this state's.)
                view.headings.forget();
                view.headings.record(&replay.world);
                target = None;
                clock.reset();
                show(&mut out, &replay, &mut view);
            }
        } else if !view.paused {
            let frame = clock.advance(frame_seconds, view.time_scale());
            for _ in 0..frame.ticks {
                if !replay.forward() {
                    view.paused = true;
                    break;
                }
                steps += 1;
                trails.record(&replay.world);
                view.headings.record(&replay.world);
                show(&mut out, &replay, &mut view);
            }
        }
        if steps > 0 {
            view.tick_ms = ((get_time() - ran) * 1000.0) as f32 / steps as f32;
        }
        if let Some(e) = &replay.error {
            view.error = Some(e.to_string());
        }

        super::scene(
            &mut replay.world,
            &mut view,
            &trails,
            &mut picks,
            &mut batch,
            1.0,
        );
        bar(&replay, &view, target);
        if view.help {
            help::draw(
                &help_rows(),
                view.help_page,
                screen_width(),
                screen_height(),
            );
        }
        if shoot {
            screenshots += 1;
            match super::files::screenshot(screenshots) {
                Ok(path) => view.say(format!("saved {path}")),
                Err(e) => view.say(format!("screenshot failed: {e}")),
            }
        }
        next_frame().await;
    }
    if let Some(r) = out.as_mut() {
        let _ = r.flush();
    }
}

/// Write the line of the state now shown to `--record`, if given.
fn show(out: &mut Option<RecordFile>, replay: &Replay, view: &mut View) {
    if replay.shown.is_empty() {
        return;
    }
    if let Some(r) = out.as_mut()
        && let Err(e) = r.raw(&replay.shown).and_then(|_| r.flush())
    {
        view.error = Some(format!("record: {e}"));
        *out = None;
    }
}

/// The position bar: where the replay stands in the record, and what it is doing.
fn bar(replay: &Replay, view: &View, target: Option<usize>) {
    let width = screen_width() - 2.0 * BAR_PAD;
    draw_rectangle(BAR_PAD, BAR_TOP, width, BAR_HEIGHT, PANEL_BG);
    let len = replay.len().max(1);
    let (x, w) = track();
    let y = BAR_TOP + BAR_HEIGHT - 7.0;
    draw_rectangle(x, y - 2.0, w, 4.0, TRACK);
    draw_rectangle(x, y - 2.0, w * replay.pos as f32 / len as f32, 4.0, FILL);
    let knob = Vec2::new(x + w * replay.pos as f32 / len as f32, y);
    draw_rectangle(knob.x - 3.0, knob.y - 6.0, 6.0, 12.0, TEXT);
    let state = match target {
        Some(t) => format!("seeking line {}", t + 1),
        None if view.paused => "paused".to_string(),
        None if replay.pos >= replay.len() => "at the end".to_string(),
        None => format!("playing {}x", view.time_scale()),
    };
    let marked = if replay.paused_here() {
        "  (paused in the record)"
    } else {
        ""
    };
    let line = format!(
        "REPLAY {}   line {} of {}   tick {}   t {:.2} s   {state}{marked}   Left/Right: step   H: keys",
        replay.file,
        replay.pos + 1,
        replay.len() + 1,
        replay.world.tick,
        replay.world.time(),
    );
    text::draw(&text::fit(&line, w), x, BAR_TOP + 13.0, DIM);
}
