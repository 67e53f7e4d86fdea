//! The stage: the data, the squadrons' slots, the clock, wave and dive scheduling, and its
//! figures; where a path starts and how a ship is kept inside the walls.

use super::layout::{Slot, squadron_layout, squadrons};
use super::ship::{PathName, SHIP_RADIUS, Ship, ShipState, kind_index};
use crate::data::patterns::{FORMATION_ROWS, GalagaData, ShipKind};
use crate::data::tuning::VehicleTuning;
use glam::{DVec2, Vec2};
use std::f64::consts::{FRAC_PI_2 as FRAC_PI_2_64, PI as PI_64};
use std::ops::Range;

/// Where a wrapped ship drops back in, below the top wall (px).
pub(super) const WRAP_Y: f32 = 16.0;

/// The stage: the data, the formation's motion, wave and dive scheduling, and its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    pub data: GalagaData,
    /// Every path's name, in order: flights take theirs from here.
    names: Vec<PathName>,
    pub slots: Vec<Slot>,
    pub t: f32,
    pub width: f32,
    pub height: f32,
    pub next_wave: usize,
    pub waves_launched: u32,
    pub complete_at: Option<f32>,
    pub breathe_from: Option<f32>,
    /// Next dive time per kind (boss, escort, drone).
    pub next_dive: [f32; 3],
    pub dives: u32,
    pub max_in_flight: u32,
    /// Ships in a whole squadron (the data's stage); the ships are held squadron by squadron.
    pub per_squadron: usize,
    /// How much the squadrons' formations are shrunk to fit (1: as the data draws them).
    pub scale: f32,
    /// The escorts flying beside a leader this tick, noted as the fleet is gone through once,
    /// so they can keep station after every leader has moved without a second pass over the
    /// whole fleet (empty between ticks; room for the whole fleet, so no tick grows it).
    pub(super) followers: Vec<usize>,
}

/// `name` from `names` (sorted), shared; a name not among them (data that was not checked) gets
/// its own copy.
fn path_name(names: &[PathName], name: &str) -> PathName {
    match names.binary_search_by(|n| (**n).cmp(name)) {
        Ok(i) => names[i].clone(),
        Err(_) => PathName::from(name),
    }
}

