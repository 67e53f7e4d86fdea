//! The arena file's `pathways`: Reynolds' pathways for the `pathway` mode (Shift+8), each a
//! polyline of points with a radius, open (agents turn back at its ends) or closed into a loop
//! (`cyclic`). Validated with field paths (`pathways[1].points[3]: ...`).

use super::FieldError;
use serde::{Deserialize, Serialize};

/// Most pathways an arena file may hold.
pub const MAX_PATHWAYS: usize = 64;
/// Most points one pathway may have (a pathway drawn in the window has at most this many too).
pub const MAX_PATHWAY_POINTS: usize = 256;
/// Narrowest pathway radius (px): room for a body of the smallest radius the tuning allows.
pub const MIN_PATHWAY_RADIUS: f32 = 2.0;
/// Shortest segment (px): two points closer than this are one point.
pub const MIN_SEGMENT: f32 = 1.0;

/// One pathway as the arena file writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathwayData {
    /// The centre line's points, in order (at least 2; at least 3 for a loop).
    pub points: Vec<[f32; 2]>,
    /// Half the pathway's width: how far from the centre line the pathway reaches.
    pub radius: f32,
    /// The last point joins the first.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cyclic: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl PathwayData {
    /// Check one pathway of an arena `width` × `height`; `path` is its field path
    /// (`pathways[0]`).
    pub fn validate(&self, path: &str, width: f32, height: f32) -> Result<(), FieldError> {
        let least = if self.cyclic { 3 } else { 2 };
        if self.points.len() < least {
            return Err(FieldError::new(
                format!("{path}.points"),
                format!(
                    "needs at least {least} points{}, got {}",
                    if self.cyclic { " for a loop" } else { "" },
                    self.points.len()
                ),
            ));
        }
        if self.points.len() > MAX_PATHWAY_POINTS {
            return Err(FieldError::new(
                format!("{path}.points"),
                format!(
                    "at most {MAX_PATHWAY_POINTS} points, got {}",
                    self.points.len()
                ),
            ));
        }
        for (i, p) in self.points.iter().enumerate() {
            let inside = p[0].is_finite()
                && p[1].is_finite()
                && (0.0..=width).contains(&p[0])
                && (0.0..=height).contains(&p[1]);
            if !inside {
                return Err(FieldError::new(
                    format!("{path}.points[{i}]"),
                    format!(
                        "point ({}, {}) is outside the {width}x{height} arena",
                        p[0], p[1]
                    ),
                ));
            }
            if i > 0 {
                let q = self.points[i - 1];
                if (p[0] - q[0]).hypot(p[1] - q[1]) < MIN_SEGMENT {
                    return Err(FieldError::new(
                        format!("{path}.points[{i}]"),
                        format!(
                            "repeats the point before it (segments must be at least {MIN_SEGMENT} px)"
                        ),
                    ));
                }
            }
        }
        let max_radius = width.min(height) / 2.0;
        if !(self.radius.is_finite()
            && self.radius >= MIN_PATHWAY_RADIUS
            && self.radius <= max_radius)
        {
            return Err(FieldError::new(
                format!("{path}.radius"),
                format!(
                    "must be between {MIN_PATHWAY_RADIUS} and half the arena's shorter side ({max_radius}), got {}",
                    self.radius
                ),
            ));
        }
        Ok(())
    }

    /// The pathway `s` times larger about the arena's top-left corner.
    pub fn scaled(&self, s: f32) -> PathwayData {
        PathwayData {
            points: self.points.iter().map(|p| [p[0] * s, p[1] * s]).collect(),
            radius: self.radius * s,
            cyclic: self.cyclic,
        }
    }
}

/// Every pathway of an arena file, each by its field path.
pub fn validate(pathways: &[PathwayData], width: f32, height: f32) -> Result<(), FieldError> {
    if pathways.len() > MAX_PATHWAYS {
        return Err(FieldError::new(
            "pathways",
            format!("at most {MAX_PATHWAYS} pathways, got {}", pathways.len()),
        ));
    }
    for (i, p) in pathways.iter().enumerate() {
        p.validate(&format!("pathways[{i}]"), width, height)?;
    }
    Ok(())
}

/// One pathway on one line of a saved arena.
pub fn to_json(p: &PathwayData, point: impl Fn([f32; 2]) -> String) -> String {
    let points: Vec<String> = p.points.iter().map(|&q| point(q)).collect();
    format!(
        "{{ \"radius\": {}, {}\"points\": [{}] }}",
        p.radius,
        if p.cyclic { "\"cyclic\": true, " } else { "" },
        points.join(", ")
    )
}
