//! [`FrameArena`]: the bump allocator every frame's transient data lives in.
//!
//! The arena bumps **upward** through one reserved [`Region`] of address
//! space. An allocation is: align the top, add the size, compare with the
//! committed end, store the new top. Everything else (committing more pages,
//! errors) is out of line and `#[cold]`. Because the most recent allocation
//! ends at the top, it can grow and shrink in place, which is what makes
//! `Vec::push` and string building cheap here.

mod allocator;
mod budget;
mod builder;
mod bump;
mod ceiling;
mod checkpoint;
#[cfg(feature = "serde")]
mod decode;
mod error;
mod last_size;
// Used by the frame loop, which needs `std`.
#[cfg(feature = "std")]
mod placed;
mod refusal;
mod refusals;
mod retention;
mod stats;
mod tags;
mod typed;
mod uninit;

use core::alloc::{AllocError, Layout};
use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use crate::asan;
use crate::published::Published;
use crate::region::Region;
pub(crate) use budget::Budgets;
pub(crate) use budget::FrameBreaches;
use bump::{ADDRESS_LIMIT, Bumped, bump_up, bump_up_whole};
use ceiling::Ceiling;
use last_size::LastSizes;
use refusal::Refusal;
use refusals::RefusalCounts;
#[cfg(feature = "wgpu")]
pub(crate) use retention::DEFAULT_RELEASE_AFTER;
pub(crate) use retention::Retention;
use retention::Window;
use tags::Ledger;

pub use budget::{Breach, BudgetPolicy};
pub use builder::FrameArenaBuilder;
#[cfg(feature = "serde")]
pub(crate) use decode::{DecodeState, NO_SEED_MAX_DEPTH, NO_SEED_MAX_STACK, stack_address};
pub use error::ArenaError;
#[cfg(feature = "std")]
pub(crate) use placed::Placed;
pub use refusals::Refusals;
pub use stats::ArenaStats;
pub use tags::{MAX_TAGS, Tag, TagBytes, TagGuard};
pub use uninit::Zeroable;

/// A refusal met by one of the crate's collections was handled (turned
/// into an error value): no arena is to be named for it.
pub(crate) fn refusal_handled() {
    refusal::forget(None);
}

/// Byte written over a reclaimed frame in debug builds, so that a stale
/// pointer kept by `unsafe` code reads obvious garbage instead of old data.
#[cfg(all(debug_assertions, not(tickarena_asan)))]
const POISON: u8 = 0xDB;

