//! [`Refusal`]: what an arena says when it cannot serve an allocation,
//! whether the caller panics (`alloc*`, `format_in!`) or a collection
//! gives up (`Vec`, `Box`: std's alloc-error handler, which aborts).
//!
//! std's handler prints only "memory allocation of N bytes failed", which
//! never names the arena. With the `nightly` feature (the hook is unstable)
//! the first refusal a collection meets (a cold path) installs an
//! alloc-error hook that prints the arena's own message first and then
//! calls the hook that was there before (std's by default, which prints
//! its line and aborts). A refusal is remembered per thread until it is
//! handled (tickarena's own collections turn it into an error), its arena's
//! frame ends or the arena is dropped; the hook speaks only for such a
//! refusal of the very layout that failed, so allocation failures that are
//! not the arena's keep their usual report. One case stays open: a refusal
//! that a std collection's `try_reserve` handled, followed in the same
//! frame by a failure of the global allocator of exactly that layout.

use core::alloc::Layout;
use core::fmt;

/// An allocation an arena could not serve, and the arena's figures then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) layout: Layout,
    pub(crate) used: usize,
    /// Bytes of `used` the request would take over: the block it grows in
    /// place (0 for a fresh allocation, or a block that moves).
    pub(crate) in_place_of: usize,
    pub(crate) committed: usize,
    pub(crate) reserved: usize,
    /// The arena is over a caller's buffer (`FrameArena::from_buffer`).
    pub(crate) lent: bool,
    /// The arena's name ([`FrameArenaBuilder::name`](crate::FrameArenaBuilder::name)).
    pub(crate) name: Option<&'static str>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Refusal {
            layout,
            used,
            in_place_of,
            committed,
            reserved,
            lent,
            name,
        } = *self;
        let (size, align) = (layout.size(), layout.align());
        // Which arena, when it has a name: the message then says which
        // setting to raise, not only which kind.
        f.write_str("tickarena: ")?;
        if let Some(name) = name {
            write!(f, "arena `{name}`: ")?;
        }
        if lent {
            write!(
                f,
                "frame arena buffer full: asked for {size} bytes (align {align}) with \
                 {used} of the buffer's {reserved} bytes in use this frame; give \
                 FrameArena::from_buffer a larger buffer, or allocate less per frame"
            )
        } else if size.saturating_add(align - 1) > reserved - used {
            // What the frame asked for so far, with this request: a floor
            // for the reservation (the rest of the frame is unknown here;
            // the sizing report of a run that handles refusals knows it).
            // A block grown in place is in `used` already.
            let needed = (used - in_place_of).saturating_add(size);
            write!(
                f,
                "frame arena reservation exhausted: asked for {size} bytes \
                 (align {align}) with {used} of {reserved} reserved bytes in use this frame; \
                 reserve more address space with FrameArena::builder().reserve(bytes): this \
                 frame needs at least {needed} bytes"
            )
        } else {
            write!(
                f,
                "the OS refused to commit memory for the frame arena: asked for \
                 {size} bytes (align {align}) with {used} bytes in use, {committed} committed \
                 of {reserved} reserved; the machine is out of memory (lower \
                 FrameArena::builder().retain(bytes) on other arenas, or allocate less per frame)"
            )
        }
    }
}

/// Remembers that the arena at `arena` (its base address) refused
/// `refusal`, for the alloc-error hook, installing the hook on the first
/// call. Called where a collection meets the refusal (the `Allocator`
/// impl), never on the allocation fast path.
#[cfg(all(feature = "std", feature = "nightly"))]
pub(crate) fn remember(arena: usize, refusal: Refusal) {
    hook::LAST_REFUSAL.set(Some((arena, refusal)));
    hook::INSTALL.call_once(hook::install);
}

/// Forgets this thread's refusal: it was handled (a collection turned it
/// into an error value), or, with `arena` given, that arena's frame ended
/// or the arena was dropped. Only a refusal nobody has handled yet may be
/// named when a collection gives up.
#[cfg(all(feature = "std", feature = "nightly"))]
pub(crate) fn forget(arena: Option<usize>) {
    let _ = hook::LAST_REFUSAL.try_with(|last| {
        if let Some((refused_by, _)) = last.get()
            && arena.is_none_or(|arena| arena == refused_by)
        {
            last.set(None);
        }
    });
}

/// Without the alloc-error hook (stable Rust, or no `std`) std's own report
/// is all there is: "memory allocation of N bytes failed", then an abort.
/// The arena's `alloc*` methods and `format_in!` still panic with the
/// arena's message.
#[cfg(not(all(feature = "std", feature = "nightly")))]
pub(crate) fn remember(_: usize, _: Refusal) {}

#[cfg(not(all(feature = "std", feature = "nightly")))]
pub(crate) fn forget(_: Option<usize>) {}

#[cfg(all(feature = "std", feature = "nightly"))]
mod hook {
    use std::alloc::Layout;
    use std::cell::Cell;
    use std::sync::{Once, OnceLock};

    use super::Refusal;

    thread_local! {
        /// This thread's refusal not handled yet, and the base address of
        /// the arena that made it.
        pub(super) static LAST_REFUSAL: Cell<Option<(usize, Refusal)>> = const { Cell::new(None) };
    }

    pub(super) static INSTALL: Once = Once::new();

    /// The hook that was installed before ours.
    static PREVIOUS: OnceLock<fn(Layout)> = OnceLock::new();

    pub(super) fn install() {
        let previous = std::alloc::take_alloc_error_hook();
        if PREVIOUS.set(previous).is_ok() {
            std::alloc::set_alloc_error_hook(report);
        }
    }

    /// Says which arena ran out (if one did, for this layout, on this
    /// thread, and nobody handled it), then hands over to the previous hook.
    fn report(layout: Layout) {
        if let Some((_, refusal)) = LAST_REFUSAL.take()
            && refusal.layout == layout
        {
            eprintln!(
                "{refusal}\n(a collection in the arena could not allocate; use its try_* \
                 methods, e.g. Vec::try_reserve, to handle this without aborting)"
            );
        }
        if let Some(previous) = PREVIOUS.get() {
            previous(layout);
        }
    }
}
