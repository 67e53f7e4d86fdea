//! Drawing the world: the arena letterboxed into the window, obstacles, the tile grid, the player
//! and agents as heading triangles, and the debug overlay of what each behaviour computed.

use super::camera::Camera;
use super::group_overlay;
use super::guards;
use super::palette::{
    APART, BACKGROUND, BLOCKED, CHASER, FEELER, FLASH, FLOOR, GRID, LABEL, OBSTACLE, PATH, PLAYER,
    PREDICT, SIGHT, STEERING, THREAT, TRAIL, VELOCITY, WALKED,
};
use super::pathview::PathView;
use super::style;
use super::view::View;
use crate::data::patterns::{Instruction, Steer};
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::behaviours::galaga::{self, ShipState};
use crate::sim::behaviours::unstick::Unstick;
use crate::sim::behaviours::{evade, tile_chase};
use crate::sim::mode::Mode;
use crate::sim::space::arena::Obstacle;
use crate::sim::space::arena::RayHit;
use crate::sim::space::clear;
use crate::sim::space::feelers::Ray;
use crate::sim::space::feelers::{self, Layout};
use crate::sim::tiles::{TileGrid, bresenham};
use crate::sim::world::World;
use glam::IVec2;
use glam::Vec2;
use macroquad::prelude::{
    Color, clear_background, draw_circle, draw_circle_lines, draw_line, draw_rectangle,
    draw_rectangle_lines, draw_text, draw_triangle,
};
use std::collections::VecDeque;

/// Overlay scales: a velocity is drawn as where it goes in this many seconds; a force as the
/// velocity change it makes in this many seconds.
const VELOCITY_SECONDS: f32 = 0.4;
const FORCE_SECONDS: f32 = 0.25;
/// A chaser's separation push is drawn this many pixels per unit (the pull toward the player
/// being one unit).
const APART_PX: f32 = 24.0;
/// Above this many agents the overlay leaves out per-agent text.
const LABEL_LIMIT: usize = 40;
/// Above this many agents the overlay is drawn for the agents nearest the player only: thousands
/// of rays and circles are unreadable, and in software GL cost a tenth of a second a frame.
pub const OVERLAY_LIMIT: usize = 300;
/// In a crowd of more than this many agents each is drawn as a single triangle, its kind's
/// colour and pointing its way ([`style::SPECK`]): at that density the silhouettes, a few pixels
/// across, do not tell kinds apart, and a software rasteriser spends its frame on their
/// triangles (5,000 agents under Xvfb: 12 ms a frame as specks, 19 ms as silhouettes).
pub const DETAIL_LIMIT: usize = 2_000;
/// Above this many agents the overlay leaves out pattern instruction lists.
const LIST_LIMIT: usize = 8;
/// Seconds of trail the overlay keeps behind each pattern walker.
const TRAIL_SECONDS: f32 = 4.0;

/// The last few seconds of each agent's positions (mode 9's overlay), kept by the window.
#[derive(Debug, Default)]
pub struct Trails {
    points: Vec<VecDeque<Vec2>>,
}

impl Trails {
    /// Remember where every agent is after a tick (only in mode 9; cleared otherwise).
    pub fn record(&mut self, world: &World) {
        if world.mode != Mode::Patterns {
            self.points.clear();
            return;
        }
        let keep = (TRAIL_SECONDS / world.dt) as usize;
        self.points.resize_with(world.agents.len(), VecDeque::new);
        for (trail, a) in self.points.iter_mut().zip(&world.agents) {
            if a.respawned || trail.back().is_some_and(|p| p.distance(a.body.pos) > 64.0) {
                trail.clear();
            }
            trail.push_back(a.body.pos);
            while trail.len() > keep {
                trail.pop_front();
            }
        }
    }

    fn draw(&self, cam: &Camera) {
        for trail in &self.points {
            for (a, b) in trail.iter().zip(trail.iter().skip(1)) {
                let (a, b) = (cam.to_screen(*a), cam.to_screen(*b));
                draw_line(a.x, a.y, b.x, b.y, 1.5, TRAIL);
            }
        }
    }
}

