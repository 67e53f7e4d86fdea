//! The window-free core of the flock and the swarm: the neighbour grid answers metric and
//! topological queries exactly as a scan of everyone does; boids on the real vehicle model align
//! from random headings, keep apart and stay one flock, see only what their field of view shows,
//! split round a predator and close up behind it, and gather behind a leader out of its path; the
//! Lennard-Jones swarm's equilibrium is where its force vanishes and it settles round the player
//! no nearer than 0.6 of it; and none of it allocates once warm.

mod common;

use common::counting::{Counting, allocations};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::built_in;
use steering_arena::data::tuning::VehicleTuning;
use steering_arena::sim::behaviours::flock::{
    self, Around, Boid, FlockParams, Leader, Neighbourhood, Sight, Tally,
};
use steering_arena::sim::behaviours::swarm::{self, SwarmParams, Target};
use steering_arena::sim::group_metrics::{Groups, crowded, polarization, spacing};
use steering_arena::sim::space::masses::Masses;
use steering_arena::sim::space::neighbours::{MAX_K, Neighbours};
use steering_arena::sim::vehicle::Vehicle;

const DT: f32 = 1.0 / 60.0;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The boids' vehicle: the chasers' from the built-in tuning (160 px/s, 480 force, radius 10).
fn boid_vehicle() -> VehicleTuning {
    built_in().tuning.chaser
}

fn random_unit(rng: &mut StdRng) -> Vec2 {
    Vec2::from_angle(rng.gen_range(0.0..std::f32::consts::TAU))
}

// ---------------------------------------------------------------------------------------------
// The grid against a scan of everyone.

/// A crowd of `count` in `size` at random, some outside the arena, a few on one spot, one not
/// finite.
fn random_crowd(rng: &mut StdRng, count: usize, size: Vec2) -> Vec<Vec2> {
    (0..count)
        .map(|i| match i % 41 {
            7 => Vec2::new(size.x * 0.5, size.y * 0.5),
            13 => Vec2::new(
                rng.gen_range(-80.0..0.0),
                rng.gen_range(-50.0..size.y + 50.0),
            ),
            19 => Vec2::new(
                size.x + rng.gen_range(0.0..80.0),
                rng.gen_range(0.0..size.y),
            ),
            29 if i == 29 => Vec2::new(f32::NAN, 3.0),
            _ => Vec2::new(rng.gen_range(0.0..size.x), rng.gen_range(0.0..size.y)),
        })
        .collect()
}

fn brute_within(positions: &[Vec2], pos: Vec2, r: f32) -> Vec<u32> {
    let mut found: Vec<u32> = (0..positions.len() as u32)
        .filter(|&j| positions[j as usize].distance_squared(pos) < r * r)
        .collect();
    found.sort_unstable();
    found
}

/// The `k` smallest squared distances to `pos` strictly within `limit` among those `accept`
/// takes.
fn brute_nearest(
    positions: &[Vec2],
    pos: Vec2,
    k: usize,
    limit: f32,
    accept: impl Fn(u32) -> bool,
) -> Vec<(f32, u32)> {
    let mut all: Vec<(f32, u32)> = (0..positions.len() as u32)
        .filter(|&j| accept(j) && positions[j as usize].is_finite())
        .map(|j| (positions[j as usize].distance_squared(pos), j))
        .filter(|&(d2, _)| d2 < limit * limit)
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    all.truncate(k);
    all
}

#[test]
fn a_metric_query_finds_exactly_those_a_scan_of_everyone_finds() {
    let mut grid = Neighbours::default();
    let mut found = Vec::new();
    let (mut queries, mut neighbours) = (0, 0);
    for seed in 0..6u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        // Sparse to packed: 30 to 3,000 in the default arena's size.
        for &count in &[30usize, 300, 3000] {
            let size = Vec2::new(1280.0, 768.0);
            let positions = random_crowd(&mut rng, count, size);
            let side = rng.gen_range(10.0..120.0);
            grid.rebuild(size, side, positions.iter().copied());
            assert_eq!(grid.len(), count - usize::from(count > 29));
            for q in 0..60 {
                // Queries at members, at random points (some outside) and radii across cells.
                let me = q * 13 % count;
                let pos = if q % 2 == 0 && positions[me].is_finite() {
                    positions[me]
                } else {
                    Vec2::new(rng.gen_range(-60.0..1340.0), rng.gen_range(-60.0..830.0))
                };
                let r = rng.gen_range(1.0..2.5 * side);
                found.clear();
                grid.for_each_within(pos, r, |j, p, d2| {
                    assert_eq!(p, positions[j as usize]);
                    assert_eq!(d2, p.distance_squared(pos));
                    found.push(j);
                });
                found.sort_unstable();
                assert_eq!(
                    found,
                    brute_within(&positions, pos, r),
                    "seed {seed} n {count}"
                );
                queries += 1;
                neighbours += found.len();
            }
        }
    }
    assert_eq!(queries, 6 * 3 * 60);
    // The cases were not all empty: thousands of neighbours were compared.
    assert!(neighbours > 5_000, "{neighbours} neighbours compared");
}

#[test]
fn the_close_pairs_are_exactly_those_a_scan_of_every_pair_finds() {
    let mut grid = Neighbours::default();
    let mut compared = 0;
    for seed in 20..26u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        for &count in &[30usize, 300, 3000] {
            let size = Vec2::new(1280.0, 768.0);
            let mut positions = random_crowd(&mut rng, count, size);
            // A few pairs on one spot, and a few on cell sides and corners.
            positions[1] = positions[2];
            positions[3] = Vec2::new(0.0, 0.0);
            let side = rng.gen_range(10.0..120.0);
            grid.rebuild(size, side, positions.iter().copied());
            let built = grid.cell_side();
            positions[4] = Vec2::splat(built * 3.0);
            positions[5] = Vec2::new(built * 3.0, built * 2.0);
            grid.rebuild(size, side, positions.iter().copied());
            // Reaches from a sliver of a cell to more than one (taken as one).
            for reach in [0.5, built * 0.1, built * 0.5, built, built * 3.0] {
                let mut got = Vec::new();
                grid.pairs_within(reach, |a, b, d2| {
                    let (pa, pb) = (positions[a as usize], positions[b as usize]);
                    assert_eq!(d2, pa.distance_squared(pb));
                    got.push((a.min(b), a.max(b)));
                });
                let r = reach.min(built);
                let mut want = Vec::new();
                for a in 0..count {
                    for b in a + 1..count {
                        let (pa, pb) = (positions[a], positions[b]);
                        if pa.is_finite() && pb.is_finite() && pa.distance_squared(pb) < r * r {
                            want.push((a as u32, b as u32));
                        }
                    }
                }
                got.sort_unstable();
                // Each pair once.
                assert!(
                    got.windows(2).all(|w| w[0] != w[1]),
                    "seed {seed} n {count}"
                );
                assert_eq!(got, want, "seed {seed} n {count} reach {reach}");
                compared += got.len();
            }
            let mut n = 0;
            grid.pairs_within(0.0, |_, _, _| n += 1);
            grid.pairs_within(f32::NAN, |_, _, _| n += 1);
            assert_eq!(n, 0);
        }
    }
    assert!(compared > 5_000, "{compared} pairs compared");
}

