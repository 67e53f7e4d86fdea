//! Least-total-distance assignment of agents to slots: the Hungarian method (Kuhn 1955, Munkres
//! 1957) in its potentials form, O(n³), exact up to [`EXACT`] agents; beyond that, by ranks: the
//! agents and the slots are each ordered from front to back along the formation's heading and
//! cut into groups of [`EXACT`], and each group of agents is assigned exactly to the group of
//! slots at its rank. (A crowd of thousands then costs a few milliseconds, not minutes.)

use glam::Vec2;

/// The most agents assigned exactly as one problem.
pub const EXACT: usize = 128;

/// Row `i`'s column in a least-total-cost assignment of the `n` x `n` matrix `cost(i, j)`
/// (finite costs).
pub fn hungarian(n: usize, cost: impl Fn(usize, usize) -> f64) -> Vec<usize> {
    // Potentials `u` (rows) and `v` (columns), 1-based with column 0 as the sentinel; `p[j]` is
    // the row matched to column `j`, `way[j]` the column before `j` on the augmenting path.
    let mut u = vec![0.0f64; n + 1];
    let mut v = vec![0.0f64; n + 1];
    let mut p = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    let mut minv = vec![f64::INFINITY; n + 1];
    let mut used = vec![false; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        minv.fill(f64::INFINITY);
        used.fill(false);
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = f64::INFINITY;
            let mut j1 = 0;
            for j in 1..=n {
                if used[j] {
                    continue;
                }
                let reduced = cost(i0 - 1, j - 1) - u[i0] - v[j];
                if reduced < minv[j] {
                    minv[j] = reduced;
                    way[j] = j0;
                }
                if minv[j] < delta {
                    delta = minv[j];
                    j1 = j;
                }
            }
            if j1 == 0 {
                // (Only a non-finite cost leaves no column to take: stop rather than loop.)
                break;
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        while j0 != 0 {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        }
    }
    let mut row_to_col = (0..n).collect::<Vec<_>>();
    for j in 1..=n {
        if p[j] != 0 {
            row_to_col[p[j] - 1] = j - 1;
        }
    }
    row_to_col
}

/// Agent `i`'s slot: the least total distance, exact up to [`EXACT`] agents, by ranks along
/// `forward` beyond (see the module). `agents` and `slots` are equally many.
pub fn nearest(agents: &[Vec2], slots: &[Vec2], forward: Vec2) -> Vec<usize> {
    let n = agents.len().min(slots.len());
    if n <= EXACT {
        return hungarian(n, |i, j| f64::from(agents[i].distance(slots[j])));
    }
    let front_first = |points: &[Vec2]| {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            forward
                .dot(points[b])
                .total_cmp(&forward.dot(points[a]))
                .then(a.cmp(&b))
        });
        order
    };
    let (by_agent, by_slot) = (front_first(agents), front_first(slots));
    let mut slot_of = vec![0; n];
    for (a, s) in by_agent.chunks(EXACT).zip(by_slot.chunks(EXACT)) {
        let m = a.len().min(s.len());
        let within = hungarian(m, |i, j| f64::from(agents[a[i]].distance(slots[s[j]])));
        for (i, &j) in within.iter().enumerate() {
            slot_of[a[i]] = s[j];
        }
    }
    slot_of
}

/// The total distance of an assignment.
pub fn cost(agents: &[Vec2], slots: &[Vec2], slot_of: &[usize]) -> f64 {
    agents
        .iter()
        .zip(slot_of)
        .map(|(a, &s)| slots.get(s).map_or(0.0, |s| f64::from(a.distance(*s))))
        .sum()
}
