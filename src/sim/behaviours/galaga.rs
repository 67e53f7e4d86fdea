//! Galaga pattern flights (Namco 1981): waves of ships enter in pairs along step-list paths, fly
//! home into a formation that sways while it fills and then breathes, and peel off to dive at the
//! player.
//!
//! Paths use the arcade's own encoding: each step flies at a speed, turning at a rate, for a time
//! (constant speed and smooth joins by construction), or is a command — aim at the player, fly
//! until a height, wrap to the top, jump to another path, fly home to the formation slot. A
//! mirrored path flies the other flank: x reflected, turns negated.
//!
//! The data describes one squadron (the built-in stage: five waves, 40 ships, a 40-slot
//! formation). More ships than that (`+`, `--agents`) fly as further squadrons, each a copy of the
//! first with its own formation: the formations stand side by side in a grid across the top of
//! the arena, shrunk as a whole where more than fit (their spacing, sway and breath alike), every
//! squadron flies each wave, their pairs interleaved along the paths, and each has its own dives
//! within its own cap on ships in flight. One squadron is the stage as the data gives it.

use crate::data::patterns::{FORMATION_ROWS, GalagaData, ShipKind, Step};
use crate::data::tuning::VehicleTuning;
use crate::sim::agent::{Agent, Behaviour};
use ::rand::Rng;
use glam::{DVec2, Vec2};
use std::f32::consts::TAU;
use std::f64::consts::{FRAC_PI_2 as FRAC_PI_2_64, PI as PI_64, TAU as TAU_64};
use std::ops::Range;
use std::sync::Arc;

/// Radius of a ship's body (px).
pub const SHIP_RADIUS: f32 = 12.0;
/// Where a wrapped ship drops back in, below the top wall (px).
const WRAP_Y: f32 = 16.0;
/// Longest an `until` step may fly before giving up on its height (s).
const UNTIL_LIMIT: f32 = 20.0;
/// Slowest and proportional speed of the final approach to a slot: slowing near it keeps the
/// turn-limited ship from circling it.
const HOME_MIN_SPEED: f32 = 60.0;
const HOME_SLOWING: f32 = 3.0;
/// Instant steps (aim, wrap, jump) one tick may run before it must fly.
const MAX_INSTANT_STEPS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipState {
    Queued,
    Entering,
    Homing,
    Formation,
    Diving,
    Returning,
}

impl ShipState {
    pub fn word(self) -> &'static str {
        match self {
            ShipState::Queued => "queued",
            ShipState::Entering => "entering",
            ShipState::Homing => "homing",
            ShipState::Formation => "formation",
            ShipState::Diving => "diving",
            ShipState::Returning => "returning",
        }
    }

    pub fn in_flight(self) -> bool {
        matches!(self, ShipState::Diving | ShipState::Returning)
    }
}

/// Where a ship is in its path. `path: None` means straight home.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The path flown (`None`: straight home); shared with the stage's names, so starting a
    /// flight or jumping to another path allocates nothing.
    pub path: Option<PathName>,
    pub step: usize,
    pub elapsed: f32,
    pub mirror: bool,
    /// For `until`: which side of the height the ship started on.
    pub started_above: Option<bool>,
}

impl Flight {
    /// A flight from the first step of `path` (`None`: straight home), on the mirrored flank or
    /// not.
    pub fn new(path: Option<PathName>, mirror: bool) -> Self {
        Flight {
            path,
            step: 0,
            elapsed: 0.0,
            mirror,
            started_above: None,
        }
    }
}

/// An escort flying its boss's path: it keeps its place beside the leader.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Follow {
    pub leader: usize,
    /// Offset from the leader in the leader's frame (x along its heading).
    pub offset: Vec2,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ship {
    pub kind: ShipKind,
    pub slot: usize,
    pub state: ShipState,
    pub flight: Option<Flight>,
    /// Radians (0 along +x, π/2 down the screen). Flights are integrated in f64: a mirrored
    /// path far from the origin would otherwise round differently from its original and drift
    /// off the exact reflection.
    pub heading: f64,
    /// Exact position (the agent's body holds it rounded to f32).
    pub pos: DVec2,
    pub speed: f32,
    pub launch_at: Option<f32>,
    pub wave: usize,
    /// Entry path and flank, flown once the wave launches.
    pub entry: (PathName, bool),
    pub follow: Option<Follow>,
    /// Caught the player on this flight already (one catch per flight).
    pub caught: bool,
    pub params: VehicleTuning,
}

