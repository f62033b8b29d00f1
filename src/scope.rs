//! Scopes inside a frame: [`scoped`] lends a closure an arena whose memory
//! is given back the moment the closure returns (or unwinds), not at the end
//! of the frame. For a computation that builds a lot of temporary data and
//! keeps a little (a path search per unit, a visibility query per light, a
//! layout pass per widget), the frame's high water becomes the largest
//! scope plus what was kept, instead of the sum of every temporary.
//!
//! How: each thread keeps a stack of arenas, one per nesting depth, made the
//! first time that depth is reached and reused after. A scope takes the
//! arena of the next depth, runs the closure, and resets that arena. No
//! lock, no atomic: a thread-local depth counter and a pointer into the
//! stack, whose arenas never move (`stack.rs`). A steady scope makes no
//! heap allocation and no system call; a burst's pages above the retained
//! size go back to the OS once [`SCOPE_RELEASE_AFTER`] scopes at that
//! depth have not needed them, as a frame arena's do after its frames.
//!
//! Scopes end in the reverse order they opened, which closures guarantee
//! unless a stackful coroutine suspends inside one: a scope that ends while
//! one opened after it is still open aborts the process with a message
//! (see [`scoped`]), since the open scope's arena would be reused under it.
//!
//! Why a closure over `for<'s> &'s FrameArena`: the lifetime `'s` is the
//! closure's alone, so nothing allocated in the scope can be returned or
//! stored outside it, which is what lets the scope end while the caller's
//! own borrows (a `&'f FrameArena` of the frame, the frame's data) go on.
//! `FrameArena::scope(&mut self)` (a mark to rewind to on an owned arena)
//! was left out: it would need the arena by `&mut`, which game code holding
//! `&'f FrameArena` does not have, and then nothing of the frame could be
//! used inside it.

mod stack;

use core::ptr::NonNull;

use crate::arena::{ArenaError, FrameArena};
use crate::region;
use stack::Stack;

/// Address space reserved for each depth's arena on each thread: 64 MiB
/// on 64-bit targets (free until used), 16 MiB on 32-bit ones and where a
/// reservation is real memory (wasm32, Miri).
pub const SCOPE_RESERVE: usize = {
    let wanted = if usize::BITS >= 64 {
        64 << 20
    } else {
        16 << 20
    };
    if wanted < region::DEFAULT_RESERVE {
        wanted
    } else {
        region::DEFAULT_RESERVE
    }
};

/// Committed bytes each depth's arena always keeps when its scope ends.
pub const SCOPE_RETAIN: usize = 4 << 20;

/// Scopes (at one depth, on one thread) that a burst's pages above
/// [`SCOPE_RETAIN`] stay for: counted as a frame arena counts frames (see
/// [`FrameArenaBuilder::release_after`](crate::FrameArenaBuilder::release_after)),
/// each scope's end being one. A frame may open thousands of scopes, so
/// the window is long: a scope that needs a burst's pages every few
/// thousand scopes keeps them.
pub const SCOPE_RELEASE_AFTER: u32 = 1 << 16;

thread_local! {
    /// This thread's scope arenas, one per depth, and the depth now.
    static SCOPES: Stack = const { Stack::new() };
}

