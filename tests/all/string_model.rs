//! `tickarena::String` against `std::string::String`
//! (`tests/models/string.rs`) on random sequences of the mutating
//! operations, ASCII and multi-byte, in an arena and on the global allocator.

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::string::{Op, run};

const CHARS: &[char] = &['a', 'Z', ' ', '7', 'é', 'ß', '→', '€', '😀', '\u{10FFFF}'];

fn any_char() -> impl Strategy<Value = char> {
    prop::sample::select(CHARS)
}

fn any_text() -> impl Strategy<Value = std::string::String> {
    prop::collection::vec(any_char(), 0..12).prop_map(|chars| chars.into_iter().collect())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any_char().prop_map(Op::Push),
        any_text().prop_map(Op::PushStr),
        (any::<u16>(), any_char()).prop_map(|(i, c)| Op::Insert(i, c)),
        (any::<u16>(), any_text()).prop_map(|(i, s)| Op::InsertStr(i, s)),
        Just(Op::Pop),
        any::<u16>().prop_map(Op::Remove),
        any::<u16>().prop_map(Op::Truncate),
        Just(Op::Clear),
        any::<u8>().prop_map(Op::Retain),
        (0u8..100).prop_map(Op::Reserve),
        Just(Op::ShrinkToFit),
        prop::collection::vec(any_char(), 0..6).prop_map(Op::ExtendChars),
        any_text().prop_map(Op::AddAssign),
        (any::<u16>(), any_char()).prop_map(|(i, c)| Op::InsertAnywhere(i, c)),
        (any::<u16>(), any_text()).prop_map(|(i, s)| Op::InsertStrAnywhere(i, s)),
        any::<u16>().prop_map(Op::RemoveAnywhere),
        any::<u16>().prop_map(Op::TruncateAnywhere),
        (1u8..4, 0u8..8).prop_map(|(reject_every, panic_at)| Op::RetainPanicking {
            reject_every,
            panic_at
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    // Shorter sequences interpreted (the panicking operations unwind
    // through Miri: about 1.5 s an operation there).
    #[test]
    fn string_matches_std_string(ops in prop::collection::vec(op(), 1..if cfg!(miri) { 20 } else { 60 })) {
        run(&ops);
    }
}
