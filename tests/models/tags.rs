//! Tags, budgets and scopes on one arena against a naive ledger that
//! knows the owner of every byte: a byte belongs to the tag that was
//! current when the top moved up over it (an allocation, or a growth in
//! place, whoever's block grew), and goes back to that tag's figure when
//! the top moves down over it (a free or a shrink at the top, whichever
//! tag is current then). Each tag's bytes are what it owns now, its peak
//! the most it owned at once; they sum to `used()`. A scope on the arena
//! (`FrameArena::scoped`) puts the top and every byte back as it found
//! them and keeps the peaks, whether the arena met its first tag before
//! the scope, inside it or never.

use tickarena::{BudgetPolicy, FrameArena, Tag, TagGuard};

/// The tags the steps switch to ([`Tag::UNTAGGED`] is the model's slot 0).
pub const TAGS: [Tag; 4] = [Tag::new("a"), Tag::new("b"), Tag::new("c"), Tag::new("d")];

/// `TAGS[index]` with its name at an address of its own: the same tag,
/// which the arena must find by its name.
fn renamed(index: usize) -> Tag {
    // Statics, not leaked copies (Miri runs this model and reports leaks):
    // each `static` has an address of its own, where equal literals may
    // share one.
    static NAMES: [[u8; 1]; 4] = [*b"a", *b"b", *b"c", *b"d"];
    let (tag, name) = (
        TAGS[index],
        core::str::from_utf8(&NAMES[index]).expect("ASCII"),
    );
    assert_eq!(name, tag.name());
    assert!(
        !core::ptr::eq(name, tag.name()),
        "a name at another address"
    );
    Tag::new(name)
}

/// A step inside a level (the frame, or a scope on the arena). Any value
/// is valid: sizes and tags are reduced by [`run`].
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Step {
    /// Allocates this many bytes (1 to 4096), kept until the frame ends.
    Alloc(u16),
    /// Allocates a `Vec` with room for this many bytes (0 to 4095), kept
    /// until [`Step::FreeNewest`] or the level's end.
    Temp(u16),
    /// Drops the newest `Temp` (its bytes go back if nothing came after).
    FreeNewest,
    /// Shrinks the newest `Temp` to this many bytes (0 to 4095, when
    /// fewer than it has): the tail goes back if nothing came after.
    Shrink(u16),
    /// Grows the newest `Temp` to this many bytes (0 to 4095, when more
    /// than it has): in place at the top, charged to the current tag
    /// whoever's block it is, or moved to a new block.
    Grow(u16),
    /// Switches to a tag until [`Step::Untag`].
    Tag(u8),
    /// Drops the newest tag guard: the tag before it is current again.
    Untag,
    /// Forgets the newest tag guard: its tag stays current.
    Leak,
    /// Sets tag `.0`'s budget to `.1` bytes (0 to 8191): the arena is
    /// tagged from then. Each frame's end counts the tags whose peak went
    /// over their budgets.
    Budget(u8, u16),
    /// `.0` temporaries (1 to 64) of `.1` bytes each (1 to 16), each
    /// under the next of the tags in turn (a guard dropped at once), kept
    /// like [`Step::Temp`]'s: many runs of one owner, so that frees reach
    /// back through more of them than a short history would make.
    Runs(u8, u8),
}

/// What the frame does between steps.
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    /// A step in the frame.
    Step(Step),
    /// A scope on the arena running these steps.
    Scope(Vec<Step>),
    /// The same, then a panic out of the scope (a plain scope under the
    /// fuzzer, whose panics abort).
    UnwindingScope(Vec<Step>),
    /// The frame ends.
    Reset,
}

/// What the ledger should say. Slot 0 is [`Tag::UNTAGGED`], slot `i + 1`
/// is `TAGS[i]`; offsets count from the arena's base.
#[derive(Clone, Default)]
struct Model {
    /// The owner (slot) of every byte below the top.
    owners: Vec<u8>,
    peak: usize,
    held: [usize; 5],
    peaks: [usize; 5],
    current: usize,
    /// Each tag's budget, kept from frame to frame as the arena keeps it.
    budgets: [Option<usize>; 5],
    /// The breaches of the frames ended so far.
    breaches: u64,
}

