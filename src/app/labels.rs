//! The overlay's text beside agents (state words, `Tc`, a guard's last sighting, a pattern's
//! instructions), gathered while the overlay is drawn and placed at the end: nearest the player
//! first, each beside its agent where it overlaps no label already placed and not the player,
//! kept inside the arena, at most [`MOST`] of them. A label with no free place is left out:
//! thirty state words on top of one another say nothing.

use super::text;
use glam::Vec2;
use macroquad::math::Rect;
use macroquad::prelude::Color;

/// The most labels drawn in a frame.
pub const MOST: usize = 16;

/// Room kept clear either side of a label.
const SPACE: f32 = text::ADVANCE;

/// A block of lines to set beside a point.
#[derive(Debug, Clone)]
pub struct Label {
    pub lines: Vec<(String, Color)>,
    /// The point it belongs to (screen px).
    pub at: Vec2,
}

/// This frame's labels.
#[derive(Debug, Default)]
pub struct Labels {
    wanted: Vec<Label>,
}

impl Labels {
    pub fn line(&mut self, text: String, color: Color, at: Vec2) {
        self.wanted.push(Label {
            lines: vec![(text, color)],
            at,
        });
    }

    pub fn block(&mut self, lines: Vec<(String, Color)>, at: Vec2) {
        if !lines.is_empty() {
            self.wanted.push(Label { lines, at });
        }
    }

    /// Draw what fits; `player` (its screen position and radius) is never covered.
    pub fn draw(&mut self, bounds: Rect, player: (Vec2, f32)) {
        let placed = place(&mut self.wanted, bounds, player);
        for (label, top_left) in placed {
            for (i, (line, color)) in label.lines.iter().enumerate() {
                let baseline = top_left.y + text::ASCENT + i as f32 * text::LINE;
                text::draw(line, top_left.x, baseline, *color);
            }
        }
        self.wanted.clear();
    }
}

/// Where each label that fits goes (its top-left corner), nearest the player first.
pub fn place(
    wanted: &mut [Label],
    bounds: Rect,
    (player, radius): (Vec2, f32),
) -> Vec<(&Label, Vec2)> {
    wanted.sort_by(|a, b| {
        a.at.distance_squared(player)
            .total_cmp(&b.at.distance_squared(player))
    });
    let mut taken = vec![Rect::new(
        player.x - radius - 2.0,
        player.y - radius - 2.0,
        2.0 * radius + 4.0,
        2.0 * radius + 4.0,
    )];
    let mut out = Vec::new();
    for label in wanted.iter() {
        if out.len() == MOST {
            break;
        }
        let w = label
            .lines
            .iter()
            .map(|(t, _)| text::width(t))
            .fold(0.0, f32::max);
        let h = label.lines.len() as f32 * text::LINE;
        if w > bounds.w || h > bounds.h {
            continue;
        }
        // Right of the point and above, then below, then the left side.
        let tries = [
            Vec2::new(12.0, -h - 4.0),
            Vec2::new(12.0, 8.0),
            Vec2::new(-12.0 - w, -h - 4.0),
            Vec2::new(-12.0 - w, 8.0),
        ];
        let spot = tries.iter().find_map(|&d| {
            let p = label.at + d;
            let p = Vec2::new(
                p.x.clamp(bounds.x, bounds.x + bounds.w - w),
                p.y.clamp(bounds.y, bounds.y + bounds.h - h),
            );
            // A space's width apart, so two labels side by side do not read as one word.
            let r = Rect::new(p.x - SPACE, p.y, w + 2.0 * SPACE, h);
            (!taken.iter().any(|t| t.overlaps(&r))).then_some((p, r))
        });
        if let Some((p, r)) = spot {
            taken.push(r);
            out.push((label, p));
        }
    }
    out
}
