//! `--record`: one JSON object per simulation tick (JSON Lines), the same in the window and `sim`.

use crate::sim::world::World;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize)]
struct Line<'a> {
    tick: u64,
    t: f64,
    mode: &'a str,
    paused: bool,
    player: Body,
    agents: Vec<AgentLine<'a>>,
    events: Vec<String>,
}

#[derive(Serialize)]
struct Body {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
}

#[derive(Serialize)]
struct AgentLine<'a> {
    id: u32,
    kind: &'a str,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    state: &'a str,
}

pub struct Recorder<W: Write> {
    out: W,
}

impl<W: Write> Recorder<W> {
    pub fn new(out: W) -> Self {
        Recorder { out }
    }

    /// Write the world's current state and the events gathered since the last line.
    pub fn write(&mut self, world: &mut World, paused: bool) -> io::Result<()> {
        let events = world.take_events();
        let line = Line {
            tick: world.tick,
            t: world.time(),
            mode: world.mode.name(),
            paused,
            player: Body {
                x: world.player.pos.x,
                y: world.player.pos.y,
                vx: world.player.vel.x,
                vy: world.player.vel.y,
            },
            agents: world
                .agents
                .iter()
                .map(|a| AgentLine {
                    id: a.id,
                    kind: a.behaviour.kind(),
                    x: a.body.pos.x,
                    y: a.body.pos.y,
                    vx: a.body.vel.x,
                    vy: a.body.vel.y,
                    state: world.state_word(a),
                })
                .collect(),
            events,
        };
        serde_json::to_writer(&mut self.out, &line)?;
        self.out.write_all(b"\n")
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
