//! The overlay's legend: each colour on the arena and the quantity it stands for. The drawing
//! files name their keys from the same palette entries they draw with (`draw::keys`,
//! `group_overlay::keys`, `pathview::keys`, `guards::keys`), so the two cannot disagree. A key
//! stays listed from the frame its quantity first appears until the mode changes, so rows do
//! not come and go as a feeler touches a wall.

use super::palette::{DIM, PANEL_BG, TEXT};
use super::text;
use crate::sim::mode::Mode;
use macroquad::math::Rect;
use macroquad::prelude::{Color, draw_circle, draw_circle_lines, draw_line, draw_rectangle};

/// How a key is drawn in the legend: as the arena draws the quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mark {
    Line,
    Dot,
    Ring,
    Fill,
    Text,
}

/// One colour and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub color: Color,
    pub mark: Mark,
    pub name: String,
}

impl Key {
    pub fn new(color: Color, mark: Mark, name: &str) -> Key {
        Key {
            color,
            mark,
            name: name.to_string(),
        }
    }
}

/// The keys listed so far in this mode (and form): each colour and mark with the names of the
/// quantities drawn in it.
#[derive(Debug, Default)]
pub struct Seen {
    shown: Option<(Mode, bool)>,
    rows: Vec<(Color, Mark, Vec<String>)>,
    keys: Vec<Key>,
}

impl Seen {
    /// Add this frame's keys; a colour already listed with the same mark gains the new name
    /// ("line of sight; wander circle": one colour, two quantities).
    pub fn update(&mut self, mode: Mode, flip: bool, now: Vec<Key>) -> &[Key] {
        if self.shown != Some((mode, flip)) {
            self.shown = Some((mode, flip));
            self.rows.clear();
        }
        for k in now {
            match self
                .rows
                .iter_mut()
                .find(|(c, m, _)| *c == k.color && *m == k.mark)
            {
                Some((_, _, names)) => {
                    if !names.contains(&k.name) {
                        names.push(k.name);
                    }
                }
                None => self.rows.push((k.color, k.mark, vec![k.name])),
            }
        }
        self.keys.clear();
        self.keys
            .extend(self.rows.iter().map(|(color, mark, names)| Key {
                color: *color,
                mark: *mark,
                name: names.join("; "),
            }));
        &self.keys
    }
}

/// The legend's height for `keys` in a panel `width` wide.
pub fn height(keys: &[Key], width: f32) -> f32 {
    let lines: usize = keys
        .iter()
        .map(|k| text::wrap(&k.name, name_room(width)).len())
        .sum();
    text::LINE * (lines as f32 + 1.0) + 12.0
}

fn name_room(width: f32) -> f32 {
    width - SWATCH - 20.0
}
const SWATCH: f32 = 34.0;

/// The least room the legend takes when it cannot have all it needs: its title, three rows
/// and the line that says how many more there are.
pub const LEAST: f32 = text::LINE * 5.0 + 12.0;

/// How many of `keys` a legend `width` wide and `room` high shows: all when it has its
/// [`height`], else those whose lines fit above the last line, which then counts the rest.
pub fn shown(keys: &[Key], width: f32, room: f32) -> usize {
    let full = height(keys, width);
    if room + 0.5 >= full {
        return keys.len();
    }
    // Below the title: the rows' lines, and the count's line.
    let lines_room = ((room - 12.0) / text::LINE).floor() as usize;
    let mut used = 2;
    for (i, k) in keys.iter().enumerate() {
        used += text::wrap(&k.name, name_room(width)).len();
        if used > lines_room {
            return i;
        }
    }
    keys.len()
}

/// The legend in `r`: every key, or, when `r` is shorter than [`height`], the keys that fit
/// ([`shown`]) and a last line counting the rest.
pub fn panel(keys: &[Key], r: Rect) {
    draw_rectangle(r.x, r.y, r.w, r.h, PANEL_BG);
    let mut y = r.y + 6.0 + text::ASCENT;
    text::draw("overlay: colour = quantity", r.x + 10.0, y, DIM);
    let count = shown(keys, r.w, r.h);
    for k in &keys[..count] {
        let lines = text::wrap(&k.name, name_room(r.w));
        y += text::LINE;
        let (mx, my) = (r.x + 6.0 + SWATCH * 0.5, y - 4.0);
        match k.mark {
            Mark::Line => draw_line(r.x + 10.0, my, r.x + SWATCH, my, 3.0, k.color),
            Mark::Dot => draw_circle(mx, my, 3.5, k.color),
            Mark::Ring => draw_circle_lines(mx, my, 6.0, 1.5, k.color),
            Mark::Fill => draw_rectangle(mx - 7.0, my - 6.0, 14.0, 12.0, k.color),
            Mark::Text => text::draw("abc", r.x + 10.0, y, k.color),
        }
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                y += text::LINE;
            }
            text::draw(line, r.x + 10.0 + SWATCH, y, TEXT);
        }
    }
    if count < keys.len() {
        let more = format!("+{} more: a taller window shows them", keys.len() - count);
        text::draw(
            &text::fit(&more, r.w - 20.0),
            r.x + 10.0,
            y + text::LINE,
            DIM,
        );
    }
}
