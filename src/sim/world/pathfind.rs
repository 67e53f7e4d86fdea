//! `pathfind`'s planning, done by the world before its chasers think: one search shared by every
//! chaser (it reuses its buffers, so planning allocates nothing), the flow field from the
//! player's tile, and the figures the summary reports. And the commands that change how the
//! chasers plan, each a world method so that a recording of commands replays them.

use super::World;
use crate::sim::agent::Behaviour;
use crate::sim::command::Command;
use crate::sim::mode::Mode;
use crate::sim::path::{self, FlowField, Order, Search};
use glam::IVec2;

/// More chasers than this share the flow field instead of searching one path each.
pub const CROWD: usize = 64;

/// Most tiles the chasers' searches close in one tick. A search that needs more goes on over the
/// next ticks, its chaser keeping its old course meanwhile, so no arena a file allows (up to
/// 4,096 × 4,096 tiles) makes one tick search for long. On a grid of at most [`SMALL_GRID`] tiles
/// the budget is instead enough for every chaser to plan twice (see [`search_budget`]).
pub const SEARCH_BUDGET: usize = 50_000;

/// Grids of at most this many tiles are never searched in slices: the default arena and the maze
/// have 960.
pub const SMALL_GRID: usize = 1_024;

/// The tiles a tick's searches may close on a grid of `tiles` tiles: [`SEARCH_BUDGET`], or on a
/// small grid two searches (a plan and, with a search other than A*, the shortest beside it) for
/// each of the most chasers that plan one by one — so there every plan ends in the tick it began
/// (and a crowd's field, a flood and a pass over the tiles, too).
pub fn search_budget(tiles: usize) -> usize {
    if tiles <= SMALL_GRID {
        2 * CROWD * tiles
    } else {
        SEARCH_BUDGET
    }
}

/// A plan under way: the chaser (by id), the tiles it plans between, and — once its own search
/// has ended and the plan is the chaser's — the plan's cost while an A* search measures it
/// against the shortest.
#[derive(Debug, Clone, Copy)]
struct Job {
    id: u32,
    /// The chaser's place in the crowd.
    at: usize,
    from: IVec2,
    goal: IVec2,
    measuring: Option<f32>,
}

/// The planner's tools and tallies.
#[derive(Debug, Clone, Default)]
pub struct Pathing {
    /// Which search the chasers plan with.
    pub order: Order,
    search: Search,
    /// The Dijkstra map from the player's tile, which a crowd steers by.
    pub field: FlowField,
    /// The raw tile path of the plan being made, and the shortest path between the same tiles
    /// (to measure a plan made by another search against).
    tiles: Vec<IVec2>,
    shortest: Vec<IVec2>,
    /// The arena changed: every plan and the field are made again.
    dirty: bool,
    /// The search changed: every plan is made again.
    replan: bool,
    /// Paths searched, and the tiles they closed.
    pub searches: u64,
    pub expanded: u64,
    /// The largest planned path's cost over the least between the same tiles.
    pub cost_ratio_max: Option<f64>,
    /// How many times the crowd's field was built.
    pub field_builds: u64,
    /// The longest any chaser that has since respawned stood still (s); see
    /// [`World::max_wait`].
    pub max_wait: f32,
    /// The plan being made, when a search did not end within a tick's budget, and the place in
    /// the crowd the next tick's pass over the chasers starts from.
    job: Option<Job>,
    resume: usize,
    /// The most tiles the searches closed in one tick (a crowd's field: the tiles its flood
    /// closed and its pass wrote).
    pub most_closed: usize,
}

impl Pathing {
    pub fn new(order: Order) -> Pathing {
        Pathing {
            order,
            ..Pathing::default()
        }
    }

    /// Zero the tallies (a new run: reset, mode, reload).
    pub fn restart(&mut self) {
        *self = Pathing {
            order: self.order,
            search: std::mem::take(&mut self.search),
            field: std::mem::take(&mut self.field),
            tiles: std::mem::take(&mut self.tiles),
            shortest: std::mem::take(&mut self.shortest),
            ..Pathing::default()
        };
        self.dirty = true;
    }

    /// A plan of `cost` against the least between the same tiles: the worst ratio so far.
    fn note_ratio(&mut self, cost: f32, least: f32) {
        let ratio = if least > 0.0 {
            f64::from(cost) / f64::from(least)
        } else {
            1.0
        };
        self.cost_ratio_max = Some(self.cost_ratio_max.map_or(ratio, |m| m.max(ratio)));
    }

