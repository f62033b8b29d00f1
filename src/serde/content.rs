//! [`Content`]: the input buffered in the arena, for the serde attributes
//! whose type is known only after part of the input is read (`tag = ".."`,
//! `tag` + `content`, `untagged`, `flatten`). serde's derive buffers it in
//! its own `Content` on the heap; the arena derive buffers the same values
//! in the frame arena (strings, bytes and lists as arena slices), so a
//! steady decode stays off the heap, and nothing in it needs dropping.
//!
//! Built by [`ContentSeed`], which counts each list, map, `Some` and
//! newtype as one level of the decode (its depth and stack limits, see
//! `limits`), believes a length hint only for [`CAUTIOUS_BYTES`], and
//! returns the arena's error when the arena cannot hold it. Read back by
//! `ContentDeserializer` (`content_de.rs`).
//!
//! Input already buffered is not buffered again: a `ContentSeed` given a
//! `ContentDeserializer` of a buffer in the same arena has the value lent
//! to it instead (`lend.rs`).

use core::fmt;

use ::serde::Deserializer;
use ::serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, Visitor};

use super::impls::{ArenaList, exhausted, with_room_out_of_line};
use super::{lend, limits};
use crate::arena::FrameArena;
use crate::frame_types::FrameVec;

#[cfg(doc)]
use super::CAUTIOUS_BYTES;

/// One value of the input, buffered in the arena: what serde's derive keeps
/// in its `Content`, the same variants, with strings and bytes copied into
/// the arena (serde's owned and borrowed kinds are one here), and nested
/// values as arena references. `Copy`, and never dropped.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Content<'a> {
    Bool(bool),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Char(char),
    Str(&'a str),
    Bytes(&'a [u8]),
    None,
    Some(&'a Content<'a>),
    Unit,
    Newtype(&'a Content<'a>),
    Seq(&'a [Content<'a>]),
    Map(&'a [(Content<'a>, Content<'a>)]),
}

impl<'a> Content<'a> {
    /// The key as text, if it is a string (or UTF-8 bytes): what a flattened
    /// field's key is matched by, as serde's `content_as_str`.
    #[doc(hidden)]
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            Content::Str(text) => Some(text),
            Content::Bytes(bytes) => core::str::from_utf8(bytes).ok(),
            _ => None,
        }
    }

    /// What an error says the input was, as serde's.
    #[cold]
    pub(super) fn unexpected(&self) -> Unexpected<'a> {
        match *self {
            Content::Bool(b) => Unexpected::Bool(b),
            Content::U8(n) => Unexpected::Unsigned(u64::from(n)),
            Content::U16(n) => Unexpected::Unsigned(u64::from(n)),
            Content::U32(n) => Unexpected::Unsigned(u64::from(n)),
            Content::U64(n) => Unexpected::Unsigned(n),
            Content::I8(n) => Unexpected::Signed(i64::from(n)),
            Content::I16(n) => Unexpected::Signed(i64::from(n)),
            Content::I32(n) => Unexpected::Signed(i64::from(n)),
            Content::I64(n) => Unexpected::Signed(n),
            Content::F32(f) => Unexpected::Float(f64::from(f)),
            Content::F64(f) => Unexpected::Float(f),
            Content::Char(c) => Unexpected::Char(c),
            Content::Str(s) => Unexpected::Str(s),
            Content::Bytes(b) => Unexpected::Bytes(b),
            Content::None | Content::Some(_) => Unexpected::Option,
            Content::Unit => Unexpected::Unit,
            Content::Newtype(_) => Unexpected::NewtypeStruct,
            Content::Seq(_) => Unexpected::Seq,
            Content::Map(_) => Unexpected::Map,
        }
    }
}

/// The seed (and visitor) that buffers any value of the input as a
/// [`Content`] in the arena: serde's `ContentVisitor`, in the arena.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ContentSeed<'a>(&'a FrameArena);

impl<'a> ContentSeed<'a> {
    #[doc(hidden)]
    #[inline]
    pub fn new(arena: &'a FrameArena) -> Self {
        ContentSeed(arena)
    }

    /// `content` moved into the arena, for a `Some` or a newtype.
    fn boxed<E: de::Error>(self, content: Content<'a>) -> Result<&'a Content<'a>, E> {
        match self.0.try_alloc(content) {
            Ok(content) => Ok(content),
            Err(_) => Err(exhausted(self.0, "buffered input")),
        }
    }
}

