//! Under AddressSanitizer, a frame's bytes are poisoned once they are given
//! back: `unsafe` code that reads a reclaimed frame, a freed arena block,
//! the free space above the top, or what a scope allocated after the scope
//! ended, through a pointer it kept, is reported
//! (`use-after-poison`), not left to read stale bytes.
//!
//! Each bad read runs in a child process (this test binary, this test
//! only), since ASan ends the process at the first report; the parent
//! checks the report. Built only with `-Zsanitizer=address`: the ASan stage
//! of `.ci/run` runs it and checks that it did.

#![cfg(tickarena_asan)]

use tickarena::FrameArena;

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_ASAN_CHILD";

#[test]
fn stale_reads_are_reported_by_address_sanitizer() {
    if let Some(case) = std::env::var_os(CHILD) {
        run_child(case.to_str().unwrap());
        return;
    }
    // A read of live data in the same way passes: the child machinery works
    // and poisoning makes no false report.
    let (ok, stderr) = child("live");
    assert!(ok, "reading live arena data was reported:\n{stderr}");
    for case in [
        "after_reset",
        "freed_block",
        "above_the_top",
        "tail_of_a_moved_shrink",
        "after_a_scope",
    ] {
        let (ok, stderr) = child(case);
        assert!(!ok, "{case}: the stale read was not reported");
        assert!(
            stderr.contains("AddressSanitizer: use-after-poison"),
            "{case}: expected a use-after-poison report, got:\n{stderr}"
        );
        assert!(
            stderr.contains("asan_poison::read"),
            "{case}: the report names the reading function:\n{stderr}"
        );
    }
}

/// Runs `case` in a child process: whether it exited successfully, and its
/// standard error.
fn child(case: &str) -> (bool, String) {
    let output = rerun_test(
        "asan_poison::stale_reads_are_reported_by_address_sanitizer",
        CHILD,
        case,
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), stderr)
}

/// Reads through a pointer the way code that kept one would.
#[inline(never)]
fn read(ptr: *const u64) -> u64 {
    // SAFETY: not always: reading memory the arena took back is the bug
    // this test wants AddressSanitizer to report.
    unsafe { std::ptr::read_volatile(ptr) }
}

fn run_child(case: &str) {
    let mut arena = FrameArena::new();
    let kept: *const u64 = arena.alloc(7u64);
    match case {
        "live" => assert_eq!(read(kept), 7),
        "after_reset" => {
            arena.reset();
            read(kept);
        }
        "freed_block" => {
            let boxed = Box::new_in([1u64; 4], &arena);
            let inside: *const u64 = &boxed[1];
            arena.alloc(0u8); // the box is no longer the last block
            drop(boxed);
            read(inside);
        }
        "above_the_top" => {
            read(kept.wrapping_add(2));
        }
        "after_a_scope" => {
            // A raw pointer can leave a scope (a reference cannot); what it
            // points to was given back when the scope ended.
            let inside: *const u64 = tickarena::scoped(|temp| temp.alloc(9u64) as *const u64);
            read(inside);
        }
        "tail_of_a_moved_shrink" => {
            // A shrink to a larger alignment than the block has moves it;
            // all of the old block is freed, not only what was copied.
            use std::alloc::{Allocator, Layout};
            let old = Layout::from_size_align(64, 8).unwrap();
            let block = arena.allocate(old).unwrap().cast::<u8>();
            assert_eq!(block.addr().get() % 16, 8, "after one u64: not 16-aligned");
            let new = Layout::from_size_align(16, 16).unwrap();
            // SAFETY: `block` is a live allocation of `old` from this arena.
            let moved = unsafe { arena.shrink(block, old, new) }.unwrap();
            assert_ne!(moved.cast::<u8>(), block, "the shrink moved the block");
            read(block.as_ptr().wrapping_add(48).cast());
        }
        other => panic!("unknown case {other}"),
    }
}