#[test]
fn a_topological_query_finds_the_k_nearest_a_scan_of_everyone_finds() {
    let mut grid = Neighbours::default();
    let mut compared = 0;
    for seed in 10..16u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        for &count in &[20usize, 400, 4000] {
            let size = Vec2::new(rng.gen_range(300.0..3000.0), rng.gen_range(300.0..2000.0));
            let positions = random_crowd(&mut rng, count, size);
            let side = rng.gen_range(15.0..100.0);
            grid.rebuild(size, side, positions.iter().copied());
            for q in 0..50 {
                let me = (q * 7 % count) as u32;
                let pos = if q % 3 == 0 || !positions[me as usize].is_finite() {
                    Vec2::new(
                        rng.gen_range(-50.0..size.x + 50.0),
                        rng.gen_range(-50.0..size.y + 50.0),
                    )
                } else {
                    positions[me as usize]
                };
                let k = rng.gen_range(1..=MAX_K);
                let limit = if q % 2 == 0 {
                    f32::INFINITY
                } else {
                    rng.gen_range(5.0..400.0)
                };
                // Skip itself and every third member (as a field of view would).
                let accept = |j: u32| j != me && j % 3 != 1;
                let nearest = grid.nearest(pos, k, limit, |j, _| accept(j));
                let got: Vec<(f32, u32)> = nearest.iter().map(|(j, d2)| (d2, j)).collect();
                let want = brute_nearest(&positions, pos, k, limit, accept);
                let d = |v: &[(f32, u32)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
                assert_eq!(d(&got), d(&want), "seed {seed} n {count} q {q} k {k}");
                // The same members, but for those tied at one distance (the crowd's shared
                // spot), which either may be.
                for (g, w) in got.iter().zip(&want) {
                    assert!(g.1 == w.1 || g.0 == w.0, "{g:?} vs {w:?}");
                }
                if let Some(&(far, _)) = want.last() {
                    assert_eq!(nearest.farthest(), far.sqrt());
                }
                compared += got.len();
            }
        }
    }
    assert!(compared > 5_000, "{compared} neighbours compared");
}

#[test]
fn a_grid_of_nothing_or_of_nonsense_answers_nothing() {
    let mut grid = Neighbours::default();
    let some = [Vec2::new(10.0, 10.0), Vec2::new(12.0, 10.0)];
    for (size, side) in [
        (Vec2::new(100.0, 100.0), 0.0),
        (Vec2::new(100.0, 100.0), f32::NAN),
        (Vec2::new(0.0, 100.0), 10.0),
        (Vec2::new(f32::INFINITY, 100.0), 10.0),
    ] {
        grid.rebuild(size, side, some.iter().copied());
        assert!(grid.is_empty());
        let mut n = 0;
        grid.for_each_within(some[0], 50.0, |_, _, _| n += 1);
        assert_eq!(n, 0);
        assert!(
            grid.nearest(some[0], 3, f32::INFINITY, |_, _| true)
                .is_empty()
        );
    }
    grid.rebuild(Vec2::new(100.0, 100.0), 10.0, some.iter().copied());
    assert_eq!(grid.len(), 2);
    // A query from nowhere, of no radius, or for none finds none.
    let mut n = 0;
    grid.for_each_within(Vec2::NAN, 50.0, |_, _, _| n += 1);
    grid.for_each_within(some[0], 0.0, |_, _, _| n += 1);
    grid.for_each_within(some[0], f32::NAN, |_, _, _| n += 1);
    assert_eq!(n, 0);
    assert!(grid.nearest(some[0], 0, 50.0, |_, _| true).is_empty());
    assert!(grid.nearest(Vec2::NAN, 2, 50.0, |_, _| true).is_empty());
    // An infinite radius finds everyone.
    grid.for_each_within(some[0], f32::INFINITY, |_, _, _| n += 1);
    assert_eq!(n, 2);
    // Two a cell of 1,000 in a 1,000 px square: cells of √2,000 px.
    let side = Neighbours::side_for(1000, Vec2::splat(1000.0), 2.0);
    assert!((side - 2000f32.sqrt()).abs() < 1e-3);
}

// ---------------------------------------------------------------------------------------------
// Boids on the real vehicle model, in a wrapped world (so no walls are needed).

struct Flock {
    size: Vec2,
    vehicles: Vec<Vehicle>,
    boids: Vec<Boid>,
    grid: Neighbours,
    masses: Masses,
    /// The forces of the last tick.
    forces: Vec<flock::Forces>,
}