/// Runs `f` with an arena of its own, whose memory is given back when `f`
/// returns or unwinds.
///
/// * Works from anywhere: an action's `apply`, `update`, a worker thread, a
///   Bevy system; the caller needs no arena of its own.
/// * The frame's data made before stays usable inside, and `f` can allocate
///   what it keeps in the frame arena it captured (`frame.arena()`).
/// * Nothing allocated in `temp` can leave `f`: the compiler rejects it.
/// * A scope inside a scope gets its own arena, and so does a scope on
///   another thread. Each thread's arenas are made the first time a depth
///   is reached (reserving [`SCOPE_RESERVE`] bytes of address space) and
///   reused after; the steady cost is a thread-local lookup and a reset.
///
/// Scopes on a thread end in the reverse order they opened. Closures see to
/// that, with one exception: a stackful coroutine (a fiber, `corosensei`)
/// that suspends inside `scoped` and is resumed inside another scope, or
/// left suspended while its resumer's scope ends. The first scope that ends
/// while a later one is still open aborts the process with a message
/// saying so, rather than hand that scope's memory out again while in use.
/// A coroutine can use scopes that open and end between two suspensions.
///
/// A `#[global_allocator]` may itself open scopes (say, for a tracking
/// allocator's temporaries): a scope opened while another one's arena is
/// being made is simply a deeper one.
///
/// # Panics
///
/// If this thread reaches a depth it never reached before and the OS
/// refuses to reserve that depth's arena (see [`try_scoped`]), or if called
/// while the thread's thread-locals are being destroyed. Allocations inside
/// panic as any arena's do when its reservation is exhausted (the `try_*`
/// methods return errors instead).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, scoped};
///
/// let frame = FrameArena::new();
/// let targets = frame.alloc_slice_copy(&[(3.0f32, 4.0f32), (1.0, 1.0), (6.0, 8.0)]);
/// let mut nearest = Vec::new_in(&frame); // kept for the rest of the frame
/// for unit in 0..100u32 {
///     let best = scoped(|temp| {
///         // A temporary list as large as the search needs, in the scope.
///         let mut by_distance = Vec::with_capacity_in(targets.len(), temp);
///         by_distance.extend(targets.iter().map(|&(x, y)| x * x + y * y + unit as f32));
///         by_distance.sort_by(f32::total_cmp);
///         by_distance[0] // only the answer leaves the scope
///     });
///     nearest.push(best);
/// }
/// assert_eq!(nearest[0], 2.0);
/// // The temporaries came and went: the frame holds only what was kept.
/// assert!(frame.used() < 100 * 4 + 1024);
/// ```
///
/// What the scope allocated cannot be kept:
///
/// ```compile_fail
/// let kept: &mut u32 = tickarena::scoped(|temp| temp.alloc(7u32));
/// ```
#[inline]
#[track_caller]
pub fn scoped<R>(f: impl for<'s> FnOnce(&'s FrameArena) -> R) -> R {
    match try_scoped(f) {
        Ok(result) => result,
        Err(error) => cannot_open(error),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn cannot_open(error: ArenaError) -> ! {
    panic!("tickarena: cannot open a scope: {error}")
}

/// [`scoped`], with an error instead of a panic when this thread reaches a
/// new depth and the OS refuses to reserve its arena (`f` is not called).
///
/// # Errors
///
/// [`ArenaError::ReservationRefused`] in that case.
///
/// # Panics
///
/// If called while the thread's thread-locals are being destroyed.
///
/// # Example
///
/// ```
/// let sum = tickarena::try_scoped(|temp| {
///     let squares = temp.alloc_slice_fill_with(1000, |i| (i * i) as u64);
///     squares.iter().sum::<u64>()
/// })
/// .expect("address space for the scope");
/// assert_eq!(sum, 332_833_500);
/// ```
#[inline]
pub fn try_scoped<R>(f: impl for<'s> FnOnce(&'s FrameArena) -> R) -> Result<R, ArenaError> {
    let scope = enter()?;
    // SAFETY: `enter` returned a pointer to this thread's arena for this
    // depth, valid for as long as the thread (elements never move) and used
    // by no one else until `scope` is dropped below: deeper scopes take
    // deeper arenas, other threads their own.
    let temp = unsafe { scope.arena.as_ref() };
    let result = f(temp);
    // The normal path closes in line; the guard's drop is for unwinding.
    scope.close();
    Ok(result)
}

/// An open scope: leaving it (by return or unwind) resets its arena and
/// goes back to the depth before.
struct Scope {
    arena: NonNull<FrameArena>,
    /// This thread's stack of scopes, found once when the scope opens.
    stack: NonNull<Stack>,
    depth: usize,
}

#[inline(always)]
fn enter() -> Result<Scope, ArenaError> {
    let opened = SCOPES.try_with(|stack| {
        let (depth, arena) = stack.open(new_scope_arena)?;
        let stack = NonNull::from(stack);
        Ok(Scope {
            arena,
            stack,
            depth,
        })
    });
    match opened {
        Ok(opened) => opened,
        Err(_) => {
            panic!("tickarena: scoped() called while this thread's thread-locals are destroyed")
        }
    }
}

/// A depth reached for the first time on this thread: its arena.
#[cold]
#[inline(never)]
fn new_scope_arena() -> Result<FrameArena, ArenaError> {
    let arena = FrameArena::builder()
        .reserve(SCOPE_RESERVE)
        .retain(SCOPE_RETAIN.min(SCOPE_RESERVE))
        .release_after(SCOPE_RELEASE_AFTER)
        .name("tickarena scope")
        .build()?;
    // Not plotted: a scope ends many times a frame.
    #[cfg(feature = "tracy")]
    let arena = {
        let mut arena = arena;
        arena.stop_plotting();
        arena
    };
    Ok(arena)
}

impl Scope {
    /// Closes the scope where it returned: in line (half of every scope's
    /// cost; left to the drop glue, the compiler made it a call once the
    /// reset grew a tagged path).
    #[inline(always)]
    fn close(self) {
        let mut scope = core::mem::ManuallyDrop::new(self);
        scope.end();
    }

    /// Resets the scope's arena and goes back to the depth before.
    #[inline(always)]
    fn end(&mut self) {
        // The closure has returned or unwound, and nothing it allocated in
        // the scope outlives it (its lifetime was the closure's own).
        // SAFETY: so no reference into the arena is left, and the pointer is
        // valid (see `try_scoped`): it may be reset through it.
        unsafe { (*self.arena.as_ptr()).reset() };
        // The thread-local lives as long as the thread, which is still
        // running this scope (it cannot be destroyed under a caller that
        // is using it).
        // SAFETY: so the pointer `enter` took is valid, and only shared
        // references to the stack exist (its state is in cells).
        let stack = unsafe { self.stack.as_ref() };
        if let Err(now) = stack.close(self.depth) {
            closed_out_of_order(self.depth, now);
        }
    }
}

impl Drop for Scope {
    /// A scope left by unwinding.
    fn drop(&mut self) {
        self.end();
    }
}

/// A scope ends while a scope opened after it is still open: only a
/// stackful coroutine (or another way of leaving a call without returning
/// or unwinding) suspended inside one scope and resumed inside another can
/// do that. The inner scope's arena would be handed to the next scope
/// opened while its data is still in use, so the process stops here.
#[cold]
#[inline(never)]
fn closed_out_of_order(depth: usize, now: usize) -> ! {
    std::eprintln!(
        "tickarena: a scope at depth {depth} ended while {} scope(s) opened after it on \
         this thread are still open. Scopes must end in the reverse order they opened \
         (a coroutine suspended inside `scoped` must be resumed and finish its scope \
         before the code that resumed it leaves its own); aborting, since the open \
         scopes' memory would be handed out again while in use.",
        now.saturating_sub(depth + 1)
    );
    std::process::abort()
}
