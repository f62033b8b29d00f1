//! [`Tag`]s: which part of a frame used how many of its bytes, charged per
//! tag *switch* and never per allocation.
//!
//! A bump arena knows where its top is. The bytes a tag used are the
//! distance the top moved while that tag was current, so a switch adds
//! `top - since` to the tag going out and remembers the top; the
//! allocation path does not know tags exist. A free that takes the top
//! below where the current tag's turn began gives those bytes back to the
//! tags that own them (see `Ledger`), off the untagged free path. The
//! figures live in a small table of [`MAX_TAGS`] slots inside the arena (no
//! heap), which keeps its tags from frame to frame so that their order is
//! stable (a report's columns) and a switch finds its slot in a few
//! compares; the owners of the bytes below the current turn in a stack of
//! runs (`runs`), the first 32 inside the arena too.

use core::cell::Cell;
use core::fmt;
use core::hash::{Hash, Hasher};

use super::FrameArena;

mod runs;
use runs::Runs;

/// Tags one arena can tell apart in a frame, [`Tag::UNTAGGED`] included.
/// The bytes of tags past these are charged to the tag current when they
/// were switched to (the guard still restores it).
///
/// # Example
///
/// ```
/// let arena = tickarena::FrameArena::new();
/// const NAMES: [&str; 20] = [
///     "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
///     "k", "l", "m", "n", "o", "p", "q", "r", "s", "t",
/// ];
/// for name in NAMES {
///     let _tag = arena.tag(tickarena::Tag::new(name));
///     arena.alloc(0u8);
/// }
/// assert_eq!(arena.bytes_by_tag().count(), tickarena::MAX_TAGS);
/// assert_eq!(arena.bytes_by_tag().map(|(_, bytes)| bytes).sum::<usize>(), 20);
/// ```
pub const MAX_TAGS: usize = 16;

/// A named part of a frame's work ("ai", "physics", "ui") that its arena
/// bytes are charged to: made in a `const`, switched to with
/// [`FrameArena::tag`].
///
/// Two tags are equal when their names are.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, Tag};
///
/// const AI: Tag = Tag::new("ai");
/// let arena = FrameArena::new();
/// {
///     let _ai = arena.tag(AI);
///     arena.alloc([0u8; 100]);
/// }
/// arena.alloc([0u8; 28]);
/// let bytes: Vec<(Tag, usize)> = arena.bytes_by_tag().collect();
/// assert_eq!(bytes, [(Tag::UNTAGGED, 28), (AI, 100)]);
/// assert_eq!(AI.name(), "ai");
/// ```
#[derive(Clone, Copy)]
pub struct Tag {
    name: &'static str,
}

impl Tag {
    /// Bytes allocated while no tag was current.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc(1u64);
    /// assert!(arena.bytes_by_tag().eq([(tickarena::Tag::UNTAGGED, 8)]));
    /// ```
    pub const UNTAGGED: Tag = Tag::new("untagged");

    /// The whole frame: the tag of a [`Breach`](crate::Breach) of the
    /// arena's [frame budget](crate::FrameArenaBuilder::frame_budget), all
    /// tags together.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::Tag::WHOLE_FRAME.name(), "whole frame");
    /// ```
    pub const WHOLE_FRAME: Tag = Tag::new("whole frame");

    /// A tag named `name`.
    ///
    /// # Example
    ///
    /// ```
    /// const PHYSICS: tickarena::Tag = tickarena::Tag::new("physics");
    /// assert_eq!(PHYSICS, tickarena::Tag::new("physics"));
    /// ```
    pub const fn new(name: &'static str) -> Tag {
        Tag { name }
    }

    /// The tag's name.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::Tag::UNTAGGED.name(), "untagged");
    /// ```
    pub const fn name(self) -> &'static str {
        self.name
    }
}

impl PartialEq for Tag {
    #[inline]
    fn eq(&self, other: &Tag) -> bool {
        // The same `const` gives the same pointer: one compare, usually.
        self.is_same_name(*other) || self.name == other.name
    }
}

impl Eq for Tag {}

impl Tag {
    /// The same name at the same address: equal without reading it.
    #[inline]
    fn is_same_name(self, other: Tag) -> bool {
        core::ptr::eq(self.name, other.name)
    }
}