impl Flock {
    /// `count` boids anywhere in a wrapped world of `size`, at `speed` in random directions.
    fn scattered(seed: u64, count: usize, size: Vec2, speed: f32) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let spots: Vec<Vec2> = (0..count)
            .map(|_| Vec2::new(rng.gen_range(0.0..size.x), rng.gen_range(0.0..size.y)))
            .collect();
        Flock::at(&mut rng, spots, size, speed)
    }

    /// `count` boids on a square lattice of `spacing` (each moved up to a sixth of it at
    /// random) in the middle of a wrapped world of `size`, at `speed` in random directions.
    fn lattice(seed: u64, count: usize, size: Vec2, spacing: f32, speed: f32) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let side = (count as f32).sqrt().ceil() as usize;
        let corner = size * 0.5 - Vec2::splat(spacing * side as f32 * 0.5);
        let jitter = spacing / 6.0;
        let spots: Vec<Vec2> = (0..count)
            .map(|i| {
                let cell = Vec2::new((i % side) as f32, (i / side) as f32);
                let shake = Vec2::new(
                    rng.gen_range(-jitter..jitter),
                    rng.gen_range(-jitter..jitter),
                );
                corner + cell * spacing + shake
            })
            .collect();
        Flock::at(&mut rng, spots, size, speed)
    }

    /// A flock already under way: every boid heading along +x at `speed`.
    fn heading_east(mut self, speed: f32) -> Self {
        for a in &mut self.vehicles {
            a.heading = Vec2::X;
            a.vel = Vec2::X * speed;
        }
        self
    }

    fn at(rng: &mut StdRng, spots: Vec<Vec2>, size: Vec2, speed: f32) -> Self {
        let vehicles = spots
            .into_iter()
            .map(|pos| {
                let heading = random_unit(rng);
                let mut vehicle = Vehicle::new(pos, heading);
                vehicle.vel = heading * speed;
                vehicle
            })
            .collect();
        Flock {
            size,
            vehicles,
            boids: Vec::new(),
            grid: Neighbours::default(),
            masses: Masses::default(),
            forces: Vec::new(),
        }
    }

    fn tick(&mut self, p: &FlockParams, v: &VehicleTuning, around: Around) {
        self.boids.clear();
        self.boids.extend(self.vehicles.iter().map(|a| Boid {
            pos: a.pos,
            vel: a.vel,
        }));
        self.grid
            .rebuild(self.size, p.radius, self.boids.iter().map(|b| b.pos));
        self.masses.rebuild(
            self.size,
            p.gather_radius,
            self.boids.iter().map(|b| (b.pos, b.vel)),
        );
        self.forces.clear();
        for i in 0..self.vehicles.len() {
            let heading = self.vehicles[i].heading;
            let me = self.boids[i];
            let tally = wrapped_tally(&self.grid, &self.boids, i, heading, p, self.size);
            let mut f = flock::forces(me, &tally, p, v);
            // (The gathering mass is taken without the wrap: near the world's edges a boid
            // gathers toward the part of the crowd on its own side.)
            f.gather = flock::gather(me, self.masses.around(me.pos), p, v);
            // The player's urges, from its nearest image.
            if let Some(predator) = around.predator {
                f.flee = flock::flee(me, nearest_image(me.pos, predator, self.size), p, v);
            }
            if let Some(leader) = around.leader {
                let pos = nearest_image(me.pos, leader.pos, self.size);
                f.follow = flock::follow(me, Leader { pos, ..leader }, p, v);
            }
            f.total = f.sum();
            self.forces.push(f);
        }
        for (vehicle, f) in self.vehicles.iter_mut().zip(&self.forces) {
            vehicle.apply(f.total, v, DT);
            vehicle.pos = vehicle.pos.rem_euclid(self.size);
        }
    }

    fn polarization(&self) -> f32 {
        polarization(self.vehicles.iter().map(|a| a.vel))
    }

    /// The least distance between two boids across the wrap.
    fn nearest_pair(&self) -> f32 {
        let mut least = f32::INFINITY;
        for (i, a) in self.vehicles.iter().enumerate() {
            for b in &self.vehicles[i + 1..] {
                least = least.min(wrapped(a.pos - b.pos, self.size).length());
            }
        }
        least
    }

    /// How many boids have another nearer than `d` across the wrap.
    fn crowded(&self, d: f32) -> usize {
        (0..self.vehicles.len())
            .filter(|&i| {
                self.vehicles.iter().enumerate().any(|(j, b)| {
                    j != i && wrapped(self.vehicles[i].pos - b.pos, self.size).length() < d
                })
            })
            .count()
    }

    /// Connected groups (joined within `radius`) across the wrap, by a scan.
    fn groups(&self, radius: f32) -> usize {
        let n = self.vehicles.len();
        let mut label: Vec<usize> = (0..n).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                for j in 0..n {
                    let near = wrapped(self.vehicles[i].pos - self.vehicles[j].pos, self.size)
                        .length()
                        < radius;
                    if near && label[j] < label[i] {
                        label[i] = label[j];
                        changed = true;
                    }
                }
            }
        }
        (0..n).filter(|&i| label[i] == i).count()
    }

    /// The flock's centre across the wrap, seen from `from`.
    fn centre_from(&self, from: Vec2) -> Vec2 {
        let sum: Vec2 = self
            .vehicles
            .iter()
            .map(|a| wrapped(a.pos - from, self.size))
            .sum();
        from + sum / self.vehicles.len() as f32
    }
}

/// `d` brought into the wrapped world's nearest image.
fn wrapped(d: Vec2, size: Vec2) -> Vec2 {
    d - (d / size).round() * size
}

fn nearest_image(from: Vec2, p: Vec2, size: Vec2) -> Vec2 {
    from + wrapped(p - from, size)
}

/// [`flock::tally`]'s metric tally across the wrap: the grid is asked at each image of the
/// boid that lies within the radius of an edge.
fn wrapped_tally(
    grid: &Neighbours,
    boids: &[Boid],
    i: usize,
    heading: Vec2,
    p: &FlockParams,
    size: Vec2,
) -> Tally {
    assert_eq!(p.neighbourhood, Neighbourhood::Metric);
    let me = boids[i];
    let sight = Sight::new(me.pos, heading, p.radius, p.fov_deg);
    let mut tally = Tally::new(p.separation_radius);
    for sx in [-1.0f32, 0.0, 1.0] {
        for sy in [-1.0f32, 0.0, 1.0] {
            let shift = Vec2::new(sx * size.x, sy * size.y);
            let image = me.pos + shift;
            let near = |c: f32, s: f32| c > -p.radius && c < s + p.radius;
            if !(near(image.x, size.x) && near(image.y, size.y)) {
                continue;
            }
            grid.for_each_within(image, p.radius, |j, q, _| {
                let seen = q - shift;
                if j != i as u32 && sight.sees(seen) {
                    let other = Boid {
                        pos: seen,
                        vel: boids[j as usize].vel,
                    };
                    tally.add(me.pos, i as u32, other, j);
                }
            });
        }
    }
    tally
}

