//! [`DeserializeIn`] for the standard shapes and the arena's collections.
//! Every collection reserves at most [`CAUTIOUS_BYTES`] of the arena up
//! front (bytes taken, not elements believed), grows through the `try_`
//! path, and counts one level of the decode's depth (see `limits`), so
//! that neither a lying length prefix, a full arena nor deep nesting can
//! abort the process.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use ::serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use ::serde::{Deserialize, Deserializer};

#[cfg(feature = "hashbrown")]
use super::InArena;
use super::heap_free::HeapCause;
use super::{CAUTIOUS_BYTES, DeserializeIn, lend, limits};
use crate::arena::FrameArena;
use crate::frame_types::{FrameBox, FrameString, FrameVec};
use crate::segmented::SegmentedList;
use crate::string::String;

/// The error of `arena` that cannot hold `what`, or of the decode's byte
/// bound that `what` would pass; noted on the arena, for
/// [`arena_refused`](super::arena_refused) and
/// [`over_max_bytes`](super::over_max_bytes) (postcard drops the message).
#[cold]
#[inline(never)]
pub(super) fn exhausted<E: de::Error>(arena: &FrameArena, what: &str) -> E {
    crate::arena::refusal_handled();
    if limits::refused_by_bound(arena) {
        limits::over_bound(arena);
        return limits::too_many_bytes(arena, what);
    }
    limits::refused(arena);
    E::custom(format_args!(
        "the frame arena cannot hold the {what}: raise FrameArena::builder().reserve(bytes)"
    ))
}

/// Elements of `T` to reserve for a length hint of `hint` in one block (a
/// `Vec`'s) in `arena`: the hint, believed up to [`CAUTIOUS_BYTES`] of
/// the arena, the block's alignment padding included, and no further
/// than the running decode's byte bound has room for (a claim the bound
/// cannot hold is believed only that far; the list then grows as its
/// elements arrive, and the decode fails on the bound only if they pass
/// it).
#[inline]
pub(super) fn cautious<T>(arena: &FrameArena, hint: Option<usize>) -> usize {
    let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    let room = CAUTIOUS_BYTES - (align - 1).min(CAUTIOUS_BYTES);
    let room = room.min(arena.room_under_ceiling(align));
    let hint = hint.unwrap_or(0);
    if size == 0 {
        return hint.min(room);
    }
    // A hint the room holds is believed whole (the common case, a branch
    // rather than a conditional move); one it does not is cut to the
    // room, out of line.
    let fits = room / size;
    if hint <= fits {
        hint
    } else {
        cautious_cut(fits)
    }
}

/// [`cautious`]'s hint cut to the `fits` elements the room holds.
#[cold]
#[inline(never)]
fn cautious_cut(fits: usize) -> usize {
    fits
}

/// Bytes of `arena` a length hint is believed for up front in a
/// segmented list: [`CAUTIOUS_BYTES`], or less where the running
/// decode's byte bound has less room left (see [`cautious`]).
#[inline]
pub(super) fn cautious_bytes(arena: &FrameArena) -> usize {
    CAUTIOUS_BYTES.min(arena.room_under_ceiling(1))
}

/// The seed of a part of a value being read (an `Option`'s content, an
/// array's or a tuple's element, a heap `Vec`'s): `T::deserialize_in`,
/// in whatever decode reads the whole. An [`InArena`](super::InArena) seed would look
/// whether a decode is running first, a load and a branch on every number
/// of a `[f32; 3]`, which serde's own impls do not have.
pub(super) struct Part<'a, T>(&'a FrameArena, PhantomData<fn() -> T>);

impl<'a, T> Part<'a, T> {
    #[inline]
    pub(super) fn new(arena: &'a FrameArena) -> Self {
        Part(arena, PhantomData)
    }
}

impl<T> Clone for Part<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Part<'_, T> {}

impl<'de, 'a, T: DeserializeIn<'a>> DeserializeSeed<'de> for Part<'a, T> {
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.0, deserializer)
    }
}

/// Types whose values hold nothing in the arena: their own `Deserialize`.
macro_rules! by_their_own_deserialize {
    ($($ty:ty),* $(,)?) => {$(
        impl<'a> DeserializeIn<'a> for $ty {
            #[inline]
            fn deserialize_in<'de, D>(_: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
            where
                D: Deserializer<'de>,
            {
                <$ty as Deserialize<'de>>::deserialize(deserializer)
            }
        }
    )*};
}

