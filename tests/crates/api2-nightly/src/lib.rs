//! Built and tested by `.ci/run` on Rust 1.100:
//! before the fix, tickarena failed to compile here (E0119, two impls of
//! core's `Allocator` for `FrameArena`).

// The crate is here to be built in this graph: named, so that cargo's
// unused-dependency lint sees it used.
use tickarena as _;

/// Takes any allocator through allocator-api2's trait, as crates written
/// for stable Rust do.
pub fn sum_in<A: allocator_api2::alloc::Allocator>(values: &[u32], alloc: A) -> u32 {
    let mut copy = allocator_api2::vec::Vec::new_in(alloc);
    copy.extend_from_slice(values);
    copy.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::sum_in;
    use tickarena::{FrameArena, FrameHashMap};

    #[test]
    fn the_arena_serves_both_traits_in_this_graph() {
        let arena = FrameArena::new();
        assert_eq!(sum_in(&[1, 2, 3], &arena), 6);
        let mut seen: FrameHashMap<'_, &str, u32> = FrameHashMap::new_in(&arena);
        *seen.entry("unit").or_default() += 2;
        let mut std_vec = Vec::new_in(&arena);
        std_vec.push(seen["unit"]);
        assert_eq!(std_vec, [2]);
        assert!(arena.used() > 0, "all of it in the arena");
    }
}
