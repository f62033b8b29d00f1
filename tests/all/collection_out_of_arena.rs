//! A collection (`Vec`, `Box`) that a full arena refuses goes to std's
//! alloc-error handler, which aborts. With the `nightly` feature (std's
//! alloc-error hook is unstable), before it does, the process says which
//! arena ran out, with its figures, and which setting to raise; std's own
//! line follows. On stable, std's line is the whole report. A failure that
//! was not the arena's keeps std's report alone, also after a refusal that
//! was handled or whose arena is gone.
//!
//! Each abort runs in a child process (this test binary, this test only);
//! the parent reads its standard error.

#![cfg(not(miri))] // Miri cannot start a child process.

use std::alloc::Layout;
use std::mem::MaybeUninit;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::FrameArena;

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_OOM_CHILD";

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn a_collection_in_a_full_arena_says_which_arena_ran_out() {
    if let Some(case) = std::env::var_os(CHILD) {
        run_child(case.to_str().unwrap());
        return;
    }
    let (ok, stderr) = child("vec_past_the_reservation");
    assert!(!ok, "the refused Vec did not end the process");
    assert_report(
        &stderr,
        &[
            "tickarena: frame arena reservation exhausted: asked for 4194304 bytes",
            "of 1048576 reserved bytes in use this frame",
            "FrameArena::builder().reserve(bytes)",
            "Vec::try_reserve",
        ],
        "memory allocation of 4194304 bytes failed",
    );

    // A list grown in place on top of the arena: its own 512 KiB are in
    // the frame already, which needs 1.5 MiB, not 2.
    let (ok, stderr) = child("vec_grown_in_place_past_the_reservation");
    assert!(!ok, "the refused growth did not end the process");
    assert_report(
        &stderr,
        &[
            "asked for 1572864 bytes",
            "with 524288 of 1048576 reserved bytes in use this frame",
            "this frame needs at least 1572864 bytes",
        ],
        "memory allocation of 1572864 bytes failed",
    );

    let (ok, stderr) = child("box_in_a_full_buffer");
    assert!(!ok, "the refused Box did not end the process");
    assert_report(
        &stderr,
        &[
            "tickarena: frame arena buffer full: asked for 8192 bytes",
            "give FrameArena::from_buffer a larger buffer",
        ],
        "memory allocation of 8192 bytes failed",
    );

    // Failures of the global allocator are never blamed on an arena: after
    // a handled refusal of another size, after a refusal the arena's own
    // `try_*` method reported (same layout), after a refusal of an arena
    // that was dropped since (same layout), and after one that
    // tickarena's own `String::try_reserve` handled (same layout).
    let huge = HUGE.to_string();
    let mut cases = vec![("handled_refusal_then_another_failure", "12345")];
    // A size no allocator serves: 2^62 bytes needs a 64-bit address space.
    if usize::BITS == 64 {
        cases.extend([
            ("try_alloc_refusal_then_global_failure", &*huge),
            ("dropped_arena_refusal_then_global_failure", &*huge),
            ("string_refusal_then_global_failure", &*huge),
        ]);
    }
    for (case, size) in cases {
        let (ok, stderr) = child(case);
        assert!(!ok, "{case}: the failure did not end the process");
        assert!(
            stderr.contains(&format!("memory allocation of {size} bytes failed")),
            "{case}: {stderr}"
        );
        assert!(
            !stderr.contains("tickarena:"),
            "{case}: blamed an arena:\n{stderr}"
        );
    }
}

/// `stderr` holds std's line, and with the `nightly` feature (the hook)
/// the arena's report before it; without, no report of ours.
fn assert_report(stderr: &str, arena_report: &[&str], std_line: &str) {
    assert!(
        stderr.contains(std_line),
        "expected {std_line:?} in:\n{stderr}"
    );
    for expected in arena_report {
        assert_eq!(
            stderr.contains(expected),
            cfg!(feature = "nightly"),
            "{expected:?} (nightly feature: {}) in:\n{stderr}",
            cfg!(feature = "nightly")
        );
    }
}

/// 2^62 on 64-bit targets (the cases that use it run only there).
const HUGE: usize = usize::MAX / 4 + 1;

/// What the review found blamed on a dropped arena: the global allocator
/// refusing 2^62 bytes, through a `Vec` that aborts.
fn global_failure_of_2_pow_62_bytes() {
    let bytes: Vec<u8> = Vec::with_capacity(HUGE);
    std::hint::black_box(&bytes);
}

fn child(case: &str) -> (bool, String) {
    let output = rerun_test(
        "collection_out_of_arena::a_collection_in_a_full_arena_says_which_arena_ran_out",
        CHILD,
        case,
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), stderr)
}

fn run_child(case: &str) {
    match case {
        "vec_past_the_reservation" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            let mut bytes: Vec<u8, &FrameArena> = Vec::new_in(&arena);
            bytes.reserve_exact(4 << 20);
        }
        "vec_grown_in_place_past_the_reservation" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            let mut bytes: Vec<u8, &FrameArena> = Vec::with_capacity_in(512 << 10, &arena);
            bytes.reserve_exact(1536 << 10);
        }
        "box_in_a_full_buffer" => {
            let buffer = Box::leak(Box::new([MaybeUninit::<u8>::uninit(); 4096]));
            let arena = FrameArena::from_buffer(buffer);
            let boxed = Box::new_in([0u8; 8192], &arena);
            std::hint::black_box(&boxed);
        }
        "handled_refusal_then_another_failure" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            let mut bytes: Vec<u8, &FrameArena> = Vec::new_in(&arena);
            assert!(bytes.try_reserve_exact(4 << 20).is_err());
            std::alloc::handle_alloc_error(Layout::from_size_align(12345, 1).unwrap());
        }
        "try_alloc_refusal_then_global_failure" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            assert!(arena.try_alloc_uninit_slice::<u8>(HUGE).is_err());
            global_failure_of_2_pow_62_bytes();
        }
        "dropped_arena_refusal_then_global_failure" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            let mut bytes: Vec<u8, &FrameArena> = Vec::new_in(&arena);
            assert!(bytes.try_reserve_exact(HUGE).is_err());
            drop(bytes);
            drop(arena);
            global_failure_of_2_pow_62_bytes();
        }
        "string_refusal_then_global_failure" => {
            let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
            let mut text = tickarena::String::new_in(&arena);
            assert!(text.try_reserve(HUGE).is_err());
            global_failure_of_2_pow_62_bytes();
        }
        other => panic!("unknown case {other}"),
    }
}
