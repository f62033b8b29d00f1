//! How the GPU's completion reaches a staging chunk: each chunk has a
//! state word, set by the callback of the map that wgpu runs once the
//! submission that copied from the chunk has finished. The callback's
//! closure holds a [`Notify`]; if wgpu drops the closure without calling
//! it (the encoder was never submitted), its `Drop` says so.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// Mapped for writing: the chunk is free.
pub(crate) const MAPPED: u8 = 0;
/// Handed to the GPU; the map comes when its submission finishes.
pub(crate) const PENDING: u8 = 1;
/// wgpu reported that the map failed.
pub(crate) const FAILED: u8 = 2;
/// wgpu dropped the callback without calling it: never submitted.
pub(crate) const NEVER_SUBMITTED: u8 = 3;
/// Handed to the GPU with no map asked for yet: the arena asks for it
/// itself once told the submission that carries the chunk
/// (`UploadArena::submitted`).
pub(crate) const HANDED: u8 = 4;

/// A chunk's state, shared with its map callback (made once per chunk).
#[derive(Debug, Default)]
pub(crate) struct Signal(AtomicU8);

impl Signal {
    /// The chunk's state: [`MAPPED`], [`PENDING`], [`FAILED`],
    /// [`NEVER_SUBMITTED`] or [`HANDED`]. Acquire: what wgpu did before the callback
    /// (the map) happens before the chunk is written again.
    pub(crate) fn get(&self) -> u8 {
        self.0.load(Ordering::Acquire)
    }

    /// Sets the state from the arena's own thread.
    pub(crate) fn set(&self, state: u8) {
        self.0.store(state, Ordering::Release);
    }
}

/// What a map callback holds: a clone of the chunk's [`Signal`] (no
/// allocation: a reference count).
pub(crate) struct Notify {
    signal: Option<Arc<Signal>>,
}

impl Notify {
    /// Marks the chunk pending and returns its notifier.
    pub(crate) fn pending(signal: &Arc<Signal>) -> Notify {
        signal.set(PENDING);
        Notify {
            signal: Some(Arc::clone(signal)),
        }
    }

    /// The map's outcome, from wgpu's callback.
    pub(crate) fn done<E>(mut self, result: Result<(), E>) {
        if let Some(signal) = self.signal.take() {
            signal.set(if result.is_ok() { MAPPED } else { FAILED });
        }
    }
}

impl Drop for Notify {
    fn drop(&mut self) {
        if let Some(signal) = self.signal.take() {
            signal.set(NEVER_SUBMITTED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_called_sets_the_outcome() {
        let signal = Arc::new(Signal::default());
        Notify::pending(&signal).done(Ok::<(), ()>(()));
        assert_eq!(signal.get(), MAPPED);
        Notify::pending(&signal).done(Err(()));
        assert_eq!(signal.get(), FAILED);
    }

    #[test]
    fn a_callback_dropped_uncalled_says_never_submitted() {
        let signal = Arc::new(Signal::default());
        let notify = Notify::pending(&signal);
        assert_eq!(signal.get(), PENDING);
        drop(notify);
        assert_eq!(signal.get(), NEVER_SUBMITTED);
        assert_eq!(Arc::strong_count(&signal), 1);
    }
}
