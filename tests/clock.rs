//! The fixed-timestep clock fed with fake frame times: tick counts, the clamp on long frames,
//! the interpolation factor, the time scale, and garbage frame times.

use steering_arena::sim::clock::{Clock, MAX_TICKS_PER_FRAME};

const HZ: f32 = 60.0;
const DT: f32 = 1.0 / HZ;

fn clock() -> Clock {
    Clock::new(HZ)
}

/// Feeds `frames` frames of `frame_seconds` each at `scale`; returns the total tick count and
/// checks every frame's tick count and alpha on the way.
fn run(clock: &mut Clock, frame_seconds: f32, scale: f32, frames: u32) -> u64 {
    let mut total = 0u64;
    for i in 0..frames {
        let f = clock.advance(frame_seconds, scale);
        assert!(
            f.ticks <= MAX_TICKS_PER_FRAME,
            "frame {i}: {} ticks",
            f.ticks
        );
        assert!(
            (0.0..=1.0).contains(&f.alpha),
            "frame {i}: alpha {}",
            f.alpha
        );
        total += u64::from(f.ticks);
    }
    total
}

#[test]
fn the_clock_steps_at_the_given_rate() {
    assert!((clock().dt - DT).abs() < 1e-9);
    assert!((Clock::new(120.0).dt - 1.0 / 120.0).abs() < 1e-9);
}

#[test]
fn a_frame_of_exactly_one_tick_runs_exactly_one_tick() {
    let mut c = clock();
    for i in 0..600 {
        let f = c.advance(DT, 1.0);
        assert_eq!(f.ticks, 1, "frame {i}");
        // Nothing is left over (up to the rounding of repeated f32 subtraction).
        assert!(
            f.alpha < 1e-3 || f.alpha > 1.0 - 1e-3,
            "frame {i}: alpha {}",
            f.alpha
        );
    }
}

#[test]
fn half_tick_frames_alternate_zero_and_one_tick_with_alpha_near_one_half() {
    let mut c = clock();
    let mut ticks = Vec::new();
    for i in 0..240 {
        let f = c.advance(1.0 / 120.0, 1.0);
        ticks.push(f.ticks);
        if f.ticks == 0 {
            assert!((f.alpha - 0.5).abs() < 0.01, "frame {i}: alpha {}", f.alpha);
        } else {
            assert!(f.ticks == 1, "frame {i}: {} ticks", f.ticks);
            // A whole tick was consumed; what remains is (almost) nothing, or (almost) a whole
            // tick if rounding put the boundary a hair later.
            assert!(
                f.alpha < 0.01 || f.alpha > 0.99,
                "frame {i}: alpha {}",
                f.alpha
            );
        }
    }
    // Strict alternation, apart from at most one rounding slip.
    let repeats = ticks.windows(2).filter(|w| w[0] == w[1]).count();
    assert!(repeats <= 1, "{repeats} repeats in {ticks:?}");
    assert_eq!(ticks.iter().sum::<u32>(), 120);
}

#[test]
fn a_five_second_frame_runs_the_maximum_and_drops_the_backlog() {
    let mut c = clock();
    let f = c.advance(5.0, 1.0);
    assert_eq!(f.ticks, MAX_TICKS_PER_FRAME);
    assert!((0.0..=1.0).contains(&f.alpha));
    // The next ordinary frame runs one tick, not another eight from the 292 dropped ones.
    let next = c.advance(DT, 1.0);
    assert_eq!(next.ticks, 1);
    // And an empty frame runs none.
    assert_eq!(c.advance(0.0, 1.0).ticks, 0);
    // Back to normal: a second of 60 Hz frames is 60 ticks (± the partial tick kept).
    let second = run(&mut c, DT, 1.0, 60);
    assert!((59..=61).contains(&second), "{second} ticks");
}

#[test]
fn several_long_frames_in_a_row_each_run_only_the_maximum() {
    let mut c = clock();
    for seconds in [0.5, 1.0, 30.0, 1e6, f32::MAX] {
        let f = c.advance(seconds, 1.0);
        assert_eq!(f.ticks, MAX_TICKS_PER_FRAME, "{seconds} s frame");
    }
    assert!(c.advance(DT * 0.5, 1.0).ticks <= 1);
}

#[test]
fn ten_seconds_of_144_hz_frames_run_600_ticks() {
    let mut c = clock();
    let total = run(&mut c, 1.0 / 144.0, 1.0, 1440);
    assert!((599..=601).contains(&total), "{total} ticks");
}

#[test]
fn the_tick_count_does_not_depend_on_the_frame_rate() {
    for hz in [
        30.0, 50.0, 59.94, 60.0, 75.0, 120.0, 144.0, 165.0, 240.0, 1000.0,
    ] {
        let mut c = clock();
        let frames = (10.0 * hz) as u32;
        let total = run(&mut c, 1.0 / hz, 1.0, frames);
        let expected = (frames as f32 / hz * HZ).round() as i64;
        assert!(
            (total as i64 - expected).abs() <= 1,
            "{hz} Hz: {total} ticks, expected {expected}"
        );
    }
}