/// The slot of `tag` among `held` by name: a tag made from its own
/// literal, whose name is not at the address of the one met first.
#[cold]
#[inline(never)]
fn find_by_name(held: &[Cell<Tag>], tag: Tag) -> Option<usize> {
    held.iter().position(|held| held.get() == tag)
}

impl Hash for Tag {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl Default for Tag {
    /// [`Tag::UNTAGGED`].
    fn default() -> Tag {
        Tag::UNTAGGED
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag({:?})", self.name)
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Charges the arena's bytes to a tag until it drops, then to the tag
/// current before it; from [`FrameArena::tag`]. Tags nest.
///
/// It borrows the arena, so it cannot outlive the frame: the arena cannot
/// be reclaimed while a guard is alive.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, Tag};
///
/// const UI: Tag = Tag::new("ui");
/// const TEXT: Tag = Tag::new("text");
/// let arena = FrameArena::new();
/// let ui = arena.tag(UI);
/// arena.alloc(0u32);
/// {
///     let _text = arena.tag(TEXT); // nested: back to UI when it drops
///     arena.alloc_str("hello");
/// }
/// arena.alloc(0u32);
/// drop(ui);
/// let bytes: Vec<_> = arena.bytes_by_tag().collect();
/// // UI: two `u32`s and the 3 bytes of padding the second needed after "hello".
/// assert_eq!(bytes, [(Tag::UNTAGGED, 0), (UI, 11), (TEXT, 5)]);
/// ```
#[must_use = "the tag is current only while its guard lives"]
pub struct TagGuard<'a> {
    arena: &'a FrameArena,
    previous: u8,
}

impl Drop for TagGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        self.arena.switch_tag(self.previous);
    }
}

impl fmt::Debug for TagGuard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TagGuard")
            .field("restores", &self.arena.tags.tag_at(self.previous))
            .finish()
    }
}

/// One frame's bytes per tag (and each tag's budget, where it has one): a
/// fixed table, `Copy`, made without the heap. From
/// [`FrameArena::tag_bytes`], in each
/// [`FrameRecord`](crate::frame_loop::FrameRecord), and summed over worker
/// threads by [`ThreadArenas`](crate::ThreadArenas).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, Tag};
///
/// const AI: Tag = Tag::new("ai");
/// let arena = FrameArena::builder().budget(AI, 64).build().unwrap();
/// let _ai = arena.tag(AI);
/// arena.alloc([0u8; 100]);
/// let bytes = arena.tag_bytes();
/// assert_eq!(bytes.get(AI), 100);
/// assert_eq!(bytes.budget(AI), Some(64));
/// assert_eq!(bytes.total(), 100);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TagBytes {
    entries: [TagEntry; MAX_TAGS],
    len: u8,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct TagEntry {
    tag: Tag,
    bytes: usize,
    peak: usize,
    budget: Option<usize>,
    /// Over its budget, as the budget's holder checked it (one arena, a
    /// `ThreadArenas`' sum): what its policy counted.
    over: bool,
}

impl TagEntry {
    /// `tag`'s entry with the ledger's figures (never below 0) and
    /// `budget`, over it if its peak is.
    #[inline]
    fn new(tag: Tag, figures: [isize; 2], budget: Option<usize>) -> TagEntry {
        let [bytes, peak] = figures.map(|figure| usize::try_from(figure).unwrap_or(0));
        TagEntry {
            tag,
            bytes,
            peak,
            budget,
            over: budget.is_some_and(|budget| peak > budget),
        }
    }
}

impl Default for TagBytes {
    fn default() -> TagBytes {
        TagBytes {
            entries: [TagEntry::default(); MAX_TAGS],
            len: 0,
        }
    }
}

