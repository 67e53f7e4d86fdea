//! The numbers of the flock (Shift+1) and the swarm (Shift+2) as the tuning file holds them:
//! plain data, read by `sim::behaviours::flock` and `sim::behaviours::swarm`, where each
//! number's part in the formulas is explained.

use serde::{Deserialize, Serialize};

/// Whom a boid heeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Neighbourhood {
    /// Everyone within `radius` (Reynolds).
    Metric,
    /// The `k` nearest within `reach` (Ballerini et al.).
    Topological,
}

/// The flock's numbers. Weights are shares of the vehicle's force; lengths are pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlockParams {
    pub separation: f32,
    pub alignment: f32,
    pub cohesion: f32,
    /// The metric neighbourhood's radius; cohesion would close this distance in a second at
    /// full speed.
    pub radius: f32,
    /// Neighbours nearer than this push a boid away.
    pub separation_radius: f32,
    /// Full angle of the field of view, degrees: 0 heeds nobody, 360 everyone in range.
    pub fov_deg: f32,
    pub neighbourhood: Neighbourhood,
    /// How many the topological neighbourhood heeds (at most `neighbours::MAX_K`).
    pub k: u32,
    /// How far the topological neighbourhood looks for its `k`.
    pub reach: f32,
    /// Weight of gathering toward the mass of everyone within `gather_radius` (seen or not),
    /// and that radius: Couzin's zone of attraction, wider than the neighbourhood.
    pub gather: f32,
    pub gather_radius: f32,
    /// Weight of fleeing a predator, and how near it must be.
    pub flee: f32,
    pub threat_radius: f32,
    /// Weight of following a leader, how far behind it the boids gather, and the radius inside
    /// which they slow to arrive there.
    pub follow: f32,
    pub leader_offset: f32,
    pub leader_slowing: f32,
    /// The leader's path: a corridor this long ahead of it and this wide either side.
    pub corridor_length: f32,
    pub corridor_half_width: f32,
    /// Weight of each boid's own wander (Reynolds' jittered circle, the wander tuning's): enough
    /// that the flock roams the arena instead of cruising one line for ever.
    pub wander: f32,
    /// Weight of turning off the walls, and how far off them a boid means to run along them
    /// (px), turning as soon as it or the point `wall_look` px ahead of it is that near: the
    /// turn starts early and gently, so a flock turns as one (see `boid.rs`).
    pub wall: f32,
    pub wall_margin: f32,
    pub wall_look: f32,
}

