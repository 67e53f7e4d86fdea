//! How a flock or swarm holds together, measured: polarization (how much its members head one
//! way), groups (the connected parts of the neighbour graph), and spacing (the least distance
//! between two members, and the mean distance to each one's nearest). The summary's `flock` and
//! `swarm` fields and the HUD line come from these; none allocates once its buffers are warm.

use crate::sim::space::neighbours::Neighbours;
use crate::sim::vehicle::unit_or_zero;
use glam::Vec2;

/// `|Σ vᵢ/|vᵢ|| / N`: 1 when every member heads one way, near 0 for random headings (about
/// `1/√N`). A member standing still counts as heading nowhere; non-finite velocities are left
/// out; 0 for nobody.
pub fn polarization(velocities: impl IntoIterator<Item = Vec2>) -> f32 {
    let (mut sum, mut count) = (Vec2::ZERO, 0u32);
    for v in velocities {
        if v.is_finite() {
            sum += unit_or_zero(v);
            count += 1;
        }
    }
    if count == 0 {
        0.0
    } else {
        (sum.length() / count as f32).min(1.0)
    }
}

/// A velocity's part in [`polarization`], worked out apart (on the thread that moved its
/// member): its unit vector, or NaN for a non-finite velocity, which is left out.
#[inline]
pub fn heading_part(v: Vec2) -> Vec2 {
    if v.is_finite() {
        unit_or_zero(v)
    } else {
        Vec2::NAN
    }
}

/// [`polarization`] from every member's [`heading_part`], in the members' order: the same sum,
/// bit for bit.
pub fn polarization_of(parts: &[Vec2]) -> f32 {
    let (mut sum, mut count) = (Vec2::ZERO, 0u32);
    for &u in parts {
        if u.is_finite() {
            sum += u;
            count += 1;
        }
    }
    if count == 0 {
        0.0
    } else {
        (sum.length() / count as f32).min(1.0)
    }
}

/// Connected groups of the metric neighbour graph (two members are joined when nearer than the
/// radius), by union-find with path halving and union by size. Kept between calls so its
/// buffers are reused.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Groups {
    /// How many groups `positions` form with joining distance `radius`. `grid` must have been
    /// rebuilt from `positions` in order. Members with non-finite positions belong to none.
    /// Afterwards [`Groups::label`] names each member's group.
    pub fn count(&mut self, grid: &Neighbours, positions: &[Vec2], radius: f32) -> usize {
        let n = positions.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.size.clear();
        self.size.resize(n, 1);
        for (i, &p) in positions.iter().enumerate() {
            let i = i as u32;
            grid.for_each_within(p, radius, |j, _, _| {
                // (Each pair is met from both ends; once is enough.)
                if j > i && (j as usize) < n {
                    self.union(i, j);
                }
            });
        }
        let mut groups = 0;
        for (i, &p) in positions.iter().enumerate() {
            let root = self.find(i as u32);
            self.parent[i] = root;
            groups += usize::from(root == i as u32 && p.is_finite());
        }
        groups
    }

    /// The group of member `i` after [`Groups::count`]: the index of one of its members (the
    /// same for all of them). `None` past the members counted.
    pub fn label(&self, i: usize) -> Option<u32> {
        self.parent.get(i).copied()
    }

    /// The groups' figures after [`Groups::count`] over the same `positions`: their sizes, and
    /// the polarization of the largest (the lowest-labelled of equal ones) over its own members'
    /// `velocities` (in the members' order).
    pub fn figures(
        &self,
        positions: &[Vec2],
        velocities: impl IntoIterator<Item = Vec2>,
    ) -> GroupFigures {
        let mut f = GroupFigures::default();
        let mut biggest = None;
        for (i, &p) in positions.iter().enumerate() {
            if !p.is_finite() || self.parent.get(i) != Some(&(i as u32)) {
                continue;
            }
            let size = self.size[i] as usize;
            f.members += size;
            if size < DUST {
                f.dust += size;
            }
            if size > f.largest {
                f.largest = size;
                biggest = Some(i as u32);
            }
            f.smallest = if f.groups == 0 {
                size
            } else {
                f.smallest.min(size)
            };
            f.groups += 1;
        }
        if let Some(root) = biggest {
            let own = velocities
                .into_iter()
                .zip(&self.parent)
                .filter(|&(_, &r)| r == root)
                .map(|(v, _)| v);
            f.polarization = polarization(own);
        }
        f
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
    }
}

