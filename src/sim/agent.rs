//! An agent: a vehicle body plus the behaviour that drives it. The behaviour is a closed enum;
//! per-agent behaviour state lives in its variant, and each variant's maths lives in its own file
//! under `behaviours/`.

use crate::data::patterns::ShipKind;
use crate::data::tuning::{Tuning, VehicleTuning, WanderTuning};
use crate::sim::arena::{Arena, Response};
use crate::sim::behaviours::avoid::{self, AvoidState};
use crate::sim::behaviours::evade::{self, EvadeState};
use crate::sim::behaviours::feelers::Feel;
use crate::sim::behaviours::galaga::Ship;
use crate::sim::behaviours::pattern::{PatternRun, TileRun};
use crate::sim::behaviours::tile_los::{self, TileLine};
use crate::sim::behaviours::unstick::Unstick;
use crate::sim::behaviours::wander;
use crate::sim::behaviours::{intercept, seek, tile_chase};
use crate::sim::crowd::Crowd;
use crate::sim::mode::Mode;
use crate::sim::tiles::TileGrid;
use crate::sim::vehicle::{Vehicle, unit_or, unit_or_zero, within_a_tick};
use ::rand::Rng;
use glam::{IVec2, Vec2};

/// A tile agent's position and step timing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileWalk {
    /// The logical tile (where the agent is, for catches and the record).
    pub tile: IVec2,
    /// The tile it last stepped from (equal to `tile` while waiting); drawing slides between them.
    pub from: IVec2,
    /// Seconds since the last step.
    pub clock: f32,
}

impl TileWalk {
    pub fn new(tile: IVec2) -> Self {
        TileWalk {
            tile,
            from: tile,
            clock: 0.0,
        }
    }

    /// Advance the step clock; true when a step is due.
    fn due(&mut self, dt: f32, rate: f32) -> bool {
        let period = 1.0 / rate.max(f32::EPSILON);
        self.clock += dt;
        if self.clock + 1e-6 >= period {
            self.clock = (self.clock - period).clamp(0.0, period);
            true
        } else {
            false
        }
    }

    /// Fraction of the current step's slide that has been drawn (0…1).
    pub fn progress(&self, rate: f32) -> f32 {
        (self.clock * rate).clamp(0.0, 1.0)
    }
}

/// What an agent does.
///
/// The wanderers' and evaders' memories (128 bytes and more) and a tile line are boxed, so that
/// every variant fits in 32 bytes and an [`Agent`] in two cache lines (see there).
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Mode 1: basic tile chase (`flip`: tile evade).
    TileChase { walk: TileWalk, flip: bool },
    /// Mode 2: walk the Bresenham line (`flip`: away along the line).
    TileLos {
        walk: TileWalk,
        line: Box<TileLine>,
        flip: bool,
    },
    /// Mode 3: seek the player's current position (`flip`: flee it).
    Los { flip: bool },
    /// Mode 4: seek the predicted meeting point (`flip`: evade by prediction); `tc`: this tick's
    /// time to close, when it predicted.
    Intercept { flip: bool, tc: Option<f32> },
    /// Mode 5: flee the predicted player inside the threat radius, wander outside it.
    Evade(Box<EvadeState>),
    /// Mode 6: Reynolds' wander (`waypoints`: the waypoint variant), kept off walls and obstacles.
    Wander {
        walk: Box<WanderWalk>,
        waypoints: bool,
    },
    /// Mode 7: wander among obstacles (`chase`: chase the player) with ray avoidance.
    Avoid { walk: Box<WanderWalk>, chase: bool },
    /// Mode 8: a Galaga ship (the stage moves it).
    Ship(Box<Ship>),
    /// Mode 9: a physics-driven pattern walker; `params` follows the pattern tuning each tick.
    Pattern {
        run: Box<PatternRun>,
        params: VehicleTuning,
    },
    /// Mode 9: a tile pattern walker.
    TilePattern { walk: TileWalk, run: Box<TileRun> },
}

