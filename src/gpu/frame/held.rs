//! How a frame holds its arena: borrowed for the frame alone (one
//! thread: a `RefCell`, no lock), or behind the lock of a
//! [`SharedUploadArena`](super::super::SharedUploadArena), whose frame
//! stays open from one system to the next and is written from several
//! threads at once.
//!
//! Either way the arena is taken only inside the frame's own calls (a
//! room claimed, an upload closed, a copy asked for), never while the
//! caller's code runs, so two writers of one frame never wait on each
//! other for longer than such a call.

use core::cell::{RefCell, RefMut};
use core::ops::{Deref, DerefMut};
use std::sync::{Mutex, MutexGuard};

use super::super::arena::UploadArena;

/// The arena of a frame.
pub(crate) enum Held<'a> {
    /// An [`UploadFrame`](super::UploadFrame) from
    /// [`UploadArena::begin_frame`]: the frame borrows the arena mutably.
    Borrowed(RefCell<&'a mut UploadArena>),
    /// A [`SharedFrame`](super::super::SharedFrame): a handle on the
    /// frame a shared arena holds open.
    Locked(&'a Mutex<UploadArena>),
}

/// The arena, taken for one call.
pub(crate) enum Taken<'g, 'a> {
    Borrowed(RefMut<'g, &'a mut UploadArena>),
    Exclusive(&'g mut UploadArena),
    Locked(MutexGuard<'g, UploadArena>),
}

impl<'a> Held<'a> {
    /// The arena for one call, from a frame shared by its writers.
    pub(crate) fn take(&self) -> Taken<'_, 'a> {
        match self {
            Held::Borrowed(cell) => Taken::Borrowed(cell.borrow_mut()),
            Held::Locked(mutex) => Taken::Locked(lock(mutex)),
        }
    }

    /// The arena for one call, from the frame itself (no writer open).
    pub(crate) fn take_mut(&mut self) -> Taken<'_, 'a> {
        match self {
            Held::Borrowed(cell) => Taken::Exclusive(cell.get_mut()),
            Held::Locked(mutex) => Taken::Locked(lock(mutex)),
        }
    }
}

/// Locks a shared arena. Its lock is held only inside the arena's own
/// calls, never over a caller's code: a poisoned lock means one of them
/// panicked midway, and the arena's tables cannot be trusted after it.
pub(crate) fn lock(mutex: &Mutex<UploadArena>) -> MutexGuard<'_, UploadArena> {
    mutex
        .lock()
        .expect("tickarena: a call of the shared upload arena panicked before this one")
}

impl Deref for Taken<'_, '_> {
    type Target = UploadArena;

    fn deref(&self) -> &UploadArena {
        match self {
            Taken::Borrowed(arena) => arena,
            Taken::Exclusive(arena) => arena,
            Taken::Locked(arena) => arena,
        }
    }
}

impl DerefMut for Taken<'_, '_> {
    fn deref_mut(&mut self) -> &mut UploadArena {
        match self {
            Taken::Borrowed(arena) => arena,
            Taken::Exclusive(arena) => arena,
            Taken::Locked(arena) => arena,
        }
    }
}