fn alignment_only() -> FlockParams {
    FlockParams {
        separation: 0.0,
        cohesion: 0.0,
        alignment: 1.0,
        ..FlockParams::default()
    }
}

#[test]
fn alignment_alone_brings_random_headings_to_one_within_thirty_seconds() {
    let v = boid_vehicle();
    let p = alignment_only();
    let mut times = Vec::new();
    for seed in 0..5 {
        // 133 boids anywhere in a wrapped 800 px square at full speed: about 16 within the
        // radius of each, 12 of them in view.
        let size = Vec2::splat(800.0);
        let mut flock = Flock::scattered(seed, 133, size, v.max_speed);
        let start = flock.polarization();
        assert!(start < 0.2, "random headings: {start}");
        let mut reached = None;
        for tick in 0..30 * 60 {
            flock.tick(&p, &v, Around::default());
            if flock.polarization() >= 0.95 {
                reached = Some((tick + 1) as f32 * DT);
                break;
            }
        }
        let reached = reached.unwrap_or_else(|| panic!("seed {seed}: not 0.95 within 30 s"));
        times.push(reached);
    }
    println!("alignment alone: polarization 0.95 after {times:.1?} s");
}

/// The flock's cohesive urges alone (no alignment): cohesion, gathering and separation.
fn cohesive() -> FlockParams {
    FlockParams {
        alignment: 0.0,
        ..FlockParams::default()
    }
}

#[test]
fn cohesion_with_separation_keeps_boids_apart_and_together() {
    let v = boid_vehicle();
    let p = cohesive();
    let two_radii = 2.0 * v.radius;
    for seed in 0..4 {
        // 100 boids from rest on a 35 px lattice (bodies 20 px across).
        let size = Vec2::splat(2000.0);
        let mut flock = Flock::lattice(seed, 100, size, 35.0, 0.0);
        let (mut crowded, mut agent_ticks) = (0, 0);
        let mut least = f32::INFINITY;
        for _ in 0..30 * 60 {
            flock.tick(&p, &v, Around::default());
            crowded += flock.crowded(two_radii);
            agent_ticks += flock.vehicles.len();
            least = least.min(flock.nearest_pair());
        }
        let share = crowded as f64 / agent_ticks as f64;
        let groups = flock.groups(p.radius);
        println!(
            "cohesion + separation, seed {seed}: {:.4} % of agent-ticks closer than two radii, \
             least {least:.1} px, {groups} group(s)",
            share * 100.0
        );
        assert!(share <= 0.001, "seed {seed}: {share}");
        assert_eq!(groups, 1, "seed {seed}");
    }
}

#[test]
fn the_default_flock_cruises_aligned_and_apart() {
    let v = boid_vehicle();
    let p = FlockParams::default();
    for seed in 0..4 {
        let size = Vec2::splat(2000.0);
        let mut flock = Flock::lattice(seed, 100, size, 35.0, 0.0);
        let (mut crowded, mut agent_ticks) = (0, 0);
        // Polarization as the summary has it: the mean over the last 10 s.
        let (mut polarization, mut speed) = (0.0, 0.0);
        for t in 0..30 * 60 {
            flock.tick(&p, &v, Around::default());
            crowded += flock.crowded(2.0 * v.radius);
            agent_ticks += flock.vehicles.len();
            if t >= 20 * 60 {
                polarization += flock.polarization() / 600.0;
                speed += flock.vehicles.iter().map(|a| a.speed()).sum::<f32>() / 100.0 / 600.0;
            }
        }
        let share = crowded as f64 / agent_ticks as f64;
        println!(
            "default flock, seed {seed}: polarization {polarization:.3} and mean speed {speed:.0} \
             px/s over the last 10 s, {:.4} % of agent-ticks closer than two radii, {} group(s)",
            share * 100.0,
            flock.groups(p.radius)
        );
        assert!(polarization >= 0.85, "seed {seed}: {polarization}");
        assert!(speed >= 0.5 * v.max_speed, "seed {seed}: {speed}");
        assert!(share <= 0.001, "seed {seed}: {share}");
    }
}

#[test]
fn the_field_of_view_decides_whom_a_boid_heeds() {
    // Eight neighbours round a boid heading +x, 30 px off at 22.5° + k·45°, and two beyond an
    // 80 px radius.
    let me = Boid {
        pos: Vec2::new(500.0, 500.0),
        vel: Vec2::X * 100.0,
    };
    let mut boids = vec![me];
    for k in 0..8 {
        let at = Vec2::from_angle((22.5 + 45.0 * k as f32).to_radians()) * 30.0;
        boids.push(Boid {
            pos: me.pos + at,
            vel: Vec2::Y * 100.0,
        });
    }
    boids.push(Boid {
        pos: me.pos + Vec2::new(85.0, 0.0),
        vel: Vec2::Y,
    });
    boids.push(Boid {
        pos: me.pos + Vec2::new(-60.0, 60.0),
        vel: Vec2::Y,
    });
    let mut grid = Neighbours::default();
    grid.rebuild(Vec2::splat(1000.0), 80.0, boids.iter().map(|b| b.pos));
    // (The ring and the two beyond it are laid out for an 80 px neighbourhood, metric or
    // topological, whatever the default radius.)
    let heeded = |fov_deg: f32, neighbourhood: Neighbourhood| {
        let p = FlockParams {
            fov_deg,
            neighbourhood,
            radius: 80.0,
            reach: 80.0,
            ..FlockParams::default()
        };
        flock::tally(&grid, &boids, 0, Vec2::X, &p).count
    };
    for kind in [Neighbourhood::Metric, Neighbourhood::Topological] {
        let counts: Vec<u32> = [0.0, 90.0, 180.0, 270.0, 359.0, 360.0]
            .iter()
            .map(|&fov| heeded(fov, kind))
            .collect();
        // 0° nobody; 90° the two ahead; 180° the front four; 270° six; 360° all eight in range
        // (topologically the 7 nearest).
        let all = if kind == Neighbourhood::Metric { 8 } else { 7 };
        assert_eq!(counts, vec![0, 2, 4, 6, all, all], "{kind:?}");
    }
    // And with nobody heeded, no urge at all.
    let v = boid_vehicle();
    let blind = FlockParams {
        fov_deg: 0.0,
        ..FlockParams::default()
    };
    let masses = Masses::default();
    let senses = flock::Flockmates {
        grid: &grid,
        masses: &masses,
        boids: &boids,
    };
    let f = flock::steer(senses, 0, Vec2::X, Around::default(), &blind, &v);
    assert_eq!((f.heeded, f.total), (0, Vec2::ZERO));
}

