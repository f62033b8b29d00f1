//! [`DecodeState`]: what a serde decode into the arena (`crate::serde`)
//! keeps on the arena while it runs, since every nested value's seed is
//! made afresh from the arena alone: how deeply its lists, maps and boxes
//! nest now, how deep they may, and whether the arena refused it. Plain
//! data here; `serde/limits.rs` gives it its meaning. Never touched by an
//! allocation.

use core::cell::Cell;

use super::FrameArena;

/// The state of the decode running in an arena, if one is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecodeState {
    /// A decode started by a seed is running (nested seeds keep its
    /// settings).
    pub(crate) active: bool,
    /// Whether the arena refused the last decode started by a seed.
    pub(crate) refused: bool,
    /// Lists, maps and boxes open inside each other now.
    pub(crate) depth: u32,
    /// How many may be.
    pub(crate) max_depth: u32,
}

impl DecodeState {
    /// No decode running, none refused; the limit is the default's (a
    /// list decoded without a seed, `FrameVec::deserialize_in` called
    /// directly, goes by it).
    pub(crate) const IDLE: DecodeState = DecodeState {
        active: false,
        refused: false,
        depth: 0,
        max_depth: 0,
    };
}

impl FrameArena {
    /// The decode state (see [`DecodeState`]).
    #[inline(always)]
    pub(crate) fn decode_state(&self) -> &Cell<DecodeState> {
        &self.decode
    }
}
