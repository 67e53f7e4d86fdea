//! One best-first search over the tile grid whose frontier order makes it A*, Dijkstra or greedy
//! best-first: the priority is `g + h`, `g` or `h`. Everything else is shared, so the three differ
//! only in which tile they close next, which is what the overlay lets a reader compare.
//!
//! Costs are integers (a straight step is [`STRAIGHT`], a diagonal [`DIAGONAL`], √2 to six
//! digits) so that equal priorities are exactly equal and the tie-breaks decide, not rounding; the
//! reported cost is recounted in real tiles from the steps of the path.

use crate::sim::space::tiles::TileGrid;
use glam::IVec2;

/// A straight step's cost in search units.
pub(super) const STRAIGHT: u64 = 65_536;
/// A diagonal step's: √2 · 65,536 = 92,681.9, within 1.5e-6 of a tile per diagonal.
const DIAGONAL: u64 = 92_682;

/// The eight moves, straight ones first.
pub(super) const MOVES: [IVec2; 8] = [
    IVec2::new(1, 0),
    IVec2::new(-1, 0),
    IVec2::new(0, 1),
    IVec2::new(0, -1),
    IVec2::new(1, 1),
    IVec2::new(-1, 1),
    IVec2::new(1, -1),
    IVec2::new(-1, -1),
];

/// Which tile a search closes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Least `g + h`: optimal, and the heuristic keeps it heading for the goal.
    #[default]
    AStar,
    /// Least `g`: optimal, spreading evenly in every direction.
    Dijkstra,
    /// Least `h`: greedy, few tiles closed, paths that can be far from the shortest.
    BestFirst,
}

impl Order {
    pub const ALL: [Order; 3] = [Order::AStar, Order::Dijkstra, Order::BestFirst];

    pub fn name(self) -> &'static str {
        match self {
            Order::AStar => "astar",
            Order::Dijkstra => "dijkstra",
            Order::BestFirst => "best-first",
        }
    }

    /// The name as the HUD shows it.
    pub fn label(self) -> &'static str {
        match self {
            Order::AStar => "A*",
            Order::Dijkstra => "Dijkstra",
            Order::BestFirst => "greedy best-first",
        }
    }

    pub fn from_name(name: &str) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The next in the cycle A* → Dijkstra → best-first → A*.
    pub fn next(self) -> Order {
        match self {
            Order::AStar => Order::Dijkstra,
            Order::Dijkstra => Order::BestFirst,
            Order::BestFirst => Order::AStar,
        }
    }
}

/// Where a tile stood when the last search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileState {
    /// Never reached.
    Unseen,
    /// Reached, waiting in the frontier.
    Open,
    /// Expanded: its neighbours were looked at.
    Closed,
}

/// A tile's place in the frontier order: the least `key` first, then the least `cross` (nearest
/// the straight line from start to goal, so among equally good tiles the straight way wins), then
/// the least `h` (nearest the goal, so a search runs down one of many equal paths instead of
/// widening), then the least index (so nothing is left to chance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
struct Rank {
    key: u64,
    cross: u64,
    h: u64,
    index: u32,
}

/// A tile search with its buffers, kept between searches: a search only allocates when the grid
/// is larger than any it has searched before. Tiles are marked with the number of the search that
/// touched them, so nothing is cleared between searches either. The frontier is a binary heap of
/// tile indices that knows where each tile sits in it, so a tile reached more cheaply moves up in
/// place: the heap never holds a tile twice and never outgrows the grid.
#[derive(Debug, Clone, Default)]
pub struct Search {
    /// Best known cost from the start, valid where `seen` holds this search's number.
    g: Vec<u64>,
    /// The tile each was reached from.
    parent: Vec<u32>,
    seen: Vec<u32>,
    closed: Vec<u32>,
    stamp: u32,
    /// The frontier's order of each open tile, and where it sits in `open`.
    rank: Vec<Rank>,
    place: Vec<u32>,
    open: Vec<u32>,
    expanded: usize,
    cols: i32,
    /// The search under way: its goal (tile and index), the start-to-goal line the tie-break
    /// measures from, its order, and how it ended (`None`: still running).
    to: IVec2,
    goal: u32,
    line: IVec2,
    order: Order,
    ended: Option<bool>,
    /// A flood (see [`Search::flood`]) rather than a search for a goal.
    flooding: bool,
}

impl Search {
    pub fn new() -> Search {
        Search::default()
    }

    /// Tiles expanded (closed) by the last search.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Where `t` stood when the last search on a grid of this width ended.
    pub fn state(&self, t: IVec2) -> TileState {
        if t.x < 0 || t.y < 0 || t.x >= self.cols {
            return TileState::Unseen;
        }
        let i = (t.y * self.cols + t.x) as usize;
        if self.closed.get(i) == Some(&self.stamp) {
            TileState::Closed
        } else if self.seen.get(i) == Some(&self.stamp) {
            TileState::Open
        } else {
            TileState::Unseen
        }
    }

