//! Frames in flight: a fixed circle of arenas between a thread that builds
//! frames and a thread that reads them, e.g. the simulation building frame
//! N+1's render list while the render thread still draws frame N.
//!
//! [`channel`] makes `frames` arenas and a [`Producer`] / [`Consumer`] pair.
//! Each [`Producer::produce`] takes a free arena (waiting while all
//! `frames` are in flight: the consumer is that far behind), builds the
//! frame's data in it and seals the two ([`Sealed`]); each
//! [`Consumer::consume`] takes the oldest sealed frame, reads it, reclaims
//! its arena and puts it back in the circle. The hand-off is one mutex and
//! two condition variables; the queues are allocated once, so a steady
//! frame makes no heap allocation, and the arenas keep their pages.
//!
//! # Example
//!
//! ```
//! use tickarena::FrameData;
//! use tickarena::in_flight;
//!
//! struct Sprites;
//! impl FrameData for Sprites {
//!     type Of<'f> = &'f [[f32; 2]];
//! }
//!
//! let (mut producer, mut consumer) = in_flight::channel::<Sprites>(2);
//! let simulation = std::thread::spawn(move || {
//!     for frame in 0..100u32 {
//!         producer.produce(|arena| {
//!             &*arena.alloc_slice_fill_with(64, |i| [frame as f32, i as f32])
//!         })
//!         .expect("the renderer is still there");
//!     }
//! });
//! let mut drawn = 0;
//! while let Some(first) = consumer.consume(|sprites| sprites[0][0]) {
//!     assert_eq!(first, drawn as f32); // in order, intact
//!     drawn += 1;
//! }
//! simulation.join().unwrap();
//! assert_eq!(drawn, 100);
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::arena::{ArenaError, FrameArena, FrameArenaBuilder};
use crate::sealed::{FrameData, Sealed};

/// A circle of `frames` arenas made as [`FrameArena::new`] makes them, and
/// the two ends of its hand-off.
///
/// # Panics
///
/// If `frames` is 0, or the OS refuses an arena's address space.
///
/// # Example
///
/// ```
/// use tickarena::{FrameData, in_flight};
/// struct Text;
/// impl FrameData for Text {
///     type Of<'f> = &'f str;
/// }
/// let (mut producer, mut consumer) = in_flight::channel::<Text>(3);
/// producer.produce(|arena| &*arena.alloc_str("hello")).unwrap();
/// assert_eq!(producer.in_flight(), 1);
/// assert_eq!(consumer.consume(|text| text.len()), Some(5));
/// assert_eq!(consumer.in_flight(), 0);
/// ```
#[track_caller]
pub fn channel<D: FrameData>(frames: usize) -> (Producer<D>, Consumer<D>) {
    match channel_with(frames, FrameArena::builder()) {
        Ok(ends) => ends,
        Err(error) => panic!("tickarena: cannot make the frames-in-flight arenas: {error}"),
    }
}

/// [`channel`], with each arena made by `builder`.
///
/// # Errors
///
/// If the OS refuses an arena (see [`FrameArenaBuilder::build`]).
///
/// # Panics
///
/// If `frames` is 0.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameData, in_flight};
/// struct Bytes;
/// impl FrameData for Bytes {
///     type Of<'f> = &'f [u8];
/// }
/// let builder = FrameArena::builder().reserve(64 << 20).retain(1 << 20);
/// let (producer, consumer) = in_flight::channel_with::<Bytes>(2, builder)?;
/// assert_eq!(producer.frames(), 2);
/// # drop(consumer);
/// # Ok::<(), tickarena::ArenaError>(())
/// ```
pub fn channel_with<D: FrameData>(
    frames: usize,
    builder: FrameArenaBuilder,
) -> Result<(Producer<D>, Consumer<D>), ArenaError> {
    assert!(
        frames > 0,
        "in_flight::channel: at least one frame in flight"
    );
    let mut free = Vec::with_capacity(frames);
    for _ in 0..frames {
        free.push(builder.clone().build()?);
    }
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            ready: VecDeque::with_capacity(frames),
            free,
            producer_gone: false,
            consumer_gone: false,
        }),
        ready_changed: Condvar::new(),
        free_changed: Condvar::new(),
        frames,
    });
    Ok((
        Producer {
            shared: Arc::clone(&shared),
        },
        Consumer { shared },
    ))
}

