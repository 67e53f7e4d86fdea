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
    /// text has it, instead of `U = −A/rⁿ + B/rᵐ` itself, as its code does (the default); the
    /// player's and the obstacles' potentials too.
    pub gradient: bool,
    /// The book's potential toward the player, felt by every member wherever it is, `r` from
    /// the player's centre in lengths of the two radii summed (1 where the bodies touch): off
    /// (A = B = 0) by default, the swarm example's A 10000, B 10000, n 1, m 2 as a preset.
    pub player_a: f32,
    pub player_n: f32,
    pub player_b: f32,
    pub player_m: f32,
    /// The book's potential off the nearest obstacle and the walls, felt within `range`, `r` from
    /// the surface in body lengths plus one (1 where the body touches it): off (A = B = 0) by
    /// default, the swarm example's A 0, B 20000, m 3 as a preset.
    pub obstacle_a: f32,
    pub obstacle_n: f32,
    pub obstacle_b: f32,
    pub obstacle_m: f32,
}

/// The four numbers of one Lennard-Jones potential, `U(r) = −A/rⁿ + B/rᵐ`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Potential {
    pub a: f32,
    pub n: f32,
    pub b: f32,
    pub m: f32,
}

impl Potential {
    /// Whether it acts at all (a potential with A = B = 0 is off).
    pub fn on(&self) -> bool {
        self.a != 0.0 || self.b != 0.0
    }

    /// The numbers as felt: `U`'s own, or with `gradient` those of `−dU/dr` (A → nA,
    /// n → n + 1, B → mB, m → m + 1), which has the same form.
    pub fn felt(self, gradient: bool) -> Potential {
        if gradient {
            Potential {
                a: self.a * self.n,
                n: self.n + 1.0,
                b: self.b * self.m,
                m: self.m + 1.0,
            }
        } else {
            self
        }
    }
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
            player_a: 0.0,
            player_n: 1.0,
            player_b: 0.0,
            player_m: 2.0,
            obstacle_a: 0.0,
            obstacle_n: 1.0,
            obstacle_b: 0.0,
            obstacle_m: 3.0,
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

/// One of the book's Lennard-Jones settings (Bourg ch. 5): between units, with the range that
/// reaches past its equilibrium, and what draws them to the player and keeps them off obstacles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BookSwarm {
    pub name: &'static str,
    pub a: f32,
    pub b: f32,
    pub n: f32,
    pub m: f32,
    /// How far (body lengths) neighbours are felt: one and a half times the equilibrium.
    pub range: f32,
    /// The arena's own rules toward the player (its body as a neighbour, the pull beyond the
    /// hold) and off obstacles (the push within one equilibrium), 0 where the book's potential
    /// takes their place.
    pub player_weight: f32,
    pub pull: f32,
    pub obstacle: f32,
    /// The book's potential toward the player and off obstacles (A = B = 0: off).
    pub player: Potential,
    pub obstacles: Potential,
}

/// Off: a potential with A = B = 0, with the exponents the swarm example gives it.
const OFF: Potential = Potential {
    a: 0.0,
    n: 1.0,
    b: 0.0,
    m: 2.0,
};

/// The book's two settings, in the order `V` steps through them: its chase example's numbers
/// between units (2000, 4000, 2, 3; r* = 2 lengths) with the arena's own rules toward the player
/// and off obstacles (the default), and its swarm example whole: 2000, 10000, 1, 2 between units
/// (r* = 5), 10000, 10000, 1, 2 toward the player and 0, 20000, m 3 off obstacles.
pub const BOOK_SWARMS: [BookSwarm; 2] = [
    BookSwarm {
        name: "chase example",
        a: 2000.0,
        b: 4000.0,
        n: 2.0,
        m: 3.0,
        range: 3.0,
        player_weight: 1.0,
        pull: 80.0,
        obstacle: 1.0,
        player: OFF,
        obstacles: Potential { m: 3.0, ..OFF },
    },
    BookSwarm {
        name: "swarm example",
        a: 2000.0,
        b: 10000.0,
        n: 1.0,
        m: 2.0,
        range: 7.5,
        player_weight: 0.0,
        pull: 0.0,
        obstacle: 0.0,
        player: Potential {
            a: 10000.0,
            n: 1.0,
            b: 10000.0,
            m: 2.0,
        },
        // (The book gives no n: with A = 0 it does not matter.)
        obstacles: Potential {
            a: 0.0,
            n: 1.0,
            b: 20000.0,
            m: 3.0,
        },
    },
];

impl BookSwarm {
    /// The slider changes that set it, in the order `V` makes them: the units' potential and
    /// range, the arena's rules toward the player and off obstacles, then the book's potentials
    /// toward the player and off obstacles.
    pub fn settings(&self) -> [(&'static str, f32); 16] {
        let (p, o) = (self.player, self.obstacles);
        [
            ("swarm.a", self.a),
            ("swarm.b", self.b),
            ("swarm.n", self.n),
            ("swarm.m", self.m),
            ("swarm.range", self.range),
            ("swarm.player_weight", self.player_weight),
            ("swarm.pull", self.pull),
            ("swarm.obstacle", self.obstacle),
            ("swarm.player_a", p.a),
            ("swarm.player_b", p.b),
            ("swarm.player_n", p.n),
            ("swarm.player_m", p.m),
            ("swarm.obstacle_a", o.a),
            ("swarm.obstacle_b", o.b),
            ("swarm.obstacle_n", o.n),
            ("swarm.obstacle_m", o.m),
        ]
    }
}

impl SwarmParams {
    /// The numbers of the force as felt: `U`'s own, or with [`SwarmParams::gradient`] those of
    /// `−dU/dr` (A → nA, n → n + 1, B → mB, m → m + 1), which has the same form; the player's
    /// and the obstacles' potentials likewise.
    pub fn felt(&self) -> SwarmParams {
        if self.gradient {
            let units = self.units().felt(true);
            let player = self.player_potential().felt(true);
            let obstacles = self.obstacle_potential().felt(true);
            SwarmParams {
                a: units.a,
                n: units.n,
                b: units.b,
                m: units.m,
                gradient: false,
                player_a: player.a,
                player_n: player.n,
                player_b: player.b,
                player_m: player.m,
                obstacle_a: obstacles.a,
                obstacle_n: obstacles.n,
                obstacle_b: obstacles.b,
                obstacle_m: obstacles.m,
                ..*self
            }
        } else {
            *self
        }
    }

    /// The potential between units (as written, not as felt).
    pub fn units(&self) -> Potential {
        Potential {
            a: self.a,
            n: self.n,
            b: self.b,
            m: self.m,
        }
    }

    /// The book's potential toward the player (as written).
    pub fn player_potential(&self) -> Potential {
        Potential {
            a: self.player_a,
            n: self.player_n,
            b: self.player_b,
            m: self.player_m,
        }
    }

    /// The book's potential off obstacles and walls (as written).
    pub fn obstacle_potential(&self) -> Potential {
        Potential {
            a: self.obstacle_a,
            n: self.obstacle_n,
            b: self.obstacle_b,
            m: self.obstacle_m,
        }
    }

    /// The book's setting every number it sets is at, if it is one of them.
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
        let units = (self.a, self.b, self.n, self.m, self.range);
        let arena = (self.player_weight, self.pull, self.obstacle);
        units == (s.a, s.b, s.n, s.m, s.range)
            && arena == (s.player_weight, s.pull, s.obstacle)
            && self.player_potential() == s.player
            && self.obstacle_potential() == s.obstacles
    }
}
