//! `FrameRows` and `RowsBuilder` in an arena too small for them panic with
//! the arena's message (which arena, what to raise), as their docs say,
//! on every path: never std's alloc-error abort, which a `Vec` in a full
//! arena meets.
//!
//! Each case runs in a child process (this test binary, this test only),
//! so that an abort fails the case instead of the whole test binary; the
//! child catches the panic and prints its message, and the parent checks
//! it.

#![cfg(not(miri))] // Miri cannot start a child process.

use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, FrameRows, RowsBuilder};

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_ROWS_OOM_CHILD";

/// Every way to fill rows, each past a 64 KiB arena.
const CASES: &[&str] = &[
    "from_rows_in_offsets_by_hint",
    "from_rows_in_offsets_grown",
    "from_rows_in_values",
    "with_capacity_in",
    "push",
    "extend_row",
    "finish_sorted",
    "finish_unsorted",
    "from_pairs_in",
    "group_by_in",
    "vec_at_last_size",
];

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn rows_in_a_full_arena_panic_naming_the_arena_never_abort() {
    if let Some(case) = std::env::var_os(CHILD) {
        run_child(case.to_str().unwrap());
        return;
    }
    let mut failures = Vec::new();
    for case in CASES {
        let output = rerun_test(
            "rows_out_of_arena::rows_in_a_full_arena_panic_naming_the_arena_never_abort",
            CHILD,
            case,
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let message = stdout
            .lines()
            .find_map(|line| Some(line.split_once("PANIC: ")?.1))
            .unwrap_or("");
        // The arena's own message (`Refusal`): its name, and the setting.
        let named = message.contains("arena `rows`")
            && message.contains("FrameArena::builder().reserve(bytes)");
        if !output.status.success() || !named {
            failures.push(format!(
                "{case}: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                output.status
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `case` in a named 64 KiB arena, catches its panic and prints the
/// message; then the arena, reset, serves again.
fn run_child(case: &str) {
    let mut arena = FrameArena::builder()
        .name("rows")
        .reserve(64 << 10)
        .build()
        .unwrap();
    // The message is checked, not printed twice.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let caught = catch_unwind(AssertUnwindSafe(|| fill_past_the_arena(case, &arena)));
    std::panic::set_hook(hook);
    let payload = caught.expect_err("the rows fit the arena");
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(not a string)");
    println!("PANIC: {message}");
    arena.reset();
    let rows = FrameRows::from_rows_in([[1u8, 2], [3, 4]], &arena);
    assert_eq!(rows.items(), [1, 2, 3, 4]);
}

fn fill_past_the_arena(case: &str, arena: &FrameArena) {
    match case {
        // 100 001 offsets (400 004 bytes) asked for at once: the size hint.
        "from_rows_in_offsets_by_hint" => {
            FrameRows::from_rows_in((0..100_000).map(|_| 0..0u32), arena);
        }
        // The same offsets grown one row at a time (no hint).
        "from_rows_in_offsets_grown" => {
            FrameRows::from_rows_in((0..100_000).filter(|_| true).map(|_| 0..0u32), arena);
        }
        // One row of 4 MB.
        "from_rows_in_values" => {
            FrameRows::from_rows_in(core::iter::once(0..1_000_000u32), arena);
        }
        "with_capacity_in" => {
            RowsBuilder::<u32>::with_capacity_in(4, 1_000_000, arena);
        }
        "push" => {
            let mut rows = RowsBuilder::new_in(4, arena);
            for value in 0..1_000_000u32 {
                rows.push(value as usize % 4, value);
            }
        }
        "extend_row" => {
            RowsBuilder::new_in(4, arena).extend_row(1, 0..1_000_000u32);
        }
        // 7000 pairs (56 KB) fit; the rows besides them do not.
        "finish_sorted" => {
            let mut rows = RowsBuilder::with_capacity_in(4, 7000, arena);
            rows.extend_row(0, 0..7000u32);
            rows.finish();
        }
        "finish_unsorted" => {
            let mut rows = RowsBuilder::with_capacity_in(4, 7000, arena);
            for value in 0..7000u32 {
                rows.push(3 - value as usize % 4, value);
            }
            rows.finish();
        }
        "from_pairs_in" => {
            FrameRows::from_pairs_in(4, (0..100_000u32).map(|v| (v as usize % 4, v)), arena);
        }
        "group_by_in" => {
            FrameRows::group_by_in(100_000, 0..10usize, |&v| v, arena);
        }
        // A size remembered (48 000 bytes) that the arena no longer has
        // room for: the direct allocation's refusal takes the path that
        // panics.
        "vec_at_last_size" => {
            for round in 0..2 {
                if round == 1 {
                    arena.alloc_slice_fill_with(40 << 10, |_| 0u8);
                }
                let mut list = arena.vec_at_last_size::<u64>();
                list.extend(0..6000);
            }
        }
        _ => unreachable!("no case {case}"),
    }
}
