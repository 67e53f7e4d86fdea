//! The vehicle model and its first steering primitives: the speed and force clamps, seek reaching
//! and then staying near a still target, arrive settling on it, flee always gaining distance, and
//! no NaN or infinity from degenerate inputs.

use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use steering_arena::data::tuning::VehicleTuning;
use steering_arena::sim::behaviours::seek::{arrive, flee, seek};
use steering_arena::sim::vehicle::{Vehicle, truncate, unit_or, unit_or_zero};

/// The simulation's fixed tick.
const DT: f32 = 1.0 / 60.0;
/// Relative slack for comparisons against a clamp (f32 rounding in `v * (max / len)`).
const REL_EPS: f32 = 1e-5;

fn tuning(max_speed: f32, max_force: f32, mass: f32) -> VehicleTuning {
    VehicleTuning {
        max_speed,
        max_force,
        mass,
        radius: 10.0,
    }
}

/// The built-in chaser's numbers (assets/tuning.json), written out so the bounds below are
/// derived from numbers visible in this file.
fn chaser() -> VehicleTuning {
    tuning(160.0, 480.0, 1.0)
}

/// A tuning whose seek always brakes at full force: the reversing steering `desired - vel` is at
/// least `max_speed` long, so with `max_force <= max_speed` it is always clamped to `max_force`.
fn saturating() -> VehicleTuning {
    tuning(160.0, 120.0, 1.0)
}

/// A spread of tunings: light and heavy, weak and strong steering.
fn tunings() -> Vec<VehicleTuning> {
    vec![
        chaser(),
        saturating(),
        tuning(600.0, 5000.0, 0.1),
        tuning(10.0, 10.0, 20.0),
        tuning(300.0, 50.0, 3.0),
    ]
}

fn at_rest(pos: Vec2) -> Vehicle {
    Vehicle::new(pos, Vec2::X)
}

fn unit(angle_deg: f32) -> Vec2 {
    Vec2::from_angle(angle_deg.to_radians())
}

/// A random direction times a magnitude drawn log-uniformly from `10^lo ..= 10^hi`.
fn random_force(rng: &mut StdRng, lo: f32, hi: f32) -> Vec2 {
    let dir = unit(rng.gen_range(0.0..360.0));
    dir * 10f32.powf(rng.gen_range(lo..=hi))
}

fn assert_finite(v: &Vehicle, what: &str) {
    assert!(
        v.pos.is_finite() && v.vel.is_finite() && v.heading.is_finite(),
        "{what}: non-finite vehicle {v:?}"
    );
}

/// Distance the vehicle falls behind a vehicle that moved at `max_speed` from the start, when
/// seeking from rest in a straight line. With the speed deficit `u = s - v`, `du/dt = -min(F, u)/m`:
/// first a linear phase from `u = s` down to `u = F` (only if `F < s`), then an exponential one.
/// Integrating `u` over time gives `m (s² - F²) / 2F + m F` when `F < s`, and `m s` otherwise.
/// (Semi-implicit Euler at 60 Hz lags slightly less than this continuous figure.)
fn start_lag(t: &VehicleTuning) -> f32 {
    let (s, f, m) = (t.max_speed, t.max_force, t.mass);
    if f < s {
        m * (s * s - f * f) / (2.0 * f) + m * f
    } else {
        m * s
    }
}

#[test]
fn speed_never_exceeds_max_speed_under_random_huge_forces() {
    let mut rng = StdRng::seed_from_u64(7);
    for t in tunings() {
        let mut v = at_rest(Vec2::new(640.0, 384.0));
        let mut fastest = 0.0f32;
        let mut dir = Vec2::X;
        for tick in 0..10_000 {
            // Bursts of up to 20 s in one direction, so even the heavy, weak vehicle reaches top
            // speed and the clamp is tested where it matters.
            if rng.gen_range(0..1200) == 0 {
                dir = unit(rng.gen_range(0.0..360.0));
            }
            // Magnitudes up to 1e30: far beyond anything a behaviour should return, and beyond
            // the point where the length squared overflows f32.
            let force = dir * 10f32.powf(rng.gen_range(-3.0..=30.0));
            v.apply(force, &t, DT);
            assert_finite(&v, &format!("tick {tick}"));
            fastest = fastest.max(v.speed());
            assert!(
                v.speed() <= t.max_speed * (1.0 + REL_EPS),
                "tick {tick}: speed {} > max {} ({t:?})",
                v.speed(),
                t.max_speed
            );
        }
        // The forces must actually have driven it to (about) full speed at some point, or the
        // bound above proves nothing.
        assert!(
            fastest > 0.5 * t.max_speed,
            "never got going: fastest {fastest} with {t:?}"
        );
    }
}