impl TagBytes {
    /// Each tag and its bytes, in the order the arena first met them.
    ///
    /// # Example
    ///
    /// ```
    /// let bytes = tickarena::TagBytes::default();
    /// assert_eq!(bytes.iter().count(), 0);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Tag, usize)> + '_ {
        self.entries[..usize::from(self.len)]
            .iter()
            .map(|entry| (entry.tag, entry.bytes))
    }

    /// The bytes `tag` holds (0 if it has none), as
    /// [`FrameArena::bytes_by_tag`] has them.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::TagBytes::default().get(tickarena::Tag::UNTAGGED), 0);
    /// ```
    pub fn get(&self, tag: Tag) -> usize {
        self.entry(tag).map_or(0, |entry| entry.bytes)
    }

    /// The most bytes `tag` held at once (0 if it has none): its
    /// temporaries included, such as a scratch `Vec` it dropped before
    /// the frame ended. What sizing and budgets go by.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let arena = FrameArena::new();
    /// {
    ///     let _ai = arena.tag(AI);
    ///     drop(Vec::<u8, _>::with_capacity_in(1000, &arena));
    ///     arena.alloc(0u64);
    /// }
    /// let bytes = arena.tag_bytes();
    /// assert_eq!((bytes.get(AI), bytes.peak(AI)), (8, 1000));
    /// ```
    pub fn peak(&self, tag: Tag) -> usize {
        self.entry(tag).map_or(0, |entry| entry.peak)
    }

    /// Each tag and its [`peak`](Self::peak), in the order of
    /// [`iter`](Self::iter).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc(0u32);
    /// assert!(arena.tag_bytes().peaks().eq([(tickarena::Tag::UNTAGGED, 4)]));
    /// ```
    pub fn peaks(&self) -> impl ExactSizeIterator<Item = (Tag, usize)> + '_ {
        self.entries[..usize::from(self.len)]
            .iter()
            .map(|entry| (entry.tag, entry.peak))
    }

    /// `tag`'s budget, if it has one.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::TagBytes::default().budget(tickarena::Tag::UNTAGGED), None);
    /// ```
    pub fn budget(&self, tag: Tag) -> Option<usize> {
        self.entry(tag).and_then(|entry| entry.budget)
    }

    /// The tags whose [`peak`](Self::peak) is over their budgets: `(tag,
    /// peak, budget)`. Exactly the breaches the budgets' policies counted
    /// for the frame: an arena's table compares each tag's peak with its
    /// budget; a [`ThreadArenas`](crate::ThreadArenas)' table the peaks
    /// summed over its threads (its budget is on the sum); a sum of
    /// tables from several budget holders made with [`add`](Self::add),
    /// such as a [`FrameRecord`](crate::frame_loop::FrameRecord)'s, the
    /// tags any of them found over.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let arena = FrameArena::new();
    /// arena.set_budget(AI, 10);
    /// let _ai = arena.tag(AI);
    /// arena.alloc([0u8; 11]);
    /// assert!(arena.tag_bytes().over_budget().eq([(AI, 11, 10)]));
    /// ```
    pub fn over_budget(&self) -> impl Iterator<Item = (Tag, usize, usize)> + '_ {
        self.entries[..usize::from(self.len)]
            .iter()
            .filter_map(|entry| match entry.budget {
                Some(budget) if entry.over => Some((entry.tag, entry.peak, budget)),
                _ => None,
            })
    }

    /// Each tag over its budget from now on is the one whose peak, as this
    /// table has it, is more than its budget: a `ThreadArenas` judges its
    /// sum so.
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn judge(&mut self) {
        for entry in &mut self.entries[..usize::from(self.len)] {
            entry.over = entry.budget.is_some_and(|budget| entry.peak > budget);
        }
    }

    /// The sum of every tag's bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc(0u16);
    /// assert_eq!(arena.tag_bytes().total(), arena.used());
    /// ```
    pub fn total(&self) -> usize {
        self.iter().map(|(_, bytes)| bytes).sum()
    }

    /// Adds `other`'s bytes to this table's, tag by tag: a sum of two
    /// budget holders' tables (a frame loop's arena and its workers). A
    /// budget is kept where either has one (`other`'s where only it found
    /// the tag over), and a tag is [over](Self::over_budget) where either
    /// found it so: each was checked against its own holder's budget. A
    /// tag that does not fit goes to the last slot's tag.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let (main, worker) = (FrameArena::new(), FrameArena::new());
    /// main.alloc(0u32);
    /// let _ai = worker.tag(AI);
    /// worker.alloc(0u64);
    /// let mut sum = main.tag_bytes();
    /// sum.add(&worker.tag_bytes());
    /// assert_eq!((sum.get(Tag::UNTAGGED), sum.get(AI)), (4, 8));
    /// ```
    pub fn add(&mut self, other: &TagBytes) {
        for entry in &other.entries[..usize::from(other.len)] {
            let slot = self.slot_for(entry.tag);
            let mine = &mut self.entries[slot];
            mine.bytes += entry.bytes;
            mine.peak += entry.peak;
            mine.budget = if entry.over && !mine.over {
                entry.budget
            } else {
                mine.budget.or(entry.budget)
            };
            mine.over |= entry.over;
        }
    }

    /// Charges `bytes` to `tag`, held to the frame's end (its peak grows
    /// with them): the upload arena's bytes, never freed inside a frame.
    #[cfg(feature = "wgpu")]
    pub(crate) fn charge(&mut self, tag: Tag, bytes: usize) {
        let slot = self.slot_for(tag);
        let entry = &mut self.entries[slot];
        entry.bytes += bytes;
        entry.peak += bytes;
    }

    /// Sets `tag`'s budget in this table (the upload arena's budgets). A
    /// tag the full table does not hold is ignored, as the CPU arena's
    /// `set_budget` ignores it: its last slot, where such tags' bytes go,
    /// keeps the budget of its own tag.
    #[cfg(feature = "wgpu")]
    pub(crate) fn set_budget_of(&mut self, tag: Tag, budget: Option<usize>) {
        let len = usize::from(self.len);
        let held = self.entries[..len].iter().any(|entry| entry.tag == tag);
        if held || len < MAX_TAGS {
            let slot = self.slot_for(tag);
            self.entries[slot].budget = budget;
        }
    }

    fn entry(&self, tag: Tag) -> Option<&TagEntry> {
        self.entries[..usize::from(self.len)]
            .iter()
            .find(|entry| entry.tag == tag)
    }

    fn slot_for(&mut self, tag: Tag) -> usize {
        let len = usize::from(self.len);
        if let Some(slot) = self.entries[..len].iter().position(|e| e.tag == tag) {
            return slot;
        }
        if len == MAX_TAGS {
            return MAX_TAGS - 1;
        }
        self.entries[len] = TagEntry {
            tag,
            ..TagEntry::default()
        };
        self.len += 1;
        len
    }
}

