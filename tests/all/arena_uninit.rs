//! `alloc_uninit*` and `alloc_zeroed*`: room in the arena without a value
//! built first, so values far larger than a thread's stack can be placed.

use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, Zeroable};

/// Larger than the worker's stack below by far (smaller under Miri, which
/// interprets every byte written).
const BIG: usize = if cfg!(miri) { 256 << 10 } else { 64 << 20 };

/// A stack this small overflows at once if any of the values below is
/// built on it, in debug builds as in release ones.
const SMALL_STACK: usize = 128 << 10;

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn values_larger_than_the_stack_never_pass_through_it() {
    let arena = FrameArena::builder().reserve(4 * BIG).build().unwrap();
    let arena = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || {
            {
                let zeroed = arena.alloc_zeroed::<[u8; BIG]>();
                assert_eq!(zeroed[BIG - 1], 0);
                zeroed[BIG - 1] = 1;

                let words = arena.alloc_uninit::<[u64; BIG / 8]>();
                let first: *mut u64 = words.as_mut_ptr().cast();
                for i in 0..BIG / 8 {
                    // SAFETY: `i` is inside the array the slot has room for.
                    unsafe { first.add(i).write(i as u64) };
                }
                // SAFETY: every element was written above.
                let words = unsafe { words.assume_init_mut() };
                assert_eq!(words[BIG / 8 - 1], (BIG / 8 - 1) as u64);

                let grid = arena.alloc_zeroed_slice::<[f32; 4]>(BIG / 16);
                assert!(grid.iter().all(|cell| *cell == [0.0; 4]));
            }
            arena
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(arena.used() >= 3 * BIG);
}

#[test]
fn zeroed_memory_is_zero_even_where_the_last_frame_wrote() {
    let mut arena = FrameArena::new();
    arena.alloc_slice_fill_with(4096, |_| 0xFFu8);
    arena.reset();
    let bytes = arena.alloc_zeroed::<[u8; 4096]>();
    assert!(bytes.iter().all(|&b| b == 0));
    arena.reset();
    arena.alloc_slice_fill_with(512, |_| u64::MAX);
    arena.reset();
    let words = arena.alloc_zeroed_slice::<(u32, bool, char)>(256);
    assert!(words.iter().all(|&w| w == (0, false, '\0')));
}

#[test]
fn zeroable_types_read_as_their_zero_value() {
    let arena = FrameArena::new();
    assert_eq!(*arena.alloc_zeroed::<Option<&u32>>(), None);
    assert!(arena.alloc_zeroed::<*const u8>().is_null());
    assert_eq!(*arena.alloc_zeroed::<(f64, i128)>(), (0.0, 0));
    assert_eq!(*arena.alloc_zeroed::<[[u16; 3]; 2]>(), [[0; 3]; 2]);

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Cell {
        height: f32,
        walkable: bool,
    }
    // SAFETY: a float and a bool, both valid when zero.
    unsafe impl Zeroable for Cell {}
    let cells = arena.alloc_zeroed_slice::<Cell>(3);
    assert_eq!(
        cells,
        &[Cell {
            height: 0.0,
            walkable: false
        }; 3]
    );
}

#[test]
fn uninit_slices_are_aligned_and_disjoint() {
    let arena = FrameArena::new();
    arena.alloc(1u8); // misalign the top
    let a = arena.alloc_uninit_slice::<u64>(3);
    let b = arena.alloc_uninit::<u128>();
    assert!((a.as_ptr() as usize).is_multiple_of(align_of::<u64>()));
    assert!((b.as_ptr() as usize).is_multiple_of(align_of::<u128>()));
    let a_end = a.as_ptr_range().end as usize;
    assert!(a_end <= b.as_ptr() as usize);
    for (i, slot) in a.iter_mut().enumerate() {
        slot.write(i as u64);
    }
    b.write(u128::MAX);
    // SAFETY: all three elements were written just above.
    assert_eq!(unsafe { a.assume_init_ref() }, &[0, 1, 2]);
}

#[test]
fn zero_sized_requests_use_no_bytes() {
    let arena = FrameArena::new();
    let _: &mut MaybeUninit<()> = arena.alloc_uninit::<()>();
    assert!(arena.alloc_zeroed_slice::<u64>(0).is_empty());
    assert!(arena.alloc_uninit_slice::<[u8; 0]>(1000).len() == 1000);
    assert_eq!(arena.used(), 0);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn too_large_requests_are_errors_or_clear_panics() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    assert!(arena.try_alloc_uninit::<[u8; 2 << 20]>().is_err());
    assert!(arena.try_alloc_zeroed::<[u8; 2 << 20]>().is_err());
    assert!(arena.try_alloc_uninit_slice::<u64>(usize::MAX).is_err());
    assert!(arena.try_alloc_zeroed_slice::<u64>(1 << 20).is_err());
    assert_eq!(arena.used(), 0, "a refusal takes nothing");

    let overflow = catch_unwind(AssertUnwindSafe(|| {
        arena.alloc_zeroed_slice::<u64>(usize::MAX);
    }))
    .unwrap_err();
    let message = overflow.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("does not fit in isize::MAX bytes"),
        "{message}"
    );

    let exhausted = catch_unwind(AssertUnwindSafe(|| {
        arena.alloc_uninit::<[u8; 2 << 20]>();
    }))
    .unwrap_err();
    let message = exhausted.downcast_ref::<String>().unwrap();
    assert!(message.contains("reservation exhausted"), "{message}");
}