    /// 8-way moves costing 1 and √2; a diagonal only where both tiles beside it are free, so a
    /// path never clips the corner of a blocked tile; octile heuristic with the straightness
    /// tie-break. Writes the tiles from `from` to `to` inclusive into `out` (cleared first);
    /// returns the path's cost in tiles, or `None` when `to` is unreachable or either end is
    /// blocked or outside. The whole search at once: [`Search::start`], [`Search::advance`] and
    /// [`Search::path`] run the same one a slice at a time.
    pub fn find(
        &mut self,
        tiles: &TileGrid,
        from: IVec2,
        to: IVec2,
        order: Order,
        out: &mut Vec<IVec2>,
    ) -> Option<f32> {
        self.start(tiles, from, to, order);
        self.advance(tiles, usize::MAX);
        self.path(out)
    }

    /// Begin a search from `from` to `to` on `tiles` (which must not change until it ends).
    pub fn start(&mut self, tiles: &TileGrid, from: IVec2, to: IVec2, order: Order) {
        self.begin(tiles);
        self.to = to;
        self.line = from - to;
        self.order = order;
        self.flooding = false;
        if tiles.blocked(from) || tiles.blocked(to) {
            self.ended = Some(false);
            return;
        }
        self.ended = None;
        self.goal = self.index(to);
        let start = self.index(from) as usize;
        self.g[start] = 0;
        self.parent[start] = start as u32;
        self.seen[start] = self.stamp;
        self.rank[start] = self.rank_of(from, 0);
        self.push(start as u32);
    }

    /// Close at most `budget` more tiles of the search begun by [`Search::start`]: `Some(found)`
    /// once it has ended (found or not), `None` while it runs. A search closes the same tiles in
    /// the same order however it is sliced.
    pub fn advance(&mut self, tiles: &TileGrid, budget: usize) -> Option<bool> {
        let mut left = budget;
        while self.ended.is_none() && left > 0 {
            left -= 1;
            let Some(current) = self.pop() else {
                self.ended = Some(false);
                break;
            };
            let i = current as usize;
            self.closed[i] = self.stamp;
            self.expanded += 1;
            if current == self.goal {
                self.ended = Some(true);
                break;
            }
            let t = self.tile(current);
            let g = self.g[i];
            for m in MOVES {
                let n = t + m;
                if !passable(tiles, t, m) {
                    continue;
                }
                let j = self.index(n) as usize;
                if self.closed[j] == self.stamp {
                    continue;
                }
                let gn = g + step_cost(m);
                let reached = self.seen[j] == self.stamp;
                if reached && self.g[j] <= gn {
                    continue;
                }
                self.seen[j] = self.stamp;
                self.g[j] = gn;
                self.parent[j] = current;
                self.rank[j] = self.rank_of(n, gn);
                if reached {
                    self.rise(self.place[j] as usize);
                } else {
                    self.push(j as u32);
                }
            }
        }
        self.ended
    }

    /// The path the ended search found, written into `out` (cleared first), and its cost in
    /// tiles; `None` when it found none or has not ended.
    pub fn path(&self, out: &mut Vec<IVec2>) -> Option<f32> {
        out.clear();
        if self.ended != Some(true) {
            return None;
        }
        let mut i = self.goal;
        loop {
            out.push(self.tile(i));
            let p = self.parent[i as usize];
            if p == i {
                break;
            }
            i = p;
        }
        out.reverse();
        Some(cost(out))
    }

    fn index(&self, t: IVec2) -> u32 {
        (t.y * self.cols + t.x) as u32
    }

    fn tile(&self, i: u32) -> IVec2 {
        IVec2::new(i as i32 % self.cols, i as i32 / self.cols)
    }

    /// Tile `t`'s place in the frontier when reached at cost `g`.
    fn rank_of(&self, t: IVec2, g: u64) -> Rank {
        if self.flooding {
            // Least cost, then the least index: no goal to lean toward.
            return Rank {
                key: g,
                index: self.index(t),
                ..Rank::default()
            };
        }
        let h = octile(t, self.to);
        let d = t - self.to;
        let line = self.line;
        let cross = (i64::from(d.x) * i64::from(line.y) - i64::from(line.x) * i64::from(d.y))
            .unsigned_abs();
        let key = match self.order {
            Order::AStar => g + h,
            Order::Dijkstra => g,
            Order::BestFirst => h,
        };
        Rank {
            key,
            cross,
            h,
            index: self.index(t),
        }
    }

    /// Dijkstra from `from` to every tile it can reach (no goal, so no heuristic): afterwards
    /// [`Search::reached`] gives each tile's cost from `from`, which, the moves being the same both
    /// ways, is its cost to `from` as well. Returns false when `from` is blocked or outside.
    pub fn flood(&mut self, tiles: &TileGrid, from: IVec2) -> bool {
        let started = self.start_flood(tiles, from);
        self.advance(tiles, usize::MAX);
        started
    }

