//! Dives: once the formation is full, ships peel off on each kind's timer to dive at the player,
//! a boss with escorts beside it.

use super::carrier::Carrier;
use super::flight::{is_home_step, run_flight};
use super::layout::squadrons;
use super::ship::{Flight, Follow, ShipState, kind_index};
use super::stage::{Stage, clamp_inside};
use crate::data::patterns::ShipKind;
use ::rand::Rng;
use glam::Vec2;

/// Once the formation is full, each kind dives on its own timer, within the cap on ships in
/// flight; a boss takes up to two escorts along. Every squadron dives when the timer comes round,
/// each picking among its own ships, within its own cap.
pub(super) fn schedule_dives(stage: &mut Stage, fleet: &mut [impl Carrier], rng: &mut impl Rng) {
    let Some(complete) = stage.complete_at else {
        return;
    };
    let d = &stage.data.dives;
    let everies = [
        (ShipKind::Drone, d.drone_every),
        (ShipKind::Escort, d.escort_every),
        (ShipKind::Boss, d.boss_every),
    ];
    for (kind, every) in everies {
        let k = kind_index(kind);
        if stage.next_dive[k] == 0.0 {
            // The first dives come one period after the formation fills.
            stage.next_dive[k] = complete + every;
        }
        if stage.t < stage.next_dive[k] {
            continue;
        }
        stage.next_dive[k] = stage.t + every;
        for squadron in squadrons(stage.per_squadron, fleet.len()) {
            let first = squadron.start;
            dive(stage, &mut fleet[squadron], first, kind, rng);
        }
    }
}

/// One squadron's dive of `kind`: `fleet` are its ships, `first` the index of the first among
/// the stage's ships (escorts follow their leader by that index).
fn dive<C: Carrier>(
    stage: &mut Stage,
    fleet: &mut [C],
    first: usize,
    kind: ShipKind,
    rng: &mut impl Rng,
) {
    let d = &stage.data.dives;
    let (max_in_flight, boss_escorts) = (d.max_in_flight, d.boss_escorts);
    let waiting = |a: &C, k: ShipKind| {
        let s = a.ship();
        s.kind == k && s.state == ShipState::Formation
    };
    let ready = fleet.iter().filter(|a| waiting(a, kind)).count();
    if ready == 0 {
        return;
    }
    let pick = rng.gen_range(0..ready);
    let Some(leader) = (0..fleet.len())
        .filter(|&i| waiting(&fleet[i], kind))
        .nth(pick)
    else {
        return;
    };
    // The leader and, for a boss, its nearest escorts in formation, nearest first (the lower
    // index on a tie): at most three ships, in a fixed array.
    let mut group = [leader; 3];
    let mut len = 1;
    if kind == ShipKind::Boss {
        let at = fleet[leader].pos();
        for _ in 0..boss_escorts.min(group.len() - 1) {
            let nearest = (0..fleet.len())
                .filter(|&i| waiting(&fleet[i], ShipKind::Escort) && !group[..len].contains(&i))
                .min_by(|&a, &b| {
                    fleet[a]
                        .pos()
                        .distance_squared(at)
                        .total_cmp(&fleet[b].pos().distance_squared(at))
                });
            let Some(i) = nearest else { break };
            group[len] = i;
            len += 1;
        }
    }
    let group = &group[..len];
    let in_flight = fleet.iter().filter(|a| a.ship().state.in_flight()).count();
    if in_flight + group.len() > max_in_flight {
        return;
    }
    let mirror = fleet[leader].pos().x > stage.width / 2.0;
    let path = stage.path_name(stage.dive_path(kind));
    let leader_pos = fleet[leader].pos();
    let leader_heading = fleet[leader].ship().heading as f32;
    for (n, &i) in group.iter().enumerate() {
        let offset = fleet[i].pos() - leader_pos;
        let s = fleet[i].ship_mut();
        s.state = ShipState::Diving;
        s.caught = false;
        if n == 0 {
            s.flight = Some(Flight::new(Some(path.clone()), mirror));
        } else {
            s.follow = Some(Follow {
                leader: first + leader,
                offset: Vec2::from_angle(-leader_heading).rotate(offset),
            });
        }
        stage.dives += 1;
    }
}

/// An escort beside its diving boss; when the boss heads home (or stops diving) it flies home
/// on its own.
pub(super) fn follow_leader<C: Carrier>(
    stage: &Stage,
    fleet: &mut [C],
    i: usize,
    f: Follow,
    player: Vec2,
    dt: f32,
) {
    let leader = fleet[f.leader].ship();
    let leading = leader.state == ShipState::Diving
        && leader
            .flight
            .as_ref()
            .is_some_and(|fl| !is_home_step(stage, fl));
    if leading {
        let heading = leader.heading;
        let target = fleet[f.leader].pos() + Vec2::from_angle(heading as f32).rotate(f.offset);
        let from = fleet[i].pos();
        let max_step = stage.data.max_speed * dt;
        // Keep station, never faster than a ship may fly (the leader's turns swing the offset).
        let step = (target - from).clamp_length_max(max_step);
        let to = clamp_inside(stage, (from + step).as_dvec2()).0;
        fleet[i].set_pos(to.as_vec2());
        let s = fleet[i].ship_mut();
        s.heading = heading;
        s.pos = to;
    } else {
        let s = fleet[i].ship_mut();
        s.follow = None;
        s.state = ShipState::Returning;
        s.speed = s.speed.max(stage.data.max_speed * 0.8);
        s.flight = Some(Flight::new(None, false));
        run_flight(stage, fleet[i].ship_mut(), player, dt);
        let pos = fleet[i].ship().pos.as_vec2();
        fleet[i].set_pos(pos);
    }
}
