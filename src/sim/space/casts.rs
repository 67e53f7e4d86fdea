//! When agents cast their rays at the obstacles: Buckland's regulator, with the crowd taking
//! turns.

/// When agents cast their rays (Buckland's regulator): `hz` times a second on a `tick_hz` clock,
/// agent `id` on the ticks where its count of casts, `⌊(tick + id) · hz / tick_hz⌋`, goes up.
/// Agents take turns by id, so a crowd's casts spread over the ticks, and the rate is the one
/// asked for (20 on 60: every third tick; 25: every second or third tick, 25 a second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastSchedule {
    /// Casts per tick in 32.32 fixed point, rounded up: whole-number tick intervals come out
    /// exact (a third rounded down would put every third cast a tick late), and any rate is off
    /// by less than one cast in four billion ticks.
    per_tick: u64,
}

impl CastSchedule {
    pub fn new(hz: f32, tick_hz: f32) -> Self {
        let per_tick = (f64::from(hz) / f64::from(tick_hz)).clamp(0.0, 1.0);
        CastSchedule {
            per_tick: (per_tick * 4_294_967_296.0).ceil() as u64,
        }
    }

    /// Whether agent `id` casts on `tick`: whether the count went up since the tick before, that
    /// is whether adding one tick's casts carried into the whole part — the fraction left after
    /// it is smaller than what was added (also at tick 0, counted from a whole −1).
    pub fn due(&self, tick: u64, id: u32) -> bool {
        let n = tick.wrapping_add(u64::from(id));
        n.wrapping_mul(self.per_tick) & 0xFFFF_FFFF < self.per_tick
    }
}
