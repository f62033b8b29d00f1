//! [`DecodeState`]: what a serde decode into the arena (`crate::serde`)
//! keeps on the arena while it runs, since every nested value's seed is
//! made afresh from the arena alone: how deeply its lists, maps and boxes
//! nest now, how deep they may, how much stack they may take, and
//! whether the arena refused it. Plain
//! cells here (each read and written alone: no copies of the whole on a
//! recursive decode's stack); `serde/limits.rs` gives them their meaning.
//! Never touched by an allocation.

use core::cell::Cell;

use super::FrameArena;

/// The state of the decode running in an arena, if one is.
#[derive(Debug)]
pub(crate) struct DecodeState {
    /// A decode started by a seed is running (nested seeds keep its
    /// settings).
    pub(crate) active: Cell<bool>,
    /// Whether the arena refused the last decode started by a seed.
    pub(crate) refused: Cell<bool>,
    /// Lists, maps and boxes open inside each other now.
    pub(crate) depth: Cell<u32>,
    /// How many may be, while `active`.
    pub(crate) max_depth: Cell<u32>,
    /// The stack's address where the outermost list, map or box opened.
    pub(crate) stack_base: Cell<usize>,
    /// How many bytes of stack the levels may take below it, while
    /// `active`.
    pub(crate) max_stack: Cell<usize>,
}

impl DecodeState {
    /// No decode running, none refused.
    pub(crate) const fn new() -> DecodeState {
        DecodeState {
            active: Cell::new(false),
            refused: Cell::new(false),
            depth: Cell::new(0),
            max_depth: Cell::new(0),
            stack_base: Cell::new(0),
            max_stack: Cell::new(0),
        }
    }
}

impl FrameArena {
    /// The decode state (see [`DecodeState`]).
    #[inline(always)]
    pub(crate) fn decode_state(&self) -> &DecodeState {
        &self.decode
    }
}
