//! `SegmentedList` against `Vec` as the model: after every operation the
//! lengths, contents, ends, out-of-range `get`s and segments agree.

use core::alloc::Allocator;

use tickarena::{FrameArena, SegmentedList};

/// One operation on the list and the model. Counts and picks are reduced
/// into range by [`apply`], so any value is valid.
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    Push(u32),
    Pop,
    Truncate(u16),
    SwapRemove(u16),
    Retain(u8),
    GetMut(u16, u32),
    Extend(Vec<u32>),
    ExtendLong(u32, u16),
    Clear,
    IterMutAdd(u32),
    Reserve(u16),
}

/// Applies `op` to both.
pub fn apply<A: Allocator>(list: &mut SegmentedList<u32, A>, model: &mut Vec<u32>, op: &Op) {
    match op {
        Op::Push(v) => {
            list.push(*v);
            model.push(*v);
        }
        Op::Pop => assert_eq!(list.pop(), model.pop()),
        Op::Truncate(n) => {
            let n = *n as usize % 300;
            list.truncate(n);
            model.truncate(n);
        }
        Op::SwapRemove(pick) if !model.is_empty() => {
            let i = *pick as usize % model.len();
            assert_eq!(list.swap_remove(i), model.swap_remove(i));
        }
        Op::SwapRemove(_) => {}
        Op::Retain(k) => {
            let k = u32::from(k % 4) + 2;
            list.retain(|x| x % k != 0);
            model.retain(|x| x % k != 0);
        }
        Op::GetMut(pick, v) => {
            let i = *pick as usize % (model.len() + 2);
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
            // Long enough to cross several segments; shorter under Miri.
            let n = *n as usize % if cfg!(miri) { 100 } else { 2000 };
            list.extend(std::iter::repeat_n(*v, n));
            model.extend(std::iter::repeat_n(*v, n));
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
            let n = *n as usize % 500;
            list.reserve(n);
            assert!(list.capacity() >= list.len() + n);
        }
    }
}

/// Checks everything observable against the model.
pub fn check<A: Allocator>(list: &SegmentedList<u32, A>, model: &[u32]) {
    assert_eq!(list.len(), model.len());
    assert_eq!(list.is_empty(), model.is_empty());
    assert!(list.capacity() >= list.len());
    assert_eq!(list.first(), model.first());
    assert_eq!(list.last(), model.last());
    assert_eq!(list.get(model.len()), None);
    assert_eq!(list.get(usize::MAX), None);
    assert_eq!(list, model);
    assert!(list.segments().flatten().eq(model.iter()));
    assert!(list.iter().rev().eq(model.iter().rev()));
    assert_eq!(list.iter().len(), model.len());
    let middle = model.len() / 2;
    assert_eq!(list.get(middle), model.get(middle));
}

/// Runs `ops` on a list on the global allocator and on one in an arena.
pub fn run(ops: &[Op]) {
    let mut list = SegmentedList::new();
    let mut model = Vec::new();
    for op in ops {
        apply(&mut list, &mut model, op);
        check(&list, &model);
    }
    let arena = FrameArena::builder().reserve(64 << 20).build().unwrap();
    let mut list = SegmentedList::new_in(&arena);
    let mut model = Vec::new();
    for op in ops {
        apply(&mut list, &mut model, op);
        check(&list, &model);
    }
}
