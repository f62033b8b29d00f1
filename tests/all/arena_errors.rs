//! Bad input gets a clear error, never UB: exhausted reservations, huge and
//! overflowing layouts, refused reservations, contradictory settings.

use core::alloc::{Allocator, Layout};
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{ArenaError, FrameArena};

const MIB: usize = 1 << 20;

fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn one_mebibyte_reservation_is_exhausted_by_4k_pages() {
    let mut arena = FrameArena::builder().reserve(MIB).build().unwrap();
    for round in 0..2 {
        let mut served = 0;
        while arena.try_alloc([0u8; 4096]).is_ok() {
            served += 1;
        }
        assert_eq!(served, 256, "round {round}: 1 MiB holds exactly 256 pages");
        assert_eq!(arena.used(), MIB);
        assert!(arena.try_alloc(0u8).is_err());
        assert!(arena.allocate(Layout::new::<u8>()).is_err());
        let mut v: Vec<u8, &FrameArena> = Vec::new_in(&arena);
        assert!(v.try_reserve(1).is_err());
        drop(v);
        arena = arena.reclaim(); // serves again after a reclaim
    }
}

#[test]
fn failure_leaves_the_arena_working() {
    let arena = FrameArena::builder().reserve(MIB).build().unwrap();
    arena.alloc([1u8; 1000]);
    assert!(arena.try_alloc_slice_fill_with(2 * MIB, |_| 0u8).is_err());
    assert_eq!(arena.used(), 1000, "a failed allocation takes nothing");
    assert_eq!(*arena.alloc(42u64), 42);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn alloc_panics_naming_sizes_and_the_setting_to_raise() {
    let arena = FrameArena::builder().reserve(MIB).build().unwrap();
    arena.alloc_slice_fill_with(1000, |_| 0u8);
    let message = panic_message(|| {
        arena.alloc_slice_fill_with(2 * MIB, |_| 0u8);
    });
    assert!(message.contains("reservation exhausted"), "{message}");
    assert!(message.contains(&(2 * MIB).to_string()), "{message}");
    assert!(message.contains("1000"), "bytes in use: {message}");
    assert!(
        message.contains(&MIB.to_string()),
        "bytes reserved: {message}"
    );
    assert!(message.contains(".reserve("), "setting to raise: {message}");
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn huge_and_overflowing_layouts_are_refused() {
    let arena = FrameArena::builder().reserve(MIB).build().unwrap();
    arena.alloc(1u8);
    let near_max = Layout::from_size_align(isize::MAX as usize - 4095, 4096).unwrap();
    assert!(arena.allocate(near_max).is_err());
    let max_align = Layout::from_size_align(1, 1 << (usize::BITS - 2)).unwrap();
    assert!(arena.allocate(max_align).is_err());
    assert!(
        arena
            .try_alloc_slice_fill_with(usize::MAX / 8, |_| 0u64)
            .is_err()
    );
    assert!(
        arena
            .try_alloc_slice_fill_with(usize::MAX, |_| 0u16)
            .is_err()
    );
    let message = panic_message(|| {
        arena.alloc_slice_fill_with(usize::MAX, |_| 0u16);
    });
    assert!(message.contains("isize::MAX"), "{message}");
    let mut v: Vec<u64, &FrameArena> = Vec::new_in(&arena);
    assert!(v.try_reserve(usize::MAX / 4).is_err());
    assert!(v.try_reserve(isize::MAX as usize / 8).is_err());
    assert_eq!(arena.used(), 1, "refused layouts take nothing");
}

#[test]
fn growing_past_the_reservation_fails_cleanly() {
    // Miri interprets every push: a smaller reservation there.
    let reserve = if cfg!(miri) { 16 << 10 } else { MIB };
    let arena = FrameArena::builder().reserve(reserve).build().unwrap();
    let mut v: Vec<u8, &FrameArena> = Vec::new_in(&arena);
    let mut pushed = 0usize;
    while v.try_reserve(1).is_ok() {
        v.push(1);
        pushed += 1;
    }
    assert!(pushed > reserve / 2 && pushed <= reserve, "pushed {pushed}");
    assert!(v.iter().all(|&b| b == 1));
}

#[test]
fn builder_settings_are_validated() {
    assert_eq!(
        FrameArena::builder().reserve(0).build().unwrap_err(),
        ArenaError::ZeroReserve
    );
    let error = FrameArena::builder()
        .reserve(MIB)
        .retain(4 * MIB)
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        ArenaError::RetainExceedsReserve {
            retain: 4 * MIB,
            reserve: MIB
        }
    );
    assert!(
        error
            .to_string()
            .contains("retain(4194304) is larger than reserve(1048576)")
    );
    let boxed: Box<dyn std::error::Error> = Box::new(error);
    assert!(boxed.to_string().starts_with("invalid FrameArena settings"));
}

#[cfg(not(miri))]
#[test]
fn absurd_reservation_is_refused_with_an_error() {
    // All of the address space but a page: on 32-bit targets too, where
    // half of it can be free.
    let error = FrameArena::builder()
        .reserve(usize::MAX - 4095)
        .build()
        .unwrap_err();
    assert!(
        matches!(error, ArenaError::ReservationRefused { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("refused to reserve"), "{error}");
}

#[test]
fn reservation_is_rounded_up_to_a_page() {
    let arena = FrameArena::builder().reserve(1000).build().unwrap();
    assert!(arena.stats().reserved >= 4096 && arena.stats().reserved.is_multiple_of(4096));
}

/// A named arena's exhaustion panic names it (its name says which setting
/// to raise: `tickarena-bevy` names each of its arenas so).
#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_named_arena_says_its_name_when_it_runs_out() {
    let arena = tickarena::FrameArena::builder()
        .reserve(1 << 20)
        .name("planning scratch")
        .build()
        .unwrap();
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        arena.alloc_slice_fill_with(2 << 20, |_| 0u8).len()
    }));
    let payload = refused.expect_err("2 MiB do not fit in 1 MiB");
    let message = payload.downcast_ref::<String>().map_or("", String::as_str);
    assert!(
        message
            .starts_with("tickarena: arena `planning scratch`: frame arena reservation exhausted"),
        "{message}"
    );
    assert!(
        message.contains("FrameArena::builder().reserve(bytes)"),
        "{message}"
    );
}

/// An iterator whose `len()` promises more than it yields.
struct ShortIterator(u8);

impl Iterator for ShortIterator {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        self.0 = self.0.checked_sub(1)?;
        Some(self.0)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (3, Some(3))
    }
}

impl ExactSizeIterator for ShortIterator {}

#[test]
#[should_panic(expected = "the iterator yielded fewer items than its len() said")]
fn a_slice_from_an_iterator_shorter_than_its_len_panics() {
    let arena = FrameArena::new();
    arena.alloc_slice_fill_iter(ShortIterator(2));
}

#[test]
fn a_slice_from_an_exact_size_iterator_takes_its_len() {
    let arena = FrameArena::new();
    let squares = arena.alloc_slice_fill_iter((0..5u32).map(|i| u64::from(i * i)));
    assert_eq!(squares, &[0, 1, 4, 9, 16]);
    assert_eq!(arena.used(), 40);
    let empty: &mut [String] = arena.alloc_slice_fill_iter(Vec::new());
    assert!(empty.is_empty());
}