/// A wanderer's memory: its wander target, its waypoint, and its avoidance state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WanderWalk {
    /// Wander target on the circle, in the agent's frame.
    pub local: Vec2,
    /// Waypoint variant: the current spot and the seconds until the next.
    pub waypoint: Option<(Vec2, f32)>,
    pub avoid: AvoidState,
    /// The deepest obstacle hit of the last ray cast, held (and brought nearer as the agent
    /// moves) until the next; the walls are felt afresh every tick.
    pub felt: Option<Feel>,
    /// Whether the rays have been cast since the agent (re)spawned.
    pub cast: bool,
    /// Whether it has stayed on one spot, and the way out it follows if so.
    pub unstick: Unstick,
    /// Mode 7's chasers: this tick's push away from the others, as added to the unit pull
    /// toward the player (zero for wanderers).
    pub apart: Vec2,
}

impl Default for WanderWalk {
    fn default() -> Self {
        WanderWalk {
            local: Vec2::X,
            waypoint: None,
            avoid: AvoidState::default(),
            felt: None,
            cast: false,
            unstick: Unstick::default(),
            apart: Vec2::ZERO,
        }
    }
}

/// What touching the player means for an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// The agent caught the player.
    Catch,
    /// The player tagged the agent.
    Tag,
    /// Nothing: the agent neither hunts nor is hunted.
    Ignore,
}

impl Behaviour {
    /// The behaviour a mode gives a new agent standing on `tile`; `None` for the data-driven
    /// modes (8 and 9), whose agents the world builds from the patterns file.
    pub fn new(mode: Mode, flip: bool, tile: IVec2) -> Option<Behaviour> {
        Some(match mode {
            Mode::TileChase => Behaviour::TileChase {
                walk: TileWalk::new(tile),
                flip,
            },
            Mode::TileLos => Behaviour::TileLos {
                walk: TileWalk::new(tile),
                line: Box::new(TileLine {
                    from: tile,
                    to: tile,
                    drawn_for: IVec2::new(i32::MIN, i32::MIN),
                    walked: 0,
                }),
                flip,
            },
            Mode::LosChase => Behaviour::Los { flip },
            Mode::Intercept => Behaviour::Intercept { flip, tc: None },
            Mode::Evade => Behaviour::Evade(Box::default()),
            Mode::Wander => Behaviour::Wander {
                walk: Box::default(),
                waypoints: flip,
            },
            Mode::Avoid => Behaviour::Avoid {
                walk: Box::default(),
                chase: flip,
            },
            Mode::Galaga | Mode::Patterns | Mode::Mixed => return None,
        })
    }