/// The groups of a crowd at one moment (all 0 for nobody).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GroupFigures {
    pub groups: usize,
    /// Members of any group (those with finite positions).
    pub members: usize,
    /// Members of the largest group and of the smallest.
    pub largest: usize,
    pub smallest: usize,
    /// The largest group's own polarization.
    pub polarization: f32,
    /// Members of groups smaller than [`DUST`].
    pub dust: usize,
}

impl GroupFigures {
    /// The share of the members in groups smaller than [`DUST`] (0 for nobody).
    pub fn dust_share(&self) -> f32 {
        if self.members == 0 {
            0.0
        } else {
            self.dust as f32 / self.members as f32
        }
    }
}

/// A group of fewer members than this is dust, not a flock.
pub const DUST: usize = 10;

/// Distances between members and their nearest neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spacing {
    /// The least centre-to-centre distance between two members (infinite when no member has a
    /// neighbour within the limit).
    pub min: f32,
    /// The mean over members of the distance to their nearest (0 when none has one).
    pub mean_nearest: f32,
    /// How many members had a neighbour within the limit.
    pub counted: usize,
}

/// Each member's nearest neighbour within `limit` (`f32::INFINITY` for no limit; a limit keeps
/// a straggler from searching the whole grid). `grid` must have been rebuilt from `positions`.
pub fn spacing(grid: &Neighbours, positions: &[Vec2], limit: f32) -> Spacing {
    let (mut min, mut sum, mut counted) = (f32::INFINITY, 0.0f64, 0usize);
    for (i, &p) in positions.iter().enumerate() {
        let me = i as u32;
        let nearest = grid.nearest(p, 1, limit, |j, _| j != me);
        if let Some((_, d2)) = nearest.iter().next() {
            let d = d2.sqrt();
            min = min.min(d);
            sum += f64::from(d);
            counted += 1;
        }
    }
    Spacing {
        min,
        mean_nearest: if counted == 0 {
            0.0
        } else {
            (sum / counted as f64) as f32
        },
        counted,
    }
}

/// How many members have another's centre nearer than `distance` (for `agent_overlaps`, with
/// `distance` two body radii).
pub fn crowded(grid: &Neighbours, positions: &[Vec2], distance: f32) -> usize {
    let mut crowded = 0;
    for (i, &p) in positions.iter().enumerate() {
        let me = i as u32;
        let mut any = false;
        grid.for_each_within(p, distance, |j, _, _| any |= j != me);
        crowded += usize::from(any);
    }
    crowded
}

/// How a [`Watch`] looks at a crowd: bodies of `radius`; groups joined at `join` px; the
/// polarization averaged over the last `window` ticks and the largest group's over the last
/// `group_window` (sampled every `group_every` ticks); overlaps counted apart after the first
/// `settle` ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Watching {
    pub radius: f32,
    pub join: f32,
    pub window: usize,
    pub group_window: usize,
    pub group_every: usize,
    pub settle: u64,
}

/// A flock's or swarm's figures over a run, folded in tick by tick (the `sim` summary's `flock`
/// and `swarm` fields): the polarization of the last ticks, the largest group's own polarization
/// and the group sizes sampled over the last ticks, the least distance between two members
/// ever, and the member-ticks with another member's body overlapping (all of them, and those
/// after the crowd had time to settle). Its buffers grow to the crowd once.
#[derive(Debug, Clone, Default)]
pub struct Watch {
    grid: Neighbours,
    join_grid: Neighbours,
    positions: Vec<Vec2>,
    groups: Groups,
    /// The latest ticks' polarization, a ring of `window` (oldest overwritten).
    polar: Ring,
    /// The latest samples of the groups, a ring of `group_window / group_every`.
    grouped: Vec<GroupFigures>,
    grouped_next: usize,
    ticks: u64,
    /// The least centre-to-centre distance seen (infinite until two members are within reach).
    pub min_separation: f32,
    /// Member-ticks with another's centre nearer than two body radii.
    pub overlaps: u64,
    /// Those after the first `settle` ticks, and the member-ticks there were then.
    pub settled_overlaps: u64,
    pub settled_member_ticks: u64,
}

/// A ring of the latest values (oldest overwritten).
#[derive(Debug, Clone, Default)]
struct Ring {
    values: Vec<f32>,
    next: usize,
}

impl Ring {
    fn push(&mut self, v: f32, window: usize) {
        let window = window.max(1);
        if self.values.len() < window {
            self.values.push(v);
        } else {
            self.values[self.next % window] = v;
        }
        self.next = (self.next + 1) % window;
    }