/// A formation slot: its kind, its squadron's formation's top centre (from the data's, zero for
/// the first of a lone squadron), and its offset from there (the squadron's breath scales this).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub kind: ShipKind,
    pub origin: Vec2,
    pub offset: Vec2,
}

/// Room kept between neighbouring squadrons' formations (px, before shrinking).
const SQUADRON_GAP: f32 = 24.0;
/// The squadrons' formations stay above this share of the arena's height (the player's room is
/// below).
const FORMATION_FLOOR: f32 = 0.45;
/// How far behind the first each squadron's pairs leave, as a share of the pair interval: the
/// golden ratio's fractional part, stepped once per squadron (see `launch_waves`).
const INTERLEAVE: f32 = 0.618_034;

/// A path's name, as the stage holds it (see [`Stage::path_name`]).
pub type PathName = Arc<str>;

/// The stage: the data, the formation's motion, wave and dive scheduling, and its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    pub data: GalagaData,
    /// Every path's name, in order: flights take theirs from here.
    names: Vec<PathName>,
    pub slots: Vec<Slot>,
    pub t: f32,
    pub width: f32,
    pub height: f32,
    pub next_wave: usize,
    pub waves_launched: u32,
    pub complete_at: Option<f32>,
    pub breathe_from: Option<f32>,
    /// Next dive time per kind (boss, escort, drone).
    pub next_dive: [f32; 3],
    pub dives: u32,
    pub max_in_flight: u32,
    /// Ships in a whole squadron (the data's stage); the ships are held squadron by squadron.
    pub per_squadron: usize,
    /// How much the squadrons' formations are shrunk to fit (1: as the data draws them).
    pub scale: f32,
}

/// `name` from `names` (sorted), shared; a name not among them (data that was not checked) gets
/// its own copy.
fn path_name(names: &[PathName], name: &str) -> PathName {
    match names.binary_search_by(|n| (**n).cmp(name)) {
        Ok(i) => names[i].clone(),
        Err(_) => PathName::from(name),
    }
}

fn kind_index(k: ShipKind) -> usize {
    match k {
        ShipKind::Boss => 0,
        ShipKind::Escort => 1,
        ShipKind::Drone => 2,
    }
}