    /// The record's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Behaviour::TileChase { flip: false, .. } => "tile-chase",
            Behaviour::TileChase { flip: true, .. } => "tile-evade",
            Behaviour::TileLos { flip: false, .. } => "tile-los",
            Behaviour::TileLos { flip: true, .. } => "tile-los-away",
            Behaviour::Los { flip: false } => "los-chase",
            Behaviour::Los { flip: true } => "flee",
            Behaviour::Intercept { flip: false, .. } => "intercept",
            Behaviour::Intercept { flip: true, .. } => "evade-predict",
            Behaviour::Evade(_) => "evade",
            Behaviour::Wander {
                waypoints: false, ..
            } => "wander",
            Behaviour::Wander {
                waypoints: true, ..
            } => "wander-waypoint",
            Behaviour::Avoid { chase: false, .. } => "avoid-wander",
            Behaviour::Avoid { chase: true, .. } => "avoid-chase",
            Behaviour::Ship(s) => match s.kind {
                ShipKind::Boss => "boss",
                ShipKind::Escort => "escort",
                ShipKind::Drone => "drone",
            },
            Behaviour::Pattern { .. } => "pattern",
            Behaviour::TilePattern { .. } => "tile-pattern",
        }
    }

    /// What touching the player means: chasers catch, agents that flee get tagged, wanderers
    /// just pass by.
    pub fn contact(&self) -> Contact {
        match self {
            Behaviour::TileChase { flip, .. }
            | Behaviour::TileLos { flip, .. }
            | Behaviour::Los { flip }
            | Behaviour::Intercept { flip, .. } => {
                if *flip {
                    Contact::Tag
                } else {
                    Contact::Catch
                }
            }
            Behaviour::Evade(_) => Contact::Tag,
            Behaviour::Wander { .. }
            | Behaviour::Avoid { chase: false, .. }
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. } => Contact::Ignore,
            Behaviour::Avoid { chase: true, .. } | Behaviour::Ship(_) => Contact::Catch,
        }
    }

    /// Whether the agent hunts the player (drawn in the chasers' colour).
    pub fn chases(&self) -> bool {
        self.contact() == Contact::Catch
    }

    /// Switch to the mode's alternate form in place (`E`, `V`, `T`), keeping the agent's state.
    pub fn set_flip(&mut self, on: bool) {
        match self {
            Behaviour::TileChase { flip, .. }
            | Behaviour::TileLos { flip, .. }
            | Behaviour::Los { flip }
            | Behaviour::Intercept { flip, .. }
            | Behaviour::Wander {
                waypoints: flip, ..
            }
            | Behaviour::Avoid { chase: flip, .. } => *flip = on,
            Behaviour::Evade(_)
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. } => {}
        }
        if let Behaviour::TileLos { line, .. } = self {
            // Force a new line on the next step.
            line.drawn_for = IVec2::new(i32::MIN, i32::MIN);
        }
    }

    pub fn tile_walk(&self) -> Option<&TileWalk> {
        match self {
            Behaviour::TileChase { walk, .. }
            | Behaviour::TileLos { walk, .. }
            | Behaviour::TilePattern { walk, .. } => Some(walk),
            _ => None,
        }
    }

    /// The vehicle numbers this behaviour moves with.
    pub fn params<'a>(&'a self, tuning: &'a Tuning) -> &'a VehicleTuning {
        match self {
            Behaviour::Evade(_) => &tuning.evader,
            Behaviour::Wander { .. } | Behaviour::Avoid { .. } => &tuning.wanderer,
            Behaviour::Ship(s) => &s.params,
            Behaviour::Pattern { params, .. } => params,
            _ => &tuning.chaser,
        }
    }

    /// The mode this behaviour belongs to and whether it is in its alternate form (a respawn
    /// rebuilds the same kind, also in the free-for-all).
    pub fn base(&self) -> (Mode, bool) {
        match self {
            Behaviour::TileChase { flip, .. } => (Mode::TileChase, *flip),
            Behaviour::TileLos { flip, .. } => (Mode::TileLos, *flip),
            Behaviour::Los { flip } => (Mode::LosChase, *flip),
            Behaviour::Intercept { flip, .. } => (Mode::Intercept, *flip),
            Behaviour::Evade(_) => (Mode::Evade, false),
            Behaviour::Wander { waypoints, .. } => (Mode::Wander, *waypoints),
            Behaviour::Avoid { chase, .. } => (Mode::Avoid, *chase),
            Behaviour::Ship(_) => (Mode::Galaga, false),
            Behaviour::Pattern { .. } | Behaviour::TilePattern { .. } => (Mode::Patterns, false),
        }
    }

    /// Whether the agent is meant to keep moving (the `stuck_agents` metric applies): evaders,
    /// wanderers, agents among obstacles and pattern walkers. Chasers may rightly wait (a tile
    /// chaser behind an obstacle) and ships sit in formation.
    pub fn must_move(&self) -> bool {
        matches!(
            self,
            Behaviour::Evade(_)
                | Behaviour::Wander { .. }
                | Behaviour::Avoid { .. }
                | Behaviour::Pattern { .. }
                | Behaviour::TilePattern { .. }
        )
    }

    /// Whether the agent moves on the ground among the obstacles (Galaga ships fly over them, so
    /// obstacle clearance is not measured for them).
    pub fn grounded(&self) -> bool {
        !matches!(self, Behaviour::Ship(_))
    }

    /// Whether an agent that catches the player is sent back to a spawn point (Galaga ships fly
    /// on: a ship catches once per flight).
    pub fn respawns(&self) -> bool {
        !matches!(self, Behaviour::Ship(_))
    }

    pub fn wander_walk(&self) -> Option<&WanderWalk> {
        match self {
            Behaviour::Wander { walk, .. } | Behaviour::Avoid { walk, .. } => Some(walk),
            _ => None,
        }
    }
}