#[test]
fn applied_force_is_clamped_to_max_force_and_velocity_change_per_tick_is_bounded() {
    let mut rng = StdRng::seed_from_u64(11);
    for t in tunings() {
        let mut v = at_rest(Vec2::new(100.0, 100.0));
        let max_dv = t.max_force / t.mass * DT;
        let mut clamped = 0;
        for tick in 0..5000 {
            // Up to 1e15: huge, but with a length whose square still fits in f32 (the overflow
            // range has its own test below).
            let force = random_force(&mut rng, -2.0, 15.0);
            let before = v.vel;
            let applied = v.apply(force, &t, DT);
            assert!(
                applied.length() <= t.max_force * (1.0 + REL_EPS),
                "tick {tick}: applied {applied} longer than max_force {}",
                t.max_force
            );
            // Direction kept: the clamp only shortens.
            assert!(
                applied.perp_dot(force).abs() <= 1e-3 * applied.length() * force.length()
                    && applied.dot(force) > 0.0,
                "tick {tick}: applied {applied} not along {force}"
            );
            if force.length() <= t.max_force {
                assert_eq!(
                    applied, force,
                    "tick {tick}: a small force must pass unchanged"
                );
            } else {
                clamped += 1;
                assert!(
                    (applied.length() - t.max_force).abs() <= t.max_force * REL_EPS,
                    "tick {tick}: clamped force {applied} should be max_force {} long",
                    t.max_force
                );
            }
            let dv = (v.vel - before).length();
            assert!(
                dv <= max_dv * (1.0 + REL_EPS) + 1e-4,
                "tick {tick}: velocity changed by {dv} > max_force/mass*dt = {max_dv}"
            );
        }
        assert!(clamped > 1000, "the clamp was hardly exercised: {clamped}");
    }
}

#[test]
fn a_huge_finite_force_is_applied_at_full_strength_in_its_direction() {
    let t = chaser();
    for force in [
        Vec2::new(1e20, 0.0),
        Vec2::new(-3e19, 4e19),
        Vec2::new(0.0, -1e30),
        Vec2::new(f32::MAX, f32::MAX),
    ] {
        let mut v = at_rest(Vec2::new(640.0, 384.0));
        let applied = v.apply(force, &t, DT);
        let expected = force.normalize_or_zero() * t.max_force;
        // normalize_or_zero itself overflows for these; compute the direction in f64.
        let expected = if expected == Vec2::ZERO {
            let (x, y) = (f64::from(force.x), f64::from(force.y));
            let len = x.hypot(y);
            Vec2::new((x / len) as f32, (y / len) as f32) * t.max_force
        } else {
            expected
        };
        assert!(
            applied.distance(expected) <= t.max_force * 1e-4,
            "force {force}: applied {applied}, expected {expected}"
        );
        assert!(
            v.vel.distance(expected / t.mass * DT) <= 1e-3,
            "force {force}: velocity {} after one tick",
            v.vel
        );
    }
}

#[test]
fn truncate_shortens_any_finite_vector_to_max_keeping_its_direction() {
    assert_eq!(truncate(Vec2::new(3.0, 4.0), 10.0), Vec2::new(3.0, 4.0));
    assert!(truncate(Vec2::new(30.0, 40.0), 5.0).distance(Vec2::new(3.0, 4.0)) < 1e-5);
    // Lengths whose square overflows f32 are still finite vectors: they must be shortened, not
    // dropped.
    let long = truncate(Vec2::new(1e20, 0.0), 5.0);
    assert!(
        long.distance(Vec2::new(5.0, 0.0)) < 1e-4,
        "truncate((1e20, 0), 5) = {long}"
    );
    let long = truncate(Vec2::new(-3e25, 4e25), 5.0);
    assert!(
        long.distance(Vec2::new(-3.0, 4.0)) < 1e-4,
        "truncate((-3e25, 4e25), 5) = {long}"
    );
}