impl Model {
    fn top(&self) -> usize {
        self.owners.len()
    }

    /// The top moved up by `bytes` while the current tag was current.
    fn up(&mut self, bytes: usize) {
        let current = self.current;
        self.owners
            .extend(std::iter::repeat_n(current as u8, bytes));
        self.held[current] += bytes;
        self.peaks[current] = self.peaks[current].max(self.held[current]);
        self.peak = self.peak.max(self.top());
    }

    /// The top moved down to `to`: each byte goes back to its owner.
    fn down_to(&mut self, to: usize) {
        for owner in self.owners.drain(to..) {
            self.held[usize::from(owner)] -= 1;
        }
    }

    fn check(&self, arena: &FrameArena, after: &str) {
        assert_eq!(arena.used(), self.top(), "used, after {after}");
        assert_eq!(arena.peak(), self.peak, "the frame's peak, after {after}");
        let table = arena.tag_bytes();
        let sum: usize = arena.bytes_by_tag().map(|(_, bytes)| bytes).sum();
        assert_eq!(sum, arena.used(), "the tags' sum, after {after}");
        let tags = [Tag::UNTAGGED].into_iter().chain(TAGS);
        for (slot, tag) in tags.enumerate() {
            assert_eq!(
                (table.get(tag), table.peak(tag)),
                (self.held[slot], self.peaks[slot]),
                "{}'s bytes and peak, after {after}",
                tag.name()
            );
        }
    }
}

/// A level's live temporaries (with their offset and length in the
/// model) and tag guards (with the slot each will make current again).
struct Level<'a> {
    temps: Vec<(Vec<u8, &'a FrameArena>, usize)>,
    guards: Vec<(TagGuard<'a>, usize)>,
}

impl<'a> Level<'a> {
    fn new() -> Level<'a> {
        Level {
            temps: Vec::new(),
            guards: Vec::new(),
        }
    }

    fn step(&mut self, arena: &'a FrameArena, model: &mut Model, step: &Step) {
        match *step {
            Step::Alloc(bytes) => {
                let len = usize::from(bytes % 4096) + 1;
                arena.alloc_slice_fill_with(len, |_| 0u8);
                model.up(len);
            }
            Step::Temp(bytes) => {
                let len = usize::from(bytes % 4096);
                self.temps
                    .push((Vec::with_capacity_in(len, arena), model.top()));
                model.up(len);
            }
            Step::FreeNewest => self.free_newest(model),
            Step::Shrink(bytes) => {
                let len = usize::from(bytes % 4096);
                if let Some((temp, start)) = self.temps.last_mut() {
                    let old = temp.capacity();
                    if len < old {
                        temp.shrink_to(len);
                        assert_eq!(temp.capacity(), len);
                        if *start + old == model.top() {
                            model.down_to(*start + len);
                        }
                    }
                }
            }
            Step::Grow(bytes) => {
                let len = usize::from(bytes % 4096);
                if let Some((temp, start)) = self.temps.last_mut() {
                    let old = temp.capacity();
                    if len > old {
                        temp.reserve_exact(len);
                        assert_eq!(temp.capacity(), len);
                        if *start + old == model.top() {
                            model.up(len - old); // in place
                        } else {
                            *start = model.top(); // moved to a new block
                            model.up(len);
                        }
                    }
                }
            }
            Step::Tag(which) => {
                let slot = usize::from(which % 4) + 1;
                // Half the time the same name at another address (a tag
                // made from its own literal): equal all the same.
                let tag = if which >= 128 {
                    renamed(slot - 1)
                } else {
                    TAGS[slot - 1]
                };
                self.guards.push((arena.tag(tag), model.current));
                model.current = slot;
            }
            Step::Untag => {
                if let Some((guard, previous)) = self.guards.pop() {
                    drop(guard);
                    model.current = previous;
                }
            }
            Step::Leak => {
                if let Some((guard, _)) = self.guards.pop() {
                    std::mem::forget(guard);
                }
            }
            Step::Budget(which, bytes) => {
                let slot = usize::from(which % 4) + 1;
                let budget = usize::from(bytes % 8192);
                arena.set_budget(TAGS[slot - 1], budget);
                model.budgets[slot] = Some(budget);
            }
            Step::Runs(count, bytes) => {
                let len = usize::from(bytes % 16) + 1;
                for i in 0..usize::from(count % 64) + 1 {
                    let slot = (model.current + i) % 4 + 1;
                    let guard = arena.tag(TAGS[slot - 1]);
                    let (outer, start) = (model.current, model.top());
                    model.current = slot;
                    self.temps.push((Vec::with_capacity_in(len, arena), start));
                    model.up(len);
                    drop(guard);
                    model.current = outer;
                    model.check(arena, &format!("{step:?}, run {i}"));
                }
            }
        }
        model.check(arena, &format!("{step:?}"));
    }

    fn free_newest(&mut self, model: &mut Model) {
        if let Some((temp, start)) = self.temps.pop() {
            let len = temp.capacity();
            drop(temp);
            if len != 0 && start + len == model.top() {
                model.down_to(start);
            }
        }
    }

    /// Drops the temporaries, then the guards, newest first.
    fn close(mut self, arena: &FrameArena, model: &mut Model) {
        while !self.temps.is_empty() {
            self.free_newest(model);
        }
        while let Some((guard, previous)) = self.guards.pop() {
            drop(guard);
            model.current = previous;
        }
        model.check(arena, "the level's end");
    }
}