impl Stage {
    /// The stage and its `count` ships, queued at their entries: whole squadrons of the data's
    /// stage and then the first ships, in launch order, of one more (see the module doc).
    pub fn new(data: &GalagaData, width: f32, height: f32, count: usize) -> (Stage, Vec<Ship>) {
        let f = &data.formation;
        let mut slots = Vec::new();
        for (row, (kind, n)) in FORMATION_ROWS.iter().enumerate() {
            for col in 0..*n {
                let x = (col as f32 - (*n as f32 - 1.0) / 2.0) * f.column_spacing;
                slots.push(Slot {
                    kind: *kind,
                    origin: Vec2::ZERO,
                    offset: Vec2::new(x, row as f32 * f.row_spacing),
                });
            }
        }
        // Slots fill from the centre of each row outward, the upper row of a kind first.
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by(|&a, &b| {
            let (sa, sb) = (slots[a], slots[b]);
            (
                kind_index(sa.kind),
                sa.offset.y,
                sa.offset.x.abs(),
                sa.offset.x,
            )
                .partial_cmp(&(
                    kind_index(sb.kind),
                    sb.offset.y,
                    sb.offset.x.abs(),
                    sb.offset.x,
                ))
                .expect("slot offsets are finite")
        });
        let mut taken = vec![false; slots.len()];
        let names: Vec<PathName> = data
            .paths
            .keys()
            .map(|k| PathName::from(k.as_str()))
            .collect();
        let params = VehicleTuning {
            max_speed: data.max_speed,
            max_force: f32::MAX,
            mass: 1.0,
            radius: SHIP_RADIUS,
        };
        let mut ships = Vec::new();
        for (w, wave) in data.waves.iter().enumerate() {
            for pair in &wave.pairs {
                for kind in pair.kinds {
                    let Some(&slot) = order.iter().find(|&&s| !taken[s] && slots[s].kind == kind)
                    else {
                        continue;
                    };
                    taken[slot] = true;
                    ships.push(Ship {
                        kind,
                        slot,
                        state: ShipState::Queued,
                        flight: None,
                        heading: FRAC_PI_2_64,
                        pos: DVec2::ZERO,
                        speed: 0.0,
                        launch_at: None,
                        wave: w,
                        entry: (path_name(&names, &pair.path), pair.mirror),
                        follow: None,
                        caught: false,
                        params,
                    });
                }
            }
        }
        // `ships` is one squadron now; the stage holds as many as `count` takes.
        let per_squadron = ships.len();
        let squadrons = if per_squadron == 0 {
            1
        } else {
            count.div_ceil(per_squadron).max(1)
        };
        let (origins, scale) = squadron_layout(data, &slots, width, height, squadrons);
        let local = slots;
        let slots = origins
            .iter()
            .flat_map(|&origin| {
                local.iter().map(move |s| Slot {
                    origin,
                    offset: s.offset * scale,
                    ..*s
                })
            })
            .collect();
        let slots_per = local.len();
        let ships = (0..squadrons)
            .flat_map(|j| {
                ships.iter().map(move |s| Ship {
                    slot: j * slots_per + s.slot,
                    ..s.clone()
                })
            })
            .take(count)
            .collect();
        let stage = Stage {
            data: data.clone(),
            names,
            slots,
            t: 0.0,
            width,
            height,
            next_wave: 0,
            waves_launched: 0,
            complete_at: None,
            breathe_from: None,
            next_dive: [0.0; 3],
            dives: 0,
            max_in_flight: 0,
            per_squadron,
            scale,
        };
        (stage, ships)
    }

    /// The ships of each squadron: index ranges into the stage's ships (`total` of them).
    pub fn squadrons(&self, total: usize) -> impl Iterator<Item = Range<usize>> + use<> {
        squadrons(self.per_squadron, total)
    }

    /// Where a path starts for a flank, and its heading (radians).
    pub fn entry_point(&self, path: &str, mirror: bool) -> (DVec2, f64) {
        let p = &self.data.paths[path];
        let start = Vec2::from(p.start.unwrap_or([self.width / 2.0, WRAP_Y])).as_dvec2();
        let heading = f64::from(p.heading.unwrap_or(90.0)).to_radians();
        let (start, heading) = if mirror {
            (
                DVec2::new(f64::from(self.width) - start.x, start.y),
                PI_64 - heading,
            )
        } else {
            (start, heading)
        };
        // The paths are drawn for the default arena; in a smaller one, start inside the walls.
        (self.inside(start), heading)
    }

    /// `p` moved inside the walls by a ship's radius.
    fn inside(&self, p: DVec2) -> DVec2 {
        let r = f64::from(SHIP_RADIUS);
        let size = DVec2::new(f64::from(self.width), f64::from(self.height));
        p.clamp(DVec2::splat(r).min(size * 0.5), (size - r).max(size * 0.5))
    }

    /// The formation's sideways shift and its breathing scale now.
    pub fn formation_motion(&self) -> (f32, f32) {
        let f = &self.data.formation;
        match self.breathe_from {
            Some(b) => {
                let phase = TAU * (self.t - b) / f.breathe_period;
                (0.0, 1.0 + f.breathe * (1.0 - phase.cos()) / 2.0)
            }
            None => (
                f.sway * self.scale * (TAU * self.t / f.sway_period).sin(),
                1.0,
            ),
        }
    }

    /// Where slot `i` is now: top centre, shifted by the sway, its offset scaled by the breath
    /// (so the outer columns and lower rows move most).
    pub fn slot_position(&self, i: usize) -> Vec2 {
        let (shift, scale) = self.formation_motion();
        let slot = &self.slots[i];
        let at = Vec2::from(self.data.formation.top)
            + Vec2::new(shift, 0.0)
            + slot.origin
            + slot.offset * scale;
        // A formation wider than a small arena is squeezed against its walls.
        self.inside(at.as_dvec2()).as_vec2()
    }