by_their_own_deserialize!(
    bool,
    char,
    (),
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
);

/// `u8` by its own `Deserialize`, and the one element type whose slice,
/// `&'a [u8]`, reads bytes rather than a sequence: serde's `&'a [u8]`,
/// copied into the arena.
impl<'a> DeserializeIn<'a> for u8 {
    #[inline]
    fn deserialize_in<'de, D>(_: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        <u8 as Deserialize<'de>>::deserialize(deserializer)
    }

    #[inline]
    fn __deserialize_slice_in<'de, D>(
        arena: &'a FrameArena,
        deserializer: D,
    ) -> Result<&'a [u8], D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_bytes(BytesVisitor(arena))
    }
}

/// serde's `&'a [u8]` visitor (its expectation word for word), taking
/// what serde's takes only borrowed (bytes, or a string's bytes) however
/// the format hands it over, and copying it into the arena: a format
/// that cannot lend its input (a reader, JSON with escapes) still gives
/// the bytes. A sequence is refused, as serde refuses it: a sequence of
/// `u8` is a `FrameVec<'a, u8>`, as serde's `Vec<u8>`.
struct BytesVisitor<'a>(&'a FrameArena);

impl<'de, 'a> Visitor<'de> for BytesVisitor<'a> {
    type Value = &'a [u8];
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a borrowed byte array")
    }
    // `visit_borrowed_bytes` and `visit_byte_buf` come here (serde's
    // defaults).
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<&'a [u8], E> {
        let arena = self.0;
        match arena.try_alloc_slice_copy(bytes) {
            Ok(copy) => Ok(copy),
            Err(_) => Err(exhausted(arena, "bytes")),
        }
    }
    // And `visit_borrowed_str` and `visit_string` here.
    fn visit_str<E: de::Error>(self, text: &str) -> Result<&'a [u8], E> {
        self.visit_bytes(text.as_bytes())
    }
}

impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for Option<T> {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;
    const NESTS_ITSELF: bool = T::NESTS_ITSELF;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        struct OptionVisitor<'a, T>(Part<'a, T>);
        impl<'de, 'a, T: DeserializeIn<'a>> Visitor<'de> for OptionVisitor<'a, T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("option") // serde's, word for word
            }
            fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, some: D) -> Result<Option<T>, D::Error> {
                self.0.deserialize(some).map(Some)
            }
            // serde's hook for a flattened `Option` (`#[serde(flatten)]`):
            // `None` where the value does not read, as serde's own `Option`.
            fn __private_visit_untagged_option<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Option<T>, ()> {
                Ok(self.0.deserialize(deserializer).ok())
            }
        }
        deserializer.deserialize_option(OptionVisitor(Part::new(arena)))
    }
}

impl<'a, T: DeserializeIn<'a>, const N: usize> DeserializeIn<'a> for [T; N] {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        struct ArrayVisitor<'a, T, const N: usize>(Part<'a, T>);
        impl<'de, 'a, T: DeserializeIn<'a>, const N: usize> Visitor<'de> for ArrayVisitor<'a, T, N> {
            type Value = [T; N];
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // serde's messages, word for word.
                if N == 0 {
                    f.write_str("an empty array")
                } else {
                    write!(f, "an array of length {N}")
                }
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<[T; N], S::Error> {
                let mut items: [Option<T>; N] = [const { None }; N];
                for (index, item) in items.iter_mut().enumerate() {
                    *item = Some(
                        seq.next_element_seed(self.0)?
                            .ok_or_else(|| de::Error::invalid_length(index, &self))?,
                    );
                }
                Ok(items.map(|item| item.expect("every element was read")))
            }
        }
        deserializer.deserialize_tuple(N, ArrayVisitor::<T, N>(Part::new(arena)))
    }
}

