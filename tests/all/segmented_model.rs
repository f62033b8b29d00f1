//! `SegmentedList` against `Vec` (`tests/models/segmented.rs`) on random
//! operation sequences, on the global allocator and in an arena.

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::segmented::{Op, run};

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => any::<u32>().prop_map(Op::Push),
        4 => Just(Op::Pop),
        2 => (0u16..300).prop_map(Op::Truncate),
        3 => any::<u16>().prop_map(Op::SwapRemove),
        2 => any::<u8>().prop_map(Op::Retain),
        4 => (any::<u16>(), any::<u32>()).prop_map(|(i, v)| Op::GetMut(i, v)),
        3 => prop::collection::vec(any::<u32>(), 0..40).prop_map(Op::Extend),
        1 => (any::<u32>(), any::<u16>()).prop_map(|(v, n)| Op::ExtendLong(v, n)),
        1 => Just(Op::Clear),
        2 => any::<u32>().prop_map(Op::IterMutAdd),
        1 => any::<u16>().prop_map(Op::Reserve),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(400)))]

    // 400 cases of up to 400 operations, run twice (global and arena): well
    // over 10^5 operations per run.
    #[test]
    fn list_matches_vec(ops in prop::collection::vec(op(), 1..if cfg!(miri) { 40 } else { 400 })) {
        run(&ops);
    }
}
