//! Feelers (Reynolds' obstacle avoidance): rays cast ahead along the heading — a central ray whose
//! length grows with speed (`min_length + look_ahead · speed / max_speed`) and, depending on the
//! layout, two whiskers at ± an angle or two rays parallel to the central one at the body's edges.
//! The deepest hit — where the ray reached furthest past the surface, relative to its length —
//! is what the agent reacts to.

use crate::sim::space::arena::{Arena, RayHit, sweep_reach};
use crate::sim::space::field::ROUNDING;
use glam::Vec2;

/// Which rays an agent casts (a tuning choice, so it is data).
pub use crate::data::tuning::Layout;

/// A ray configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feelers {
    pub layout: Layout,
    /// Central ray length added at full speed (px).
    pub look_ahead: f32,
    /// Central ray length when standing still (px).
    pub min_length: f32,
    /// Whisker (or parallel side ray) length (px).
    pub whisker_length: f32,
    /// Whisker angle either side of the heading (radians).
    pub whisker_angle: f32,
    /// The body radius: parallel rays start this far to each side; the other layouts sweep a
    /// body this wide along each ray, so a graze by the body's edge is felt too.
    pub half_width: f32,
}

/// One ray: where it starts, its unit direction and its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    pub origin: Vec2,
    pub dir: Vec2,
    pub length: f32,
}

impl Feelers {
    /// The rays for an agent at `pos` heading along unit `heading` at speed fraction `speed_frac`
    /// (0…1), whiskers opened by `extra_angle` radians beyond their angle; the central ray first.
    /// A layout with fewer rays gives zero-length ones for the rest.
    pub fn rays(&self, pos: Vec2, heading: Vec2, speed_frac: f32, extra_angle: f32) -> [Ray; 3] {
        let central = self.central_length(speed_frac);
        let centre = Ray {
            origin: pos,
            dir: heading,
            length: central,
        };
        let none = Ray {
            length: 0.0,
            ..centre
        };
        match self.layout {
            Layout::Single => [centre, none, none],
            Layout::Whiskers => {
                let turn = Vec2::from_angle(self.whisker_angle + extra_angle);
                let whisker = |turn: Vec2| Ray {
                    origin: pos,
                    dir: turn.rotate(heading),
                    length: self.whisker_length,
                };
                [centre, whisker(turn), whisker(Vec2::new(turn.x, -turn.y))]
            }
            Layout::Parallel => {
                let side = heading.perp() * self.half_width;
                let edge = |offset: Vec2| Ray {
                    origin: pos + offset,
                    dir: heading,
                    length: self.whisker_length,
                };
                [centre, edge(side), edge(-side)]
            }
        }
    }
}

/// The deepest hit among the rays: where, and how far past it the ray reached (0…1 of its length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feel {
    pub hit: RayHit,
    pub depth: f32,
    /// Which ray (0 central, 1 and 2 the sides).
    pub ray: u8,
}

impl Feel {
    /// The same hit after the agent has come `by` pixels nearer along the ray: what a cast now
    /// would most likely report, for an agent acting on what it felt a few ticks ago.
    pub fn closer(&mut self, by: f32) {
        // `depth = 1 − t / length`, so below 1 the ray's length is known and positive.
        if self.depth < 1.0 && by > 0.0 {
            let length = self.hit.t / (1.0 - self.depth);
            self.hit.t = (self.hit.t - by).max(0.0);
            self.depth = 1.0 - self.hit.t / length;
        }
    }
}

impl Feelers {
    /// The central ray's length at speed fraction `speed_frac`.
    fn central_length(&self, speed_frac: f32) -> f32 {
        self.min_length + self.look_ahead.max(0.0) * speed_frac.clamp(0.0, 1.0)
    }

    /// How far from the body's centre the side rays reach.
    fn side_reach(&self) -> f32 {
        match self.layout {
            Layout::Single => 0.0,
            Layout::Whiskers => self.whisker_length,
            Layout::Parallel => self.half_width + self.whisker_length,
        }
    }

    /// How far from the body's centre any ray reaches at speed fraction `speed_frac`.
    pub fn reach(&self, speed_frac: f32) -> f32 {
        self.central_length(speed_frac).max(self.side_reach())
    }

    /// Whether the rays for `pos`, `heading` and `speed_frac`, swept with radius `r`, all stay
    /// clear of the walls — when this says so, [`feel_walls`] finds nothing — decided without
    /// building the side rays, whose angle takes a sine and a cosine: the central ray is tested
    /// where [`Feelers::rays`] puts it, the side rays by the disc around the body they lie in
    /// (grown by more than their rounding). `false` means only that it cannot tell.
    pub fn clear_of_walls(
        &self,
        arena: &Arena,
        pos: Vec2,
        heading: Vec2,
        speed_frac: f32,
        r: f32,
    ) -> bool {
        let end = pos + heading * self.central_length(speed_frac);
        let sides = self.side_reach().max(0.0) + r + ROUNDING;
        (end.x - r > 0.0)
            & (end.y - r > 0.0)
            & (end.x + r < arena.width)
            & (end.y + r < arena.height)
            & (pos.x - sides > 0.0)
            & (pos.y - sides > 0.0)
            & (pos.x + sides < arena.width)
            & (pos.y + sides < arena.height)
    }

