//! `tickarena::String` against `std::string::String` as the model: same
//! contents and lengths after every mutating operation.

use core::alloc::Allocator;

use tickarena::{FrameArena, String};

/// One operation on the string and the model. Positions are picks among
/// the char boundaries, reduced into range by [`apply`].
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    Push(char),
    PushStr(std::string::String),
    Insert(u16, char),
    InsertStr(u16, std::string::String),
    Pop,
    Remove(u16),
    Truncate(u16),
    Clear,
    Retain(u8),
    Reserve(u8),
    ShrinkToFit,
    ExtendChars(Vec<char>),
    AddAssign(std::string::String),
    /// Byte positions anywhere, on or off a char boundary, up to past the
    /// end: these may panic, and then with std's message, leaving what
    /// std's leaves.
    InsertAnywhere(u16, char),
    InsertStrAnywhere(u16, std::string::String),
    RemoveAnywhere(u16),
    TruncateAnywhere(u16),
    /// `retain` rejecting every `reject_every`-th character it is shown,
    /// and panicking on the `panic_at`-th (if there is one).
    RetainPanicking {
        reject_every: u8,
        panic_at: u8,
    },
}

/// The char boundary `pick` lands on: a start of a character, or the end.
fn boundary(model: &str, pick: u16) -> usize {
    let count = model.chars().count() + 1;
    model
        .char_indices()
        .map(|(i, _)| i)
        .chain([model.len()])
        .nth(pick as usize % count)
        .unwrap()
}

/// A byte position anywhere in `model`, or up to two bytes past its end.
fn anywhere(model: &str, pick: u16) -> usize {
    pick as usize % (model.len() + 3)
}

/// Runs `ours` and `model`, each catching a panic: both return the same
/// value, or both panic with the same message.
fn same_outcome<R: PartialEq + core::fmt::Debug>(
    ours: impl FnOnce() -> R,
    model: impl FnOnce() -> R,
) {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let message = |payload: Box<dyn core::any::Any + Send>| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<std::string::String>().cloned())
            .unwrap_or_default()
    };
    let ours = catch_unwind(AssertUnwindSafe(ours)).map_err(message);
    let model = catch_unwind(AssertUnwindSafe(model)).map_err(message);
    assert_eq!(
        ours, model,
        "tickarena's outcome (left) differs from std's (right)"
    );
}

/// A `retain` predicate that rejects every `reject_every`-th character
/// and panics on the `panic_at`-th.
fn panicking_keep(reject_every: u8, panic_at: u8) -> impl FnMut(char) -> bool {
    let mut shown = 0u32;
    move |_| {
        shown += 1;
        if shown == u32::from(panic_at) {
            panic!("keep panicked on character {shown}");
        }
        !shown.is_multiple_of(u32::from(reject_every.max(1)))
    }
}

/// Applies `op` to both.
pub fn apply<A: Allocator>(ours: &mut String<A>, model: &mut std::string::String, op: &Op) {
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
            let at = model.char_indices().nth(*pick as usize % starts).unwrap().0;
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
            let k = u32::from(k % 4) + 1;
            let keep = |c: char| !(c as u32).is_multiple_of(k);
            ours.retain(keep);
            model.retain(keep);
        }
        Op::Reserve(n) => {
            ours.reserve(*n as usize);
            assert!(ours.capacity() >= ours.len() + *n as usize);
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
        // Panics are compared where they can be caught: not on wasm32
        // (a panic aborts), nor under cargo fuzz (libfuzzer-sys's panic
        // hook aborts on any panic, caught or not).
        _ if !cfg!(panic = "unwind") || cfg!(fuzzing) => {}
        Op::InsertAnywhere(pick, c) => {
            let at = anywhere(model, *pick);
            same_outcome(|| ours.insert(at, *c), || model.insert(at, *c));
        }
        Op::InsertStrAnywhere(pick, s) => {
            let at = anywhere(model, *pick);
            same_outcome(|| ours.insert_str(at, s), || model.insert_str(at, s));
        }
        Op::RemoveAnywhere(pick) => {
            let at = anywhere(model, *pick);
            same_outcome(|| ours.remove(at), || model.remove(at));
        }
        Op::TruncateAnywhere(pick) => {
            let at = anywhere(model, *pick);
            same_outcome(|| ours.truncate(at), || model.truncate(at));
        }
        Op::RetainPanicking {
            reject_every,
            panic_at,
        } => {
            let (reject_every, panic_at) = (*reject_every, *panic_at);
            same_outcome(
                || ours.retain(panicking_keep(reject_every, panic_at)),
                || model.retain(panicking_keep(reject_every, panic_at)),
            );
        }
    }
}

/// Checks everything observable against the model.
pub fn check<A: Allocator>(ours: &String<A>, model: &str) {
    assert_eq!(ours.as_str(), model);
    assert_eq!(ours.len(), model.len());
    assert_eq!(ours.is_empty(), model.is_empty());
    assert!(ours.chars().eq(model.chars()));
    assert!(ours.capacity() >= ours.len());
}

/// Runs `ops` on a string in an arena (next to another growing
/// allocation, so growth is not always at the top) and on the global
/// allocator.
pub fn run(ops: &[Op]) {
    let arena = FrameArena::builder().reserve(16 << 20).build().unwrap();
    let mut ours = String::new_in(&arena);
    let mut model = std::string::String::new();
    let mut neighbour = Vec::new_in(&arena);
    for (step, op) in ops.iter().enumerate() {
        apply(&mut ours, &mut model, op);
        check(&ours, &model);
        if step % 7 == 0 {
            neighbour.push(step);
        }
    }
    let mut ours = String::new();
    let mut model = std::string::String::new();
    for op in ops {
        apply(&mut ours, &mut model, op);
        check(&ours, &model);
    }
}
