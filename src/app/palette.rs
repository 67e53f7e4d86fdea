//! The window's colours, in one place: every drawing file takes its colours from here, so no
//! two drawing files need each other for a colour.

use macroquad::prelude::Color;

/// Okabe & Ito's palette (distinguishable with the common colour-vision deficiencies), and a
/// light grey for what it has no slot for.
pub const VERMILLION: Color = Color::new(0.84, 0.37, 0.0, 1.0);
pub const ORANGE: Color = Color::new(0.90, 0.62, 0.0, 1.0);
pub const PURPLE: Color = Color::new(0.80, 0.47, 0.65, 1.0);
pub const YELLOW: Color = Color::new(0.94, 0.89, 0.26, 1.0);
pub const SKY: Color = Color::new(0.34, 0.71, 0.91, 1.0);
pub const GREEN: Color = Color::new(0.0, 0.62, 0.45, 1.0);
pub const BLUE: Color = Color::new(0.25, 0.55, 0.95, 1.0);
pub const GREY: Color = Color::new(0.70, 0.70, 0.72, 1.0);
pub const WHITE: Color = Color::new(0.97, 0.97, 0.97, 1.0);

/// The arena and the overlay.
pub const BACKGROUND: Color = Color::new(0.06, 0.07, 0.09, 1.0);
pub const FLOOR: Color = Color::new(0.11, 0.12, 0.15, 1.0);
pub const OBSTACLE: Color = Color::new(0.33, 0.37, 0.45, 1.0);
pub const GRID: Color = Color::new(1.0, 1.0, 1.0, 0.07);
pub const PLAYER: Color = Color::new(0.35, 0.85, 1.0, 1.0);
pub const FLASH: Color = Color::new(1.0, 1.0, 1.0, 1.0);
pub const CHASER: Color = Color::new(0.95, 0.42, 0.30, 1.0);
pub const FLEER: Color = Color::new(0.95, 0.85, 0.30, 1.0);
pub const VELOCITY: Color = Color::new(0.35, 0.95, 0.45, 0.9);
pub const STEERING: Color = Color::new(1.0, 0.35, 0.75, 0.9);
pub const SIGHT: Color = Color::new(1.0, 1.0, 1.0, 0.18);
pub const LABEL: Color = Color::new(0.85, 0.88, 0.95, 0.9);
pub const PATH: Color = Color::new(0.95, 0.42, 0.30, 0.45);
pub const WALKED: Color = Color::new(0.95, 0.42, 0.30, 0.2);
pub const BLOCKED: Color = Color::new(1.0, 0.2, 0.2, 0.9);
pub const PREDICT: Color = Color::new(0.55, 0.75, 1.0, 0.95);
pub const THREAT: Color = Color::new(0.95, 0.85, 0.30, 0.45);
pub const FEELER: Color = Color::new(0.75, 0.75, 0.85, 0.5);
pub const BOSS: Color = Color::new(0.30, 0.85, 0.55, 1.0);
pub const ESCORT: Color = Color::new(0.95, 0.35, 0.45, 1.0);
pub const DRONE: Color = Color::new(0.35, 0.60, 1.0, 1.0);
pub const WALKER: Color = Color::new(0.75, 0.55, 1.0, 1.0);
pub const TRAIL: Color = Color::new(0.75, 0.55, 1.0, 0.45);
/// The `pathway` mode's floor (opaque, so overlapping pieces do not darken), its edges and
/// centre line in the overlay, and a pathway being drawn with the mouse.
pub const PATHWAY: Color = Color::new(0.16, 0.19, 0.25, 1.0);
pub const PATHWAY_EDGE: Color = Color::new(0.34, 0.71, 0.91, 0.7);
pub const PATHWAY_CENTRE: Color = Color::new(0.34, 0.71, 0.91, 0.3);
pub const SKETCH: Color = Color::new(0.97, 0.97, 0.97, 0.9);
/// A pedestrian's projection on its lane, and the target ahead.
pub const PROJECTION: Color = Color::new(0.90, 0.62, 0.0, 0.95);
pub const AHEAD: Color = Color::new(0.97, 0.97, 0.97, 0.8);
pub const APART: Color = Color::new(1.0, 0.60, 0.20, 0.9);
/// A line from a crowd member to a neighbour it heeds.
pub const NEIGHBOUR: Color = Color::new(1.0, 1.0, 1.0, 0.35);

/// Text and panels.
pub const TEXT: Color = Color::new(0.92, 0.94, 0.98, 1.0);
pub const DIM: Color = Color::new(0.62, 0.66, 0.75, 1.0);
pub const PANEL_BG: Color = Color::new(0.03, 0.04, 0.06, 0.9);
