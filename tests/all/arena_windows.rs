//! On Windows the arena is virtual memory, as on Linux: asked of the OS with
//! `VirtualQuery`, not taken from the arena's own figures. Run under wine by
//! the Windows stage of `.ci/run`.

#![cfg(windows)]

use core::alloc::{Allocator, Layout};
use core::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tickarena::FrameArena;
use windows_sys::Win32::System::Memory::{MEM_COMMIT, MEMORY_BASIC_INFORMATION, VirtualQuery};

const MIB: usize = 1 << 20;

/// Bytes of `start..start + len` that the OS has committed.
fn committed_by_the_os(start: usize, len: usize) -> usize {
    let end = start + len;
    let (mut addr, mut committed) = (start, 0);
    while addr < end {
        let mut info = MaybeUninit::<MEMORY_BASIC_INFORMATION>::uninit();
        let size = size_of::<MEMORY_BASIC_INFORMATION>();
        // SAFETY: VirtualQuery writes at most `size` bytes into `info`.
        let written = unsafe { VirtualQuery(addr as *const _, info.as_mut_ptr(), size) };
        assert_eq!(written, size, "VirtualQuery failed at {addr:#x}");
        // SAFETY: filled by the successful call above.
        let info = unsafe { info.assume_init() };
        let region_end = info.BaseAddress as usize + info.RegionSize;
        if info.State == MEM_COMMIT {
            committed += region_end.min(end) - addr;
        }
        addr = region_end;
    }
    committed
}

/// The arena's first byte: where its first allocation of a frame lands.
fn base_of(arena: &FrameArena) -> usize {
    arena.alloc(0u8) as *mut u8 as usize
}

#[test]
fn the_default_arena_reserves_much_and_commits_as_it_is_used() {
    let arena = FrameArena::new();
    let stats = arena.stats();
    assert!(stats.reserved >= 1 << 30, "reserved {}", stats.reserved);
    let base = base_of(&arena);
    let reserved = stats.reserved;
    let at_start = committed_by_the_os(base, reserved);
    assert!(at_start <= MIB, "{at_start} bytes committed up front");
    assert_eq!(at_start, arena.stats().committed);
    let bytes = arena.alloc_slice_fill_with(32 * MIB, |i| i as u8);
    assert_eq!(bytes[32 * MIB - 1], 255);
    let after = committed_by_the_os(base, reserved);
    assert!(
        (32 * MIB..=80 * MIB).contains(&after),
        "{after} bytes committed"
    );
    assert_eq!(after, arena.stats().committed);
}

#[test]
fn a_burst_above_retain_is_given_back_on_reset() {
    // A window of 0 frames: nothing is kept for the next burst.
    let mut arena = FrameArena::builder()
        .retain(4 * MIB)
        .release_after(0)
        .build()
        .unwrap();
    let base = base_of(&arena);
    let reserved = arena.stats().reserved;
    for round in 0..2 {
        arena.alloc_slice_fill_with(64 * MIB, |_| 7u8);
        assert!(
            committed_by_the_os(base, reserved) >= 64 * MIB,
            "round {round}"
        );
        arena.reset();
        let kept = committed_by_the_os(base, reserved);
        assert!(
            kept <= 4 * MIB,
            "round {round}: {kept} bytes still committed"
        );
        assert_eq!(kept, arena.stats().committed);
        // Pages given back read as zero (or fresh) when committed again.
        assert_eq!(*arena.alloc(3u32), 3);
    }
}

#[test]
fn a_burst_stays_committed_for_its_window_then_goes_back() {
    const WINDOW: u32 = 4;
    let mut arena = FrameArena::builder()
        .retain(4 * MIB)
        .release_after(WINDOW)
        .build()
        .unwrap();
    let base = base_of(&arena);
    let reserved = arena.stats().reserved;
    arena.alloc_slice_fill_with(64 * MIB, |_| 7u8);
    arena.reset();
    // The burst's window keeps its pages, as the OS sees them.
    for _ in 1..WINDOW {
        base_of(&arena);
        arena.reset();
    }
    let kept = committed_by_the_os(base, reserved);
    assert!(
        kept >= 64 * MIB,
        "{kept} bytes committed after the burst's window"
    );
    assert_eq!(kept, arena.stats().committed);
    // A whole window of quiet frames gives them back.
    for _ in 0..WINDOW {
        base_of(&arena);
        arena.reset();
    }
    let kept = committed_by_the_os(base, reserved);
    assert!(
        kept <= 4 * MIB,
        "{kept} bytes still committed after a quiet window"
    );
    assert_eq!(kept, arena.stats().committed);
}

#[test]
fn a_commit_larger_than_the_machine_is_refused_cleanly() {
    // 1 TiB of address space is cheap; committing half of it is more than
    // any machine's commit limit (Windows charges commit at once).
    let arena = FrameArena::builder().reserve(1 << 40).build().unwrap();
    arena.alloc(1u64);
    let half = Layout::from_size_align(1 << 39, 8).unwrap();
    assert!((&arena).allocate(half).is_err());
    assert_eq!(arena.used(), 8, "a refused commit takes nothing");
    let payload = catch_unwind(AssertUnwindSafe(|| {
        arena.alloc_slice_fill_with(1 << 39, |_| 0u8);
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<String>().unwrap();
    assert!(message.contains("refused to commit"), "{message}");
    assert_eq!(*arena.alloc(5u8), 5, "the arena goes on");
}
