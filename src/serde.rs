//! serde in the frame arena (feature `serde`): decode a packet with every
//! string and list inside it into the tick's [`FrameArena`], with no heap
//! allocation, and drop it with the frame. See
//! [`guide::serde`](crate::guide::serde).
//!
//! - [`DeserializeIn<'a>`]: types that deserialize with their nested data
//!   in a `&'a FrameArena`: primitives, `char`, `bool`, arrays, tuples,
//!   `Option`, `&'a str` and `&'a [T]` (copied into the arena; `&'a [u8]`
//!   is bytes, as serde's), [`FrameString`], [`FrameVec`], [`FrameBox`],
//!   [`SegmentedList`] in the arena and
//!   [`FrameHashMap`](crate::FrameHashMap), a heap `Vec` or `Box` of
//!   them, and with the `derive` feature, your structs and enums
//!   (`#[derive(DeserializeIn)]`), which compose with or without a
//!   lifetime.
//! - [`InArena`]: serde's `DeserializeSeed` for any of them, what a format's
//!   deserializer takes.
//! - Serializing: [`String`](crate::String) and [`SegmentedList`] implement
//!   `Serialize`; arena `Vec` and `Box` fields serialize through
//!   [`vec`](mod@vec) and [`boxed`] (`#[serde(with = "tickarena::serde::vec")]`),
//!   since Rust's orphan rule keeps this crate from implementing serde's
//!   trait for std's `Vec<T, A>`.
//!
//! Bad input is the format's error, never an abort: a length prefix is
//! trusted for at most [`CAUTIOUS_BYTES`] of the arena up front (the rest
//! grows as elements arrive), lists, maps and boxes nest at most
//! [`DEFAULT_MAX_DEPTH`] levels deep and [`DEFAULT_MAX_STACK`] bytes of
//! stack, one decode takes at most [`DEFAULT_MAX_BYTES`] of the arena
//! ([`InArena::max_depth`], [`InArena::max_stack`] and
//! [`InArena::max_bytes`] to change them), and a decode that would
//! exhaust the arena is an error through the arena's `try_` path, which
//! [`arena_refused`] tells from bad input whatever the format ([`over_max_bytes`]
//! and [`too_deep`] tell the bounds' refusals). The limits reach every arena type; a field read
//! by its own `serde::Deserialize` (a heap type) is that type's to bound,
//! as under serde's derive.
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

mod content;
mod content_de;
mod default_in;
mod flatten;
mod heap_free;
mod identifier;
mod impls;
mod lend;
mod limits;
mod missing;
mod ser;
mod tagged;

use core::fmt;
use core::marker::PhantomData;

use ::serde::Deserializer;
use ::serde::de::{self, DeserializeSeed};

use crate::arena::FrameArena;

pub use default_in::DefaultIn;
pub use ser::{boxed, vec};

#[cfg(doc)]
use crate::{FrameBox, FrameString, FrameVec, SegmentedList};

/// Room taken from the arena up front for one sequence or map, at most,
/// in bytes: a format that believes a length prefix from the wire, or a
/// size hint, may claim 2^40 elements; the claim is believed only this
/// far (as serde's own "cautious" size hint does), in bytes the arena
/// actually gives (a map's whole table, a segmented list's whole
/// segments, alignment padding), and a list grows past it only as its
/// elements actually arrive.
///
/// # Example
///
/// A format that believes its length (here serde's own
/// `SeqDeserializer`, over an iterator that claims 2^40 `u64`s and gives
/// three) would have the list reserve 8 TiB; the arena gives it at most
/// `CAUTIOUS_BYTES`, whatever the container:
///
/// ```
/// use serde::de::DeserializeSeed;
/// use serde::de::value::{Error, SeqDeserializer};
/// use tickarena::serde::{CAUTIOUS_BYTES, InArena};
/// use tickarena::{FrameArena, FrameVec, SegmentedList};
///
/// struct Liar(std::ops::Range<u64>); // three items, "2^40" by its size hint
/// impl Iterator for Liar {
///     type Item = u64;
///     fn next(&mut self) -> Option<u64> { self.0.next() }
///     fn size_hint(&self) -> (usize, Option<usize>) { (1 << 40, Some(1 << 40)) }
/// }
///
/// let arena = FrameArena::new();
/// let input = SeqDeserializer::<_, Error>::new(Liar(0..3));
/// let list: FrameVec<'_, u64> = InArena::new(&arena).deserialize(input).unwrap();
/// assert_eq!(list, [0, 1, 2]);
/// assert!(arena.peak() <= CAUTIOUS_BYTES, "believed no further");
///
/// let arena = FrameArena::new();
/// let input = SeqDeserializer::<_, Error>::new(Liar(0..3));
/// let list: SegmentedList<u64, _> = InArena::new(&arena).deserialize(input).unwrap();
/// assert_eq!(list.len(), 3);
/// assert!(arena.peak() <= CAUTIOUS_BYTES);
/// ```
pub const CAUTIOUS_BYTES: usize = 64 << 10;

