//! `bench`'s A* figure: the median time of one search between random free tiles.

use crate::sim::path::{Order, Search};
use crate::sim::space::arena::Arena;
use ::rand::rngs::StdRng;
use ::rand::{Rng, SeedableRng};
use glam::IVec2;
use std::hint::black_box;
use std::time::Instant;

/// Searches timed by [`search_us`].
const SEARCHES: usize = 2_000;

/// The median wall time (µs) of one A* search on `arena`'s tiles from a random free tile to
/// another (both drawn from `seed`; pairs with no way between them are timed too, as a chaser
/// would meet them), each timed alone after one untimed pass over them all.
pub fn search_us(arena: &Arena, seed: u64) -> f64 {
    let tiles = &arena.tiles;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut free = || loop {
        let t = IVec2::new(rng.gen_range(0..tiles.cols), rng.gen_range(0..tiles.rows));
        if !tiles.blocked(t) {
            return t;
        }
    };
    if (0..tiles.cols * tiles.rows)
        .all(|i| tiles.blocked(IVec2::new(i % tiles.cols, i / tiles.cols)))
    {
        return 0.0;
    }
    let pairs: Vec<(IVec2, IVec2)> = (0..SEARCHES).map(|_| (free(), free())).collect();
    let mut search = Search::new();
    let mut path = Vec::with_capacity((tiles.cols * tiles.rows) as usize);
    for &(a, b) in &pairs {
        black_box(search.find(tiles, a, b, Order::AStar, &mut path));
    }
    let mut times: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| {
            let started = Instant::now();
            black_box(search.find(tiles, a, b, Order::AStar, &mut path));
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2] * 100.0).round() / 100.0
}