#[test]
fn truncate_of_zero_and_non_finite_vectors_is_zero() {
    assert_eq!(truncate(Vec2::ZERO, 5.0), Vec2::ZERO);
    assert_eq!(truncate(Vec2::ZERO, 0.0), Vec2::ZERO);
    for bad in [
        Vec2::new(f32::NAN, 0.0),
        Vec2::new(0.0, f32::INFINITY),
        Vec2::new(f32::NEG_INFINITY, f32::NAN),
    ] {
        assert_eq!(truncate(bad, 5.0), Vec2::ZERO, "truncate({bad})");
    }
}

/// Runs seek from rest at `start` towards a still `target`; returns the first tick (counted from 1)
/// at which the vehicle is within one full-speed step of the target, and the largest distance
/// from the target seen on every later tick up to `seconds`.
fn seek_run(t: &VehicleTuning, start: Vec2, target: Vec2, seconds: f32) -> (Option<u32>, f32) {
    let step = t.max_speed * DT;
    let mut v = at_rest(start);
    let mut arrived = None;
    let mut farthest_after = 0.0f32;
    for tick in 1..=(seconds / DT) as u32 {
        let force = seek(&v, target, t.max_speed);
        v.apply(force, t, DT);
        assert_finite(&v, "seek");
        let d = v.pos.distance(target);
        match arrived {
            None if d <= step => arrived = Some(tick),
            None => {}
            Some(_) => farthest_after = farthest_after.max(d),
        }
    }
    (arrived, farthest_after)
}

#[test]
fn seek_reaches_a_still_target_within_the_time_its_distance_and_start_lag_allow() {
    let target = Vec2::new(640.0, 384.0);
    for t in tunings() {
        for angle in (0..360).step_by(30) {
            for distance in [50.0, 200.0, 600.0] {
                let start = target + unit(angle as f32) * distance;
                // Full speed all the way, plus the distance lost while getting up to speed, plus
                // two ticks for the discrete step.
                let bound_s = (distance + start_lag(&t)) / t.max_speed + 2.0 * DT;
                let (arrived, _) = seek_run(&t, start, target, bound_s + 1.0);
                let arrived = arrived.unwrap_or_else(|| {
                    panic!("{t:?} from {distance} px at {angle}°: never arrived")
                });
                let arrived_s = arrived as f32 * DT;
                assert!(
                    arrived_s <= bound_s,
                    "{t:?} from {distance} px at {angle}°: arrived after {arrived_s} s > {bound_s} s"
                );
            }
        }
    }
}

/// Seek a still target from 30, 150 and 500 px at every 20°: it must arrive, and never stray
/// more than `bound` px from it after arriving. Returns the worst stray.
fn worst_overshoot(t: &VehicleTuning, bound: f32) -> f32 {
    let target = Vec2::new(640.0, 384.0);
    let mut worst = 0.0f32;
    for angle in (0..360).step_by(20) {
        for distance in [30.0, 150.0, 500.0] {
            let start = target + unit(angle as f32) * distance;
            let (arrived, farthest) = seek_run(t, start, target, 60.0);
            assert!(
                arrived.is_some(),
                "from {distance} px at {angle}°: never arrived"
            );
            assert!(
                farthest <= bound,
                "from {distance} px at {angle}°: strayed {farthest} px > {bound} px after arriving"
            );
            worst = worst.max(farthest);
        }
    }
    worst
}