/// How deeply lists, maps and boxes may nest inside each other in one
/// decode, unless [`InArena::max_depth`] says otherwise: serde_json's own
/// default. A recursive message (a macro of commands, a tree) nested
/// deeper is the format's error, not a stack overflow: a level of one took
/// 128 to 304 bytes of stack in a release build and 1.0 to 1.9 KiB in a
/// debug build (see [`guide::serde`](crate::guide::serde)), so 128 of them
/// fit a 2 MiB thread's stack with room to spare; for types whose levels
/// are larger, [`DEFAULT_MAX_STACK`] holds.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{DEFAULT_MAX_DEPTH, InArena};
/// use tickarena::{FrameArena, FrameVec};
///
/// type Nested<'a> = FrameVec<'a, FrameVec<'a, u8>>; // two levels
/// let arena = FrameArena::new();
/// let mut input = serde_json::Deserializer::from_str("[[1], [2, 3]]");
/// assert!(InArena::<Nested<'_>>::new(&arena).deserialize(&mut input).is_ok());
/// assert_eq!(DEFAULT_MAX_DEPTH, 128);
/// ```
pub const DEFAULT_MAX_DEPTH: u32 = 128;

/// How many bytes of stack the lists, maps and boxes of one decode may
/// take inside each other, unless [`InArena::max_stack`] says otherwise:
/// half of the smallest stack a program commonly runs on (1 MiB: the main
/// thread's on Windows, the whole stack on wasm32). The level count
/// ([`DEFAULT_MAX_DEPTH`]) is what a message meets first; this bound
/// holds where each level is large (a type with kilobytes inline takes
/// tens of kilobytes of stack a level in a debug build, and 128 such
/// levels would overflow a 2 MiB thread). Past it, the decode is the
/// format's error. Measured from where the outermost level opened: the
/// stack the caller had taken before is its own.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{DEFAULT_MAX_STACK, InArena};
/// use tickarena::{FrameArena, FrameVec};
///
/// /// A level of 4 KiB inline.
/// #[derive(tickarena::DeserializeIn)]
/// struct Big<'a> {
///     pad: [[u64; 32]; 16],
///     kids: FrameVec<'a, Big<'a>>,
/// }
/// # if cfg!(miri) { return; } // Miri's stack addresses are not a machine's
/// // Big nested 100 deep, in postcard: 512 bytes of zeros, then one child, a level.
/// let mut packet = Vec::new();
/// for level in 0..100 {
///     packet.extend([0u8; 512]);
///     packet.push(u8::from(level < 99));
/// }
/// let arena = FrameArena::new();
/// let seed = InArena::<Big<'_>>::new(&arena).max_depth(1000);
/// let deep = seed.deserialize(&mut postcard::Deserializer::from_bytes(&packet));
/// assert!(deep.is_err(), "100 levels of 4 KiB take more than 400 KiB of stack");
/// assert_eq!(DEFAULT_MAX_STACK, 512 << 10);
/// ```
pub const DEFAULT_MAX_STACK: usize = 512 << 10;