    /// The stage's copy of a path's name (every name the data uses is a path's, once checked).
    pub fn path_name(&self, name: &str) -> PathName {
        path_name(&self.names, name)
    }

    fn dive_path(&self, kind: ShipKind) -> &str {
        match kind {
            ShipKind::Boss => &self.data.dives.boss_path,
            ShipKind::Escort => &self.data.dives.escort_path,
            ShipKind::Drone => &self.data.dives.drone_path,
        }
    }
}

/// Where each of `n` squadrons' formations stands (its top centre, from the data's) and how much
/// they are all shrunk: a grid of as many columns as lets them shrink least, centred under the
/// data's top, within the arena's width and above [`FORMATION_FLOOR`]. One squadron stands
/// where the data puts it, at full size.
fn squadron_layout(
    data: &GalagaData,
    slots: &[Slot],
    width: f32,
    height: f32,
    n: usize,
) -> (Vec<Vec2>, f32) {
    if n <= 1 {
        return (vec![Vec2::ZERO], 1.0);
    }
    let f = &data.formation;
    let (lo, hi) = slots.iter().fold((Vec2::ZERO, Vec2::ZERO), |(lo, hi), s| {
        (lo.min(s.offset), hi.max(s.offset))
    });
    // One formation's room at full size: its slots at their widest breath, its sway both ways
    // (the sway carries every squadron along together, so it is counted once) and a body.
    let breath = 1.0 + f.breathe.max(0.0);
    let block = Vec2::new(
        (hi.x - lo.x) * breath + 2.0 * SHIP_RADIUS + SQUADRON_GAP,
        (hi.y - lo.y) * breath + 2.0 * SHIP_RADIUS + SQUADRON_GAP,
    );
    let room = Vec2::new(
        width - 2.0 * f.sway.abs(),
        height * FORMATION_FLOOR - f.top[1],
    )
    .max(Vec2::ONE);
    let fit = |cols: usize| {
        let rows = n.div_ceil(cols);
        (room.x / (cols as f32 * block.x))
            .min(room.y / (rows as f32 * block.y))
            .min(1.0)
    };
    let cols = (1..=n)
        .max_by(|&a, &b| fit(a).total_cmp(&fit(b)).then(b.cmp(&a)))
        .unwrap_or(1);
    let scale = fit(cols);
    let origins = (0..n)
        .map(|j| {
            let (c, r) = ((j % cols) as f32, (j / cols) as f32);
            let x = (c - (cols as f32 - 1.0) / 2.0) * block.x * scale;
            Vec2::new(x, r * block.y * scale)
        })
        .collect();
    (origins, scale)
}

/// Squadrons of `per` ships out of `total`, as index ranges (the last may be short).
fn squadrons(per: usize, total: usize) -> impl Iterator<Item = Range<usize>> {
    let per = per.max(1);
    (0..total.div_ceil(per)).map(move |j| j * per..((j + 1) * per).min(total))
}

fn ship(a: &Agent) -> &Ship {
    match &a.behaviour {
        Behaviour::Ship(s) => s,
        _ => unreachable!("galaga worlds hold only ships"),
    }
}

fn ship_mut(a: &mut Agent) -> &mut Ship {
    match &mut a.behaviour {
        Behaviour::Ship(s) => s,
        _ => unreachable!("galaga worlds hold only ships"),
    }
}

/// One tick of the whole stage.
pub fn tick(stage: &mut Stage, agents: &mut [Agent], player: Vec2, dt: f32, rng: &mut impl Rng) {
    stage.t += dt;
    launch_waves(stage, agents);
    update_formation(stage, agents, dt);
    schedule_dives(stage, agents, rng);
    // Leaders before followers: followers read their leader's new position. (The scheduling
    // above reads positions only; where each ship was is noted as the fleet moves, so a fleet of
    // thousands is gone through three times a tick, not five.)
    for a in agents.iter_mut() {
        a.prev_pos = a.body.pos;
        a.prev_heading = a.body.heading;
        a.prev_speed = a.body.speed();
        a.respawned = false;
        if ship(a).follow.is_none() {
            fly(stage, a, player, dt);
        }
    }
    for i in 0..agents.len() {
        if let Some(follow) = ship(&agents[i]).follow {
            follow_leader(stage, agents, i, follow, player, dt);
        }
    }
    let mut in_flight = 0;
    for a in agents.iter_mut() {
        let (state, heading) = {
            let s = ship(a);
            (s.state, s.heading)
        };
        in_flight += u32::from(state.in_flight());
        a.state = state.word();
        a.body.heading = Vec2::from_angle(heading as f32);
        a.body.vel = if state == ShipState::Queued || a.respawned {
            Vec2::ZERO
        } else {
            (a.body.pos - a.prev_pos) / dt
        };
    }
    stage.max_in_flight = stage.max_in_flight.max(in_flight);
}