macro_rules! tuples {
    ($($len:literal => ($($name:ident $index:tt)+))+) => {$(
        impl<'a, $($name: DeserializeIn<'a>),+> DeserializeIn<'a> for ($($name,)+) {
            const HEAP_FREE: bool = true $(&& $name::HEAP_FREE)+;
            // The first element's that is not heap free.
            const HEAP_CAUSE: HeapCause = {
                let mut cause = HeapCause::NONE;
                $(
                    if cause.is_none() && !$name::HEAP_FREE {
                        cause = $name::HEAP_CAUSE;
                    }
                )+
                cause
            };

            fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
            where
                D: Deserializer<'de>,
            {
                struct TupleVisitor<'a, $($name),+>(&'a FrameArena, PhantomData<fn() -> ($($name,)+)>);
                impl<'de, 'a, $($name: DeserializeIn<'a>),+> Visitor<'de> for TupleVisitor<'a, $($name),+> {
                    type Value = ($($name,)+);
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a tuple of size ", $len)) // serde's
                    }
                    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                        Ok(($(
                            seq.next_element_seed(Part::<$name>::new(self.0))?
                                .ok_or_else(|| de::Error::invalid_length($index, &self))?,
                        )+))
                    }
                }
                deserializer.deserialize_tuple($len, TupleVisitor(arena, PhantomData))
            }
        }
    )+};
}

tuples! {
    1 => (T0 0)
    2 => (T0 0 T1 1)
    3 => (T0 0 T1 1 T2 2)
    4 => (T0 0 T1 1 T2 2 T3 3)
    5 => (T0 0 T1 1 T2 2 T3 3 T4 4)
    6 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5)
    7 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6)
    8 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7)
    9 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8)
    10 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9)
    11 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10)
    12 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11)
}

/// A string from the input, as `&str`, in whichever way the format hands
/// it over (borrowed, transient, owned, or as bytes), copied into the
/// arena by `F`.
struct StrVisitor<'a, F>(&'a FrameArena, F);

impl<'de, R, F: FnOnce(&str) -> Result<R, &'static str>> Visitor<'de> for StrVisitor<'_, F> {
    type Value = R;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<R, E> {
        let arena = self.0;
        (self.1)(text).map_err(|what| exhausted(arena, what))
    }
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<R, E> {
        match core::str::from_utf8(bytes) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(de::Error::invalid_value(
                de::Unexpected::Bytes(bytes),
                &self,
            )),
        }
    }
}

impl<'a> DeserializeIn<'a> for &'a str {
    const HEAP_FREE: bool = true;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        // Text a buffer of this arena holds is lent, not copied again
        // (`lend.rs`).
        lend::asking(arena, lend::STR, || {
            deserializer.deserialize_str(ArenaStrVisitor(arena))
        })
    }
}

/// Text copied into `arena`, as a `&'a str`.
fn copy_str<'a>(arena: &'a FrameArena) -> impl FnOnce(&str) -> Result<&'a str, &'static str> {
    |text| arena.try_alloc_str(text).map(|s| &*s).map_err(|_| "string")
}

/// `&'a str`'s visitor: the text copied into the arena (as
/// [`StrVisitor`] copies it), or, at `visit_unit`, the text a buffer of
/// the arena lends (`lend.rs`).
pub(super) struct ArenaStrVisitor<'a>(&'a FrameArena);

impl<'de, 'a> Visitor<'de> for ArenaStrVisitor<'a> {
    type Value = &'a str;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<&'a str, E> {
        StrVisitor(self.0, copy_str(self.0)).visit_str(text)
    }
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<&'a str, E> {
        StrVisitor(self.0, copy_str(self.0)).visit_bytes(bytes)
    }
    fn visit_unit<E: de::Error>(self) -> Result<&'a str, E> {
        match lend::take_str(self.0) {
            Some(text) => Ok(text),
            None => Err(de::Error::invalid_type(de::Unexpected::Unit, &self)),
        }
    }
}

impl<'a> DeserializeIn<'a> for FrameString<'a> {
    const HEAP_FREE: bool = true; // in the arena

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        let copy = |text: &str| {
            let mut string = String::new_in(arena);
            string.try_push_str(text).map_err(|_| "string")?;
            Ok(string)
        };
        deserializer.deserialize_str(StrVisitor(arena, copy))
    }
}