#[test]
fn a_blind_flock_keeps_its_random_headings_and_a_seeing_one_aligns() {
    let v = boid_vehicle();
    let mut figures = Vec::new();
    for fov_deg in [0.0, 360.0] {
        let p = FlockParams {
            fov_deg,
            ..FlockParams::default()
        };
        let size = Vec2::splat(800.0);
        let mut flock = Flock::scattered(3, 133, size, v.max_speed);
        let mut heeded = 0u64;
        for _ in 0..20 * 60 {
            flock.tick(&p, &v, Around::default());
            heeded += flock
                .forces
                .iter()
                .map(|f| u64::from(f.heeded))
                .sum::<u64>();
        }
        let neighbours = heeded as f64 / (20.0 * 60.0 * 133.0);
        figures.push((fov_deg, flock.polarization(), neighbours));
    }
    println!("field of view (deg, polarization after 20 s, neighbours heeded): {figures:.2?}");
    let (blind, seeing) = (figures[0], figures[1]);
    assert_eq!(blind.2, 0.0);
    assert!(blind.1 < 0.2, "{blind:?}");
    assert!(seeing.1 > 0.9, "{seeing:?}");
    assert!(seeing.2 > 3.0, "{seeing:?}");
}

#[test]
fn a_boid_flees_a_predator_within_the_threat_radius_and_ignores_one_beyond() {
    let v = boid_vehicle();
    let p = FlockParams::default();
    let boid = Boid {
        pos: Vec2::new(100.0, 100.0),
        vel: Vec2::Y * 50.0,
    };
    let at = |d: f32| flock::flee(boid, boid.pos - Vec2::X * d, &p, &v);
    assert_eq!(at(p.threat_radius + 1.0), Vec2::ZERO);
    // Inside: `(unit away · max_speed − v)` clamped to the force, times the weight.
    let want = (Vec2::X * v.max_speed - boid.vel) * p.flee;
    for d in [1.0, 75.0, p.threat_radius - 1.0] {
        assert!((at(d) - want).length() < 1e-3, "{d}: {:?}", at(d));
    }
    // On the predator's own spot it still runs (finitely).
    let on = flock::flee(boid, boid.pos, &p, &v);
    assert!(on.is_finite() && on.length() > 0.0);
}

#[test]
fn a_flock_opens_round_a_predator_crossing_it() {
    let v = boid_vehicle();
    let mut figures = Vec::new();
    for flee in [0.0, FlockParams::default().flee] {
        let p = FlockParams {
            flee,
            ..FlockParams::default()
        };
        let (mut close, mut split, mut after) = (0, 0, Vec::new());
        for seed in 0..3 {
            let size = Vec2::splat(3000.0);
            let mut flock = Flock::lattice(seed, 100, size, 35.0, 0.0).heading_east(v.max_speed);
            for _ in 0..180 {
                flock.tick(&p, &v, Around::default());
            }
            // From the south at the player's speed, across the flock's path, meeting its centre
            // two seconds on.
            let speed = 200.0;
            let meet = flock.centre_from(size * 0.5) + Vec2::X * v.max_speed * 2.0;
            let mut predator = meet - Vec2::Y * speed * 2.0;
            for t in 0..14 * 60 {
                let around = Around {
                    predator: Some(predator),
                    leader: None,
                };
                flock.tick(&p, &v, around);
                predator += Vec2::Y * speed * DT;
                if t >= 4 * 60 {
                    continue;
                }
                close += flock
                    .vehicles
                    .iter()
                    .filter(|a| a.pos.distance(predator) < 40.0)
                    .count();
                if t % 10 == 0 {
                    split = split.max(flock.groups(p.radius));
                }
            }
            after.push(flock.groups(p.radius));
        }
        figures.push((flee, close, split, after));
    }
    println!(
        "predator (flee weight, boid-ticks within 40 px of it, most groups while it crosses, \
         groups 10 s on): {figures:?}"
    );
    let (still, fleeing) = (&figures[0], &figures[1]);
    // Without fleeing it runs through the flock, boids brushing it; fleeing, the flock opens
    // round it (boids cannot outrun it across their path: 160 px/s against 200) and parts.
    assert!(fleeing.1 * 3 <= still.1 * 2, "{figures:?}");
    assert_eq!(still.2, 1, "{figures:?}");
    assert!(fleeing.2 > 1, "{figures:?}");
}

#[test]
fn followers_gather_behind_the_leader_and_clear_its_path() {
    let v = boid_vehicle();
    let p = FlockParams::default();
    let (n, speed) = (60, 120.0);
    let leg = 6 * 60;
    for seed in 0..3 {
        let size = Vec2::splat(4000.0);
        let mut flock = Flock::lattice(seed, n, size, 40.0, 0.0);
        let mut leader = size * 0.5;
        let (mut behind, mut counted) = (0, 0);
        let mut stay = vec![0u32; n];
        let mut longest = 0;
        for t in 0..4 * leg {
            // East; back west through the flock; north; south-east.
            let heading = match t / leg {
                0 => Vec2::X,
                1 => -Vec2::X,
                2 => Vec2::Y,
                _ => Vec2::new(1.0, -1.0).normalize(),
            };
            let around = Around {
                predator: None,
                leader: Some(Leader {
                    pos: leader,
                    heading,
                }),
            };
            flock.tick(&p, &v, around);
            leader += heading * speed * DT;
            // (Two seconds into each leg for the flock to come round.)
            if t % leg >= 120 {
                counted += 1;
                behind += usize::from((flock.centre_from(leader) - leader).dot(heading) < 0.0);
            }
            for (i, a) in flock.vehicles.iter().enumerate() {
                let d = wrapped(a.pos - leader, size);
                if flock::in_corridor(d.dot(heading), d.dot(heading.perp()), &p) {
                    stay[i] += 1;
                    longest = longest.max(stay[i]);
                } else {
                    stay[i] = 0;
                }
            }
        }
        let behind = behind as f32 / counted as f32;
        let longest = longest as f32 * DT;
        println!(
            "leader, seed {seed}: the flock's centre behind it {:.1} % of the time, longest stay \
             in its path {longest:.2} s",
            behind * 100.0
        );
        assert!(behind >= 0.95, "seed {seed}: {behind}");
        assert!(longest <= 2.0, "seed {seed}: {longest}");
    }
}

