//! Where the squadrons' formations stand: a formation slot, the grid the squadrons' formations
//! share across the top of the arena, and which of the stage's ships each squadron holds.

use super::ship::SHIP_RADIUS;
use crate::data::patterns::{GalagaData, ShipKind};
use glam::Vec2;
use std::ops::Range;

/// A formation slot: its kind, its squadron's formation's top centre (from the data's, zero for
/// the first of a lone squadron), and its offset from there (the squadron's breath scales this).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub kind: ShipKind,
    pub origin: Vec2,
    pub offset: Vec2,
}

/// Room kept between neighbouring squadrons' formations (px, before shrinking).
const SQUADRON_GAP: f32 = 24.0;
/// The squadrons' formations stay above this share of the arena's height (the player's room is
/// below).
const FORMATION_FLOOR: f32 = 0.45;

/// Where each of `n` squadrons' formations stands (its top centre, from the data's) and how much
/// they are all shrunk: a grid of as many columns as lets them shrink least, centred under the
/// data's top, within the arena's width and above [`FORMATION_FLOOR`]. One squadron stands
/// where the data puts it, at full size.
pub(super) fn squadron_layout(
    data: &GalagaData,
    slots: &[Slot],
    width: f32,
    height: f32,
    n: usize,
) -> (Vec<Vec2>, f32) {
    if n <= 1 {
        return (vec![Vec2::ZERO], 1.0);
    }
    let f = &data.formation;
    let (lo, hi) = slots.iter().fold((Vec2::ZERO, Vec2::ZERO), |(lo, hi), s| {
        (lo.min(s.offset), hi.max(s.offset))
    });
    // One formation's room at full size: its slots at their widest breath, its sway both ways
    // (the sway carries every squadron along together, so it is counted once) and a body.
    let breath = 1.0 + f.breathe.max(0.0);
    let block = Vec2::new(
        (hi.x - lo.x) * breath + 2.0 * SHIP_RADIUS + SQUADRON_GAP,
        (hi.y - lo.y) * breath + 2.0 * SHIP_RADIUS + SQUADRON_GAP,
    );
    let room = Vec2::new(
        width - 2.0 * f.sway.abs(),
        height * FORMATION_FLOOR - f.top[1],
    )
    .max(Vec2::ONE);
    let fit = |cols: usize| {
        let rows = n.div_ceil(cols);
        (room.x / (cols as f32 * block.x))
            .min(room.y / (rows as f32 * block.y))
            .min(1.0)
    };
    let cols = (1..=n)
        .max_by(|&a, &b| fit(a).total_cmp(&fit(b)).then(b.cmp(&a)))
        .unwrap_or(1);
    let scale = fit(cols);
    let origins = (0..n)
        .map(|j| {
            let (c, r) = ((j % cols) as f32, (j / cols) as f32);
            let x = (c - (cols as f32 - 1.0) / 2.0) * block.x * scale;
            Vec2::new(x, r * block.y * scale)
        })
        .collect();
    (origins, scale)
}

/// Squadrons of `per` ships out of `total`, as index ranges (the last may be short).
pub(super) fn squadrons(per: usize, total: usize) -> impl Iterator<Item = Range<usize>> {
    let per = per.max(1);
    (0..total.div_ceil(per)).map(move |j| j * per..((j + 1) * per).min(total))
}
