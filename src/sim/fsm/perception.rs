//! What a guard perceives: a vision cone (range and half-angle about its heading) whose line of
//! sight obstacles block, hearing of a running player through walls, and the schedule of looks
//! that spreads a crowd's ray casts over the ticks.

use crate::data::fsm::FsmTuning;
use crate::sim::space::arena::Arena;
use glam::Vec2;

/// A vision cone: what lies within `range` of the eye and within `half_angle` of the heading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vision {
    pub range: f32,
    /// Radians either side of the heading.
    pub half_angle: f32,
    cos_half: f32,
}

impl Vision {
    pub fn new(range: f32, half_angle_deg: f32) -> Vision {
        let half_angle = half_angle_deg.clamp(0.0, 180.0).to_radians();
        Vision {
            range: range.max(0.0),
            half_angle,
            cos_half: half_angle.cos(),
        }
    }

    pub fn from_tuning(t: &FsmTuning) -> Vision {
        Vision::new(t.vision_range, t.vision_half_angle_deg)
    }

    /// Whether `target` lies inside the cone from `eye` looking along unit `facing` (obstacles
    /// aside). A target on the eye is inside; a zero `facing` sees only with a half-angle of 90°
    /// or more.
    pub fn in_cone(&self, eye: Vec2, facing: Vec2, target: Vec2) -> bool {
        let to = target - eye;
        let d2 = to.length_squared();
        // (A non-finite target fails here: NaN compares false.)
        let within = d2 <= self.range * self.range;
        if !within {
            return false;
        }
        if d2 < 1e-6 {
            return true;
        }
        // cos(angle) >= cos(half), kept free of the square root's sign: dot >= |to| cos(half).
        to.dot(facing) >= d2.sqrt() * self.cos_half
    }

    /// Inside the cone with nothing in the way.
    pub fn sees(&self, arena: &Arena, eye: Vec2, facing: Vec2, target: Vec2) -> bool {
        self.in_cone(eye, facing, target) && line_of_sight(arena, eye, target)
    }

    /// The cone's two edges, at full range: left (counter-clockwise on screen) then right, for
    /// drawing.
    pub fn edges(&self, eye: Vec2, facing: Vec2) -> (Vec2, Vec2) {
        let f = facing.normalize_or_zero();
        let left = Vec2::from_angle(-self.half_angle).rotate(f);
        let right = Vec2::from_angle(self.half_angle).rotate(f);
        (eye + left * self.range, eye + right * self.range)
    }
}

/// Whether no obstacle stands between `from` and `to` (the arena's ray cast, walls aside: both
/// ends are inside).
pub fn line_of_sight(arena: &Arena, from: Vec2, to: Vec2) -> bool {
    let d = to - from;
    let length = d.length();
    if !length.is_finite() {
        return false;
    }
    if length < 1e-3 {
        return true;
    }
    arena.ray_cast(from, d / length, length).is_none()
}

/// Hearing: a player moving at `min_speed` or faster within `radius` is heard, walls or not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hearing {
    pub radius: f32,
    pub min_speed: f32,
}

impl Hearing {
    pub fn from_tuning(t: &FsmTuning) -> Hearing {
        Hearing {
            radius: t.hearing_radius,
            min_speed: t.hearing_min_speed,
        }
    }

    pub fn hears(&self, ear: Vec2, target: Vec2, target_vel: Vec2) -> bool {
        self.radius > 0.0
            && ear.distance_squared(target) <= self.radius * self.radius
            && target_vel.length_squared() >= self.min_speed * self.min_speed
    }
}

/// When each guard looks: every `period` ticks, guard `id` on the ticks where `(tick + id)` is a
/// multiple of it, so a crowd's looks spread evenly. The period is the whole number of ticks that
/// keeps the looks at least `hz` a second, so a player who comes into view is seen within
/// `1 / hz` s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookSchedule {
    period: u32,
}

impl LookSchedule {
    pub fn new(hz: f32, tick_hz: f32) -> LookSchedule {
        let ticks = f64::from(tick_hz) / f64::from(hz);
        let period = if ticks.is_finite() {
            // A hair of slack so 60 / 10 is 6 ticks, not 5.
            (ticks + 1e-6).floor().clamp(1.0, 1e6) as u32
        } else {
            1
        };
        LookSchedule { period }
    }

    /// Ticks between one guard's looks.
    pub fn period(&self) -> u32 {
        self.period
    }

    pub fn due(&self, tick: u64, id: u32) -> bool {
        tick.wrapping_add(u64::from(id)) % u64::from(self.period) == 0
    }
}