/// How many bytes of the arena one decode may take where the seed does not
/// know the input's length ([`InArena::new`], no bound set by hand):
/// 64 KiB. Past it, the decode is the format's error, and a decode that
/// fails leaves at most this much behind in the frame (its bytes stay
/// until the frame ends). With the defaults, no datagram, whatever it
/// claims or nests, leaves more than 64 KiB in the tick (a 1 200-byte
/// datagram of nested length claims can leave 1 048 571 bytes under a
/// bound of 1 MiB). The bound is on memory, not time: see
/// [`guide::serde`](crate::guide::serde), "A bound per packet", for
/// untagged enums nested in themselves.
///
/// Where the caller holds the input's bytes (a datagram, a file), give the
/// seed their length with [`InArena::for_input`]: the bound is then 32
/// bytes of the arena per input byte plus 16 KiB, so a packet costs the
/// tick at most a small multiple of what it weighs whatever its shape (a
/// 1 200-byte datagram at most 54 784 bytes), and a message larger than
/// this bound allows (a 100 KB snapshot, a level file) still decodes. See
/// [`guide::serde`](crate::guide::serde), "A bound per packet", for the
/// figures.
///
/// A wire byte can stand for a whole value (a unit variant of a 40-byte
/// enum, a `None`, an empty list): a message of such values takes up to
/// `size_of` its element per byte, past either bound; [`InArena::max_bytes`]
/// sets the bound itself.
///
/// The bound is the decode's that a seed starts: calling
/// [`DeserializeIn::deserialize_in`] directly starts none (it runs under
/// the bound of a decode already running, or under none). Untrusted input
/// goes through [`InArena`].
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{DEFAULT_MAX_BYTES, InArena};
/// use tickarena::FrameArena;
///
/// // 128 KiB of text, in a 64 MiB arena: the arena has room, the decode's bound does not.
/// let arena = FrameArena::new();
/// let json = format!("{:?}", "x".repeat(128 << 10));
/// let before = arena.used();
/// let error = InArena::<&str>::new(&arena)
///     .deserialize(&mut serde_json::Deserializer::from_str(&json))
///     .unwrap_err();
/// assert!(error.to_string().contains("more than 65536 bytes of the arena"));
/// assert!(arena.used() - before <= DEFAULT_MAX_BYTES, "it left at most the bound behind");
/// assert_eq!(DEFAULT_MAX_BYTES, 64 << 10);
///
/// // The same text, bounded by its own length: it decodes.
/// let seed = InArena::<&str>::new(&arena).for_input(json.len());
/// let text = seed.deserialize(&mut serde_json::Deserializer::from_str(&json)).unwrap();
/// assert_eq!(text.len(), 128 << 10);
/// ```
pub const DEFAULT_MAX_BYTES: usize = 64 << 10;

/// Arena bytes a decode bounded by its input's length
/// ([`InArena::for_input`]) may take per input byte.
const MAX_BYTES_PER_INPUT_BYTE: usize = 32;

/// Arena bytes a decode bounded by its input's length may take whatever
/// the length: a few short messages' worth of lists' first room and
/// alignment.
const MAX_BYTES_FLOOR: usize = 16 << 10;

/// Whether the last decode that an [`InArena`] seed started in `arena`
/// failed on its byte bound ([`InArena::max_bytes`]): the input would
/// have taken more of the arena than the decode may, whatever the
/// arena's room (a length bomb, or a message larger than the bound
/// allows). Formats that keep only their own error kinds (postcard's
/// `SerdeDeCustom`) cannot say which; this can, like [`arena_refused`]
/// (which is false then: the arena had room).
///
/// False after a decode that succeeded or failed otherwise; it stays as
/// the last decode left it until the next one starts.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{InArena, arena_refused, over_max_bytes};
/// use tickarena::{FrameArena, FrameVec};
///
/// let arena = FrameArena::new();
/// let bytes = postcard::to_allocvec(&vec![7u64; 1000]).unwrap(); // 8000 bytes decoded
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// let seed = InArena::<FrameVec<'_, u64>>::new(&arena).max_bytes(4096);
/// assert_eq!(seed.deserialize(&mut input).unwrap_err(), postcard::Error::SerdeDeCustom);
/// assert!(over_max_bytes(&arena) && !arena_refused(&arena));
///
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// let list = InArena::<FrameVec<'_, u64>>::new(&arena).deserialize(&mut input).unwrap();
/// assert_eq!(list.len(), 1000);
/// assert!(!over_max_bytes(&arena));
/// ```
pub fn over_max_bytes(arena: &FrameArena) -> bool {
    limits::was_over_bound(arena)
}

/// Whether the last decode that an [`InArena`] seed started in `arena`
/// failed on its depth or stack bound ([`InArena::max_depth`],
/// [`InArena::max_stack`]): the input nests lists, maps and boxes deeper
/// than the decode allows. Formats that keep only their own error kinds
/// (postcard, whose error for it reads as any other custom error) cannot
/// say which; this can, like [`over_max_bytes`] and [`arena_refused`], so
/// a server can count each kind of refusal.
///
/// False after a decode that succeeded or failed otherwise; it stays as
/// the last decode left it until the next one starts.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{InArena, arena_refused, over_max_bytes, too_deep};
/// use tickarena::{FrameArena, FrameVec};
///
/// type Nested<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, u8>>>;
/// let arena = FrameArena::new();
/// let bytes = postcard::to_allocvec(&vec![vec![vec![1u8]]]).unwrap();
/// let seed = InArena::<Nested<'_>>::new(&arena).max_depth(2);
/// let error = seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes)).unwrap_err();
/// assert_eq!(error, postcard::Error::SerdeDeCustom); // says nothing more
/// assert!(too_deep(&arena) && !over_max_bytes(&arena) && !arena_refused(&arena));
///
/// let seed = InArena::<Nested<'_>>::new(&arena);
/// assert!(seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes)).is_ok());
/// assert!(!too_deep(&arena));
/// ```
pub fn too_deep(arena: &FrameArena) -> bool {
    limits::was_too_deep(arena)
}

