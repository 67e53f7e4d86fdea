//! `arena.json`: the arena's size, tile size, obstacles, spawn points and the player's start.

use super::pathways::{self, PathwayData};
use super::{FieldError, check_positive};
use serde::{Deserialize, Serialize};

pub const FILE_NAME: &str = "arena.json";
pub const BUILT_IN: &str = include_str!("../../assets/arena.json");

/// The arenas built into the binary, by file name: the default one and the maze (what `N` steps
/// through when there is no `assets/`).
pub const BUILT_INS: [(&str, &str); 2] = [
    (FILE_NAME, BUILT_IN),
    ("maze.json", include_str!("../../assets/maze.json")),
];

/// The built-in arena of this file name: its name and text.
pub fn built_in_named(name: &str) -> Option<(&'static str, &'static str)> {
    BUILT_INS.iter().copied().find(|(n, _)| *n == name)
}

/// Largest number of obstacles a file may hold (keeps loading and grids bounded).
pub const MAX_OBSTACLES: usize = 10_000;
/// Most spawn points a file may hold.
pub const MAX_SPAWNS: usize = 256;
/// Most pickups a file may hold.
pub const MAX_PICKUPS: usize = 256;
/// Largest arena side in pixels.
pub const MAX_SIDE: f32 = 16_384.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaData {
    pub width: f32,
    pub height: f32,
    pub tile_size: f32,
    #[serde(default)]
    pub obstacles: Vec<ObstacleData>,
    pub spawns: Vec<[f32; 2]>,
    pub player_start: [f32; 2],
    /// Power-ups for the `fsm` mode's player (points); other modes leave them alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pickups: Vec<[f32; 2]>,
    /// Pathways for the `pathway` mode (polylines with a radius); other modes leave them alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pathways: Vec<PathwayData>,
}

/// A circle (`x`, `y` centre) or an axis-aligned rectangle (`x`, `y` top-left corner).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "lowercase", deny_unknown_fields)]
pub enum ObstacleData {
    Circle { x: f32, y: f32, radius: f32 },
    Rect { x: f32, y: f32, w: f32, h: f32 },
}

impl ObstacleData {
    /// The obstacle `s` times larger about the arena's top-left corner.
    pub fn scaled(&self, s: f32) -> ObstacleData {
        match *self {
            ObstacleData::Circle { x, y, radius } => ObstacleData::Circle {
                x: x * s,
                y: y * s,
                radius: radius * s,
            },
            ObstacleData::Rect { x, y, w, h } => ObstacleData::Rect {
                x: x * s,
                y: y * s,
                w: w * s,
                h: h * s,
            },
        }
    }
}

/// Parse and validate `arena.json` text.
pub fn parse(text: &str) -> Result<ArenaData, String> {
    let data: ArenaData = super::from_json(text)?;
    data.validate().map_err(|e| e.to_string())?;
    Ok(data)
}

impl ArenaData {
    pub fn validate(&self) -> Result<(), FieldError> {
        check_positive("width", self.width)?;
        check_positive("height", self.height)?;
        if self.width > MAX_SIDE || self.height > MAX_SIDE {
            return Err(FieldError::new(
                if self.width > MAX_SIDE {
                    "width"
                } else {
                    "height"
                },
                format!("at most {MAX_SIDE} pixels"),
            ));
        }
        check_positive("tile_size", self.tile_size)?;
        if self.tile_size < 4.0 || self.tile_size > self.width.min(self.height) {
            return Err(FieldError::new(
                "tile_size",
                format!(
                    "must be between 4 and the arena's shorter side ({}), got {}",
                    self.width.min(self.height),
                    self.tile_size
                ),
            ));
        }
        if self.obstacles.len() > MAX_OBSTACLES {
            return Err(FieldError::new(
                "obstacles",
                format!(
                    "at most {MAX_OBSTACLES} obstacles, got {}",
                    self.obstacles.len()
                ),
            ));
        }
        for (i, o) in self.obstacles.iter().enumerate() {
            o.validate(&format!("obstacles[{i}]"), self.width, self.height)?;
        }
        if self.spawns.is_empty() {
            return Err(FieldError::new("spawns", "needs at least one spawn point"));
        }
        if self.spawns.len() > MAX_SPAWNS {
            return Err(FieldError::new(
                "spawns",
                format!(
                    "at most {MAX_SPAWNS} spawn points, got {}",
                    self.spawns.len()
                ),
            ));
        }
        for (i, s) in self.spawns.iter().enumerate() {
            self.check_point(&format!("spawns[{i}]"), *s)?;
        }
        self.check_point("player_start", self.player_start)?;
        if self.pickups.len() > MAX_PICKUPS {
            return Err(FieldError::new(
                "pickups",
                format!("at most {MAX_PICKUPS} pickups, got {}", self.pickups.len()),
            ));
        }
        for (i, p) in self.pickups.iter().enumerate() {
            self.check_point(&format!("pickups[{i}]"), *p)?;
        }
        pathways::validate(&self.pathways, self.width, self.height)
    }