#[test]
fn the_mass_field_counts_a_cluster_within_its_reach_and_not_beyond() {
    let mut masses = Masses::default();
    // (In the middle of one of the field's 200 px cells: the field is coarse, and a cluster
    // astride cells is seen in part from some distances.)
    let centre = Vec2::new(1100.0, 1100.0);
    let cluster: Vec<(Vec2, Vec2)> = (0..50)
        .map(|i| {
            let at = Vec2::from_angle(i as f32) * (i % 7) as f32 * 4.0;
            (centre + at, Vec2::new(30.0, -10.0))
        })
        .collect();
    let reach = 400.0;
    masses.rebuild(Vec2::splat(2000.0), reach, cluster.iter().copied());
    let near = masses.around(centre + Vec2::new(150.0, 80.0));
    assert!((near.count - 50.0).abs() < 1e-3, "{near:?}");
    let mean = near.sum / near.count;
    assert!(mean.distance(centre) < 20.0, "{mean:?}");
    assert!((near.velocity / near.count - Vec2::new(30.0, -10.0)).length() < 1e-3);
    let far = masses.around(centre + Vec2::new(2.0 * reach, 0.0));
    assert_eq!(far.count, 0.0);
    // It changes smoothly: two points a pixel apart see nearly the same mass.
    let (a, b) = (
        masses.around(centre + Vec2::new(300.0, 0.0)),
        masses.around(centre + Vec2::new(301.0, 0.0)),
    );
    assert!((a.count - b.count).abs() < 1.0, "{a:?} {b:?}");
    // Nonsense builds nothing and asks nothing.
    masses.rebuild(Vec2::splat(2000.0), f32::NAN, cluster.iter().copied());
    assert_eq!(masses.around(centre).count, 0.0);
}

// ---------------------------------------------------------------------------------------------
// The Lennard-Jones swarm.

#[test]
fn the_equilibrium_distance_is_where_the_force_vanishes() {
    for (a, b, n, m) in [
        (2000.0, 4000.0, 2.0, 3.0),
        (1.0, 1.0, 1.0, 2.0),
        (500.0, 9000.0, 1.0, 2.5),
        (3000.0, 100.0, 2.0, 4.0),
        (10.0, 4000.0, 6.0, 12.0),
    ] {
        let p = SwarmParams {
            a,
            b,
            n,
            m,
            ..SwarmParams::default()
        };
        let r_star = swarm::equilibrium(&p).expect("m > n, A and B positive");
        // The force's zero by bisection between repulsion near and attraction far.
        let (mut lo, mut hi) = (swarm::MIN_R * 1.01, 1000.0f64 as f32);
        assert!(swarm::force(lo, &p) > 0.0 && swarm::force(hi, &p) < 0.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if swarm::force(mid, &p) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let zero = 0.5 * (lo + hi);
        assert!(
            (zero - r_star).abs() <= 1e-4 * r_star,
            "{a} {b} {n} {m}: {zero} vs {r_star}"
        );
        // Repulsion inside, attraction outside.
        assert!(swarm::force(0.9 * r_star, &p) > 0.0);
        assert!(swarm::force(1.1 * r_star, &p) < 0.0);
    }
    // Bourg's numbers: two body lengths.
    let bourg = SwarmParams::default();
    assert!((swarm::equilibrium(&bourg).expect("defaults settle") - 2.0).abs() < 1e-6);
    // No settling distance without repulsion near and attraction far.
    for (a, b, n, m) in [
        (1.0, 1.0, 3.0, 2.0),
        (1.0, 1.0, 2.0, 2.0),
        (0.0, 1.0, 1.0, 2.0),
    ] {
        let p = SwarmParams {
            a,
            b,
            n,
            m,
            ..SwarmParams::default()
        };
        assert_eq!(swarm::equilibrium(&p), None, "{a} {b} {n} {m}");
    }
}

#[test]
fn the_force_stays_finite_down_to_nothing_and_the_curve_samples_it() {
    let steep = SwarmParams {
        m: 40.0,
        n: 20.0,
        ..SwarmParams::default()
    };
    for p in [SwarmParams::default(), steep] {
        for r in [0.0, -1.0, 1e-30, swarm::MIN_R, f32::NAN] {
            let f = swarm::force(r, &p);
            assert!(f.is_finite() && f > 0.0, "{r}: {f}");
        }
    }
    let mut curve = [(0.0, 0.0); 64];
    let p = SwarmParams::default();
    swarm::sample_curve(&p, 4.0, &mut curve);
    assert_eq!(curve[0].0, 4.0 / 64.0);
    assert_eq!(curve[63].0, 4.0);
    for &(r, f) in &curve {
        assert_eq!(f, swarm::force(r, &p));
    }
    // The sign changes once, at r* = 2.
    let changes: Vec<f32> = curve
        .windows(2)
        .filter(|w| (w[0].1 > 0.0) != (w[1].1 > 0.0))
        .map(|w| w[1].0)
        .collect();
    assert_eq!(changes.len(), 1);
    assert!((changes[0] - 2.0).abs() <= 4.0 / 64.0);
}

fn swarm_at(seed: u64, count: usize, centre: Vec2, spread: f32, gap: f32) -> Vec<Vehicle> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut agents: Vec<Vehicle> = Vec::new();
    while agents.len() < count {
        let pos = centre + random_unit(&mut rng) * rng.gen_range(gap..spread);
        if agents.iter().all(|a| a.pos.distance(pos) >= gap) {
            agents.push(Vehicle::new(pos, random_unit(&mut rng)));
        }
    }
    agents
}

