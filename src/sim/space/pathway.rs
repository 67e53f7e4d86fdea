//! A pathway as the agents sense it (Reynolds 1999; OpenSteer's `PolylinePathway`): a centre
//! line of segments with a radius, measured along its length. Two queries: the nearest point of
//! the centre line to a point (with its distance along the path and the path's direction
//! there), and the point at a distance along. A loop (`cyclic`) wraps its distances round; an
//! open pathway holds them to its ends.

use crate::data::pathways::{MIN_SEGMENT, PathwayData};
use glam::Vec2;

/// A pathway with its segment lengths measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pathway {
    pub points: Vec<Vec2>,
    pub radius: f32,
    pub cyclic: bool,
    /// Distance along the path at the start of each segment, and the whole length last.
    starts: Vec<f32>,
}

/// Where a point falls on a pathway's centre line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    /// The nearest point of the centre line.
    pub point: Vec2,
    /// Its distance along the path from the first point.
    pub along: f32,
    /// The unit direction of the path there (from the first point toward the last).
    pub tangent: Vec2,
    /// How far the point is from the centre line.
    pub distance: f32,
}

impl Pathway {
    /// A pathway through `points` (points closer than a pixel to the one before are dropped);
    /// `None` when fewer than two remain (three for a loop).
    pub fn new(points: &[Vec2], radius: f32, cyclic: bool) -> Option<Pathway> {
        let mut kept: Vec<Vec2> = Vec::with_capacity(points.len());
        for &p in points {
            if !p.is_finite() {
                return None;
            }
            if kept.last().is_none_or(|q| q.distance(p) >= MIN_SEGMENT) {
                kept.push(p);
            }
        }
        if cyclic && kept.len() > 2 && kept[0].distance(kept[kept.len() - 1]) < MIN_SEGMENT {
            kept.pop();
        }
        if kept.len() < if cyclic { 3 } else { 2 } || !(radius.is_finite() && radius > 0.0) {
            return None;
        }
        let mut path = Pathway {
            points: kept,
            radius,
            cyclic,
            starts: Vec::new(),
        };
        let mut run = 0.0;
        for i in 0..path.segments() {
            path.starts.push(run);
            let (a, b) = path.segment(i);
            run += a.distance(b);
        }
        path.starts.push(run);
        Some(path)
    }

    /// The pathway of an arena file.
    pub fn from_data(d: &PathwayData) -> Option<Pathway> {
        let points: Vec<Vec2> = d.points.iter().map(|&p| Vec2::from(p)).collect();
        Pathway::new(&points, d.radius, d.cyclic)
    }

    /// The pathway as an arena file writes it.
    pub fn to_data(&self) -> PathwayData {
        PathwayData {
            points: self.points.iter().map(|p| p.to_array()).collect(),
            radius: self.radius,
            cyclic: self.cyclic,
        }
    }

    /// How many segments: one fewer than the points, or as many for a loop.
    pub fn segments(&self) -> usize {
        if self.cyclic {
            self.points.len()
        } else {
            self.points.len().saturating_sub(1)
        }
    }

    /// Segment `i`'s two ends.
    #[inline(always)]
    pub fn segment(&self, i: usize) -> (Vec2, Vec2) {
        let n = self.points.len();
        (self.points[i], self.points[(i + 1) % n])
    }

    /// The centre line's length (a loop's includes its closing segment).
    pub fn length(&self) -> f32 {
        self.starts.last().copied().unwrap_or(0.0)
    }

    /// The nearest point of the centre line to `p` (Reynolds' "project onto the path").
    pub fn project(&self, p: Vec2) -> Projection {
        let mut best = Projection {
            point: self.points.first().copied().unwrap_or(Vec2::ZERO),
            along: 0.0,
            tangent: Vec2::X,
            distance: f32::INFINITY,
        };
        let mut best2 = f32::INFINITY;
        for i in 0..self.segments() {
            let (a, b) = self.segment(i);
            let ab = b - a;
            let len = self.starts[i + 1] - self.starts[i];
            let tangent = ab / len.max(f32::EPSILON);
            let t = (p - a).dot(tangent).clamp(0.0, len);
            let q = a + tangent * t;
            let d2 = p.distance_squared(q);
            if d2 < best2 {
                best2 = d2;
                best = Projection {
                    point: q,
                    along: self.starts[i] + t,
                    tangent,
                    distance: 0.0,
                };
            }
        }
        best.distance = best2.sqrt();
        best
    }

    /// The distance along `along` wrapped round a loop, or held to an open path's ends.
    pub fn wrap(&self, along: f32) -> f32 {
        let length = self.length();
        if length <= 0.0 || !along.is_finite() {
            return 0.0;
        }
        if self.cyclic {
            along.rem_euclid(length)
        } else {
            along.clamp(0.0, length)
        }
    }

    /// The point of the centre line at distance `along` (wrapped or held, see
    /// [`Pathway::wrap`]) and the path's unit direction there.
    pub fn at(&self, along: f32) -> (Vec2, Vec2) {
        let along = self.wrap(along);
        let n = self.segments();
        // The segment holding `along`: the last whose start is not past it.
        let i = self.starts[..n]
            .partition_point(|&s| s <= along)
            .saturating_sub(1);
        let (a, b) = self.segment(i);
        let len = self.starts[i + 1] - self.starts[i];
        let tangent = (b - a) / len.max(f32::EPSILON);
        (
            a + tangent * (along - self.starts[i]).clamp(0.0, len),
            tangent,
        )
    }

    /// The signed change from distance `from` to distance `to` along the path: the short way
    /// round a loop.
    pub fn delta(&self, from: f32, to: f32) -> f32 {
        let d = to - from;
        let length = self.length();
        if self.cyclic && length > 0.0 {
            (d + length * 0.5).rem_euclid(length) - length * 0.5
        } else {
            d
        }
    }
}
