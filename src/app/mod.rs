//! The window: a thin layer that captures input into a plain value, applies it to the world,
//! advances the fixed-step clock and draws the interpolated state. macroquad lives only here.

pub mod burst;
pub mod camera;
pub mod draw;
pub mod files;
pub mod forces;
pub mod group_overlay;
pub mod guards;
pub mod help;
pub mod hud;
pub mod keys;
pub mod labels;
pub mod layout;
pub mod legend;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod palette;
pub mod panel;
pub mod pathview;
pub mod pathways;
pub mod replay;
pub mod saves;
pub mod smooth;
pub mod style;
pub mod text;
pub mod trails;
pub mod view;

use crate::data::settings::Flags;
use crate::data::{self, DataSources};
use crate::sim::clock::{Clock, TIME_SCALES};
use crate::sim::command::{Command, Reloaded};
use crate::sim::mode::Mode;
use crate::sim::player::Script;
use crate::sim::replay::check_command;
use crate::sim::space::arena::Obstacle;
use crate::sim::world::{Input, World, WorldConfig};
use camera::Camera;
use files::{RecordFile, create_record, write_record};
use keys::{Action, BINDINGS};
use layout::{Column, TUNING_MIN};
use macroquad::math::Rect;
use macroquad::prelude::{get_frame_time, get_time, next_frame, screen_height, screen_width};
use std::path::PathBuf;
use view::{SHAKE_SECONDS, View};

/// Seconds without input before attract mode takes over (`--idle-seconds` changes it).
pub const IDLE_SECONDS: f64 = 15.0;
/// Who drives the player in attract mode.
const DEMO_SCRIPT: Script = Script::Flee;

/// Radius of the circle a left click adds (px).
const CLICK_OBSTACLE_RADIUS: f32 = 24.0;

/// Everything the window needs to start.
#[derive(Debug, Clone)]
pub struct AppConfig {
    pub world: WorldConfig,
    /// The data files the command line names.
    pub flags: Flags,
    /// The settings folder, read before `assets/` and written by every save.
    pub settings: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub quit_after: Option<f64>,
    /// Seconds without input before attract mode.
    pub idle_seconds: f64,
    /// A line shown as an error from the start (the page: why its address was not read).
    pub start_error: Option<String>,
    /// A line shown as a status at the start (the page: that it writes no files).
    pub start_status: Option<String>,
}

/// Open the window and run until Esc, the window closing, or `--quit-after`.
pub fn run(config: AppConfig) -> Result<(), String> {
    // Fail before the window opens when the record cannot be written (exit 2, one line).
    let recorder = create_record(config.record.as_deref())?;
    open_window(game(config, recorder))
}

/// Open the window and run `main` in it; the one-line reason when no window can be opened.
fn open_window(main: impl std::future::Future<Output = ()> + 'static) -> Result<(), String> {
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "steering-arena".to_string(),
            window_width: 1280,
            window_height: 800,
            window_resizable: true,
            ..Default::default()
        },
        // Room for a whole agent batch in one draw call (see `style::Batch`).
        draw_call_vertex_capacity: style::BATCH_VERTICES + 1,
        draw_call_index_capacity: style::BATCH_VERTICES + 1,
        ..Default::default()
    };
    start(conf, main)
}

/// In the browser the page's loader runs the frames: nothing to check, and miniquad's own panic
/// hook (which writes to the browser's console) must stay in place.
#[cfg(target_arch = "wasm32")]
fn start(
    conf: macroquad::conf::Conf,
    main: impl std::future::Future<Output = ()> + 'static,
) -> Result<(), String> {
    macroquad::Window::from_config(conf, main);
    Ok(())
}

