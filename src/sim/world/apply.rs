//! Applying a command: the one way the window and `sim` change a running world between ticks
//! (see `sim::command`), which also keeps the command for the record.

use super::World;
use crate::data::crowds::{BookSwarm, BookView};
use crate::data::tuning::SLIDERS;
use crate::sim::command::{Command, SliderPath};

impl World {
    /// Apply one command and keep it for the record (the recorder takes them with each line).
    pub fn apply(&mut self, command: Command) {
        match &command {
            Command::Mode(m) => self.set_mode(*m),
            Command::Flip(on) => self.set_flip(*on),
            Command::Lead(on) => self.set_lead(*on),
            Command::Search(order) => self.set_order(*order),
            Command::Scene(s) => self.set_scene(*s),
            Command::Avoid(a) => self.set_avoidance(*a),
            Command::Shape(shape) => self.set_shape(*shape),
            Command::DrawPathway(points) => self.draw_pathway(points),
            Command::RestorePathway => self.restore_pathway(),
            Command::Combine(m) => self.set_combine(*m),
            Command::Reset => self.reset(),
            Command::Agents(n) => self.set_agent_count(*n),
            Command::AddObstacle(o) => self.add_obstacle(*o),
            Command::RemoveObstacle(p) => {
                self.remove_obstacle_at(*p);
            }
            Command::Tune(SliderPath(path), value) => {
                if let Some(s) = SLIDERS.iter().find(|s| s.path == *path)
                    && value.is_finite()
                {
                    (s.set)(&mut self.tuning, value.clamp(s.min, s.max));
                }
            }
            Command::Reload(r) => {
                if let Some(data) = &r.data {
                    self.reload(data);
                }
            }
            Command::Note(event) => self.events.push(event.clone()),
        }
        self.commands.push(command);
        // (A paused world shows what the change did.)
        self.traces_stale();
    }
}

impl World {
    /// `V` in the flock: the book's next view (see
    /// [`BOOK_VIEWS`](crate::data::crowds::BOOK_VIEWS)), set as two slider changes (the radius,
    /// then the angle) so the record keeps them and the sliders stay free.
    pub fn next_book_view(&mut self) -> BookView {
        let view = self.tuning.flock.next_book_view();
        for (path, value) in [
            ("flock.radius", view.radius),
            ("flock.fov_deg", view.fov_deg),
        ] {
            if let Some(command) = Command::tune(path, value) {
                self.apply(command);
            }
        }
        view
    }

    /// `V` in the swarm: the book's next setting (see
    /// [`BOOK_SWARMS`](crate::data::crowds::BOOK_SWARMS)), set as sixteen slider changes (see
    /// [`BookSwarm::settings`]) so the record keeps them and the sliders stay free.
    pub fn next_book_swarm(&mut self) -> BookSwarm {
        let s = self.tuning.swarm.next_book_swarm();
        for (path, value) in s.settings() {
            if let Some(command) = Command::tune(path, value) {
                self.apply(command);
            }
        }
        s
    }
}