/// The next wave launches when every ship of the previous one is in formation.
fn launch_waves(stage: &mut Stage, agents: &mut [Agent]) {
    let waves = stage.data.waves.len();
    if stage.next_wave >= waves {
        return;
    }
    let previous_home = stage.next_wave == 0
        || agents
            .iter()
            .map(ship)
            .filter(|s| s.wave == stage.next_wave - 1)
            .all(|s| s.state == ShipState::Formation);
    if !previous_home {
        return;
    }
    let w = stage.next_wave;
    let d = &stage.data.dives;
    // Every squadron flies the wave together, pairs counted within each; squadron j's pairs
    // leave a fraction of the pair interval after the first's — the fractional part of j times
    // the golden ratio's, so the streams interleave along the paths instead of flying stacked,
    // and no two squadrons' ships leave together, whatever the wing-man's delay.
    let mut launched = false;
    for (j, squadron) in stage.squadrons(agents.len()).enumerate() {
        let lag = d.pair_interval * (j as f32 * INTERLEAVE).fract();
        let mut k = 0;
        for a in &mut agents[squadron] {
            let s = ship_mut(a);
            if s.wave == w {
                let pair = (k / 2) as f32;
                let wing = if k % 2 == 1 { d.wingman_delay } else { 0.0 };
                s.launch_at = Some(stage.t + pair * d.pair_interval + wing + lag);
                k += 1;
            }
        }
        launched |= k > 0;
    }
    stage.next_wave += 1;
    if launched {
        stage.waves_launched += 1;
    }
}

/// Ships in formation sit exactly on their slot; the formation sways until full, then breathes
/// (starting as the sway passes through the centre, so nothing jumps).
fn update_formation(stage: &mut Stage, agents: &mut [Agent], dt: f32) {
    let all_home = stage.next_wave >= stage.data.waves.len()
        && agents.iter().all(|a| ship(a).state == ShipState::Formation);
    if stage.complete_at.is_none() && all_home {
        stage.complete_at = Some(stage.t);
    }
    if stage.complete_at.is_some() && stage.breathe_from.is_none() {
        let f = &stage.data.formation;
        let before = (TAU * (stage.t - dt) / f.sway_period).sin();
        let now = (TAU * stage.t / f.sway_period).sin();
        if before.signum() != now.signum() || f.sway == 0.0 {
            stage.breathe_from = Some(stage.t);
        }
    }
}

/// Once the formation is full, each kind dives on its own timer, within the cap on ships in
/// flight; a boss takes up to two escorts along. Every squadron dives when the timer comes round,
/// each picking among its own ships, within its own cap.
fn schedule_dives(stage: &mut Stage, agents: &mut [Agent], rng: &mut impl Rng) {
    let Some(complete) = stage.complete_at else {
        return;
    };
    let d = &stage.data.dives;
    let everies = [
        (ShipKind::Drone, d.drone_every),
        (ShipKind::Escort, d.escort_every),
        (ShipKind::Boss, d.boss_every),
    ];
    for (kind, every) in everies {
        let k = kind_index(kind);
        if stage.next_dive[k] == 0.0 {
            // The first dives come one period after the formation fills.
            stage.next_dive[k] = complete + every;
        }
        if stage.t < stage.next_dive[k] {
            continue;
        }
        stage.next_dive[k] = stage.t + every;
        for squadron in squadrons(stage.per_squadron, agents.len()) {
            let first = squadron.start;
            dive(stage, &mut agents[squadron], first, kind, rng);
        }
    }
}

