//! Homing: the last leg of every flight, from wherever the ship is to its (moving) slot.

use super::ship::{Ship, ShipState, dir};
use super::stage::{Stage, clamp_inside};
use std::f64::consts::{FRAC_PI_2 as FRAC_PI_2_64, PI as PI_64, TAU as TAU_64};

/// Slowest and proportional speed of the final approach to a slot: slowing near it keeps the
/// turn-limited ship from circling it.
const HOME_MIN_SPEED: f32 = 60.0;
const HOME_SLOWING: f32 = 3.0;

/// Fly toward the (moving) slot, turning at most the home turn rate and slowing near it; snap
/// onto it once within one tick's travel.
///
/// Near the slot the ship may also have to slow below [`HOME_MIN_SPEED`]: a slot off to the
/// side and closer than the ship's turning circle can never be reached by turning, and the ship
/// would circle it for good, holding up the next wave (in a fleet of thousands some ship meets
/// such a slot). The circle
/// through the slot that leaves the ship along its heading has radius `d² / 2·lateral`; flying
/// no faster than the turn rate times that keeps the slot within reach.
pub(super) fn home(stage: &Stage, s: &mut Ship, dt: f64) {
    let target = stage.slot_position(s.slot).as_dvec2();
    let to = target - s.pos;
    let dist = to.length();
    let min = f64::from(HOME_MIN_SPEED);
    let turn_rate = f64::from(stage.data.home_turn_rate).to_radians();
    let lateral = to.dot(dir(s.heading).perp()).abs();
    let within_turn = if lateral > 0.0 {
        turn_rate * dist * dist / (2.0 * lateral)
    } else {
        f64::INFINITY
    };
    let speed = f64::from(s.speed)
        .max(min)
        .min((dist * f64::from(HOME_SLOWING)).max(min))
        .min(within_turn);
    if dist <= speed * dt {
        s.state = ShipState::Formation;
        s.flight = None;
        s.heading = FRAC_PI_2_64;
        s.pos = target;
        return;
    }
    let want = to.y.atan2(to.x);
    let diff = (want - s.heading + PI_64).rem_euclid(TAU_64) - PI_64;
    let max_turn = turn_rate * dt;
    s.heading += diff.clamp(-max_turn, max_turn);
    s.pos = clamp_inside(stage, s.pos + dir(s.heading) * speed * dt).0;
}
