//! How `bench` times a world: building and settling it, ticking it in turns beside the worlds it
//! is compared with, and the memory floor over the same agents.

use super::Forms;
use super::case::{Case, Form};
use super::report::{Run, TickMs};
use crate::data::DataSet;
use crate::data::arena::with_spaced_obstacles;
use crate::data::walkers::{Avoidance, CrowdScene};
use crate::sim::agent::Behaviour;
use crate::sim::behaviours::flock::Neighbourhood;
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::world::{Input, World, WorldConfig};
use std::hint::black_box;
use std::time::Instant;

/// Ticks run before timing starts (spawns settle, stages launch).
const WARM_UP_TICKS: u32 = 30;
/// Smallest gap between generated obstacles (px): they never overlap; some gaps are too narrow
/// to pass, as in any crowded field.
const OBSTACLE_GAP: f32 = 4.0;
/// Wall-clock length of a turn when runs are timed side by side (ms).
const SLICE_MS: f64 = 40.0;

/// The spread form's arena.
const ARENA_10X: &str = include_str!("../../assets/arena-10x.json");

/// A world being timed: its tick times so far and how many it is to have.
pub(super) struct Timing {
    world: World,
    input: Input,
    ticks: u32,
    times: Vec<f64>,
    /// The flock: the neighbours its boids heeded, summed over the ticks run since the warm-up,
    /// and those ticks.
    heeded: u64,
    ticked: u32,
}

impl Timing {
    /// The case's world, settled by the warm-up ticks.
    pub(super) fn new(
        data: &DataSet,
        case: &Case,
        seed: u64,
        seconds: f64,
        player: Script,
        forms: Forms,
    ) -> Timing {
        let mut data = data.clone();
        match case.form {
            Form::Plain => {}
            Form::Topological => data.tuning.flock.neighbourhood = Neighbourhood::Topological,
            Form::Spread => {
                data.arena = crate::data::arena::parse(ARENA_10X)
                    .expect("the built-in spread arena is valid");
            }
            Form::Avoid(_) => {}
        }
        if let Some(k) = case.obstacles {
            let mut bare = data.arena.clone();
            bare.obstacles.clear();
            data.arena = with_spaced_obstacles(&bare, k, seed, OBSTACLE_GAP);
        }
        let config = WorldConfig {
            mode: case.mode,
            seed,
            agents: Some(case.agents),
            flip: forms.flip,
            script: player,
            order: forms.order,
            fixed_arena: case.form == Form::Topological,
            scene: forms.scene.unwrap_or(if case.mode == Mode::Crowd {
                CrowdScene::Crossing
            } else {
                CrowdScene::default()
            }),
            avoid: match case.form {
                Form::Avoid(a) => a,
                Form::Plain | Form::Topological | Form::Spread => Avoidance::default(),
            },
            combine: forms.combine,
            ..WorldConfig::default()
        };
        let mut world = World::new(&data, config);
        let input = Input::default();
        for _ in 0..WARM_UP_TICKS {
            world.tick(&input);
            world.events.clear();
        }
        let ticks = ((seconds * f64::from(world.config.tick_hz)).round() as u32).max(1);
        Timing {
            world,
            input,
            ticks,
            times: Vec::with_capacity(ticks as usize),
            heeded: 0,
            ticked: 0,
        }
    }

    fn done(&self) -> bool {
        self.times.len() >= self.ticks as usize
    }

    fn tick(&mut self) -> f64 {
        let started = Instant::now();
        self.world.tick(&self.input);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        // What the window and `sim` do with each tick's events (record or drop them), untimed.
        self.world.events.clear();
        self.heeded += self
            .world
            .agents
            .iter()
            .map(|a| match &a.behaviour {
                Behaviour::Boid(mind) => u64::from(mind.forces.heeded),
                _ => 0,
            })
            .sum::<u64>();
        self.ticked += 1;
        ms
    }

    /// Timed ticks until the turn has lasted `slice_ms` or the world has all its ticks.
    fn turn(&mut self, slice_ms: f64) {
        let mut spent = 0.0;
        while !self.done() && spent < slice_ms {
            let ms = self.tick();
            self.times.push(ms);
            spent += ms;
        }
    }