#[test]
fn a_swarm_settles_round_the_player_no_nearer_than_six_tenths_of_the_equilibrium() {
    let v = boid_vehicle();
    let p = SwarmParams::default();
    let length = 2.0 * v.radius;
    let r_star = swarm::equilibrium(&p).expect("defaults settle") * length;
    let size = Vec2::splat(2000.0);
    let player = size * 0.5;
    let n = 60;
    let hold = swarm::hold_radius(n, r_star);
    let target = Target {
        player,
        hold,
        player_radius: 12.0,
        dt: 1.0 / 60.0,
    };
    for seed in 0..4 {
        let mut agents = swarm_at(seed, n, player, 500.0, r_star);
        let mut grid = Neighbours::default();
        let mut positions = Vec::new();
        let mut forces = Vec::new();
        let mut least = f32::INFINITY;
        for _ in 0..20 * 60 {
            positions.clear();
            positions.extend(agents.iter().map(|a| a.pos));
            grid.rebuild(size, p.range * length, positions.iter().copied());
            least = least.min(spacing(&grid, &positions, f32::INFINITY).min);
            forces.clear();
            forces.extend(
                (0..n).map(|i| swarm::steer(&grid, &positions, i, agents[i].vel, target, &p, &v).0),
            );
            for (a, f) in agents.iter_mut().zip(&forces) {
                a.apply(f.total, &v, DT);
            }
        }
        positions.clear();
        positions.extend(agents.iter().map(|a| a.pos));
        grid.rebuild(size, p.range * length, positions.iter().copied());
        let end = spacing(&grid, &positions, f32::INFINITY);
        least = least.min(end.min);
        let farthest = positions
            .iter()
            .map(|q| q.distance(player))
            .fold(0.0, f32::max);
        let speed = agents.iter().map(|a| a.speed()).sum::<f32>() / n as f32;
        println!(
            "swarm, seed {seed}: r* {r_star} px, least {:.3} r*, mean nearest {:.3} r* at 20 s, \
             farthest {farthest:.0} px (hold {hold:.0}), mean speed {speed:.1} px/s",
            least / r_star,
            end.mean_nearest / r_star
        );
        assert!(least >= 0.6 * r_star, "seed {seed}: {least}");
        assert!(farthest <= hold + r_star, "seed {seed}: {farthest}");
        assert!((end.mean_nearest / r_star - 1.0).abs() < 0.1, "seed {seed}");
        assert!(speed < 5.0, "seed {seed}: {speed}");
    }
}

#[test]
fn the_swarm_force_of_one_neighbour_follows_the_curve() {
    let v = boid_vehicle();
    let p = SwarmParams::default();
    let length = 2.0 * v.radius;
    let size = Vec2::splat(1000.0);
    let far_player = Target {
        player: Vec2::new(-1e4, -1e4),
        hold: f32::INFINITY,
        player_radius: 12.0,
        dt: 1.0 / 60.0,
    };
    let mut grid = Neighbours::default();
    // One neighbour at 1, 1.5, 2 and 2.5 lengths to the right: pushed left, then at rest, then
    // pulled right (inside the fade-free part of the range).
    for (r, sign) in [(1.0f32, -1.0f32), (1.5, -1.0), (2.0, 0.0), (2.05, 1.0)] {
        let positions = [
            Vec2::splat(500.0),
            Vec2::splat(500.0) + Vec2::X * r * length,
        ];
        grid.rebuild(size, p.range * length, positions.iter().copied());
        let f = swarm::steer(&grid, &positions, 0, Vec2::ZERO, far_player, &p, &v).0;
        let expected = -swarm::force(r, &p);
        assert!((f.neighbours.x - expected).abs() <= 1e-3 * expected.abs().max(1.0));
        assert_eq!(f.neighbours.x.signum() * sign.abs(), sign, "{r}: {f:?}");
        assert_eq!((f.felt, f.player, f.pull), (1, Vec2::ZERO, Vec2::ZERO));
    }
    // Two on one spot are parted, finitely.
    let positions = [Vec2::splat(500.0); 2];
    grid.rebuild(size, p.range * length, positions.iter().copied());
    let a = swarm::steer(&grid, &positions, 0, Vec2::ZERO, far_player, &p, &v).0;
    let b = swarm::steer(&grid, &positions, 1, Vec2::ZERO, far_player, &p, &v).0;
    assert!(a.total.is_finite() && a.neighbours.x < 0.0 && b.neighbours.x > 0.0);
}

// ---------------------------------------------------------------------------------------------
// The measures.

#[test]
fn polarization_is_one_for_a_shared_heading_and_zero_for_opposed_ones() {
    let one = polarization([Vec2::X * 3.0, Vec2::X * 100.0, Vec2::X]);
    assert!((one - 1.0).abs() < 1e-6);
    assert_eq!(polarization([Vec2::X, -Vec2::X * 5.0]), 0.0);
    // Four at right angles and a still one: 0; a still one among two aligned: 2/3.
    assert!(polarization([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y, Vec2::ZERO]) < 1e-6);
    let two_thirds = polarization([Vec2::X, Vec2::X, Vec2::ZERO]);
    assert!((two_thirds - 2.0 / 3.0).abs() < 1e-6);
    // Non-finite ones are left out; nobody is 0.
    assert!((polarization([Vec2::Y, Vec2::NAN]) - 1.0).abs() < 1e-6);
    assert_eq!(polarization(std::iter::empty()), 0.0);
}

/// Connected groups within `radius` by a scan of every pair.
fn brute_groups(positions: &[Vec2], radius: f32) -> usize {
    let n = positions.len();
    let mut label: Vec<usize> = (0..n).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            for j in 0..n {
                let near = positions[i].distance(positions[j]) < radius;
                if near && label[j] < label[i] {
                    label[i] = label[j];
                    changed = true;
                }
            }
        }
    }
    (0..n)
        .filter(|&i| label[i] == i && positions[i].is_finite())
        .count()
}

