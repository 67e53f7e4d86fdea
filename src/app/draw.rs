//! Drawing the world: the arena letterboxed into the window, obstacles, the tile grid, the player
//! and agents as heading triangles, and the debug overlay of what each behaviour computed.

use super::camera::Camera;
use super::group_overlay;
use super::guards;
use super::labels::Labels;
use super::layout::Layout;
use super::legend::{Key, Mark};
use super::palette::{
    AHEAD, APART, BACKGROUND, BLOCKED, CHASER, FEELER, FLASH, FLOOR, GRID, LABEL, NEIGHBOUR,
    OBSTACLE, PATH, PLAYER, PREDICT, PROJECTION, SIGHT, STEERING, THREAT, TRAIL, VELOCITY, WALKED,
};
use super::pathview;
use super::pathways;
use super::style;
use super::trails::{TRAIL_SECONDS, Trails};
use super::view::View;
use crate::data::patterns::{Instruction, Steer};
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::mode::Mode;
use crate::sim::space::arena::Obstacle;
use crate::sim::space::tiles::TileGrid;
use crate::sim::trace::{Role, Shape, Trace};
use crate::sim::world::World;
use glam::IVec2;
use glam::Vec2;
use macroquad::prelude::{
    Color, clear_background, draw_circle, draw_circle_lines, draw_line, draw_rectangle,
    draw_rectangle_lines, draw_triangle,
};

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
/// Draw the arena and everything in it; `batch` is reused frame to frame (no per-frame
/// allocation of the agent mesh).
pub fn world(
    world: &World,
    view: &View,
    trails: &Trails,
    batch: &mut style::Batch,
    alpha: f32,
    layout: &Layout,
    labels: &mut Labels,
) {
    clear_background(BACKGROUND);
    let arena = &world.arena;
    let mut cam = Camera::fit(arena.size(), layout.arena);
    cam.offset += view.shake_offset();
    let origin = cam.to_screen(Vec2::ZERO);
    let size = arena.size() * cam.scale;
    draw_rectangle(origin.x, origin.y, size.x, size.y, FLOOR);
    if view.grid {
        grid(world, &cam);
    }
    pathways::floor(world, &view.sketch, view.overlay, &cam);
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
        pathview::draw(world, &cam);
        overlay_player(world, player, &cam);
        trails.draw(&cam);
        // The formation's slots (in a fleet of more than the overlay's limit, the slots of
        // the ships it draws).
        let shown = overlaid(world);
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
                    .filter_map(|&i| {
                        let Behaviour::Ship(s) = &world.agents[i].behaviour else {
                            return None;
                        };
                        Some(s.slot)
                    })
                    .for_each(slot);
            }
        }
        super::forces::labels(world, &shown, &cam, labels);
        for i in shown {
            let a = &world.agents[i];
            if a.queued() {
                continue;
            }
            let trace = world.trace_of(i);
            overlay(
                a,
                drawn_position(a, world, alpha),
                trace,
                world,
                &cam,
                labels,
            );
        }
        group_overlay::draw(world, player, &cam, alpha, labels);
    }
    let crowd = world.agents.len() > DETAIL_LIMIT;
    for (i, a) in world.agents.iter().enumerate() {
        if a.queued() {
            continue;
        }
        let look = style::of(a.behaviour.kind_of(), world.mode);
        let shape = if crowd { &style::SPECK } else { look.shape };
        let r = a.radius(&world.tuning);
        // Rotate smoothly: the heading between the last two ticks, like the position.
        let turn = a.prev_heading.angle_between(a.body.heading);
        let heading = if let Some(smoothed) = view.headings.of(i) {
            smoothed
        } else if turn.is_finite() {
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
    // A chaser pressed against an obstacle (modes 3 and 4 have no avoidance) wears a red ring.
    for a in world.agents.iter().filter(|a| a.pressed_stuck()) {
        let at = cam.to_screen(drawn_position(a, world, alpha));
        let r = a.radius(&world.tuning) * cam.scale + 4.0;
        draw_circle_lines(at.x, at.y, r, 2.0, BLOCKED);
    }
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
    // The labels last, over the agents, inside the arena as it is drawn.
    let shown = macroquad::math::Rect::new(origin.x, origin.y, size.x, size.y);
    labels.draw(shown, (p, pr + 2.0));
}

/// The agents the overlay is drawn for, by index in index order: all of them, or in a crowd
/// the [`OVERLAY_LIMIT`] nearest the player.
fn overlaid(world: &World) -> Vec<usize> {
    let agents = &world.agents;
    if agents.len() <= OVERLAY_LIMIT {
        return (0..agents.len()).collect();
    }
    let player = world.player.pos;
    let mut near: Vec<(f32, usize)> = agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.body.pos.distance_squared(player), i))
        .collect();
    near.select_nth_unstable_by(OVERLAY_LIMIT - 1, |a, b| a.0.total_cmp(&b.0));
    let mut shown: Vec<usize> = near[..OVERLAY_LIMIT].iter().map(|&(_, i)| i).collect();
    shown.sort_unstable();
    shown
}

