//! The HUD band (mode, algorithm, counts, timing), the error and status lines, and two of the
//! column's panels: mode 0's kinds and the time-to-catch chart.

use super::draw::OVERLAY_LIMIT;
use super::layout::HUD_HEIGHT;
use super::palette::{BACKGROUND, DIM, PANEL_BG, TEXT};
use super::style;
use super::text;
use super::view::View;
use crate::sim::agent::Kind;
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::world::World;
use glam::Vec2;
use macroquad::math::Rect;
use macroquad::prelude::{
    Color, draw_circle, draw_line, draw_rectangle, draw_rectangle_lines, get_fps, screen_height,
    screen_width,
};

const ERROR_BG: Color = Color::new(0.55, 0.08, 0.10, 0.92);
/// Seconds a status line stays up.
const STATUS_SECONDS: f64 = 3.0;

pub fn draw(world: &World, view: &View) {
    draw_rectangle(0.0, 0.0, screen_width(), HUD_HEIGHT, BACKGROUND);
    let mode = world.mode;
    let mut first = format!(
        "{} {}{}{}{}   agents {}   catches {}   tags {}   survived {:.1} s",
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
            "   polarization {:.2} (largest group {:.2})   groups {}",
            g.polarization, g.group_polarization, g.groups_seen
        ));
    }
    // What T and V chose, where they choose a scene, a method or a shape.
    match world.mode {
        Mode::Crowd => first.push_str(&format!(
            "   scene {}   avoid {}",
            world.walking.scene.name(),
            world.walking.method.name()
        )),
        Mode::Formation => {
            first.push_str(&format!("   shape {}", world.formation.shape.name()));
        }
        _ => {}
    }
    if let Some(method) = world.combine_method() {
        let own = world.mode.own_combine() == Some(method);
        first.push_str(&format!(
            "   B: {}{}",
            method.name(),
            if own { " (own)" } else { "" }
        ));
    }
    if view.paused {
        first.push_str("   PAUSED");
    }
    if view.headings.on {
        first.push_str("   SMOOTHED");
    }
    if view.replaying {
        first.push_str("   REPLAY");
    } else if view.demo || world.player.script != Script::Keys {
        first.push_str("   DEMO");
    }
    // The timing last: in a narrow window it is what is cut.
    first.push_str(&format!("   {}x", view.time_scale()));
    // (The page has one thread and says nothing of threads.)
    if cfg!(not(target_arch = "wasm32")) {
        let threads = crate::sim::threads::current();
        let s = if threads == 1 { "" } else { "s" };
        first.push_str(&format!("   {threads} thread{s}"));
    }
    first.push_str(&format!(
        "   {} FPS   frame {:.1} ms   sim {:.3} ms/tick",
        get_fps(),
        view.frame_ms,
        view.tick_ms,
    ));
    let room = screen_width() - 20.0;
    text::draw(&text::fit(&first, room), 10.0, 20.0, TEXT);
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
    let w = text::width(&hint);
    text::draw(&hint, screen_width() - w - 10.0, 42.0, DIM);
    // The description takes what the hint leaves of the line.
    let room = screen_width() - w - 40.0;
    let description = if world.lead {
        mode.lead_description()
    } else {
        mode.description(world.flip)
    };
    text::draw(&text::fit(description, room), 10.0, 42.0, DIM);

    let mut y = screen_height() - 12.0;
    if let Some(error) = &view.error {
        banner(error, y, ERROR_BG);
        y -= 30.0;
    }
    if let Some((message, since)) = &view.status
        && macroquad::time::get_time() - since < STATUS_SECONDS
    {
        banner(message, y, PANEL_BG);
    }
}

fn banner(message: &str, baseline: f32, bg: Color) {
    let shown = text::fit(message, screen_width() - 40.0);
    let w = text::width(&shown);
    draw_rectangle(6.0, baseline - 20.0, w + 16.0, 28.0, bg);
    text::draw(&shown, 14.0, baseline - 2.0, TEXT);
}

/// Mode 0's kinds: each kind's silhouette and colour, and how often it has caught the player.
pub fn kinds(world: &World) -> Vec<(style::Style, u32)> {
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
    rows
}

/// The height of [`kinds_panel`] for `rows` kinds.
pub fn kinds_height(rows: usize) -> f32 {
    text::LINE * (rows as f32 + 1.0) + 12.0
}