/// A bump arena for one frame's worth of transient data, over reserved
/// virtual memory.
///
/// Allocation borrows the arena (`&self`); ending the frame with
/// [`reclaim`](FrameArena::reclaim) or [`reset`](FrameArena::reset) needs it
/// by value or `&mut`, so the borrow checker proves that nothing allocated in
/// the frame is still reachable when its memory is reused.
///
/// * Values placed with the `alloc*` methods are **never dropped** (their
///   memory is reused, their destructors do not run), like `bumpalo`. Use
///   `Box::new_in(x, &arena)` or `Vec::new_in(&arena)` for values that must
///   be dropped: those drop their contents as usual.
/// * `&FrameArena` implements [`Allocator`](core::alloc::Allocator), so every
///   collection that takes an allocator works in the arena.
/// * The arena is `Send` (move it to another thread) but not `Sync` (two
///   threads cannot bump it at once).
///
/// Pages are committed as the frame grows and stay committed between frames,
/// so a steady frame makes no system call; pages above the
/// [`retain`](FrameArenaBuilder::retain) size that no frame has needed for
/// a while ([`release_after`](FrameArenaBuilder::release_after) frames) are
/// given back on reclaim.
///
/// # Example
///
/// ```
/// use tickarena::FrameArena;
///
/// let mut arena = FrameArena::new();
/// for frame in 0..3u32 {
///     {
///         let position = arena.alloc((frame, 2 * frame));
///         let mut scratch = Vec::new_in(&arena);
///         scratch.extend([1, 2, 3]);
///         assert_eq!(position.1 + scratch.len() as u32, 2 * frame + 3);
///     } // the frame's borrows end here (`scratch` is dropped)...
///     arena = arena.reclaim(); // ...so the frame can end
/// }
/// assert_eq!(arena.stats().frames, 3);
/// ```
// In the declared order: what allocations and scopes touch (the top, the
// end, the peak's mark, the tag flag) sits together at the start, in one
// cache line, wherever the cold tables after it grow or shrink. Left to
// the compiler, a field removed from a cold table once moved the tag flag
// and cost a scope's open and close 1.03 to 1.20 ns.
#[repr(C)]
pub struct FrameArena {
    /// Not `Sync` (see below), said by the first field so that the
    /// compiler's error names the arena: "`*const FrameArena` cannot be
    /// shared between threads safely".
    _not_sync: PhantomData<*const FrameArena>,
    /// Address of the next free byte. Published so that `ThreadArenas` can
    /// sum the figures of arenas other threads are using.
    top: Published,
    /// Address one past the last committed byte.
    end: Cell<usize>,
    /// The highest `top` this frame had before it was last lowered (the
    /// most recent allocation freed or shrunk). Kept off the allocation
    /// fast path and growth in place, which only raise `top`.
    ///
    /// In a tagged arena, 0 from the moment its current turn may begin
    /// above the base (`mark_tagged`, a switch that closes a turn, a
    /// settle, a scope's rewind), its value kept in `tagged_lowered_from`
    /// instead: every lowering of the top then passes the test against it
    /// and comes to the ledger, which must know of a free below where the
    /// turn began. So a scope opened untagged finds a tag met inside it
    /// when it closes without testing the flag on its fast path (see
    /// `checkpoint`). The rule the code relies on goes one way: not 0
    /// means the turn began at the base. A tagged arena's reset puts the
    /// mark back here (the turn begins at the base, which no free goes
    /// below) until its first switch that closes a turn: the frees of that
    /// part of the frame (the events before the tagged systems) cost what
    /// an untagged arena's do.
    lowered_from: Published,
    /// The frame's peak top before the current tag's turn began (a tag
    /// switch starts the turn's high mark again from the top, so that it
    /// tells each turn's own high). Published for `ThreadArenas::peak`.
    peak_before_turn: Published,
    /// Whether a reset or a scope has tags to see to: a tag was met, or a
    /// budget set. An untagged arena's reset tests this flag alone.
    tagged: Cell<bool>,
    /// Whether this arena refused an allocation this frame: only then does
    /// the reset have a refusal to forget (see `refusal`) and counts to
    /// clear (see `refusals`).
    refused: Cell<bool>,
    /// `lowered_from` of a tagged arena whose current turn began above
    /// the base (0 otherwise). Published for `ThreadArenas::peak`.
    tagged_lowered_from: Published,
    region: Region,
    /// What is kept across a reclaim, and when more is given back.
    retention: Retention,
    /// Most bytes used by a frame of a finished retention window (the
    /// current window's frames are the retention's own figures: a reset
    /// then updates one peak and one count, see `reset`).
    high_water: usize,
    /// Reclaims and resets of finished retention windows.
    frames: u64,
    /// Retention windows ended so far: what the sizes of `last_sizes`
    /// follow.
    windows: u64,
    /// What buffers made at each call site needed lately (see
    /// `FrameArena::vec_at_last_size`).
    last_sizes: LastSizes,
    name: Option<&'static str>,
    /// Bytes per tag this frame (charged at each tag switch).
    tags: Ledger,
    /// What a frame over a tag's budget does, and how many did.
    budgets: Budgets,
    /// The serde decode running in this arena (see `decode`).
    #[cfg(feature = "serde")]
    decode: DecodeState,
    /// The address no allocation may end past while a decode runs (see
    /// `ceiling`); `end` is kept at or below it.
    ceiling: Ceiling,
    /// Where each frame's figures go in Tracy (`None`: not plotted, e.g.
    /// the arenas of a `ThreadArenas`, which plots their sums).
    #[cfg(feature = "tracy")]
    plots: Option<crate::tracy::ArenaPlots>,
    /// Allocations refused this frame, per tag slot.
    refusal_counts: RefusalCounts,
}

// SAFETY: the arena owns its region exclusively, and every reference into it
// borrows the arena, so a value that can be moved to another thread has no
// allocations still reachable from this one. The address its decode state
// may hold (`decode::Lent`) is set only for the length of a call that
// borrows the arena, and cleared before that call returns or unwinds.
unsafe impl Send for FrameArena {}

// Not `Sync`: two threads must not bump one arena at once (the top is a
// plain load and store). Stable Rust has no `impl !Sync`; the marker field
// makes the compiler's error for `&FrameArena` on another thread name the
// arena (`tests/trybuild/compile_fail/arena/shared_across_threads`); the
// answer is `ThreadArenas`, one arena per thread.

