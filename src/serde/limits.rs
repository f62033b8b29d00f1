//! The limits of a decode, kept on its arena ([`DecodeState`]) because
//! every nested value's seed is made afresh from the arena alone: how
//! deeply lists, maps and boxes may nest (a recursive message nested
//! 10^5 deep would overflow the stack: it is the format's error at
//! [`DEFAULT_MAX_DEPTH`] instead), how many bytes of the arena one decode
//! may take ([`DEFAULT_MAX_BYTES`], held by the arena's ceiling where it
//! refuses allocations), and whether the arena or that bound refused the
//! decode (which postcard's error cannot say).
//!
//! Each count and the ceiling come back in a guard's `drop`, so a decode
//! that fails or panics midway leaves the arena's limits as it found them
//! (its bytes stay until the frame ends: see `guide::serde`, "A bound per
//! packet", for why they cannot be given back through a `&FrameArena`).

use ::serde::de;

#[cfg(doc)]
use super::DEFAULT_MAX_BYTES;
use super::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_STACK};
#[cfg(doc)]
use crate::arena::DecodeState;
use crate::arena::{FrameArena, NO_SEED_MAX_DEPTH, NO_SEED_MAX_STACK};

// A decode no seed started has the defaults' bounds.
const _: () =
    assert!(NO_SEED_MAX_DEPTH == DEFAULT_MAX_DEPTH && NO_SEED_MAX_STACK == DEFAULT_MAX_STACK);

/// A decode started by a seed: ends it when dropped (lifting the arena's
/// ceiling), keeping whether the arena or the bound refused it for the
/// caller to ask.
pub(super) struct Decode<'a>(&'a FrameArena);

impl Drop for Decode<'_> {
    #[inline]
    fn drop(&mut self) {
        let state = self.0.decode_state();
        state.active.set(false);
        state.max_depth.set(NO_SEED_MAX_DEPTH);
        state.max_stack.set(NO_SEED_MAX_STACK);
        // A question left by a panic (`lend::asking`) ends with the decode.
        state.lend_wanted.set(0);
        self.0.lift_ceiling();
    }
}

/// Whether a decode is running in `arena`: a seed made for a field or an
/// element (or for the element of a list decoded by `DeserializeIn`
/// directly) keeps its limits.
#[inline]
pub(super) fn running(arena: &FrameArena) -> bool {
    let state = arena.decode_state();
    state.active.get() || state.depth.get() != 0
}

/// Starts a decode in `arena` with the limits `max_depth`, `max_stack`
/// and `max_bytes`; none is running.
#[inline]
pub(super) fn start(
    arena: &FrameArena,
    max_depth: u32,
    max_stack: usize,
    max_bytes: usize,
) -> Decode<'_> {
    let state = arena.decode_state();
    debug_assert!(!running(arena), "a decode is running");
    state.active.set(true);
    state.refused.set(false);
    state.over_bound.set(false);
    state.too_deep.set(false);
    state.lend_wanted.set(0);
    state.max_depth.set(max_depth);
    state.max_stack.set(max_stack);
    state.max_bytes.set(max_bytes);
    // From here, no allocation in the arena ends more than `max_bytes`
    // above its top: the arena refuses it where it refuses a full arena.
    arena.set_ceiling(max_bytes);
    Decode(arena)
}

/// One list, map or box open: closes it when dropped. It holds the arena
/// itself, not its decode state: a recursive message's every level keeps
/// one across its elements, and the arena's address is in a register
/// there already, where the state's would take a stack slot.
pub(super) struct Level<'a>(&'a FrameArena);

impl Drop for Level<'_> {
    #[inline]
    fn drop(&mut self) {
        let depth = &self.0.decode_state().depth;
        depth.set(depth.get() - 1);
    }
}

/// Opens a list, map or box in `arena`'s decode: an error if that nests
/// them deeper than the decode's limit.
#[inline]
pub(super) fn enter<E: de::Error>(arena: &FrameArena) -> Result<Level<'_>, E> {
    let state = arena.decode_state();
    let depth = state.depth.get();
    // The running decode's bound, or the default's while none runs.
    let max_depth = state.max_depth.get();
    if depth >= max_depth {
        state.too_deep.set(true);
        return Err(too_deep_error(max_depth));
    }
    // The stack taken since the outermost level opened, for types whose
    // levels are large (a value of kilobytes inline): the level count
    // alone would let 128 of them overflow a small thread's stack. The
    // stack grows down on every target tickarena is tested on (x86-64,
    // i686, aarch64, wasm32's shadow stack); on one where it grows up, the
    // stack reads as above the base (`stack_moved`) and the level count
    // alone holds. `max_stack` is `usize::MAX` when the bound is off.
    let here = crate::arena::stack_address();
    if depth == 0 {
        state.stack_base.set(here);
    } else {
        let max_stack = state.max_stack.get();
        // Wrapping: a stack above the base (another segment) reads as
        // more than any bound, and goes to `stack_moved` too.
        if state.stack_base.get().wrapping_sub(here) > max_stack {
            stack_moved::<E>(state, here, max_stack)?;
        }
    }
    state.stack_last.set(here);
    state.depth.set(depth + 1);
    Ok(Level(arena))
}