impl Stage {
    /// The stage and its `count` ships, queued at their entries: whole squadrons of the data's
    /// stage and then the first ships, in launch order, of one more (see the module doc).
    pub fn new(data: &GalagaData, width: f32, height: f32, count: usize) -> (Stage, Vec<Ship>) {
        let f = &data.formation;
        let mut slots = Vec::new();
        for (row, (kind, n)) in FORMATION_ROWS.iter().enumerate() {
            for col in 0..*n {
                let x = (col as f32 - (*n as f32 - 1.0) / 2.0) * f.column_spacing;
                slots.push(Slot {
                    kind: *kind,
                    origin: Vec2::ZERO,
                    offset: Vec2::new(x, row as f32 * f.row_spacing),
                });
            }
        }
        // Slots fill from the centre of each row outward, the upper row of a kind first.
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by(|&a, &b| {
            let (sa, sb) = (slots[a], slots[b]);
            (
                kind_index(sa.kind),
                sa.offset.y,
                sa.offset.x.abs(),
                sa.offset.x,
            )
                .partial_cmp(&(
                    kind_index(sb.kind),
                    sb.offset.y,
                    sb.offset.x.abs(),
                    sb.offset.x,
                ))
                .expect("slot offsets are finite")
        });
        let mut taken = vec![false; slots.len()];
        let names: Vec<PathName> = data
            .paths
            .keys()
            .map(|k| PathName::from(k.as_str()))
            .collect();
        let params = VehicleTuning {
            max_speed: data.max_speed,
            max_force: f32::MAX,
            mass: 1.0,
            radius: SHIP_RADIUS,
        };
        let mut ships = Vec::new();
        for (w, wave) in data.waves.iter().enumerate() {
            for pair in &wave.pairs {
                for kind in pair.kinds {
                    let Some(&slot) = order.iter().find(|&&s| !taken[s] && slots[s].kind == kind)
                    else {
                        continue;
                    };
                    taken[slot] = true;
                    ships.push(Ship {
                        kind,
                        slot,
                        state: ShipState::Queued,
                        flight: None,
                        heading: FRAC_PI_2_64,
                        pos: DVec2::ZERO,
                        speed: 0.0,
                        launch_at: None,
                        wave: w,
                        entry: (path_name(&names, &pair.path), pair.mirror),
                        follow: None,
                        caught: false,
                        params,
                    });
                }
            }
        }
        // `ships` is one squadron now; the stage holds as many as `count` takes.
        let per_squadron = ships.len();
        let squadrons = if per_squadron == 0 {
            1
        } else {
            count.div_ceil(per_squadron).max(1)
        };
        let (origins, scale) = squadron_layout(data, &slots, width, height, squadrons);
        let local = slots;
        let slots = origins
            .iter()
            .flat_map(|&origin| {
                local.iter().map(move |s| Slot {
                    origin,
                    offset: s.offset * scale,
                    ..*s
                })
            })
            .collect();
        let slots_per = local.len();
        let ships = (0..squadrons)
            .flat_map(|j| {
                ships.iter().map(move |s| Ship {
                    slot: j * slots_per + s.slot,
                    ..s.clone()
                })
            })
            .take(count)
            .collect();
        let stage = Stage {
            data: data.clone(),
            names,
            slots,
            t: 0.0,
            width,
            height,
            next_wave: 0,
            waves_launched: 0,
            complete_at: None,
            breathe_from: None,
            next_dive: [0.0; 3],
            dives: 0,
            max_in_flight: 0,
            per_squadron,
            scale,
            followers: Vec::with_capacity(count),
        };
        (stage, ships)
    }

    /// The ships of each squadron: index ranges into the stage's ships (`total` of them).
    pub fn squadrons(&self, total: usize) -> impl Iterator<Item = Range<usize>> + use<> {
        squadrons(self.per_squadron, total)
    }

    /// Where a path starts for a flank, and its heading (radians).
    pub fn entry_point(&self, path: &str, mirror: bool) -> (DVec2, f64) {
        let p = &self.data.paths[path];
        let start = Vec2::from(p.start.unwrap_or([self.width / 2.0, WRAP_Y])).as_dvec2();
        let heading = f64::from(p.heading.unwrap_or(90.0)).to_radians();
        let (start, heading) = if mirror {
            (
                DVec2::new(f64::from(self.width) - start.x, start.y),
                PI_64 - heading,
            )
        } else {
            (start, heading)
        };
        // The paths are drawn for the default arena; in a smaller one, start inside the walls.
        (self.inside(start), heading)
    }

    /// `p` moved inside the walls by a ship's radius.
    pub(super) fn inside(&self, p: DVec2) -> DVec2 {
        let r = f64::from(SHIP_RADIUS);
        let size = DVec2::new(f64::from(self.width), f64::from(self.height));
        p.clamp(DVec2::splat(r).min(size * 0.5), (size - r).max(size * 0.5))
    }

    /// The stage's copy of a path's name (every name the data uses is a path's, once checked).
    pub fn path_name(&self, name: &str) -> PathName {
        path_name(&self.names, name)
    }

    pub(super) fn dive_path(&self, kind: ShipKind) -> &str {
        match kind {
            ShipKind::Boss => &self.data.dives.boss_path,
            ShipKind::Escort => &self.data.dives.escort_path,
            ShipKind::Drone => &self.data.dives.drone_path,
        }
    }
}

/// Keep a ship inside the walls; true if it had to be moved.
pub(super) fn clamp_inside(stage: &Stage, p: DVec2) -> (DVec2, bool) {
    let r = f64::from(SHIP_RADIUS);
    let c = p.clamp(
        DVec2::splat(r),
        DVec2::new(f64::from(stage.width) - r, f64::from(stage.height) - r),
    );
    (c, c != p)
}
