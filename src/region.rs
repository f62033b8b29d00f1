//! Virtual memory for one arena: reserve address space once, commit it as the
//! bump pointer advances, give pages back on reclaim, release on drop.
//!
//! This is the only module that talks to the operating system. The policy
//! (page rounding, commit steps, halving a refused default reservation) lives
//! here; the four calls that touch the OS live in a backend:
//!
//! * [`virtual_memory`]: `mmap(PROT_NONE)` / `mprotect` / `madvise` through
//!   `rustix` on unix (the default);
//! * [`heap_block`]: one large block from the global allocator, for Miri and
//!   for targets without those calls. Commit and decommit are no-ops there.

use core::cell::Cell;
use core::ptr::NonNull;

#[cfg(any(miri, not(unix)))]
mod heap_block;
#[cfg(any(miri, not(unix)))]
use heap_block as backend;

#[cfg(all(unix, not(miri)))]
mod virtual_memory;
#[cfg(all(unix, not(miri)))]
use virtual_memory as backend;

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
    committed: Cell<usize>,
    /// What the backend handed out, which may be larger than `reserved`
    /// (slack kept to align the base for huge pages).
    mapping: backend::Mapping,
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
                        committed: Cell::new(0),
                        mapping,
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

    /// First byte of the reservation; aligned to at least a page.
    #[inline]
    pub(crate) fn base(&self) -> NonNull<u8> {
        self.base
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
        if bytes > self.reserved {
            return Err(CommitRefused);
        }
        let step = committed.clamp(MIN_COMMIT_STEP, MAX_COMMIT_STEP);
        let wanted = bytes.max(committed.saturating_add(step));
        let target = round_up_to_page(wanted).min(self.reserved);
        // Ask for exactly what is needed if the generous step is refused: the
        // step is an optimisation, not a requirement.
        let minimal = round_up_to_page(bytes).min(self.reserved);
        let new_committed = if backend::commit(&self.mapping, committed, target) {
            target
        } else if minimal < target && backend::commit(&self.mapping, committed, minimal) {
            minimal
        } else {
            return Err(CommitRefused);
        };
        self.committed.set(new_committed);
        Ok(())
    }

    /// Gives the pages above the first `keep` bytes back to the OS and makes
    /// them inaccessible again; their contents are lost.
    pub(crate) fn decommit(&self, keep: usize) {
        let keep = round_up_to_page(keep).min(self.reserved);
        let committed = self.committed.get();
        if keep < committed {
            backend::decommit(&self.mapping, keep, committed);
            self.committed.set(keep);
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        backend::release(&self.mapping);
    }
}

/// Page size of the backend (the OS page size for virtual memory).
#[inline]
pub(crate) fn page_size() -> usize {
    backend::page_size()
}

fn round_up_to_page(bytes: usize) -> usize {
    let page = page_size();
    bytes
        .checked_next_multiple_of(page)
        .unwrap_or(usize::MAX & !(page - 1))
}
