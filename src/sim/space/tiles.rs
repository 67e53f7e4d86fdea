//! The tile grid: coordinates, blocked tiles, and Bresenham's line (Bourg & Seemann ch. 2's
//! line-of-sight chase on tiles walks it one tile per step).

use super::shape::Obstacle;
use glam::{IVec2, Vec2};

/// Which tiles an obstacle overlaps, for the tile modes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TileGrid {
    pub size: f32,
    pub cols: i32,
    pub rows: i32,
    blocked: Vec<bool>,
}

impl TileGrid {
    pub fn new(width: f32, height: f32, size: f32, obstacles: &[Obstacle]) -> TileGrid {
        let cols = ((width / size).floor() as i32).max(1);
        let rows = ((height / size).floor() as i32).max(1);
        let mut grid = TileGrid {
            size,
            cols,
            rows,
            blocked: vec![false; (cols * rows) as usize],
        };
        for o in obstacles {
            grid.mark(o, grid.all());
        }
        grid
    }

    /// Every tile.
    fn all(&self) -> (IVec2, IVec2) {
        (IVec2::ZERO, IVec2::new(self.cols - 1, self.rows - 1))
    }

    /// The tiles `o` may overlap: its bounds' tiles, clamped to the grid.
    fn span(&self, o: &Obstacle) -> (IVec2, IVec2) {
        let (min, max) = o.bounds();
        (self.clamp(self.tile_of(min)), self.clamp(self.tile_of(max)))
    }

    /// Block the tiles of `within` (inclusive corners) that `o` overlaps.
    fn mark(&mut self, o: &Obstacle, (lo, hi): (IVec2, IVec2)) {
        let (a, b) = self.span(o);
        let (lo, hi) = (a.max(lo), b.min(hi));
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let t = IVec2::new(x, y);
                if overlaps(o, self.rect(t)) {
                    self.blocked[(y * self.cols + x) as usize] = true;
                }
            }
        }
    }

    /// An obstacle was added: block the tiles it overlaps.
    pub fn add(&mut self, o: &Obstacle) {
        self.mark(o, self.all());
    }

    /// `gone` was removed (`obstacles` is what remains): its tiles are free again unless another
    /// obstacle overlaps them. The grid equals one built afresh.
    pub fn remove(&mut self, obstacles: &[Obstacle], gone: &Obstacle) {
        let (lo, hi) = self.span(gone);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                self.blocked[(y * self.cols + x) as usize] = false;
            }
        }
        // A shape whose bounds miss the tiles' box marks none of them.
        let (low, high) = (lo.as_vec2() * self.size, (hi + 1).as_vec2() * self.size);
        for o in obstacles {
            let (min, max) = o.bounds();
            if max.cmpge(low).all() && min.cmple(high).all() {
                self.mark(o, (lo, hi));
            }
        }
    }

    /// The tile containing a point (may lie outside the grid).
    pub fn tile_of(&self, p: Vec2) -> IVec2 {
        IVec2::new(
            (p.x / self.size).floor() as i32,
            (p.y / self.size).floor() as i32,
        )
    }

    pub fn center(&self, t: IVec2) -> Vec2 {
        (t.as_vec2() + 0.5) * self.size
    }

    fn rect(&self, t: IVec2) -> (Vec2, Vec2) {
        let min = t.as_vec2() * self.size;
        (min, min + self.size)
    }

    pub fn clamp(&self, t: IVec2) -> IVec2 {
        t.clamp(IVec2::ZERO, IVec2::new(self.cols - 1, self.rows - 1))
    }

    pub fn inside(&self, t: IVec2) -> bool {
        t.x >= 0 && t.y >= 0 && t.x < self.cols && t.y < self.rows
    }

    /// Outside the grid counts as blocked.
    pub fn blocked(&self, t: IVec2) -> bool {
        !self.inside(t) || self.blocked[(t.y * self.cols + t.x) as usize]
    }

    /// Whether a step from `from` to the neighbouring `to` is allowed: the tile is free, and a
    /// diagonal does not squeeze between two blocked tiles.
    pub fn can_step(&self, from: IVec2, to: IVec2) -> bool {
        if self.blocked(to) {
            return false;
        }
        let d = to - from;
        if d.x != 0 && d.y != 0 {
            let side_a = IVec2::new(from.x + d.x, from.y);
            let side_b = IVec2::new(from.x, from.y + d.y);
            return !(self.blocked(side_a) && self.blocked(side_b));
        }
        true
    }

    /// The free tile nearest to `t` (searching outward ring by ring), or `t` clamped if the whole
    /// grid is blocked.
    pub fn nearest_free(&self, t: IVec2) -> IVec2 {
        let t = self.clamp(t);
        if !self.blocked(t) {
            return t;
        }
        let reach = self.cols.max(self.rows);
        for r in 1..=reach {
            let mut best: Option<(i32, IVec2)> = None;
            for y in (t.y - r)..=(t.y + r) {
                for x in (t.x - r)..=(t.x + r) {
                    if (x - t.x).abs() != r && (y - t.y).abs() != r {
                        continue;
                    }
                    let c = IVec2::new(x, y);
                    if !self.blocked(c) {
                        let d = (c - t).length_squared();
                        if best.is_none_or(|(bd, _)| d < bd) {
                            best = Some((d, c));
                        }
                    }
                }
            }
            if let Some((_, c)) = best {
                return c;
            }
        }
        t
    }
}

/// Whether an obstacle covers part of a tile (touching edges do not count).
fn overlaps(o: &Obstacle, (min, max): (Vec2, Vec2)) -> bool {
    match *o {
        Obstacle::Circle { center, radius } => {
            let closest = center.clamp(min, max);
            closest.distance_squared(center) < radius * radius
        }
        Obstacle::Rect { min: a, max: b } => {
            a.x < max.x && b.x > min.x && a.y < max.y && b.y > min.y
        }
    }
}

/// Bresenham's line from `from` to `to`, both ends included, visiting one tile per step along the
/// major axis. Calls `visit` for each tile in order; stops early when it returns `false`.
pub fn bresenham(from: IVec2, to: IVec2, mut visit: impl FnMut(IVec2) -> bool) {
    let d = (to - from).abs();
    let step = IVec2::new((to.x - from.x).signum(), (to.y - from.y).signum());
    let mut p = from;
    // The error term of the integer algorithm, over both axes at once.
    let mut err = d.x - d.y;
    loop {
        if !visit(p) || p == to {
            return;
        }
        let e2 = 2 * err;
        if e2 > -d.y {
            err -= d.y;
            p.x += step.x;
        }
        if e2 < d.x {
            err += d.x;
            p.y += step.y;
        }
    }
}

/// The whole Bresenham line as a list (for tests and the overlay).
pub fn bresenham_line(from: IVec2, to: IVec2) -> Vec<IVec2> {
    let mut line = Vec::new();
    bresenham(from, to, |t| {
        line.push(t);
        true
    });
    line
}

/// The `n`th tile of the line (0 is `from`), or `to` if the line is shorter.
pub fn bresenham_nth(from: IVec2, to: IVec2, n: u32) -> IVec2 {
    let mut i = 0;
    let mut found = to;
    bresenham(from, to, |t| {
        if i == n {
            found = t;
            return false;
        }
        i += 1;
        true
    });
    found
}