impl Default for FlockParams {
    fn default() -> Self {
        FlockParams {
            separation: 2.0,
            alignment: 3.0,
            cohesion: 1.0,
            radius: 120.0,
            separation_radius: 50.0,
            fov_deg: 270.0,
            neighbourhood: Neighbourhood::Metric,
            k: 7,
            reach: 150.0,
            gather: 0.8,
            gather_radius: 400.0,
            flee: 6.0,
            threat_radius: 150.0,
            follow: 1.0,
            leader_offset: 60.0,
            leader_slowing: 80.0,
            corridor_length: 140.0,
            corridor_half_width: 40.0,
            wander: 0.1,
            wall: 1.0,
            wall_margin: 60.0,
            wall_look: 250.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwarmParams {
    /// Attraction's strength and exponent.
    pub a: f32,
    pub n: f32,
    /// Repulsion's strength and exponent.
    pub b: f32,
    pub m: f32,
    /// Neighbours farther than this many body lengths are not felt (see [`fade`]).
    pub range: f32,
    /// How strongly the player's body acts, as a multiple of a neighbour's.
    pub player_weight: f32,
    /// Speed (px/s) of the pull toward the player beyond the hold radius.
    pub pull: f32,
    /// Seconds over which an agent's velocity closes on the desired one.
    pub response_s: f32,
    /// Weight of the push off obstacles and walls nearer than one equilibrium spacing (full
    /// speed at the body's edge).
    pub obstacle: f32,
    /// Feel the potential's gradient `−dU/dr = −nA/rⁿ⁺¹ + mB/rᵐ⁺¹` as the force, as the book's
    /// text has it, instead of `U = −A/rⁿ + B/rᵐ` itself, as its code does (the default).
    pub gradient: bool,
}

impl Default for SwarmParams {
    fn default() -> Self {
        SwarmParams {
            a: 2000.0,
            n: 2.0,
            b: 4000.0,
            m: 3.0,
            range: 3.0,
            player_weight: 1.0,
            pull: 80.0,
            response_s: 0.25,
            obstacle: 1.0,
            gradient: false,
        }
    }
}

/// One of the book's fields of view (Bourg ch. 4): how far and how wide a boid sees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BookView {
    pub name: &'static str,
    /// The metric neighbourhood's radius (px): the book's radius in its unit lengths, one to a
    /// pixel.
    pub radius: f32,
    /// The full angle of the view (degrees).
    pub fov_deg: f32,
}

/// The book's three views, in the order `V` steps through them: wide (200, 270°), limited (30,
/// 180°) and narrow (50, 90°).
pub const BOOK_VIEWS: [BookView; 3] = [
    BookView {
        name: "wide",
        radius: 200.0,
        fov_deg: 270.0,
    },
    BookView {
        name: "limited",
        radius: 30.0,
        fov_deg: 180.0,
    },
    BookView {
        name: "narrow",
        radius: 50.0,
        fov_deg: 90.0,
    },
];

impl FlockParams {
    /// The book's view the radius and the angle are set to, if they are one of them.
    pub fn book_view(&self) -> Option<BookView> {
        BOOK_VIEWS
            .into_iter()
            .find(|v| v.radius == self.radius && v.fov_deg == self.fov_deg)
    }

    /// The book's view after this one (the wide one after any other setting).
    pub fn next_book_view(&self) -> BookView {
        let at = BOOK_VIEWS
            .iter()
            .position(|v| v.radius == self.radius && v.fov_deg == self.fov_deg);
        match at {
            Some(i) => BOOK_VIEWS[(i + 1) % BOOK_VIEWS.len()],
            None => BOOK_VIEWS[0],
        }
    }
}

/// One of the book's Lennard-Jones settings between units (Bourg ch. 5), with the range that
/// reaches past its equilibrium.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BookSwarm {
    pub name: &'static str,
    pub a: f32,
    pub b: f32,
    pub n: f32,
    pub m: f32,
    /// How far (body lengths) neighbours are felt: one and a half times the equilibrium.
    pub range: f32,
}

/// The book's two settings between units, in the order `V` steps through them: its chase
/// example (2000, 4000, 2, 3; r* = 2 lengths) and its swarm example (2000, 10000, 1, 2; r* = 5).
pub const BOOK_SWARMS: [BookSwarm; 2] = [
    BookSwarm {
        name: "chase example",
        a: 2000.0,
        b: 4000.0,
        n: 2.0,
        m: 3.0,
        range: 3.0,
    },
    BookSwarm {
        name: "swarm example",
        a: 2000.0,
        b: 10000.0,
        n: 1.0,
        m: 2.0,
        range: 7.5,
    },
];

impl SwarmParams {
    /// The numbers of the force as felt: `U`'s own, or with [`SwarmParams::gradient`] those of
    /// `−dU/dr` (A → nA, n → n + 1, B → mB, m → m + 1), which has the same form.
    pub fn felt(&self) -> SwarmParams {
        if self.gradient {
            SwarmParams {
                a: self.a * self.n,
                n: self.n + 1.0,
                b: self.b * self.m,
                m: self.m + 1.0,
                gradient: false,
                ..*self
            }
        } else {
            *self
        }
    }

    /// The book's setting the neighbours' numbers are at, if they are one of them.
    pub fn book_swarm(&self) -> Option<BookSwarm> {
        BOOK_SWARMS.into_iter().find(|s| self.is(s))
    }

    /// The book's setting after this one (the first after any other setting).
    pub fn next_book_swarm(&self) -> BookSwarm {
        match BOOK_SWARMS.iter().position(|s| self.is(s)) {
            Some(i) => BOOK_SWARMS[(i + 1) % BOOK_SWARMS.len()],
            None => BOOK_SWARMS[0],
        }
    }

    fn is(&self, s: &BookSwarm) -> bool {
        (self.a, self.b, self.n, self.m, self.range) == (s.a, s.b, s.n, s.m, s.range)
    }
}
