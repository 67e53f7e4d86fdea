//! A guard's waypoint route (Bourg & Seemann ch. 6): the points in order, walked round and round
//! or to the end and back, and the nearest point of it to go back to.

use crate::data::fsm::{RouteData, RouteMode};
use glam::Vec2;

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    points: Vec<Vec2>,
    mode: RouteMode,
}

/// The nearest point of a route to somewhere: the point, the segment it lies on (from
/// `points[segment]` to the point after it) and how far away it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RouteSpot {
    pub point: Vec2,
    pub segment: usize,
    pub distance: f32,
}

/// Where a guard is along its route: the waypoint it walks to, and (back and forth) which way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteCursor {
    pub target: usize,
    pub forward: bool,
}

impl Route {
    pub fn from_data(d: &RouteData) -> Route {
        Route {
            points: d.points.iter().map(|p| Vec2::from(*p)).collect(),
            mode: d.mode,
        }
    }

    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Move every point by `fit` (to where a guard can stand in the arena it runs in).
    pub fn fit(&mut self, fit: impl Fn(Vec2) -> Vec2) {
        for p in &mut self.points {
            *p = fit(*p);
        }
    }

    pub fn mode(&self) -> RouteMode {
        self.mode
    }

    /// The segments walked: a loop closes back to its first point, back and forth does not.
    pub fn segment_count(&self) -> usize {
        match (self.points.len(), self.mode) {
            (0 | 1, _) => 0,
            (n, RouteMode::Loop) => n,
            (n, RouteMode::BackAndForth) => n - 1,
        }
    }

    /// Segment `i`'s ends.
    pub fn segment(&self, i: usize) -> (Vec2, Vec2) {
        let n = self.points.len().max(1);
        let a = self.points.get(i % n).copied().unwrap_or(Vec2::ZERO);
        let b = self.points.get((i + 1) % n).copied().unwrap_or(a);
        (a, b)
    }

    /// The point of the route nearest to `p` (a route of one point is that point).
    pub fn nearest(&self, p: Vec2) -> RouteSpot {
        let first = self.points.first().copied().unwrap_or(Vec2::ZERO);
        let mut best = RouteSpot {
            point: first,
            segment: 0,
            distance: p.distance(first),
        };
        for i in 0..self.segment_count() {
            let (a, b) = self.segment(i);
            let ab = b - a;
            let along = if ab.length_squared() > 0.0 {
                ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = a + ab * along;
            let d = p.distance(q);
            if d < best.distance {
                best = RouteSpot {
                    point: q,
                    segment: i,
                    distance: d,
                };
            }
        }
        best
    }

    /// How far `p` is from the route.
    pub fn distance_to(&self, p: Vec2) -> f32 {
        self.nearest(p).distance
    }
}

impl RouteCursor {
    /// Walking towards the first point.
    pub fn start() -> RouteCursor {
        RouteCursor {
            target: 0,
            forward: true,
        }
    }

    pub fn target_point(&self, route: &Route) -> Vec2 {
        let n = route.points.len().max(1);
        route
            .points
            .get(self.target % n)
            .copied()
            .unwrap_or(Vec2::ZERO)
    }

    /// The next waypoint, once the current one is reached: round a loop, or turning at either
    /// end of a back-and-forth route.
    pub fn advance(&mut self, route: &Route) {
        let n = route.points.len();
        if n < 2 {
            self.target = 0;
            return;
        }
        match route.mode {
            RouteMode::Loop => self.target = (self.target + 1) % n,
            RouteMode::BackAndForth => {
                if self.forward && self.target + 1 >= n {
                    self.forward = false;
                } else if !self.forward && self.target == 0 {
                    self.forward = true;
                }
                self.target = if self.forward {
                    (self.target + 1).min(n - 1)
                } else {
                    self.target.saturating_sub(1)
                };
            }
        }
    }

    /// Rejoin the route at `spot` (from [`Route::nearest`]): walk on to the end of its segment
    /// that lies ahead in the cursor's direction.
    pub fn resume(&mut self, route: &Route, spot: RouteSpot) {
        let n = route.points.len();
        if n < 2 {
            self.target = 0;
            return;
        }
        let i = spot.segment.min(n - 1);
        self.target = match route.mode {
            RouteMode::Loop => {
                self.forward = true;
                (i + 1) % n
            }
            RouteMode::BackAndForth if self.forward => (i + 1).min(n - 1),
            RouteMode::BackAndForth => i,
        };
    }

    /// The waypoint to walk to from `pos`, moving on to the next once within `reach` of it.
    pub fn follow(&mut self, route: &Route, pos: Vec2, reach: f32) -> Vec2 {
        if pos.distance(self.target_point(route)) <= reach {
            self.advance(route);
        }
        self.target_point(route)
    }
}
