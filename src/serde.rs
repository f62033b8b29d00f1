//! serde in the frame arena (feature `serde`): decode a packet with every
//! string and list inside it into the tick's [`FrameArena`], with no heap
//! allocation, and drop it with the frame. See
//! [`guide::serde`](crate::guide::serde).
//!
//! - [`DeserializeIn<'a>`]: types that deserialize with their nested data
//!   in a `&'a FrameArena`: primitives, `char`, `bool`, arrays, tuples,
//!   `Option`, `&'a str` and `&'a [T]` (copied into the arena),
//!   [`FrameString`], [`FrameVec`], [`FrameBox`], [`SegmentedList`] in the
//!   arena and [`FrameHashMap`](crate::FrameHashMap), and with the `derive`
//!   feature, your structs and enums (`#[derive(DeserializeIn)]`).
//! - [`InArena`]: serde's `DeserializeSeed` for any of them, what a format's
//!   deserializer takes.
//! - Serializing: [`String`](crate::String) and [`SegmentedList`] implement
//!   `Serialize`; arena `Vec` and `Box` fields serialize through
//!   [`vec`](mod@vec) and [`boxed`] (`#[serde(with = "tickarena::serde::vec")]`),
//!   since Rust's orphan rule keeps this crate from implementing serde's
//!   trait for std's `Vec<T, A>`.
//!
//! Bad input is the format's error, never an abort: a length prefix is
//! trusted for at most [`CAUTIOUS_BYTES`] of room up front (the rest grows
//! as elements arrive), and a decode that would exhaust the arena is an
//! error through the arena's `try_` path.
//!
//! # Example
//!
//! ```
//! use serde::de::DeserializeSeed;
//! use tickarena::serde::InArena;
//! use tickarena::{FrameArena, FrameVec};
//!
//! let arena = FrameArena::new();
//! let json = r#"[["ann", [1, 2]], ["bob", []]]"#;
//! let mut input = serde_json::Deserializer::from_str(json);
//! let players: FrameVec<'_, (&str, &[u32])> = InArena::new(&arena).deserialize(&mut input).unwrap();
//! assert_eq!(players[0], ("ann", &[1, 2][..]));
//! assert!(arena.used() > 0, "names and lists are in the arena");
//! ```

mod impls;
mod missing;
mod ser;

use core::fmt;
use core::marker::PhantomData;

use ::serde::Deserializer;
use ::serde::de::DeserializeSeed;

use crate::arena::FrameArena;

pub use ser::{boxed, vec};

#[cfg(doc)]
use crate::{FrameBox, FrameString, FrameVec, SegmentedList};

/// Room reserved up front for a sequence or map, at most: a length prefix
/// from the wire (postcard's, bincode's) may claim 2^40 elements; it is
/// believed only this far (as serde's own "cautious" size hint does), and
/// a list grows past it only as its elements actually arrive.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::{FrameArena, FrameVec};
/// use tickarena::serde::{CAUTIOUS_BYTES, InArena};
///
/// // A postcard list claiming 2^40 `u64`s, then three bytes.
/// let bomb = [0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 1, 2, 3];
/// let arena = FrameArena::new();
/// let mut input = postcard::Deserializer::from_bytes(&bomb);
/// let list: Result<FrameVec<'_, u64>, _> = InArena::new(&arena).deserialize(&mut input);
/// assert!(list.is_err());
/// assert!(arena.used() <= CAUTIOUS_BYTES, "believed no further");
/// ```
pub const CAUTIOUS_BYTES: usize = 64 << 10;