impl FrameArena {
    /// Creates an arena with the default settings (see [`FrameArenaBuilder`]).
    ///
    /// # Panics
    ///
    /// If the OS refuses even the smallest default reservation (64 MiB of
    /// address space). Use [`FrameArena::builder`] to handle that as an error.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(arena.used(), 0);
    /// ```
    pub fn new() -> FrameArena {
        match FrameArena::builder().build() {
            Ok(arena) => arena,
            Err(error) => panic!("tickarena: cannot create a FrameArena: {error}"),
        }
    }

    /// Starts configuring an arena: reservation, retained size, huge pages.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder()
    ///     .reserve(64 << 20)
    ///     .retain(8 << 20)
    ///     .build()
    ///     .expect("64 MiB of address space");
    /// assert_eq!(arena.stats().reserved, 64 << 20);
    /// ```
    pub fn builder() -> FrameArenaBuilder {
        FrameArenaBuilder::default()
    }

    /// An arena over memory the program already has, such as a `static`
    /// buffer: it never calls the OS or the global allocator, which is how
    /// consoles and `no_std` code budget their memory.
    ///
    /// The buffer may have any alignment (the arena aligns each allocation
    /// inside it) and any length; the arena can hand out at most its length
    /// per frame, and every byte of it stays in use by the arena for as long
    /// as the program runs. Works without the `std` feature.
    ///
    /// # Panics
    ///
    /// On a 64-bit target, if the buffer lies above `isize::MAX` (no
    /// platform places user memory there).
    ///
    /// # Example
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use tickarena::FrameArena;
    ///
    /// // Memory that lives for the whole program, as a console or embedded
    /// // build sets it aside (`Box::leak` gives the same on a heap).
    /// static mut FRAME_MEMORY: [MaybeUninit<u8>; 4096] = [MaybeUninit::uninit(); 4096];
    /// // SAFETY: the only reference ever made to FRAME_MEMORY.
    /// let buffer = unsafe { &mut *(&raw mut FRAME_MEMORY) };
    /// let mut arena = FrameArena::from_buffer(buffer);
    /// assert_eq!(arena.stats().reserved, 4096);
    /// let numbers = arena.alloc_slice_copy(&[1u32, 2, 3]);
    /// assert_eq!(numbers.iter().sum::<u32>(), 6);
    /// assert!(arena.try_alloc([0u8; 8192]).is_err()); // larger than the buffer
    /// arena.reset(); // the whole buffer serves the next frame
    /// assert_eq!(arena.used(), 0);
    /// ```
    pub fn from_buffer(buffer: &'static mut [MaybeUninit<u8>]) -> FrameArena {
        let len = buffer.len();
        match Region::over_buffer(buffer, ADDRESS_LIMIT) {
            Some(region) => FrameArena::from_region(region, Retention::new(len, 0), None),
            None => panic!(
                "tickarena: FrameArena::from_buffer needs a buffer that ends below address \
                 {ADDRESS_LIMIT:#x}"
            ),
        }
    }

    pub(crate) fn from_region(
        region: Region,
        retention: Retention,
        name: Option<&'static str>,
    ) -> FrameArena {
        let base = region.base().addr().get();
        FrameArena {
            _not_sync: PhantomData,
            top: Published::new(base),
            lowered_from: Published::new(base),
            peak_before_turn: Published::new(base),
            tagged: Cell::new(false),
            tagged_lowered_from: Published::new(0),
            end: Cell::new(base + region.committed()),
            region,
            retention,
            high_water: 0,
            frames: 0,
            windows: 0,
            last_sizes: LastSizes::default(),
            refused: Cell::new(false),
            name,
            tags: Ledger::new(base),
            budgets: Budgets::default(),
            #[cfg(feature = "serde")]
            decode: DecodeState::new(),
            ceiling: Ceiling::new(),
            #[cfg(feature = "tracy")]
            plots: Some(crate::tracy::ArenaPlots::new(name)),
            refusal_counts: RefusalCounts::default(),
        }
    }

