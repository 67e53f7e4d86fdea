//! One record line as the run takes it: the pause flag, the tick's input and the commands, and
//! whether the world can take each command.

use crate::data::arena::MAX_OBSTACLES;
use crate::data::pathways::MAX_PATHWAY_POINTS;
use crate::sim::command::{Command, TickInput};
use crate::sim::player::Script;
use crate::sim::space::shape::Obstacle;
use crate::sim::world::{Input, World};
use glam::Vec2;

/// What a record line holds to run it again: the window's pause flag, the tick's input (`None`:
/// no tick ran) and the commands applied before it.
#[derive(Debug, Clone)]
pub struct Step {
    pub paused: bool,
    pub input: Option<TickInput>,
    pub commands: Vec<Command>,
}

impl Step {
    /// Run the line: apply its commands, then its tick (if one ran). A command the world cannot
    /// take (see [`check_command`]) stops the line there, with the command's field path.
    pub fn run(&self, world: &mut World) -> Result<(), String> {
        for (i, c) in self.commands.iter().enumerate() {
            check_command(c, world).map_err(|m| format!("commands[{i}].{m}"))?;
            world.apply(c.clone());
        }
        match self.input {
            Some(TickInput::Keys(d)) => {
                world.player.script = Script::Keys;
                world.tick(&Input { move_dir: d });
            }
            Some(TickInput::Script(s)) => {
                world.player.script = s;
                world.tick(&Input::default());
            }
            None => {}
        }
        Ok(())
    }
}

/// Whether `world` can take the command as it stands: an added obstacle must lie within the
/// arena grown by the arena's own width and height on each side (so its size and position stay
/// far from overflowing, whatever the record says), and the arena may hold at most
/// [`MAX_OBSTACLES`], as a file may. The error starts with the command's field path.
pub fn check_command(command: &Command, world: &World) -> Result<(), String> {
    if let Command::DrawPathway(points) = command {
        return check_pathway(points, world);
    }
    let Command::AddObstacle(o) = command else {
        return Ok(());
    };
    let (field, lo, hi) = match *o {
        Obstacle::Circle { center, radius } => (
            "circle",
            center - Vec2::splat(radius),
            center + Vec2::splat(radius),
        ),
        Obstacle::Rect { min, max } => ("rect", min, max),
    };
    let size = world.arena.size();
    let (room_lo, room_hi) = (-size, size * 2.0);
    if !(lo.cmpge(room_lo).all() && hi.cmple(room_hi).all()) {
        return Err(format!(
            "add-obstacle.{field}: outside the arena grown by its own size on each side (x from \
             {} to {}, y from {} to {})",
            room_lo.x, room_hi.x, room_lo.y, room_hi.y
        ));
    }
    let held = world.arena.obstacles().len();
    if held >= MAX_OBSTACLES {
        return Err(format!(
            "add-obstacle: the arena holds {held} obstacles already, the most it may hold \
             ({MAX_OBSTACLES})"
        ));
    }
    Ok(())
}

/// A drawn pathway holds at most [`MAX_PATHWAY_POINTS`] points (as a file's may), each inside
/// the arena.
fn check_pathway(points: &[Vec2], world: &World) -> Result<(), String> {
    if points.len() > MAX_PATHWAY_POINTS {
        return Err(format!(
            "draw-pathway: at most {MAX_PATHWAY_POINTS} points, got {}",
            points.len()
        ));
    }
    let size = world.arena.size();
    match points
        .iter()
        .position(|p| !(p.cmpge(Vec2::ZERO).all() && p.cmple(size).all()))
    {
        Some(i) => Err(format!(
            "draw-pathway[{i}]: outside the {}x{} arena",
            size.x, size.y
        )),
        None => Ok(()),
    }
}
