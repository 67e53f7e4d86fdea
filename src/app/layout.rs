//! Where things go on the screen: the HUD band on top, the replay bar below it when replaying,
//! a side column on the right for the panels (legend, chart, tuning, the mode's own box) and the
//! arena letterboxed into what is left. Panels live beside the arena, never on it, so whatever
//! is open, the player and the agents stay in sight; the arena shrinks a little instead.

use super::text;
use super::view::View;
use crate::sim::mode::Mode;
use crate::sim::world::World;
use macroquad::math::Rect;
use macroquad::prelude::{screen_height, screen_width};

/// Height of the HUD band above the arena, in screen pixels.
pub const HUD_HEIGHT: f32 = 52.0;
/// The replay window's position bar, below the HUD band.
pub const BAR_TOP: f32 = HUD_HEIGHT + 4.0;
pub const BAR_HEIGHT: f32 = 30.0;
/// The column's width, and its share of the window at most (a narrow window keeps an arena).
const COLUMN_WIDTH: f32 = 310.0;
const COLUMN_SHARE: f32 = 0.4;
/// Room between the column's panels and round the edges.
pub const GAP: f32 = 6.0;
/// The least room the tuning panel keeps for itself in the column (its title and three rows).
pub const TUNING_MIN: f32 = 170.0;

/// The screen's parts this frame.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// What the arena is fitted into.
    pub arena: Rect,
    /// The side column, when a panel is open.
    pub column: Option<Rect>,
}

/// The parts for a window of `width` × `height`: `bar` leaves room for the replay bar, `column`
/// opens the side column.
pub fn split(width: f32, height: f32, bar: bool, column: bool) -> Layout {
    let top = if bar {
        BAR_TOP + BAR_HEIGHT + GAP
    } else {
        HUD_HEIGHT
    };
    let body = (height - top).max(1.0);
    let column_w = if column {
        COLUMN_WIDTH.min(width * COLUMN_SHARE).floor()
    } else {
        0.0
    };
    Layout {
        arena: Rect::new(0.0, top, (width - column_w).max(1.0), body),
        column: column.then(|| Rect::new(width - column_w, top, column_w, body)),
    }
}

/// This frame's parts for the world and the view.
pub fn of(world: &World, view: &View) -> Layout {
    split(
        screen_width(),
        screen_height(),
        view.replaying,
        wants_column(world, view),
    )
}

/// Whether anything asks for the column: the legend (with the overlay), the chart, the tuning
/// panel, or a mode's own box (mode 0's kinds, the search's figures).
fn wants_column(world: &World, view: &View) -> bool {
    view.overlay || view.chart || view.tuning || matches!(world.mode, Mode::Mixed | Mode::Pathfind)
}

/// The column handed out top to bottom: each panel takes its height, or, when that would leave
/// less than `keep` below it, a single line saying what did not fit.
pub struct Column {
    rect: Rect,
    y: f32,
    keep: f32,
}

impl Column {
    pub fn new(rect: Rect, keep: f32) -> Column {
        Column {
            rect,
            y: rect.y + GAP,
            keep,
        }
    }

    /// The panels' width.
    pub fn width(&self) -> f32 {
        self.rect.w - 2.0 * GAP
    }

    /// A panel's rectangle of `height`, or `None` (with the note drawn) when there is no room.
    pub fn take(&mut self, height: f32, name: &str) -> Option<Rect> {
        self.take_within(height, height, name)
    }

    /// A panel's rectangle of `height`, or, when that is more than the room left, of the room
    /// but one line (kept for a later panel's note) if that is at least `least` (the panel then
    /// shows what fits); `None` (with the note drawn) below that.
    pub fn take_within(&mut self, height: f32, least: f32, name: &str) -> Option<Rect> {
        let bottom = self.rect.y + self.rect.h - self.keep;
        if let Some(h) = within(bottom - self.y, height, least) {
            let r = Rect::new(self.rect.x + GAP, self.y, self.width(), h);
            self.y += h + GAP;
            return Some(r);
        }
        if self.y + text::LINE <= bottom {
            let note = format!("{name}: no room (close another panel)");
            let fitted = text::fit(&note, self.width());
            text::draw(
                &fitted,
                self.rect.x + GAP,
                self.y + text::ASCENT,
                super::palette::DIM,
            );
            self.y += text::LINE;
        }
        None
    }

    /// What is left below the panels taken.
    pub fn rest(&self) -> Rect {
        let bottom = self.rect.y + self.rect.h - GAP;
        Rect::new(
            self.rect.x + GAP,
            self.y,
            self.width(),
            (bottom - self.y).max(0.0),
        )
    }
}

/// The height a panel wanting `height` (`least` at a pinch) gets from `room`: all it wants if
/// that fits, else the room but one line and its gap, if that is at least `least`.
pub fn within(room: f32, height: f32, least: f32) -> Option<f32> {
    let h = if height <= room {
        height
    } else {
        room - text::LINE - GAP
    };
    (h >= height.min(least)).then_some(h)
}