impl fmt::Debug for TagBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(tag, bytes)| (tag.name, bytes)))
            .finish()
    }
}

/// The arena's own table: each slot's tag, bytes this frame and budget,
/// which slot is current and where the top was when it became so.
/// Plain `Cell`s: only the arena's thread touches them.
///
/// A byte belongs to the tag that was current when the top moved up over
/// it, until the top moves down over it again. A turn's bytes are charged
/// at the switch that ends it; a free or shrink that takes the top below
/// where the turn began gives the bytes under it back to their owners at
/// once (see [`settle`](Self::settle)), from the stack of runs of one
/// owner below the turn ([`Runs`], every one kept). So a slot's bytes
/// are exactly what it owns: never below 0, they sum to the bytes used,
/// and a turn that frees another tag's bytes and then allocates has its
/// peak from what it really holds.
pub(crate) struct Ledger {
    tags: [Cell<Tag>; MAX_TAGS],
    /// The bytes each slot owns, but for the current turn's (from `since`
    /// to the top, charged when the turn ends).
    bytes: [Cell<isize>; MAX_TAGS],
    /// The most bytes each slot held at once this frame (its bytes before
    /// a turn plus the turn's high above where the turn began).
    peaks: [Cell<isize>; MAX_TAGS],
    budgets: [Cell<Option<usize>>; MAX_TAGS],
    /// Whether any slot has a budget: asked at every tagged frame's end.
    any_budget: Cell<bool>,
    len: Cell<u8>,
    current: Cell<u8>,
    /// The slot after the one [`find`](Self::find) found last, looked at
    /// first: systems switch to their tags in the same order every frame,
    /// the order their slots were given in, so the next tag is usually
    /// there.
    next_guess: Cell<u8>,
    since: Cell<usize>,
    /// The owners of the bytes below `since`: the newest run ends at
    /// `since`, the oldest starts at the arena's base.
    runs: Runs,
}

