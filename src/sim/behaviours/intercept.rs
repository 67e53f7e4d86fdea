//! Intercept (Bourg & Seemann ch. 2): aim at the point where the prey will be when the predator
//! closes the range. Closing velocity `Vr = Vprey − Vpred`, range `Sr = Sprey − Spred`, time to
//! close `Tc = |Sr| / |Vr|` (capped), aim point `St = Sprey + Vprey·Tc`. When the predator is
//! already ahead of the prey (the prey runs toward it), or the closing speed is near zero, the
//! prediction is useless and the predator falls back to plain line-of-sight seek.

use super::decision::{Decision, Me};
use super::seek;
use crate::data::tuning::InterceptTuning;
use crate::sim::space::Senses;
use glam::Vec2;

/// Mode 4: seek the predicted meeting point, noting the time to close `tc` when it predicted
/// (`flip`: flee where the player would meet the agent).
#[inline(always)]
pub fn steer(
    me: Me,
    tc: &mut Option<f32>,
    flip: bool,
    t: &InterceptTuning,
    senses: &Senses,
) -> Decision {
    let (body, max_speed, player) = (me.body, me.vehicle.max_speed, senses.player);
    if flip {
        *tc = None;
        let threat = threat_point(
            body.pos,
            max_speed,
            player.pos,
            player.vel,
            t.max_prediction_time,
        );
        return Decision::steer(seek::flee(body, threat, max_speed), threat, "evade-predict");
    }
    let prediction = predict(
        body.pos,
        body.vel,
        player.pos,
        player.vel,
        t.max_prediction_time,
    );
    // The prey cannot run through the walls, so neither does the aim point.
    let aim = prediction.aim.clamp(Vec2::ZERO, senses.arena.size());
    *tc = prediction.tc;
    Decision::steer(seek::seek(body, aim, max_speed), aim, prediction.state())
}

/// Closing speeds below this (px/s) make `Tc` meaningless.
const MIN_CLOSING_SPEED: f32 = 1.0;
/// The predator counts as ahead of the prey when it lies within this angle of the prey's course
/// (cosine of 30°): the prey is running at it, and seeking its current position meets it head-on.
const AHEAD_COS: f32 = 0.866;

/// What the predator aims at and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    pub aim: Vec2,
    /// Time to close; `None` on the line-of-sight fallback.
    pub tc: Option<f32>,
}

impl Prediction {
    pub fn state(&self) -> &'static str {
        if self.tc.is_some() {
            "predict"
        } else {
            "los-fallback"
        }
    }
}

pub fn predict(
    pred_pos: Vec2,
    pred_vel: Vec2,
    prey_pos: Vec2,
    prey_vel: Vec2,
    max_time: f32,
) -> Prediction {
    let vr = prey_vel - pred_vel;
    let sr = prey_pos - pred_pos;
    let to_pred = pred_pos - prey_pos;
    let ahead = to_pred.dot(prey_vel) > AHEAD_COS * to_pred.length() * prey_vel.length();
    let closing = vr.length();
    if ahead || closing < MIN_CLOSING_SPEED || !closing.is_finite() {
        return Prediction {
            aim: prey_pos,
            tc: None,
        };
    }
    let tc = (sr.length() / closing).min(max_time.max(0.0));
    Prediction {
        aim: prey_pos + prey_vel * tc,
        tc: Some(tc),
    }
}

/// For evading by prediction: where the threat will be after the look-ahead time
/// `distance / (my speed + its speed)` (Buckland's evade), capped at `max_time`. Dividing by the
/// sum keeps the predicted point in front of the threat's current position as seen from here: with
/// `distance / my speed` alone, a faster threat coming head-on is predicted *behind* the agent,
/// which then flees straight at it.
pub fn threat_point(
    me: Vec2,
    speed: f32,
    threat_pos: Vec2,
    threat_vel: Vec2,
    max_time: f32,
) -> Vec2 {
    let closing = speed.max(0.0) + threat_vel.length();
    let t = if closing > 0.0 && closing.is_finite() {
        (me.distance(threat_pos) / closing).min(max_time.max(0.0))
    } else {
        0.0
    };
    threat_pos + threat_vel * t
}
