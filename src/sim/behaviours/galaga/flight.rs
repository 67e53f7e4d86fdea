//! Flying the paths: each tick a ship runs its path's step list from where it is (fly, fly
//! until a height, aim, wrap, jump, home); and the overlay's preview of what is left of it.

use super::home::home;
use super::ship::{Flight, Ship, ShipState, dir};
use super::stage::{Stage, WRAP_Y, clamp_inside};
use crate::data::patterns::Step;
use glam::{DVec2, Vec2};
use std::f64::consts::FRAC_PI_2 as FRAC_PI_2_64;

/// Longest an `until` step may fly before giving up on its height (s).
const UNTIL_LIMIT: f32 = 20.0;
/// Instant steps (aim, wrap, jump) one tick may run before it must fly.
const MAX_INSTANT_STEPS: usize = 8;

/// Whether a flight is on its last leg: straight home, at a `home` step, or past its path's end.
pub(super) fn is_home_step(stage: &Stage, f: &Flight) -> bool {
    match &f.path {
        None => true,
        Some(p) => matches!(
            stage.data.paths[&**p].steps.get(f.step),
            Some(Step::Home) | None
        ),
    }
}

/// Advance a ship along its flight for one tick (its exact position and heading); returns
/// whether it jumped (wrapped to the top).
pub(super) fn run_flight(stage: &Stage, s: &mut Ship, player: Vec2, dt: f32) -> bool {
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