#[cfg(not(target_arch = "wasm32"))]
fn start(
    conf: macroquad::conf::Conf,
    main: impl std::future::Future<Output = ()> + 'static,
) -> Result<(), String> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(
            "no display to open the window on (DISPLAY is not set); `steering-arena sim` runs \
             without one"
                .to_string(),
        );
    }
    // miniquad panics when it cannot open the display (a DISPLAY naming no server): turn that
    // into the one-line error every other start-up failure gets.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, main);
    }));
    std::panic::set_hook(previous);
    opened.map_err(|e| {
        let why = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown reason".to_string());
        format!(
            "cannot open the window: {}",
            crate::data::one_line(why.trim())
        )
    })
}

async fn game(config: AppConfig, mut recorder: Option<RecordFile>) {
    text::setup();
    let (mut saves, best_error) = saves::Saves::new(config.flags.clone(), config.settings.clone());
    let (data, hashes, error) = saves.initial_data();
    let error = error.or(best_error).or(config.start_error.clone());
    let mut world = World::new(&data, config.world.clone());
    world.events.push(format!("mode:{}", world.mode.name()));
    let mut view_error = error;
    if let Some(r) = recorder.as_mut()
        && let Err(e) = r.header(&world, &hashes)
    {
        view_error = Some(format!("record: {e}"));
        recorder = None;
    }
    let mut clock = Clock::new(1.0 / world.dt);
    let mut view = View {
        overlay: false,
        grid: false,
        tuning: false,
        help: false,
        help_page: 0,
        legend: legend::Seen::default(),
        paused: false,
        scale_index: TIME_SCALES.iter().position(|&s| s == 1.0).unwrap_or(0),
        error: view_error,
        status: None,
        tick_ms: 0.0,
        frame_ms: 0.0,
        chart: false,
        demo: false,
        replaying: false,
        shake: 0.0,
        kept: String::new(),
        headings: Default::default(),
        sketch: Default::default(),
    };
    if let Some(status) = &config.start_status {
        view.say(status.clone());
    }
    let started = get_time();
    let mut last_input = started;
    let mut screenshots = 0u32;
    let mut trails = trails::Trails::default();
    let mut tuning_panel = panel::Panel::default();
    let mut batch = style::Batch::default();
    let mut picks = Vec::new();
    let mut bursts = burst::Bursts::default();
    loop {
        let (mx, my) = macroquad::input::mouse_position();
        let over_ui = view.tuning && tuning_panel.contains(mx, my);
        let input = keys::capture(over_ui);
        let cam = Camera::fit(world.arena.size(), layout::of(&world, &view).arena);
        // Attract mode: after a spell without input the autopilot flees for the player; any key
        // hands control back. An explicit `--player` script is always the autopilot.
        if input.any_key {
            last_input = get_time();
            if view.demo {
                view.demo = false;
                world.apply(Command::Note("demo:off".to_string()));
            }
        } else if config.world.script == Script::Keys
            && !view.demo
            && get_time() - last_input >= config.idle_seconds
        {
            view.demo = true;
            world.apply(Command::Note("demo:on".to_string()));
        }
        let mut step = false;
        let mut shoot = false;
        let mut quit = false;
        for action in &input.actions {
            match *action {
                Action::Move(_) => {}
                Action::Mode(m) => {
                    keep_best(&mut saves, &mut view);
                    world.apply(Command::Mode(m));
                    clock.reset();
                }
                Action::Alternate(key) => {
                    if world.mode.alternate_key() == Some(key) {
                        world.alternate();
                    } else if key == 'T' && world.mode.has_lead() {
                        world.apply(Command::Lead(!world.lead));
                    } else if key == 'T' && world.mode == Mode::Crowd {
                        world.apply(Command::Scene(world.walking.scene.next()));
                    } else if key == 'V' && world.mode == Mode::Crowd {
                        world.apply(Command::Avoid(world.walking.method.next()));
                    } else if key == 'V' && world.mode == Mode::Formation {
                        world.apply(Command::Shape(world.formation.shape.next()));
                    } else if key == 'V' && world.mode == Mode::Swarm {
                        let s = world.next_book_swarm();
                        let (p, o) = (s.player, s.obstacles);
                        let rest = if p.on() || o.on() {
                            format!(
                                "; player {} {} {} {}; obstacles {} {} {} {}",
                                p.a, p.b, p.n, p.m, o.a, o.b, o.n, o.m
                            )
                        } else {
                            String::from("; the arena's pull and obstacle push")
                        };
                        view.say(format!(
                            "the book's {}: A {}, B {}, n {}, m {}, range {}{rest}",
                            s.name, s.a, s.b, s.n, s.m, s.range
                        ));
                    } else if key == 'V' && world.mode == Mode::Flock {
                        let v = world.next_book_view();
                        view.say(format!(
                            "the book's {} view: {} px, {} degrees",
                            v.name, v.radius, v.fov_deg
                        ));
                    }
                }
                // (In `pathway` the mouse draws pathways instead.)
                Action::AddObstacle if world.mode == Mode::Pathway => {
                    view.sketch.begin(cam.to_world(input.mouse), &world);
                }
                Action::RemoveObstacle if world.mode == Mode::Pathway => {
                    world.apply(Command::RestorePathway);
                }
                Action::AddObstacle => {
                    let at = cam.to_world(input.mouse);
                    let add = Command::AddObstacle(Obstacle::Circle {
                        center: at,
                        radius: CLICK_OBSTACLE_RADIUS,
                    });
                    if world.arena.contains(at) && check_command(&add, &world).is_ok() {
                        world.apply(add);
                    }
                }
                Action::RemoveObstacle => {
                    world.apply(Command::RemoveObstacle(cam.to_world(input.mouse)));
                }
                Action::SaveArena => {
                    let message = saves.save_arena(&world.arena_to_save());
                    view.say(message);
                }
                Action::NextArena => {
                    keep_best(&mut saves, &mut view);
                    saves.next_arena();
                    reload(&mut world, &saves.sources, &mut view);
                    view.say(format!("arena {}", saves.arena_label()));
                    clock.reset();
                }
                Action::RestoreDefaults => {
                    restore_defaults(&mut world, &mut saves, &mut view);
                    clock.reset();
                }
                Action::Overlay => view.overlay = !view.overlay,
                Action::Chart => view.chart = !view.chart,
                Action::Smooth => view.headings.toggle(),
                Action::Combine => {
                    if let Some(method) = world.combine_method() {
                        world.apply(Command::Combine(method.next()));
                    }
                }
                Action::Grid => view.grid = !view.grid,
                Action::Tuning => view.tuning = !view.tuning,
                Action::Help => view.turn_help(&help_rows()),
                Action::Pause => view.paused = !view.paused,
                Action::Step => step = view.paused,
                Action::Slower => view.scale_index = view.scale_index.saturating_sub(1),
                Action::Faster => {
                    view.scale_index = (view.scale_index + 1).min(TIME_SCALES.len() - 1)
                }
                Action::MoreAgents => {
                    world.apply(Command::Agents(keys::more_agents(world.agents.len())))
                }
                Action::FewerAgents => {
                    world.apply(Command::Agents(keys::fewer_agents(world.agents.len())))
                }
                Action::Reset => {
                    keep_best(&mut saves, &mut view);
                    world.apply(Command::Reset);
                    clock.reset();
                }
                Action::Reload => reload(&mut world, &saves.sources, &mut view),
                Action::Screenshot => shoot = true,
                // A page has no process to end: its tab closes it.
                Action::Quit if cfg!(target_arch = "wasm32") => {
                    view.say("Esc: close the page's tab to quit".to_string())
                }
                Action::Quit => quit = true,
            }
        }
        if let Some(draw) = view
            .sketch
            .follow(input.left_held, cam.to_world(input.mouse), &world)
        {
            world.apply(draw);
        }
        let out_of_time = config.quit_after.is_some_and(|s| get_time() - started >= s);
        if quit || out_of_time {
            keep_best(&mut saves, &mut view);
            break;
        }

        world.player.script = if view.demo {
            DEMO_SCRIPT
        } else {
            config.world.script
        };
        let frame_seconds = get_frame_time();
        view.frame_ms = frame_seconds * 1000.0;
        view.shake = (view.shake - frame_seconds).max(0.0);
        let catches_before = world.score.catches;
        // A best counts only the player's own play at the keys.
        let playing = config.world.script == Script::Keys && !view.demo;
        let frame = clock.advance(frame_seconds, view.time_scale());
        let tick_input = Input {
            move_dir: input.move_dir,
        };
        let mut ticks_run = 0u32;
        let tick_started = get_time();
        if view.paused {
            // Time still passes while paused: the record shows it, the world does not move.
            if step {
                world.tick(&tick_input);
                ticks_run += 1;
            }
            for _ in 0..frame.ticks.max(u32::from(step)) {
                write_record(&mut recorder, &mut world, true, &mut view);
            }
        } else {
            for _ in 0..frame.ticks {
                // (Before the tick: a catch in it ends the time survived.)
                saves.offer(&world, playing);
                let (catches, tags) = (world.score.catches, world.score.tags);
                world.tick(&tick_input);
                if world.score.catches > catches || world.score.tags > tags {
                    bursts.add(world.player.pos, world.score.catches == catches);
                }
                trails.record(&world);
                view.headings.record(&world);
                ticks_run += 1;
                write_record(&mut recorder, &mut world, false, &mut view);
            }
        }
        if ticks_run > 0 {
            view.tick_ms = ((get_time() - tick_started) * 1000.0) as f32 / ticks_run as f32;
        }
        saves.offer(&world, playing);
        if world.score.catches > catches_before {
            view.shake = SHAKE_SECONDS;
            keep_best(&mut saves, &mut view);
        }
        // A burst keeps the world's time: it stands still while paused, slows with the world.
        if !view.paused {
            bursts.advance(frame_seconds * view.time_scale());
        }
        view.kept = saves.hud_line(&world);
        if recorder.is_none() {
            world.forget_log();
        }

        let alpha = if view.paused { 1.0 } else { frame.alpha };
        let room = scene(
            &mut world, &mut view, &trails, &mut picks, &mut batch, alpha,
        );
        let mut cam = Camera::fit(world.arena.size(), layout::of(&world, &view).arena);
        cam.offset += view.shake_offset();
        bursts.draw(&cam);
        let save_to = saves.tuning_path().map_or_else(
            || format!("nothing: {}", data::settings::no_folder_reason()),
            |p| p.display().to_string(),
        );
        match room {
            Some(room) if view.tuning => match tuning_panel.show(&mut world, &save_to, room) {
                Some(panel::Pressed::Save) => {
                    let message = saves.save_tuning(&world.tuning);
                    view.say(message);
                }
                Some(panel::Pressed::Defaults) => {
                    restore_defaults(&mut world, &mut saves, &mut view)
                }
                None => {}
            },
            _ => tuning_panel.hide(),
        }
        if view.help {
            help::draw(
                &help_rows(),
                view.help_page,
                screen_width(),
                screen_height(),
            );
        }
        if shoot {
            screenshots += 1;
            match files::screenshot(screenshots) {
                Ok(path) => {
                    world.apply(Command::Note(format!("screenshot:{path}")));
                    view.say(format!("saved {path}"));
                }
                Err(e) => view.say(format!("screenshot failed: {e}")),
            }
        }
        // The page's title names the mode (what a test in the browser can read).
        #[cfg(target_arch = "wasm32")]
        page::show_mode(world.mode);
        next_frame().await;
    }
    if let Some(r) = recorder.as_mut() {
        let _ = r.flush();
    }
}