/// The agents the world is asked to trace this frame, by index in index order: the agents the
/// overlay explains (in a crowd that moves together, its few members nearest the player), and
/// in the modes whose view draws traces without the overlay (the guards' cones, the path
/// search's panel) those agents always.
pub fn trace_picks(world: &World, overlay: bool, out: &mut Vec<(usize, u32)>) {
    out.clear();
    let always = matches!(world.mode, Mode::Fsm | Mode::Pathfind);
    if world.mode.moves_together() {
        if overlay {
            out.extend(group_overlay::explained(world));
        }
    } else if overlay || always {
        out.extend(overlaid(world).into_iter().map(|i| (i, world.agents[i].id)));
    }
    out.sort_unstable();
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

/// What the behaviour computed, in the quantities its formula uses, as its trace shows them:
/// tiles it will walk, the line of sight, the predicted point and `Tc`, feelers, velocity and
/// steering force, its state word.
fn overlay(
    a: &Agent,
    pos: Vec2,
    trace: Option<&Trace>,
    world: &World,
    cam: &Camera,
    labels: &mut Labels,
) {
    let p = cam.to_screen(pos);
    if let Some(t) = trace {
        marks(t, pos - a.body.pos, world, cam);
    }
    if let Behaviour::Intercept { tc: Some(tc), .. } = a.behaviour
        && world.agents.len() <= LABEL_LIMIT
    {
        labels.line(format!("Tc {tc:.2}s"), PREDICT, cam.to_screen(a.aim));
    }
    // A pattern walker's own list of instructions, the current one highlighted.
    if world.agents.len() <= LIST_LIMIT {
        if let Behaviour::Pattern { run, .. } = &a.behaviour {
            let lines = run.list.iter().map(describe_instruction);
            labels.block(instruction_list(lines, run.index), p);
        }
        if let Behaviour::TilePattern { run, .. } = &a.behaviour {
            let lines = run
                .list
                .iter()
                .map(|i| format!("turn {:+}/8, {} steps", i.turn, i.steps));
            labels.block(instruction_list(lines, run.index), p);
        }
    }
    guards::overlay(a, pos, cam, labels);
    let v = cam.to_screen(pos + a.body.vel * VELOCITY_SECONDS);
    draw_line(p.x, p.y, v.x, v.y, 2.0, VELOCITY);
    // Forty "formation" labels would hide the formation; the ships in flight are the story.
    if world.agents.len() <= LABEL_LIMIT && a.state != "formation" {
        labels.line(world.state_word(a).to_string(), LABEL, p);
    }
}

/// A trace's marks, each in its role's colour; `shift` moves the marks that start at the agent
/// to where it is drawn.
fn marks(t: &Trace, shift: Vec2, world: &World, cam: &Camera) {
    let grid = &world.arena.tiles;
    for m in &t.marks {
        // (In a crowd the lines to each path chaser's next corner would hide the paths.)
        if m.role == Role::Course && world.agents.len() > LABEL_LIMIT {
            continue;
        }
        let color = role_color(m.role);
        let start = |v: Vec2| if m.follows { v + shift } else { v };
        match m.shape {
            Shape::Segment { from, to } => {
                let (a, b) = (cam.to_screen(start(from)), cam.to_screen(to));
                let width = match m.role {
                    Role::Escape => 2.0,
                    Role::Normal => 1.5,
                    _ => 1.0,
                };
                draw_line(a.x, a.y, b.x, b.y, width, color);
            }
            Shape::Vector { from, v } => {
                let scale = match m.role {
                    Role::Apart => APART_PX,
                    _ => FORCE_SECONDS,
                };
                let from = start(from);
                let (a, b) = (cam.to_screen(from), cam.to_screen(from + v * scale));
                draw_line(a.x, a.y, b.x, b.y, 2.0, color);
            }
            Shape::Circle { at, radius } => {
                let c = cam.to_screen(start(at));
                draw_circle_lines(c.x, c.y, radius * cam.scale, 1.0, color);
            }
            Shape::Dot { at } => {
                let c = cam.to_screen(at);
                draw_circle(c.x, c.y, 3.0, color);
            }
            Shape::Cross { at } => {
                let size = match m.role {
                    Role::Threat | Role::Escape => 5.0,
                    _ => 6.0,
                };
                cross(cam.to_screen(at), size, color);
            }
            Shape::Tile(tile) => tile_box(grid, tile, color, cam),
            Shape::Cone {
                at,
                heading,
                radius,
                fov_deg,
            } => group_overlay::cone(start(at), heading, radius, fov_deg, cam),
        }
    }
}

/// The colour each traced quantity is drawn in.
fn role_color(role: Role) -> Color {
    role_key(role).0
}

/// Each traced quantity's colour and what the legend calls it (one table for both).
fn role_key(role: Role) -> (Color, &'static str) {
    match role {
        Role::Steering => (STEERING, "steering force"),
        Role::Normal => (STEERING, "wall normal at a hit"),
        Role::Ray => (FEELER, "feeler"),
        Role::Hit => (BLOCKED, "feeler that hit"),
        Role::Blocked => (BLOCKED, "blocked tile"),
        Role::SightCut => (BLOCKED, "line of sight cut (hidden)"),
        Role::Sight => (SIGHT, "line of sight"),
        Role::Wander => (SIGHT, "wander circle and target"),
        Role::Course => (SIGHT, "line to the next corner"),
        Role::Predicted => (PREDICT, "predicted point"),
        Role::Escape => (PREDICT, "way out of a pocket"),
        Role::Threat => (THREAT, "what it flees"),
        Role::Path => (PATH, "tiles ahead"),
        Role::Walked => (WALKED, "tiles walked"),
        Role::Occupied => (CHASER, "its tile"),
        Role::Apart => (APART, "push apart"),
        Role::Neighbour => (NEIGHBOUR, "neighbour heeded"),
        Role::Goal => (SIGHT, "goal and the way to it"),
        Role::Projection => (PROJECTION, "prediction projected on the lane"),
        Role::Ahead => (AHEAD, "target ahead (line: correcting)"),
        Role::HalfPlane => (APART, "ORCA half-plane (velocity space)"),
        Role::Chosen => (VELOCITY, "chosen velocity (velocity space)"),
    }
}

/// The legend's keys for what the overlay draws this frame, from the colours it draws them in.
pub fn keys(world: &World, out: &mut Vec<Key>) {
    out.push(Key::new(VELOCITY, Mark::Line, "velocity"));
    pathways::keys(world, out);
    let mut roles: Vec<Role> = Vec::new();
    for i in overlaid(world) {
        if let Some(t) = world.trace_of(i) {
            for m in &t.marks {
                if !roles.contains(&m.role) {
                    roles.push(m.role);
                }
            }
        }
    }
    for role in roles {
        let (color, name) = role_key(role);
        let mark = if role == Role::Predicted {
            Mark::Dot
        } else {
            Mark::Line
        };
        out.push(Key::new(color, mark, name));
    }
    let timed = |a: &Agent| matches!(a.behaviour, Behaviour::Intercept { tc: Some(_), .. });
    if world.agents.len() <= LABEL_LIMIT && world.agents.iter().any(timed) {
        out.push(Key::new(PREDICT, Mark::Text, "Tc: seconds to close"));
    }
    if world
        .agents
        .iter()
        .any(|a| matches!(a.behaviour, Behaviour::Evade(_)))
    {
        out.push(Key::new(THREAT, Mark::Ring, "threat radius"));
    }
    if world.stage.is_some() {
        out.push(Key::new(SIGHT, Mark::Ring, "formation slot"));
    }
    if world.mode == Mode::Patterns {
        let trail = format!("trail, last {TRAIL_SECONDS:.0} s");
        out.push(Key::new(TRAIL, Mark::Line, &trail));
        if world.agents.len() <= LIST_LIMIT {
            out.push(Key::new(PREDICT, Mark::Text, "current instruction"));
        }
    }
    if world.agents.iter().any(Agent::pressed_stuck) {
        out.push(Key::new(
            BLOCKED,
            Mark::Ring,
            "blocked: stuck on an obstacle",
        ));
    }
    if world.agents.len() <= LABEL_LIMIT && !world.mode.moves_together() {
        out.push(Key::new(LABEL, Mark::Text, "state word"));
    }
}

/// A pattern's instructions for the label beside its walker, the current one highlighted.
fn instruction_list(lines: impl Iterator<Item = String>, current: usize) -> Vec<(String, Color)> {
    lines
        .enumerate()
        .map(|(i, line)| {
            if i == current {
                (format!("> {line}"), PREDICT)
            } else {
                (format!("  {line}"), LABEL)
            }
        })
        .collect()
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

fn tile_box(grid: &TileGrid, t: IVec2, color: Color, cam: &Camera) {
    let min = cam.to_screen(t.as_vec2() * grid.size);
    let size = grid.size * cam.scale;
    draw_rectangle_lines(min.x + 1.0, min.y + 1.0, size - 2.0, size - 2.0, 1.5, color);
}

fn cross(at: Vec2, r: f32, color: Color) {
    draw_line(at.x - r, at.y - r, at.x + r, at.y + r, 1.5, color);
    draw_line(at.x - r, at.y + r, at.x + r, at.y - r, 1.5, color);
}