    /// The arena drawn `s` times larger: sides, obstacles (positions and sizes), spawn points,
    /// the player's start, the pickups and the pathways, all about the top-left corner; the tile size stays,
    /// so the grid has more tiles. Bodies keep their size, so a crowd spread over it is sparser.
    pub fn scaled(&self, s: f32) -> ArenaData {
        let at = |p: &[f32; 2]| [p[0] * s, p[1] * s];
        ArenaData {
            width: self.width * s,
            height: self.height * s,
            tile_size: self.tile_size,
            obstacles: self.obstacles.iter().map(|o| o.scaled(s)).collect(),
            spawns: self.spawns.iter().map(at).collect(),
            player_start: at(&self.player_start),
            pickups: self.pickups.iter().map(at).collect(),
            pathways: self.pathways.iter().map(|p| p.scaled(s)).collect(),
        }
    }

    fn check_point(&self, path: &str, p: [f32; 2]) -> Result<(), FieldError> {
        let inside = p[0].is_finite()
            && p[1].is_finite()
            && (0.0..=self.width).contains(&p[0])
            && (0.0..=self.height).contains(&p[1]);
        if inside {
            Ok(())
        } else {
            Err(FieldError::new(
                path,
                format!(
                    "point ({}, {}) is outside the {}x{} arena",
                    p[0], p[1], self.width, self.height
                ),
            ))
        }
    }
}

impl ObstacleData {
    pub fn validate(&self, path: &str, width: f32, height: f32) -> Result<(), FieldError> {
        let (min, max) = match *self {
            ObstacleData::Circle { x, y, radius } => {
                check_finite(&format!("{path}.x"), x)?;
                check_finite(&format!("{path}.y"), y)?;
                check_positive(&format!("{path}.radius"), radius)?;
                ([x - radius, y - radius], [x + radius, y + radius])
            }
            ObstacleData::Rect { x, y, w, h } => {
                check_finite(&format!("{path}.x"), x)?;
                check_finite(&format!("{path}.y"), y)?;
                check_positive(&format!("{path}.w"), w)?;
                check_positive(&format!("{path}.h"), h)?;
                ([x, y], [x + w, y + h])
            }
        };
        // An obstacle may touch or cross the wall, but some of it must lie inside the arena.
        if max[0] <= 0.0 || max[1] <= 0.0 || min[0] >= width || min[1] >= height {
            return Err(FieldError::new(
                path,
                format!("obstacle lies outside the {width}x{height} arena"),
            ));
        }
        Ok(())
    }
}

fn check_finite(path: &str, v: f32) -> Result<(), FieldError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(FieldError::new(path, "must be a finite number"))
    }
}

/// The arena as Ctrl+S saves it, in the shape `assets/arena.json` is written in: one field a
/// line, one obstacle a line, the spawn points [`POINTS_PER_LINE`] to a line, the pickups on one
/// line, one pathway a line. A file of a few obstacles stays a few lines long however often it is saved, and reads
/// back equal: every number is written as the shortest text that parses to the same `f32`.
pub fn to_json(data: &ArenaData) -> String {
    let obstacles: Vec<String> = data
        .obstacles
        .iter()
        .map(|o| match *o {
            ObstacleData::Circle { x, y, radius } => format!(
                "{{ \"shape\": \"circle\", \"x\": {}, \"y\": {}, \"radius\": {} }}",
                number(x),
                number(y),
                number(radius)
            ),
            ObstacleData::Rect { x, y, w, h } => format!(
                "{{ \"shape\": \"rect\", \"x\": {}, \"y\": {}, \"w\": {}, \"h\": {} }}",
                number(x),
                number(y),
                number(w),
                number(h)
            ),
        })
        .collect();
    let spawns: Vec<String> = data
        .spawns
        .chunks(POINTS_PER_LINE)
        .map(|line| points(line, ", "))
        .collect();
    let mut out = String::from("{\n");
    out += &format!("  \"width\": {},\n", number(data.width));
    out += &format!("  \"height\": {},\n", number(data.height));
    out += &format!("  \"tile_size\": {},\n", number(data.tile_size));
    out += &list("obstacles", &obstacles);
    out += &list("spawns", &spawns);
    out += &format!("  \"player_start\": {}", point(data.player_start));
    if !data.pickups.is_empty() {
        out += &format!(",\n  \"pickups\": [{}]", points(&data.pickups, ", "));
    }
    if !data.pathways.is_empty() {
        let lines: Vec<String> = data
            .pathways
            .iter()
            .map(|p| pathways::to_json(p, point))
            .collect();
        out += &format!(",\n  \"pathways\": [\n    {}\n  ]", lines.join(",\n    "));
    }
    out + "\n}"
}