#[test]
fn seek_then_stays_within_the_full_force_stopping_distance() {
    // With max_force <= max_speed (160 >= 120) every braking tick is at full force, so once past
    // the target at speed v <= max_speed the vehicle stops within v² / (2·max_force/mass):
    // 160² / (2·120/1) = 106.7 px. Margin: one full-speed step (160/60 = 2.7 px) travelled past
    // the target before the reversed desired velocity takes effect. Bound: 109.3 px.
    let t = saturating();
    let accel = t.max_force / t.mass;
    let bound = t.max_speed * t.max_speed / (2.0 * accel) + t.max_speed * DT;
    let worst = worst_overshoot(&t, bound);
    // The bound is about the real overshoot (the vehicle does pass through at full speed from
    // 500 px), not a loose number that any behaviour would meet.
    assert!(
        worst > 0.8 * bound,
        "worst overshoot {worst} px vs bound {bound} px"
    );
}

#[test]
fn seek_with_the_built_in_chaser_stays_within_its_unclamped_overshoot() {
    // The built-in chaser (s = 160, F = 480, m = 1) never saturates when reversing: the steering
    // -(s + v) is at most 2s = 320 < 480 long, so past the target dv/dt = -(s + v)/m and the
    // overshoot is m·(v0 - s·ln(1 + v0/s)) <= m·s·(1 - ln 2) = 49.1 px for v0 <= s. (The full-force
    // figure s²/(2F/m) = 26.7 px does not apply: seek brakes more gently than max_force.)
    // Margin: one full-speed step, 2.7 px. Bound: 51.8 px.
    let t = chaser();
    let bound = t.mass * t.max_speed * (1.0 - std::f32::consts::LN_2) + t.max_speed * DT;
    let worst = worst_overshoot(&t, bound);
    assert!(
        worst > 0.8 * bound,
        "worst overshoot {worst} px vs bound {bound} px"
    );
}

#[test]
fn arrive_settles_within_one_pixel_and_below_one_pixel_per_second() {
    // Inside the slowing radius R arrive is a damped spring: x'' = -(s/R)·x/m - x'/m, which decays
    // as e^(-t/2m) (underdamped for the chaser: ζ = 1/(2·sqrt(m·s/R)) = 0.40). Getting from R to
    // below 0.1 px takes 2m·ln(R/0.1) = 13.8 s for R = 100, m = 1; the run first needs to cover
    // the distance, so N = distance/s + lag/s + 15 s.
    let slowing_radius = 100.0;
    let target = Vec2::new(640.0, 384.0);
    for t in [chaser(), saturating(), tuning(600.0, 5000.0, 0.1)] {
        for angle in (0..360).step_by(45) {
            for distance in [0.5, 60.0, 400.0] {
                let start = target + unit(angle as f32) * distance;
                let seconds = (distance + start_lag(&t)) / t.max_speed + 15.0 * t.mass.max(1.0);
                let mut v = at_rest(start);
                for _ in 0..(seconds / DT) as u32 {
                    let force = arrive(&v, target, t.max_speed, slowing_radius);
                    v.apply(force, &t, DT);
                    assert_finite(&v, "arrive");
                }
                let d = v.pos.distance(target);
                assert!(
                    d < 1.0 && v.speed() < 1.0,
                    "{t:?} from {distance} px at {angle}°: after {seconds} s still {d} px away at {} px/s",
                    v.speed()
                );
            }
        }
    }
}

#[test]
fn flee_strictly_increases_distance_every_tick_from_rest() {
    let target = Vec2::new(640.0, 384.0);
    for t in tunings() {
        for angle in (0..360).step_by(15) {
            for distance in [0.01, 1.0, 40.0, 300.0] {
                let mut v = at_rest(target + unit(angle as f32) * distance);
                let mut last = v.pos.distance(target);
                for tick in 0..600 {
                    let force = flee(&v, target, t.max_speed);
                    v.apply(force, &t, DT);
                    assert_finite(&v, "flee");
                    let d = v.pos.distance(target);
                    assert!(
                        d > last,
                        "{t:?} from {distance} px at {angle}°, tick {tick}: distance {d} <= {last}"
                    );
                    last = d;
                }
                // Ten seconds of fleeing from rest covers full speed's ground less the start
                // lag (flee is seek mirrored, so the same lag applies), and never more.
                let gained = last - distance;
                let least = t.max_speed * 10.0 - start_lag(&t) - t.max_speed * DT;
                assert!(
                    gained >= least,
                    "{t:?}: gained only {gained} px in 10 s, expected at least {least}"
                );
                assert!(gained <= t.max_speed * 10.0 * (1.0 + REL_EPS) + 1e-3);
            }
        }
    }
}

