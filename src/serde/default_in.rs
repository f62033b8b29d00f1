//! [`DefaultIn`]: the empty value of an arena container, what
//! `#[serde(default)]` (and `skip_deserializing`) give a field of the
//! arena's lifetime whose type has no `Default` (a `FrameVec` cannot make
//! itself without an arena), and the probe the derive reaches it through.

use core::marker::PhantomData;

use crate::arena::FrameArena;
use crate::{FrameString, FrameVec, SegmentedList};

/// A value made in `arena` where serde's derive would take
/// `Default::default()`: what `#[derive(DeserializeIn)]` fills a missing
/// `#[serde(default)]` field (or a `skip_deserializing` one) of this type
/// with, for the arena's containers, which have no `Default`; and, on a
/// type marked `#[serde(default)]` whole, where its missing fields come
/// from (implement it by hand for a type holding arena containers). A
/// type with `Default` needs nothing of this.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{DefaultIn, InArena};
/// use tickarena::{DeserializeIn, FrameArena, FrameVec};
///
/// #[derive(DeserializeIn)]
/// struct Chat<'a> {
///     text: &'a str,
///     #[serde(default)]
///     mentions: FrameVec<'a, &'a str>,
/// }
///
/// let arena = FrameArena::new();
/// let mut json = serde_json::Deserializer::from_str(r#"{"text":"hi"}"#);
/// let chat: Chat<'_> = InArena::new(&arena).deserialize(&mut json).unwrap();
/// assert!(chat.mentions.is_empty());
/// assert!(FrameVec::<u8>::default_in(&arena).is_empty());
/// ```
pub trait DefaultIn<'a>: Sized {
    /// The value, in `arena` (the empty containers allocate nothing).
    fn default_in(arena: &'a FrameArena) -> Self;
}

impl<'a, T> DefaultIn<'a> for FrameVec<'a, T> {
    #[inline]
    fn default_in(arena: &'a FrameArena) -> Self {
        FrameVec::new_in(arena)
    }
}

impl<'a> DefaultIn<'a> for FrameString<'a> {
    #[inline]
    fn default_in(arena: &'a FrameArena) -> Self {
        FrameString::new_in(arena)
    }
}

impl<'a, T> DefaultIn<'a> for SegmentedList<T, &'a FrameArena> {
    #[inline]
    fn default_in(arena: &'a FrameArena) -> Self {
        SegmentedList::new_in(arena)
    }
}

#[cfg(feature = "hashbrown")]
impl<'a, K, V> DefaultIn<'a> for crate::FrameHashMap<'a, K, V> {
    #[inline]
    fn default_in(arena: &'a FrameArena) -> Self {
        crate::FrameHashMap::new_in(arena)
    }
}

/// How the derive picks a field's default: `(&&DefaultProbe::<T>::new())
/// .default_for(arena)` is [`DefaultIn`] where `T` has it, else `Default`
/// (method resolution tries the twice-borrowed receiver first).
#[doc(hidden)]
pub struct DefaultProbe<T>(PhantomData<fn() -> T>);

impl<T> DefaultProbe<T> {
    #[doc(hidden)]
    #[inline]
    pub const fn new() -> Self {
        DefaultProbe(PhantomData)
    }
}

/// The first choice: `T`'s [`DefaultIn`].
#[doc(hidden)]
pub trait ViaDefaultIn<'a, T> {
    fn default_for(&self, arena: &'a FrameArena) -> T;
}

impl<'a, T: DefaultIn<'a>> ViaDefaultIn<'a, T> for &DefaultProbe<T> {
    #[inline]
    fn default_for(&self, arena: &'a FrameArena) -> T {
        T::default_in(arena)
    }
}

/// The second: `T`'s `Default`.
#[doc(hidden)]
pub trait ViaDefault<'a, T> {
    fn default_for(&self, arena: &'a FrameArena) -> T;
}

impl<'a, T: Default> ViaDefault<'a, T> for DefaultProbe<T> {
    #[inline]
    fn default_for(&self, _arena: &'a FrameArena) -> T {
        T::default()
    }
}
