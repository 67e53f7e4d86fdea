//! One tick of the stage: the next wave launches, the formation moves, dives begin, and every
//! ship flies its step.

use super::carrier::Carrier;
use super::dives::{follow_leader, schedule_dives};
use super::flight::run_flight;
use super::formation::update_formation;
use super::ship::{Flight, Ship, ShipState};
use super::stage::Stage;
use ::rand::Rng;
use glam::Vec2;
use std::f64::consts::FRAC_PI_2 as FRAC_PI_2_64;

/// How far behind the first each squadron's pairs leave, as a share of the pair interval: the
/// golden ratio's fractional part, stepped once per squadron (see `launch_waves`).
const INTERLEAVE: f32 = 0.618_034;

/// One tick of the whole stage. `settled` hears of each ship (its index and body) once it is
/// done for the tick: those flying on their own in index order, then the followers in index order.
pub fn tick<C: Carrier>(
    stage: &mut Stage,
    fleet: &mut [C],
    player: Vec2,
    dt: f32,
    rng: &mut impl Rng,
    mut settled: impl FnMut(usize, &C),
) {
    stage.t += dt;
    launch_waves(stage, fleet);
    update_formation(stage, fleet, dt);
    schedule_dives(stage, fleet, rng);
    // Leaders before followers: followers read their leader's new position. A ship that flies
    // on its own is moved and settled in one pass over the fleet; the followers are noted on
    // the way and done after it. (The scheduling above reads positions only, and a follower
    // moves only itself, so each ship settles as soon as it has moved: at 20,000 ships the
    // fleet's bodies and ships outgrow the caches, and each pass over them costs a trip to
    // memory.)
    stage.followers.clear();
    stage.followers.reserve(fleet.len());
    let mut in_flight = 0;
    for (i, a) in fleet.iter_mut().enumerate() {
        a.begin_tick();
        if a.ship().follow.is_some() {
            stage.followers.push(i);
            continue;
        }
        let (pos, jumped) = fly(stage, a.ship_mut(), player, dt);
        a.set_pos(pos);
        if jumped {
            a.jumped();
        }
        in_flight += settle(a, dt);
        settled(i, a);
    }
    for k in 0..stage.followers.len() {
        let i = stage.followers[k];
        if let Some(follow) = fleet[i].ship().follow {
            follow_leader(stage, fleet, i, follow, player, dt);
        }
        in_flight += settle(&mut fleet[i], dt);
        settled(i, &fleet[i]);
    }
    stage.followers.clear();
    stage.max_in_flight = stage.max_in_flight.max(in_flight);
}

/// The body takes its ship's state and heading at the end of the tick; 1 if the ship is diving
/// or returning.
fn settle(a: &mut impl Carrier, dt: f32) -> u32 {
    let (state, heading) = {
        let s = a.ship();
        (s.state, s.heading)
    };
    // (A queued ship waits at its entry, not moving.)
    let still = state == ShipState::Queued;
    a.settle(state.word(), Vec2::from_angle(heading as f32), still, dt);
    u32::from(state.in_flight())
}

/// The next wave launches when every ship of the previous one is in formation.
fn launch_waves(stage: &mut Stage, fleet: &mut [impl Carrier]) {
    let waves = stage.data.waves.len();
    if stage.next_wave >= waves {
        return;
    }
    let previous_home = stage.next_wave == 0
        || fleet
            .iter()
            .map(Carrier::ship)
            .filter(|s| s.wave == stage.next_wave - 1)
            .all(|s| s.state == ShipState::Formation);
    if !previous_home {
        return;
    }
    let w = stage.next_wave;
    let d = &stage.data.dives;
    // Every squadron flies the wave together, pairs counted within each; squadron j's pairs
    // leave a fraction of the pair interval after the first's — the fractional part of j times
    // the golden ratio's, so the streams interleave along the paths instead of flying stacked,
    // and no two squadrons' ships leave together, whatever the wing-man's delay.
    let mut launched = false;
    for (j, squadron) in stage.squadrons(fleet.len()).enumerate() {
        let lag = d.pair_interval * (j as f32 * INTERLEAVE).fract();
        let mut k = 0;
        for a in &mut fleet[squadron] {
            let s = a.ship_mut();
            if s.wave == w {
                let pair = (k / 2) as f32;
                let wing = if k % 2 == 1 { d.wingman_delay } else { 0.0 };
                s.launch_at = Some(stage.t + pair * d.pair_interval + wing + lag);
                k += 1;
            }
        }
        launched |= k > 0;
    }
    stage.next_wave += 1;
    if launched {
        stage.waves_launched += 1;
    }
}

/// One tick of a ship that flies on its own: where its body goes, and whether it jumped there
/// (launched from its queue, or wrapped to the top).
fn fly(stage: &Stage, s: &mut Ship, player: Vec2, dt: f32) -> (Vec2, bool) {
    match s.state {
        ShipState::Queued => {
            let (start, heading) = stage.entry_point(&s.entry.0, s.entry.1);
            s.pos = start;
            s.heading = heading;
            let launched = s.launch_at.is_some_and(|t| stage.t >= t);
            if launched {
                s.state = ShipState::Entering;
                s.flight = Some(Flight::new(Some(s.entry.0.clone()), s.entry.1));
            }
            (start.as_vec2(), launched)
        }
        ShipState::Formation => {
            let pos = stage.slot_position(s.slot);
            s.pos = pos.as_dvec2();
            s.heading = FRAC_PI_2_64;
            (pos, false)
        }
        _ => {
            let jumped = run_flight(stage, s, player, dt);
            (s.pos.as_vec2(), jumped)
        }
    }
}