    fn mean(&self) -> f32 {
        if self.values.is_empty() {
            0.0
        } else {
            self.values.iter().sum::<f32>() / self.values.len() as f32
        }
    }
}

/// What a [`Watch`] makes of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Watched {
    /// The mean polarization over the window's ticks (or those there were).
    pub polarization: f32,
    /// Groups at the end.
    pub groups: usize,
    /// The largest group's own polarization, the mean over the group window's samples.
    pub group_polarization: f32,
    /// The largest group over the group window's samples (its size at the least), and the
    /// smallest (its size at the least): a crowd shedding dust shows it here.
    pub largest_group: usize,
    pub smallest_group: usize,
    /// The share of the members in groups smaller than [`DUST`], the mean over the samples.
    pub dust_share: f32,
    pub min_separation: Option<f32>,
    /// The mean nearest-neighbour distance at the end.
    pub nn_distance_mean: f32,
    pub overlaps: u64,
    pub settled_overlaps: u64,
    /// `settled_overlaps` over the member-ticks after the settling time (0 for none).
    pub settled_overlap_share: f64,
}

impl Watch {
    pub fn new() -> Self {
        Watch {
            min_separation: f32::INFINITY,
            ..Watch::default()
        }
    }

    /// Fold in one tick: the members' positions and velocities in an arena of `size`, looked
    /// at as `how` says.
    pub fn observe(
        &mut self,
        size: Vec2,
        members: impl Iterator<Item = (Vec2, Vec2)> + Clone,
        how: &Watching,
    ) {
        self.positions.clear();
        self.positions.extend(members.clone().map(|(p, _)| p));
        let touching = 2.0 * how.radius;
        self.grid
            .rebuild(size, touching.max(1.0), self.positions.iter().copied());
        let crowded = crowded(&self.grid, &self.positions, touching) as u64;
        self.overlaps += crowded;
        self.ticks += 1;
        if self.ticks > how.settle {
            self.settled_overlaps += crowded;
            self.settled_member_ticks += self.positions.len() as u64;
        }
        // (Only a pair nearer than the least so far can change it: the search stays short.)
        let limit = self.min_separation.min(size.length());
        let near = spacing(&self.grid, &self.positions, limit);
        self.min_separation = self.min_separation.min(near.min);
        self.polar
            .push(polarization(members.clone().map(|(_, v)| v)), how.window);
        let every = how.group_every.max(1);
        if self.ticks.is_multiple_of(every as u64) {
            let f = self.group(size, members.map(|(_, v)| v), how.join);
            let kept = (how.group_window / every).max(1);
            if self.grouped.len() < kept {
                self.grouped.push(f);
            } else {
                self.grouped[self.grouped_next % kept] = f;
            }
            self.grouped_next = (self.grouped_next + 1) % kept;
        }
    }

    /// The groups of the positions last observed, joined at `join` px.
    fn group(
        &mut self,
        size: Vec2,
        velocities: impl Iterator<Item = Vec2>,
        join: f32,
    ) -> GroupFigures {
        self.join_grid
            .rebuild(size, join.max(1.0), self.positions.iter().copied());
        self.groups.count(&self.join_grid, &self.positions, join);
        self.groups.figures(&self.positions, velocities)
    }

    /// The run's figures; `size` and `join` as observed.
    pub fn finish(&mut self, size: Vec2, join: f32) -> Watched {
        let nearest = spacing(&self.grid, &self.positions, f32::INFINITY);
        self.join_grid
            .rebuild(size, join.max(1.0), self.positions.iter().copied());
        let groups = self.groups.count(&self.join_grid, &self.positions, join);
        let samples = self.grouped.len().max(1) as f32;
        let group_polarization = self.grouped.iter().map(|g| g.polarization).sum::<f32>() / samples;
        let least = |f: fn(&GroupFigures) -> usize| self.grouped.iter().map(f).min().unwrap_or(0);
        Watched {
            polarization: self.polar.mean(),
            groups,
            group_polarization,
            largest_group: least(|g| g.largest),
            smallest_group: least(|g| g.smallest),
            dust_share: self.grouped.iter().map(|g| g.dust_share()).sum::<f32>() / samples,
            min_separation: self
                .min_separation
                .is_finite()
                .then_some(self.min_separation),
            nn_distance_mean: nearest.mean_nearest,
            overlaps: self.overlaps,
            settled_overlaps: self.settled_overlaps,
            settled_overlap_share: if self.settled_member_ticks == 0 {
                0.0
            } else {
                self.settled_overlaps as f64 / self.settled_member_ticks as f64
            },
        }
    }
}
