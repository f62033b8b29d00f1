//! How large a frame's staging chunks are: the arithmetic, apart from
//! wgpu (Miri runs its tests). A slot's first chunk holds what its frames
//! have needed lately, so that a steady frame is one chunk; a frame that
//! outgrows it goes on in chunks each twice the last (as bump allocators
//! grow), and its slot's next frame gets one chunk that holds it all.

#![forbid(unsafe_code)]

use super::bump::COPY_ALIGN;

/// The size of a slot's next chunk: `wanted` (its first chunk's size, or
/// twice the last chunk), at least `base`, and no more than the room left
/// under `max_frame` once the slot's chunks hold `total` bytes. `None`
/// when less than `base` is left.
pub(crate) fn next_chunk(base: u64, wanted: u64, total: u64, max_frame: u64) -> Option<u64> {
    let room = max_frame.saturating_sub(total) / COPY_ALIGN * COPY_ALIGN;
    (room >= base).then(|| wanted.max(base).min(room))
}

/// A chunk that holds a frame of `bytes`: the least `base · 2^k` at or
/// above it, and no more than `max_frame` (rounded down to
/// [`COPY_ALIGN`]; never below `base`). Sizes stay on one ladder, so a
/// frame that wobbles keeps its chunk.
pub(crate) fn fitting(base: u64, bytes: u64, max_frame: u64) -> u64 {
    let mut size = base;
    while size < bytes {
        size = size.saturating_mul(2);
    }
    size.min(max_frame / COPY_ALIGN * COPY_ALIGN).max(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_next_chunk_is_what_is_wanted_within_the_frame_limit() {
        assert_eq!(next_chunk(64, 0, 0, 1024), Some(64), "at least the base");
        assert_eq!(next_chunk(64, 128, 64, 1024), Some(128), "twice the last");
        assert_eq!(next_chunk(64, 512, 448, 1024), Some(512));
        assert_eq!(next_chunk(64, 1024, 960, 1024), Some(64), "what is left");
        assert_eq!(
            next_chunk(64, 1024, 961, 1024),
            None,
            "less than a base left"
        );
        assert_eq!(next_chunk(64, 1024, 1024, 1024), None);
        assert_eq!(
            next_chunk(64, 200, 0, 150),
            Some(148),
            "left rounded down to 4"
        );
    }

    #[test]
    fn a_fitting_chunk_doubles_from_the_base() {
        assert_eq!(fitting(64, 0, 1 << 20), 64);
        assert_eq!(fitting(64, 64, 1 << 20), 64);
        assert_eq!(fitting(64, 65, 1 << 20), 128);
        assert_eq!(fitting(100, 3_200_000, u64::MAX), 100 << 15);
        assert_eq!(
            fitting(1 << 20, 3_200_000, 3 << 20),
            3 << 20,
            "the frame limit"
        );
        assert_eq!(fitting(64, u64::MAX, u64::MAX), u64::MAX / 4 * 4);
    }
}
