//! [`FrameArena::scoped`]: a scope on one arena, a checkpoint of its top
//! restored when the closure returns or unwinds.

use super::FrameArena;

use super::tags::MAX_TAGS;

/// The tags' net bytes and the current turn's start, as a scope found them.
type Nets = ([isize; MAX_TAGS], usize);

/// Puts the arena's top back where the scope found it, when the scope's
/// closure returns or unwinds: the scope of an arena that had met no tag
/// when it opened (kept small: the fast path).
struct Rewind<'a> {
    arena: &'a FrameArena,
    top: usize,
}

impl Drop for Rewind<'_> {
    #[inline]
    fn drop(&mut self) {
        let arena = self.arena;
        if arena.tagged.get() {
            // A tag was met in the scope; before it every net was 0, and
            // the only turn began at the base.
            rewind_tags(arena, self.top, ([0; MAX_TAGS], arena.base()));
        } else {
            let end = arena.top.get();
            // The scope's bytes count in the frame's peak.
            arena.lower_top(self.top);
            crate::asan::poison(arena.pointer_at(self.top).as_ptr(), end - self.top);
        }
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

/// The rewind of an arena with tags to `top`: the scope's last turn is
/// closed (its high goes into the peaks), then the top and every tag's net
/// go back to the scope's start: the tags that allocated in the scope keep
/// it in their peaks only.
#[cold]
fn rewind_tags(arena: &FrameArena, top: usize, nets: Nets) {
    let end = arena.top.get();
    arena.switch_tag(arena.tags.current());
    arena.top.set(top);
    arena.lowered_from.set(top);
    arena.tags.restore_nets(nets);
    crate::asan::poison(arena.pointer_at(top).as_ptr(), end - top);
}

impl FrameArena {
    /// Runs `f` on this arena and gives back everything `f` allocated in
    /// it when `f` returns or unwinds: a checkpoint of the arena's top,
    /// restored. The cheapest scope there is (a load and a store each way),
    /// for an owner of the arena: it needs the arena by `&mut`, which
    /// proves nothing allocated in it before is still borrowed.
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
        let rewind = Rewind {
            arena: self,
            top: self.top.get(),
        };
        f(rewind.arena)
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
