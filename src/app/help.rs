//! The help overlay (`H`), generated from a key table: each key's label and what it does, laid
//! out in as many columns as the window has room for, the longer texts wrapped, and over pages
//! when the window is too short for them all (`H` turns the page, then closes the help).

use super::layout::HUD_HEIGHT;
use super::palette::{DIM, LABEL, PANEL_BG, TEXT};
use super::text;
use macroquad::math::Rect;
use macroquad::prelude::{Color, draw_rectangle};

/// The help covers the legend and the chart where they overlap: through a see-through panel
/// their bright text would show in the middle of its key list.
const HELP_BG: Color = Color { a: 1.0, ..PANEL_BG };
const MARGIN: f32 = 10.0;
const PAD: f32 = 14.0;
/// Between a key's label and its text, and between columns.
const SPACE: f32 = 14.0;
/// A column narrower than this for the texts wraps them too much to read.
const MIN_TEXT: f32 = 220.0;
const MAX_COLUMNS: usize = 3;

/// One line of the help: where it starts (its baseline) and whether it is a key's label.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub x: f32,
    pub baseline: f32,
    pub text: String,
    pub label: bool,
}

/// A page: its panel, its title and its lines.
#[derive(Debug, Clone)]
pub struct Page {
    pub panel: Rect,
    pub title: String,
    /// Where the title starts (its baseline).
    pub title_at: (f32, f32),
    pub lines: Vec<Line>,
}

/// The help of `rows` (label, text) laid out for a `width` × `height` window, page by page: in
/// the fewest columns that hold it on one page, else in as many as the width allows.
pub fn pages(rows: &[(&str, &str)], width: f32, height: f32) -> Vec<Page> {
    let label_w = rows.iter().map(|(l, _)| text::width(l)).fold(0.0, f32::max);
    let panel_w = (width - 2.0 * MARGIN).max(1.0);
    let fits = |c: usize| column_width(panel_w, c) - label_w - SPACE >= MIN_TEXT;
    let most = (1..=MAX_COLUMNS).rev().find(|&c| fits(c)).unwrap_or(1);
    (1..most)
        .map(|c| laid_out(rows, width, height, c))
        .find(|p| p.len() == 1)
        .unwrap_or_else(|| laid_out(rows, width, height, most))
}

/// The help in `columns` columns.
fn laid_out(rows: &[(&str, &str)], width: f32, height: f32, columns: usize) -> Vec<Page> {
    let label_w = rows.iter().map(|(l, _)| text::width(l)).fold(0.0, f32::max);
    let panel_w = (width - 2.0 * MARGIN).max(1.0);
    let top = HUD_HEIGHT + MARGIN;
    let panel_h = (height - top - MARGIN).max(text::LINE * 3.0);
    // Room for the title line and a blank one, then the rows.
    let first_row = top + PAD + text::ASCENT + 2.0 * text::LINE;
    let per_column = (((top + panel_h - PAD - text::DESCENT) - first_row) / text::LINE)
        .floor()
        .max(1.0) as usize
        + 1;
    let col_w = column_width(panel_w, columns);
    let text_w = (col_w - label_w - SPACE).max(text::ADVANCE * 8.0);
    // Each row as its wrapped lines, placed column after column, page after page; a row is
    // never split between columns.
    let mut pages: Vec<Vec<Line>> = vec![Vec::new()];
    let (mut column, mut row) = (0usize, 0usize);
    for (label, help) in rows {
        let wrapped = text::wrap(help, text_w);
        if row + wrapped.len() > per_column && row > 0 {
            column += 1;
            row = 0;
            if column == columns {
                pages.push(Vec::new());
                column = 0;
            }
        }
        let x = MARGIN + PAD + column as f32 * (col_w + SPACE);
        let page = pages.last_mut().expect("there is always a page");
        for (k, part) in wrapped.into_iter().enumerate() {
            let baseline = first_row + (row + k) as f32 * text::LINE;
            if k == 0 {
                page.push(Line {
                    x,
                    baseline,
                    text: label.to_string(),
                    label: true,
                });
            }
            page.push(Line {
                x: x + label_w + SPACE,
                baseline,
                text: part,
                label: false,
            });
        }
        row += text::wrap(help, text_w).len();
    }
    let count = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, lines)| Page {
            panel: Rect::new(MARGIN, top, panel_w, panel_h),
            title: if count > 1 {
                format!("keys, page {} of {count} (H: next page)", i + 1)
            } else {
                "keys".to_string()
            },
            title_at: (MARGIN + PAD, top + PAD + text::ASCENT),
            lines,
        })
        .collect()
}

fn column_width(panel_w: f32, columns: usize) -> f32 {
    ((panel_w - 2.0 * PAD - SPACE * (columns as f32 - 1.0)) / columns as f32).floor()
}

/// Draw page `page` of the help for `rows` (the last one if there are fewer).
pub fn draw(rows: &[(&str, &str)], page: usize, width: f32, height: f32) {
    let pages = pages(rows, width, height);
    let Some(p) = pages.get(page).or(pages.last()) else {
        return;
    };
    draw_rectangle(p.panel.x, p.panel.y, p.panel.w, p.panel.h, HELP_BG);
    text::draw(&p.title, p.title_at.0, p.title_at.1, TEXT);
    for l in &p.lines {
        text::draw(&l.text, l.x, l.baseline, if l.label { LABEL } else { DIM });
    }
}
