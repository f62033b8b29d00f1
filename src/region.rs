//! Virtual memory for one arena: reserve address space once, commit it as the
//! bump pointer advances, give pages back on reclaim, release on drop.
//!
//! This is the only module that talks to the operating system. The policy
//! (page rounding, commit steps, halving a refused default reservation) lives
//! here; the four calls that touch the OS (reserve, commit, decommit,
//! release) live in one backend per platform:
//!
//! * [`unix`]: `mmap(PROT_NONE)` / `mprotect` through `rustix`; pages given
//!   back by `madvise` on Linux and by remapping on macOS and the BSDs;
//! * [`windows`]: `VirtualAlloc` / `VirtualFree` through `windows-sys`;
//! * [`heap_block`]: one block from the global allocator, for Miri, wasm32
//!   and builds without `std`. Commit and decommit are no-ops there.
//!
//! A region can also be lent by the caller ([`Region::over_buffer`]): then
//! it is all usable from the start and no backend is ever called.

use core::mem::MaybeUninit;
use core::ptr::NonNull;

use crate::asan;
use crate::published::Published;

#[cfg(all(feature = "std", unix, not(miri)))]
mod unix;
#[cfg(all(feature = "std", unix, not(miri)))]
use unix as backend;

#[cfg(all(feature = "std", windows, not(miri)))]
mod windows;
#[cfg(all(feature = "std", windows, not(miri)))]
use windows as backend;

#[cfg(not(all(feature = "std", any(unix, windows), not(miri))))]
mod heap_block;
#[cfg(not(all(feature = "std", any(unix, windows), not(miri))))]
use heap_block as backend;

/// Size of the first commit; later commits double what is committed, up to
/// [`MAX_COMMIT_STEP`] at a time.
const MIN_COMMIT_STEP: usize = 64 * 1024;
/// Largest single growth of the committed range beyond what was asked for,
/// so a huge reservation is not committed in one huge leap.
const MAX_COMMIT_STEP: usize = 64 * 1024 * 1024;

/// Smallest reservation tried when the default one is refused and halved.
pub(crate) const MIN_DEFAULT_RESERVE: usize = 64 * 1024 * 1024;

/// Reservation used when the builder is not told otherwise.
pub(crate) const DEFAULT_RESERVE: usize = backend::DEFAULT_RESERVE;

/// How to reserve: the size, whether a refusal may be answered by halving,
/// and whether to ask for transparent huge pages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReserveRequest {
    pub bytes: usize,
    /// Halve a refused reservation down to this many bytes before giving up
    /// (equal to `bytes` for "exactly this much or nothing").
    pub smallest: usize,
    pub huge_pages: bool,
    /// The reservation must end at or below this address (the arena's
    /// arithmetic relies on it); a mapping placed higher counts as refused.
    pub address_limit: usize,
}

/// The OS refused every reservation size tried.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReserveRefused {
    pub smallest_tried: usize,
}

/// The OS refused to back more of the reservation with read/write pages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CommitRefused;

/// A reserved range of address space whose first `committed` bytes are
/// readable and writable.
pub(crate) struct Region {
    base: NonNull<u8>,
    reserved: usize,
    committed: Published,
    /// What the backend handed out, which may be larger than `reserved`
    /// (slack kept to align the base for huge pages); `None` for memory
    /// the caller lent, which is committed whole and never given back.
    mapping: Option<backend::Mapping>,
}

impl Region {
    /// Reserves address space as `request` says, committing nothing yet.
    pub(crate) fn reserve(request: ReserveRequest) -> Result<Region, ReserveRefused> {
        let mut bytes = request.bytes;
        loop {
            if let Some(mapping) = backend::reserve(bytes, request.huge_pages) {
                let base = mapping.base();
                if base.addr().get() <= request.address_limit.saturating_sub(bytes) {
                    return Ok(Region {
                        base,
                        reserved: bytes,
                        committed: Published::new(0),
                        mapping: Some(mapping),
                    });
                }
                backend::release(&mapping);
            }
            if bytes / 2 < request.smallest || bytes <= request.smallest {
                return Err(ReserveRefused {
                    smallest_tried: bytes,
                });
            }
            bytes /= 2;
        }
    }