impl<'de, 'a> DeserializeSeed<'de> for ContentSeed<'a> {
    type Value = Content<'a>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Content<'a>, D::Error> {
        // A `ContentDeserializer` of a buffer in this arena lends its
        // value to `visit_unit` below; any other deserializer calls the
        // visitor's methods, which buffer what they are given.
        lend::asking(self.0, lend::CONTENT, || deserializer.deserialize_any(self))
    }
}

/// Input buffered in an arena ([`BufferSeed`]), with the arena it lies in:
/// a `ContentDeserializer` made from it lends its values to readers in the
/// same arena instead of having them copied (`lend.rs`). Made only in this
/// module and `tagged.rs`, of what a `ContentSeed` of that arena returned:
/// every reference in it is into that arena.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Buffered<'a> {
    arena: &'a FrameArena,
    content: Content<'a>,
}

impl<'a> Buffered<'a> {
    /// `content`, which a [`ContentSeed`] of `arena` returned (or which
    /// consists of such values, gathered in `arena`).
    #[inline]
    pub(super) fn of(arena: &'a FrameArena, content: Content<'a>) -> Self {
        Buffered { arena, content }
    }

    /// The arena the buffer lies in, and the value.
    #[inline]
    pub(super) fn parts(&self) -> (&'a FrameArena, Content<'a>) {
        (self.arena, self.content)
    }
}

/// [`ContentSeed`], its value kept with its arena ([`Buffered`]): what an
/// untagged or tagged enum buffers its input with.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct BufferSeed<'a>(&'a FrameArena);

impl<'a> BufferSeed<'a> {
    #[doc(hidden)]
    #[inline]
    pub fn new(arena: &'a FrameArena) -> Self {
        BufferSeed(arena)
    }
}

impl<'de, 'a> DeserializeSeed<'de> for BufferSeed<'a> {
    type Value = Buffered<'a>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Buffered<'a>, D::Error> {
        let content = ContentSeed(self.0).deserialize(deserializer)?;
        Ok(Buffered::of(self.0, content))
    }
}

/// Reads `$name(value)` into the same `Content` variant.
macro_rules! scalars {
    ($($method:ident($ty:ty) => $variant:ident,)*) => {$(
        #[inline]
        fn $method<E: de::Error>(self, value: $ty) -> Result<Content<'a>, E> {
            Ok(Content::$variant(value))
        }
    )*};
}

impl<'de, 'a> Visitor<'de> for ContentSeed<'a> {
    type Value = Content<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value") // serde's
    }

    scalars! {
        visit_bool(bool) => Bool,
        visit_i8(i8) => I8,
        visit_i16(i16) => I16,
        visit_i32(i32) => I32,
        visit_i64(i64) => I64,
        visit_u8(u8) => U8,
        visit_u16(u16) => U16,
        visit_u32(u32) => U32,
        visit_u64(u64) => U64,
        visit_f32(f32) => F32,
        visit_f64(f64) => F64,
        visit_char(char) => Char,
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Content<'a>, E> {
        match self.0.try_alloc_str(value) {
            Ok(text) => Ok(Content::Str(text)),
            Err(_) => Err(exhausted(self.0, "buffered input")),
        }
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<Content<'a>, E> {
        match self.0.try_alloc_slice_copy(value) {
            Ok(bytes) => Ok(Content::Bytes(bytes)),
            Err(_) => Err(exhausted(self.0, "buffered input")),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Content<'a>, E> {
        // A unit, or the value a buffer of this arena lends (`lend.rs`).
        Ok(lend::take_content(self.0).unwrap_or(Content::Unit))
    }

    fn visit_none<E: de::Error>(self) -> Result<Content<'a>, E> {
        Ok(Content::None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Content<'a>, D::Error> {
        let _level = limits::enter::<D::Error>(self.0)?;
        let inner = self.deserialize(deserializer)?;
        self.boxed(inner).map(Content::Some)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Content<'a>, D::Error> {
        let _level = limits::enter::<D::Error>(self.0)?;
        let inner = self.deserialize(deserializer)?;
        self.boxed(inner).map(Content::Newtype)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Content<'a>, S::Error> {
        let arena = self.0;
        let _level = limits::enter::<S::Error>(arena)?;
        let mut items = Gather::<_, SHORT>::new(arena, Content::Unit);
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item)?;
        }
        items.finish().map(Content::Seq)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Content<'a>, M::Error> {
        let arena = self.0;
        let _level = limits::enter::<M::Error>(arena)?;
        let mut entries = Gather::<_, SHORT>::new(arena, (Content::Unit, Content::Unit));
        while let Some(entry) = map.next_entry_seed(self, self)? {
            entries.push(entry)?;
        }
        entries.finish().map(Content::Map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, _data: A) -> Result<Content<'a>, A::Error> {
        Err(de::Error::custom(
            "untagged and internally tagged enums do not support enum input",
        ))
    }
}

