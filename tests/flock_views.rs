//! The book's views (Bourg ch. 4) as `V` sets them in the flock: wide (200 px, 270°), limited
//! (30 px, 180°), narrow (50 px, 90°), each as two slider changes the record keeps; and what
//! each does to a flock of 120.

mod common;

use steering_arena::data::built_in;
use steering_arena::data::crowds::BOOK_VIEWS;
use steering_arena::sim::command::Command;
use steering_arena::sim::metrics::Summary;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{World, WorldConfig};

fn config(seed: u64) -> WorldConfig {
    WorldConfig {
        mode: Mode::Flock,
        seed,
        script: Script::Still,
        ..WorldConfig::default()
    }
}

#[test]
fn v_steps_through_the_books_three_views_as_slider_changes() {
    let data = built_in();
    let mut world = World::new(&data, config(1));
    // The default view (120 px, 270°) is none of the book's: `V` starts at the wide one.
    assert_eq!(world.tuning.flock.book_view(), None);
    let mut seen = Vec::new();
    for _ in 0..4 {
        let v = world.next_book_view();
        let f = &world.tuning.flock;
        assert_eq!((f.radius, f.fov_deg), (v.radius, v.fov_deg));
        assert_eq!(f.book_view(), Some(v));
        seen.push((v.name, v.radius, v.fov_deg));
    }
    assert_eq!(
        seen,
        [
            ("wide", 200.0, 270.0),
            ("limited", 30.0, 180.0),
            ("narrow", 50.0, 90.0),
            ("wide", 200.0, 270.0),
        ]
    );
    // Each step is the radius's slider, then the angle's: what the record keeps.
    assert_eq!(world.commands.len(), 8);
    for (pair, view) in world.commands.chunks(2).zip(BOOK_VIEWS.iter().cycle()) {
        let values: Vec<(&str, f32)> = pair
            .iter()
            .map(|c| match c {
                Command::Tune(path, value) => (path.0, *value),
                other => panic!("not a slider change: {other:?}"),
            })
            .collect();
        assert_eq!(
            values,
            [
                ("flock.radius", view.radius),
                ("flock.fov_deg", view.fov_deg)
            ]
        );
    }
    // The other weights are left as they were.
    assert_eq!(world.tuning.flock.alignment, data.tuning.flock.alignment);
}

#[test]
fn the_wide_view_flocks_the_limited_one_scatters_and_the_narrow_one_lets_bodies_overlap() {
    let data = built_in();
    let figure = |s: &Summary, k: &str| s.extra[k].as_f64().expect("a number");
    let mut figures = Vec::new();
    for view in BOOK_VIEWS {
        let mut d = data.clone();
        (d.tuning.flock.radius, d.tuning.flock.fov_deg) = (view.radius, view.fov_deg);
        let s = common::world::summary(&d, config(1), 60.0);
        figures.push((
            view.name,
            figure(&s, "group_polarization"),
            figure(&s, "dust_share"),
            figure(&s, "settled_overlap_share"),
        ));
    }
    println!(
        "120 boids, 60 s, seed 1 (view, largest group's polarization, dust share, overlapped \
         share after 5 s): {figures:?}"
    );
    let [wide, limited, narrow] = [figures[0], figures[1], figures[2]];
    // Wide: one heading, bodies apart.
    assert!(wide.1 >= 0.8 && wide.3 <= 0.001, "{wide:?}");
    // Limited: 30 px is hardly past a body's neighbour; the boids join no groups of ten.
    assert!(limited.2 >= 0.2, "{limited:?}");
    // Narrow: separation, as in the book, heeds only the boids in view, so a boid does not
    // push off a neighbour beside or behind it.
    assert!(narrow.3 >= 0.05, "{narrow:?}");
}
