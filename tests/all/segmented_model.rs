//! `SegmentedList` against `Vec` as the model: random sequences of push,
//! pop, truncate, swap_remove, retain, get_mut, extend, clear and iter_mut;
//! after every step the observable state agrees.

use proptest::prelude::*;
use tickarena::{FrameArena, SegmentedList};

#[derive(Clone, Debug)]
enum Op {
    Push(u32),
    Pop,
    Truncate(usize),
    SwapRemove(usize),
    Retain(u32),
    GetMut(usize, u32),
    Extend(Vec<u32>),
    ExtendLong(u32, usize),
    Clear,
    IterMutAdd(u32),
    Reserve(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => any::<u32>().prop_map(Op::Push),
        4 => Just(Op::Pop),
        2 => (0usize..300).prop_map(Op::Truncate),
        3 => any::<usize>().prop_map(Op::SwapRemove),
        2 => (2u32..6).prop_map(Op::Retain),
        4 => (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Op::GetMut(i, v)),
        3 => prop::collection::vec(any::<u32>(), 0..40).prop_map(Op::Extend),
        1 => (any::<u32>(), 0usize..2000).prop_map(|(v, n)| Op::ExtendLong(v, n)),
        1 => Just(Op::Clear),
        2 => any::<u32>().prop_map(Op::IterMutAdd),
        1 => (0usize..500).prop_map(Op::Reserve),
    ]
}

fn apply<A: core::alloc::Allocator>(
    list: &mut SegmentedList<u32, A>,
    model: &mut Vec<u32>,
    op: &Op,
) {
    match op {
        Op::Push(v) => {
            list.push(*v);
            model.push(*v);
        }
        Op::Pop => assert_eq!(list.pop(), model.pop()),
        Op::Truncate(n) => {
            list.truncate(*n);
            model.truncate(*n);
        }
        Op::SwapRemove(pick) if !model.is_empty() => {
            let i = pick % model.len();
            assert_eq!(list.swap_remove(i), model.swap_remove(i));
        }
        Op::SwapRemove(_) => {}
        Op::Retain(k) => {
            list.retain(|x| x % k != 0);
            model.retain(|x| x % k != 0);
        }
        Op::GetMut(pick, v) => {
            let i = pick % (model.len() + 2);
            match (list.get_mut(i), model.get_mut(i)) {
                (Some(a), Some(b)) => {
                    *a = *v;
                    *b = *v;
                }
                (None, None) => {}
                (a, b) => panic!("get_mut({i}) disagrees: {a:?} vs {b:?}"),
            }
        }
        Op::Extend(values) => {
            list.extend(values.iter().copied());
            model.extend(values.iter().copied());
        }
        Op::ExtendLong(v, n) => {
            list.extend(std::iter::repeat_n(*v, *n));
            model.extend(std::iter::repeat_n(*v, *n));
        }
        Op::Clear => {
            list.clear();
            model.clear();
        }
        Op::IterMutAdd(v) => {
            list.iter_mut().for_each(|x| *x = x.wrapping_add(*v));
            model.iter_mut().for_each(|x| *x = x.wrapping_add(*v));
        }
        Op::Reserve(n) => {
            list.reserve(*n);
            assert!(list.capacity() >= list.len() + n);
        }
    }
}

fn check<A: core::alloc::Allocator>(list: &SegmentedList<u32, A>, model: &[u32]) {
    assert_eq!(list.len(), model.len());
    assert_eq!(list.is_empty(), model.is_empty());
    assert!(list.capacity() >= list.len());
    assert_eq!(list.first(), model.first());
    assert_eq!(list.last(), model.last());
    assert_eq!(list.get(model.len()), None);
    assert_eq!(list.get(usize::MAX), None);
    assert_eq!(list, model);
    let flattened: Vec<u32> = list.segments().flatten().copied().collect();
    assert_eq!(flattened, model);
    let backwards: Vec<u32> = list.iter().rev().copied().collect();
    assert!(backwards.iter().eq(model.iter().rev()));
    assert_eq!(list.iter().len(), model.len());
    if let Some(middle) = model.len().checked_div(2) {
        assert_eq!(list.get(middle), model.get(middle));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 400 }))]

    // 400 cases of up to 400 operations: well over 10^5 operations per run.
    #[test]
    fn global_list_matches_vec(ops in prop::collection::vec(op(), 1..400)) {
        let mut list = SegmentedList::new();
        let mut model = Vec::new();
        for op in &ops {
            apply(&mut list, &mut model, op);
            check(&list, &model);
        }
    }

    #[test]
    fn arena_list_matches_vec(ops in prop::collection::vec(op(), 1..100)) {
        let arena = FrameArena::builder().reserve(64 << 20).build().unwrap();
        let mut list = SegmentedList::new_in(&arena);
        let mut model = Vec::new();
        for op in &ops {
            apply(&mut list, &mut model, op);
            check(&list, &model);
        }
    }
}
