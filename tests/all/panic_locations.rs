//! A panic of the arena's `alloc*` methods, of `FrameRows`/`RowsBuilder`
//! and of the crate's other collections names the caller's line (they are
//! `#[track_caller]`), never a line of tickarena's own source: what a user
//! reads first is where their code asked too much.
//!
//! A panic hook records each panic's location. The hook is the process's,
//! so the cases run in a child process (this test binary, this test only)
//! where no other test panics meanwhile.

#![cfg(not(miri))] // Miri cannot start a child process.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, FrameRows, RowsBuilder, SegmentedList};

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_PANIC_LOCATIONS_CHILD";

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn panics_name_the_callers_line() {
    if std::env::var_os(CHILD).is_some() {
        run_child();
        return;
    }
    let output = rerun_test("panic_locations::panics_name_the_callers_line", CHILD, "1");
    assert!(
        output.status.success(),
        "{}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The location of the last panic on this process.
static LAST: Mutex<Option<(String, u32)>> = Mutex::new(None);

/// Runs `$call` (it must panic) and checks that the panic's location is
/// this line of this file: the macro's invocation, which must stay on one
/// line (arguments under 60 characters, or rustfmt splits them).
macro_rules! here {
    ($wrong:ident, $call:expr) => {{
        *LAST.lock().unwrap() = None;
        let caught = catch_unwind(AssertUnwindSafe(|| {
            $call;
        }));
        let at = LAST.lock().unwrap().take();
        let expected = (file!().to_owned(), line!());
        let wrong = if caught.is_ok() {
            Some(format!("{}: did not panic", stringify!($call)))
        } else if at.as_ref() != Some(&expected) {
            Some(format!(
                "{}: panicked at {at:?}, not {expected:?}",
                stringify!($call)
            ))
        } else {
            None
        };
        // Printed as found too: a case that aborts the child ends the list.
        if let Some(wrong) = wrong {
            eprintln!("{wrong}");
            $wrong.push(wrong);
        }
    }};
}

/// An `ExactSizeIterator` that says 4 and gives 1.
struct Short(bool);

impl Iterator for Short {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        core::mem::replace(&mut self.0, false).then_some(1)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (4, Some(4))
    }
}

impl ExactSizeIterator for Short {}

fn run_child() {
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map(|at| (at.file().to_owned(), at.line()));
        *LAST.lock().unwrap() = at;
    }));
    // A fresh 64 KiB arena for each case that fills one first.
    let small = || FrameArena::builder().reserve(64 << 10).build().unwrap();
    let arena = small();
    let big = vec![0u8; 1 << 17];
    let text = "x".repeat(1 << 17);
    let mut w = Vec::new();

    // The arena's own methods.
    here!(w, arena.alloc([0u8; 1 << 17]));
    here!(w, arena.alloc_with(|| [0u8; 1 << 17]));
    here!(w, arena.alloc_str(&text));
    here!(w, arena.alloc_slice_copy(&big));
    here!(w, arena.alloc_slice_clone(&big));
    here!(w, arena.alloc_slice_fill_with(1 << 17, |_| 0u8));
    here!(w, arena.alloc_slice_fill_iter(big.iter().copied()));
    here!(w, arena.alloc_slice_fill_iter(Short(true)));
    here!(w, arena.alloc_uninit::<[u8; 1 << 17]>());
    here!(w, arena.alloc_uninit_slice::<u8>(1 << 17));
    here!(w, arena.alloc_uninit_slice::<u64>(usize::MAX));
    here!(w, arena.alloc_zeroed::<[u8; 1 << 17]>());
    here!(w, arena.alloc_zeroed_slice::<u8>(1 << 17));
    let arena = small();

    // The crate's collections.
    here!(w, tickarena::String::with_capacity_in(1 << 17, &arena));
    here!(w, tickarena::String::new_in(&arena).push_str(&text));
    here!(w, tickarena::format_in!(&arena, "{text}"));
    here!(w, tickarena::vec_in![&arena; 0u8; 1 << 17]);
    here!(w, SegmentedList::<u8, _>::with_capacity_in(1 << 17, &arena));
    let arena = small();

    // Rows, every path.
    let hinted = || (0..100_000).map(|_| 0..0u32);
    let unhinted = || (0..100_000).filter(|_| true).map(|_| 0..0u32);
    let one_row = || core::iter::once(0..1_000_000u32);
    let cell = |&v: &usize| v;
    let mut sorted = RowsBuilder::with_capacity_in(4, 7000, &arena);
    sorted.extend_row(0, 0..7000u32);
    here!(w, sorted.finish());
    let arena = small();
    let mut unsorted = RowsBuilder::with_capacity_in(4, 7000, &arena);
    (0..7000u32).for_each(|v| unsorted.push(3 - v as usize % 4, v));
    here!(w, unsorted.finish());
    let arena = small();
    here!(w, FrameRows::from_rows_in(hinted(), &arena));
    here!(w, FrameRows::from_rows_in(unhinted(), &arena));
    here!(w, FrameRows::from_rows_in(one_row(), &arena));
    here!(w, FrameRows::from_pairs_in(100_000, [(0, 1u8)], &arena));
    here!(w, FrameRows::from_pairs_in(2, [(2, 1u8)], &arena));
    here!(w, FrameRows::group_by_in(100_000, 0..9, cell, &arena));
    here!(w, RowsBuilder::<u32>::with_capacity_in(4, 1 << 20, &arena));
    here!(w, RowsBuilder::<u8>::new_in(u32::MAX as usize, &arena));
    let mut rows = RowsBuilder::new_in(4, &arena);
    here!(w, rows.push(4, 0u32));
    here!(w, (0..1_000_000u32).for_each(|v| rows.push(1, v)));
    let arena = small();
    let mut rows = RowsBuilder::new_in(4, &arena);
    here!(w, rows.extend_row(1, 0..1_000_000u32));

    assert!(w.is_empty(), "{} wrong:\n{}", w.len(), w.join("\n"));
}