/// What both ends share.
struct Shared<D: FrameData> {
    state: Mutex<State<D>>,
    /// A frame became ready, or the producer left.
    ready_changed: Condvar,
    /// An arena came back, or the consumer left.
    free_changed: Condvar,
    frames: usize,
}

struct State<D: FrameData> {
    /// Sealed frames, oldest first. Never holds more than `frames`, its
    /// capacity: pushing never allocates.
    ready: VecDeque<Sealed<D>>,
    /// Reclaimed arenas; capacity `frames`.
    free: Vec<FrameArena>,
    producer_gone: bool,
    consumer_gone: bool,
}

impl<D: FrameData> Shared<D> {
    fn lock(&self) -> MutexGuard<'_, State<D>> {
        // A panic while the lock was held left the queues consistent (each
        // change is one push or pop), so a poisoned lock is still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits on `changed` until `ready` finds what it waits for in the
    /// state, and returns that.
    fn wait_until<T>(
        &self,
        changed: &Condvar,
        mut ready: impl FnMut(&mut State<D>) -> Option<T>,
    ) -> T {
        let mut state = self.lock();
        loop {
            if let Some(found) = ready(&mut state) {
                return found;
            }
            state = changed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Frames sealed or being built or read: arenas out of the free list.
    fn in_flight(&self) -> usize {
        self.frames - self.lock().free.len()
    }

    /// Puts a reclaimed arena back in the circle.
    fn give_back(&self, arena: FrameArena) {
        self.lock().free.push(arena);
        self.free_changed.notify_one();
    }
}

/// The building end of a frames-in-flight [`channel`]: one per channel,
/// `Send` to the thread that builds frames.
///
/// # Example
///
/// ```
/// use tickarena::{FrameData, in_flight};
/// struct Ids;
/// impl FrameData for Ids {
///     type Of<'f> = &'f [u32];
/// }
/// let (mut producer, mut consumer) = in_flight::channel::<Ids>(2);
/// let builder = std::thread::spawn(move || {
///     producer.produce(|arena| &*arena.alloc_slice_copy(&[1, 2, 3])).unwrap();
/// });
/// assert_eq!(consumer.consume(|ids| ids.iter().sum::<u32>()), Some(6));
/// builder.join().unwrap();
/// ```
pub struct Producer<D: FrameData> {
    shared: Arc<Shared<D>>,
}

/// The consumer is gone: [`Producer::produce`] has no one to hand frames to.
///
/// # Example
///
/// ```
/// use tickarena::{FrameData, in_flight};
/// struct Unit;
/// impl FrameData for Unit {
///     type Of<'f> = ();
/// }
/// let (mut producer, consumer) = in_flight::channel::<Unit>(1);
/// drop(consumer);
/// let error = producer.produce(|_| ()).unwrap_err();
/// assert_eq!(error.to_string(), "the consumer of the frames in flight is gone");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disconnected;

impl fmt::Display for Disconnected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the consumer of the frames in flight is gone")
    }
}

impl std::error::Error for Disconnected {}