/// One agent of the crowd: 128 bytes, aligned to a cache line, so each takes exactly two lines.
/// A tick reads and writes nearly all of it, and at 20,000 agents the crowd (2.5 MB) is about a
/// processor's L2 cache: on a 2 MB-L2 Xeon, the 240-byte agent of before (4.8 MB, three or four
/// lines each) made the cheap modes a third dearer per agent at 20,000 than at 2,000.
/// `tests/bench.rs` holds the size.
#[derive(Debug, Clone)]
#[repr(align(64))]
pub struct Agent {
    pub id: u32,
    pub behaviour: Behaviour,
    pub body: Vehicle,
    pub prev_pos: Vec2,
    pub prev_heading: Vec2,
    /// Speed at the end of the previous tick.
    pub prev_speed: f32,
    /// The steering force applied this tick (for the overlay).
    pub steer: Vec2,
    /// The point the behaviour aimed at (or away from) this tick.
    pub aim: Vec2,
    /// The behaviour's word for what it is doing (the record's `state`).
    pub state: &'static str,
    /// Set on the tick the agent was respawned (its jump is not a step).
    pub respawned: bool,
    /// Simulated seconds when it (re)spawned: a catch's time-to-catch counts from here.
    pub born: f64,
}

/// When agents cast their rays (Buckland's regulator): `hz` times a second on a `tick_hz` clock,
/// agent `id` on the ticks where its count of casts, `⌊(tick + id) · hz / tick_hz⌋`, goes up.
/// Agents take turns by id, so a crowd's casts spread over the ticks, and the rate is the one
/// asked for (20 on 60: every third tick; 25: every second or third tick, 25 a second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastSchedule {
    /// Casts per tick in 32.32 fixed point, rounded up: whole-number tick intervals come out
    /// exact (a third rounded down would put every third cast a tick late), and any rate is off
    /// by less than one cast in four billion ticks.
    per_tick: u64,
}

impl CastSchedule {
    pub fn new(hz: f32, tick_hz: f32) -> Self {
        let per_tick = (f64::from(hz) / f64::from(tick_hz)).clamp(0.0, 1.0);
        CastSchedule {
            per_tick: (per_tick * 4_294_967_296.0).ceil() as u64,
        }
    }

    /// Whether agent `id` casts on `tick`: whether the count went up since the tick before, that
    /// is whether adding one tick's casts carried into the whole part — the fraction left after
    /// it is smaller than what was added (also at tick 0, counted from a whole −1).
    pub fn due(&self, tick: u64, id: u32) -> bool {
        let n = tick.wrapping_add(u64::from(id));
        n.wrapping_mul(self.per_tick) & 0xFFFF_FFFF < self.per_tick
    }
}

/// What an agent's behaviour decided in a tick, for [`Agent::act`] to carry out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// Steer the vehicle with this force (continuous agents).
    Steer(Vec2),
    /// Steer along this unit course, clear of walls and obstacles ([`Agent::clear`] makes it a
    /// force).
    Clear(Vec2),
    /// Sit on the logical tile (tile agents).
    Tile,
    /// Nothing more: the behaviour moved the agent itself (pattern walkers, ships).
    Moved,
    /// Nothing more: the agent has acted already.
    Done,
}

/// What every agent reads during a tick.
pub struct Context<'a> {
    pub arena: &'a Arena,
    pub tuning: &'a Tuning,
    pub player_pos: Vec2,
    pub player_vel: Vec2,
    pub player_tile: IVec2,
    pub dt: f32,
    /// The tick being run (agents take turns to cast their rays by it).
    pub tick: u64,
    /// When agents cast their rays (from `avoid.sense_hz`).
    pub casts: CastSchedule,
    /// The arena changed since the last tick: every agent casts its rays now.
    pub recast: bool,
    /// Where the crowd that keeps apart (mode 7's chasers) stood as the tick began.
    pub crowd: &'a Crowd,
}