/// Mode 0's legend in `r`: each kind's silhouette, name and catches.
pub fn kinds_panel(rows: &[(style::Style, u32)], r: Rect) {
    draw_rectangle(r.x, r.y, r.w, r.h, PANEL_BG);
    let number_x = r.x + r.w - 10.0 - text::width("catches");
    text::draw("kind", r.x + 10.0, r.y + 6.0 + text::ASCENT, DIM);
    text::draw("catches", number_x, r.y + 6.0 + text::ASCENT, DIM);
    for (i, (look, caught)) in rows.iter().enumerate() {
        let row = r.y + 6.0 + text::ASCENT + (i as f32 + 1.0) * text::LINE;
        style::draw_icon(
            look.shape,
            Vec2::new(r.x + 18.0, row - 4.0),
            6.0,
            look.color,
        );
        text::draw(look.name, r.x + 34.0, row, TEXT);
        text::draw(&caught.to_string(), number_x, row, look.color);
    }
}

/// The chart's height for `kinds` kinds caught so far.
pub fn chart_height(kinds: usize) -> f32 {
    2.0 * text::LINE + PLOT_H + 30.0 + text::LINE * kinds.max(1) as f32
}
const PLOT_H: f32 = 110.0;

/// The time-to-catch chart (`C`) in `r`: each catch as a dot at the run time it happened
/// (simulated seconds since the program started, or since `R` restarted it), as high as the
/// time from the catcher's respawn to the catch, in the catcher's colour; the mean per kind as a
/// line across and in the list below.
pub fn chart(world: &World, r: Rect) {
    draw_rectangle(r.x, r.y, r.w, r.h, PANEL_BG);
    let title = "time from respawn to catch (s), over the run time";
    let mut y = r.y + 6.0 + text::ASCENT;
    for line in text::wrap(title, r.w - 20.0) {
        text::draw(&line, r.x + 10.0, y, DIM);
        y += text::LINE;
    }
    let plot = Rect::new(r.x + 38.0, y, r.w - 50.0, PLOT_H);
    draw_rectangle_lines(plot.x, plot.y, plot.w, plot.h, 1.0, DIM);
    let log = &world.score.log;
    let run_time = world.time().max(1.0);
    let top = log.iter().map(|c| c.time_to_catch).fold(5.0f64, f64::max) * 1.1;
    let top_text = format!("{top:.0}");
    text::draw(
        &top_text,
        plot.x - 6.0 - text::width(&top_text),
        plot.y + text::ASCENT,
        DIM,
    );
    text::draw("0", plot.x - 6.0 - text::ADVANCE, plot.y + plot.h, DIM);
    let run_text = format!("{run_time:.0} s");
    text::draw(
        &run_text,
        plot.x + plot.w - text::width(&run_text),
        plot.y + plot.h + 4.0 + text::ASCENT,
        DIM,
    );
    let mut means: Vec<(Kind, f64, u32)> = Vec::new();
    for c in log {
        let px = plot.x + (c.at / run_time) as f32 * plot.w;
        let py = plot.y + plot.h - (c.time_to_catch / top) as f32 * plot.h;
        draw_circle(px, py, 3.0, style::of(c.kind, world.mode).color);
        match means.iter_mut().find(|(k, _, _)| *k == c.kind) {
            Some((_, sum, n)) => {
                *sum += c.time_to_catch;
                *n += 1;
            }
            None => means.push((c.kind, c.time_to_catch, 1)),
        }
    }
    let list_top = plot.y + plot.h + 4.0 + text::ASCENT + text::LINE;
    for (i, (kind, sum, n)) in means.iter().enumerate() {
        let look = style::of(*kind, world.mode);
        let mean = sum / f64::from(*n);
        let mean_y = plot.y + plot.h - (mean / top) as f32 * plot.h;
        draw_line(
            plot.x,
            mean_y,
            plot.x + plot.w,
            mean_y,
            1.0,
            Color {
                a: 0.4,
                ..look.color
            },
        );
        let line = format!("{}: {n}, mean {mean:.1} s", look.name);
        text::draw(
            &text::fit(&line, r.w - 20.0),
            r.x + 10.0,
            list_top + i as f32 * text::LINE,
            look.color,
        );
    }
    if log.is_empty() {
        text::draw("no catches yet", r.x + 10.0, list_top, DIM);
    }
}
