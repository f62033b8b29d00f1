//! [`FromArena`]: how the frame loop makes a game's per-frame scratch
//! value at the start of each tick; and the slot the frame keeps it in.

#[cfg(any(feature = "hashbrown", feature = "nightly"))]
use std::hash::BuildHasher;

use super::Game;
use crate::arena::FrameArena;
#[cfg(feature = "hashbrown")]
use crate::frame_types::FrameHashMap;
use crate::frame_types::{FrameString, FrameVec};
use crate::segmented::SegmentedList;

/// A value made empty in a frame's arena: the type of
/// [`Game::Scratch`](super::Game::Scratch), which the loop makes at the
/// start of every tick and hands to every update step, to `end_frame` and
/// to `present`. Like Bevy's `FromWorld`, for one frame.
///
/// Implemented for `()`, the frame collections ([`FrameVec`],
/// [`FrameString`], [`FrameHashMap`], a [`SegmentedList`] in the arena),
/// `Option` (as `None`) and tuples of up to four of them; a struct of your
/// own implements it by making its fields.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::FromArena;
/// use tickarena::{FrameArena, FrameString, FrameVec};
///
/// struct DrawList<'f> {
///     sprites: FrameVec<'f, (f32, u32)>,
///     labels: FrameVec<'f, FrameString<'f>>,
/// }
/// impl<'f> FromArena<'f> for DrawList<'f> {
///     fn from_arena(arena: &'f FrameArena) -> Self {
///         DrawList { sprites: FromArena::from_arena(arena), labels: FromArena::from_arena(arena) }
///     }
/// }
///
/// let arena = FrameArena::new();
/// let list = DrawList::from_arena(&arena);
/// assert!(list.sprites.is_empty() && list.labels.is_empty());
/// assert_eq!(arena.used(), 0, "empty collections take nothing until used");
/// ```
#[diagnostic::on_unimplemented(
    message = "the frame loop cannot make `{Self}` at the start of a frame",
    label = "`Game::Scratch<'f>` must implement `FromArena<'f>`",
    note = "implement `FromArena<'f>` for it (make each field with `FromArena::from_arena(arena)`), \
            or use `()`, a `FrameVec`, `FrameString`, `FrameHashMap`, an `Option` or a tuple of them"
)]
pub trait FromArena<'f> {
    /// An empty value whose memory (if any) comes from `arena`.
    fn from_arena(arena: &'f FrameArena) -> Self;
}

/// A game's scratch, seen by the frame without naming the game's type in
/// its own definition: `Frame<'f, G>` does not require `G: Game` (nor does
/// `Action<W>`), so it holds the scratch as `dyn ScratchSlot<'f, G>`, and
/// [`Frame::scratch`](super::Frame::scratch), where `G: Game`, gets it
/// back with its type.
pub(super) trait ScratchSlot<'f, G> {
    fn get(&mut self) -> &mut G::Scratch<'f>
    where
        G: Game + 'f;
}

/// The one implementation: the scratch itself.
pub(super) struct Slot<'f, G: Game + 'f>(G::Scratch<'f>);

impl<'f, G: Game + 'f> Slot<'f, G> {
    pub(super) fn from_arena(arena: &'f FrameArena) -> Self {
        Slot(G::Scratch::from_arena(arena))
    }
}

impl<'f, G: Game + 'f> ScratchSlot<'f, G> for Slot<'f, G> {
    #[inline]
    fn get(&mut self) -> &mut G::Scratch<'f> {
        &mut self.0
    }
}

impl FromArena<'_> for () {
    fn from_arena(_: &FrameArena) -> Self {}
}

impl<'f, T> FromArena<'f> for Option<T> {
    fn from_arena(_: &'f FrameArena) -> Self {
        None
    }
}

impl<'f, T> FromArena<'f> for FrameVec<'f, T> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        Vec::new_in(arena)
    }
}

impl<'f> FromArena<'f> for FrameString<'f> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        FrameString::new_in(arena)
    }
}

impl<'f, T> FromArena<'f> for SegmentedList<T, &'f FrameArena> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        SegmentedList::new_in(arena)
    }
}

#[cfg(feature = "hashbrown")]
impl<'f, K, V, S: BuildHasher + Default> FromArena<'f> for FrameHashMap<'f, K, V, S> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        FrameHashMap::with_hasher_in(S::default(), arena)
    }
}

/// std's other allocator-aware collections, which take an allocator only
/// on nightly Rust (`allocator_ext`): with the `nightly` feature they can
/// be a game's scratch too.
#[cfg(feature = "nightly")]
mod nightly_collections {
    use std::collections::{BTreeMap, HashMap, VecDeque};

    use super::{BuildHasher, FrameArena, FromArena};

    impl<'f, T> FromArena<'f> for VecDeque<T, &'f FrameArena> {
        fn from_arena(arena: &'f FrameArena) -> Self {
            VecDeque::new_in(arena)
        }
    }

    impl<'f, K, V> FromArena<'f> for BTreeMap<K, V, &'f FrameArena> {
        fn from_arena(arena: &'f FrameArena) -> Self {
            BTreeMap::new_in(arena)
        }
    }

    impl<'f, K, V, S: BuildHasher + Default> FromArena<'f> for HashMap<K, V, S, &'f FrameArena> {
        fn from_arena(arena: &'f FrameArena) -> Self {
            HashMap::with_hasher_in(S::default(), arena)
        }
    }
}

/// `FromArena` for tuples of values that are each `FromArena`.
macro_rules! from_arena_tuple {
    ($($name:ident),+) => {
        impl<'f, $($name: FromArena<'f>),+> FromArena<'f> for ($($name,)+) {
            fn from_arena(arena: &'f FrameArena) -> Self {
                ($($name::from_arena(arena),)+)
            }
        }
    };
}
from_arena_tuple!(A);
from_arena_tuple!(A, B);
from_arena_tuple!(A, B, C);
from_arena_tuple!(A, B, C, D);