/// The format's error for an allocation that `arena` refused inside a
/// hand-written [`DeserializeIn`] (a `try_reserve` that failed): that the
/// decode's byte bound would be passed ([`InArena::max_bytes`]; then
/// [`over_max_bytes`] is true), or that the arena is full (then
/// [`arena_refused`] is); `what` names what was being decoded. The
/// derive's code and the arena's own containers use it.
///
/// # Example
///
/// ```
/// use serde::de::{DeserializeSeed, Deserializer};
/// use tickarena::serde::{DeserializeIn, InArena, arena_refused, refusal_error};
/// use tickarena::{FrameArena, FrameVec};
///
/// struct Room<'a>(FrameVec<'a, u8>);
/// impl<'a> DeserializeIn<'a> for Room<'a> {
///     fn deserialize_in<'de, D: Deserializer<'de>>(arena: &'a FrameArena, _: D) -> Result<Self, D::Error> {
///         let mut room = FrameVec::new_in(arena);
///         room.try_reserve(1 << 20).map_err(|_| refusal_error(arena, "room"))?;
///         Ok(Room(room))
///     }
/// }
/// let small = FrameArena::builder().reserve(64 << 10).build().unwrap();
/// let error = InArena::<Room<'_>>::new(&small)
///     .deserialize(&mut serde_json::Deserializer::from_str("0"))
///     .err()
///     .unwrap();
/// assert!(error.to_string().contains("cannot hold the room"), "{error}");
/// assert!(arena_refused(&small));
/// ```
pub fn refusal_error<E: de::Error>(arena: &FrameArena, what: &str) -> E {
    impls::exhausted(arena, what)
}

/// Whether `arena` could not hold the last decode that an [`InArena`] seed
/// started in it: the error the decode returned means "the arena is full"
/// (raise `FrameArena::builder().reserve(bytes)`, or decode less per
/// frame), not "the input is bad". Formats that keep only their own error
/// kinds (postcard's `SerdeDeCustom`) cannot say which; this can, whatever
/// the format.
///
/// False after a decode that succeeded or failed on its input; it stays
/// as the last decode left it until the next one starts.
///
/// # Example
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::{InArena, arena_refused};
/// use tickarena::FrameArena;
///
/// let small = FrameArena::builder().reserve(4096).build().unwrap();
/// let bytes = postcard::to_allocvec(&"x".repeat(10_000)).unwrap();
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// let error = InArena::<&str>::new(&small).deserialize(&mut input).unwrap_err();
/// assert_eq!(error, postcard::Error::SerdeDeCustom); // says nothing more
/// assert!(arena_refused(&small), "but the arena knows");
///
/// let mut junk = postcard::Deserializer::from_bytes(&[0xFF]);
/// assert!(InArena::<&str>::new(&small).deserialize(&mut junk).is_err());
/// assert!(!arena_refused(&small), "bad input, not a full arena");
/// ```
pub fn arena_refused(arena: &FrameArena) -> bool {
    limits::was_refused(arena)
}