/// Types that deserialize with their nested data (strings, lists, boxes)
/// in a `&'a FrameArena`: a packet decoded into the tick's arena and
/// dropped with it. Deserialize one with [`InArena`].
///
/// Implemented for primitives, `char`, `bool`, `()`, arrays, tuples (up to
/// 12), `Option`, `&'a str` and `&'a [T]` (copied into the arena),
/// [`FrameString<'a>`], [`FrameVec<'a, T>`], [`FrameBox<'a, T>`],
/// `SegmentedList<T, &'a FrameArena>` and `FrameHashMap<'a, K, V>`; each
/// `T` is itself `DeserializeIn<'a>`. With the `derive` feature,
/// `#[derive(DeserializeIn)]` implements it for your structs and enums
/// (see [`guide::serde`](crate::guide::serde) for what it accepts).
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{DeserializeIn, InArena};
/// use tickarena::FrameArena;
///
/// // Any `DeserializeIn` type, from any format: here a name, from JSON.
/// fn decode<'a, T: DeserializeIn<'a>>(arena: &'a FrameArena, json: &str) -> T {
///     let mut input = serde_json::Deserializer::from_str(json);
///     InArena::new(arena).deserialize(&mut input).unwrap()
/// }
/// let arena = FrameArena::new();
/// let name: &str = decode(&arena, r#""ann""#);
/// assert_eq!(name, "ann");
/// ```
///
/// A type that is not `DeserializeIn` (a struct of yours inside a list, a
/// box or an `Option` of a derived type) is named in rustc's error with
/// what to do: derive `DeserializeIn` for it too.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be deserialized into a frame arena",
    label = "`{Self}` is not `DeserializeIn<'a>`",
    note = "derive `DeserializeIn` for it too (`#[derive(tickarena::DeserializeIn)]`, its arena data borrowing one lifetime `'a`), or implement `tickarena::serde::DeserializeIn` by hand"
)]
pub trait DeserializeIn<'a>: Sized {
    /// Deserializes `Self` from `deserializer`, its nested data in `arena`.
    ///
    /// # Errors
    ///
    /// The format's error: malformed or truncated input, a wrong type, an
    /// unknown variant, or an arena that cannot hold the data.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::serde::DeserializeIn;
    /// let arena = tickarena::FrameArena::new();
    /// let mut input = serde_json::Deserializer::from_str("[1, 2, 3]");
    /// let list = <&[u8]>::deserialize_in(&arena, &mut input).unwrap();
    /// assert_eq!(list, [1, 2, 3]);
    /// ```
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>;
}

/// serde's `DeserializeSeed` for a [`DeserializeIn`] type `T`, in an arena:
/// what a format's deserializer (postcard's, serde_json's) takes, and what
/// a `Visitor` hands to `next_element_seed` for an element.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::InArena;
/// use tickarena::{FrameArena, FrameString};
///
/// let arena = FrameArena::new();
/// let bytes = postcard::to_allocvec(&("hello", 7u32)).unwrap();
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// let (text, n): (FrameString<'_>, u32) = InArena::new(&arena).deserialize(&mut input).unwrap();
/// assert_eq!((text.as_str(), n), ("hello", 7));
/// ```
pub struct InArena<'a, T> {
    arena: &'a FrameArena,
    value: PhantomData<fn() -> T>,
}

impl<'a, T> InArena<'a, T> {
    /// The seed of a `T` in `arena`.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let seed = tickarena::serde::InArena::<&str>::new(&arena);
    /// # let _ = seed;
    /// ```
    pub fn new(arena: &'a FrameArena) -> Self {
        InArena {
            arena,
            value: PhantomData,
        }
    }

    /// The arena the value goes to.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let seed = tickarena::serde::InArena::<u8>::new(&arena);
    /// assert!(std::ptr::eq(seed.arena(), &arena));
    /// ```
    pub fn arena(&self) -> &'a FrameArena {
        self.arena
    }
}

impl<T> Clone for InArena<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for InArena<'_, T> {}

impl<T> fmt::Debug for InArena<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InArena")
            .field("type", &core::any::type_name::<T>())
            .finish()
    }
}

impl<'de, 'a, T: DeserializeIn<'a>> DeserializeSeed<'de> for InArena<'a, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.arena, deserializer)
    }
}

/// What the derive's generated code names (not part of the API).
#[doc(hidden)]
pub mod __private {
    pub use super::missing::MissingField;
    pub use ::serde;
}
