//! The overlay's bars of each force an agent combined this tick (`B`): for the few traced
//! agents nearest the player, a block of lines beside each — a force's name, a bar as long as
//! its share of the most the sum may be, and its size — drawn bright with `#` when the method
//! used it, dim with `-` when it was left out.

use super::camera::Camera;
use super::labels::Labels;
use super::legend::{Key, Mark};
use super::palette::{DIM, TEXT};
use crate::sim::trace::ForceBar;
use crate::sim::world::World;
use macroquad::prelude::Color;

/// How many agents show their bars (the nearest the player): more would crowd the labels out.
const SHOWN: usize = 3;
/// A bar's characters at the most the sum may be (longer forces are cut there, marked `>`).
const BAR: usize = 10;

/// One force's line: name, bar and size.
pub fn line(f: &ForceBar, max: f32) -> (String, Color) {
    let share = if max > 0.0 { f.size / max } else { 0.0 };
    let n = ((share * BAR as f32).round() as usize).min(BAR);
    let (mark, color) = if f.used { ('#', TEXT) } else { ('-', DIM) };
    let over = if share > 1.0 { '>' } else { ' ' };
    let bar: String = std::iter::repeat_n(mark, n).collect();
    (
        format!("{:<10} {bar:<BAR$}{over} {:>5.0}", f.name, f.size),
        color,
    )
}

/// The bars of the traced agents among `shown` nearest the player.
pub fn labels(world: &World, shown: &[usize], cam: &Camera, labels: &mut Labels) {
    let Some(method) = world.combine_method() else {
        return;
    };
    let player = world.player.pos;
    let mut near: Vec<(f32, usize)> = shown
        .iter()
        .filter(|&&i| world.trace_of(i).is_some_and(|t| !t.forces.is_empty()))
        .map(|&i| (world.agents[i].body.pos.distance_squared(player), i))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    for &(_, i) in near.iter().take(SHOWN) {
        let Some(t) = world.trace_of(i) else {
            continue;
        };
        let mut lines = vec![(method.name().to_string(), DIM)];
        lines.extend(t.forces.iter().map(|f| line(f, t.force_max)));
        labels.block(lines, cam.to_screen(world.agents[i].body.pos));
    }
}

/// The legend's lines for the bars, in the modes that combine forces.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    if world.combine_method().is_some() {
        out.push(Key::new(TEXT, Mark::Text, "# force used this tick (B)"));
        out.push(Key::new(DIM, Mark::Text, "- force left out"));
    }
}