/// One squadron's dive of `kind`: `agents` are its ships, `first` the index of the first among
/// the stage's ships (escorts follow their leader by that index).
fn dive(stage: &mut Stage, agents: &mut [Agent], first: usize, kind: ShipKind, rng: &mut impl Rng) {
    let d = &stage.data.dives;
    let (max_in_flight, boss_escorts) = (d.max_in_flight, d.boss_escorts);
    let waiting = |a: &Agent, k: ShipKind| {
        let s = ship(a);
        s.kind == k && s.state == ShipState::Formation
    };
    let ready = agents.iter().filter(|a| waiting(a, kind)).count();
    if ready == 0 {
        return;
    }
    let pick = rng.gen_range(0..ready);
    let Some(leader) = (0..agents.len())
        .filter(|&i| waiting(&agents[i], kind))
        .nth(pick)
    else {
        return;
    };
    // The leader and, for a boss, its nearest escorts in formation, nearest first (the lower
    // index on a tie): at most three ships, in a fixed array.
    let mut group = [leader; 3];
    let mut len = 1;
    if kind == ShipKind::Boss {
        let at = agents[leader].body.pos;
        for _ in 0..boss_escorts.min(group.len() - 1) {
            let nearest = (0..agents.len())
                .filter(|&i| waiting(&agents[i], ShipKind::Escort) && !group[..len].contains(&i))
                .min_by(|&a, &b| {
                    agents[a]
                        .body
                        .pos
                        .distance_squared(at)
                        .total_cmp(&agents[b].body.pos.distance_squared(at))
                });
            let Some(i) = nearest else { break };
            group[len] = i;
            len += 1;
        }
    }
    let group = &group[..len];
    let in_flight = agents.iter().filter(|a| ship(a).state.in_flight()).count();
    if in_flight + group.len() > max_in_flight {
        return;
    }
    let mirror = agents[leader].body.pos.x > stage.width / 2.0;
    let path = stage.path_name(stage.dive_path(kind));
    let leader_pos = agents[leader].body.pos;
    let leader_heading = ship(&agents[leader]).heading as f32;
    for (n, &i) in group.iter().enumerate() {
        let offset = agents[i].body.pos - leader_pos;
        let s = ship_mut(&mut agents[i]);
        s.state = ShipState::Diving;
        s.caught = false;
        if n == 0 {
            s.flight = Some(Flight::new(Some(path.clone()), mirror));
        } else {
            s.follow = Some(Follow {
                leader: first + leader,
                offset: Vec2::from_angle(-leader_heading).rotate(offset),
            });
        }
        stage.dives += 1;
    }
}

/// One tick of a ship that flies on its own.
fn fly(stage: &Stage, a: &mut Agent, player: Vec2, dt: f32) {
    let Agent {
        behaviour,
        body,
        respawned,
        ..
    } = a;
    let Behaviour::Ship(s) = behaviour else {
        return;
    };
    match s.state {
        ShipState::Queued => {
            let (start, heading) = stage.entry_point(&s.entry.0, s.entry.1);
            s.pos = start;
            body.pos = start.as_vec2();
            s.heading = heading;
            if s.launch_at.is_some_and(|t| stage.t >= t) {
                s.state = ShipState::Entering;
                s.flight = Some(Flight::new(Some(s.entry.0.clone()), s.entry.1));
                *respawned = true;
            }
        }
        ShipState::Formation => {
            body.pos = stage.slot_position(s.slot);
            s.pos = body.pos.as_dvec2();
            s.heading = FRAC_PI_2_64;
        }
        _ => {
            if run_flight(stage, s, player, dt) {
                *respawned = true;
            }
            body.pos = s.pos.as_vec2();
        }
    }
}