impl Context<'_> {
    /// Whether agent `id` casts its rays at obstacles this tick: on its turn, when the arena has
    /// changed, and on its first tick (`cast` says whether it has cast since it (re)spawned, and
    /// is set).
    pub fn cast_now(&self, id: u32, cast: &mut bool) -> bool {
        let now = self.recast || !*cast || self.casts.due(self.tick, id);
        *cast = true;
        now
    }
}

impl Agent {
    /// A fresh agent at `pos` (tile agents: the centre of the nearest free tile), facing `face`.
    pub fn new(id: u32, mode: Mode, flip: bool, pos: Vec2, face: Vec2, arena: &Arena) -> Agent {
        let grid = &arena.tiles;
        let tile = grid.nearest_free(grid.tile_of(pos));
        // The data-driven modes build their agents with `Agent::with`; asked here, they get a
        // plain line-of-sight chaser rather than a panic.
        let behaviour = Behaviour::new(mode, flip, tile).unwrap_or(Behaviour::Los { flip });
        Agent::with(id, behaviour, pos, face, arena)
    }

    /// A fresh agent with a given behaviour at `pos` (tile agents: the centre of their tile),
    /// facing `face`.
    pub fn with(id: u32, behaviour: Behaviour, pos: Vec2, face: Vec2, arena: &Arena) -> Agent {
        let grid = &arena.tiles;
        let pos = match behaviour.tile_walk() {
            Some(walk) => grid.center(walk.tile),
            None => pos,
        };
        let body = Vehicle::new(pos, face - pos);
        Agent {
            id,
            behaviour,
            body,
            prev_pos: pos,
            prev_heading: body.heading,
            prev_speed: 0.0,
            steer: Vec2::ZERO,
            aim: face,
            state: "spawn",
            respawned: true,
            born: 0.0,
        }
    }

    /// A tile agent whose tile has become blocked moves to the nearest free one.
    pub fn unblock(&mut self, grid: &TileGrid) {
        let (Behaviour::TileChase { walk, .. }
        | Behaviour::TileLos { walk, .. }
        | Behaviour::TilePattern { walk, .. }) = &mut self.behaviour
        else {
            return;
        };
        if grid.blocked(walk.tile) {
            walk.tile = grid.nearest_free(walk.tile);
            walk.from = walk.tile;
            self.body.pos = grid.center(walk.tile);
            self.prev_pos = self.body.pos;
            self.respawned = true;
        }
    }

    /// The logical tile of a tile agent.
    pub fn tile(&self) -> Option<IVec2> {
        self.behaviour.tile_walk().map(|w| w.tile)
    }

    /// Intercept's time to close this tick, when it predicted.
    pub fn tc(&self) -> Option<f32> {
        match self.behaviour {
            Behaviour::Intercept { tc, .. } => tc,
            _ => None,
        }
    }

    pub fn radius(&self, tuning: &Tuning) -> f32 {
        self.behaviour.params(tuning).radius
    }

