//! The fallback backend: one block from the global allocator.
//!
//! Used under Miri (which cannot run `mmap`), on wasm32 (whose linear memory
//! only grows and never goes back, so "reserving" is allocating), and
//! without the `std` feature. The whole block is usable from the start, so
//! commit and decommit only do the bookkeeping `Region` already does.

use alloc::alloc::Layout;

use core::ptr::NonNull;

/// 16 MiB: this block is real memory taken at once (on wasm, linear memory
/// that is never given back), so the default is what a frame of a small
/// game or a browser game needs. Raise it with `builder().reserve(bytes)`.
pub(crate) const DEFAULT_RESERVE: usize = 16 << 20;

const BLOCK_ALIGN: usize = 4096;

/// The block and the layout it was allocated with.
pub(crate) struct Mapping {
    base: NonNull<u8>,
    layout: Layout,
}

impl Mapping {
    pub(crate) fn base(&self) -> NonNull<u8> {
        self.base
    }
}

/// Allocates `bytes` from the global allocator, or `None` if refused.
pub(crate) fn reserve(bytes: usize, _huge_pages: bool) -> Option<Mapping> {
    let layout = Layout::from_size_align(bytes.max(1), BLOCK_ALIGN).ok()?;
    // SAFETY: `layout` has a non-zero size.
    let base = NonNull::new(unsafe { alloc::alloc::alloc(layout) })?;
    Some(Mapping { base, layout })
}

/// The block is usable from the start: nothing to do.
pub(crate) fn commit(_mapping: &Mapping, _from: usize, _to: usize) -> bool {
    true
}

/// Nothing to give back short of freeing the whole block.
pub(crate) fn decommit(_mapping: &Mapping, _from: usize, _to: usize) {}

/// Frees the block.
pub(crate) fn release(mapping: &Mapping) {
    // SAFETY: allocated in `reserve` with exactly this layout, freed once
    // (the region is being dropped).
    unsafe { alloc::alloc::dealloc(mapping.base.as_ptr(), mapping.layout) }
}

pub(crate) fn page_size() -> usize {
    BLOCK_ALIGN
}