/// A list in the arena that a sequence is read into: made with room for
/// the (cautious) hint, grown one element at a time through the `try_`
/// path. A trait rather than function values, so that each list's pushes
/// inline into the loop that reads its elements.
pub(super) trait ArenaList<'a, T>: Sized {
    /// A list with room for up to `hint` elements, taking at most
    /// [`CAUTIOUS_BYTES`] of the arena.
    fn with_room(arena: &'a FrameArena, hint: Option<usize>) -> Result<Self, ()>;
    /// Room for one more element.
    fn try_make_room(&mut self) -> Result<(), ()>;
    /// Pushes `item`, if it is one, into the room made for it.
    ///
    /// # Safety
    ///
    /// [`try_make_room`](Self::try_make_room) made room for one more
    /// element, and the list has not changed since.
    unsafe fn push_with_room<E>(&mut self, item: Result<T, E>) -> Result<(), E>;
}

impl<'a, T> ArenaList<'a, T> for FrameVec<'a, T> {
    #[inline]
    fn with_room(arena: &'a FrameArena, hint: Option<usize>) -> Result<Self, ()> {
        let room = cautious::<T>(arena, hint);
        // One bump, not `RawVec`'s out-of-line growth of an empty list;
        // where the arena cannot serve it at once, the growth asks again
        // and counts the refusal.
        if let Some(vec) = arena.try_vec_with_room(room) {
            return Ok(vec);
        }
        let mut vec = Vec::new_in(arena);
        if room > 0 {
            crate::reserve_error::handled(vec.try_reserve_exact(room)).map_err(|_| ())?;
        }
        Ok(vec)
    }

    #[inline]
    fn try_make_room(&mut self) -> Result<(), ()> {
        if self.len() == self.capacity() {
            grow(self)?;
        }
        Ok(())
    }

    // Writes the element into the room `try_make_room` made, with no
    // check of the room again and no growth (a call) to keep it across:
    // it goes from the slot its decode returned it in straight into the
    // list, and so no second copy of it sits in the frame of a recursive
    // message's every level.
    #[inline]
    unsafe fn push_with_room<E>(&mut self, item: Result<T, E>) -> Result<(), E> {
        let item = item?;
        let len = self.len();
        debug_assert!(len < self.capacity(), "room was made for the element");
        // SAFETY: the caller's promise: `try_make_room` left `len` under
        // the capacity, so slot `len` is allocated and uninitialised, and
        // the list now holds `len + 1` initialised elements.
        unsafe {
            self.as_mut_ptr().add(len).write(item);
            self.set_len(len + 1);
        }
        Ok(())
    }
}

/// Room for one more element in a full `vec`.
#[inline(never)]
fn grow<T>(vec: &mut FrameVec<'_, T>) -> Result<(), ()> {
    // A list of unknown length (JSON's) starts with room for 8, not std's
    // 4: one growth (a copy, its old buffer left behind in the arena)
    // fewer for the usual short lists.
    let additional = if vec.capacity() == 0 { 8 } else { 1 };
    crate::reserve_error::handled(vec.try_reserve(additional)).map_err(|_| ())
}

impl<'a, T> ArenaList<'a, T> for SegmentedList<T, &'a FrameArena> {
    #[inline]
    fn with_room(arena: &'a FrameArena, hint: Option<usize>) -> Result<Self, ()> {
        let mut list = SegmentedList::new_in(arena);
        list.try_reserve(cautious_segments::<T>(
            hint.unwrap_or(0),
            cautious_bytes(arena),
        ))
        .map_err(|_| ())?;
        Ok(list)
    }

    #[inline]
    fn try_make_room(&mut self) -> Result<(), ()> {
        if self.len() == self.capacity() {
            self.try_reserve(1).map_err(|_| ())?;
        }
        Ok(())
    }

    #[inline]
    unsafe fn push_with_room<E>(&mut self, item: Result<T, E>) -> Result<(), E> {
        self.push(item?);
        Ok(())
    }
}

/// Elements of `T` to reserve for a length hint of `hint` in a
/// `SegmentedList`: whole segments (8, 16, 32.. elements, each its own
/// block with its alignment padding) while they fit in [`CAUTIOUS_BYTES`].
fn cautious_segments<T>(hint: usize, bytes_believed: usize) -> usize {
    let (size, padding) = (core::mem::size_of::<T>(), core::mem::align_of::<T>() - 1);
    if size == 0 {
        return hint;
    }
    let (mut elements, mut bytes) = (0usize, 0usize);
    let mut segment = 8usize;
    while elements < hint {
        let more = segment.saturating_mul(size).saturating_add(padding);
        if bytes.saturating_add(more) > bytes_believed {
            break;
        }
        (elements, bytes, segment) = (elements + segment, bytes + more, segment * 2);
    }
    elements.min(hint)
}

