//! The HUD band (mode, algorithm, counts, timing), the help overlay generated from the key table,
//! and the error and status lines.

use super::View;
use super::draw::{BACKGROUND, HUD_HEIGHT, LABEL};
use super::keys::BINDINGS;
use crate::sim::world::World;
use macroquad::prelude::{
    Color, draw_rectangle, draw_text, get_fps, measure_text, screen_height, screen_width,
};

const TEXT: Color = Color::new(0.92, 0.94, 0.98, 1.0);
const DIM: Color = Color::new(0.62, 0.66, 0.75, 1.0);
const ERROR_BG: Color = Color::new(0.55, 0.08, 0.10, 0.92);
const PANEL_BG: Color = Color::new(0.03, 0.04, 0.06, 0.9);
/// Seconds a status line stays up.
const STATUS_SECONDS: f32 = 3.0;

pub fn draw(world: &World, view: &View) {
    draw_rectangle(0.0, 0.0, screen_width(), HUD_HEIGHT, BACKGROUND);
    let mode = world.mode;
    let mut first = format!(
        "{} {}{}{}{}   agents {}   catches {}   tags {}   survived {:.1} s   {} FPS   sim {:.3} ms/tick   {}x",
        mode.digit(),
        mode.title(),
        if world.flip { " (" } else { "" },
        if world.flip {
            mode.alternate_name()
        } else {
            ""
        },
        if world.flip { ")" } else { "" },
        world.agents.len(),
        world.score.catches,
        world.score.tags,
        world.survived(),
        get_fps(),
        view.tick_ms,
        view.time_scale(),
    );
    if view.paused {
        first.push_str("   PAUSED");
    }
    draw_text(&first, 10.0, 20.0, 20.0, TEXT);
    draw_text(mode.description(world.flip), 10.0, 42.0, 18.0, DIM);
    let hint = "H: help";
    let w = measure_text(hint, None, 18, 1.0).width;
    draw_text(hint, screen_width() - w - 10.0, 42.0, 18.0, DIM);

    let mut y = screen_height() - 12.0;
    if let Some(error) = &view.error {
        banner(error, y, ERROR_BG);
        y -= 30.0;
    }
    if let Some((message, since)) = &view.status
        && since.elapsed().as_secs_f32() < STATUS_SECONDS
    {
        banner(message, y, PANEL_BG);
    }
}

fn banner(text: &str, baseline: f32, bg: Color) {
    let w = measure_text(text, None, 18, 1.0).width;
    draw_rectangle(6.0, baseline - 20.0, w + 16.0, 28.0, bg);
    draw_text(text, 14.0, baseline, 18.0, TEXT);
}

/// Every key from the key table, with what it does.
pub fn help() {
    let line = 22.0;
    let height = line * (BINDINGS.len() as f32 + 2.0);
    let width = 760.0f32.min(screen_width() - 20.0);
    let x = (screen_width() - width) * 0.5;
    let y = ((screen_height() - height) * 0.5).max(HUD_HEIGHT);
    draw_rectangle(x, y, width, height, PANEL_BG);
    draw_text("keys", x + 16.0, y + line, 20.0, TEXT);
    for (i, b) in BINDINGS.iter().enumerate() {
        let row = y + line * (i as f32 + 2.0);
        draw_text(b.label, x + 16.0, row, 18.0, LABEL);
        draw_text(b.help, x + 140.0, row, 18.0, DIM);
    }
}