    /// A region over memory the caller lends for as long as the program
    /// runs: all of it usable at once, nothing ever asked of the OS. `None`
    /// if the buffer ends above `address_limit`.
    pub(crate) fn over_buffer(
        buffer: &'static mut [MaybeUninit<u8>],
        address_limit: usize,
    ) -> Option<Region> {
        let len = buffer.len();
        let base = NonNull::from(buffer).cast::<u8>();
        if base.addr().get() > address_limit.saturating_sub(len) {
            return None;
        }
        // Lent whole, handed out piece by piece.
        asan::poison(base.as_ptr(), len);
        Some(Region {
            base,
            reserved: len,
            committed: Published::new(len),
            mapping: None,
        })
    }

    /// First byte of the reservation: aligned to at least a page, except in
    /// a region over a caller's buffer.
    #[inline]
    pub(crate) fn base(&self) -> NonNull<u8> {
        self.base
    }

    /// Whether this region is a buffer the caller lent
    /// ([`over_buffer`](Self::over_buffer)).
    #[inline]
    pub(crate) fn is_lent(&self) -> bool {
        self.mapping.is_none()
    }

    /// The address `offset` bytes into the region.
    fn at(&self, offset: usize) -> *const u8 {
        self.base.as_ptr().wrapping_add(offset)
    }

    /// Bytes of address space reserved.
    #[inline]
    pub(crate) fn reserved(&self) -> usize {
        self.reserved
    }

    /// Bytes at the start of the reservation that are readable and writable.
    #[inline]
    pub(crate) fn committed(&self) -> usize {
        self.committed.get()
    }

    /// Makes at least the first `bytes` bytes readable and writable.
    ///
    /// Commits in growing steps (doubling, capped) so that a frame that grows
    /// steadily makes few system calls. Fails when `bytes` exceeds the
    /// reservation or the OS refuses.
    pub(crate) fn commit(&self, bytes: usize) -> Result<(), CommitRefused> {
        let committed = self.committed.get();
        if bytes <= committed {
            return Ok(());
        }
        // A lent buffer is committed whole, so only an OS mapping gets here.
        let Some(mapping) = &self.mapping else {
            return Err(CommitRefused);
        };
        if bytes > self.reserved {
            return Err(CommitRefused);
        }
        let step = committed.clamp(MIN_COMMIT_STEP, MAX_COMMIT_STEP);
        let wanted = bytes.max(committed.saturating_add(step));
        let target = round_up_to_page(wanted).min(self.reserved);
        // Ask for exactly what is needed if the generous step is refused: the
        // step is an optimisation, not a requirement.
        let minimal = round_up_to_page(bytes).min(self.reserved);
        let new_committed = if backend::commit(mapping, committed, target) {
            target
        } else if minimal < target && backend::commit(mapping, committed, minimal) {
            minimal
        } else {
            return Err(CommitRefused);
        };
        // Committed but not yet handed out: nothing may read it.
        asan::poison(self.at(committed), new_committed - committed);
        self.committed.set(new_committed);
        Ok(())
    }

    /// Gives the pages above the first `keep` bytes back to the OS and makes
    /// them inaccessible again; their contents are lost.
    pub(crate) fn decommit(&self, keep: usize) {
        let Some(mapping) = &self.mapping else {
            return; // a lent buffer stays whole
        };
        let keep = round_up_to_page(keep).min(self.reserved);
        let committed = self.committed.get();
        if keep < committed {
            // The OS takes the pages back: their shadow must be clean for
            // whatever is mapped there later.
            asan::unpoison(self.at(keep), committed - keep);
            backend::decommit(mapping, keep, committed);
            self.committed.set(keep);
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // Memory mapped or allocated here later must not look poisoned.
        asan::unpoison(self.base.as_ptr(), self.committed());
        if let Some(mapping) = &self.mapping {
            backend::release(mapping);
        }
    }
}

/// Page size of the backend (the OS page size for virtual memory).
#[inline]
pub(crate) fn page_size() -> usize {
    backend::page_size()
}

/// Bytes `from..to` after `base`, inside a mapping of `len` bytes, as the
/// pointer and length the OS calls take.
#[cfg(all(feature = "std", any(unix, windows), not(miri)))]
fn byte_range(
    base: NonNull<u8>,
    len: usize,
    from: usize,
    to: usize,
) -> (*mut core::ffi::c_void, usize) {
    debug_assert!(
        from <= to && to <= len,
        "expected `from` ({from}) <= `to` ({to}) <= mapping length ({len})"
    );
    (base.as_ptr().wrapping_add(from).cast(), to - from)
}

fn round_up_to_page(bytes: usize) -> usize {
    let page = page_size();
    bytes
        .checked_next_multiple_of(page)
        .unwrap_or(usize::MAX & !(page - 1))
}