impl Ledger {
    pub(crate) fn new(base: usize) -> Ledger {
        Ledger {
            tags: core::array::from_fn(|_| Cell::new(Tag::UNTAGGED)),
            bytes: core::array::from_fn(|_| Cell::new(0)),
            peaks: core::array::from_fn(|_| Cell::new(0)),
            budgets: core::array::from_fn(|_| Cell::new(None)),
            any_budget: Cell::new(false),
            len: Cell::new(1),
            current: Cell::new(0),
            next_guess: Cell::new(1),
            since: Cell::new(base),
            runs: Runs::new(base),
        }
    }

    fn tag_at(&self, slot: u8) -> Tag {
        self.tags[usize::from(slot)].get()
    }

    /// The slot of `tag`, given one if it has none (the current slot if
    /// the table is full).
    #[inline]
    fn slot_of(&self, tag: Tag) -> u8 {
        // The guess (see `next_guess`) in line, returned as it is: the
        // search, and the `Option`s it passes on, out of line.
        let guess = self.next_guess.get();
        if guess < self.len.get() && self.tag_at(guess).is_same_name(tag) {
            self.next_guess.set(guess + 1);
            return guess;
        }
        self.slot_searched(tag)
    }

    /// [`slot_of`](Self::slot_of) past a wrong guess.
    #[inline(never)]
    fn slot_searched(&self, tag: Tag) -> u8 {
        self.find(tag)
            .or_else(|| self.add_slot(tag))
            .unwrap_or(self.current.get())
    }

    /// The slot `tag` already has, searched (the guess is `slot_of`'s), and
    /// the slot after it guessed next.
    #[inline]
    fn find(&self, tag: Tag) -> Option<u8> {
        let held = &self.tags[..usize::from(self.len.get())];
        // One pass comparing pointers only (the same `const` gives the
        // same name: a few instructions a slot, where comparing names
        // calls `memcmp` for every name of the same length), the names
        // only when none matched. (`slot_of` tried the guess already.)
        let slot = held
            .iter()
            .position(|held| held.get().is_same_name(tag))
            .or_else(|| find_by_name(held, tag))?;
        // At most `MAX_TAGS` slots.
        let slot = slot as u8;
        self.next_guess.set(slot + 1);
        Some(slot)
    }

    /// A new slot for `tag`; `None` when the table is full.
    #[cold]
    fn add_slot(&self, tag: Tag) -> Option<u8> {
        let len = self.len.get();
        if usize::from(len) == MAX_TAGS {
            return None;
        }
        self.tags[usize::from(len)].set(tag);
        self.len.set(len + 1);
        Some(len)
    }

    /// Ends the current slot's turn (the top is at `top`, and was at most
    /// `high` during the turn): its net and peak take the turn's figures,
    /// and `to` is current; returns the slot that was.
    #[inline]
    pub(crate) fn switch(&self, top: usize, high: usize, to: u8) -> u8 {
        let from = self.current.replace(to);
        let since = self.since.replace(top);
        let [bytes, peak] = self.figures_with_turn(from, since, top, high);
        self.bytes[usize::from(from)].set(bytes);
        self.peaks[usize::from(from)].set(peak);
        if top > since {
            self.runs.push(from, top);
        }
        from
    }

    /// Makes slot `to` current after a turn in which the top did not move
    /// (nothing to charge: see `FrameArena::switch_tag`); returns the slot
    /// that was.
    #[inline]
    pub(crate) fn make_current(&self, to: u8) -> u8 {
        self.current.replace(to)
    }

    /// Where the current turn began: a top lowered below it gives other
    /// turns' bytes back ([`settle`](Self::settle)).
    #[inline]
    pub(crate) fn since(&self) -> usize {
        self.since.get()
    }

    /// The top goes down to `new_top`, below where the current turn began
    /// (it was at most `high` in the turn): the turn's peak takes its high,
    /// the bytes between go back to their owners, and the turn starts
    /// again at `new_top`.
    #[cold]
    #[inline(never)]
    pub(crate) fn settle(&self, high: usize, new_top: usize) {
        let (current, since) = (self.current.get(), self.since.get());
        let [_, peak] = self.figures_with_turn(current, since, since, high);
        self.peaks[usize::from(current)].set(peak);
        self.give_back(since, new_top);
        self.since.set(new_top);
    }