    /// The name given with [`FrameArenaBuilder::name`].
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::FrameArena::new().name(), None);
    /// ```
    pub fn name(&self) -> Option<&'static str> {
        self.name
    }

    /// Renames the arena: its messages (a refused allocation, a budget's
    /// breach) say `name` from now on. For an owner that learns what the
    /// arena serves after building it (a system's name, known at its first
    /// run). Tracy's plots keep the name they were made with.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::new();
    /// arena.set_name("ai scratch");
    /// assert_eq!(arena.name(), Some("ai scratch"));
    /// ```
    pub fn set_name(&mut self, name: &'static str) {
        self.name = Some(name);
    }

    /// Stops plotting this arena's frames to Tracy (its owner plots them).
    #[cfg(feature = "tracy")]
    pub(crate) fn stop_plotting(&mut self) {
        self.plots = None;
    }

    /// Ends the frame: every allocation made since the last reclaim is gone,
    /// and the arena serves the next frame from the start.
    ///
    /// Taking `self` by value is what lets the compiler prove that nothing
    /// from the frame survives: every reference and collection allocated in
    /// it borrows the old arena value. See [`reset`](FrameArena::reset) for
    /// an arena kept in a field.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::new();
    /// let label = arena.alloc_str("frame 1");
    /// assert_eq!(label, "frame 1");
    /// arena = arena.reclaim();
    /// // `label` can no longer be used here: the borrow checker rejects it.
    /// assert_eq!(arena.used(), 0);
    /// ```
    #[must_use = "the reclaimed arena is the one to use for the next frame"]
    pub fn reclaim(mut self) -> FrameArena {
        self.reset();
        self
    }

    /// Ends the frame like [`reclaim`](FrameArena::reclaim), for an arena
    /// kept in a struct field.
    ///
    /// Committed pages up to the retained size stay committed, so the next
    /// frame makes no system call; pages above it go back to the OS once no
    /// frame has used them for [`release_after`](FrameArenaBuilder::release_after)
    /// frames.
    /// In debug builds the reclaimed bytes are overwritten with a poison
    /// pattern; built with `-Zsanitizer=address`, they are poisoned for
    /// AddressSanitizer instead, which then reports any read of them.
    ///
    /// # Example
    ///
    /// ```
    /// struct Game {
    ///     arena: tickarena::FrameArena,
    /// }
    /// let mut game = Game { arena: tickarena::FrameArena::new() };
    /// game.arena.alloc_slice_copy(&[1u8; 100]);
    /// assert!(game.arena.used() >= 100);
    /// game.arena.reset();
    /// assert_eq!(game.arena.used(), 0);
    /// assert!(game.arena.stats().high_water >= 100);
    /// ```
    #[inline]
    pub fn reset(&mut self) {
        if self.tagged.get() {
            self.reset_tagged();
        } else {
            // Untagged, the peak before the turn is the base: the peak is
            // the turn's high.
            let used = self.turn_high() - self.base();
            self.reset_memory(used);
        }
    }

    /// What every reset does: the top back to the base, the frame's
    /// figures (its peak, `used`) into the retention window's.
    #[inline]
    fn reset_memory(&mut self, used: usize) {
        if self.retention.frame_ended(used) {
            self.end_window();
        }
        let poisoned = used.min(self.region.committed());
        // Under AddressSanitizer the frame's bytes are poisoned instead
        // (writing the pattern over freed blocks would itself be reported).
        #[cfg(all(debug_assertions, not(tickarena_asan)))]
        // SAFETY: the first `committed` bytes of the region are writable,
        // and `&mut self` means no allocation from this frame is alive.
        unsafe {
            self.region.base().write_bytes(POISON, poisoned)
        };
        asan::poison(self.region.base().as_ptr(), poisoned);
        self.top.set(self.base());
        // The next turn begins at the base, tagged or not: the plain mark
        // (see `lowered_from`).
        self.lowered_from.set(self.base());
        self.tagged_lowered_from.set(0);
        if self.refused.get() {
            self.forget_refusal();
        }
        #[cfg(feature = "tracy")]
        if let Some(plots) = &mut self.plots {
            let high_water = self.high_water.max(self.retention.peak());
            plots.plot(used, high_water, self.region.committed());
        }
    }

    /// The reset of an arena that met a tag or has budgets: every tag
    /// starts again at 0, then (the arena fully reset, so that a
    /// panicking policy leaves it ready for the next frame) breaches are
    /// handled and each tag's plot gets its figure. Out of line: an
    /// untagged arena's reset only tests a flag.
    #[cold]
    #[inline(never)]
    fn reset_tagged(&mut self) {
        self.end_tagged_frame().panic_unless_unwinding();
    }

    /// [`reset`](Self::reset), handing back the breaches a
    /// [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic) is to panic
    /// with instead of panicking: for an owner that has more to reset and
    /// record first (a frame loop).
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn reset_deferring_panic(&mut self) -> FrameBreaches {
        if self.tagged.get() {
            self.end_tagged_frame()
        } else {
            self.reset();
            FrameBreaches::default()
        }
    }

    /// The arena's budgets are checked by its owner, on a sum of several
    /// arenas (a `ThreadArenas`): its own resets check none.
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn leave_budgets_to_owner(&mut self) {
        self.budgets.left_to_owner = true;
    }

    /// [`reset_tagged`](Self::reset_tagged) but for the panic: the
    /// breaches of the frame, for the caller to panic with.
    fn end_tagged_frame(&mut self) -> FrameBreaches {
        // The table is made only for those who read it: a budget to
        // check, Tracy's plots. A frame with tags and neither (the common
        // case: tags for the record, which the frame loop takes itself)
        // saves a copy of every slot per frame.
        // (A worker's budgets are checked by its owner, on the sum.)
        let budgets = !self.budgets.left_to_owner && self.tags.has_budgets();
        #[cfg(feature = "tracy")]
        let wanted = budgets || self.plots.is_some();
        #[cfg(not(feature = "tracy"))]
        let wanted = budgets;
        let table = wanted.then(|| self.tag_bytes());
        let peak = self.peak();
        let frame = self.frames + u64::from(self.retention.frames());
        self.tags.reset(self.base());
        self.reset_memory(peak);
        // Raised by tag switches only: an untagged arena's stays at the base.
        self.peak_before_turn.set(self.base());
        #[cfg(feature = "tracy")]
        if let (Some(plots), Some(table)) = (&mut self.plots, &table) {
            plots.plot_tags(table);
        }
        // Apart, so that a frame with no table checks its whole-frame
        // budget alone, with no iterator over an absent table to step.
        match &table {
            Some(table) => self
                .budgets
                .check(self.name, frame, table.over_budget(), peak),
            None => self
                .budgets
                .check(self.name, frame, core::iter::empty(), peak),
        }
    }

    /// The end of a retention window (`release_after` frames): its figures
    /// go into the arena's, and committed pages above what it keeps go back
    /// to the OS. Out of line: a frame arena meets it every few seconds, a
    /// scope's every 65 536 scopes.
    #[cold]
    #[inline(never)]
    fn end_window(&mut self) {
        let Window { keep, peak, frames } = self.retention.end_window();
        self.high_water = self.high_water.max(peak);
        self.frames += u64::from(frames);
        self.windows += 1;
        if self.region.committed() > keep {
            self.region.decommit(keep);
            self.end.set(self.base() + self.region.committed());
        }
    }

    /// Bytes handed out since the last reclaim, alignment padding included.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc(7u64);
    /// assert_eq!(arena.used(), 8);
    /// ```
    #[inline]
    pub fn used(&self) -> usize {
        self.top.get() - self.base()
    }

    /// The most bytes in use at once this frame: [`used`](Self::used), or
    /// more if memory at the top was given back (a `Vec` in the arena that
    /// grew and was dropped, a string shrunk to fit). What a frame really
    /// needed of the arena.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut scratch: Vec<u64, _> = Vec::with_capacity_in(100, &arena);
    /// scratch.push(1);
    /// drop(scratch); // the most recent allocation: its bytes go back at once
    /// assert_eq!(arena.used(), 0);
    /// assert_eq!(arena.peak(), 800);
    /// ```
    #[inline]
    pub fn peak(&self) -> usize {
        self.turn_high().max(self.peak_before_turn.get()) - self.base()
    }

    /// The highest the top has been since the current tag's turn began.
    #[inline]
    fn turn_high(&self) -> usize {
        self.turn_high_at(self.top.get())
    }

    /// [`turn_high`](Self::turn_high) with the top at `top`.
    #[inline]
    fn turn_high_at(&self, top: usize) -> usize {
        // One of the two marks is 0 (see `lowered_from`).
        (self.lowered_from.get())
            .max(self.tagged_lowered_from.get())
            .max(top)
    }

    /// Starts the turn's high again from `top` (a tag switch, a scope
    /// rewound with its tags, a settled turn). A tagged arena's turn then
    /// begins at `top`, above the base as a rule, so its mark goes to
    /// `tagged_lowered_from` (see `lowered_from`).
    #[inline]
    pub(crate) fn restart_turn_high(&self, top: usize) {
        if self.tagged.get() {
            self.tagged_lowered_from.set(top);
            self.lowered_from.set(0);
        } else {
            self.lowered_from.set(top);
        }
    }

    /// Marks the arena tagged (a tag met, a budget set): from now on its
    /// resets and scopes see to the tags, and `lowered_from` is 0, its
    /// value moved to `tagged_lowered_from`, until the frame ends (see
    /// `lowered_from`). Never undone.
    #[inline]
    pub(crate) fn mark_tagged(&self) {
        if !self.tagged.get() {
            self.tagged.set(true);
            self.tagged_lowered_from.set(self.lowered_from.get());
            self.lowered_from.set(0);
        }
    }

    /// Lowers the top from `top` (what the caller read of it: the top is
    /// an atomic, so the compiler does not merge a second load with the
    /// caller's) to `new_top` (the most recent allocation is freed or
    /// shrunk), remembering how high it was for [`peak`](Self::peak).
    #[inline]
    fn lower_top(&self, top: usize, new_top: usize) {
        debug_assert_eq!(top, self.top.get(), "expected the current top");
        // The plain mark: a new high. Kept in `tagged_lowered_from`:
        // always (`lowered_from` is 0).
        let mark = self.lowered_from.get();
        if top > mark {
            self.raise_lowered_from(top, new_top, mark);
        }
        self.top.set(new_top);
    }

    /// The top was `top` before it was lowered to `new_top`: the mark of
    /// the turn's high goes up to it (where it is `mark`, `lowered_from`,
    /// the caller knows it is higher). A tagged turn that began above the
    /// base (`mark` 0): a top lowered below where it began gives those
    /// bytes back to the tags that own them.
    #[inline]
    fn raise_lowered_from(&self, top: usize, new_top: usize, mark: usize) {
        if mark != 0 {
            self.lowered_from.set(top);
            return;
        }
        // Laid out apart: the plain mark's store falls through to the
        // top's, as an untagged arena's free did before tags existed.
        core::hint::cold_path();
        if top > self.tagged_lowered_from.get() {
            self.tagged_lowered_from.set(top);
        }
        if new_top < self.tags.since() {
            self.settle_turn(new_top);
        }
    }

    /// [`Ledger::settle`] for a top going down to `new_top`: the turn's
    /// high goes into the frame's peak, and the next high starts there.
    #[cold]
    #[inline(never)]
    fn settle_turn(&self, new_top: usize) {
        let high = self.turn_high();
        if high > self.peak_before_turn.get() {
            self.peak_before_turn.set(high);
        }
        self.tags.settle(high, new_top);
        self.restart_turn_high(new_top);
    }

    /// A snapshot of the arena's figures: this frame, all frames, the memory.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc([0u8; 1000]);
    /// let stats = arena.stats();
    /// assert_eq!(stats.used, 1000);
    /// assert!(stats.committed >= 1000 && stats.committed <= stats.reserved);
    /// assert_eq!(stats.frames, 0);
    /// ```
    pub fn stats(&self) -> ArenaStats {
        let used = self.used();
        ArenaStats {
            used,
            high_water: self.high_water.max(self.retention.peak()).max(self.peak()),
            committed: self.region.committed(),
            reserved: self.region.reserved(),
            frames: self.frames + u64::from(self.retention.frames()),
            over_budget: self.budgets.breaches,
        }
    }

    /// The size a buffer made at `site` (its part: 0 to 3) starts at: the
    /// most one made there needed in this retention window or the one
    /// before.
    #[inline]
    pub(crate) fn last_size(&self, site: (&'static core::panic::Location<'static>, u8)) -> usize {
        self.last_sizes.hint(site, self.windows)
    }

    /// A buffer made at `site` needed `needed` this frame.
    #[inline]
    pub(crate) fn record_size(
        &self,
        site: (&'static core::panic::Location<'static>, u8),
        needed: usize,
    ) {
        self.last_sizes.record(site, self.windows, needed);
    }

    /// Where the sizes of `site` (its part: 0 to 3) are kept, for
    /// [`last_size_at`](Self::last_size_at) and
    /// [`record_size_at`](Self::record_size_at): found once, then read and
    /// recorded without a search.
    #[inline]
    pub(crate) fn last_size_slot(
        &self,
        site: (&'static core::panic::Location<'static>, u8),
    ) -> usize {
        self.last_sizes.slot(site)
    }

    /// [`last_size`](Self::last_size) of the site at `slot`.
    #[inline]
    pub(crate) fn last_size_at(&self, slot: usize) -> usize {
        self.last_sizes.hint_at(slot, self.windows)
    }

    /// [`record_size`](Self::record_size) for the site at `slot`.
    #[inline]
    pub(crate) fn record_size_at(&self, slot: usize, needed: usize) {
        self.last_sizes.record_at(slot, self.windows, needed);
    }

    #[inline(always)]
    fn base(&self) -> usize {
        self.region.base().addr().get()
    }

    /// A pointer to `addr`, which lies inside the region, with the region's
    /// provenance.
    #[inline(always)]
    fn pointer_at(&self, addr: usize) -> NonNull<u8> {
        debug_assert!(
            addr >= self.base() && addr <= self.base() + self.region.reserved(),
            "expected address {addr:#x} inside the region at {:#x}",
            self.base()
        );
        // SAFETY: `addr` is at or above the region's base address, which is
        // not null, so it is not null either.
        unsafe { NonNull::new_unchecked(self.region.base().as_ptr().with_addr(addr)) }
    }

    /// Allocates `layout`: the hot path of every `Allocator` call.
    #[inline(always)]
    pub(crate) fn alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        self.alloc_bumped::<false, true>(layout)
    }

    /// Allocates `layout` like [`alloc_layout`](Self::alloc_layout), but
    /// leaves a refusal for the caller to count: a growth that moves its
    /// block counts what it needed past the frame, which only it knows.
    #[inline]
    pub(crate) fn alloc_layout_uncounted(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        self.alloc_bumped::<false, false>(layout)
    }

    /// Allocates the layout of a Rust type or array (size a multiple of the
    /// alignment): the hot path of the typed helpers, one instruction
    /// shorter than [`alloc_layout`](Self::alloc_layout).
    #[inline(always)]
    pub(crate) fn alloc_type_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        debug_assert!(
            layout.size().is_multiple_of(layout.align()),
            "expected a type's layout, got {layout:?}"
        );
        self.alloc_bumped::<true, true>(layout)
    }

    /// The fast path: zero sizes get a dangling pointer, the rest a bump
    /// below the committed end (with [`bump_up_whole`] when `WHOLE`, the
    /// size being a multiple of the alignment) or the cold path, which
    /// counts a refusal when `COUNTED`.
    ///
    /// A const parameter rather than a function argument: passing the bump
    /// function as a closure measured 1.7x slower in `benches/arena_alloc`.
    #[inline(always)]
    fn alloc_bumped<const WHOLE: bool, const COUNTED: bool>(
        &self,
        layout: Layout,
    ) -> Result<NonNull<u8>, AllocError> {
        if layout.size() == 0 {
            return Ok(dangling(layout));
        }
        let (top, end) = (self.top.get(), self.end.get());
        let bumped = if WHOLE {
            bump_up_whole(top, end, layout)
        } else {
            bump_up(top, end, layout)
        };
        match bumped {
            Some(Bumped { start, new_top }) => {
                self.top.set(new_top);
                Ok(self.hand_out(start, layout.size()))
            }
            None => self.alloc_layout_slow::<COUNTED>(layout),
        }
    }

    /// Allocates `layout` when the committed pages are not enough: bumps
    /// against the whole reservation and commits what that needs. A
    /// refusal is counted here when `COUNTED` (see `refusals`).
    #[cold]
    #[inline(never)]
    fn alloc_layout_slow<const COUNTED: bool>(
        &self,
        layout: Layout,
    ) -> Result<NonNull<u8>, AllocError> {
        let limit = self.base() + self.region.reserved();
        let bumped = bump_up(self.top.get(), limit, layout);
        // A decode's bound first: a request past it is the decode's to
        // refuse (a length bomb), whether or not the arena has room.
        if self.past_ceiling(bumped.map(|bumped| bumped.new_top)) {
            return Err(AllocError);
        }
        let Bumped { start, new_top } = bumped
            .ok_or(AllocError)
            .and_then(|bumped| self.commit_through(bumped.new_top).map(|()| bumped))
            .inspect_err(|_| {
                self.refused_by_arena();
                if COUNTED {
                    self.count_refusal(layout);
                }
            })?;
        self.top.set(new_top);
        Ok(self.hand_out(start, layout.size()))
    }

    /// The pointer to the `size` bytes at `start`, just allocated; under
    /// AddressSanitizer they become accessible.
    #[inline(always)]
    fn hand_out(&self, start: usize, size: usize) -> NonNull<u8> {
        let ptr = self.pointer_at(start);
        asan::unpoison(ptr.as_ptr(), size);
        ptr
    }

    /// Makes every address below `addr` writable.
    #[cold]
    #[inline(never)]
    fn commit_through(&self, addr: usize) -> Result<(), AllocError> {
        let bytes = addr.checked_sub(self.base()).ok_or(AllocError)?;
        self.region.commit(bytes).map_err(|_| AllocError)?;
        self.end
            .set(self.end_below_ceiling(self.base() + self.region.committed()));
        Ok(())
    }

    /// Whether `ptr..ptr + size` is the most recent allocation, if `top`
    /// is the arena's top.
    #[inline(always)]
    fn is_last(ptr: NonNull<u8>, size: usize, top: usize) -> bool {
        size != 0 && ptr.addr().get().wrapping_add(size) == top
    }

    /// Gives back the bytes of `ptr..ptr + old_size` past the first
    /// `keep` if it is the most recent allocation: a free (`keep` 0) or a
    /// shrink, neither of which needs a commit.
    #[inline]
    pub(crate) fn release_tail_if_last(&self, ptr: NonNull<u8>, old_size: usize, keep: usize) {
        debug_assert!(keep <= old_size, "expected a free or a shrink");
        // Freed, last or not: nothing may read it any more.
        asan::poison(ptr.as_ptr().wrapping_add(keep), old_size - keep);
        let top = self.top.get();
        if Self::is_last(ptr, old_size, top) {
            self.lower_top(top, ptr.addr().get() + keep);
        }
    }

    /// Whether the allocation at `ptr` of `old_size` bytes grows to `new`
    /// in place, if at all: it is the most recent one and `ptr` suits
    /// `new.align()`.
    #[inline]
    pub(crate) fn grows_in_place(&self, ptr: NonNull<u8>, old_size: usize, new: Layout) -> bool {
        Self::is_last(ptr, old_size, self.top.get()) && ptr.addr().get() & (new.align() - 1) == 0
    }

    /// Grows the allocation at `ptr` of `old_size` bytes to `new` without
    /// moving it, if it is the most recent one and `ptr` suits `new.align()`.
    /// Commits more pages when growing past the committed end.
    #[inline]
    pub(crate) fn grow_in_place(&self, ptr: NonNull<u8>, old_size: usize, new: Layout) -> bool {
        if !self.grows_in_place(ptr, old_size, new) {
            return false;
        }
        let start = ptr.addr().get();
        let Some(new_top) = start.checked_add(new.size()) else {
            self.past_ceiling(None);
            return false;
        };
        if new_top > self.end.get() {
            // Past the committed end, or a decode's ceiling (`end` is kept
            // at or below it).
            if self.past_ceiling(Some(new_top)) {
                return false;
            }
            if self.commit_through(new_top).is_err() {
                self.refused_by_arena();
                return false;
            }
        }
        // Up, like a bump: the peak is the new top, `lowered_from` stays.
        self.top.set(new_top);
        asan::unpoison(ptr.as_ptr(), new.size());
        true
    }

    /// Remembers that a collection was refused `layout`, for the report if
    /// it gives up (see `refusal`); `in_place_of` is the size of the block
    /// it was to grow in place (0: a fresh block).
    #[cold]
    #[inline(never)]
    pub(crate) fn remember_refusal(&self, layout: Layout, in_place_of: usize) {
        if self.refused_by_ceiling() {
            // The arena had room: nothing of its own to report.
            return;
        }
        self.refused.set(true);
        let refusal = Refusal {
            in_place_of,
            ..self.refusal(layout)
        };
        refusal::remember(self.base(), refusal);
    }

    /// The frame ends: a refusal of this arena nobody handled is no longer
    /// to be reported.
    #[cold]
    #[inline(never)]
    fn forget_refusal(&self) {
        self.refused.set(false);
        self.clear_refusal_counts();
        refusal::forget(Some(self.base()));
    }

    /// What this arena says when it cannot serve `layout` now.
    fn refusal(&self, layout: Layout) -> Refusal {
        let ArenaStats {
            used,
            committed,
            reserved,
            ..
        } = self.stats();
        Refusal {
            layout,
            used,
            in_place_of: 0,
            committed,
            reserved,
            lent: self.region.is_lent(),
            name: self.name,
        }
    }

    /// Panics with a message that says what ran out and what to configure.
    #[cold]
    #[inline(never)]
    #[track_caller]
    pub(crate) fn out_of_memory(&self, layout: Layout) -> ! {
        if self.refused_by_ceiling() {
            self.over_ceiling(layout);
        }
        panic!("{}", self.refusal(layout))
    }
}

impl Drop for FrameArena {
    fn drop(&mut self) {
        // A refusal of a dropped arena is nobody's to report.
        refusal::forget(Some(self.base()));
    }
}

impl Default for FrameArena {
    /// Same as [`FrameArena::new`].
    fn default() -> Self {
        FrameArena::new()
    }
}

impl fmt::Debug for FrameArena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameArena")
            .field("name", &self.name)
            .field("stats", &self.stats())
            .field("retain", &self.retention.retain())
            .field("release_after", &self.retention.release_after())
            .finish()
    }
}

/// The pointer every zero-sized allocation gets: aligned, never dereferenced
/// for more than zero bytes, outside the region.
#[inline(always)]
fn dangling(layout: Layout) -> NonNull<u8> {
    NonNull::without_provenance(layout.align().try_into().expect("alignments are non-zero"))
}