    /// The first part of an agent's tick — `think`, [`Agent::clear`], [`Agent::act`], in that
    /// order (the world runs each over a batch of agents at a time): the behaviour decides, and
    /// draws its random numbers. With the plan come the vehicle numbers the behaviour moves by,
    /// for the other two parts (looked up once a tick).
    #[inline(always)]
    pub fn think(&mut self, ctx: &Context, rng: &mut impl Rng) -> (Plan, VehicleTuning) {
        self.prev_pos = self.body.pos;
        self.prev_heading = self.body.heading;
        self.prev_speed = self.body.speed();
        self.respawned = false;
        self.aim = ctx.player_pos;
        let grid = &ctx.arena.tiles;
        let rate = ctx.tuning.tile.steps_per_second;
        let p = *self.behaviour.params(ctx.tuning);
        let force = match &mut self.behaviour {
            Behaviour::TileChase { walk, flip } => {
                if walk.due(ctx.dt, rate) {
                    let next = tile_chase::step(grid, walk.tile, ctx.player_tile, *flip);
                    self.state = match (next, *flip) {
                        (Some(_), false) => "chase",
                        (Some(_), true) => "evade",
                        (None, _) => "wait",
                    };
                    step_tile(walk, next);
                }
                None
            }
            Behaviour::TileLos { walk, line, flip } => {
                if walk.due(ctx.dt, rate) {
                    let (next, state) =
                        tile_los::step(grid, line, walk.tile, ctx.player_tile, *flip);
                    self.state = if next.is_none() && state != "arrived" {
                        "wait"
                    } else {
                        state
                    };
                    step_tile(walk, next);
                }
                if line.drawn_for == ctx.player_tile || *flip {
                    self.aim = grid.center(line.to);
                }
                None
            }
            Behaviour::Los { flip: false } => {
                self.state = "seek";
                Some(seek::seek(&self.body, ctx.player_pos, p.max_speed))
            }
            Behaviour::Los { flip: true } => {
                self.state = "flee";
                Some(seek::flee(&self.body, ctx.player_pos, p.max_speed))
            }
            Behaviour::Intercept { flip: false, tc } => {
                let prediction = intercept::predict(
                    self.body.pos,
                    self.body.vel,
                    ctx.player_pos,
                    ctx.player_vel,
                    ctx.tuning.intercept.max_prediction_time,
                );
                // The prey cannot run through the walls, so neither does the aim point.
                let aim = prediction.aim.clamp(Vec2::ZERO, ctx.arena.size());
                self.aim = aim;
                *tc = prediction.tc;
                self.state = prediction.state();
                Some(seek::seek(&self.body, aim, p.max_speed))
            }
            Behaviour::Intercept { flip: true, tc } => {
                *tc = None;
                let threat = intercept::threat_point(
                    self.body.pos,
                    p.max_speed,
                    ctx.player_pos,
                    ctx.player_vel,
                    ctx.tuning.intercept.max_prediction_time,
                );
                self.aim = threat;
                self.state = "evade-predict";
                Some(seek::flee(&self.body, threat, p.max_speed))
            }
            Behaviour::Evade(state) => {
                let cast = ctx.cast_now(self.id, &mut state.cast);
                let d = evade::steer(
                    ctx.arena,
                    &self.body,
                    state,
                    ctx.player_pos,
                    ctx.player_vel,
                    &p,
                    &ctx.tuning.evade,
                    ctx.dt,
                    cast,
                    ctx.recast,
                    ctx.tuning.avoid.unstick_after_s,
                    rng,
                );
                self.aim = d.aim;
                self.state = d.state;
                Some(d.force)
            }
            Behaviour::Wander { walk, waypoints } => {
                let w = &ctx.tuning.wander;
                let target = jittered_target(walk, &self.body, w, ctx.dt, rng);
                let wish = if *waypoints {
                    let (spot, left) = match walk.waypoint {
                        Some((spot, left))
                            if left > 0.0 && spot.distance(self.body.pos) > p.radius * 2.0 =>
                        {
                            (spot, left - ctx.dt)
                        }
                        _ => (
                            open_spot(ctx.arena, p.radius * 3.0, rng),
                            w.waypoint_seconds,
                        ),
                    };
                    walk.waypoint = Some((spot, left));
                    self.aim = spot;
                    self.state = "waypoint";
                    wander::waypoint_direction(
                        self.body.pos,
                        self.body.heading,
                        spot,
                        walk.local,
                        w.radius,
                        w.wobble,
                    )
                } else {
                    walk.waypoint = None;
                    self.aim = target;
                    self.state = "wander";
                    unit_or_zero(target - self.body.pos)
                };
                return (Plan::Clear(wish), p);
            }
            Behaviour::Avoid { walk, chase } => {
                let w = &ctx.tuning.wander;
                let wish = if *chase {
                    self.state = "chase";
                    let to = unit_or_zero(ctx.player_pos - self.body.pos);
                    walk.apart =
                        ctx.crowd.apart(self.id, self.body.pos) * ctx.tuning.avoid.separation;
                    unit_or(to + walk.apart, to)
                } else {
                    let target = jittered_target(walk, &self.body, w, ctx.dt, rng);
                    self.aim = target;
                    self.state = "wander";
                    unit_or_zero(target - self.body.pos)
                };
                return (Plan::Clear(wish), p);
            }
            Behaviour::Pattern { run, params } => {
                let t = &ctx.tuning.pattern;
                *params = VehicleTuning {
                    max_speed: t.max_speed,
                    max_force: t.thrust,
                    mass: 1.0,
                    radius: t.radius,
                };
                self.body.vel = run.step(t, ctx.dt);
                self.body.pos += self.body.vel * ctx.dt;
                let before = self.body.vel;
                let body = &mut self.body;
                ctx.arena.collide(
                    self.prev_pos,
                    &mut body.pos,
                    &mut body.vel,
                    t.radius,
                    Response::Bounce,
                );
                if body.vel != before {
                    run.bounced(body.vel);
                }
                run.advance(body.pos);
                body.heading = Vec2::from_angle(run.heading);
                self.state = run.state();
                self.steer = Vec2::ZERO;
                // (The numbers it moved by this tick, not the ones looked up before.)
                return (Plan::Moved, *params);
            }
            Behaviour::TilePattern { walk, run } => {
                if walk.due(ctx.dt, rate) {
                    let (next, state) = run.step(grid, walk.tile);
                    self.state = state;
                    step_tile(walk, next);
                }
                None
            }
            Behaviour::Ship(_) => return (Plan::Moved, p),
        };
        let plan = match force {
            Some(force) => Plan::Steer(force),
            None => Plan::Tile,
        };
        (plan, p)
    }