    /// The runs' bytes from `at` down to `to` go back to their owners.
    fn give_back(&self, at: usize, to: usize) {
        let stopped = self.runs.give_back(at, to, |slot, bytes| {
            let held = &self.bytes[usize::from(slot)];
            held.set(held.get() - bytes as isize);
        });
        debug_assert_eq!(stopped, to, "the runs cover every byte below the turn");
    }

    /// Slot `slot`'s net and peak with a turn from `since` to `top` (at
    /// most `high`) added.
    #[inline]
    fn figures_with_turn(&self, slot: u8, since: usize, top: usize, high: usize) -> [isize; 2] {
        let before = self.bytes[usize::from(slot)].get();
        let bytes = before.wrapping_add(top.wrapping_sub(since) as isize);
        let turn_peak = before.wrapping_add(high.wrapping_sub(since) as isize);
        let peak = self.peaks[usize::from(slot)].get().max(turn_peak);
        [bytes, peak]
    }

    /// Slot `slot`'s net bytes and peak so far (the top at `top`, at most
    /// `high` in the current turn), never below 0.
    fn figures_at(&self, slot: u8, top: usize, high: usize) -> [usize; 2] {
        let [bytes, peak] = if slot == self.current.get() {
            self.figures_with_turn(slot, self.since.get(), top, high)
        } else {
            [
                self.bytes[usize::from(slot)].get(),
                self.peaks[usize::from(slot)].get(),
            ]
        };
        [bytes, peak].map(|figure| usize::try_from(figure).unwrap_or(0))
    }

    /// Sets `tag`'s budget; a tag the full table has no slot for keeps
    /// none.
    pub(crate) fn set_budget(&self, tag: Tag, budget: Option<usize>) {
        if let Some(slot) = self.find(tag).or_else(|| self.add_slot(tag)) {
            self.budgets[usize::from(slot)].set(budget);
        }
        let any = self.budgets.iter().any(|budget| budget.get().is_some());
        self.any_budget.set(any);
    }

    /// Whether any slot has a budget.
    #[inline]
    pub(crate) fn has_budgets(&self) -> bool {
        self.any_budget.get()
    }

    pub(crate) fn snapshot(&self, top: usize, high: usize) -> TagBytes {
        let mut table = TagBytes {
            len: self.len.get(),
            ..TagBytes::default()
        };
        // The current slot's figures with its turn, computed once: each
        // slot then picks its figures with no branch (the frame loop
        // records a table every frame).
        // Budgets are read only where a slot has one.
        let current = self.current.get();
        let turn = self.figures_with_turn(current, self.since.get(), top, high);
        let any_budget = self.any_budget.get();
        for slot in 0..usize::from(self.len.get()).min(MAX_TAGS) {
            let stored = [self.bytes[slot].get(), self.peaks[slot].get()];
            let figures = if slot == usize::from(current) {
                turn
            } else {
                stored
            };
            let budget = if any_budget {
                self.budgets[slot].get()
            } else {
                None
            };
            table.entries[slot] = TagEntry::new(self.tags[slot].get(), figures, budget);
        }
        table
    }

    /// The current slot.
    #[inline]
    pub(crate) fn current(&self) -> u8 {
        self.current.get()
    }

    /// Each slot's net bytes and where the current turn began: what a
    /// scope on the arena puts back when it ends.
    pub(crate) fn nets(&self) -> ([isize; MAX_TAGS], usize) {
        (self.bytes.each_ref().map(Cell::get), self.since.get())
    }

    /// Puts back the nets and the turn's start that [`nets`](Self::nets)
    /// gave (the top back at `since`); slots made since get 0. The peaks
    /// stay.
    pub(crate) fn restore_nets(&self, (nets, since): ([isize; MAX_TAGS], usize)) {
        for (slot, net) in self.bytes.iter().zip(nets) {
            slot.set(net);
        }
        self.since.set(since);
        self.runs.cut(since);
    }

