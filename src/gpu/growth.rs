//! How large a frame's staging chunks are: the arithmetic, apart from
//! wgpu (Miri runs its tests). A slot's first chunk holds what its frames
//! have needed lately, so that a steady frame is one chunk; a frame that
//! outgrows it goes on in chunks each twice the last (as bump allocators
//! grow), and its slot's next frame gets one chunk that holds it all.
//! No chunk is ever larger than the device's largest buffer
//! (`max_chunk`): past it, a frame goes on in chunks of that size.

#![forbid(unsafe_code)]

use super::bump::COPY_ALIGN;

/// The size of a slot's next chunk: `wanted` (its first chunk's size, or
/// twice the last chunk), at least `base`, no more than `max_chunk` (the
/// device's largest buffer; `base` is never above it), and no more than
/// the room left under `max_frame` once the slot's chunks hold `total`
/// bytes. `None` when less than `base` is left.
pub(crate) fn next_chunk(
    base: u64,
    wanted: u64,
    total: u64,
    max_frame: u64,
    max_chunk: u64,
) -> Option<u64> {
    let room = max_frame.saturating_sub(total) / COPY_ALIGN * COPY_ALIGN;
    let cap = (max_chunk / COPY_ALIGN * COPY_ALIGN).max(base);
    (room >= base).then(|| wanted.max(base).min(room).min(cap))
}

/// A chunk that holds a frame of `bytes`: the least `base · 2^k` at or
/// above it, and no more than `max_frame` or `max_chunk` (rounded down to
/// [`COPY_ALIGN`]; never below `base`). Sizes stay on one ladder, so a
/// frame that wobbles keeps its chunk.
pub(crate) fn fitting(base: u64, bytes: u64, max_frame: u64, max_chunk: u64) -> u64 {
    let mut size = base;
    while size < bytes && size < max_chunk {
        size = size.saturating_mul(2);
    }
    size.min(max_frame.min(max_chunk) / COPY_ALIGN * COPY_ALIGN)
        .max(base)
}

/// The staging bytes a slot may keep for a frame of `bytes`: one
/// [`fitting`] chunk, or, for a frame past the device's largest buffer,
/// as many chunks of `max_chunk` as it spans (it goes on in chunks of that
/// size). Retention compares a slot's chunks with this, in the same terms
/// as the frame that needed them.
pub(crate) fn holding(base: u64, bytes: u64, max_frame: u64, max_chunk: u64) -> u64 {
    let one = fitting(base, bytes, max_frame, max_chunk);
    if one >= bytes {
        return one;
    }
    // Past one chunk: whole chunks of the largest size (on 4).
    let chunk = one.max(COPY_ALIGN);
    bytes.div_ceil(chunk).saturating_mul(chunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_next_chunk_is_what_is_wanted_within_the_frame_limit() {
        assert_eq!(
            next_chunk(64, 0, 0, 1024, u64::MAX),
            Some(64),
            "at least the base"
        );
        assert_eq!(
            next_chunk(64, 128, 64, 1024, u64::MAX),
            Some(128),
            "twice the last"
        );
        assert_eq!(next_chunk(64, 512, 448, 1024, u64::MAX), Some(512));
        assert_eq!(
            next_chunk(64, 1024, 960, 1024, u64::MAX),
            Some(64),
            "what is left"
        );
        assert_eq!(
            next_chunk(64, 1024, 961, 1024, u64::MAX),
            None,
            "less than a base left"
        );
        assert_eq!(next_chunk(64, 1024, 1024, 1024, u64::MAX), None);
        assert_eq!(
            next_chunk(64, 200, 0, 150, u64::MAX),
            Some(148),
            "left rounded down to 4"
        );
    }

    #[test]
    fn a_fitting_chunk_doubles_from_the_base() {
        assert_eq!(fitting(64, 0, 1 << 20, u64::MAX), 64);
        assert_eq!(fitting(64, 64, 1 << 20, u64::MAX), 64);
        assert_eq!(fitting(64, 65, 1 << 20, u64::MAX), 128);
        assert_eq!(fitting(100, 3_200_000, u64::MAX, u64::MAX), 100 << 15);
        assert_eq!(
            fitting(1 << 20, 3_200_000, 3 << 20, u64::MAX),
            3 << 20,
            "the frame limit"
        );
        assert_eq!(fitting(64, u64::MAX, u64::MAX, u64::MAX), u64::MAX / 4 * 4);
    }

    #[test]
    fn no_chunk_is_larger_than_the_device_allows() {
        // Doubling stops at the device's largest buffer.
        assert_eq!(next_chunk(64, 4096, 0, u64::MAX, 1000), Some(1000));
        assert_eq!(next_chunk(64, 4096, 1 << 40, u64::MAX, 1000), Some(1000));
        assert_eq!(
            next_chunk(64, 4096, 0, u64::MAX, 1002),
            Some(1000),
            "on 4 bytes"
        );
        assert_eq!(fitting(64, 1 << 30, u64::MAX, 1000), 1000);
        assert_eq!(fitting(64, u64::MAX, u64::MAX, 1 << 20), 1 << 20);
        assert_eq!(fitting(1 << 20, 3 << 20, u64::MAX, 1 << 20), 1 << 20);
        // The base is never cut (the arena clamps it to the limit first).
        assert_eq!(next_chunk(64, 0, 0, 1024, 16), Some(64));
        assert_eq!(fitting(64, 1 << 20, 1024, 16), 64);
    }

    #[test]
    fn a_frame_past_the_largest_buffer_is_held_in_that_many_chunks() {
        assert_eq!(holding(64, 100, u64::MAX, 1024), 128, "one fitting chunk");
        assert_eq!(holding(64, 1024, u64::MAX, 1024), 1024);
        assert_eq!(holding(64, 1025, u64::MAX, 1024), 2048, "two chunks");
        assert_eq!(holding(1024, 3800, u64::MAX, 1024), 4096, "four chunks");
        assert_eq!(
            holding(64, u64::MAX, u64::MAX, 1 << 20),
            u64::MAX,
            "no overflow"
        );
    }
}
