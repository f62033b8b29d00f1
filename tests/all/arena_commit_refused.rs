//! When the OS refuses to commit pages (`mprotect` fails with `ENOMEM`),
//! allocation fails with an error, `alloc` panics with a message saying so,
//! and the arena keeps working: never a crash.
//!
//! The refusal is real: a child process (this test binary, running only
//! this test) lowers its `RLIMIT_DATA`, which since Linux 4.7 counts
//! writable private memory but not the arena's `PROT_NONE` reservation.

#![cfg(all(target_os = "linux", not(miri)))]

use core::alloc::{Allocator, Layout};
use std::panic::{AssertUnwindSafe, catch_unwind};

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
use tickarena::FrameArena;

use crate::child_process::rerun_test;

const CHILD: &str = "TICKARENA_COMMIT_REFUSED_CHILD";
const MIB: usize = 1 << 20;

#[test]
fn refused_commit_is_an_error_not_a_crash() {
    if std::env::var_os(CHILD).is_some() {
        in_limited_child();
        return;
    }
    let output = rerun_test(
        "arena_commit_refused::refused_commit_is_an_error_not_a_crash",
        CHILD,
        "1",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran the test:\n{stdout}"
    );
}

/// Bytes of writable private memory the process has now (`VmData`).
fn data_in_use() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmData:"))
        .unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

fn in_limited_child() {
    let limit = data_in_use() + 64 * MIB;
    let hard = getrlimit(Resource::Data).maximum;
    setrlimit(
        Resource::Data,
        Rlimit {
            current: Some(limit as u64),
            maximum: hard,
        },
    )
    .unwrap();

    // A 1 GiB reservation is not counted against the limit...
    let mut arena = FrameArena::builder()
        .reserve(1 << 30)
        .retain(MIB)
        .release_after(0)
        .build()
        .unwrap();
    // ...but committing it is: allocation stops well before the reservation ends.
    let chunk = Layout::from_size_align(MIB, 1).unwrap();
    let mut served = 0;
    while arena.allocate(chunk).is_ok() {
        served += 1;
        assert!(served < 1024, "the limit never refused a commit");
    }
    assert!(
        served >= 16,
        "only {served} MiB committed before the refusal"
    );
    assert!(arena.try_alloc_slice_copy(&[1u8; 4096]).is_err());

    // The default hook would print (and maybe capture a backtrace) with
    // the memory limit in force; the message is checked below instead.
    std::panic::set_hook(Box::new(|_| {}));
    let payload = catch_unwind(AssertUnwindSafe(|| {
        arena.alloc_slice_copy(&[1u8; 4096]);
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("the OS refused to commit memory"),
        "{message}"
    );

    // After the frame ends (and pages above `retain` go back), it serves again.
    arena.reset();
    assert!(arena.stats().committed <= MIB);
    assert_eq!(arena.alloc_slice_copy(&[7u8; 4096])[4095], 7);
}