impl<D: FrameData> Producer<D> {
    /// Builds the next frame in a free arena and hands it to the consumer.
    /// Waits while every arena is in flight (the consumer is `frames`
    /// frames behind). `build` is as in [`FrameArena::seal`].
    ///
    /// If `build` panics, its arena goes back to the circle (reclaimed) and
    /// the panic goes on.
    ///
    /// # Errors
    ///
    /// [`Disconnected`] if the consumer was dropped; `build` is not called.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Number;
    /// impl FrameData for Number {
    ///     type Of<'f> = &'f u64;
    /// }
    /// let (mut producer, consumer) = in_flight::channel::<Number>(1);
    /// producer.produce(|arena| &*arena.alloc(7)).unwrap();
    /// drop(consumer);
    /// assert!(producer.produce(|arena| &*arena.alloc(8)).is_err());
    /// ```
    pub fn produce(
        &mut self,
        build: impl for<'f> FnOnce(&'f FrameArena) -> D::Of<'f>,
    ) -> Result<(), Disconnected>
    where
        for<'f> D::Of<'f>: Send,
    {
        let shared = &*self.shared;
        let arena = shared
            .wait_until(&shared.free_changed, |state| {
                if state.consumer_gone {
                    Some(None)
                } else {
                    state.free.pop().map(Some)
                }
            })
            .ok_or(Disconnected)?;
        // The arena stays in the guard until `build` has returned; on a
        // panic the guard puts it back.
        let mut building = Building {
            slot: Some(arena),
            shared: &self.shared,
        };
        let sealed = Sealed::build(&mut building.slot, build);
        self.shared.lock().ready.push_back(sealed);
        self.shared.ready_changed.notify_one();
        Ok(())
    }

    /// Frames sealed, or being built or read, right now.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Unit;
    /// impl FrameData for Unit {
    ///     type Of<'f> = ();
    /// }
    /// let (mut producer, _consumer) = in_flight::channel::<Unit>(2);
    /// producer.produce(|_| ()).unwrap();
    /// producer.produce(|_| ()).unwrap();
    /// assert_eq!(producer.in_flight(), 2); // a third produce would wait
    /// ```
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight()
    }

    /// The arenas in the circle: the most frames in flight.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Unit;
    /// impl FrameData for Unit {
    ///     type Of<'f> = ();
    /// }
    /// let (producer, _consumer) = in_flight::channel::<Unit>(3);
    /// assert_eq!(producer.frames(), 3);
    /// ```
    pub fn frames(&self) -> usize {
        self.shared.frames
    }
}

impl<D: FrameData> Drop for Producer<D> {
    fn drop(&mut self) {
        self.shared.lock().producer_gone = true;
        self.shared.ready_changed.notify_all();
    }
}

/// An arena being built in; gives it back to the circle if the build
/// panics (the arena is still in `slot` then).
struct Building<'s, D: FrameData> {
    slot: Option<FrameArena>,
    shared: &'s Shared<D>,
}

impl<D: FrameData> Drop for Building<'_, D> {
    fn drop(&mut self) {
        if let Some(arena) = self.slot.take() {
            self.shared.give_back(arena.reclaim());
        }
    }
}

/// The reading end of a frames-in-flight [`channel`]: one per channel,
/// `Send` to the thread that reads frames.
///
/// # Example
///
/// ```
/// use tickarena::{FrameData, in_flight};
/// struct Text;
/// impl FrameData for Text {
///     type Of<'f> = &'f str;
/// }
/// let (mut producer, consumer) = in_flight::channel::<Text>(2);
/// let mut consumer = consumer; // moved to the render thread in a real game
/// producer.produce(|arena| &*arena.alloc_str("drawn elsewhere")).unwrap();
/// let drawn = std::thread::spawn(move || consumer.consume(|text| text.len()))
///     .join()
///     .unwrap();
/// assert_eq!(drawn, Some(15));
/// ```
pub struct Consumer<D: FrameData> {
    shared: Arc<Shared<D>>,
}