/// Draw the arena and everything in it; `batch` is reused frame to frame (no per-frame
/// allocation of the agent mesh).
pub fn world(
    world: &World,
    view: &View,
    trails: &Trails,
    paths: &PathView,
    batch: &mut style::Batch,
    alpha: f32,
) {
    clear_background(BACKGROUND);
    let arena = &world.arena;
    let mut cam = Camera::fit(arena.size());
    cam.offset += view.shake_offset();
    let origin = cam.to_screen(Vec2::ZERO);
    let size = arena.size() * cam.scale;
    draw_rectangle(origin.x, origin.y, size.x, size.y, FLOOR);
    if view.grid {
        grid(world, &cam);
    }
    for o in arena.obstacles() {
        obstacle(o, &cam);
    }
    draw_rectangle_lines(origin.x, origin.y, size.x, size.y, 2.0, OBSTACLE);
    if world.mode == Mode::Fsm {
        if view.overlay {
            guards::routes(world, &cam);
        }
        guards::floor(world, &cam, alpha);
    }

    let player = world.player.prev_pos.lerp(world.player.pos, alpha);
    if view.overlay {
        paths.draw(world, &cam);
        overlay_player(world, player, &cam);
        trails.draw(&cam);
        // The formation's slots (in a fleet of more than the overlay's limit, the slots of
        // the ships it draws).
        let shown = overlaid(world, player);
        if let Some(stage) = &world.stage {
            let slot = |i: usize| {
                let s = cam.to_screen(stage.slot_position(i));
                draw_circle_lines(s.x, s.y, 4.0, 1.0, SIGHT);
            };
            if stage.slots.len() <= OVERLAY_LIMIT {
                (0..stage.slots.len()).for_each(slot);
            } else {
                shown
                    .iter()
                    .filter_map(|a| {
                        let Behaviour::Ship(s) = &a.behaviour else {
                            return None;
                        };
                        Some(s.slot)
                    })
                    .for_each(slot);
            }
        }
        for a in shown {
            if matches!(&a.behaviour, Behaviour::Ship(s) if s.state == ShipState::Queued) {
                continue;
            }
            overlay(a, drawn_position(a, world, alpha), world, &cam);
        }
        group_overlay::draw(world, player, &cam, alpha);
    }
    let crowd = world.agents.len() > DETAIL_LIMIT;
    for a in &world.agents {
        if matches!(&a.behaviour, Behaviour::Ship(s) if s.state == ShipState::Queued) {
            continue;
        }
        let look = style::of(a.behaviour.kind_of(), world.mode);
        let shape = if crowd { &style::SPECK } else { look.shape };
        let r = a.radius(&world.tuning);
        // Rotate smoothly: the heading between the last two ticks, like the position.
        let turn = a.prev_heading.angle_between(a.body.heading);
        let heading = if turn.is_finite() {
            Vec2::from_angle(turn * alpha).rotate(a.prev_heading)
        } else {
            a.body.heading
        };
        let color = match a.behaviour.guard() {
            Some(g) => guards::color(g.doing),
            None => look.color,
        };
        batch.shape(
            shape,
            drawn_position(a, world, alpha),
            heading,
            r,
            color,
            &cam,
        );
    }
    batch.flush();
    let flash = world.player.flash > 0.0 && ((world.player.flash * 12.0) as u32).is_multiple_of(2);
    let p = cam.to_screen(player);
    let pr = world.tuning.player.radius * cam.scale;
    let body = if flash { FLASH } else { PLAYER };
    draw_circle(p.x, p.y, pr, body);
    // A white ring sets the player apart from every agent colour.
    draw_circle_lines(p.x, p.y, pr + 2.0, 2.0, FLASH);
    // A nose where the player is going.
    if let Some(dir) = world.player.vel.try_normalize() {
        let side = dir.perp();
        let r = world.tuning.player.radius;
        let at = |f: f32, s: f32| cam.to_screen(player + dir * r * f + side * r * s);
        draw_triangle(at(1.7, 0.0), at(0.6, 0.55), at(0.6, -0.55), body);
    }
    if view.overlay {
        let v = cam.to_screen(player + world.player.vel * VELOCITY_SECONDS);
        draw_line(p.x, p.y, v.x, v.y, 2.0, VELOCITY);
    }
}

