//! [`FrameArena::scoped`]: a scope on one arena, a checkpoint of its top
//! restored when the closure returns or unwinds.

use super::FrameArena;

use super::tags::MAX_TAGS;

/// The tags' net bytes and the current turn's start, as a scope found them.
type Nets = ([isize; MAX_TAGS], usize);

/// Puts the arena's top back where the scope found it if the scope's
/// closure unwinds (when it returns, `scoped` does it inline): the scope
/// of an arena that had met no tag when it opened.
///
/// Its drop only calls out: a drop so small lets the compiler pass the
/// two fields to it as values, so the scope's fast path keeps them in
/// registers instead of storing the guard in memory for the unwinding
/// path (two stores per scope).
struct Rewind<'a> {
    arena: &'a FrameArena,
    top: usize,
}

impl Drop for Rewind<'_> {
    #[inline]
    fn drop(&mut self) {
        close_unwinding(self.arena, self.top);
    }
}

/// [`FrameArena::close_scope`] on the unwinding path, out of line.
#[cold]
#[inline(never)]
fn close_unwinding(arena: &FrameArena, top: usize) {
    arena.close_scope(top);
}

impl FrameArena {
    /// Puts the top back to `top`, where a scope that opened untagged found
    /// it.
    #[inline(always)]
    fn close_scope(&self, top: usize) {
        let end = self.top.get();
        // The flag is tested only past the test of the peak's mark, which
        // an arena tagged since the scope opened always passes (tagging it
        // made its `lowered_from` 0, and no reset can come inside the
        // scope): that keeps a scope's open and close at one test each.
        if end > self.lowered_from.get() {
            if self.tagged.get() {
                return rewind_first_tags(self, top);
            }
            // The scope's bytes count in the frame's peak (untagged: the
            // mark is `lowered_from` itself).
            self.lowered_from.set(end);
        }
        self.top.set(top);
        crate::asan::poison(self.pointer_at(top).as_ptr(), end - top);
    }
}

/// [`Rewind`] for an arena with tags: the nets to put back as well.
struct RewindTagged<'a> {
    arena: &'a FrameArena,
    top: usize,
    nets: Nets,
}

impl Drop for RewindTagged<'_> {
    fn drop(&mut self) {
        rewind_tags(self.arena, self.top, self.nets);
    }
}

/// [`rewind_tags`] for a scope that opened on an untagged arena and met
/// its first tag: when it opened, everything was [`Tag::UNTAGGED`]'s
/// (slot 0), charged here as a turn closed at the scope's start. Not left
/// as a turn from the base: a guard leaked in the scope leaves another tag
/// current, which would take the bytes. Out of line, so that the close
/// inlined into every scope stays small.
///
/// [`Tag::UNTAGGED`]: crate::Tag::UNTAGGED
#[cold]
#[inline(never)]
fn rewind_first_tags(arena: &FrameArena, top: usize) {
    let mut nets = [0; MAX_TAGS];
    nets[0] = (top - arena.base()) as isize;
    rewind_tags(arena, top, (nets, top));
}

/// The rewind of an arena with tags to `top`: the scope's last turn is
/// closed (its high goes into the peaks), then the top and every tag's net
/// go back to the scope's start: the tags that allocated in the scope keep
/// it in their peaks only.
#[cold]
fn rewind_tags(arena: &FrameArena, top: usize, nets: Nets) {
    let end = arena.top.get();
    arena.switch_tag(arena.tags.current());
    arena.top.set(top);
    arena.restart_turn_high(top);
    arena.tags.restore_nets(nets);
    crate::asan::poison(arena.pointer_at(top).as_ptr(), end - top);
}

impl FrameArena {
    /// Runs `f` on this arena and gives back everything `f` allocated in
    /// it when `f` returns or unwinds: a checkpoint of the arena's top,
    /// restored. The cheapest scope there is (to open, a test of the tag
    /// flag and a load; to close, two loads, a test and a store), for an
    /// owner of the arena: it needs the arena by `&mut`, which proves
    /// nothing allocated in it before is still borrowed.
    ///
    /// What `f` allocates borrows the arena for `'s`, a lifetime of `f`'s
    /// own, so none of it can be returned or stored outside: the compiler
    /// rejects it. The scope's bytes count in the frame's
    /// [`peak`](Self::peak).
    ///
    /// Scopes on one arena do not nest (`f` has the arena by `&`, not
    /// `&mut`); inside, [`tickarena::scoped`](crate::scoped) opens one on
    /// the thread's scope arenas. `guide::scopes` says which to use when,
    /// and why scopes rewound in any order (a depth-first search driven by
    /// an explicit stack) have no safe API.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::FrameArena;
    ///
    /// let mut arena = FrameArena::new();
    /// let kept = arena.alloc(7u32);
    /// *kept += 1;
    /// let longest = arena.scoped(|temp| {
    ///     let mut open = Vec::with_capacity_in(1024, temp); // a search's open list
    ///     open.extend(0..1024u32);
    ///     open.iter().copied().max().unwrap()
    /// });
    /// assert_eq!(longest, 1023);
    /// assert_eq!(arena.used(), 4); // the scope's 4 KiB went back
    /// assert_eq!(arena.peak(), 4 + 4096);
    /// ```
    ///
    /// Nothing made in the scope leaves it:
    ///
    /// ```compile_fail
    /// let mut arena = tickarena::FrameArena::new();
    /// let escaped: &u32 = arena.scoped(|temp| temp.alloc(1u32));
    /// ```
    #[inline]
    pub fn scoped<R>(&mut self, f: impl for<'s> FnOnce(&'s FrameArena) -> R) -> R {
        if self.tagged.get() {
            return self.scoped_tagged(f);
        }
        let top = self.top.get();
        let unwinding = Rewind { arena: self, top };
        let result = f(unwinding.arena);
        // Closed here rather than by the guard's drop, whose body stays out
        // of line (see `Rewind`).
        core::mem::forget(unwinding);
        self.close_scope(top);
        result
    }

    /// [`scoped`](Self::scoped) on an arena with tags: the turn so far is
    /// closed at the checkpoint, and the nets kept to be put back.
    #[inline(never)]
    fn scoped_tagged<R>(&mut self, f: impl for<'s> FnOnce(&'s FrameArena) -> R) -> R {
        self.switch_tag(self.tags.current());
        let rewind = RewindTagged {
            arena: self,
            top: self.top.get(),
            nets: self.tags.nets(),
        };
        f(rewind.arena)
    }
}