/// Types that deserialize with their nested data (strings, lists, boxes)
/// in a `&'a FrameArena`: a packet decoded into the tick's arena and
/// dropped with it. Deserialize one with [`InArena`].
///
/// Implemented for primitives, `char`, `bool`, `()`, arrays, tuples (up to
/// 12), `Option`, `&'a str` and `&'a [T]` (copied into the arena),
/// [`FrameString<'a>`], [`FrameVec<'a, T>`], [`FrameBox<'a, T>`],
/// `SegmentedList<T, &'a FrameArena>`, `FrameHashMap<'a, K, V>`, and a
/// heap `Vec<T>` and `Box<T>` (serde's, their elements' arena data in the
/// arena); each `T` is itself `DeserializeIn<'a>`. With the `derive`
/// feature, `#[derive(DeserializeIn)]` implements it for your structs and
/// enums (see [`guide::serde`](crate::guide::serde) for what it accepts).
///
/// Each reads what serde's own impl of the same shape reads. `&'a [T]`
/// is a sequence, except `&'a [u8]`, which is bytes (`deserialize_bytes`)
/// as serde's `&'a [u8]` is, copied into the arena where serde would
/// borrow them (and where it could not: JSON with escapes, a reader); a
/// sequence of `u8` is a `FrameVec<'a, u8>`, as serde's `Vec<u8>`:
///
/// ```
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::InArena;
/// use tickarena::{FrameArena, FrameVec};
///
/// let arena = FrameArena::new();
/// let read = |json: &str| {
///     let mut input = serde_json::Deserializer::from_str(json);
///     InArena::<&[u8]>::new(&arena).deserialize(&mut input).map_err(|e| e.to_string())
/// };
/// assert_eq!(read(r#""x\n""#), Ok(&b"x\n"[..]), "a string's bytes, unescaped");
/// let error = read("[120]").unwrap_err();
/// assert!(error.starts_with("invalid type: sequence, expected a borrowed byte array"));
///
/// let mut input = serde_json::Deserializer::from_str("[120]");
/// let list: FrameVec<'_, u8> = InArena::new(&arena).deserialize(&mut input).unwrap();
/// assert_eq!(list.leak(), b"x", "a sequence of `u8`, as a slice");
///
/// // postcard writes bytes and a sequence of `u8` alike: a length, the bytes.
/// let bytes = postcard::to_allocvec(&[0u8, 255][..]).unwrap();
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// assert_eq!(InArena::<&[u8]>::new(&arena).deserialize(&mut input).unwrap(), [0, 255]);
/// ```
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
///
/// # Implementing it by hand
///
/// While a decode runs, the arena refuses what would pass the decode's
/// byte bound ([`InArena::max_bytes`]), as a full arena refuses: an
/// infallible growth there (`Vec::push`, `extend`, `reserve` on a
/// [`FrameVec`]) ends the process, as std does for any refused
/// allocation, and an `alloc*` call panics. Code of a hand-written impl
/// grows with `try_reserve` and turns a refusal into the format's error
/// with [`refusal_error`], which says whether the bound or the arena
/// refused (and sets [`over_max_bytes`] or [`arena_refused`]):
///
/// ```
/// use serde::de::{Deserialize, DeserializeSeed, Deserializer};
/// use tickarena::serde::{DeserializeIn, InArena, over_max_bytes, refusal_error};
/// use tickarena::{FrameArena, FrameVec};
///
/// /// `n` on the wire, the numbers `0..n` in the arena.
/// struct Count<'a>(FrameVec<'a, u64>);
/// impl<'a> DeserializeIn<'a> for Count<'a> {
///     fn deserialize_in<'de, D: Deserializer<'de>>(arena: &'a FrameArena, d: D) -> Result<Self, D::Error> {
///         let n = u64::deserialize(d)?;
///         let mut list = FrameVec::new_in(arena);
///         for i in 0..n {
///             if list.try_reserve(1).is_err() {
///                 return Err(refusal_error(arena, "count"));
///             }
///             list.push(i); // room was made: cannot be refused
///         }
///         Ok(Count(list))
///     }
/// }
/// let arena = FrameArena::new();
/// let seed = InArena::<Count<'_>>::new(&arena).max_bytes(4096);
/// let error = seed.deserialize(&mut serde_json::Deserializer::from_str("100000")).err().unwrap();
/// assert!(error.to_string().contains("more than 4096 bytes of the arena"), "{error}");
/// assert!(over_max_bytes(&arena));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be deserialized into a frame arena",
    label = "`{Self}` is not `DeserializeIn<'a>`",
    note = "derive `DeserializeIn` for it too (`#[derive(tickarena::DeserializeIn)]`, its arena data borrowing one lifetime `'a`), or implement `tickarena::serde::DeserializeIn` by hand",
    note = "borrowed text or bytes (a `Cow`, a `Box<str>`) decode into the arena as `&'a str`, `FrameString<'a>`, `&'a [T]` or `FrameVec<'a, T>`"
)]
pub trait DeserializeIn<'a>: Sized {
    /// Whether a decoded value owns nothing on the heap: all its data is
    /// inline or in the arena. What `#[deserialize_in(no_heap)]` checks,
    /// on every field, through every type nested in it.
    ///
    /// True for primitives, `&'a str` and [`FrameString`]; an `Option`, a
    /// tuple, an array and the arena's containers have their elements'
    /// value; a derived type is heap free if all its fields are (a field
    /// read by its own `Deserialize` if it needs no dropping). The default,
    /// for a type implemented by hand, is that it needs no dropping
    /// (`!needs_drop::<Self>()`): a `String` or a `Vec` would be false.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::serde::DeserializeIn;
    /// use tickarena::{FrameBox, FrameVec};
    ///
    /// fn heap_free<'a, T: DeserializeIn<'a>>() -> bool {
    ///     T::HEAP_FREE
    /// }
    /// assert!(heap_free::<(u8, &str, FrameVec<'_, Option<[f32; 3]>>)>());
    /// assert!(heap_free::<FrameBox<'_, &str>>());
    /// #[derive(tickarena::DeserializeIn)]
    /// struct Chat<'a> {
    ///     to: &'a str,
    ///     text: String, // read by its own `Deserialize`, on the heap
    /// }
    /// assert!(!heap_free::<Chat<'_>>());
    /// assert!(!heap_free::<FrameVec<'_, Chat<'_>>>());
    /// ```
    const HEAP_FREE: bool = !core::mem::needs_drop::<Self>();

    /// Where a value that is not [`HEAP_FREE`](Self::HEAP_FREE) owns heap
    /// memory: the path to the field read by its own `Deserialize` that
    /// owns it, which `#[deserialize_in(no_heap)]` names. The derive and
    /// the arena's containers fill it in; not for hand-written impls.
    #[doc(hidden)]
    const HEAP_CAUSE: heap_free::HeapCause = heap_free::HeapCause::NONE;

    /// Whether a value may hold values of its own type (a tree, a boxed
    /// command), so that a message nests it level by level: its lists are
    /// then made out of line, for the stack each level takes. The derive
    /// says so for a type whose fields name it, and `Box` and `Option`
    /// pass it on; not for hand-written impls (whose levels the stack
    /// bound still measures).
    #[doc(hidden)]
    const NESTS_ITSELF: bool = false;

    /// Deserializes `Self` from `deserializer`, its nested data in `arena`.
    /// Called directly, it starts no decode: the depth and stack limits
    /// apply at their defaults, and the byte bound is that of a decode
    /// already running in `arena`, or none. Decode untrusted input through
    /// an [`InArena`] seed, which starts one with its limits.
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
    /// let list = <&[u16]>::deserialize_in(&arena, &mut input).unwrap();
    /// assert_eq!(list, [1, 2, 3]);
    /// ```
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>;

    /// A `&'a [Self]`, what `&'a [T]`'s `DeserializeIn` reads: a sequence
    /// of `Self`s copied into the arena, except for `u8`, whose slice reads
    /// bytes (`deserialize_bytes`), as serde's `&'a [u8]` does. A method of
    /// the element type because Rust has no specialization of `&'a [T]`
    /// for `u8`; not for hand-written impls.
    #[doc(hidden)]
    #[inline]
    fn __deserialize_slice_in<'de, D>(
        arena: &'a FrameArena,
        deserializer: D,
    ) -> Result<&'a [Self], D::Error>
    where
        D: Deserializer<'de>,
        Self: 'a,
    {
        impls::slice_of_sequence(arena, deserializer)
    }
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
    /// The decode's limits, if this seed starts it (see
    /// [`InArena::max_depth`], [`InArena::max_stack`],
    /// [`InArena::max_bytes`]).
    max_depth: u32,
    /// Bytes, at most 4 GiB: a `u32` (with `max_depth`) keeps the seed three
    /// words long, the byte bound one of them.
    max_stack: u32,
    /// Bytes of the arena (see [`InArena::max_bytes`]).
    max_bytes: usize,
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
            max_depth: DEFAULT_MAX_DEPTH,
            max_stack: DEFAULT_MAX_STACK as u32,
            max_bytes: DEFAULT_MAX_BYTES,
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

    /// The same seed, letting lists, maps and boxes nest `levels` deep
    /// inside each other in the decode it starts (default
    /// [`DEFAULT_MAX_DEPTH`]): deeper is the format's error. Raise it for a
    /// recursive message that nests deeper, on a stack that holds it (up to
    /// about 0.3 KiB a level in a release build, 2 KiB in a debug build,
    /// more for larger types); lower
    /// it for input you trust less. A seed inside a running decode (a
    /// field's, an element's) keeps that decode's limit.
    ///
    /// # Example
    ///
    /// ```
    /// use serde::de::DeserializeSeed;
    /// use tickarena::serde::InArena;
    /// use tickarena::{FrameArena, FrameVec};
    ///
    /// type Nested<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, u8>>>; // three levels
    /// let arena = FrameArena::new();
    /// let seed = InArena::<Nested<'_>>::new(&arena);
    /// let json = "[[[1]]]";
    /// let two = seed.max_depth(2).deserialize(&mut serde_json::Deserializer::from_str(json));
    /// assert!(two.unwrap_err().to_string().contains("nested deeper than 2 levels"));
    /// let three = seed.max_depth(3).deserialize(&mut serde_json::Deserializer::from_str(json));
    /// assert_eq!(three.unwrap()[0][0][0], 1);
    /// ```
    #[must_use]
    pub fn max_depth(self, levels: u32) -> Self {
        InArena {
            max_depth: levels,
            ..self
        }
    }

    /// The same seed, letting the lists, maps and boxes of the decode it
    /// starts take `bytes` of stack inside each other (default
    /// [`DEFAULT_MAX_STACK`]): more is the format's error. Raise it with
    /// [`max_depth`](Self::max_depth) for a recursive message of large
    /// levels, on a thread whose stack holds it. `usize::MAX` (or any
    /// `bytes` from 4 GiB up) switches the stack bound off, the depth bound
    /// still holding: for a decode whose stack something else guards
    /// (`serde_stacker`, which moves the decode to a fresh stack segment
    /// when the stack runs low). The stack is measured per segment: a
    /// level that finds the stack far from the previous level's (more than
    /// the bound and 64 KiB away) is on another segment, and counts from
    /// there. A
    /// seed inside a running decode keeps that decode's limit.
    ///
    /// # Example
    ///
    /// ```
    /// use serde::de::DeserializeSeed;
    /// use tickarena::serde::InArena;
    /// use tickarena::{FrameArena, FrameVec};
    ///
    /// # if cfg!(miri) { return; } // Miri's stack addresses are not a machine's
    /// type Nested<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, u8>>>;
    /// let arena = FrameArena::new();
    /// let json = "[[[1]]]";
    /// let tight = InArena::<Nested<'_>>::new(&arena).max_stack(0);
    /// let refused = tight.deserialize(&mut serde_json::Deserializer::from_str(json));
    /// assert!(refused.unwrap_err().to_string().contains("bytes of stack"));
    /// let roomy = InArena::<Nested<'_>>::new(&arena).max_stack(1 << 20);
    /// let nested = roomy.deserialize(&mut serde_json::Deserializer::from_str(json)).unwrap();
    /// assert_eq!(nested[0][0][0], 1);
    ///
    /// // No stack bound: the depth bound alone.
    /// let off = InArena::<Nested<'_>>::new(&arena).max_stack(usize::MAX).max_depth(2);
    /// let refused = off.deserialize(&mut serde_json::Deserializer::from_str(json));
    /// assert!(refused.unwrap_err().to_string().contains("deeper than 2 levels"));
    /// ```
    #[must_use]
    pub fn max_stack(self, bytes: usize) -> Self {
        InArena {
            max_stack: u32::try_from(bytes).unwrap_or(u32::MAX),
            ..self
        }
    }

    /// The same seed, letting the decode it starts take at most `bytes`
    /// of the arena (default [`DEFAULT_MAX_BYTES`]): every byte it
    /// allocates counts, alignment padding and a list's room left behind
    /// as it grows included (the arena's [`used`](FrameArena::used) rises
    /// by at most `bytes`). Past it, the decode is the format's error
    /// ("would take more than N bytes of the arena"; postcard keeps no
    /// message: [`over_max_bytes`] says so). The arena refuses the
    /// allocation itself, as it refuses one past its reservation, so a
    /// single reservation for a claimed length cannot pass it either.
    ///
    /// A decode that fails leaves its bytes in the arena until the frame
    /// ends, at most `bytes` of them: a server bounds what one hostile
    /// packet may cost the tick with it, at the size of its largest
    /// message's arena data. `usize::MAX` lifts the bound (the arena's
    /// reservation still holds). A seed inside a running decode keeps that
    /// decode's bound.
    ///
    /// # Example
    ///
    /// ```
    /// use serde::de::DeserializeSeed;
    /// use tickarena::serde::InArena;
    /// use tickarena::{FrameArena, FrameVec};
    ///
    /// let arena = FrameArena::new();
    /// // 602 bytes: a list that claims 1000 lists, then holds 300 of one number each.
    /// let mut bomb = vec![0xE8, 0x07];
    /// for _ in 0..300 {
    ///     bomb.extend([1, 7]);
    /// }
    /// let cost = |bound: usize| {
    ///     let before = arena.used();
    ///     let seed = InArena::<FrameVec<'_, FrameVec<'_, u64>>>::new(&arena).max_bytes(bound);
    ///     assert!(seed.deserialize(&mut postcard::Deserializer::from_bytes(&bomb)).is_err());
    ///     arena.used() - before
    /// };
    /// assert!(cost(usize::MAX) > 4096, "unbounded, the short packet left more than 4 KiB");
    /// assert!(cost(512) <= 512, "bounded, it cost at most its bound");
    ///
    /// let seed = InArena::<FrameVec<'_, FrameVec<'_, u64>>>::new(&arena).max_bytes(512);
    /// let good = postcard::to_allocvec(&vec![vec![1u64, 2], vec![3]]).unwrap();
    /// let lists = seed.deserialize(&mut postcard::Deserializer::from_bytes(&good)).unwrap();
    /// assert_eq!(lists[0][..], [1, 2]);
    /// ```
    #[must_use]
    pub fn max_bytes(self, bytes: usize) -> Self {
        InArena {
            max_bytes: bytes,
            ..self
        }
    }

    /// The same seed, its byte bound following the length of the input it
    /// decodes, `input_len` bytes: 32 bytes of the arena per input byte,
    /// plus 16 KiB (default without it: [`DEFAULT_MAX_BYTES`], 64 KiB). What a
    /// server passes for a datagram or a file whose bytes it holds: a
    /// packet then costs the tick at most a small multiple of what it
    /// weighs, whatever it claims or nests (a 1 200-byte datagram at most
    /// 54 784 bytes), and a large message (a 100 KB snapshot) still
    /// decodes. [`max_bytes`](Self::max_bytes) sets the bound itself; the
    /// later call wins.
    ///
    /// # Example
    ///
    /// ```
    /// use serde::de::DeserializeSeed;
    /// use tickarena::serde::InArena;
    /// use tickarena::{FrameArena, FrameVec};
    ///
    /// type Lists<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, u64>>>;
    /// // A 1 200-byte datagram whose every list claims the bytes left.
    /// let mut bomb = Vec::new();
    /// while bomb.len() < 1198 {
    ///     bomb.extend([0xAC, 0x09]); // 1 196, as a varint
    /// }
    /// let arena = FrameArena::new();
    /// let before = arena.used();
    /// let seed = InArena::<Lists<'_>>::new(&arena).for_input(bomb.len());
    /// assert!(seed.deserialize(&mut postcard::Deserializer::from_bytes(&bomb)).is_err());
    /// assert!(arena.used() - before <= 32 * 1198 + (16 << 10));
    ///
    /// let good = postcard::to_allocvec(&vec![vec![vec![7u64; 3]; 2]]).unwrap();
    /// let seed = InArena::<Lists<'_>>::new(&arena).for_input(good.len());
    /// let lists = seed.deserialize(&mut postcard::Deserializer::from_bytes(&good)).unwrap();
    /// assert_eq!(lists[0][1][..], [7, 7, 7]);
    /// ```
    #[must_use]
    pub fn for_input(self, input_len: usize) -> Self {
        InArena {
            max_bytes: input_len
                .saturating_mul(MAX_BYTES_PER_INPUT_BYTE)
                .saturating_add(MAX_BYTES_FLOOR),
            ..self
        }
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

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        if limits::running(self.arena) {
            // A field's or an element's seed (or an element of a list
            // decoded by `DeserializeIn` directly): the running decode's
            // limits.
            T::deserialize_in(self.arena, deserializer)
        } else {
            // The limits as arguments, not the seed: three fields are
            // passed through a stack slot, which every level of a
            // recursive decode's stack would keep.
            Self::start(
                self.arena,
                self.max_depth,
                self.max_stack,
                self.max_bytes,
                deserializer,
            )
        }
    }
}

