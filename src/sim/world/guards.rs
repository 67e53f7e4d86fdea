//! The `fsm` mode's part of the world: guards placed on their routes, the pass that runs their
//! machines before the agents move (the power-up and the pickups, each guard's look, the facts,
//! the transition and what entering a state plans), and catches and tags, which send a guard
//! home. Every change goes through a `World` method.

use super::{CATCH_FLASH, CATCH_LOG, CatchRecord, World};
use crate::data::fsm::GuardBehaviour;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::guard::{EvadeState, Guard};
use crate::sim::fsm::{FsmRun, GuardMind, Hearing, LookSchedule, Machine, Power, Route, Vision};
use crate::sim::path::{self, Order, Search, smooth};
use crate::sim::space::arena::Arena;
use glam::{IVec2, Vec2};

impl World {
    /// The machine of the data's `fsm` file, compiled (a machine that fails to compile, which
    /// validated data cannot give, runs the built-in one), its route points moved to where a
    /// guard fits in `arena`: inside the walls and clear of obstacles, so one machine file
    /// runs in any arena.
    pub(super) fn compile_machine(
        data: &crate::data::fsm::FsmData,
        arena: &Arena,
        radius: f32,
    ) -> Machine {
        let mut machine = Machine::compile(data).unwrap_or_else(|_| {
            Machine::compile(&crate::data::fsm::built_in()).expect("the built-in machine compiles")
        });
        machine.fit_routes(|p| arena.nearest_clear(p, radius));
        machine
    }

    /// `fsm`: `count` guards, guard `i` on route `i mod routes`; the first guard of each route
    /// starts on its first point, later ones on the following points (scattered a little, so no
    /// two stand on one spot). The machine's counts, the power-up and the pickups start afresh.
    pub(super) fn spawn_guards(&mut self, count: usize) {
        self.fsm = FsmRun::new(self.fsm.machine.clone(), &self.arena.pickups);
        let routes = self.fsm.machine.routes().len().max(1);
        for i in 0..count {
            let route = self.fsm.machine.route(i);
            let points = route.points();
            let lap = i / routes;
            let base = points
                .get(lap % points.len().max(1))
                .copied()
                .unwrap_or(self.arena.player_start);
            let pos = if lap == 0 { base } else { self.scattered(base) };
            let agent = self.new_guard(i as u32, pos);
            self.agents.push(agent);
        }
    }

    /// Guard `id` at `pos` (moved clear of obstacles), in the machine's initial state, walking
    /// its route on from the nearest point; home is its route's first point.
    pub(super) fn new_guard(&self, id: u32, pos: Vec2) -> Agent {
        let machine = &self.fsm.machine;
        let r = self.tuning.chaser.radius;
        let pos = self.arena.nearest_clear(pos, r);
        let mut mind = GuardMind::new(machine, id as usize);
        let route = machine.route(mind.route);
        let spot = route.nearest(pos);
        if spot.distance > 0.0 || route.points().len() < 2 {
            mind.cursor.resume(route, spot);
        } else {
            // On the first point: on to the next.
            mind.cursor.advance(route);
        }
        let home = self.arena.nearest_clear(first_point(route, pos), r);
        let guard = Guard::new(mind, machine.behaviour(mind.state), home);
        let face = mind.cursor.target_point(route);
        let face = if face.distance_squared(pos) > 1.0 {
            face
        } else {
            pos + Vec2::X
        };
        let mut agent = Agent::with(
            id,
            Behaviour::Guard(Box::new(guard)),
            pos,
            face,
            &self.arena,
        );
        agent.born = self.time();
        agent
    }