/// The agents the overlay is drawn for: all of them, or in a crowd the [`OVERLAY_LIMIT`] nearest
/// the player.
fn overlaid(world: &World, player: Vec2) -> Vec<&Agent> {
    let agents = &world.agents;
    if agents.len() <= OVERLAY_LIMIT {
        return agents.iter().collect();
    }
    let mut near: Vec<(f32, &Agent)> = agents
        .iter()
        .map(|a| (a.body.pos.distance_squared(player), a))
        .collect();
    near.select_nth_unstable_by(OVERLAY_LIMIT - 1, |a, b| a.0.total_cmp(&b.0));
    near[..OVERLAY_LIMIT].iter().map(|&(_, a)| a).collect()
}

/// Where to draw an agent: tile agents slide from the tile they left to the tile they are on
/// over one step; continuous agents interpolate between the last two ticks.
fn drawn_position(a: &Agent, world: &World, alpha: f32) -> Vec2 {
    match a.behaviour.tile_walk() {
        Some(walk) => {
            let grid = &world.arena.tiles;
            let t = walk.progress(world.tuning.tile.steps_per_second);
            grid.center(walk.from).lerp(grid.center(walk.tile), t)
        }
        None => a.prev_pos.lerp(a.body.pos, alpha),
    }
}

/// Mode-wide overlay items: the evaders' threat radius around the player.
fn overlay_player(world: &World, player: Vec2, cam: &Camera) {
    if world
        .agents
        .iter()
        .any(|a| matches!(a.behaviour, Behaviour::Evade(_)))
    {
        let p = cam.to_screen(player);
        let r = world.tuning.evade.threat_radius * cam.scale;
        draw_circle_lines(p.x, p.y, r, 1.5, THREAT);
    }
}

fn grid(world: &World, cam: &Camera) {
    let arena = &world.arena;
    let tile = arena.tile_size;
    let mut x = 0.0;
    while x <= arena.width {
        let a = cam.to_screen(Vec2::new(x, 0.0));
        let b = cam.to_screen(Vec2::new(x, arena.height));
        draw_line(a.x, a.y, b.x, b.y, 1.0, GRID);
        x += tile;
    }
    let mut y = 0.0;
    while y <= arena.height {
        let a = cam.to_screen(Vec2::new(0.0, y));
        let b = cam.to_screen(Vec2::new(arena.width, y));
        draw_line(a.x, a.y, b.x, b.y, 1.0, GRID);
        y += tile;
    }
}

fn obstacle(o: &Obstacle, cam: &Camera) {
    match *o {
        Obstacle::Circle { center, radius } => {
            let c = cam.to_screen(center);
            draw_circle(c.x, c.y, radius * cam.scale, OBSTACLE);
        }
        Obstacle::Rect { min, max } => {
            let a = cam.to_screen(min);
            let size = (max - min) * cam.scale;
            draw_rectangle(a.x, a.y, size.x, size.y, OBSTACLE);
        }
    }
}

