//! The HUD band (mode, algorithm, counts, timing), the help overlay generated from the key table,
//! and the error and status lines.

use super::camera::HUD_HEIGHT;
use super::draw::OVERLAY_LIMIT;
use super::keys::BINDINGS;
use super::palette::{BACKGROUND, DIM, LABEL, PANEL_BG, TEXT};
use super::style;
use super::view::View;
use crate::sim::agent::Kind;
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::prelude::{
    Color, draw_rectangle, draw_text, get_fps, measure_text, screen_height, screen_width,
};
use macroquad::prelude::{draw_circle, draw_line, draw_rectangle_lines};

const ERROR_BG: Color = Color::new(0.55, 0.08, 0.10, 0.92);
/// The help covers the legend and the chart where they overlap: through a see-through panel
/// their bright text would show in the middle of its key list.
const HELP_BG: Color = Color {
    a: 0.98,
    ..PANEL_BG
};
/// Seconds a status line stays up.
const STATUS_SECONDS: f32 = 3.0;

pub fn draw(world: &World, view: &View) {
    draw_rectangle(0.0, 0.0, screen_width(), HUD_HEIGHT, BACKGROUND);
    let mode = world.mode;
    let mut first = format!(
        "{} {}{}{}{}   agents {}   catches {}   tags {}   survived {:.1} s   {} FPS   frame {:.1} ms   sim {:.3} ms/tick   {}x",
        mode.key_label(),
        mode.title(),
        if world.flip || world.lead { " (" } else { "" },
        if world.flip {
            mode.alternate_name()
        } else if world.lead {
            "you lead"
        } else {
            ""
        },
        if world.flip || world.lead { ")" } else { "" },
        world.agents.len(),
        world.score.catches,
        world.score.tags,
        world.survived(),
        get_fps(),
        view.frame_ms,
        view.tick_ms,
        view.time_scale(),
    );
    if world.mode == Mode::Fsm {
        let power = world.power_left();
        if power > 0.0 {
            first.push_str(&format!("   POWER {power:.1} s"));
        }
    }
    if mode.moves_together() {
        let g = &world.flocking;
        first.push_str(&format!(
            "   polarization {:.2}   groups {}",
            g.polarization, g.groups_seen
        ));
    }
    if view.paused {
        first.push_str("   PAUSED");
    }
    if view.replaying {
        first.push_str("   REPLAY");
    } else if view.demo || world.player.script != Script::Keys {
        first.push_str("   DEMO");
    }
    fitted(&first, 10.0, 20.0, 20.0, screen_width() - 20.0, TEXT);
    let hint = if view.overlay && world.agents.len() > OVERLAY_LIMIT {
        format!(
            "overlay: the {} agents nearest you   H: help",
            OVERLAY_LIMIT
        )
    } else {
        "H: help".to_string()
    };
    let hint = if view.kept.is_empty() {
        hint
    } else {
        format!("{}   {hint}", view.kept)
    };
    let hint = hint.as_str();
    let w = measure_text(hint, None, 18, 1.0).width;
    draw_text(hint, screen_width() - w - 10.0, 42.0, 18.0, DIM);
    // The description takes what the hint leaves of the line.
    let room = screen_width() - w - 40.0;
    let description = if world.lead {
        mode.lead_description()
    } else {
        mode.description(world.flip)
    };
    fitted(description, 10.0, 42.0, 18.0, room, DIM);

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

/// Smallest size a HUD line shrinks to before it is cut short.
const MIN_TEXT_SIZE: f32 = 12.0;

/// A line of text no wider than `width`: in a narrow window it shrinks (down to
/// [`MIN_TEXT_SIZE`]), then is cut short with "...", rather than running off the window or
/// into the text beside it.
fn fitted(text: &str, x: f32, baseline: f32, size: f32, width: f32, color: Color) {
    let measure = |t: &str, size: f32| measure_text(t, None, size as u16, 1.0).width;
    let full = measure(text, size);
    if full <= width {
        draw_text(text, x, baseline, size, color);
        return;
    }
    let size = (size * width / full).floor().max(MIN_TEXT_SIZE);
    if measure(text, size) <= width {
        draw_text(text, x, baseline, size, color);
        return;
    }
    // Cut at a character boundary: the longest start that fits with the ellipsis.
    let mut end = text.len();
    while end > 0 {
        end = text.floor_char_boundary(end - 1);
        let cut = format!("{}...", text[..end].trim_end());
        if measure(&cut, size) <= width {
            draw_text(&cut, x, baseline, size, color);
            return;
        }
    }
}

fn banner(text: &str, baseline: f32, bg: Color) {
    let w = measure_text(text, None, 18, 1.0).width;
    draw_rectangle(6.0, baseline - 20.0, w + 16.0, 28.0, bg);
    draw_text(text, 14.0, baseline, 18.0, TEXT);
}

/// Every key from the key table, with what it does.
pub fn help() {
    let rows: Vec<(&str, &str)> = BINDINGS.iter().map(|b| (b.label, b.help)).collect();
    help_table(&rows);
}

/// The help overlay for a key table: each key's label and what it does.
pub fn help_table(rows: &[(&str, &str)]) {
    let line = 21.0;
    let column_width = 600.0;
    // As many rows as fit below the HUD, in as many columns as that takes.
    let fit = (((screen_height() - HUD_HEIGHT - 20.0) / line) as usize)
        .saturating_sub(2)
        .max(1);
    let columns = rows.len().div_ceil(fit);
    let per_column = rows.len().div_ceil(columns);
    let height = line * (per_column as f32 + 2.0);
    let width = (column_width * columns as f32).min(screen_width() - 20.0);
    let x = (screen_width() - width) * 0.5;
    let y = ((screen_height() - height) * 0.5).max(HUD_HEIGHT);
    draw_rectangle(x, y, width, height, HELP_BG);
    draw_text("keys", x + 16.0, y + line, 20.0, TEXT);
    for (i, (label, help)) in rows.iter().enumerate() {
        let cx = x + column_width * (i / per_column) as f32;
        let row = y + line * ((i % per_column) as f32 + 2.0);
        draw_text(label, cx + 16.0, row, 17.0, LABEL);
        draw_text(help, cx + 130.0, row, 17.0, DIM);
    }
}

/// Mode 0's legend: each kind's silhouette and colour, and how often it has caught the player.
pub fn legend(world: &World) {
    let mut kinds: Vec<Kind> = world.agents.iter().map(|a| a.behaviour.kind_of()).collect();
    kinds.dedup();
    kinds.sort_unstable_by_key(|k| k.word());
    kinds.dedup();
    // Reversed forms share their kind's look: one row per look, their catches added up.
    let mut rows: Vec<(style::Style, u32)> = Vec::new();
    for kind in kinds {
        let look = style::of(kind, world.mode);
        let caught = world.score.by_kind.get(kind.word()).copied().unwrap_or(0);
        match rows.iter_mut().find(|(s, _)| s.name == look.name) {
            Some((_, n)) => *n += caught,
            None => rows.push((look, caught)),
        }
    }
    let line = 20.0;
    let height = line * rows.len() as f32 + 30.0;
    let (x, y) = (10.0, screen_height() - height - 44.0);
    draw_rectangle(x, y, 230.0, height, PANEL_BG);
    draw_text("kind          catches", x + 10.0, y + 18.0, 16.0, DIM);
    for (i, (look, caught)) in rows.iter().enumerate() {
        let row = y + 38.0 + i as f32 * line;
        style::draw_icon(look.shape, Vec2::new(x + 18.0, row - 5.0), 6.0, look.color);
        draw_text(look.name, x + 34.0, row, 16.0, TEXT);
        draw_text(
            caught.to_string().as_str(),
            x + 190.0,
            row,
            16.0,
            look.color,
        );
    }
}

/// The time-to-catch chart (`C`): each catch as a dot at the run time it happened (simulated
/// seconds since the program started, or since `R` restarted it), as high as the time from the
/// catcher's respawn to the catch, in the catcher's colour; the mean per kind beside it.
pub fn chart(world: &World) {
    let (w, h) = (560.0f32, 250.0f32);
    let (x, y) = (screen_width() - w - 10.0, screen_height() - h - 44.0);
    draw_rectangle(x, y, w, h, PANEL_BG);
    draw_text(
        "time from respawn to catch (s), over the run time",
        x + 10.0,
        y + 18.0,
        16.0,
        DIM,
    );
    let plot = (x + 40.0, y + 30.0, w - 270.0, h - 60.0);
    draw_rectangle_lines(plot.0, plot.1, plot.2, plot.3, 1.0, DIM);
    let log = &world.score.log;
    let run_time = world.time().max(1.0);
    let top = log.iter().map(|c| c.time_to_catch).fold(5.0f64, f64::max) * 1.1;
    draw_text(
        format!("{top:.0}").as_str(),
        x + 8.0,
        plot.1 + 10.0,
        14.0,
        DIM,
    );
    draw_text("0", x + 24.0, plot.1 + plot.3, 14.0, DIM);
    draw_text(
        format!("{run_time:.0} s").as_str(),
        plot.0 + plot.2 - 30.0,
        plot.1 + plot.3 + 16.0,
        14.0,
        DIM,
    );
    let mut means: Vec<(Kind, f64, u32)> = Vec::new();
    for c in log {
        let px = plot.0 + (c.at / run_time) as f32 * plot.2;
        let py = plot.1 + plot.3 - (c.time_to_catch / top) as f32 * plot.3;
        draw_circle(px, py, 3.0, style::of(c.kind, world.mode).color);
        match means.iter_mut().find(|(k, _, _)| *k == c.kind) {
            Some((_, sum, n)) => {
                *sum += c.time_to_catch;
                *n += 1;
            }
            None => means.push((c.kind, c.time_to_catch, 1)),
        }
    }
    for (i, (kind, sum, n)) in means.iter().enumerate() {
        let look = style::of(*kind, world.mode);
        let row = plot.1 + 12.0 + i as f32 * 18.0;
        let mean = sum / f64::from(*n);
        let mean_y = plot.1 + plot.3 - (mean / top) as f32 * plot.3;
        draw_line(
            plot.0,
            mean_y,
            plot.0 + plot.2,
            mean_y,
            1.0,
            Color {
                a: 0.4,
                ..look.color
            },
        );
        draw_text(
            format!("{}: {n}, mean {mean:.1}", look.name).as_str(),
            plot.0 + plot.2 + 10.0,
            row,
            15.0,
            look.color,
        );
    }
    if log.is_empty() {
        draw_text(
            "no catches yet",
            plot.0 + 10.0,
            plot.1 + plot.3 / 2.0,
            16.0,
            DIM,
        );
    }
}