    /// The guards' pass of a tick, after the player has moved and before any agent does: the
    /// power-up's clock and the pickups, then each guard in index order looks (on its turn),
    /// gathers its facts and steps its machine; a state entered plans what it needs.
    pub(super) fn guards_decide(&mut self) {
        let t = self.tuning.fsm;
        match self
            .fsm
            .update_power(self.player.pos, &t, self.config.tick_hz)
        {
            Power::Took(k) => self.events.push(format!("pickup:{k}")),
            Power::Ended => self.events.push("power-end".to_string()),
            Power::Same => {}
        }
        let powered = self.fsm.powered();
        let vision = Vision::from_tuning(&t);
        let hearing = Hearing::from_tuning(&t);
        let schedule = LookSchedule::new(t.perception_hz, self.config.tick_hz);
        let (player, player_vel) = (self.player.pos, self.player.vel);
        let radius = self.tuning.chaser.radius;
        let (dt, tick) = (self.dt, self.tick);
        let fsm = &mut self.fsm;
        fsm.in_state.fill(0);
        for a in &mut self.agents {
            let Behaviour::Guard(g) = &mut a.behaviour else {
                continue;
            };
            let pos = a.body.pos;
            let machine = &fsm.machine;
            g.fired = None;
            g.mind.advance(dt);
            if schedule.due(tick, a.id) {
                let found = vision.sees(&self.arena, pos, a.body.heading, player)
                    || hearing.hears(pos, player, player_vel);
                g.mind.perceive(found, player);
            }
            let route = machine.route(g.mind.route);
            let on_route = route.distance_to(pos) <= t.route_reach;
            let facts = g.mind.conditions(machine, &t, powered, on_route);
            g.facts = facts;
            if let Some(f) = g.mind.think(machine, &facts, pos) {
                g.fired = Some(f.index);
                g.doing = machine.behaviour(f.to);
                self.events
                    .push(format!("state:{}:{}", a.id, machine.label(f.index)));
                let planner = (&mut fsm.search, &mut fsm.tiles);
                enter(g, route, pos, &self.arena, radius, planner);
                fsm.fired(&f, tick);
            }
            fsm.tally.ticked(g.mind.state);
            if let Some(n) = fsm.in_state.get_mut(g.mind.state.index()) {
                *n += 1;
            }
            if g.doing == GuardBehaviour::Patrol {
                let target = g.mind.patrol_target(&fsm.machine, pos, t.route_reach);
                g.goal = target.clamp(Vec2::ZERO, self.arena.size());
            }
        }
    }

    /// The guards' contacts, after every agent has moved: a powered player within
    /// `fsm.tag_radius` tags a guard; an unpowered player that a guard's body touches is caught
    /// and starts again from the arena's start. Either sends the guard home. A touch counts as
    /// it begins (see `Guard::touching`).
    pub(super) fn guards_contact(&mut self) {
        let powered = self.fsm.powered();
        let reach = if powered {
            self.tuning.fsm.tag_radius
        } else {
            self.tuning.player.radius + self.tuning.chaser.radius
        };
        let now = self.time();
        for i in 0..self.agents.len() {
            let a = &mut self.agents[i];
            let touches = a.body.pos.distance_squared(self.player.pos) <= reach * reach;
            let Behaviour::Guard(g) = &mut a.behaviour else {
                continue;
            };
            let began = touches && !g.touching;
            g.touching = touches;
            if !began {
                continue;
            }
            if powered {
                self.score.tags += 1;
                self.events.push(format!("tag:{}", a.id));
                self.send_home(i);
            } else {
                self.score_catch(i, now);
                self.send_home(i);
                self.player_to_start();
            }
        }
    }

    /// A catch by agent `i` at run time `now`: the score, the chart's log, the player's flash and
    /// the record's `catch:ID`.
    pub(super) fn score_catch(&mut self, i: usize, now: f64) {
        let a = &self.agents[i];
        let id = a.id;
        let kind = a.behaviour.kind_of();
        *self.score.by_kind.entry(kind.word()).or_insert(0) += 1;
        self.score.log.push_back(CatchRecord {
            kind,
            at: now,
            time_to_catch: now - a.born,
        });
        if self.score.log.len() > CATCH_LOG {
            self.score.log.pop_front();
        }
        self.score.catches += 1;
        self.score.first_catch_t.get_or_insert(now);
        self.score.last_catch_t = now;
        self.player.flash = CATCH_FLASH;
        self.events.push(format!("catch:{id}"));
    }

