//! The owners of a tagged arena's bytes below the current tag's turn: a
//! stack of runs, each the bytes one slot allocated in a row.
//!
//! The top only moves at its end, so the runs under it form a stack: a
//! turn that ends above the newest run pushes one (or grows it, the same
//! slot's), and a top lowered below a run's end pops it or cuts it short.
//! Every run is kept, so a byte given back always goes to its owner. The
//! first [`INLINE`] live at once live in the arena itself; a frame with
//! more keeps the rest in a `Vec` that keeps its capacity from frame to
//! frame: only a frame with more runs live at once than any before it
//! allocates, at the tag switch that pushes the run, never at an
//! allocation.

use alloc::vec::Vec;
use core::cell::Cell;

/// Runs the arena keeps without the heap.
const INLINE: usize = 32;

/// A run: where it ends (it starts where the one below it ends), and the
/// slot that owns its bytes.
#[derive(Clone, Copy)]
struct Run {
    end: usize,
    slot: u8,
}

/// The runs below the current turn, oldest first: the first [`INLINE`] in
/// the arrays, the rest in `spilled`. Plain `Cell`s: only the arena's
/// thread touches them.
pub(crate) struct Runs {
    ends: [Cell<usize>; INLINE],
    slots: [Cell<u8>; INLINE],
    /// How many runs there are, the spilled ones included.
    len: Cell<usize>,
    /// The runs past the first [`INLINE`]: `len - INLINE` of them, none
    /// while `len <= INLINE`. Taken out of its `Cell` to be read and put
    /// back, its capacity kept.
    spilled: Cell<Vec<Run>>,
    /// Where the oldest run starts: the arena's base.
    floor: usize,
}

impl Runs {
    pub(crate) fn new(base: usize) -> Runs {
        Runs {
            ends: core::array::from_fn(|_| Cell::new(base)),
            slots: core::array::from_fn(|_| Cell::new(0)),
            len: Cell::new(0),
            spilled: Cell::new(Vec::new()),
            floor: base,
        }
    }

    /// `slot` owns the bytes up to `end` above the newest run: the run
    /// grows when it is the same slot's, else a new one is pushed.
    #[inline]
    pub(crate) fn push(&self, slot: u8, end: usize) {
        let len = self.len.get();
        // The newest run's index, if it is kept inline (`len` 1 to
        // `INLINE`): one test where the run is looked at, none before.
        let newest = len.wrapping_sub(1);
        if newest < INLINE && self.slots[newest].get() == slot {
            self.ends[newest].set(end);
        } else if len < INLINE {
            self.ends[len].set(end);
            self.slots[len].set(slot);
            self.len.set(len + 1);
        } else {
            self.push_spilled(slot, end);
        }
    }

    /// [`push`](Self::push) past the runs kept inline: the only place the
    /// ledger may allocate (a frame with more runs live than any before).
    #[cold]
    #[inline(never)]
    fn push_spilled(&self, slot: u8, end: usize) {
        let mut spilled = self.spilled.take();
        match spilled.last_mut() {
            Some(newest) if newest.slot == slot => newest.end = end,
            _ => {
                spilled.push(Run { end, slot });
                self.len.set(self.len.get() + 1);
            }
        }
        self.spilled.set(spilled);
    }

    /// The top goes down from `at` (where the newest run ends) to `to`:
    /// each run's bytes above `to` go back to its slot through `give`
    /// (the slot, the bytes), newest first. Returns where it stopped:
    /// `to`, unless the runs run out first (they cover every byte from
    /// the base to `at`, so only a bug stops it sooner).
    pub(crate) fn give_back(
        &self,
        mut at: usize,
        to: usize,
        mut give: impl FnMut(u8, usize),
    ) -> usize {
        self.edit(|runs, len| {
            while at > to && *len > 0 {
                let newest = runs.get(*len - 1);
                debug_assert_eq!(newest.end, at, "the newest run ends where the top was");
                let start = runs.start(*len - 1);
                let down_to = start.max(to);
                give(newest.slot, at - down_to);
                if down_to == start {
                    *len -= 1;
                } else {
                    runs.set_end(*len - 1, down_to);
                }
                at = down_to;
            }
        });
        at
    }

    /// A scope rewound the top to `top`: the runs above it are gone (the
    /// scope puts the tags' bytes back itself).
    pub(crate) fn cut(&self, top: usize) {
        self.edit(|runs, len| {
            while *len > 0 && runs.get(*len - 1).end > top {
                if runs.start(*len - 1) >= top {
                    *len -= 1;
                } else {
                    runs.set_end(*len - 1, top);
                }
            }
        });
    }

    /// The frame ended: no runs, the spilled ones' capacity kept.
    pub(crate) fn clear(&self) {
        if self.len.replace(0) > INLINE {
            let mut spilled = self.spilled.take();
            spilled.clear();
            self.spilled.set(spilled);
        }
    }

    /// Runs `f` on the stack and its length (it may only shorten it and
    /// cut the newest run short), the spilled runs in reach.
    fn edit(&self, f: impl FnOnce(&mut Stack<'_>, &mut usize)) {
        let mut len = self.len.get();
        let mut spilled = self.spilled.take();
        f(
            &mut Stack {
                runs: self,
                spilled: &mut spilled,
            },
            &mut len,
        );
        spilled.truncate(len.saturating_sub(INLINE));
        self.spilled.set(spilled);
        self.len.set(len);
    }
}

/// The runs with the spilled ones taken out of their `Cell`.
struct Stack<'a> {
    runs: &'a Runs,
    spilled: &'a mut Vec<Run>,
}

impl Stack<'_> {
    fn get(&self, index: usize) -> Run {
        match index.checked_sub(INLINE) {
            None => Run {
                end: self.runs.ends[index].get(),
                slot: self.runs.slots[index].get(),
            },
            Some(spilled) => self.spilled[spilled],
        }
    }

    /// Where run `index` starts: where the one below it ends.
    fn start(&self, index: usize) -> usize {
        match index.checked_sub(1) {
            Some(below) => self.get(below).end,
            None => self.runs.floor,
        }
    }

    fn set_end(&mut self, index: usize, end: usize) {
        match index.checked_sub(INLINE) {
            None => self.runs.ends[index].set(end),
            Some(spilled) => self.spilled[spilled].end = end,
        }
    }
}