/// What the behaviour computed, in the quantities its formula uses: tiles it will walk, the line
/// of sight, the predicted point and `Tc`, feelers, velocity and steering force, its state word.
fn overlay(a: &Agent, pos: Vec2, world: &World, cam: &Camera) {
    let p = cam.to_screen(pos);
    let grid = &world.arena.tiles;
    let player_tile = grid.tile_of(world.player.pos);
    match &a.behaviour {
        Behaviour::TileChase { walk, flip } => {
            // The steps it would take if the player stood still: the staircase path.
            let mut tile = walk.tile;
            for _ in 0..64 {
                match tile_chase::step(grid, tile, player_tile, *flip) {
                    Some(next) if next != player_tile => {
                        tile_box(grid, next, PATH, cam);
                        tile = next;
                    }
                    _ => break,
                }
            }
        }
        Behaviour::TileLos { walk, line, .. } => {
            let mut i = 0;
            bresenham(line.from, line.to, |t| {
                if !grid.inside(t) || i > 256 {
                    return false;
                }
                let color = if i <= line.walked { WALKED } else { PATH };
                tile_box(grid, t, if grid.blocked(t) { BLOCKED } else { color }, cam);
                i += 1;
                true
            });
            tile_box(grid, walk.tile, CHASER, cam);
        }
        Behaviour::Los { .. } => {
            let aim = cam.to_screen(a.aim);
            draw_line(p.x, p.y, aim.x, aim.y, 1.0, SIGHT);
        }
        Behaviour::Intercept { .. } => {
            let aim = cam.to_screen(a.aim);
            let color = if a.tc().is_some() { PREDICT } else { SIGHT };
            draw_line(p.x, p.y, aim.x, aim.y, 1.0, color);
            cross(aim, 6.0, color);
            if let Some(tc) = a.tc()
                && world.agents.len() <= LABEL_LIMIT
            {
                draw_text(
                    format!("Tc {tc:.2}s").as_str(),
                    aim.x + 8.0,
                    aim.y + 16.0,
                    15.0,
                    PREDICT,
                );
            }
        }
        Behaviour::Evade(state) => {
            let params = a.behaviour.params(&world.tuning);
            let speed_frac = a.body.speed() / params.max_speed.max(f32::EPSILON);
            let rays = evade::feeler_config(params, &world.tuning.evade).rays(
                a.body.pos,
                a.body.heading,
                speed_frac,
                0.0,
            );
            if state.unstick.escaping() {
                way_out(&state.unstick, cam);
            } else {
                draw_rays(&rays, state.felt.map(|f| (f.hit, f.ray)), cam);
            }
            if a.state == "wander" {
                let t = &world.tuning.evade;
                wander_circle(a, pos, t.wander_distance, t.wander_radius, cam);
            } else if !state.unstick.escaping() {
                cross(cam.to_screen(a.aim), 5.0, THREAT);
            }
        }
        Behaviour::Ship(s) => {
            if let Some(stage) = &world.stage {
                let mut path = Vec::new();
                galaga::preview(stage, s, pos, &mut path);
                for w in path.windows(2) {
                    let (a, b) = (cam.to_screen(w[0]), cam.to_screen(w[1]));
                    draw_line(a.x, a.y, b.x, b.y, 1.0, PREDICT);
                }
            }
        }
        Behaviour::Pattern { run, .. } => {
            if world.agents.len() <= LIST_LIMIT {
                let lines = run.list.iter().map(describe_instruction);
                instruction_list(p, lines, run.index, cam);
            }
        }
        Behaviour::TilePattern { run, .. } => {
            if world.agents.len() <= LIST_LIMIT {
                let lines = run
                    .list
                    .iter()
                    .map(|i| format!("turn {:+}/8, {} steps", i.turn, i.steps));
                instruction_list(p, lines, run.index, cam);
            }
        }
        Behaviour::Path(chase) => {
            if !chase.corners.is_empty() && world.agents.len() <= LABEL_LIMIT {
                let aim = cam.to_screen(a.aim);
                draw_line(p.x, p.y, aim.x, aim.y, 1.0, SIGHT);
            }
        }
        Behaviour::Guard(g) => guards::overlay(a, g, pos, cam),
        // (Explained for the few nearest the player, in `group_overlay`.)
        Behaviour::Boid(_) | Behaviour::Swarmer(_) => {}
        Behaviour::Wander { walk, .. } | Behaviour::Avoid { walk, .. } => {
            let params = a.behaviour.params(&world.tuning);
            let cfg = clear::feelers(params, &world.tuning.avoid);
            let extra = if cfg.layout == Layout::Whiskers {
                walk.avoid.spread * clear::MAX_SPREAD
            } else {
                0.0
            };
            let speed_frac = a.body.speed() / params.max_speed.max(f32::EPSILON);
            let rays = cfg.rays(a.body.pos, a.body.heading, speed_frac, extra);
            if walk.unstick.escaping() {
                way_out(&walk.unstick, cam);
            } else {
                // The walls are felt every tick; obstacles as of the agent's last cast.
                let walls = feelers::feel_walls(&world.arena, &rays, cfg.sweep_radius());
                let felt = feelers::deeper(walls, walk.avoid.held.felt);
                draw_rays(&rays, felt.map(|f| (f.hit, f.ray)), cam);
            }
            let w = &world.tuning.wander;
            if let Some((spot, _)) = walk.waypoint {
                let s = cam.to_screen(spot);
                draw_line(p.x, p.y, s.x, s.y, 1.0, SIGHT);
                cross(s, 6.0, PREDICT);
            } else if a.state != "chase" && a.state != "chase-avoid" {
                wander_circle(a, pos, w.distance, w.radius, cam);
            }
            if walk.apart != Vec2::ZERO {
                let s = cam.to_screen(pos + walk.apart * APART_PX);
                draw_line(p.x, p.y, s.x, s.y, 2.0, APART);
            }
        }
    }
    let v = cam.to_screen(pos + a.body.vel * VELOCITY_SECONDS);
    draw_line(p.x, p.y, v.x, v.y, 2.0, VELOCITY);
    // (The flock's and the swarm's forces are drawn part by part, in `group_overlay`.)
    let grouped = a.behaviour.base().0.moves_together();
    if a.tile().is_none() && !grouped {
        let mass = a.behaviour.params(&world.tuning).mass.max(f32::EPSILON);
        let f = cam.to_screen(pos + a.steer / mass * FORCE_SECONDS);
        draw_line(p.x, p.y, f.x, f.y, 2.0, STEERING);
    }
    // Forty "formation" labels would hide the formation; the ships in flight are the story.
    if world.agents.len() <= LABEL_LIMIT && a.state != "formation" {
        draw_text(world.state_word(a), p.x + 12.0, p.y - 10.0, 16.0, LABEL);
    }
}

