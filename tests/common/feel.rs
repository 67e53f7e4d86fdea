//! The feelers as the avoidance tests read them: how often a cast found its surface afresh.

use steering_arena::sim::space::feelers::Feel;

/// On how many of the ticks after the first the felt surface point moved, i.e. a cast found it
/// afresh; asserts that a point held between casts came nearer (its depth grew), as the
/// regulator's held hit must. `what` labels the failures.
pub fn casts_among(felt: &[Feel], what: &str) -> usize {
    let mut moved = 0;
    for pair in felt.windows(2) {
        let (was, now) = (pair[0], pair[1]);
        if now.hit.point == was.hit.point {
            assert!(
                now.depth > was.depth,
                "{what}: a held hit must come nearer: {was:?} then {now:?}"
            );
        } else {
            moved += 1;
        }
    }
    moved
}
