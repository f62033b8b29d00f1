//! `tickarena::String` against `std::string::String` as the model: random
//! sequences of the mutating operations, ASCII and multi-byte, in the arena
//! and on the global allocator; same contents after every step.

use proptest::prelude::*;
use tickarena::{FrameArena, String};

const CHARS: &[char] = &['a', 'Z', ' ', '7', 'é', 'ß', '→', '€', '😀', '\u{10FFFF}'];

#[derive(Clone, Debug)]
enum Op {
    Push(char),
    PushStr(std::string::String),
    Insert(usize, char),
    InsertStr(usize, std::string::String),
    Pop,
    Remove(usize),
    Truncate(usize),
    Clear,
    Retain(u32),
    Reserve(usize),
    ShrinkToFit,
    ExtendChars(Vec<char>),
    AddAssign(std::string::String),
}

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
        (any::<usize>(), any_char()).prop_map(|(i, c)| Op::Insert(i, c)),
        (any::<usize>(), any_text()).prop_map(|(i, s)| Op::InsertStr(i, s)),
        Just(Op::Pop),
        any::<usize>().prop_map(Op::Remove),
        any::<usize>().prop_map(Op::Truncate),
        Just(Op::Clear),
        (1u32..5).prop_map(Op::Retain),
        (0usize..100).prop_map(Op::Reserve),
        Just(Op::ShrinkToFit),
        prop::collection::vec(any_char(), 0..6).prop_map(Op::ExtendChars),
        any_text().prop_map(Op::AddAssign),
    ]
}

/// The char boundary `pick` lands on: one of the starts of the characters,
/// or the end.
fn boundary(model: &str, pick: usize) -> usize {
    let count = model.chars().count() + 1;
    model
        .char_indices()
        .map(|(i, _)| i)
        .chain([model.len()])
        .nth(pick % count)
        .unwrap()
}

fn apply<A: core::alloc::Allocator>(
    ours: &mut String<A>,
    model: &mut std::string::String,
    op: &Op,
) {
    match op {
        Op::Push(c) => {
            ours.push(*c);
            model.push(*c);
        }
        Op::PushStr(s) => {
            ours.push_str(s);
            model.push_str(s);
        }
        Op::Insert(pick, c) => {
            let at = boundary(model, *pick);
            ours.insert(at, *c);
            model.insert(at, *c);
        }
        Op::InsertStr(pick, s) => {
            let at = boundary(model, *pick);
            ours.insert_str(at, s);
            model.insert_str(at, s);
        }
        Op::Pop => assert_eq!(ours.pop(), model.pop()),
        Op::Remove(pick) if !model.is_empty() => {
            let starts = model.chars().count();
            let at = model.char_indices().nth(pick % starts).unwrap().0;
            assert_eq!(ours.remove(at), model.remove(at));
        }
        Op::Remove(_) => {}
        Op::Truncate(pick) => {
            let at = boundary(model, *pick);
            ours.truncate(at);
            model.truncate(at);
        }
        Op::Clear => {
            ours.clear();
            model.clear();
        }
        Op::Retain(k) => {
            let keep = |c: char| !(c as u32).is_multiple_of(*k);
            ours.retain(keep);
            model.retain(keep);
        }
        Op::Reserve(n) => {
            ours.reserve(*n);
            assert!(ours.capacity() >= ours.len() + n);
        }
        Op::ShrinkToFit => {
            ours.shrink_to_fit();
            assert!(ours.capacity() >= ours.len());
        }
        Op::ExtendChars(chars) => {
            ours.extend(chars.iter().copied());
            model.extend(chars.iter().copied());
        }
        Op::AddAssign(s) => {
            *ours += s;
            *model += s;
        }
    }
}

fn check<A: core::alloc::Allocator>(ours: &String<A>, model: &str) {
    assert_eq!(ours.as_str(), model);
    assert_eq!(ours.len(), model.len());
    assert_eq!(ours.is_empty(), model.is_empty());
    assert_eq!(ours.chars().count(), model.chars().count());
    assert!(ours.capacity() >= ours.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn arena_string_matches_std_string(ops in prop::collection::vec(op(), 1..60)) {
        let arena = FrameArena::builder().reserve(16 << 20).build().unwrap();
        let mut ours = String::new_in(&arena);
        let mut model = std::string::String::new();
        // Another live allocation now and then, so growth is not always at the top.
        let mut neighbour = Vec::new_in(&arena);
        for (step, op) in ops.iter().enumerate() {
            apply(&mut ours, &mut model, op);
            check(&ours, &model);
            if step % 7 == 0 {
                neighbour.push(step);
            }
        }
    }

    #[test]
    fn global_string_matches_std_string(ops in prop::collection::vec(op(), 1..60)) {
        let mut ours = String::new();
        let mut model = std::string::String::new();
        for op in &ops {
            apply(&mut ours, &mut model, op);
            check(&ours, &model);
        }
    }
}
