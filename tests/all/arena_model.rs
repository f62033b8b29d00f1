//! The arena against its model (`tests/models/arena.rs`) on random
//! operation sequences.

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::arena::{Op, run, run_in};

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<u32>(), 0u8..13).prop_map(|(size, align_log)| Op::Alloc { size, align_log }),
        3 => (any::<u16>(), any::<u16>(), 0u8..8)
            .prop_map(|(pick, extra, align_log)| Op::Grow { pick, extra, align_log }),
        2 => (any::<u16>(), any::<u32>()).prop_map(|(pick, keep)| Op::Shrink { pick, keep }),
        2 => any::<u16>().prop_map(|pick| Op::Dealloc { pick }),
        1 => Just(Op::Reclaim),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    #[test]
    fn live_allocations_match_the_model(ops in prop::collection::vec(op(), 1..if cfg!(miri) { 30 } else { 80 })) {
        run(&ops);
    }

    /// On 64 KiB (8 KiB under Miri, for its shorter sequences of
    /// smaller blocks), where most sequences run out: every refusal
    /// counted, with the bytes the model says.
    #[test]
    fn refusals_on_a_small_arena_match_the_model(ops in prop::collection::vec(op(), 1..if cfg!(miri) { 30 } else { 80 })) {
        run_in(&ops, if cfg!(miri) { 8 << 10 } else { 64 << 10 });
    }
}