/// Runs `ops` on a fresh arena, checking the ledger after every step.
pub fn run(ops: &[Op]) {
    let mut arena = FrameArena::builder()
        .reserve(64 << 20)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let mut model = Model::default();
    let mut index = 0;
    while index < ops.len() {
        // The frame's steps up to the next scope or reset, on the arena by
        // `&` (the guards and temporaries borrow it).
        let mut frame = Level::new();
        while let Some(Op::Step(step)) = ops.get(index) {
            frame.step(&arena, &mut model, step);
            index += 1;
        }
        frame.close(&arena, &mut model);
        match ops.get(index) {
            Some(Op::Scope(steps)) => scope(&mut arena, &mut model, steps, false),
            Some(Op::UnwindingScope(steps)) => scope(&mut arena, &mut model, steps, true),
            Some(Op::Reset) => {
                arena.reset();
                let over = (model.peaks.iter().zip(model.budgets))
                    .filter(|&(&peak, budget)| budget.is_some_and(|budget| peak > budget))
                    .count();
                model = Model {
                    current: model.current,
                    budgets: model.budgets,
                    breaches: model.breaches + over as u64,
                    ..Model::default()
                };
                assert_eq!(
                    arena.stats().over_budget,
                    model.breaches,
                    "the breaches counted"
                );
                model.check(&arena, "a reset");
            }
            _ => {}
        }
        index += 1;
    }
}

/// Runs `steps` in a scope on the arena; with `unwinds`, the scope ends
/// in a panic (where panics unwind).
fn scope(arena: &mut FrameArena, model: &mut Model, steps: &[Step], unwinds: bool) {
    let unwinds = unwinds && cfg!(not(any(fuzzing, panic = "abort")));
    let at_open = model.clone();
    let mut run_steps = || {
        arena.scoped(|temp| {
            let mut level = Level::new();
            for step in steps {
                level.step(temp, model, step);
            }
            level.close(temp, model);
            if unwinds {
                std::panic::panic_any("out of the scope");
            }
        })
    };
    if unwinds {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run_steps));
        assert!(caught.is_err());
    } else {
        run_steps();
    }
    // The top and the bytes as the scope found them; the peaks keep what
    // the scope held; a tag leaked in the scope stays current; budgets set
    // in the scope stay.
    model.owners = at_open.owners;
    model.held = at_open.held;
    model.check(arena, "a scope's end");
}