impl<D: FrameData> Consumer<D> {
    /// Waits for the oldest frame not read yet, reads it with `read`,
    /// reclaims its arena and puts the arena back in the circle. `None`
    /// once the producer is gone and every frame it made has been read.
    ///
    /// If `read` panics, the frame's data is dropped and its arena goes
    /// back to the circle all the same; the panic goes on.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Text;
    /// impl FrameData for Text {
    ///     type Of<'f> = &'f str;
    /// }
    /// let (mut producer, mut consumer) = in_flight::channel::<Text>(2);
    /// producer.produce(|arena| &*arena.alloc_str("one")).unwrap();
    /// drop(producer);
    /// assert_eq!(consumer.consume(|text| text.to_uppercase()).as_deref(), Some("ONE"));
    /// assert_eq!(consumer.consume(|text| text.len()), None);
    /// ```
    pub fn consume<R>(&mut self, read: impl for<'f> FnOnce(&D::Of<'f>) -> R) -> Option<R> {
        let shared = &*self.shared;
        let sealed = shared.wait_until(&shared.ready_changed, |state| {
            match state.ready.pop_front() {
                Some(sealed) => Some(Some(sealed)),
                None if state.producer_gone => Some(None),
                None => None,
            }
        })?;
        Some(self.read_and_give_back(sealed, read))
    }

    /// [`consume`](Self::consume) without waiting: `None` if no frame is
    /// ready now.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Number;
    /// impl FrameData for Number {
    ///     type Of<'f> = &'f u32;
    /// }
    /// let (mut producer, mut consumer) = in_flight::channel::<Number>(2);
    /// assert_eq!(consumer.try_consume(|n| **n), None);
    /// producer.produce(|arena| &*arena.alloc(5)).unwrap();
    /// assert_eq!(consumer.try_consume(|n| **n), Some(5));
    /// ```
    pub fn try_consume<R>(&mut self, read: impl for<'f> FnOnce(&D::Of<'f>) -> R) -> Option<R> {
        let sealed = self.shared.lock().ready.pop_front()?;
        Some(self.read_and_give_back(sealed, read))
    }

    /// Whether the producer is gone and every frame it made has been read.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Unit;
    /// impl FrameData for Unit {
    ///     type Of<'f> = ();
    /// }
    /// let (producer, consumer) = in_flight::channel::<Unit>(1);
    /// assert!(!consumer.is_finished());
    /// drop(producer);
    /// assert!(consumer.is_finished());
    /// ```
    pub fn is_finished(&self) -> bool {
        let state = self.shared.lock();
        state.producer_gone && state.ready.is_empty()
    }

    /// Frames sealed, or being built or read, right now.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameData, in_flight};
    /// struct Unit;
    /// impl FrameData for Unit {
    ///     type Of<'f> = ();
    /// }
    /// let (mut producer, mut consumer) = in_flight::channel::<Unit>(2);
    /// producer.produce(|_| ()).unwrap();
    /// assert_eq!(consumer.in_flight(), 1);
    /// consumer.consume(|_| ());
    /// assert_eq!(consumer.in_flight(), 0);
    /// ```
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight()
    }

    /// Reads `sealed` and puts its arena back, reclaimed, also if `read`
    /// panics.
    fn read_and_give_back<R>(
        &mut self,
        sealed: Sealed<D>,
        read: impl for<'f> FnOnce(&D::Of<'f>) -> R,
    ) -> R {
        let reading = Reading {
            sealed: Some(sealed),
            shared: &self.shared,
        };
        reading
            .sealed
            .as_ref()
            .expect("the frame being read")
            .with(read)
        // `reading` drops here, or while unwinding: the frame goes back.
    }
}

impl<D: FrameData> Drop for Consumer<D> {
    fn drop(&mut self) {
        self.shared.lock().consumer_gone = true;
        self.shared.free_changed.notify_all();
    }
}

/// A frame being read; gives its arena back to the circle when dropped.
struct Reading<'s, D: FrameData> {
    sealed: Option<Sealed<D>>,
    shared: &'s Shared<D>,
}

impl<D: FrameData> Drop for Reading<'_, D> {
    fn drop(&mut self) {
        if let Some(sealed) = self.sealed.take() {
            self.shared.give_back(sealed.reclaim());
        }
    }
}

impl<D: FrameData> Shared<D> {
    /// The `Debug` of either end, named `end`.
    fn debug_end(&self, end: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(end)
            .field("frames", &self.frames)
            .field("in_flight", &self.in_flight())
            .finish()
    }
}

impl<D: FrameData> fmt::Debug for Producer<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shared.debug_end("Producer", f)
    }
}

impl<D: FrameData> fmt::Debug for Consumer<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shared.debug_end("Consumer", f)
    }
}
