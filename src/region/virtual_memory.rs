//! The default backend: anonymous `mmap` with `PROT_NONE`, committed with
//! `mprotect`, given back with `madvise(MADV_DONTNEED)`, through `rustix`.
//!
//! A `PROT_NONE` private mapping is not charged against the overcommit limit,
//! so even a 16 GiB reservation succeeds under strict overcommit; the charge
//! is taken by `mprotect` when pages become writable, which is also where a
//! real shortage is reported (`ENOMEM`) instead of a crash on first touch.

use core::ffi::c_void;
use core::ptr::{self, NonNull};

use rustix::mm::{self, Advice, MapFlags, MprotectFlags, ProtFlags};

/// 16 GiB of address space on 64-bit targets, 256 MiB on 32-bit ones.
pub(crate) const DEFAULT_RESERVE: usize = if cfg!(target_pointer_width = "64") {
    16 << 30
} else {
    256 << 20
};

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
        debug_assert!(
            from <= to && to <= self.len,
            "expected `from` ({from}) <= `to` ({to}) <= mapping length ({})",
            self.len
        );
        (self.base.as_ptr().wrapping_add(from).cast(), to - from)
    }
}

/// Reserves `bytes` of inaccessible address space, or `None` if refused.
pub(crate) fn reserve(bytes: usize, huge_pages: bool) -> Option<Mapping> {
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
    if huge_pages {
        // SAFETY: advice on a range inside our own mapping; MADV_HUGEPAGE
        // changes no contents. Failure (no THP support) is harmless.
        let _ = unsafe { mm::madvise(base.as_ptr().cast(), bytes, Advice::LinuxHugepage) };
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
pub(crate) fn decommit(mapping: &Mapping, from: usize, to: usize) {
    let (ptr, len) = mapping.range(from, to);
    // SAFETY: the range lies inside our mapping, and the arena only decommits
    // while it is borrowed mutably (reset/reclaim), so no reference into
    // these bytes is alive. Errors only mean the pages stay resident.
    unsafe {
        let _ = mm::madvise(ptr, len, Advice::LinuxDontNeed);
        let _ = mm::mprotect(ptr, len, MprotectFlags::empty());
    }
}

/// Unmaps the whole mapping.
pub(crate) fn release(mapping: &Mapping) {
    // SAFETY: `start`/`len` are exactly what `mmap` returned, and the region
    // is being dropped, so nothing points into it any more.
    let _ = unsafe { mm::munmap(mapping.start.as_ptr(), mapping.len) };
}

pub(crate) fn page_size() -> usize {
    rustix::param::page_size()
}