#[test]
fn the_time_scale_scales_the_tick_count() {
    // Ten seconds of 60 Hz frames.
    for (scale, expected) in [
        (0.25, 150),
        (0.5, 300),
        (1.0, 600),
        (2.0, 1200),
        (4.0, 2400),
    ] {
        let mut c = clock();
        let total = run(&mut c, DT, scale, 600);
        assert!(
            (total as i64 - expected).abs() <= 1,
            "scale {scale}: {total} ticks, expected {expected}"
        );
    }
    // At 4× a 60 Hz frame is four ticks, every frame.
    let mut c = clock();
    c.advance(DT * 0.5, 1.0); // a half tick in hand, so rounding cannot split a frame
    for i in 0..60 {
        assert_eq!(c.advance(DT, 4.0).ticks, 4, "frame {i}");
    }
    // A time scale of zero (paused) runs nothing however long the frame.
    let mut c = clock();
    assert_eq!(run(&mut c, 0.5, 0.0, 100), 0);
}

#[test]
fn alpha_is_the_fraction_of_a_tick_left_over() {
    for fraction in [0.1f32, 0.25, 0.5, 0.75, 0.9] {
        let mut c = clock();
        let f = c.advance(DT * fraction, 1.0);
        assert_eq!(f.ticks, 0);
        assert!(
            (f.alpha - fraction).abs() < 1e-4,
            "{fraction}: alpha {}",
            f.alpha
        );
        let f = c.advance(DT * 2.0, 1.0);
        assert_eq!(f.ticks, 2);
        assert!(
            (f.alpha - fraction).abs() < 1e-3,
            "{fraction}: alpha {}",
            f.alpha
        );
    }
}

#[test]
fn bad_frame_times_never_panic_and_run_a_bounded_number_of_ticks() {
    let bad = [
        -1.0,
        -DT,
        -1e30,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        1e-45,
        0.0,
        -0.0,
    ];
    let scales = [1.0, 0.25, 4.0, 0.0, -1.0, f32::NAN, f32::INFINITY];
    for &frame in &bad {
        for &scale in &scales {
            let mut c = clock();
            c.advance(DT * 0.5, 1.0);
            let f = c.advance(frame, scale);
            assert!(
                f.ticks <= MAX_TICKS_PER_FRAME,
                "frame {frame} scale {scale}: {} ticks",
                f.ticks
            );
            assert!(
                (0.0..=1.0).contains(&f.alpha),
                "frame {frame} scale {scale}: alpha {}",
                f.alpha
            );
            // The clock still works afterwards: a second of good frames is about 60 ticks.
            let after = run(&mut c, DT, 1.0, 60);
            assert!(
                (59..=61).contains(&after),
                "after frame {frame} scale {scale}: {after} ticks in a second"
            );
        }
    }
}

#[test]
fn negative_and_nan_frame_times_run_no_ticks_and_do_not_rewind() {
    let mut c = clock();
    let before = c.advance(DT * 0.5, 1.0);
    for frame in [-1.0, -DT, f32::NEG_INFINITY, f32::NAN] {
        let f = c.advance(frame, 1.0);
        assert_eq!(f.ticks, 0, "frame {frame}");
        // The half tick in hand is neither lost nor reduced.
        assert!(
            (f.alpha - before.alpha).abs() < 1e-6,
            "frame {frame}: alpha {}",
            f.alpha
        );
    }
}

#[test]
fn an_infinite_frame_time_runs_the_maximum() {
    let mut c = clock();
    assert_eq!(c.advance(f32::INFINITY, 1.0).ticks, MAX_TICKS_PER_FRAME);
    assert_eq!(c.advance(DT, 1.0).ticks, 1);
}

#[test]
fn reset_forgets_the_partial_tick() {
    let mut c = clock();
    assert_eq!(c.advance(DT * 0.9, 1.0).ticks, 0);
    c.reset();
    let f = c.advance(DT * 0.5, 1.0);
    assert_eq!(f.ticks, 0);
    assert!((f.alpha - 0.5).abs() < 1e-4, "alpha {}", f.alpha);
}

#[test]
fn alpha_stays_in_range_over_random_frame_times() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(5);
    let mut c = clock();
    let mut total = 0u64;
    let mut seconds = 0.0f64;
    let mut stalls = 0;
    for i in 0..100_000 {
        // Mostly ordinary frames between 1 ms and 100 ms, with some stalls.
        let frame: f32 = if rng.gen_range(0..100) == 0 {
            stalls += 1;
            rng.gen_range(0.2..3.0)
        } else {
            rng.gen_range(0.001..0.1)
        };
        let f = c.advance(frame, 1.0);
        assert!(
            (0.0..=1.0).contains(&f.alpha),
            "frame {i}: alpha {}",
            f.alpha
        );
        assert!(f.ticks <= MAX_TICKS_PER_FRAME);
        total += u64::from(f.ticks);
        seconds += f64::from(frame.min(DT * MAX_TICKS_PER_FRAME as f32));
    }
    // Apart from what the clamp drops, simulated time keeps pace with wall time: a stall runs
    // its eight ticks (counted above as eight ticks' worth) and leaves less than one tick in hand,
    // so each stall may shift the count by at most one; ordinary frames must not drift at all.
    let expected = seconds * f64::from(HZ);
    assert!(
        (total as f64 - expected).abs() <= 2.0 + f64::from(stalls),
        "{total} ticks, expected about {expected} ({stalls} stalls)"
    );
}