/// How far from the previous level's address a level must find the stack
/// to be on another segment, at least: a step no level of a decode takes
/// on one stack (a level of a 4 KiB value takes tens of kilobytes in a
/// debug build), and less than the distance between two of `stacker`'s
/// segments (each is mapped apart, with its guard page).
const MIN_JUMP: usize = 64 << 10;

/// The stack is more than `max_stack` below where the outermost level
/// opened: the levels took it (the format's error), or the decode moved to
/// another stack (a segment of `stacker`, which `serde_stacker` switches
/// to when the stack runs low, or back from one). A move is a jump from
/// the previous level's address by more than the bound and [`MIN_JUMP`],
/// which no level makes on one stack under the bound (the levels between
/// would have passed the bound first): the stack is then measured from
/// here, per segment (the segment's own guard pages and `stacker`'s red
/// zone hold what the segments below took).
#[cold]
#[inline(never)]
fn stack_moved<E: de::Error>(
    state: &crate::arena::DecodeState,
    here: usize,
    max_stack: usize,
) -> Result<(), E> {
    if state.stack_last.get().abs_diff(here) > max_stack.max(MIN_JUMP) {
        state.stack_base.set(here);
        return Ok(());
    }
    if here > state.stack_base.get() {
        // Above the base on the same stack: one that grows up, where the
        // level count alone holds.
        return Ok(());
    }
    state.too_deep.set(true);
    Err(too_much_stack(max_stack))
}

#[cold]
#[inline(never)]
fn too_much_stack<E: de::Error>(max_stack: usize) -> E {
    E::custom(format_args!(
        "the input's lists, maps and boxes inside each other took more than {max_stack} bytes \
         of stack (each level holds a value of its type): raise it with \
         InArena::new(arena).max_stack(bytes), on a stack that holds it"
    ))
}

#[cold]
#[inline(never)]
fn too_deep_error<E: de::Error>(max_depth: u32) -> E {
    E::custom(format_args!(
        "the input is nested deeper than {max_depth} levels (lists, maps and boxes inside each \
         other; the limit keeps a deep input from overflowing the stack): raise it with \
         InArena::new(arena).max_depth(levels)"
    ))
}

/// Notes that `arena` refused the decode (see [`arena_refused`](super::arena_refused)).
#[inline]
pub(super) fn refused(arena: &FrameArena) {
    arena.decode_state().refused.set(true);
}

/// Notes that the decode a seed started in `arena` succeeded: neither the
/// arena nor the bound refused it, whatever a part of it met and dropped.
#[inline]
pub(super) fn succeeded(arena: &FrameArena) {
    let state = arena.decode_state();
    state.refused.set(false);
    state.over_bound.set(false);
    state.too_deep.set(false);
}

/// Whether `arena` refused the last decode a seed started in it.
pub(super) fn was_refused(arena: &FrameArena) -> bool {
    arena.decode_state().refused.get()
}

/// Whether the latest refusal of `arena` was the running decode's byte
/// bound (its ceiling), not the arena's own.
#[inline]
pub(super) fn refused_by_bound(arena: &FrameArena) -> bool {
    arena.refused_by_ceiling()
}

/// Notes that the decode met its byte bound (see
/// [`over_max_bytes`](super::over_max_bytes)).
#[inline]
pub(super) fn over_bound(arena: &FrameArena) {
    arena.decode_state().over_bound.set(true);
}

/// Whether the last decode a seed started in `arena` met its depth or
/// stack bound.
pub(super) fn was_too_deep(arena: &FrameArena) -> bool {
    arena.decode_state().too_deep.get()
}

/// Whether the last decode a seed started in `arena` met its byte bound.
pub(super) fn was_over_bound(arena: &FrameArena) -> bool {
    arena.decode_state().over_bound.get()
}

/// The format's error for a decode past its byte bound, taking `what`.
#[cold]
#[inline(never)]
pub(super) fn too_many_bytes<E: de::Error>(arena: &FrameArena, what: &str) -> E {
    let max_bytes = arena.decode_state().max_bytes.get();
    E::custom(format_args!(
        "the input's {what} would take more than {max_bytes} bytes of the arena (the decode's \
         bound; a length bomb, or a message larger than it allows): raise it with \
         InArena::new(arena).max_bytes(bytes)"
    ))
}