    /// The radius swept along each ray (zero for the parallel layout, whose side rays stand in
    /// for the body's edges).
    pub fn sweep_radius(&self) -> f32 {
        match self.layout {
            Layout::Parallel => 0.0,
            Layout::Single | Layout::Whiskers => self.half_width,
        }
    }
}

/// Cast the rays, each sweeping a body of radius `r`; the hit that reaches deepest wins (walls
/// count as obstacles).
pub fn feel(arena: &Arena, rays: &[Ray; 3], r: f32) -> Option<Feel> {
    deeper(feel_walls(arena, rays, r), feel_obstacles(arena, rays, r))
}

/// The deeper of two hits (the obstacle, `b`, on a tie).
pub fn deeper(walls: Option<Feel>, obstacles: Option<Feel>) -> Option<Feel> {
    match (walls, obstacles) {
        (Some(w), Some(o)) => Some(if w.depth > o.depth { w } else { o }),
        (w, o) => w.or(o),
    }
}

/// Whether every ray, swept with radius `r`, stays clear of the walls from start to end (also
/// when no ray has length). Plain comparisons, all of them: this runs for most agents every tick.
fn within_walls(arena: &Arena, rays: &[Ray; 3], r: f32) -> bool {
    let inside = |p: Vec2| {
        (p.x - r > 0.0) & (p.y - r > 0.0) & (p.x + r < arena.width) & (p.y + r < arena.height)
    };
    rays.iter().all(|ray| {
        (ray.length <= 0.0) | (inside(ray.origin) & inside(ray.origin + ray.dir * ray.length))
    })
}

/// The deepest of the rays' wall hits: cheap (the walls are four lines), so agents that cast at
/// a regulated rate still feel the walls every tick.
pub fn feel_walls(arena: &Arena, rays: &[Ray; 3], r: f32) -> Option<Feel> {
    if within_walls(arena, rays, r) {
        return None;
    }
    deepest(rays, |_, ray| {
        if arena.contains(ray.origin) {
            arena.sweep_walls(ray.origin, ray.dir, ray.length, r)
        } else {
            // A side ray that starts outside the walls feels the wall at once.
            let inside = ray.origin.clamp(Vec2::ZERO, arena.size());
            Some(RayHit {
                t: 0.0,
                point: inside,
                normal: (inside - ray.origin).normalize_or_zero(),
                obstacle: None,
            })
        }
    })
}

/// The deepest of the rays' obstacle hits.
pub fn feel_obstacles(arena: &Arena, rays: &[Ray; 3], r: f32) -> Option<Feel> {
    // In open space there is nothing to feel: the clearance field says so without looking at
    // any obstacle.
    let centre = rays[0].origin;
    let reach = rays
        .iter()
        .filter(|ray| ray.length > 0.0)
        .map(|ray| ray.origin.distance(centre) + ray.length)
        .fold(0.0, f32::max);
    if arena.field().free(centre) - sweep_reach(r) >= reach {
        return None;
    }
    feel_obstacles_near(arena, rays, r)
}

/// [`feel_obstacles`] for a caller that has already asked the field about the whole reach of
/// the rays from their centre (and been told it cannot vouch for it).
pub fn feel_obstacles_near(arena: &Arena, rays: &[Ray; 3], r: f32) -> Option<Feel> {
    let centre = rays[0].origin;
    // The field may still vouch for the disc about the middle of the central ray that holds
    // every ray: about half that radius, so it ends some of the casts made near obstacles but
    // not among them (about a third of those that get here, in the default arena's crowds).
    let middle = centre + rays[0].dir * (rays[0].length * 0.5);
    let span = rays
        .iter()
        .filter(|ray| ray.length > 0.0)
        .map(|ray| {
            let end = ray.origin + ray.dir * ray.length;
            ray.origin
                .distance_squared(middle)
                .max(end.distance_squared(middle))
        })
        .fold(0.0, f32::max)
        .sqrt();
    if arena.field().free(middle) - sweep_reach(r) >= span + ROUNDING {
        return None;
    }
    let fan = rays.map(|ray| (ray.origin, ray.dir, ray.length));
    // Near one obstacle and no other (most casts in a sparse arena), that one alone is tested.
    let hits = match arena
        .field()
        .only_within(middle, span + sweep_reach(r) + ROUNDING)
    {
        Some(index) => arena.sweep_fan_only(index, &fan, r),
        None => arena.sweep_fan(&fan, r),
    };
    deepest(rays, |i, _| hits[i])
}

/// The hit that reaches deepest into its ray (the first ray on a tie).
fn deepest(rays: &[Ray; 3], cast: impl Fn(usize, &Ray) -> Option<RayHit>) -> Option<Feel> {
    let mut best: Option<Feel> = None;
    for (i, ray) in rays.iter().enumerate() {
        if ray.length <= 0.0 {
            continue;
        }
        if let Some(hit) = cast(i, ray) {
            let depth = 1.0 - hit.t / ray.length;
            if best.is_none_or(|b| depth > b.depth) {
                best = Some(Feel {
                    hit,
                    depth,
                    ray: i as u8,
                });
            }
        }
    }
    best
}

/// Turn a desired direction away from a felt surface: drop its component into the surface, then
/// lean out along the normal, more the deeper the ray reached. Returns a unit vector (or zero).
pub fn deflect(dir: Vec2, feel: &Feel) -> Vec2 {
    let n = feel.hit.normal;
    let into = dir.dot(n).min(0.0);
    (dir - n * into + n * feel.depth * 2.0).normalize_or_zero()
}