    /// Send guard `i` home: to its route's first point, at rest, forgetting that it sees the
    /// player. Its state stays (the machine alone changes states), and what the state heads for
    /// is planned again from home.
    pub fn send_home(&mut self, i: usize) {
        let radius = self.tuning.chaser.radius;
        let Some(a) = self.agents.get_mut(i) else {
            return;
        };
        let Behaviour::Guard(g) = &mut a.behaviour else {
            return;
        };
        let home = g.home;
        a.body.pos = home;
        a.body.vel = Vec2::ZERO;
        a.prev_pos = home;
        a.respawned = true;
        a.born = self.tick as f64 / f64::from(self.config.tick_hz);
        g.mind.sees_player = false;
        let route = self.fsm.machine.route(g.mind.route);
        if g.doing == GuardBehaviour::Patrol {
            g.mind.cursor.resume(route, route.nearest(home));
        }
        let planner = (&mut self.fsm.search, &mut self.fsm.tiles);
        enter(g, route, home, &self.arena, radius, planner);
    }

    /// A caught player starts again from the arena's start, at rest.
    fn player_to_start(&mut self) {
        let start = self.arena.player_start;
        self.player.pos = start;
        self.player.prev_pos = start;
        self.player.vel = Vec2::ZERO;
    }

    /// Seconds of power-up the player has left.
    pub fn power_left(&self) -> f32 {
        self.fsm.power_seconds_left(self.dt)
    }
}

/// What entering (or restarting) the guard's state at `pos` sets up: a search heads for the last
/// seen spot and a return for the nearest point of the route, each along a planned path; a flee
/// starts with a fresh evader's memory.
fn enter(
    g: &mut Guard,
    route: &Route,
    pos: Vec2,
    arena: &Arena,
    radius: f32,
    planner: (&mut Search, &mut Vec<IVec2>),
) {
    g.path.clear();
    g.next = 0;
    match g.doing {
        GuardBehaviour::Search => {
            g.goal = g
                .mind
                .last_seen
                .unwrap_or(pos)
                .clamp(Vec2::ZERO, arena.size());
            plan(g, pos, arena, radius, planner);
        }
        GuardBehaviour::Return => {
            g.goal = route.nearest(pos).point.clamp(Vec2::ZERO, arena.size());
            plan(g, pos, arena, radius, planner);
        }
        GuardBehaviour::Flee => g.evade = EvadeState::default(),
        GuardBehaviour::Patrol | GuardBehaviour::Chase => {}
    }
}

/// The way from `pos` to the guard's goal: A* between their tiles (the nearest free ones),
/// smoothed for a body of `radius`, walked from `pos` itself when the first corner is in clear
/// reach, and ending on the goal itself when it is in clear reach of the last corner. With no way
/// found, the goal alone (the guard slides along what is in the way).
fn plan(
    g: &mut Guard,
    pos: Vec2,
    arena: &Arena,
    radius: f32,
    (search, tiles): (&mut Search, &mut Vec<IVec2>),
) {
    g.path.clear();
    g.next = 0;
    let grid = &arena.tiles;
    let from = grid.nearest_free(grid.tile_of(pos));
    let to = grid.nearest_free(grid.tile_of(g.goal));
    if search.find(grid, from, to, Order::AStar, tiles).is_some() {
        smooth(arena, tiles, radius, &mut g.path);
    }
    if g.path.len() > 1 && path::clear(arena, pos, g.path[1], radius) {
        g.next = 1;
    }
    let ends_at_goal = g.path.last().is_some_and(|&last| {
        last.distance(g.goal) < 1.0 || !path::clear(arena, last, g.goal, radius)
    });
    if !ends_at_goal {
        g.path.push(g.goal);
    }
}

/// The route's first point (a route with none: `fallback`).
fn first_point(route: &Route, fallback: Vec2) -> Vec2 {
    route.points().first().copied().unwrap_or(fallback)
}
