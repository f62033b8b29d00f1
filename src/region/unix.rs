//! The unix backend: anonymous `mmap` with `PROT_NONE`, committed with
//! `mprotect`, through `rustix`.
//!
//! A `PROT_NONE` private mapping is not charged against the overcommit limit,
//! so even a 16 GiB reservation succeeds under strict overcommit; the charge
//! is taken by `mprotect` when pages become writable, which is also where a
//! real shortage is reported (`ENOMEM`) instead of a crash on first touch.
//!
//! Giving pages back differs by kernel. Linux frees them with
//! `madvise(MADV_DONTNEED)` and then makes them inaccessible again. macOS and
//! the BSDs free nothing on `posix_madvise(DONTNEED)`, so there the range is
//! mapped anew, `PROT_NONE`, with `MAP_FIXED`: one call that drops the pages
//! and the commit charge and leaves the range reserved. Transparent huge
//! pages are a Linux feature; elsewhere `huge_pages(true)` is a no-op.

use core::ffi::c_void;
use core::ptr::{self, NonNull};

use rustix::mm::{self, MapFlags, MprotectFlags, ProtFlags};

/// 16 GiB of address space on 64-bit targets, 256 MiB on 32-bit ones.
pub(crate) const DEFAULT_RESERVE: usize = if cfg!(target_pointer_width = "64") {
    16 << 30
} else {
    256 << 20
};

/// Whether this kernel has transparent huge pages (`MADV_HUGEPAGE`).
const HAS_HUGE_PAGES: bool = cfg!(any(target_os = "linux", target_os = "android"));

/// Transparent huge pages are only used for 2 MiB-aligned ranges.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// One anonymous mapping and the aligned base inside it.
pub(crate) struct Mapping {
    start: NonNull<c_void>,
    len: usize,
    base: NonNull<u8>,
}

impl Mapping {
    pub(crate) fn base(&self) -> NonNull<u8> {
        self.base
    }

    fn range(&self, from: usize, to: usize) -> (*mut c_void, usize) {
        super::byte_range(self.base, self.len, from, to)
    }
}

/// Reserves `bytes` of inaccessible address space, or `None` if refused.
pub(crate) fn reserve(bytes: usize, huge_pages: bool) -> Option<Mapping> {
    let huge_pages = huge_pages && HAS_HUGE_PAGES;
    // With huge pages, map one huge page more so the base can be aligned.
    let slack = if huge_pages { HUGE_PAGE } else { 0 };
    let len = bytes.checked_add(slack)?;
    // SAFETY: an anonymous mapping with a null hint: the kernel picks unused
    // address space, so no existing mapping (and no Rust object) is affected.
    let start =
        unsafe { mm::mmap_anonymous(ptr::null_mut(), len, ProtFlags::empty(), MapFlags::PRIVATE) }
            .ok()?;
    let start = NonNull::new(start)?;
    let offset = start.as_ptr().addr().wrapping_neg() & (slack.max(1) - 1);
    // `offset < slack`, so the base and the `bytes` after it stay inside the
    // mapping of `bytes + slack` bytes.
    let base = start.cast::<u8>().map_addr(|a| a.saturating_add(offset));
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if huge_pages {
        // SAFETY: advice on a range inside our own mapping; MADV_HUGEPAGE
        // changes no contents. Failure (no THP support) is harmless.
        let _ = unsafe { mm::madvise(base.as_ptr().cast(), bytes, mm::Advice::LinuxHugepage) };
    }
    Some(Mapping { start, len, base })
}

/// Makes bytes `from..to` after the base readable and writable.
pub(crate) fn commit(mapping: &Mapping, from: usize, to: usize) -> bool {
    let (ptr, len) = mapping.range(from, to);
    // SAFETY: the range lies inside our mapping (checked by `Region::commit`
    // against the reservation); widening protection invalidates nothing.
    unsafe { mm::mprotect(ptr, len, MprotectFlags::READ | MprotectFlags::WRITE) }.is_ok()
}

/// Drops the pages of bytes `from..to` and makes them inaccessible again.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn decommit(mapping: &Mapping, from: usize, to: usize) {
    let (ptr, len) = mapping.range(from, to);
    // SAFETY: the range lies inside our mapping, and the arena only decommits
    // while it is borrowed mutably (reset/reclaim), so no reference into
    // these bytes is alive. Errors only mean the pages stay resident.
    unsafe {
        let _ = mm::madvise(ptr, len, mm::Advice::LinuxDontNeed);
        let _ = mm::mprotect(ptr, len, MprotectFlags::empty());
    }
}

/// Drops the pages of bytes `from..to` and makes them inaccessible again,
/// by mapping the range anew (see the module docs).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn decommit(mapping: &Mapping, from: usize, to: usize) {
    let (ptr, len) = mapping.range(from, to);
    // SAFETY: `MAP_FIXED` replaces exactly this range, which lies inside our
    // own mapping; the arena only decommits while it is borrowed mutably
    // (reset/reclaim), so no reference into these bytes is alive. If the
    // call fails the pages simply stay committed.
    let _ = unsafe {
        mm::mmap_anonymous(
            ptr,
            len,
            ProtFlags::empty(),
            MapFlags::PRIVATE | MapFlags::FIXED,
        )
    };
}

/// Unmaps the whole mapping.
pub(crate) fn release(mapping: &Mapping) {
    // SAFETY: `start`/`len` are exactly what `mmap` returned, and the region
    // is being dropped, so nothing points into it any more.
    let _ = unsafe { mm::munmap(mapping.start.as_ptr(), mapping.len) };
}

/// The OS page size (4 KiB on x86, 16 KiB on Apple silicon).
pub(crate) fn page_size() -> usize {
    rustix::param::page_size()
}