#[test]
fn flee_strictly_increases_distance_when_starting_sideways() {
    // Moving across the line to the target at full speed: the distance still grows every tick.
    let target = Vec2::new(640.0, 384.0);
    let t = chaser();
    for angle in (0..360).step_by(30) {
        let away = unit(angle as f32);
        let mut v = at_rest(target + away * 100.0);
        v.vel = away.perp() * t.max_speed;
        let mut last = v.pos.distance(target);
        for tick in 0..600 {
            let force = flee(&v, target, t.max_speed);
            v.apply(force, &t, DT);
            let d = v.pos.distance(target);
            assert!(d > last, "angle {angle}°, tick {tick}: {d} <= {last}");
            last = d;
        }
    }
}

#[test]
fn seek_and_flee_with_the_target_at_the_position_give_no_nan() {
    let t = chaser();
    let p = Vec2::new(320.0, 200.0);
    // At rest on the target: no direction to go, so no force at all.
    let v = at_rest(p);
    assert_eq!(seek(&v, p, t.max_speed), Vec2::ZERO);
    assert_eq!(flee(&v, p, t.max_speed), Vec2::ZERO);
    assert_eq!(arrive(&v, p, t.max_speed, 100.0), Vec2::ZERO);
    assert_eq!(arrive(&v, p, t.max_speed, 0.0), Vec2::ZERO);
    // Moving through the target: the force brakes (desired is zero, so steering = -vel).
    let mut v = at_rest(p);
    v.vel = Vec2::new(30.0, -40.0);
    assert_eq!(seek(&v, p, t.max_speed), Vec2::new(-30.0, 40.0));
    assert_eq!(flee(&v, p, t.max_speed), Vec2::new(-30.0, 40.0));
    // And many ticks of it stay finite, with the vehicle staying put once stopped.
    for behaviour in [seek, flee] {
        let mut v = at_rest(p);
        for _ in 0..600 {
            let target = v.pos;
            let force = behaviour(&v, target, t.max_speed);
            v.apply(force, &t, DT);
            assert_finite(&v, "target at position");
        }
        assert_eq!(v.pos, p);
        assert_eq!(v.vel, Vec2::ZERO);
        assert!((v.heading.length() - 1.0).abs() < 1e-6);
    }
}

#[test]
fn a_non_finite_force_given_to_apply_changes_nothing_but_position() {
    let t = chaser();
    for bad in [
        Vec2::new(f32::NAN, 0.0),
        Vec2::new(0.0, f32::NAN),
        Vec2::new(f32::INFINITY, 0.0),
        Vec2::new(f32::NEG_INFINITY, f32::INFINITY),
        Vec2::NAN,
    ] {
        let mut v = at_rest(Vec2::new(100.0, 100.0));
        v.vel = Vec2::new(50.0, 0.0);
        let applied = v.apply(bad, &t, DT);
        assert_eq!(applied, Vec2::ZERO, "force {bad}");
        assert_finite(&v, &format!("force {bad}"));
        assert_eq!(v.vel, Vec2::new(50.0, 0.0), "force {bad}");
        assert!(
            (v.pos.x - (100.0 + 50.0 * DT)).abs() < 1e-4,
            "force {bad}: {}",
            v.pos
        );
    }
}

#[test]
fn a_tiny_or_zero_mass_gives_no_nan_or_infinity() {
    let mut rng = StdRng::seed_from_u64(3);
    for mass in [0.0, 1e-45, 1e-30, f32::EPSILON, 1e-3] {
        for max_force in [1e-3, 480.0, 1e30] {
            let t = tuning(160.0, max_force, mass);
            let mut v = at_rest(Vec2::new(640.0, 384.0));
            for tick in 0..1000 {
                let force = match tick % 4 {
                    0 => seek(&v, Vec2::new(100.0, 100.0), t.max_speed),
                    1 => flee(&v, Vec2::new(100.0, 100.0), t.max_speed),
                    2 => random_force(&mut rng, -3.0, 30.0),
                    _ => Vec2::ZERO,
                };
                let applied = v.apply(force, &t, DT);
                assert!(
                    applied.is_finite(),
                    "mass {mass}, tick {tick}: applied {applied}"
                );
                assert_finite(
                    &v,
                    &format!("mass {mass} max_force {max_force} tick {tick}"),
                );
                assert!(v.speed() <= t.max_speed * (1.0 + REL_EPS));
            }
        }
    }
}