impl<'a, T: DeserializeIn<'a>> InArena<'a, T> {
    /// Starts a decode with this seed's limits, for as long as `T` takes.
    #[inline(never)]
    fn start<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        max_depth: u32,
        max_stack: u32,
        max_bytes: usize,
        deserializer: D,
    ) -> Result<T, D::Error> {
        // `u32::MAX`: `max_stack(usize::MAX)`, the stack bound off.
        let max_stack = match max_stack {
            u32::MAX => usize::MAX,
            bytes => bytes as usize,
        };
        let _decode = limits::start(arena, max_depth, max_stack, max_bytes);
        let decoded = T::deserialize_in(arena, deserializer);
        if decoded.is_ok() {
            // A part that failed and was dropped (a nested seed's, an
            // untagged attempt's) does not make the decode a failed one.
            limits::succeeded(arena);
        }
        decoded
    }
}

/// What the derive's generated code names (not part of the API).
#[doc(hidden)]
pub mod __private {
    pub use super::content::{BufferSeed, Buffered, Content, ContentSeed};
    pub use super::content_de::{ContentDeserializer, error_of};
    pub use super::default_in::{DefaultProbe, ViaDefault, ViaDefaultIn};
    pub use super::flatten::{Collected, FlatMapDeserializer};
    pub use super::heap_free::{
        FieldHeap, FieldProbe, FieldSeed, HeapCause, HeapKind, ReadIn, ReadOwn, Recursion,
        ViaDeserialize, ViaDeserializeIn, field_heap, kind_field_heap, kind_of, no_heap_cause,
        own_field_heap,
    };
    pub use super::identifier::{unknown_field_bytes, unknown_variant_bytes};
    pub use super::missing::MissingField;
    pub use super::tagged::{
        AdjacentTagSeed, Discarded, InternallyTaggedUnitVisitor, TagContentOther,
        TagContentOtherSeed, TaggedContentVisitor, UntaggedUnitVisitor, refused_before,
        refused_error, refused_since,
    };
    pub use ::serde;
}
