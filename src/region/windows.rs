//! The Windows backend: `VirtualAlloc(MEM_RESERVE, PAGE_NOACCESS)` reserves,
//! `VirtualAlloc(MEM_COMMIT, PAGE_READWRITE)` commits, `VirtualFree(
//! MEM_DECOMMIT)` gives pages back and `VirtualFree(MEM_RELEASE)` frees the
//! reservation, through `windows-sys`.
//!
//! Windows charges commit at `MEM_COMMIT` (it has no overcommit), so a
//! shortage is a refused commit there (`ERROR_COMMITMENT_LIMIT`), reported
//! as the arena's usual error. Large pages need a privilege and must be
//! committed up front, so `huge_pages(true)` is a no-op here.

use core::ffi::c_void;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};

use windows_sys::Win32::System::Memory::{
    MEM_COMMIT, MEM_DECOMMIT, MEM_RELEASE, MEM_RESERVE, PAGE_NOACCESS, PAGE_READWRITE,
    VirtualAlloc, VirtualFree,
};
use windows_sys::Win32::System::SystemInformation::GetSystemInfo;

/// 16 GiB of address space on 64-bit Windows, 256 MiB on 32-bit.
pub(crate) const DEFAULT_RESERVE: usize = if cfg!(target_pointer_width = "64") {
    16 << 30
} else {
    256 << 20
};

/// One reservation, as `VirtualAlloc` returned it (aligned to the
/// allocation granularity, 64 KiB).
pub(crate) struct Mapping {
    base: NonNull<u8>,
    len: usize,
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
pub(crate) fn reserve(bytes: usize, _huge_pages: bool) -> Option<Mapping> {
    // SAFETY: a reservation at an address of the system's choosing touches
    // no existing memory.
    let start = unsafe { VirtualAlloc(ptr::null(), bytes, MEM_RESERVE, PAGE_NOACCESS) };
    let base = NonNull::new(start.cast::<u8>())?;
    Some(Mapping { base, len: bytes })
}

/// Makes bytes `from..to` after the base readable and writable.
pub(crate) fn commit(mapping: &Mapping, from: usize, to: usize) -> bool {
    let (ptr, len) = mapping.range(from, to);
    if len == 0 {
        return true;
    }
    // SAFETY: the range lies inside our reservation (checked by
    // `Region::commit`); committing pages invalidates nothing.
    !unsafe { VirtualAlloc(ptr, len, MEM_COMMIT, PAGE_READWRITE) }.is_null()
}

/// Drops the pages of bytes `from..to`; they are reserved but inaccessible
/// again.
pub(crate) fn decommit(mapping: &Mapping, from: usize, to: usize) {
    let (ptr, len) = mapping.range(from, to);
    // Never pass a size of 0: with MEM_DECOMMIT that decommits the whole
    // region the address belongs to.
    if len == 0 {
        return;
    }
    // SAFETY: the range lies inside our reservation, and the arena only
    // decommits while it is borrowed mutably (reset/reclaim), so no
    // reference into these bytes is alive. A failure leaves them committed.
    let _ = unsafe { VirtualFree(ptr, len, MEM_DECOMMIT) };
}

/// Frees the whole reservation.
pub(crate) fn release(mapping: &Mapping) {
    // SAFETY: `base` is what `VirtualAlloc(MEM_RESERVE)` returned, and
    // MEM_RELEASE needs size 0; the region is being dropped, so nothing
    // points into it any more.
    let _ = unsafe { VirtualFree(mapping.base.as_ptr().cast(), 0, MEM_RELEASE) };
}

/// The page size that commits are rounded to (4 KiB on x64 and arm64).
pub(crate) fn page_size() -> usize {
    let mut info = MaybeUninit::uninit();
    // SAFETY: GetSystemInfo fills the whole structure and cannot fail.
    let info = unsafe {
        GetSystemInfo(info.as_mut_ptr());
        info.assume_init()
    };
    info.dwPageSize as usize
}