/// Entries of `E` to reserve for a length hint of `hint` in a hashbrown
/// map, whose table is larger than its entries: a power of two of
/// buckets at least 8/7 of the entries, each with a control byte, and a
/// group of control bytes (16) more, aligned. Believed while that (at
/// twice the entries' share, for the power of two) fits in
/// [`CAUTIOUS_BYTES`]; a table under 8 buckets (4 or 8, whatever the
/// count) is never reserved for a hint.
#[cfg(feature = "hashbrown")]
fn cautious_map<E>(hint: usize, bytes: usize) -> usize {
    let bucket = core::mem::size_of::<E>() + 1;
    let fixed = 2 * 16 + core::mem::align_of::<E>();
    let entries = bytes.saturating_sub(fixed) * 7 / (16 * bucket);
    if entries < 8 { 0 } else { hint.min(entries) }
}

/// Reads a sequence of `T`s into a list `L` in the arena.
struct SeqVisitor<'a, T, L>(&'a FrameArena, PhantomData<fn() -> (T, L)>);

impl<'de, 'a, T: DeserializeIn<'a>, L: ArenaList<'a, T>> Visitor<'de> for SeqVisitor<'a, T, L> {
    type Value = L;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    // A recursive message's every level holds this frame across its
    // elements' decode, so it keeps little: the level and the list. The
    // rest is out of line (`with_room`, `exhausted`) or in the element's
    // seed (`PushTo`, which makes room before the element is decoded), and
    // `match`es stand for `?`, whose temporaries a debug build keeps, and
    // the list is built in the very `Result` this returns (rustc then
    // builds it in the caller's slot, with no copy of it beside).
    #[allow(clippy::question_mark)]
    #[inline]
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<L, S::Error> {
        let arena = self.0;
        let _level = match limits::enter::<S::Error>(arena) {
            Ok(level) => level,
            Err(error) => return Err(error),
        };
        let mut out = with_room::<T, L, S::Error>(arena, seq.size_hint());
        if let Ok(list) = &mut out {
            loop {
                match seq.next_element_seed(PushTo::<T, L>(arena, list, PhantomData)) {
                    Ok(Some(())) => {}
                    Ok(None) => break,
                    Err(error) => {
                        out = Err(error);
                        break;
                    }
                }
            }
        }
        out
    }
}

/// Reads a sequence of `T`s into a slice in the arena (`&'a [T]`): the
/// list frozen in the visitor, so that what goes back through the format
/// is the slice (two words, in registers), not the list's `Result`.
struct SliceVisitor<'a, T>(&'a FrameArena, PhantomData<fn() -> T>);

impl<'de, 'a, T: DeserializeIn<'a> + 'a> Visitor<'de> for SliceVisitor<'a, T> {
    type Value = &'a [T];
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    // The loop of `SeqVisitor::visit_seq`, with the list a local frozen
    // before the level closes: no `Result` of the list is built, matched
    // and moved across the level's drop (the slice's two words go back in
    // registers). Its elements need no drop (`&'a [T]` asserts it), so a
    // list left by an error only gives its block back.
    #[allow(clippy::question_mark)]
    #[inline]
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<&'a [T], S::Error> {
        let arena = self.0;
        let _level = match limits::enter::<S::Error>(arena) {
            Ok(level) => level,
            Err(error) => return Err(error),
        };
        // The list's `Result` with no error in it (its niche): the list
        // moves out of it whole, not byte by byte around a format's error.
        let mut vec = match room_made::<T, FrameVec<'a, T>>(arena, seq.size_hint()) {
            Ok(vec) => vec,
            Err(()) => return Err(exhausted(arena, "list")),
        };
        loop {
            match seq.next_element_seed(PushTo::<T, FrameVec<'a, T>>(arena, &mut vec, PhantomData))
            {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(error) => return Err(error),
            }
        }
        // Frozen: what the cautious reservation left unused goes back (in
        // place, when the list is the arena's newest allocation).
        vec.shrink_to_fit();
        Ok(vec.leak())
    }
}