/// A way out of a pocket being followed (its feelers set aside): the swept line from where the
/// body stops to where it met something, with a cross there.
fn way_out(u: &Unstick, cam: &Camera) {
    if let Some(e) = u.escape {
        let (a, b) = (cam.to_screen(e.from), cam.to_screen(e.from + e.dir * e.run));
        draw_line(a.x, a.y, b.x, b.y, 2.0, PREDICT);
        cross(b, 5.0, PREDICT);
    }
}

/// A pattern's instructions beside its walker, the current one highlighted.
fn instruction_list(at: Vec2, lines: impl Iterator<Item = String>, current: usize, _cam: &Camera) {
    for (i, line) in lines.enumerate() {
        let y = at.y + 22.0 + i as f32 * 14.0;
        let (text, color) = if i == current {
            (format!("> {line}"), PREDICT)
        } else {
            (format!("  {line}"), LABEL)
        };
        draw_text(&text, at.x + 16.0, y, 14.0, color);
    }
}

fn describe_instruction(i: &Instruction) -> String {
    let steer = match i.steer {
        Steer::Port => "port",
        Steer::Starboard => "starboard",
        Steer::None => "straight",
    };
    let mut s = format!("{steer} {}", if i.thrust { "thrust" } else { "coast" });
    if let Some(t) = i.turn_deg {
        s.push_str(&format!(" {t:.0} deg"));
    }
    if let Some(d) = i.distance {
        s.push_str(&format!(" {d:.0} px"));
    }
    s
}

/// The wander circle ahead of the agent and its target on it.
fn wander_circle(a: &Agent, pos: Vec2, distance: f32, radius: f32, cam: &Camera) {
    let c = cam.to_screen(pos + a.body.heading * distance);
    draw_circle_lines(c.x, c.y, radius * cam.scale, 1.0, SIGHT);
    let w = cam.to_screen(a.aim);
    draw_line(c.x, c.y, w.x, w.y, 1.0, SIGHT);
    draw_circle(w.x, w.y, 3.0, PREDICT);
}

/// Feeler rays, the one that hit in red with its hit point and surface normal.
fn draw_rays(rays: &[Ray; 3], hit: Option<(RayHit, u8)>, cam: &Camera) {
    for (i, r) in rays.iter().enumerate() {
        if r.length <= 0.0 {
            continue;
        }
        let hit_here = hit.filter(|(_, ray)| usize::from(*ray) == i);
        let o = cam.to_screen(r.origin);
        let e = cam.to_screen(r.origin + r.dir * r.length);
        draw_line(
            o.x,
            o.y,
            e.x,
            e.y,
            1.0,
            if hit_here.is_some() { BLOCKED } else { FEELER },
        );
    }
    if let Some((h, _)) = hit {
        let at = cam.to_screen(h.point);
        let n = cam.to_screen(h.point + h.normal * 16.0);
        draw_circle(at.x, at.y, 3.0, BLOCKED);
        draw_line(at.x, at.y, n.x, n.y, 1.5, STEERING);
    }
}

fn tile_box(grid: &TileGrid, t: IVec2, color: Color, cam: &Camera) {
    let min = cam.to_screen(t.as_vec2() * grid.size);
    let size = grid.size * cam.scale;
    draw_rectangle_lines(min.x + 1.0, min.y + 1.0, size - 2.0, size - 2.0, 1.5, color);
}

fn cross(at: Vec2, r: f32, color: Color) {
    draw_line(at.x - r, at.y - r, at.x + r, at.y + r, 1.5, color);
    draw_line(at.x - r, at.y + r, at.x + r, at.y - r, 1.5, color);
}