    /// Begin the flood of [`Search::flood`], to run with [`Search::advance`] (which ends it with
    /// `Some(false)`: it has no goal to find). False, and ended, when `from` is blocked or outside.
    pub fn start_flood(&mut self, tiles: &TileGrid, from: IVec2) -> bool {
        self.begin(tiles);
        self.flooding = true;
        if tiles.blocked(from) {
            return false;
        }
        self.ended = None;
        self.goal = u32::MAX;
        let start = self.index(from) as usize;
        self.g[start] = 0;
        self.parent[start] = start as u32;
        self.seen[start] = self.stamp;
        self.rank[start] = self.rank_of(from, 0);
        self.push(start as u32);
        true
    }

    /// The tile index tile `i` was reached from by the last search or flood, if it was reached
    /// (the start is its own).
    pub(super) fn parent(&self, i: usize) -> Option<u32> {
        (self.seen.get(i) == Some(&self.stamp)).then(|| self.parent[i])
    }

    /// The cost (search units) the last search or flood reached tile index `i` at, if it did.
    pub(super) fn reached(&self, i: usize) -> Option<u64> {
        (self.seen.get(i) == Some(&self.stamp)).then(|| self.g[i])
    }

    /// Make room for `tiles` and start a new search number.
    fn begin(&mut self, tiles: &TileGrid) {
        let n = (tiles.cols * tiles.rows) as usize;
        if self.g.len() < n {
            self.g.resize(n, 0);
            self.parent.resize(n, 0);
            self.seen.resize(n, 0);
            self.closed.resize(n, 0);
            self.rank.resize(n, Rank::default());
            self.place.resize(n, 0);
            self.open.reserve(n - self.open.len());
        }
        if self.cols != tiles.cols {
            // A grid of another shape: old marks would land on other tiles.
            self.seen.fill(0);
            self.closed.fill(0);
            self.stamp = 0;
            self.cols = tiles.cols;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.closed.fill(0);
            self.stamp = 1;
        }
        self.open.clear();
        self.expanded = 0;
        self.ended = Some(false);
    }

    fn push(&mut self, i: u32) {
        self.open.push(i);
        self.rise(self.open.len() - 1);
    }

    /// Take the frontier's first tile.
    fn pop(&mut self) -> Option<u32> {
        let last = self.open.pop()?;
        if self.open.is_empty() {
            return Some(last);
        }
        let first = self.open[0];
        self.open[0] = last;
        self.place[last as usize] = 0;
        self.sink(0);
        Some(first)
    }

    /// Move the tile at heap position `at` up while it ranks before its parent.
    fn rise(&mut self, mut at: usize) {
        let i = self.open[at];
        let r = self.rank[i as usize];
        while at > 0 {
            let up = (at - 1) / 2;
            let p = self.open[up];
            if self.rank[p as usize] <= r {
                break;
            }
            self.open[at] = p;
            self.place[p as usize] = at as u32;
            at = up;
        }
        self.open[at] = i;
        self.place[i as usize] = at as u32;
    }

    /// Move the tile at heap position `at` down while a child ranks before it.
    fn sink(&mut self, mut at: usize) {
        let i = self.open[at];
        let r = self.rank[i as usize];
        let n = self.open.len();
        loop {
            let mut child = 2 * at + 1;
            if child >= n {
                break;
            }
            if child + 1 < n
                && self.rank[self.open[child + 1] as usize] < self.rank[self.open[child] as usize]
            {
                child += 1;
            }
            let c = self.open[child];
            if self.rank[c as usize] >= r {
                break;
            }
            self.open[at] = c;
            self.place[c as usize] = at as u32;
            at = child;
        }
        self.open[at] = i;
        self.place[i as usize] = at as u32;
    }
}

/// Whether the move `m` from `t` is allowed: the tile it lands on is free and, for a diagonal,
/// so are both tiles beside it (stricter than [`TileGrid::can_step`], which only forbids
/// squeezing between two blocked tiles: a body following the path would clip a single corner).
pub(super) fn passable(tiles: &TileGrid, t: IVec2, m: IVec2) -> bool {
    if tiles.blocked(t + m) {
        return false;
    }
    m.x == 0
        || m.y == 0
        || !(tiles.blocked(IVec2::new(t.x + m.x, t.y)) || tiles.blocked(IVec2::new(t.x, t.y + m.y)))
}

/// A move's cost in search units.
pub(super) fn step_cost(m: IVec2) -> u64 {
    if m.x != 0 && m.y != 0 {
        DIAGONAL
    } else {
        STRAIGHT
    }
}

/// The octile distance in search units: diagonals while both axes differ, then straight.
fn octile(a: IVec2, b: IVec2) -> u64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y) as u64, d.x.max(d.y) as u64);
    lo * DIAGONAL + (hi - lo) * STRAIGHT
}

/// A path's length in tiles: 1 per straight step, √2 per diagonal.
pub fn cost(path: &[IVec2]) -> f32 {
    let (mut straight, mut diagonal) = (0u32, 0u32);
    for w in path.windows(2) {
        let d = w[1] - w[0];
        if d.x != 0 && d.y != 0 {
            diagonal += 1;
        } else {
            straight += 1;
        }
    }
    (f64::from(straight) + f64::from(diagonal) * std::f64::consts::SQRT_2) as f32
}