/// A list with room for `hint` elements, or the error of an arena that
/// cannot hold it. Inlined into the loop that reads the elements, but for
/// a type that nests itself: a recursive message's every level runs that
/// loop, and what is inlined there (a `Result` of a reservation, its
/// error) takes stack on every level, while a call that has returned
/// takes none (a tree's level 32 bytes more in a release build; inlined
/// elsewhere, the snapshot's postcard decode runs 4 % fewer
/// instructions).
#[inline]
fn with_room<'a, T: DeserializeIn<'a>, L: ArenaList<'a, T>, E: de::Error>(
    arena: &'a FrameArena,
    hint: Option<usize>,
) -> Result<L, E> {
    match room_made::<T, L>(arena, hint) {
        Ok(list) => Ok(list),
        Err(()) => Err(exhausted(arena, "list")),
    }
}

/// [`with_room`] with the arena's refusal as `()`, for its caller to turn
/// into the format's error.
#[inline]
fn room_made<'a, T: DeserializeIn<'a>, L: ArenaList<'a, T>>(
    arena: &'a FrameArena,
    hint: Option<usize>,
) -> Result<L, ()> {
    if T::NESTS_ITSELF {
        with_room_out_of_line::<T, L>(arena, hint)
    } else {
        L::with_room(arena, hint)
    }
}

/// [`ArenaList::with_room`], out of line (see [`with_room`]).
#[inline(never)]
pub(super) fn with_room_out_of_line<'a, T, L: ArenaList<'a, T>>(
    arena: &'a FrameArena,
    hint: Option<usize>,
) -> Result<L, ()> {
    L::with_room(arena, hint)
}

/// The seed of one element of a list, that makes room for it (a format
/// calls it only for an element that is there), decodes it and pushes it.
struct PushTo<'a, 'l, T, L>(&'a FrameArena, &'l mut L, PhantomData<fn() -> T>);

impl<'de, 'a, T: DeserializeIn<'a>, L: ArenaList<'a, T>> DeserializeSeed<'de>
    for PushTo<'a, '_, T, L>
{
    type Value = ();
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // The list's level is open, so an `InArena` seed would find a
        // decode running and call `deserialize_in` as this does.
        if let Err(()) = self.1.try_make_room() {
            return Err(exhausted(self.0, "list"));
        }
        // The list is borrowed by this seed alone, so the element's decode
        // cannot reach it; nor can the arena move or free its block: through
        // `&FrameArena` it frees or moves only blocks their owners give back
        // or grow (in place, the newest), everything the element allocates
        // is newer than the list, and scopes, `reset` and `reclaim` need the
        // arena `&mut`.
        // SAFETY: room was made just above, and the list is unchanged since.
        unsafe {
            self.1
                .push_with_room(T::deserialize_in(self.0, deserializer))
        }
    }
}

impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for FrameVec<'a, T> {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_seq(SeqVisitor::<T, Self>(arena, PhantomData))
    }
}

impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for &'a [T] {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        // A slice in the arena is never dropped: elements that need it (a
        // heap `String`, an arena list) would leak. Refused when the
        // caller's type is compiled, naming it ("while instantiating").
        const {
            assert!(
                !core::mem::needs_drop::<T>(),
                "`&'a [T]` in a decode never drops its elements, and this `T` needs dropping \
                 (it holds a heap `String` or `Vec`, or an arena list): decode a \
                 `FrameVec<'a, T>`, which drops them"
            );
        }
        // A sequence of `T`s, or bytes for `u8` (serde's `&'a [u8]`).
        T::__deserialize_slice_in(arena, deserializer)
    }
}

/// A sequence of `T`s, as a slice in the arena: what `&'a [T]` reads for
/// every `T` but `u8`.
#[inline]
pub(super) fn slice_of_sequence<'a, 'de, T, D>(
    arena: &'a FrameArena,
    deserializer: D,
) -> Result<&'a [T], D::Error>
where
    T: DeserializeIn<'a>,
    D: Deserializer<'de>,
{
    deserializer.deserialize_seq(SliceVisitor::<T>(arena, PhantomData))
}

impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for FrameBox<'a, T> {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;
    const NESTS_ITSELF: bool = T::NESTS_ITSELF;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        let _level = limits::enter::<D::Error>(arena)?;
        let value = T::deserialize_in(arena, deserializer)?;
        arena
            .try_boxed(value)
            .map_err(|_| exhausted::<D::Error>(arena, "box"))
    }
}

impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for SegmentedList<T, &'a FrameArena> {
    const HEAP_FREE: bool = T::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = T::HEAP_CAUSE;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_seq(SeqVisitor::<T, Self>(arena, PhantomData))
    }
}

/// A heap `Box` of a `DeserializeIn` type (serde's `Box<T>`: the value,
/// boxed), so that a recursive type without the arena's lifetime
/// (`App(Box<Exp>, Box<Exp>)`) composes as under serde's derive, its
/// inner type deriving only `DeserializeIn`. A `Box` of a type with only
/// serde's `Deserialize` (`Box<str>`, `Box<String>`) is read by serde's.
/// The value is on the heap: not heap free.
impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for alloc::boxed::Box<T> {
    const HEAP_FREE: bool = false;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        let _level = limits::enter::<D::Error>(arena)?;
        T::deserialize_in(arena, deserializer).map(alloc::boxed::Box::new)
    }
}

/// A heap `Vec` of a `DeserializeIn` type (serde's `Vec<T>`: a sequence,
/// room for a length hint believed up to 1 MiB, as serde's "cautious"
/// hint), for the same reason as `Box<T>`: a `Vec<Pos>` in a type
/// without the arena's lifetime composes. Its elements' arena data go to
/// the arena, the list to the heap (bounded by what arrives, as under
/// serde's derive): not heap free.
impl<'a, T: DeserializeIn<'a>> DeserializeIn<'a> for Vec<T> {
    const HEAP_FREE: bool = false;

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        struct HeapSeqVisitor<'a, T>(Part<'a, T>);
        impl<'de, 'a, T: DeserializeIn<'a>> Visitor<'de> for HeapSeqVisitor<'a, T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence") // serde's
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
                let _level = limits::enter::<S::Error>(self.0.0)?;
                // serde's `size_hint::cautious`: at most 1 MiB up front.
                let room = (1 << 20) / core::mem::size_of::<T>().max(1);
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(room));
                while let Some(item) = seq.next_element_seed(self.0)? {
                    out.push(item);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_seq(HeapSeqVisitor(Part::new(arena)))
    }
}

#[cfg(feature = "hashbrown")]
impl<'a, K, V> DeserializeIn<'a> for crate::FrameHashMap<'a, K, V>
where
    K: DeserializeIn<'a> + Eq + core::hash::Hash,
    V: DeserializeIn<'a>,
{
    const HEAP_FREE: bool = K::HEAP_FREE && V::HEAP_FREE;
    const HEAP_CAUSE: HeapCause = if K::HEAP_FREE {
        V::HEAP_CAUSE
    } else {
        K::HEAP_CAUSE
    };

    #[inline]
    fn deserialize_in<'de, D>(arena: &'a FrameArena, deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        struct MapVisitor<'a, K, V>(&'a FrameArena, PhantomData<fn() -> (K, V)>);
        impl<'de, 'a, K, V> Visitor<'de> for MapVisitor<'a, K, V>
        where
            K: DeserializeIn<'a> + Eq + core::hash::Hash,
            V: DeserializeIn<'a>,
        {
            type Value = crate::FrameHashMap<'a, K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<M: de::MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let arena = self.0;
                let _level = limits::enter::<M::Error>(arena)?;
                let mut out = crate::FrameHashMap::new_in(arena);
                // hashbrown's `insert` aborts when its allocator refuses:
                // every growth goes through `try_reserve` first.
                // The table for the hint, believed up to `CAUTIOUS_BYTES`,
                // is tried rather than measured against the byte bound's
                // room: its size is estimated at its worst (twice the
                // entries' share, for the power of two of buckets), and a
                // table that fits a tight bound must be reserved whole
                // (grown from empty, each smaller table stays behind, past
                // the bound). One the bound or the arena refuses leaves the
                // map to grow as its entries arrive.
                let hint = map.size_hint().unwrap_or(0);
                if out
                    .try_reserve(cautious_map::<(K, V)>(hint, CAUTIOUS_BYTES))
                    .is_err()
                {
                    crate::arena::refusal_handled();
                }
                while let Some((key, value)) =
                    map.next_entry_seed(InArena::<K>::new(arena), InArena::<V>::new(arena))?
                {
                    out.try_reserve(1)
                        .map_err(|_| exhausted::<M::Error>(arena, "map"))?;
                    out.insert(key, value);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_map(MapVisitor(arena, PhantomData))
    }
}