    /// The figures of the timed ticks, and the floor over the same agents.
    pub(super) fn finish(mut self, case: &Case) -> Run {
        let agents = self.world.agents.len().max(1);
        let floor = floor_ns(&mut self.world, self.ticks);
        let mut times = self.times;
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let pick =
            |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        let ns = mean * 1e6 / agents as f64;
        let grows = crate::sim::world::grows(self.world.mode);
        let size = self.world.arena.size();
        // (Every tick since the warm-up, the untimed first of each turn too.)
        let boid_ticks = (f64::from(self.ticked) * agents as f64).max(1.0);
        Run {
            mode: case.mode.name().to_string(),
            form: case.form.name(),
            agents: self.world.agents.len(),
            obstacles: self.world.arena.obstacles().len(),
            ticks: self.ticks,
            tick_ms: TickMs {
                mean: round3(mean),
                p50: round3(pick(0.5)),
                p99: round3(pick(0.99)),
            },
            ns_per_agent_tick: round1(ns),
            floor_ns_per_agent_tick: round1(floor),
            ratio_to_floor: round1(ns / floor.max(1e-9)),
            rounds_ns_per_agent_tick: Vec::new(),
            arena_px: grows.then_some(size.to_array()),
            px2_per_agent: grows
                .then(|| round1(f64::from(size.x) * f64::from(size.y) / agents as f64)),
            heeded_mean: (self.world.mode == Mode::Flock)
                .then(|| round1(self.heeded as f64 / boid_ticks)),
            mean_ms: mean,
        }
    }
}

/// Time the worlds in turns until each has its ticks. A world alone runs straight through; side
/// by side, each turn starts with an untimed tick (see the notes of `bench`).
pub(super) fn time_in_turns(timings: &mut [Timing]) {
    if let [alone] = timings {
        alone.turn(f64::INFINITY);
        return;
    }
    while timings.iter().any(|t| !t.done()) {
        for t in timings.iter_mut().filter(|t| !t.done()) {
            t.tick();
            t.turn(SLICE_MS);
        }
    }
}

/// Nanoseconds per agent to integrate every agent's position in place, over the same agents.
fn floor_ns(world: &mut World, ticks: u32) -> f64 {
    let dt = world.dt;
    let agents = world.agents.len().max(1);
    let started = Instant::now();
    for _ in 0..ticks {
        for a in world.agents.iter_mut() {
            a.body.pos += a.body.vel * dt;
        }
        black_box(&world.agents);
    }
    started.elapsed().as_secs_f64() * 1e9 / (f64::from(ticks) * agents as f64)
}

fn round3(v: f64) -> f64 {
    (v * 1e3).round() / 1e3
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::case::PLAYER;
    use crate::sim::mode::Mode;

    #[test]
    fn worlds_in_turns_each_get_their_ticks_and_one_untimed_tick_a_turn() {
        let data = crate::data::built_in();
        let case = |agents| Case {
            mode: Mode::Wander,
            agents,
            obstacles: None,
            form: Form::Plain,
        };
        let cases = [case(50), case(500)];
        let mut timings: Vec<Timing> = cases
            .iter()
            .map(|c| Timing::new(&data, c, 1, 0.5, PLAYER, Forms::default()))
            .collect();
        time_in_turns(&mut timings);
        for t in &timings {
            assert_eq!(t.ticks, 30, "0.5 s at 60 Hz");
            assert_eq!(t.times.len(), 30);
            // Warm-up, timed ticks, and an untimed tick opening each turn (at least one turn).
            let untimed = t.world.tick - u64::from(WARM_UP_TICKS) - 30;
            assert!((1..=30).contains(&untimed), "{untimed} turns");
        }
        // Alone, a world runs straight through: no untimed ticks.
        let mut alone = vec![Timing::new(
            &data,
            &case(50),
            1,
            0.5,
            PLAYER,
            Forms::default(),
        )];
        time_in_turns(&mut alone);
        assert_eq!(alone[0].world.tick, u64::from(WARM_UP_TICKS) + 30);
        let run = alone.pop().expect("one timing").finish(&case(50));
        assert_eq!((run.agents, run.ticks), (50, 30));
        assert!(run.tick_ms.p50 <= run.tick_ms.p99);
    }
}
