//! A collection (`Vec`, `Box`) that a full arena refuses goes to std's
//! alloc-error handler, which aborts. Before it does, the process says
//! which arena ran out, with its figures, and which setting to raise; std's
//! own line follows. A failure that was not the arena's keeps std's report
//! alone.
//!
//! Each abort runs in a child process (this test binary, this test only);
//! the parent reads its standard error.

#![cfg(not(miri))] // Miri cannot start a child process.

use std::alloc::Layout;
use std::mem::MaybeUninit;

use tickarena::FrameArena;

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_OOM_CHILD";

#[test]
fn a_collection_in_a_full_arena_says_which_arena_ran_out() {
    if let Some(case) = std::env::var_os(CHILD) {
        run_child(case.to_str().unwrap());
        return;
    }
    let (ok, stderr) = child("vec_past_the_reservation");
    assert!(!ok, "the refused Vec did not end the process");
    for expected in [
        "tickarena: frame arena reservation exhausted: asked for 4194304 bytes",
        "of 1048576 reserved bytes in use this frame",
        "FrameArena::builder().reserve(bytes)",
        "Vec::try_reserve",
        "memory allocation of 4194304 bytes failed",
    ] {
        assert!(
            stderr.contains(expected),
            "expected {expected:?} in:\n{stderr}"
        );
    }

    let (ok, stderr) = child("box_in_a_full_buffer");
    assert!(!ok, "the refused Box did not end the process");
    for expected in [
        "tickarena: frame arena buffer full: asked for 8192 bytes",
        "give FrameArena::from_buffer a larger buffer",
        "memory allocation of 8192 bytes failed",
    ] {
        assert!(
            stderr.contains(expected),
            "expected {expected:?} in:\n{stderr}"
        );
    }

    // An arena refusal that was handled (`try_reserve`), then a failure of
    // another size elsewhere: that one is not blamed on the arena.
    let (ok, stderr) = child("handled_refusal_then_another_failure");
    assert!(!ok);
    assert!(
        stderr.contains("memory allocation of 12345 bytes failed"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("tickarena:"),
        "blamed the arena:\n{stderr}"
    );
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
        other => panic!("unknown case {other}"),
    }
}