#[test]
fn a_new_vehicle_has_a_unit_heading_even_from_a_zero_direction() {
    for dir in [
        Vec2::ZERO,
        Vec2::NAN,
        Vec2::new(0.0, -3.0),
        Vec2::new(1e-30, 0.0),
    ] {
        let v = Vehicle::new(Vec2::new(1.0, 2.0), dir);
        assert!(v.heading.is_finite(), "from {dir}: {}", v.heading);
        assert!(
            (v.heading.length() - 1.0).abs() < 1e-6,
            "from {dir}: {}",
            v.heading
        );
        assert_eq!(v.vel, Vec2::ZERO);
    }
    assert_eq!(
        Vehicle::new(Vec2::ZERO, Vec2::new(0.0, -3.0)).heading,
        Vec2::new(0.0, -1.0)
    );
}

#[test]
fn the_heading_follows_the_velocity_and_is_kept_when_the_vehicle_stops() {
    let t = chaser();
    let mut v = at_rest(Vec2::new(640.0, 384.0));
    for _ in 0..60 {
        let force = seek(&v, Vec2::new(640.0, 0.0), t.max_speed);
        v.apply(force, &t, DT);
    }
    assert!(
        v.heading.distance(Vec2::new(0.0, -1.0)) < 1e-5,
        "{}",
        v.heading
    );
    // Brake to a standstill: the heading stays pointing up rather than becoming zero.
    for _ in 0..600 {
        let force = -v.vel * t.mass / DT;
        v.apply(force, &t, DT);
    }
    assert!(v.speed() < 1e-3, "still moving at {}", v.speed());
    assert!(
        v.heading.distance(Vec2::new(0.0, -1.0)) < 1e-5,
        "{}",
        v.heading
    );
}

/// `unit_or` is glam's `normalize_or` written with float comparisons: the same vector, bit for
/// bit, for ordinary vectors and for the ones with no direction (zero, too short to invert, too
/// long to square, infinite, NaN).
#[test]
fn unit_or_gives_glams_normalize_or_bit_for_bit() {
    let fallback = Vec2::new(0.25, -7.0);
    let mut rng = StdRng::seed_from_u64(5);
    let mut cases: Vec<Vec2> = vec![
        Vec2::ZERO,
        Vec2::new(-0.0, 0.0),
        Vec2::new(1e-39, 0.0),
        Vec2::new(3e-39, -2e-39),
        Vec2::new(1e-20, 1e-20),
        Vec2::new(1e19, -1e19),
        Vec2::new(3e38, 3e38),
        Vec2::new(f32::INFINITY, 1.0),
        Vec2::new(1.0, f32::NEG_INFINITY),
        Vec2::new(f32::NAN, 1.0),
        Vec2::new(f32::MIN_POSITIVE, 0.0),
        Vec2::X,
        Vec2::new(3.0, 4.0),
    ];
    cases.extend((0..10_000).map(|i| {
        let scale = 10f32.powi(i % 50 - 25);
        Vec2::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)) * scale
    }));
    let mut degenerate = 0;
    for v in cases {
        let want = v.normalize_or(fallback);
        let got = unit_or(v, fallback);
        assert_eq!(
            (got.x.to_bits(), got.y.to_bits()),
            (want.x.to_bits(), want.y.to_bits()),
            "{v}: {got} vs glam's {want}"
        );
        assert_eq!(unit_or_zero(v), v.normalize_or_zero(), "{v}");
        if want == fallback {
            degenerate += 1;
        }
    }
    assert!(
        degenerate >= 8,
        "only {degenerate} vectors without a direction"
    );
}