/// An escort beside its diving boss; when the boss heads home (or stops diving) it flies home
/// on its own.
fn follow_leader(stage: &Stage, agents: &mut [Agent], i: usize, f: Follow, player: Vec2, dt: f32) {
    let leader = ship(&agents[f.leader]);
    let leading = leader.state == ShipState::Diving
        && leader
            .flight
            .as_ref()
            .is_some_and(|fl| !is_home_step(stage, fl));
    if leading {
        let heading = leader.heading;
        let target = agents[f.leader].body.pos + Vec2::from_angle(heading as f32).rotate(f.offset);
        let from = agents[i].body.pos;
        let max_step = stage.data.max_speed * dt;
        // Keep station, never faster than a ship may fly (the leader's turns swing the offset).
        let step = (target - from).clamp_length_max(max_step);
        let to = clamp_inside(stage, (from + step).as_dvec2()).0;
        agents[i].body.pos = to.as_vec2();
        let s = ship_mut(&mut agents[i]);
        s.heading = heading;
        s.pos = to;
    } else {
        let s = ship_mut(&mut agents[i]);
        s.follow = None;
        s.state = ShipState::Returning;
        s.speed = s.speed.max(stage.data.max_speed * 0.8);
        s.flight = Some(Flight::new(None, false));
        run_flight(stage, ship_mut(&mut agents[i]), player, dt);
        agents[i].body.pos = ship(&agents[i]).pos.as_vec2();
    }
}

fn is_home_step(stage: &Stage, f: &Flight) -> bool {
    match &f.path {
        None => true,
        Some(p) => matches!(
            stage.data.paths[&**p].steps.get(f.step),
            Some(Step::Home) | None
        ),
    }
}

/// Keep a ship inside the walls; true if it had to be moved.
fn clamp_inside(stage: &Stage, p: DVec2) -> (DVec2, bool) {
    let r = f64::from(SHIP_RADIUS);
    let c = p.clamp(
        DVec2::splat(r),
        DVec2::new(f64::from(stage.width) - r, f64::from(stage.height) - r),
    );
    (c, c != p)
}

/// The unit vector of a heading (f64).
fn dir(heading: f64) -> DVec2 {
    DVec2::new(heading.cos(), heading.sin())
}

/// Advance a ship along its flight for one tick (its exact position and heading); returns
/// whether it jumped (wrapped to the top).
fn run_flight(stage: &Stage, s: &mut Ship, player: Vec2, dt: f32) -> bool {
    let dt = f64::from(dt);
    let mut jumped = false;
    for _ in 0..MAX_INSTANT_STEPS {
        let Some(flight) = s.flight.as_mut() else {
            return jumped;
        };
        let turn_sign = if flight.mirror { -1.0 } else { 1.0 };
        // (No path, or a path that ends without a command: home.)
        let step = match &flight.path {
            None => &Step::Home,
            Some(p) => stage.data.paths[&**p]
                .steps
                .get(flight.step)
                .unwrap_or(&Step::Home),
        };
        match *step {
            Step::Fly { speed, turn, time } => {
                s.speed = speed;
                s.heading += f64::from(turn).to_radians() * turn_sign * dt;
                s.pos = clamp_inside(stage, s.pos + dir(s.heading) * f64::from(speed) * dt).0;
                flight.elapsed += dt as f32;
                if flight.elapsed >= time - 1e-5 {
                    flight.step += 1;
                    flight.elapsed = 0.0;
                }
                return jumped;
            }
            Step::Until { speed, turn, y } => {
                s.speed = speed;
                s.heading += f64::from(turn).to_radians() * turn_sign * dt;
                let y = f64::from(y);
                let started_above = *flight.started_above.get_or_insert(s.pos.y < y);
                let (p, walled) =
                    clamp_inside(stage, s.pos + dir(s.heading) * f64::from(speed) * dt);
                s.pos = p;
                flight.elapsed += dt as f32;
                if (p.y < y) != started_above || walled || flight.elapsed > UNTIL_LIMIT {
                    flight.step += 1;
                    flight.elapsed = 0.0;
                    flight.started_above = None;
                }
                return jumped;
            }
            Step::Aim => {
                let to = player.as_dvec2() - s.pos;
                if to != DVec2::ZERO {
                    s.heading = to.y.atan2(to.x);
                }
                flight.step += 1;
            }
            Step::Wrap => {
                s.pos = DVec2::new(s.pos.x, f64::from(WRAP_Y));
                s.heading = FRAC_PI_2_64;
                jumped = true;
                flight.step += 1;
            }
            Step::Jump(ref target) => {
                flight.path = Some(stage.path_name(target));
                flight.step = 0;
                flight.elapsed = 0.0;
            }
            Step::Home => {
                s.state = match s.state {
                    ShipState::Entering | ShipState::Homing => ShipState::Homing,
                    _ => ShipState::Returning,
                };
                home(stage, s, dt);
                return jumped;
            }
        }
    }
    jumped
}