    /// The frame ended: every slot starts again at 0 from `base`. The tags
    /// and budgets stay.
    pub(crate) fn reset(&self, base: usize) {
        // Every slot, not the `len` in use: a fixed size is cleared in
        // line (the slots past `len` are 0 already), a length by `memset`.
        self.bytes.iter().for_each(|bytes| bytes.set(0));
        self.peaks.iter().for_each(|peak| peak.set(0));
        self.since.set(base);
        self.runs.clear();
    }
}

impl FrameArena {
    /// Charges this arena's allocations to `tag` until the guard drops,
    /// then to the tag current before it. Tags nest.
    ///
    /// A switch costs a few instructions (the top's move is added to the tag
    /// going out); an allocation costs nothing more, so tags can stay on in
    /// shipping builds. An arena tells [`MAX_TAGS`] tags apart (the
    /// built-in [`Tag::UNTAGGED`] included); past that, a new tag's bytes
    /// go to the tag around it.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    ///
    /// const PATHS: Tag = Tag::new("paths");
    /// let arena = FrameArena::new();
    /// let paths = {
    ///     let _paths = arena.tag(PATHS);
    ///     let mut path = Vec::new_in(&arena);
    ///     path.extend([(0, 0), (1, 0), (1, 1)]);
    ///     path
    /// };
    /// assert_eq!(paths.len(), 3);
    /// assert_eq!(arena.tag_bytes().get(PATHS), arena.used());
    /// drop(paths); // after its guard: the bytes go back to PATHS all the same
    /// assert_eq!(arena.tag_bytes().get(PATHS), 0);
    /// assert_eq!(arena.bytes_by_tag().map(|(_, bytes)| bytes).sum::<usize>(), arena.used());
    /// ```
    #[inline]
    pub fn tag(&self, tag: Tag) -> TagGuard<'_> {
        self.mark_tagged();
        let slot = self.tags.slot_of(tag);
        let previous = self.switch_tag(slot);
        TagGuard {
            arena: self,
            previous,
        }
    }

    /// This frame's bytes per tag so far, in the order the arena first met
    /// the tags ([`Tag::UNTAGGED`] first). They sum to
    /// [`used`](Self::used): alignment padding is charged to the tag whose
    /// allocation needed it.
    ///
    /// A byte is charged to the tag current when the top moved up over it
    /// (an allocation, or a collection growing in place at the top,
    /// whichever tag's it is), and given back to that same tag when the
    /// top moves down over it (the newest allocation freed or shrunk),
    /// whichever tag is current then: a `Vec` built under a tag and
    /// dropped after its guard leaves 0 with that tag. Memory a tag gave
    /// back is not counted here, but is in its
    /// [`peak`](TagBytes::peak) ([`tag_bytes`](Self::tag_bytes)), what
    /// budgets and the sizing report go by.
    ///
    /// For that the arena keeps the owner of each run of bytes one tag
    /// allocated in a row (not of each allocation), every run live, so the
    /// figures are exact however far back the frees reach. The first 32
    /// runs live at once are kept inside the arena; a frame with more
    /// keeps the rest on the heap (16 bytes a run), in a buffer that keeps
    /// its capacity for the arena's life: only a frame with more runs
    /// live at once than any before it allocates, at a tag switch, never
    /// at an allocation.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    ///
    /// const AI: Tag = Tag::new("ai");
    /// let arena = FrameArena::new();
    /// arena.alloc(1u8);
    /// let _ai = arena.tag(AI);
    /// arena.alloc(1u64); // 7 bytes of padding, then 8
    /// let total: usize = arena.bytes_by_tag().map(|(_, bytes)| bytes).sum();
    /// assert_eq!(total, arena.used());
    /// assert!(arena.bytes_by_tag().eq([(Tag::UNTAGGED, 1), (AI, 15)]));
    /// ```
    pub fn bytes_by_tag(&self) -> impl Iterator<Item = (Tag, usize)> + '_ {
        let (top, high) = (self.top.get(), self.turn_high());
        (0..self.tags.len.get()).map(move |slot| {
            (
                self.tags.tag_at(slot),
                self.tags.figures_at(slot, top, high)[0],
            )
        })
    }

    /// [`bytes_by_tag`](Self::bytes_by_tag) as a table, with each tag's
    /// budget: what a frame's record keeps.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// arena.alloc(0u32);
    /// assert_eq!(arena.tag_bytes().get(tickarena::Tag::UNTAGGED), 4);
    /// ```
    pub fn tag_bytes(&self) -> TagBytes {
        self.tags.snapshot(self.top.get(), self.turn_high())
    }

    /// Ends the current tag's turn and makes slot `to` current; returns
    /// the slot that was. The turn's high is folded into the frame's peak
    /// and the next turn's high starts from the top.
    // Always inlined: with the empty turn's early return it grew past
    // what LLVM inlines, and the call cost more than the return saves.
    #[inline(always)]
    pub(crate) fn switch_tag(&self, to: u8) -> u8 {
        // `turn_high` with the top read once (it is an atomic: a second
        // read is a second load).
        let top = self.top.get();
        let high = self.turn_high_at(top);
        // The top never rose above where the turn began (it cannot be
        // below it): an empty turn, such as the untagged one between two
        // systems' guards, has nothing to charge, and the frame's peak and
        // the turn's start already hold its high.
        if high == self.tags.since() {
            return self.tags.make_current(to);
        }
        self.peak_before_turn
            .set(high.max(self.peak_before_turn.get()));
        // The next turn begins at the top, above the base as a rule: its
        // mark is kept where every free comes to the ledger.
        self.tagged_lowered_from.set(top);
        self.lowered_from.set(0);
        self.tags.switch(top, high, to)
    }

    /// Sets `tag`'s budget: the bytes it may hold at once per frame (its
    /// [`peak`](TagBytes::peak)). A frame in which the tag went over it is
    /// a [breach](crate::Breach), reported at the frame's end by
    /// the arena's [`BudgetPolicy`](crate::BudgetPolicy). A budget never
    /// refuses an allocation (the reservation does that): it tells.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    ///
    /// const AI: Tag = Tag::new("ai");
    /// let mut arena = FrameArena::builder()
    ///     .budget_policy(tickarena::BudgetPolicy::Count)
    ///     .build()
    ///     .unwrap();
    /// arena.set_budget(AI, 64);
    /// {
    ///     let _ai = arena.tag(AI);
    ///     arena.alloc([0u8; 100]);
    /// }
    /// arena.reset();
    /// assert_eq!(arena.stats().over_budget, 1);
    /// ```
    pub fn set_budget(&self, tag: Tag, bytes: usize) {
        self.mark_tagged();
        self.tags.set_budget(tag, Some(bytes));
    }

    /// Removes `tag`'s budget.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let arena = FrameArena::new();
    /// arena.set_budget(AI, 64);
    /// arena.clear_budget(AI);
    /// assert_eq!(arena.tag_bytes().budget(AI), None);
    /// ```
    pub fn clear_budget(&self, tag: Tag) {
        self.mark_tagged();
        self.tags.set_budget(tag, None);
    }

    /// Sets the budget of the whole frame, all tags together: a frame whose
    /// [`peak`](Self::peak) goes over it is a breach of
    /// [`Tag::WHOLE_FRAME`]. `None` removes it. For an arena that serves
    /// one system or one kind of data, where tags would say nothing more.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{BudgetPolicy, FrameArena};
    ///
    /// let mut arena = FrameArena::builder().budget_policy(BudgetPolicy::Count).build().unwrap();
    /// arena.set_frame_budget(Some(1024));
    /// drop(Vec::<u8, _>::with_capacity_in(4096, &arena)); // given back, but the peak counts
    /// arena.reset();
    /// assert_eq!(arena.stats().over_budget, 1);
    /// ```
    pub fn set_frame_budget(&mut self, bytes: Option<usize>) {
        self.budgets.frame_budget = bytes;
        self.mark_tagged();
    }

    /// The budget of the whole frame, if it has one.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().frame_budget(1 << 20).build().unwrap();
    /// assert_eq!(arena.frame_budget(), Some(1 << 20));
    /// ```
    pub fn frame_budget(&self) -> Option<usize> {
        self.budgets.frame_budget
    }
}