/// Spawn points on one line of a saved arena.
pub const POINTS_PER_LINE: usize = 4;

/// `"name": [` then `items` one a line, then `],`: an empty list stays on one line.
fn list(name: &str, items: &[String]) -> String {
    if items.is_empty() {
        return format!("  \"{name}\": [],\n");
    }
    format!("  \"{name}\": [\n    {}\n  ],\n", items.join(",\n    "))
}

fn points(ps: &[[f32; 2]], sep: &str) -> String {
    ps.iter().map(|&p| point(p)).collect::<Vec<_>>().join(sep)
}

fn point(p: [f32; 2]) -> String {
    format!("[{}, {}]", number(p[0]), number(p[1]))
}

/// Rust prints an `f32` as the shortest decimal that reads back as the same value, and a whole
/// value without a fraction (`320`), as the files are written; a validated arena holds only
/// finite numbers, which are all valid JSON this way.
fn number(v: f32) -> String {
    format!("{v}")
}

/// The smallest gap between two generated obstacles, and between an obstacle and a spawn point or
/// the player's start (px): wide enough for every agent to pass.
pub const GENERATED_GAP: f32 = 26.0;

/// `base` with `count` random obstacles added: circles (radius 6–16) and rectangles (sides
/// 10–32), none closer than [`GENERATED_GAP`] to another obstacle, to a wall or to a spawn
/// point or the player's start. Positions come from a generator seeded with `seed` only, so the
/// same seed gives the same arena. Stops early if the arena is too full to place more.
pub fn with_random_obstacles(base: &ArenaData, count: usize, seed: u64) -> ArenaData {
    with_spaced_obstacles(base, count, seed, GENERATED_GAP)
}

/// [`with_random_obstacles`] with a chosen smallest gap (px): `bench` packs hundreds of obstacles
/// more tightly than the default leaves room for.
pub fn with_spaced_obstacles(base: &ArenaData, count: usize, seed: u64, gap: f32) -> ArenaData {
    use ::rand::rngs::StdRng;
    use ::rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = base.clone();
    // Bounding circles keep the spacing test simple and conservative.
    let mut placed: Vec<([f32; 2], f32)> = out.obstacles.iter().map(bounding_circle).collect();
    let keep_clear: Vec<[f32; 2]> = out
        .spawns
        .iter()
        .copied()
        .chain([out.player_start])
        .collect();
    let mut attempts = 0;
    let mut added = 0;
    while added < count && attempts < count * 200 {
        attempts += 1;
        let o = if rng.gen_bool(0.5) {
            ObstacleData::Circle {
                x: rng.gen_range(0.0..out.width),
                y: rng.gen_range(0.0..out.height),
                radius: rng.gen_range(6.0..16.0),
            }
        } else {
            ObstacleData::Rect {
                x: rng.gen_range(0.0..out.width),
                y: rng.gen_range(0.0..out.height),
                w: rng.gen_range(10.0..32.0),
                h: rng.gen_range(10.0..32.0),
            }
        };
        let (c, r) = bounding_circle(&o);
        let inside = c[0] - r >= gap
            && c[1] - r >= gap
            && c[0] + r <= out.width - gap
            && c[1] + r <= out.height - gap;
        let spaced = placed.iter().all(|(pc, pr)| dist(c, *pc) >= r + pr + gap);
        let clear = keep_clear.iter().all(|s| dist(c, *s) >= r + gap * 2.0);
        if inside && spaced && clear {
            placed.push((c, r));
            out.obstacles.push(o);
            added += 1;
        }
    }
    out
}

fn bounding_circle(o: &ObstacleData) -> ([f32; 2], f32) {
    match *o {
        ObstacleData::Circle { x, y, radius } => ([x, y], radius),
        ObstacleData::Rect { x, y, w, h } => {
            ([x + w / 2.0, y + h / 2.0], (w * w + h * h).sqrt() / 2.0)
        }
    }
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}