    /// For the agents that keep clear of walls and obstacles (wanderers, mode 7), the middle of
    /// a tick: the course their behaviour wishes for becomes a steering force around what their
    /// rays feel. Other plans pass through.
    #[inline(always)]
    pub fn clear(&mut self, plan: Plan, p: &VehicleTuning, ctx: &Context) -> Plan {
        let Plan::Clear(wish) = plan else {
            return plan;
        };
        Plan::Steer(match &mut self.behaviour {
            Behaviour::Wander { walk, .. } => {
                let (force, course) =
                    steer_clear(walk, wish, &self.body, self.prev_speed, self.id, p, ctx);
                if course == Course::Unsticking {
                    self.state = "unstick";
                }
                force
            }
            Behaviour::Avoid { walk, chase } => {
                let (force, course) =
                    steer_clear(walk, wish, &self.body, self.prev_speed, self.id, p, ctx);
                match course {
                    Course::Free => {}
                    Course::Avoiding if *chase => self.state = "chase-avoid",
                    Course::Avoiding => self.state = "avoid",
                    Course::Unsticking => self.state = "unstick",
                }
                force
            }
            // Only the behaviours above plan this; any other would just seek along its wish.
            _ => wish * p.max_speed - self.body.vel,
        })
    }

    /// The last part of a tick: the body carries out the plan. Agents never move one another,
    /// so a batch of them can all think, then all clear their course, then all act: each pass is
    /// short enough for the processor to work on several agents at once, where one long pass per
    /// agent waits on its chain of square roots and divisions before starting the next.
    #[inline(always)]
    pub fn act(&mut self, plan: Plan, p: &VehicleTuning, ctx: &Context) {
        // (A course not yet cleared is cleared here.)
        let plan = self.clear(plan, p, ctx);
        match plan {
            Plan::Steer(force) => {
                self.steer = self.body.move_by(force, p, ctx.dt);
                let body = &mut self.body;
                ctx.arena.collide(
                    self.prev_pos,
                    &mut body.pos,
                    &mut body.vel,
                    p.radius,
                    crate::sim::arena::Response::Slide,
                );
                body.update_heading();
            }
            Plan::Tile => {
                // Tile agents: the body sits on the logical tile centre, moving at the step rate.
                let grid = &ctx.arena.tiles;
                let rate = ctx.tuning.tile.steps_per_second;
                let walk = self
                    .behaviour
                    .tile_walk()
                    .expect("only tile behaviours plan a tile move");
                self.body.pos = grid.center(walk.tile);
                let vel = (walk.tile - walk.from).as_vec2() * grid.size * rate;
                self.steer = Vec2::ZERO;
                // The heading follows the velocity, which changes only when the agent steps: a
                // velocity the same as last tick's has its heading already.
                if vel != self.body.vel {
                    self.body.vel = vel;
                    self.body.update_heading();
                }
            }
            Plan::Clear(_) | Plan::Moved | Plan::Done => {}
        }
    }
}

