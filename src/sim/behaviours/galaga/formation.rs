//! The formation's motion: it sways from side to side while it fills, then breathes in and out,
//! and each slot moves with it.

use super::carrier::Carrier;
use super::ship::ShipState;
use super::stage::Stage;
use glam::Vec2;
use std::f32::consts::TAU;

impl Stage {
    /// The formation's sideways shift and its breathing scale now.
    pub fn formation_motion(&self) -> (f32, f32) {
        let f = &self.data.formation;
        match self.breathe_from {
            Some(b) => {
                let phase = TAU * (self.t - b) / f.breathe_period;
                (0.0, 1.0 + f.breathe * (1.0 - phase.cos()) / 2.0)
            }
            None => (
                f.sway * self.scale * (TAU * self.t / f.sway_period).sin(),
                1.0,
            ),
        }
    }

    /// Where slot `i` is now: top centre, shifted by the sway, its offset scaled by the breath
    /// (so the outer columns and lower rows move most).
    pub fn slot_position(&self, i: usize) -> Vec2 {
        let (shift, scale) = self.formation_motion();
        let slot = &self.slots[i];
        let at = Vec2::from(self.data.formation.top)
            + Vec2::new(shift, 0.0)
            + slot.origin
            + slot.offset * scale;
        // A formation wider than a small arena is squeezed against its walls.
        self.inside(at.as_dvec2()).as_vec2()
    }
}

/// Ships in formation sit exactly on their slot; the formation sways until full, then breathes
/// (starting as the sway passes through the centre, so nothing jumps).
pub(super) fn update_formation(stage: &mut Stage, fleet: &[impl Carrier], dt: f32) {
    // (Once complete, the stage stays so: the fleet is not gone through again.)
    let all_home = stage.complete_at.is_none()
        && stage.next_wave >= stage.data.waves.len()
        && fleet.iter().all(|a| a.ship().state == ShipState::Formation);
    if all_home {
        stage.complete_at = Some(stage.t);
    }
    if stage.complete_at.is_some() && stage.breathe_from.is_none() {
        let f = &stage.data.formation;
        let before = (TAU * (stage.t - dt) / f.sway_period).sin();
        let now = (TAU * stage.t / f.sway_period).sin();
        if before.signum() != now.signum() || f.sway == 0.0 {
            stage.breathe_from = Some(stage.t);
        }
    }
}
