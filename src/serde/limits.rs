//! The limits of a decode, kept on its arena ([`DecodeState`]) because
//! every nested value's seed is made afresh from the arena alone: how
//! deeply lists, maps and boxes may nest (a recursive message nested
//! 10^5 deep would overflow the stack: it is the format's error at
//! [`DEFAULT_MAX_DEPTH`] instead), and whether the arena refused the
//! decode (which postcard's error cannot say).
//!
//! Each count comes back in a guard's `drop`, so a decode that fails or
//! panics midway leaves the arena as it found it.

use core::cell::Cell;

use ::serde::de;

use super::DEFAULT_MAX_DEPTH;
use crate::arena::{DecodeState, FrameArena};

/// A decode started by a seed: ends it when dropped, keeping whether the
/// arena refused it for the caller to ask.
pub(super) struct Decode<'a>(&'a Cell<DecodeState>);

impl Drop for Decode<'_> {
    #[inline]
    fn drop(&mut self) {
        let refused = self.0.get().refused;
        self.0.set(DecodeState {
            refused,
            ..DecodeState::IDLE
        });
    }
}

/// Starts a decode in `arena` with the limit `max_depth`; none is running
/// (the seed's caller saw to it: a nested seed keeps the running decode's
/// settings).
#[inline]
pub(super) fn start(arena: &FrameArena, max_depth: u32) -> Decode<'_> {
    let state = arena.decode_state();
    debug_assert_eq!(state.get().depth, 0, "a decode is running");
    state.set(DecodeState {
        active: true,
        refused: false,
        depth: 0,
        max_depth,
    });
    Decode(state)
}

/// One list, map or box open: closes it when dropped.
pub(super) struct Level<'a>(&'a Cell<DecodeState>);

impl Drop for Level<'_> {
    #[inline]
    fn drop(&mut self) {
        let mut state = self.0.get();
        state.depth -= 1;
        self.0.set(state);
    }
}

/// Opens a list, map or box in `arena`'s decode: an error if that nests
/// them deeper than the decode's limit.
#[inline]
pub(super) fn enter<E: de::Error>(arena: &FrameArena) -> Result<Level<'_>, E> {
    let cell = arena.decode_state();
    let mut state = cell.get();
    let max_depth = if state.active {
        state.max_depth
    } else {
        DEFAULT_MAX_DEPTH
    };
    if state.depth >= max_depth {
        return Err(too_deep(max_depth));
    }
    state.depth += 1;
    cell.set(state);
    Ok(Level(cell))
}

#[cold]
#[inline(never)]
fn too_deep<E: de::Error>(max_depth: u32) -> E {
    E::custom(format_args!(
        "the input is nested deeper than {max_depth} levels (lists, maps and boxes inside each \
         other; the limit keeps a deep input from overflowing the stack): raise it with \
         InArena::new(arena).max_depth(levels)"
    ))
}

/// Notes that `arena` refused the decode (see [`arena_refused`](super::arena_refused)).
#[cold]
pub(super) fn refused(arena: &FrameArena) {
    let state = arena.decode_state();
    state.set(DecodeState {
        refused: true,
        ..state.get()
    });
}

/// Whether `arena` refused the last decode a seed started in it.
pub(super) fn was_refused(arena: &FrameArena) -> bool {
    arena.decode_state().get().refused
}
