//! The overlay's bars of each force an agent combined in its last tick (`B`): read from the
//! tally its behaviour kept, for the traced agents only.

use super::World;
use crate::sim::agent::{Agent, Behaviour};
use crate::sim::trace::{ForceBar, Trace};

impl World {
    /// The agent's forces as its last tick combined them, in the modes that combine several.
    pub(super) fn trace_forces(&self, a: &Agent, out: &mut Trace) {
        if self.combine_method().is_none() {
            return;
        }
        let tally = match &a.behaviour {
            Behaviour::Avoid { walk, .. } => &walk.tally,
            Behaviour::Boid(mind) => &mind.tally,
            Behaviour::Walker(mind) => &mind.tally,
            Behaviour::Hide(h) => &h.tally,
            Behaviour::Member(m) => &m.tally,
            Behaviour::Pedestrian(w) => &w.tally,
            Behaviour::TileChase { .. }
            | Behaviour::TileLos { .. }
            | Behaviour::Los { .. }
            | Behaviour::Intercept { .. }
            | Behaviour::Evade(_)
            | Behaviour::Wander { .. }
            | Behaviour::Ship(_)
            | Behaviour::Pattern { .. }
            | Behaviour::TilePattern { .. }
            | Behaviour::Swarmer(_)
            | Behaviour::Path(_)
            | Behaviour::Guard(_)
            | Behaviour::Bodyguard(_) => return,
        };
        out.force_max = match &a.behaviour {
            // (A walker's parts are velocities, within its top speed.)
            Behaviour::Walker(mind) => mind.vehicle.max_speed,
            _ => a.behaviour.params(&self.tuning).max_force,
        };
        out.forces.extend(
            tally
                .iter()
                .map(|(name, size, used)| ForceBar { name, size, used }),
        );
    }
}
