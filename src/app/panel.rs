//! The tuning panel (`U`): a slider for every tuning value the current mode uses, drawn from the
//! shared slider table, and a Save button that writes the tuning file.
//!
//! It is drawn with the same rectangles and text as the HUD, in the frame itself, so `F12`
//! captures it; macroquad's own UI is drawn as the frame is handed over, after any capture. A
//! slider follows the mouse while the left button is held on it (with Shift, at a tenth of the
//! pace, for fine values); the wheel scrolls the list when it is longer than the window.

use super::palette::{DIM, PANEL_BG, TEXT};
use super::text;
use crate::data::tuning::{SLIDERS, Slider};
use crate::sim::command::Command;
use crate::sim::world::World;
use macroquad::prelude::{
    Color, KeyCode, MouseButton, Rect, draw_rectangle, draw_rectangle_lines, is_key_down,
    is_mouse_button_down, is_mouse_button_pressed, mouse_position, mouse_wheel,
};

/// The title and the buttons above the list (they do not scroll).
const HEADER: f32 = 44.0;
/// The line under the list naming the file Save writes.
const FOOTER: f32 = 20.0;
/// One slider: its label, then its track with the value beside it.
const ROW: f32 = 42.0;
const PAD: f32 = 12.0;
/// Room on the right of a track for its value.
const VALUE_WIDTH: f32 = 64.0;
/// How far (px) above and below its line a track takes a click.
const GRAB: f32 = 9.0;
/// Shift while dragging: the value follows the mouse at this fraction of the pace.
const FINE: f32 = 0.1;

const TRACK: Color = Color::new(0.22, 0.25, 0.31, 1.0);
const FILL: Color = Color::new(0.35, 0.85, 1.0, 0.85);
const HANDLE: Color = Color::new(0.92, 0.94, 0.98, 1.0);
const BUTTON: Color = Color::new(0.20, 0.32, 0.42, 1.0);
const BUTTON_HOT: Color = Color::new(0.28, 0.45, 0.58, 1.0);
const EDGE: Color = Color::new(1.0, 1.0, 1.0, 0.12);

/// What the panel keeps between frames.
#[derive(Debug, Default)]
pub struct Panel {
    /// How far the list is scrolled (px, a whole number of rows).
    scroll: f32,
    /// The slider being dragged (its path), and the mouse's x on the last frame.
    held: Option<(&'static str, f32)>,
    /// Where it was drawn last (a click there is the panel's).
    drawn: Option<Rect>,
}

/// A button pressed on the panel, for the window to carry out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pressed {
    Save,
    Defaults,
}

/// The panel's rectangle for a list of `rows` sliders in the room the column leaves it: no
/// taller than that (the list scrolls), Save always in reach.
fn area(rows: usize, room: Rect) -> Rect {
    let height = (HEADER + rows as f32 * ROW + PAD + FOOTER).min(room.h);
    Rect::new(room.x, room.y, room.w, height)
}

fn shown(world: &World) -> Vec<&'static Slider> {
    SLIDERS.iter().filter(|s| world.mode.shows(s)).collect()
}

impl Panel {
    /// Whether window point `(x, y)` is on the panel as last drawn.
    pub fn contains(&self, x: f32, y: f32) -> bool {
        self.drawn
            .is_some_and(|a| a.contains(macroquad::math::vec2(x, y)))
    }

    /// The panel is closed: no click is its.
    pub fn hide(&mut self) {
        self.drawn = None;
    }