    /// The arena changed (an obstacle added or removed): the field and every plan are made
    /// again on the next tick.
    pub fn changed(&mut self) {
        self.dirty = true;
    }
}

impl World {
    /// Whether the chasers of `pathfind` move as a crowd on the flow field.
    pub fn flows(&self) -> bool {
        self.mode == Mode::Pathfind && self.agents.len() > CROWD
    }

    /// The tile the chasers make for: the player's, or the free tile nearest it when the player
    /// stands on one an obstacle overlaps.
    pub fn path_goal(&self) -> IVec2 {
        let tiles = &self.arena.tiles;
        tiles.nearest_free(tiles.tile_of(self.player.pos))
    }

    /// The search the chasers plan with.
    pub fn order(&self) -> Order {
        self.paths.order
    }

    /// Choose the search the chasers plan with (`V`, `--algorithm`): every chaser plans again
    /// on the next tick.
    pub fn set_order(&mut self, order: Order) {
        if order == self.paths.order {
            return;
        }
        self.paths.order = order;
        self.paths.replan = true;
        self.events.push(format!("algorithm:{}", order.name()));
    }

    /// The current mode's alternate key: flip between its two forms, or in `pathfind` step to
    /// the next search (A*, Dijkstra, best-first, round again).
    pub fn alternate(&mut self) {
        if let Some(command) = self.alternate_command() {
            self.apply(command);
        }
    }

    /// What the alternate key asks for in the current mode, as a command (none in a mode
    /// without another form).
    pub fn alternate_command(&self) -> Option<Command> {
        if self.mode.cycles() {
            Some(Command::Search(self.paths.order.next()))
        } else if self.mode.has_flip() {
            Some(Command::Flip(!self.flip))
        } else {
            None
        }
    }

    /// `pathfind`'s summary figures: the search, how many paths it planned and the tiles each
    /// closed on average, the worst planned path against the shortest (A* and Dijkstra: 1), the
    /// longest a chaser stood still, and how often the flow field was built.
    pub(super) fn path_extra(&self, m: &mut serde_json::Map<String, serde_json::Value>) {
        use serde_json::json;
        let p = &self.paths;
        let round = |v: f64, places: i32| {
            let k = 10f64.powi(places);
            (v * k).round() / k
        };
        m.insert("algorithm".into(), json!(p.order.name()));
        m.insert("searches".into(), json!(p.searches));
        m.insert(
            "expansions_mean".into(),
            json!((p.searches > 0).then(|| round(p.expanded as f64 / p.searches as f64, 3))),
        );
        m.insert(
            "path_cost_ratio_max".into(),
            json!(p.cost_ratio_max.map(|r| round(r, 4))),
        );
        m.insert(
            "max_wait_s".into(),
            json!(round(f64::from(self.max_wait()), 3)),
        );
        m.insert("field_builds".into(), json!(p.field_builds));
    }

    /// The longest any chaser has stood still while the player was free (s): the chasers there
    /// are now, and those that caught the player since.
    pub fn max_wait(&self) -> f32 {
        self.agents
            .iter()
            .filter_map(|a| {
                let Behaviour::Path(chase) = &a.behaviour else {
                    return None;
                };
                Some(chase.longest)
            })
            .fold(self.paths.max_wait, f32::max)
    }

