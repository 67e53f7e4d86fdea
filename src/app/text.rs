//! Every piece of text the window draws, in the one size its font is whole at.
//!
//! The font, ProggyClean, is a pixel font stored as outlines: each of its pixels is a 128-unit
//! square of a 2,048-unit em, so it rasterises to whole pixels only at multiples of 16 px. At
//! 17 or 20 px a one-pixel stem becomes 1.2–1.5 px and covers some columns only partly; drawn
//! faint (the dim text) those parts vanish: "|ine" for "line", "Sh:ft" for "Shift". macroquad
//! also places each glyph at the running sum of its advances, so a glyph that does not start on
//! a whole pixel is resampled by the atlas's filter. Here every text is 16 px, where each glyph
//! is an exact bitmap with a whole 7 px advance, and starts on a whole pixel, and the atlas
//! samples without filtering: the pixels on screen are the font's own (tests/text.rs).

use macroquad::prelude::{
    Color, FilterMode, TextParams, draw_text_ex, load_ttf_font_from_bytes, set_default_font,
};
use std::borrow::Cow;

/// The font, drawn by the window and read by the test that compares the two.
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/ProggyClean.ttf");
/// The font's size in pixels: its own pixel grid (2,048 units / 128 units a pixel).
pub const SIZE: u16 = 16;
/// Every glyph's advance at [`SIZE`] (the font is monospaced).
pub const ADVANCE: f32 = 7.0;
/// From one baseline to the next.
pub const LINE: f32 = 18.0;
/// Above the baseline, the tallest glyph's top; below it, the deepest descender's bottom.
pub const ASCENT: f32 = 10.0;
pub const DESCENT: f32 = 4.0;

/// Make the window's font the one this module measures, sampled without filtering. Call once
/// the window exists.
pub fn setup() {
    // The bytes are the ones macroquad builds its default font from; if they would not load,
    // its default font is the same font and only the filter below is missing.
    if let Ok(mut font) = load_ttf_font_from_bytes(FONT) {
        font.set_filter(FilterMode::Nearest);
        set_default_font(font);
    }
}

/// Draw `text` with its baseline at `baseline`, starting at the whole pixel nearest `x`.
pub fn draw(text: &str, x: f32, baseline: f32, color: Color) {
    let (x, baseline) = origin(x, baseline);
    draw_text_ex(
        text,
        x,
        baseline,
        TextParams {
            font_size: SIZE,
            font_scale: 1.0,
            color,
            ..TextParams::default()
        },
    );
}

/// Where a text asked for at `(x, baseline)` starts: the nearest whole pixel, so that each
/// glyph, a whole number of advances further on, lands on whole pixels too.
pub fn origin(x: f32, baseline: f32) -> (f32, f32) {
    (x.round(), baseline.round())
}

/// How wide `text` is drawn (px).
pub fn width(text: &str) -> f32 {
    text.chars().count() as f32 * ADVANCE
}

/// `text` cut short with "..." to fit in `room` pixels (whole, when it fits).
pub fn fit(text: &str, room: f32) -> Cow<'_, str> {
    let chars = (room / ADVANCE).floor().max(0.0) as usize;
    if text.chars().count() <= chars {
        return Cow::Borrowed(text);
    }
    let keep = chars.saturating_sub(3);
    let cut: String = text.chars().take(keep).collect();
    Cow::Owned(format!("{}...", cut.trim_end()))
}

/// `text` broken at spaces into lines no wider than `room` (a word longer than a line is cut
/// across lines).
pub fn wrap(text: &str, room: f32) -> Vec<String> {
    let per_line = ((room / ADVANCE).floor() as usize).max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        let used = line.chars().count();
        if used > 0 && used + 1 + word.len() > per_line {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > per_line {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..per_line).collect());
        }
        if word.is_empty() {
            continue;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.extend(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