#[test]
fn groups_and_spacing_agree_with_a_scan_of_every_pair() {
    let mut grid = Neighbours::default();
    let mut groups = Groups::default();
    let size = Vec2::new(1280.0, 768.0);
    for seed in 0..8u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let count = rng.gen_range(2..400);
        let radius = rng.gen_range(20.0..90.0);
        let positions = random_crowd(&mut rng, count, size);
        grid.rebuild(size, radius, positions.iter().copied());
        let counted = groups.count(&grid, &positions, radius);
        assert_eq!(counted, brute_groups(&positions, radius), "seed {seed}");
        // Two members share a label exactly when they are joined.
        for i in 0..count.min(40) {
            for j in 0..count.min(40) {
                if positions[i].is_finite() && positions[i].distance(positions[j]) < radius {
                    assert_eq!(groups.label(i), groups.label(j));
                }
            }
        }
        let finite: Vec<(usize, Vec2)> = positions
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, p)| p.is_finite())
            .collect();
        let nearest: Vec<f32> = finite
            .iter()
            .map(|&(i, p)| {
                finite
                    .iter()
                    .filter(|&&(j, _)| j != i)
                    .map(|&(_, q)| p.distance(q))
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let sp = spacing(&grid, &positions, f32::INFINITY);
        let least = nearest.iter().copied().fold(f32::INFINITY, f32::min);
        let mean = nearest.iter().sum::<f32>() / nearest.len() as f32;
        assert_eq!(sp.counted, finite.len(), "seed {seed}");
        assert!((sp.min - least).abs() <= 1e-3, "seed {seed}");
        assert!(
            (sp.mean_nearest - mean).abs() <= 1e-3 * mean.max(1.0),
            "seed {seed}"
        );
        let close = nearest.iter().filter(|&&d| d < 20.0).count();
        assert_eq!(crowded(&grid, &positions, 20.0), close, "seed {seed}");
    }
}

// ---------------------------------------------------------------------------------------------
// Nothing allocates once warm.

#[test]
fn a_warm_tick_of_either_mode_allocates_nothing() {
    let v = boid_vehicle();
    let size = Vec2::new(1280.0, 768.0);
    let mut rng = StdRng::seed_from_u64(5);
    let boids: Vec<Boid> = (0..2000)
        .map(|_| Boid {
            pos: Vec2::new(rng.gen_range(0.0..size.x), rng.gen_range(0.0..size.y)),
            vel: random_unit(&mut rng) * 100.0,
        })
        .collect();
    let positions: Vec<Vec2> = boids.iter().map(|b| b.pos).collect();
    let (mut grid, mut masses, mut groups) =
        (Neighbours::default(), Masses::default(), Groups::default());
    let flock_params = [
        FlockParams::default(),
        FlockParams {
            neighbourhood: Neighbourhood::Topological,
            ..FlockParams::default()
        },
    ];
    let swarm_params = SwarmParams::default();
    let around = Around {
        predator: Some(Vec2::new(600.0, 400.0)),
        leader: None,
    };
    let mut total = Vec2::ZERO;
    let mut tick = |grid: &mut Neighbours, masses: &mut Masses, groups: &mut Groups| {
        for p in &flock_params {
            grid.rebuild(size, p.radius, boids.iter().map(|b| b.pos));
            masses.rebuild(size, p.gather_radius, boids.iter().map(|b| (b.pos, b.vel)));
            let senses = flock::Flockmates {
                grid,
                masses,
                boids: &boids,
            };
            for i in 0..boids.len() {
                total += flock::steer(senses, i, Vec2::X, around, p, &v).total;
            }
            groups.count(grid, &positions, p.radius);
            spacing(grid, &positions, p.radius);
        }
        grid.rebuild(size, 60.0, positions.iter().copied());
        let target = Target {
            player: Vec2::new(640.0, 384.0),
            hold: 300.0,
            player_radius: 12.0,
            dt: 1.0 / 60.0,
        };
        for i in 0..positions.len() {
            total += swarm::steer(grid, &positions, i, Vec2::ZERO, target, &swarm_params, &v)
                .0
                .total;
        }
    };
    tick(&mut grid, &mut masses, &mut groups);
    let before = allocations();
    for _ in 0..3 {
        tick(&mut grid, &mut masses, &mut groups);
    }
    assert_eq!(allocations() - before, 0);
    assert!(total.is_finite());
}

// The topological flock's kept neighbours.

#[test]
fn steering_by_the_nearest_found_now_is_the_topological_steering_exactly() {
    // The world keeps each boid's 7 nearest a few ticks; on the tick they are found, steering
    // by them must be what `steer` gives, to the bit.
    let v = boid_vehicle();
    let size = Vec2::new(1280.0, 768.0);
    let mut rng = StdRng::seed_from_u64(11);
    let boids: Vec<Boid> = (0..2000)
        .map(|_| Boid {
            pos: Vec2::new(rng.gen_range(0.0..size.x), rng.gen_range(0.0..size.y)),
            vel: random_unit(&mut rng) * 100.0,
        })
        .collect();
    let p = FlockParams {
        neighbourhood: Neighbourhood::Topological,
        ..FlockParams::default()
    };
    let mut grid = Neighbours::default();
    grid.rebuild(size, 17.0, boids.iter().map(|b| b.pos));
    let mut masses = Masses::default();
    masses.rebuild(size, p.gather_radius, boids.iter().map(|b| (b.pos, b.vel)));
    let senses = flock::Flockmates {
        grid: &grid,
        masses: &masses,
        boids: &boids,
    };
    let around = Around {
        predator: Some(Vec2::new(600.0, 400.0)),
        leader: None,
    };
    let mut heeded_total = 0;
    for i in 0..boids.len() {
        let heading = random_unit(&mut rng);
        let nearest = flock::nearest_seen(&grid, &boids, i, heading, &p);
        let kept: Vec<u32> = nearest.iter().map(|(j, _)| j).collect();
        let now = flock::steer(senses, i, heading, around, &p, &v);
        let by_kept = flock::steer_heeding(senses, i, &kept, around, &p, &v);
        assert_eq!(now, by_kept, "boid {i}");
        heeded_total += kept.len();
    }
    // 270° of view: most boids heed a full 7.
    assert!(heeded_total > 2000 * 6, "{heeded_total}");
}
