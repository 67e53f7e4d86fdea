//! The tuning panel (`U`): a slider for every tuning value the current mode uses, drawn from the
//! shared slider table, and a Save button that writes the tuning file.

use crate::data::DataSources;
use crate::data::tuning::{self, SLIDERS};
use crate::sim::world::World;
use macroquad::hash;
use macroquad::prelude::{screen_height, screen_width, vec2};
use macroquad::ui::root_ui;

const WIDTH: f32 = 420.0;

/// Draw the panel and apply slider changes to the world; returns a status message after Save.
pub fn draw(world: &mut World, sources: &DataSources) -> Option<String> {
    let shown: Vec<_> = SLIDERS.iter().filter(|s| s.shown_in(world.mode)).collect();
    // No taller than the window (the panel scrolls), and Save at the top, where it is always in
    // reach: modes 6 and 7 have more sliders than fit a 800-px window.
    let height = (60.0 + shown.len() as f32 * 42.0).min((screen_height() - 70.0).max(120.0));
    let position = vec2(screen_width() - WIDTH - 10.0, 60.0);
    let mut saved = None;
    root_ui().window(hash!(), position, vec2(WIDTH, height), |ui| {
        ui.label(None, &format!("tuning: {}", world.mode.title()));
        if ui.button(None, "Save") {
            let path = sources.tuning.save_path();
            let text = tuning::to_json(&world.tuning);
            saved = Some(match super::write_file(&path, &(text + "\n")) {
                Ok(()) => format!("saved {}", path.display()),
                Err(e) => format!("could not save {}: {e}", path.display()),
            });
        }
        for s in &shown {
            let mut value = (s.get)(&world.tuning);
            // The label on its own line: beside the slider it is clipped by the panel's edge.
            ui.label(None, s.label);
            ui.slider(hash!(s.path), "", s.min..s.max, &mut value);
            if value.is_finite() && value != (s.get)(&world.tuning) {
                (s.set)(&mut world.tuning, value.clamp(s.min, s.max));
            }
        }
    });
    saved
}