/// How many elements of a buffered list or map are gathered on the stack
/// before it moves to a growing list in the arena: most of a message's
/// maps and lists are this short, and then take exactly their size in the
/// arena (a growing list leaves its old room behind at each growth).
pub(super) const SHORT: usize = 8;

/// The elements of a buffered list or map as they arrive: the first `N`
/// on the stack, the rest (a longer one) in a growing list in the arena;
/// in the end, a slice of exactly their number in the arena.
pub(super) struct Gather<'a, T: Copy, const N: usize> {
    arena: &'a FrameArena,
    inline: [T; N],
    len: usize,
    spilled: Option<FrameVec<'a, T>>,
}

impl<'a, T: Copy, const N: usize> Gather<'a, T, N> {
    /// None yet; `filler` fills the stack's room (never read).
    pub(super) fn new(arena: &'a FrameArena, filler: T) -> Self {
        Gather {
            arena,
            inline: [filler; N],
            len: 0,
            spilled: None,
        }
    }

    /// One more element.
    pub(super) fn push<E: de::Error>(&mut self, item: T) -> Result<(), E> {
        if let Some(list) = &mut self.spilled {
            return push(self.arena, list, item);
        }
        if let Some(slot) = self.inline.get_mut(self.len) {
            *slot = item;
            self.len += 1;
            return Ok(());
        }
        let mut list = list::<T, E>(self.arena, Some(2 * N))?;
        for kept in self.inline {
            push(self.arena, &mut list, kept)?;
        }
        push(self.arena, &mut list, item)?;
        self.spilled = Some(list);
        Ok(())
    }

    /// The arena the elements go to.
    pub(super) fn arena(&self) -> &'a FrameArena {
        self.arena
    }

    /// The elements so far.
    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.spilled {
            Some(list) => list,
            None => &mut self.inline[..self.len],
        }
    }

    /// The elements so far.
    pub(super) fn as_slice(&self) -> &[T] {
        match &self.spilled {
            Some(list) => list,
            None => &self.inline[..self.len],
        }
    }

    /// The elements, in the arena for the rest of the frame.
    pub(super) fn finish<E: de::Error>(self) -> Result<&'a [T], E> {
        match self.spilled {
            Some(list) => Ok(frozen(list)),
            None => match self.arena.try_alloc_slice_copy(&self.inline[..self.len]) {
                Ok(items) => Ok(items),
                Err(_) => Err(exhausted(self.arena, "buffered input")),
            },
        }
    }
}

/// A list in `arena` with room for `hint` elements, believed up to
/// [`CAUTIOUS_BYTES`] (the arena lists' own first reservation).
pub(super) fn list<'a, T, E: de::Error>(
    arena: &'a FrameArena,
    hint: Option<usize>,
) -> Result<FrameVec<'a, T>, E> {
    // Out of line: a buffer nests itself level by level.
    with_room_out_of_line::<T, FrameVec<'a, T>>(arena, hint)
        .map_err(|()| exhausted(arena, "buffered input"))
}

/// `list` as a slice for the rest of the frame: what its room left unused
/// goes back, in place, when it is the arena's newest allocation (a list
/// of numbers).
pub(super) fn frozen<'a, T>(mut list: FrameVec<'a, T>) -> &'a [T] {
    list.shrink_to_fit();
    list.leak()
}

/// Pushes `item` onto `list`, growing it through the `try_` path (the
/// arena lists' own growth).
pub(super) fn push<'a, T, E: de::Error>(
    arena: &FrameArena,
    list: &mut FrameVec<'a, T>,
    item: T,
) -> Result<(), E> {
    if list.try_make_room().is_err() {
        return Err(exhausted(arena, "buffered input"));
    }
    list.push(item);
    Ok(())
}
