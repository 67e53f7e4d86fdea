//! What the window shows besides the world, and how: the toggles, the time scale, the messages
//! and the catch shake. The main loop changes it; the drawing reads it.

use super::help;
use super::legend;
use crate::sim::clock::TIME_SCALES;
use glam::Vec2;
use macroquad::prelude::{screen_height, screen_width};

/// How long and how hard the camera shakes after a catch.
pub const SHAKE_SECONDS: f32 = 0.35;
const SHAKE_PIXELS: f32 = 7.0;

/// What the window shows besides the world: toggles, time scale, messages.
pub struct View {
    pub overlay: bool,
    pub grid: bool,
    pub tuning: bool,
    pub help: bool,
    /// The help's page shown.
    pub help_page: usize,
    /// The overlay legend's keys so far.
    pub legend: legend::Seen,
    pub paused: bool,
    pub scale_index: usize,
    /// A data-file error, shown until the next successful reload.
    pub error: Option<String>,
    /// A short-lived status line (saved, screenshot taken) and the time it appeared
    /// (macroquad's `get_time`, the window's one clock).
    pub status: Option<(String, f64)>,
    /// Wall-clock cost of the last frame's ticks, per tick.
    pub tick_ms: f32,
    /// Wall-clock seconds of the last frame.
    pub frame_ms: f32,
    /// The time-to-catch chart (`C`).
    pub chart: bool,
    /// Attract mode: the autopilot drives the player after a spell without input.
    pub demo: bool,
    /// The replay window: the player moves as the record says, whatever its script was.
    pub replaying: bool,
    /// Seconds left of the camera shake after a catch.
    pub shake: f32,
    /// The HUD's line of what is kept: the mode's best and the arena file (empty in a replay).
    pub kept: String,
    /// `Y`: agents drawn facing their smoothed headings.
    pub headings: super::smooth::Headings,
    /// A pathway being drawn with a left-drag (`pathway`).
    pub sketch: super::pathways::Sketch,
}

impl View {
    pub fn time_scale(&self) -> f32 {
        TIME_SCALES[self.scale_index]
    }

    /// `H`: open the help, turn to its next page, or close it after the last.
    pub fn turn_help(&mut self, rows: &[(&str, &str)]) {
        let pages = help::pages(rows, screen_width(), screen_height()).len();
        if !self.help {
            self.help = true;
            self.help_page = 0;
        } else if self.help_page + 1 < pages {
            self.help_page += 1;
        } else {
            self.help = false;
        }
    }

    pub fn say(&mut self, message: String) {
        self.status = Some((message, macroquad::time::get_time()));
    }

    /// The camera's jolt while a catch shake lasts (screen pixels), fading out.
    pub fn shake_offset(&self) -> Vec2 {
        if self.shake <= 0.0 {
            return Vec2::ZERO;
        }
        let k = self.shake / SHAKE_SECONDS;
        let t = self.shake * 60.0;
        Vec2::new((t * 1.7).sin(), (t * 2.3).cos()) * SHAKE_PIXELS * k
    }
}