/// Reynolds' wander target after this tick's jitter of the circle point.
fn jittered_target(
    walk: &mut WanderWalk,
    body: &Vehicle,
    w: &WanderTuning,
    dt: f32,
    rng: &mut impl Rng,
) -> Vec2 {
    walk.local = wander::jitter(walk.local, w.radius, w.jitter, dt, rng);
    wander::world_target(body.pos, body.heading, walk.local, w.distance)
}

/// How a wanderer's course came out of [`steer_clear`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Course {
    /// As it wished.
    Free,
    /// Bent by a felt surface.
    Avoiding,
    /// Along a way out of a pocket (see `unstick`).
    Unsticking,
}

/// Bend the wish away from near walls and around what the rays feel, and turn it into a steering
/// force at full speed (less while avoiding); also how the course came out. `speed` is the
/// body's (the think pass has measured it already).
/// Agent `id` casts its rays on its turn (`ctx.casts`), on its first tick and when the arena has
/// changed. An agent that has stayed on one spot follows a way out instead.
fn steer_clear(
    walk: &mut WanderWalk,
    wish: Vec2,
    body: &Vehicle,
    speed: f32,
    id: u32,
    p: &VehicleTuning,
    ctx: &Context,
) -> (Vec2, Course) {
    let t = &ctx.tuning.avoid;
    let look = avoid::probe(t);
    if let Some(force) = walk.unstick.update(
        ctx.arena,
        body,
        p,
        t.unstick_after_s,
        wish,
        look,
        ctx.recast,
        ctx.dt,
    ) {
        // What it felt and was going round is left behind: it casts afresh once out.
        walk.felt = None;
        walk.cast = false;
        walk.avoid.rounding = None;
        return (force, Course::Unsticking);
    }
    let margin = t.look_ahead + t.min_length;
    // (Away from the walls there is no push, and the wish is unit already: no normalising.)
    let push = wander::containment(ctx.arena, body.pos, margin);
    let wish = if push == Vec2::ZERO {
        wish
    } else {
        unit_or_zero(wish + push)
    };
    // The wish never asks for an about-face; avoidance may (braking is how it stays clear).
    let wish = wander::no_about_face(wish, body.heading);
    let speed_frac = speed / p.max_speed.max(f32::EPSILON);
    let cast = ctx.cast_now(id, &mut walk.cast);
    let clear = avoid::clear_course(
        ctx.arena,
        body.pos,
        body.heading,
        speed_frac,
        wish,
        p,
        t,
        &mut walk.avoid,
        &mut walk.felt,
        cast,
        ctx.dt,
    );
    let course = if clear.avoiding {
        Course::Avoiding
    } else {
        Course::Free
    };
    let error = clear.dir * p.max_speed * clear.speed - body.vel;
    let force = if clear.urgent {
        within_a_tick(error, p.mass, ctx.dt)
    } else {
        error
    };
    (force, course)
}

/// A random point where a body of radius `clearance` fits (the arena centre after 32 misses).
fn open_spot(arena: &Arena, clearance: f32, rng: &mut impl Rng) -> Vec2 {
    let margin = clearance.min(arena.width * 0.5).min(arena.height * 0.5);
    for _ in 0..32 {
        let p = Vec2::new(
            rng.gen_range(margin..=arena.width - margin),
            rng.gen_range(margin..=arena.height - margin),
        );
        if arena.is_clear(p, clearance) {
            return p;
        }
    }
    arena.center()
}

fn step_tile(walk: &mut TileWalk, next: Option<IVec2>) {
    walk.from = walk.tile;
    if let Some(to) = next {
        walk.tile = to;
    }
}