/// Fly toward the (moving) slot, turning at most the home turn rate and slowing near it; snap
/// onto it once within one tick's travel.
///
/// Near the slot the ship may also have to slow below [`HOME_MIN_SPEED`]: a slot off to the
/// side and closer than the ship's turning circle can never be reached by turning, and the ship
/// would circle it for good (one ship in 20,000 did, holding up the next wave). The circle
/// through the slot that leaves the ship along its heading has radius `d² / 2·lateral`; flying
/// no faster than the turn rate times that keeps the slot within reach.
fn home(stage: &Stage, s: &mut Ship, dt: f64) {
    let target = stage.slot_position(s.slot).as_dvec2();
    let to = target - s.pos;
    let dist = to.length();
    let min = f64::from(HOME_MIN_SPEED);
    let turn_rate = f64::from(stage.data.home_turn_rate).to_radians();
    let lateral = to.dot(dir(s.heading).perp()).abs();
    let within_turn = if lateral > 0.0 {
        turn_rate * dist * dist / (2.0 * lateral)
    } else {
        f64::INFINITY
    };
    let speed = f64::from(s.speed)
        .max(min)
        .min((dist * f64::from(HOME_SLOWING)).max(min))
        .min(within_turn);
    if dist <= speed * dt {
        s.state = ShipState::Formation;
        s.flight = None;
        s.heading = FRAC_PI_2_64;
        s.pos = target;
        return;
    }
    let want = to.y.atan2(to.x);
    let diff = (want - s.heading + PI_64).rem_euclid(TAU_64) - PI_64;
    let max_turn = turn_rate * dt;
    s.heading += diff.clamp(-max_turn, max_turn);
    s.pos = clamp_inside(stage, s.pos + dir(s.heading) * speed * dt).0;
}

/// The path a flying ship has left to fly, as points (for the overlay): the current step's
/// remainder and the following steps, simulated without the player (an `aim` keeps the heading).
pub fn preview(stage: &Stage, s: &Ship, pos: Vec2, out: &mut Vec<Vec2>) {
    out.clear();
    let Some(flight) = &s.flight else {
        return;
    };
    let Some(path) = &flight.path else {
        out.push(pos);
        out.push(stage.slot_position(s.slot));
        return;
    };
    let turn_sign = if flight.mirror { -1.0 } else { 1.0 };
    let mut p = pos;
    let mut heading = s.heading as f32;
    // (Steps are read in place, as `run_flight` reads them: a jump allocates nothing.)
    let mut name: &str = path;
    let mut i = flight.step;
    let mut elapsed = flight.elapsed;
    let dt = 1.0 / 30.0;
    out.push(p);
    for _ in 0..64 {
        let Some(step) = stage.data.paths[name].steps.get(i) else {
            break;
        };
        match *step {
            Step::Fly { speed, turn, time } => {
                let mut t = elapsed;
                while t < time && out.len() < 400 {
                    heading += turn.to_radians() * turn_sign * dt;
                    p += Vec2::from_angle(heading) * speed * dt;
                    out.push(p);
                    t += dt;
                }
            }
            Step::Until { speed, turn, y } => {
                let above = p.y < y;
                let mut t = 0.0;
                while (p.y < y) == above && t < 4.0 && out.len() < 400 {
                    heading += turn.to_radians() * turn_sign * dt;
                    p += Vec2::from_angle(heading) * speed * dt;
                    out.push(p);
                    t += dt;
                }
            }
            Step::Wrap => {
                // Draw only up to the wrap: the rest starts at the top.
                out.push(Vec2::new(p.x, stage.height));
                break;
            }
            Step::Jump(ref target) => {
                name = target;
                i = 0;
                elapsed = 0.0;
                continue;
            }
            Step::Home => {
                out.push(stage.slot_position(s.slot));
                break;
            }
            Step::Aim => {}
        }
        i += 1;
        elapsed = 0.0;
    }
}
