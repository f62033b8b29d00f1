//! A hashbrown map in a frame arena (through allocator-api2's `Allocator`,
//! on stable) against std's `HashMap` on the global allocator, on random
//! sequences of operations: same contents after each, every frame.

use std::collections::HashMap as StdMap;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use proptest::prelude::*;
use tickarena::FrameArena;

#[derive(Clone, Debug)]
enum Op {
    Insert(u16, u32),
    Remove(u16),
    AddTo(u16, u32),
    RetainEven,
    Reserve(u8),
    ShrinkToFit,
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    // Keys from a small range, so that removes and updates hit.
    let key = 0u16..200;
    prop_oneof![
        4 => (key.clone(), any::<u32>()).prop_map(|(k, v)| Op::Insert(k, v)),
        2 => key.clone().prop_map(Op::Remove),
        2 => (key, any::<u32>()).prop_map(|(k, v)| Op::AddTo(k, v)),
        1 => Just(Op::RetainEven),
        1 => any::<u8>().prop_map(Op::Reserve),
        1 => Just(Op::ShrinkToFit),
        1 => Just(Op::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(128)))]

    #[test]
    fn hashbrown_in_an_arena_matches_std_hashmap(
        frames in prop::collection::vec(prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 120 }), 1..4)
    ) {
        let mut arena = FrameArena::builder().reserve(64 << 20).build().unwrap();
        for ops in frames {
            {
                let mut map = hashbrown::HashMap::new_in(&arena);
                let mut model = StdMap::new();
                for op in ops {
                    match op {
                        Op::Insert(k, v) => prop_assert_eq!(map.insert(k, v), model.insert(k, v)),
                        Op::Remove(k) => prop_assert_eq!(map.remove(&k), model.remove(&k)),
                        Op::AddTo(k, v) => {
                            let a = map.entry(k).or_insert(0u32);
                            *a = a.wrapping_add(v);
                            let b = model.entry(k).or_insert(0u32);
                            *b = b.wrapping_add(v);
                        }
                        Op::RetainEven => {
                            map.retain(|_, v| *v % 2 == 0);
                            model.retain(|_, v| *v % 2 == 0);
                        }
                        Op::Reserve(n) => map.reserve(usize::from(n)),
                        Op::ShrinkToFit => map.shrink_to_fit(),
                        Op::Clear => {
                            map.clear();
                            model.clear();
                        }
                    }
                    prop_assert_eq!(map.len(), model.len());
                }
                let mut contents: Vec<(u16, u32)> = map.iter().map(|(k, v)| (*k, *v)).collect();
                contents.sort_unstable();
                let mut expected: Vec<(u16, u32)> = model.into_iter().collect();
                expected.sort_unstable();
                prop_assert_eq!(contents, expected);
            }
            arena = arena.reclaim();
            prop_assert_eq!(arena.used(), 0);
        }
    }
}
