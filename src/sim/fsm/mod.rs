//! The guards' finite state machines (Bourg & Seemann ch. 9): deciding *whether* to chase or
//! evade. The machine file (`data::fsm`) compiles into index tables ([`Machine`]); each guard
//! keeps a small [`GuardMind`] (its state, its clocks, where it last saw the player, its place on
//! its route); perception ([`Vision`], [`Hearing`], [`LookSchedule`]) tells it whether it sees the
//! player. Nothing here steers: a state names a behaviour and the world runs it.
//!
//! One guard's tick, in this order (the tick allocates nothing):
//! 1. `mind.advance(dt)` — its clocks run;
//! 2. when `schedule.due(tick, id)`: `mind.perceive(found, player)` with `found` from
//!    [`Vision::sees`] or [`Hearing::hears`];
//! 3. `let on_route = machine.route(mind.route).distance_to(pos) <= tuning.route_reach;` and
//!    `let c = mind.conditions(&machine, &tuning, powered, on_route);`
//! 4. `mind.think(&machine, &c, pos)` returns the transition that fired, if any (for the record's
//!    `state:ID:FROM>TO` and the diagram), and [`Tally::fired`] counts it;
//! 5. [`Tally::ticked`] counts the tick in `mind.state`, whose behaviour
//!    (`machine.behaviour(mind.state)`) steers the guard.

mod conditions;
mod guard;
mod machine;
mod perception;
mod route;
mod run;

pub use conditions::Conditions;
pub use guard::GuardMind;
pub use machine::{Fired, Machine, StateId, Tally, Transition};
pub use perception::{Hearing, LookSchedule, Vision, line_of_sight};
pub use route::{Route, RouteCursor, RouteSpot};
pub use run::{FsmRun, Pickup, Power};

/// Slack on the machine's clocks (s): a tick's `dt` in f32 may lie a hair under its true length
/// (1/50 s does), so n ticks could sum short of n ticks' time and cost a timed condition a tick.
pub const CLOCK_SLACK: f32 = 1e-4;