    /// Before the chasers think: in a crowd, rebuild the field when the player's tile or the
    /// arena changed; else plan for every chaser that needs it.
    pub(super) fn plan_paths(&mut self) {
        let goal = self.path_goal();
        let paths = &mut self.paths;
        let tiles = &self.arena.tiles;
        let allowed = search_budget((tiles.cols * tiles.rows) as usize);
        if self.agents.len() > CROWD {
            // The crowd flows: nobody plans. The field is built within the same budget as the
            // plans (a flood and a pass over the tiles: on a small grid, within the tick), the
            // crowd flowing on the last one meanwhile.
            if paths.dirty {
                paths.field.abandon();
            }
            if !paths.field.building() && (paths.dirty || paths.field.goal() != Some(goal)) {
                paths.field.begin(tiles, goal);
            }
            let (used, built) = paths.field.advance(tiles, allowed);
            paths.field_builds += u64::from(built);
            paths.most_closed = paths.most_closed.max(used);
            paths.dirty = false;
            paths.replan = false;
            return;
        }
        if std::mem::take(&mut paths.dirty) | std::mem::take(&mut paths.replan) {
            // Every plan is made again, and the one under way was for another arena or search.
            paths.job = None;
            paths.resume = 0;
            for a in &mut self.agents {
                if let Behaviour::Path(chase) = &mut a.behaviour {
                    chase.stale = true;
                }
            }
        }
        let radius = self.tuning.chaser.radius;
        let mut budget = allowed;
        // One pass over the chasers a tick, in their order, from where the last tick's budget ran
        // out (a plan under way counts as its chaser's turn), so none waits on another's plans.
        let count = self.agents.len();
        let mut visited = usize::from(paths.job.is_some());
        loop {
            let job = match paths.job {
                Some(job) => job,
                None => {
                    if visited >= count {
                        paths.resume = 0;
                        break;
                    }
                    let at = (paths.resume + visited) % count;
                    let a = &self.agents[at];
                    match &a.behaviour {
                        Behaviour::Path(chase) if chase.needs_plan(goal) => {}
                        _ => {
                            visited += 1;
                            continue;
                        }
                    }
                    if budget == 0 {
                        paths.resume = at;
                        break;
                    }
                    visited += 1;
                    let from = tiles.nearest_free(tiles.tile_of(a.body.pos));
                    paths.search.start(tiles, from, goal, paths.order);
                    let job = Job {
                        id: a.id,
                        at,
                        from,
                        goal,
                        measuring: None,
                    };
                    paths.job = Some(job);
                    job
                }
            };
            let before = paths.search.expanded();
            let ended = paths.search.advance(tiles, budget);
            budget -= paths.search.expanded() - before;
            let Some(found) = ended else {
                paths.resume = job.at;
                break;
            };
            paths.job = None;
            if let Some(cost) = job.measuring {
                // The A* search beside a plan made by another: the shortest way between its ends.
                if let Some(least) = found
                    .then(|| paths.search.path(&mut paths.shortest))
                    .flatten()
                {
                    paths.note_ratio(cost, least);
                }
                continue;
            }
            paths.searches += 1;
            paths.expanded += paths.search.expanded() as u64;
            let Some(a) = self.agents.iter_mut().find(|a| a.id == job.id) else {
                continue;
            };
            let Behaviour::Path(chase) = &mut a.behaviour else {
                continue;
            };
            let cost = paths.search.path(&mut paths.tiles);
            chase.corners.clear();
            chase.next = 0;
            if let Some(cost) = cost {
                path::smooth(&self.arena, &paths.tiles, radius, &mut chase.corners);
                // From where the body stands, straight to the second corner when it can.
                if chase.corners.len() > 1
                    && path::clear(&self.arena, a.body.pos, chase.corners[1], radius)
                {
                    chase.next = 1;
                }
                // Measured against A*'s path, the shortest (`tests/path_core.rs` holds it to a
                // plain Dijkstra); an A* plan is that path.
                if paths.order == Order::AStar {
                    paths.note_ratio(cost, cost);
                } else {
                    paths.search.start(tiles, job.from, job.goal, Order::AStar);
                    paths.job = Some(Job {
                        measuring: Some(cost),
                        ..job
                    });
                }
            }
            chase.planned(job.from, job.goal);
        }
        paths.most_closed = paths.most_closed.max(allowed - budget);
    }

    /// Size the planner's buffers and the chasers' corner lists to the grid, so that no tick
    /// grows them (called wherever agents or the arena change outside a tick).
    pub(super) fn ready_paths(&mut self) {
        if self.mode != Mode::Pathfind {
            return;
        }
        let goal = self.path_goal();
        let tiles = &self.arena.tiles;
        let n = (tiles.cols * tiles.rows) as usize;
        let paths = &mut self.paths;
        paths.tiles.reserve(n);
        paths.shortest.reserve(n);
        paths.field.build(tiles, goal);
        // (A search from a tile to itself sizes the buffers to the grid.)
        paths.search.find(
            tiles,
            IVec2::ZERO,
            IVec2::ZERO,
            Order::AStar,
            &mut paths.tiles,
        );
        paths.dirty = true;
        if self.agents.len() <= CROWD {
            for a in &mut self.agents {
                if let Behaviour::Path(chase) = &mut a.behaviour {
                    chase.corners.reserve(n);
                }
            }
        }
    }
}