    /// Take this frame's mouse, apply slider changes to the world and draw the panel in `room`,
    /// naming `save_to`, the file Save writes; returns the button pressed.
    pub fn show(&mut self, world: &mut World, save_to: &str, room: Rect) -> Option<Pressed> {
        let sliders = shown(world);
        let a = area(sliders.len(), room);
        self.drawn = Some(a);
        let (mx, my) = mouse_position();
        let over = a.contains(macroquad::math::vec2(mx, my));
        // The list below the header; rows that do not fit whole are not drawn.
        let list_top = a.y + HEADER;
        let visible = ((a.h - HEADER - PAD - FOOTER) / ROW).floor().max(1.0) as usize;
        let max_scroll = sliders.len().saturating_sub(visible) as f32 * ROW;
        let wheel = mouse_wheel().1;
        if over && wheel != 0.0 {
            self.scroll -= wheel.signum() * ROW;
        }
        self.scroll = self.scroll.clamp(0.0, max_scroll);
        let first = (self.scroll / ROW) as usize;

        let track_x = a.x + PAD;
        let track_w = a.w - 2.0 * PAD - VALUE_WIDTH;
        let track_y = |row: usize| list_top + (row - first) as f32 * ROW + 30.0;
        // Drag: a press on a track takes it (and sets the value where it was pressed, unless
        // Shift asks for fine steps from where it stands); held, it follows the mouse.
        if !is_mouse_button_down(MouseButton::Left) {
            self.held = None;
        }
        let fine = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        if is_mouse_button_pressed(MouseButton::Left) && over {
            let row = (first..(first + visible).min(sliders.len())).find(|&i| {
                (my - track_y(i)).abs() <= GRAB
                    && mx >= track_x - GRAB
                    && mx <= track_x + track_w + GRAB
            });
            if let Some(i) = row {
                let s = sliders[i];
                self.held = Some((s.path, mx));
                if !fine {
                    let frac = ((mx - track_x) / track_w).clamp(0.0, 1.0);
                    set(world, s, s.min + frac * (s.max - s.min));
                }
            }
        } else if let Some((path, last_x)) = self.held
            && let Some(s) = sliders.iter().find(|s| s.path == path)
        {
            let pace = if fine { FINE } else { 1.0 };
            let per_px = (s.max - s.min) / track_w;
            let value = (s.get)(&world.tuning) + (mx - last_x) * per_px * pace;
            set(world, s, value);
            self.held = Some((path, mx));
        }

        draw_rectangle(a.x, a.y, a.w, a.h, PANEL_BG);
        draw_rectangle_lines(a.x, a.y, a.w, a.h, 1.0, EDGE);
        let title = format!("tuning: {}", world.mode.title());
        // Save at the right edge, Defaults beside it; the title takes what they leave.
        let mut pressed = None;
        let mut left = a.x + a.w - PAD;
        for (label, what) in [("Save", Pressed::Save), ("Defaults", Pressed::Defaults)] {
            let w = text::width(label);
            let button = Rect::new(left - (w + 16.0), a.y + 9.0, w + 16.0, 26.0);
            left = button.x - 8.0;
            let hot = button.contains(macroquad::math::vec2(mx, my));
            draw_rectangle(
                button.x,
                button.y,
                button.w,
                button.h,
                if hot { BUTTON_HOT } else { BUTTON },
            );
            text::draw(label, button.x + 8.0, button.y + 17.0, TEXT);
            if hot && is_mouse_button_pressed(MouseButton::Left) {
                pressed = Some(what);
            }
        }
        let title = text::fit(&title, left - a.x - PAD);
        text::draw(&title, a.x + PAD, a.y + 26.0, TEXT);

        for (i, s) in sliders.iter().enumerate().skip(first).take(visible) {
            let y = track_y(i);
            let value = (s.get)(&world.tuning);
            let frac = ((value - s.min) / (s.max - s.min)).clamp(0.0, 1.0);
            text::draw(&text::fit(s.label, a.w - 2.0 * PAD), track_x, y - 12.0, DIM);
            draw_rectangle(track_x, y - 2.0, track_w, 4.0, TRACK);
            draw_rectangle(track_x, y - 2.0, track_w * frac, 4.0, FILL);
            let held = self.held.is_some_and(|(p, _)| p == s.path);
            let knob = if held { 7.0 } else { 5.0 };
            let hx = track_x + track_w * frac;
            draw_rectangle(hx - knob * 0.5, y - knob, knob, knob * 2.0, HANDLE);
            let value_text = format!("{value:.2}");
            let w = text::width(&value_text);
            text::draw(&value_text, a.x + a.w - PAD - w, y + 5.0, TEXT);
        }
        let to = format!("Save writes {save_to}");
        text::draw(&tail(&to, a.w - 2.0 * PAD), a.x + PAD, a.y + a.h - 6.0, DIM);
        // Where the list stands, when it scrolls.
        if max_scroll > 0.0 {
            let bar_top = list_top;
            let bar_h = a.h - HEADER - PAD - FOOTER;
            let shown_frac = visible as f32 / sliders.len() as f32;
            let at = self.scroll / (max_scroll + visible as f32 * ROW);
            draw_rectangle(a.x + a.w - 5.0, bar_top, 3.0, bar_h, TRACK);
            draw_rectangle(
                a.x + a.w - 5.0,
                bar_top + at * bar_h,
                3.0,
                bar_h * shown_frac,
                HANDLE,
            );
        }
        pressed
    }
}

/// The end of `text` that fits `width` (a path's file name matters more than its folders).
fn tail(text: &str, width: f32) -> String {
    let fits = |t: &str| text::width(t) <= width;
    if fits(text) {
        return text.to_string();
    }
    let mut start = 0;
    while start < text.len() {
        start = text.ceil_char_boundary(start + 1);
        let cut = format!("...{}", &text[start..]);
        if fits(&cut) {
            return cut;
        }
    }
    String::new()
}

/// A slider's new value, within its range, as a command (so the record keeps it); a value that
/// is not a number, or the value it has, changes nothing.
fn set(world: &mut World, s: &Slider, value: f32) {
    if let Some(command) = Command::tune(s.path, value)
        && let Command::Tune(_, v) = &command
        && *v != (s.get)(&world.tuning)
    {
        world.apply(command);
    }
}