/// The key table's rows for the help overlay.
fn help_rows() -> Vec<(&'static str, &'static str)> {
    BINDINGS.iter().map(|b| (b.label, b.help)).collect()
}

/// The world as the window shows it: agents and overlays, the HUD, and in the side column the
/// panels the mode and the view ask for (live play and the replay window draw the same).
/// Returns the room the column leaves for the tuning panel.
fn scene(
    world: &mut World,
    view: &mut View,
    trails: &trails::Trails,
    picks: &mut Vec<(usize, u32)>,
    batch: &mut style::Batch,
    alpha: f32,
) -> Option<Rect> {
    draw::trace_picks(world, view.overlay, picks);
    world.trace_agents(picks, get_time);
    let world = &*world;
    let layout = layout::of(world, view);
    let mut labels = labels::Labels::default();
    draw::world(world, view, trails, batch, alpha, &layout, &mut labels);
    hud::draw(world, view);
    let mut column = Column::new(layout.column?, if view.tuning { TUNING_MIN } else { 0.0 });
    // The mode's own box first, then the legend, then the chart.
    if world.mode == Mode::Mixed {
        let kinds = hud::kinds(world);
        if let Some(r) = column.take(hud::kinds_height(kinds.len()), "kinds") {
            hud::kinds_panel(&kinds, r);
        }
    } else if world.mode == Mode::Pathfind {
        let lines = pathview::wrapped(world, column.width());
        if let Some(r) = column.take(pathview::height(lines.len()), "search") {
            pathview::panel(&lines, r);
        }
    } else if world.mode == Mode::Fsm && view.overlay {
        if let Some(r) = column.take(guards::DIAGRAM_HEIGHT, "state machine") {
            guards::diagram(world, r);
        }
    } else if world.mode == Mode::Swarm
        && view.overlay
        && let Some(r) = column.take(group_overlay::CURVE_HEIGHT, "F(r)")
    {
        group_overlay::curve(world, r);
    }
    if view.overlay {
        let mut now = Vec::new();
        if world.mode.moves_together() {
            now.push(legend::Key::new(
                palette::VELOCITY,
                legend::Mark::Line,
                "velocity",
            ));
            group_overlay::keys(world, &mut now);
        } else {
            draw::keys(world, &mut now);
            if world.mode == Mode::Pathfind {
                pathview::keys(world, &mut now);
            }
            if world.mode == Mode::Fsm {
                guards::keys(world, &mut now);
            }
        }
        forces::keys(world, &mut now);
        let keys = view.legend.update(world.mode, world.flip, now);
        let (full, least) = (legend::height(keys, column.width()), legend::LEAST);
        if let Some(r) = column.take_within(full, least, "legend") {
            legend::panel(keys, r);
        }
    }
    if view.chart {
        let mut caught: Vec<_> = world.score.log.iter().map(|c| c.kind).collect();
        caught.sort_unstable_by_key(|k| k.word());
        caught.dedup();
        if let Some(r) = column.take(hud::chart_height(caught.len()), "chart") {
            hud::chart(world, r);
        }
    }
    Some(column.rest())
}

/// Write the best times if one was beaten; a failure is shown, the game goes on.
fn keep_best(saves: &mut saves::Saves, view: &mut View) {
    if let Some(e) = saves.keep_best() {
        view.error = Some(e);
    }
}

/// Ctrl+R or the panel's Defaults: set the saved files aside and read the data again.
fn restore_defaults(world: &mut World, saves: &mut saves::Saves, view: &mut View) {
    match saves.restore_defaults() {
        Ok(message) => {
            reload(world, &saves.sources, view);
            if view.error.is_none() {
                view.say(message);
            }
        }
        Err(e) => view.say(format!("defaults not restored: {e}")),
    }
}

/// F5: load every data file; on success restart on the new data, else keep running and show why.
fn reload(world: &mut World, sources: &DataSources, view: &mut View) {
    match sources.load_hashed() {
        Ok((data, hashes)) => {
            world.apply(Command::Reload(Reloaded {
                files: crate::sim::record::hash_map(&hashes),
                data: Some(Box::new(data)),
            }));
            view.error = None;
            view.say("reloaded the data files".to_string());
        }
        Err(e) => {
            world.apply(Command::Note("reload-error".to_string()));
            view.error = Some(format!("{e} (kept the running data)"));
        }
    }
}
