//! Snapshots of a game's state in recycled slots: saving writes into a
//! slot nobody holds any more (its capacity kept from the frames before),
//! and what ggrs's cell keeps is a shared handle to the slot, so cloning
//! it copies nothing and allocates nothing.

#![forbid(unsafe_code)]

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;

/// One saved state and the loop's clock at it.
#[derive(Default)]
struct Slot<S> {
    frame: i32,
    tick: u64,
    time: Duration,
    checksum: u128,
    state: S,
}

/// A saved state of a game under rollback: what ggrs's `GameStateCell`
/// holds (`Config::State`), a handle to a slot of the
/// [`RollbackLoop`](super::RollbackLoop)'s ring.
///
/// Cloning it shares the slot (a reference count, no copy, no
/// allocation). When ggrs drops it (its cell saves a newer frame), the
/// slot serves a later save, with the capacity its state grew to.
///
/// # Example
///
/// ```
/// use tickarena::rollback::Snapshot;
/// // What ggrs's config names as its state:
/// struct Config;
/// impl ggrs::Config for Config {
///     type Input = u8;
///     type InputPredictor = ggrs::PredictRepeatLast;
///     type State = Snapshot<Vec<u32>>;
///     type Address = std::net::SocketAddr;
/// }
/// ```
pub struct Snapshot<S> {
    slot: Arc<Slot<S>>,
}

impl<S> Snapshot<S> {
    /// The ggrs frame it was saved at.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// let snapshot = game.save(0);
    /// assert_eq!(snapshot.frame(), 0);
    /// ```
    pub fn frame(&self) -> i32 {
        self.slot.frame
    }

    /// The state's checksum ([`RollbackGame::checksum`](super::RollbackGame::checksum)).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::{RollbackGame, RollbackLoop};
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// let snapshot = game.save(0);
    /// assert_eq!(snapshot.checksum(), Counter::checksum(snapshot.state()));
    /// ```
    pub fn checksum(&self) -> u128 {
        self.slot.checksum
    }

    /// The saved state.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter { total: 5 });
    /// assert_eq!(*game.save(0).state(), 5);
    /// ```
    pub fn state(&self) -> &S {
        &self.slot.state
    }

    /// The frame loop's tick and simulated time at the save.
    pub(crate) fn clock(&self) -> (u64, Duration) {
        (self.slot.tick, self.slot.time)
    }
}

impl<S> Clone for Snapshot<S> {
    /// Shares the slot: no copy of the state, no allocation.
    fn clone(&self) -> Self {
        Snapshot {
            slot: Arc::clone(&self.slot),
        }
    }
}

impl<S> fmt::Debug for Snapshot<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Snapshot")
            .field("frame", &self.slot.frame)
            .field("checksum", &format_args!("{:#034x}", self.slot.checksum))
            .finish_non_exhaustive()
    }
}

/// The ring of slots a loop saves into.
pub(crate) struct SnapshotRing<S> {
    slots: Vec<Arc<Slot<S>>>,
    /// Where the search for a free slot starts: after the last one used,
    /// so a full ring is walked in order rather than from the front.
    next: usize,
}

impl<S: Default> SnapshotRing<S> {
    /// Room for `slots` snapshots before the ring grows (ggrs keeps
    /// `max_prediction + 1`, and one more is being written).
    pub(crate) fn with_capacity(slots: usize) -> SnapshotRing<S> {
        SnapshotRing {
            slots: Vec::with_capacity(slots),
            next: 0,
        }
    }

    /// Saves a state: `write` fills a free slot's state (the one it held
    /// before, to be overwritten in place), `checksum` sums it.
    pub(crate) fn save(
        &mut self,
        frame: i32,
        (tick, time): (u64, Duration),
        write: impl FnOnce(&mut S),
        checksum: impl FnOnce(&S) -> u128,
    ) -> Snapshot<S> {
        let index = self.free_slot();
        let slot = Arc::get_mut(&mut self.slots[index]).expect("a free slot is not shared");
        write(&mut slot.state);
        slot.checksum = checksum(&slot.state);
        (slot.frame, slot.tick, slot.time) = (frame, tick, time);
        self.next = (index + 1) % self.slots.len();
        Snapshot {
            slot: Arc::clone(&self.slots[index]),
        }
    }

    /// A slot held by nobody but the ring; a new one when all are held
    /// (the first saves, or a session keeping more than planned).
    fn free_slot(&mut self) -> usize {
        let len = self.slots.len();
        for offset in 0..len {
            let index = (self.next + offset) % len;
            if Arc::get_mut(&mut self.slots[index]).is_some() {
                return index;
            }
        }
        self.slots.push(Arc::new(Slot::default()));
        len
    }

    /// Slots made so far.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn save(ring: &mut SnapshotRing<Vec<u32>>, frame: i32) -> Snapshot<Vec<u32>> {
        ring.save(
            frame,
            (frame as u64, Duration::ZERO),
            |state| {
                state.clear();
                state.extend(0..frame as u32);
            },
            |state| state.len() as u128,
        )
    }

    #[test]
    fn a_held_slot_is_never_written_and_a_dropped_one_is_reused() {
        let mut ring = SnapshotRing::with_capacity(2);
        let first = save(&mut ring, 3);
        let second = save(&mut ring, 5);
        assert_eq!(ring.len(), 2);
        assert_eq!((first.state().len(), second.state().len()), (3, 5));
        let shared = first.clone();
        drop(first);
        // `shared` still holds frame 3's slot: a third save takes a new one.
        let third = save(&mut ring, 7);
        assert_eq!(ring.len(), 3);
        assert_eq!((shared.frame(), shared.state().len()), (3, 3));
        drop((shared, second));
        let capacity_before = ring.slots.iter().map(|s| s.state.capacity()).sum::<usize>();
        let fourth = save(&mut ring, 2);
        assert_eq!(ring.len(), 3, "a free slot was reused");
        assert_eq!(
            (fourth.frame(), fourth.checksum(), third.frame()),
            (2, 2, 7)
        );
        let capacity_after = ring.slots.iter().map(|s| s.state.capacity()).sum::<usize>();
        assert_eq!(capacity_before, capacity_after, "its capacity was kept");
    }
}
