//! [`ContentDeserializer`]: a [`Content`] buffered in the arena, read back
//! as a deserializer, by reference (an untagged enum tries each variant on
//! the same buffer). It presents each value as serde's own
//! `ContentRefDeserializer` does (integers by their width, a float as any
//! number, strings to `deserialize_bytes` too, a value as `Some` of an
//! `Option`, as a newtype's field, an enum from a string or a one-key map),
//! with its error messages; [`ContentDeserializer::once`] is serde's
//! `ContentDeserializer` (an internally tagged enum's content, read once),
//! which reads a unit and a unit struct from an empty map as well.
//!
//! Strings and bytes are handed over as borrowed for the buffer's lifetime
//! (`visit_borrowed_str`, `visit_borrowed_bytes`): they live in the arena,
//! so a field read by a function that borrows a `&'de str` reads it from
//! the buffer as it would from the input.

use core::fmt;
use core::marker::PhantomData;
use core::slice;

use ::serde::Deserializer;
use ::serde::de::{self, DeserializeSeed, Expected, MapAccess, SeqAccess, Unexpected, Visitor};

use super::content::{Buffered, Content, ContentSeed};
use super::impls::ArenaStrVisitor;
use super::lend;
use crate::arena::FrameArena;

/// A deserializer of a buffered [`Content`].
#[doc(hidden)]
pub struct ContentDeserializer<'c, E> {
    /// A copy: its nested values are references into the arena.
    content: Content<'c>,
    /// serde's owned `ContentDeserializer` (a unit and a unit struct read
    /// from an empty map), not its `ContentRefDeserializer`.
    once: bool,
    /// The arena the content lies in, where it came from a [`Buffered`]
    /// (and so lies wholly in that arena): its values are then lent to
    /// readers in that arena that ask, rather than copied (`lend.rs`).
    lender: Option<&'c FrameArena>,
    error: PhantomData<fn() -> E>,
}

impl<E> Clone for ContentDeserializer<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for ContentDeserializer<'_, E> {}

impl<'c, E> ContentDeserializer<'c, E> {
    /// serde's `ContentRefDeserializer`: what an untagged enum tries each
    /// variant on.
    #[doc(hidden)]
    #[inline]
    pub fn new(content: &Content<'c>) -> Self {
        ContentDeserializer {
            content: *content,
            once: false,
            lender: None,
            error: PhantomData,
        }
    }

    /// [`new`](Self::new) of a buffer: what an untagged enum tries each
    /// variant on, lending its values to an enum inside that buffers them.
    #[doc(hidden)]
    #[inline]
    pub fn lending(buffered: &Buffered<'c>) -> Self {
        let (arena, content) = buffered.parts();
        ContentDeserializer {
            content,
            once: false,
            lender: Some(arena),
            error: PhantomData,
        }
    }

    /// [`once`](Self::once) of a buffer (see [`lending`](Self::lending)).
    #[doc(hidden)]
    #[inline]
    pub fn lending_once(buffered: &Buffered<'c>) -> Self {
        ContentDeserializer {
            once: true,
            ..Self::lending(buffered)
        }
    }

    /// [`lending_once`](Self::lending_once), with the error type of
    /// `_error` (see [`error_of`]).
    #[doc(hidden)]
    #[inline]
    pub fn lending_once_as(buffered: &Buffered<'c>, _error: PhantomData<fn() -> E>) -> Self {
        Self::lending_once(buffered)
    }

    /// serde's `ContentDeserializer`: an internally tagged enum's content,
    /// or an adjacently tagged one's read before its tag.
    #[doc(hidden)]
    #[inline]
    pub fn once(content: &Content<'c>) -> Self {
        ContentDeserializer {
            content: *content,
            once: true,
            lender: None,
            error: PhantomData,
        }
    }

    /// [`once`](Self::once), with the error type of `_error` (see
    /// [`error_of`]).
    #[doc(hidden)]
    #[inline]
    pub fn once_as(content: &Content<'c>, _error: PhantomData<fn() -> E>) -> Self {
        Self::once(content)
    }

    /// A nested value, read as this one is.
    #[inline]
    fn child(&self, content: &Content<'c>) -> Self {
        ContentDeserializer {
            content: *content,
            once: self.once,
            lender: self.lender,
            error: PhantomData,
        }
    }
}

impl<'c, E: de::Error> ContentDeserializer<'c, E> {
    #[cold]
    fn invalid_type(&self, expected: &dyn Expected) -> E {
        E::invalid_type(self.content.unexpected(), expected)
    }

    fn integer<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::U8(v) => visitor.visit_u8(v),
            Content::U16(v) => visitor.visit_u16(v),
            Content::U32(v) => visitor.visit_u32(v),
            Content::U64(v) => visitor.visit_u64(v),
            Content::I8(v) => visitor.visit_i8(v),
            Content::I16(v) => visitor.visit_i16(v),
            Content::I32(v) => visitor.visit_i32(v),
            Content::I64(v) => visitor.visit_i64(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn float<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::F32(v) => visitor.visit_f32(v),
            Content::F64(v) => visitor.visit_f64(v),
            _ => self.integer(visitor),
        }
    }

    fn seq<V: Visitor<'c>>(self, items: &'c [Content<'c>], visitor: V) -> Result<V::Value, E> {
        let mut access = SeqRef {
            iter: items.iter(),
            count: 0,
            of: self,
        };
        let value = visitor.visit_seq(&mut access)?;
        access.end()?;
        Ok(value)
    }

    fn map<V: Visitor<'c>>(
        self,
        entries: &'c [(Content<'c>, Content<'c>)],
        visitor: V,
    ) -> Result<V::Value, E> {
        let mut access = MapRef {
            iter: entries.iter(),
            value: None,
            count: 0,
            of: self,
        };
        let value = visitor.visit_map(&mut access)?;
        access.end()?;
        Ok(value)
    }
}

impl<'c, E: de::Error> Deserializer<'c> for ContentDeserializer<'c, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        if let Some(arena) = self.lender
            && lend::answer::<ContentSeed<'static>, V>(arena, lend::CONTENT)
        {
            // A `ContentSeed` of this arena asked, and is the visitor:
            // lend it the value rather than have it copied.
            let _lent = arena.decode_state().lent.lend(lend::CONTENT, &self.content);
            return visitor.visit_unit();
        }
        match self.content {
            Content::Bool(v) => visitor.visit_bool(v),
            Content::U8(v) => visitor.visit_u8(v),
            Content::U16(v) => visitor.visit_u16(v),
            Content::U32(v) => visitor.visit_u32(v),
            Content::U64(v) => visitor.visit_u64(v),
            Content::I8(v) => visitor.visit_i8(v),
            Content::I16(v) => visitor.visit_i16(v),
            Content::I32(v) => visitor.visit_i32(v),
            Content::I64(v) => visitor.visit_i64(v),
            Content::F32(v) => visitor.visit_f32(v),
            Content::F64(v) => visitor.visit_f64(v),
            Content::Char(v) => visitor.visit_char(v),
            Content::Str(v) => visitor.visit_borrowed_str(v),
            Content::Bytes(v) => visitor.visit_borrowed_bytes(v),
            Content::Unit => visitor.visit_unit(),
            Content::None => visitor.visit_none(),
            Content::Some(v) => visitor.visit_some(self.child(v)),
            Content::Newtype(v) => visitor.visit_newtype_struct(self.child(v)),
            Content::Seq(v) => self.seq(v, visitor),
            Content::Map(v) => self.map(v, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Bool(v) => visitor.visit_bool(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_i8<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_i16<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_i32<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_i64<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_u8<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_u16<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_u32<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_u64<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.integer(visitor)
    }

    fn deserialize_f32<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.float(visitor)
    }

    fn deserialize_f64<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.float(visitor)
    }

    fn deserialize_char<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Char(v) => visitor.visit_char(v),
            Content::Str(v) => visitor.visit_borrowed_str(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        if let (Some(arena), Content::Str(text)) = (self.lender, &self.content)
            && lend::answer::<ArenaStrVisitor<'static>, V>(arena, lend::STR)
        {
            // `&'a str`'s decode in this arena asked, and its visitor is
            // the one here: lend it the text rather than have it copied.
            let _lent = arena.decode_state().lent.lend(lend::STR, text);
            return visitor.visit_unit();
        }
        match self.content {
            Content::Str(v) => visitor.visit_borrowed_str(v),
            Content::Bytes(v) => visitor.visit_borrowed_bytes(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Str(v) => visitor.visit_borrowed_str(v),
            Content::Bytes(v) => visitor.visit_borrowed_bytes(v),
            Content::Seq(v) => self.seq(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::None => visitor.visit_none(),
            Content::Some(v) => visitor.visit_some(self.child(v)),
            Content::Unit => visitor.visit_unit(),
            // A format that does not mark options (JSON) buffers the value
            // alone: it is the `Some`.
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Unit => visitor.visit_unit(),
            // serde's owned deserializer: an internally tagged newtype
            // variant of `()` is its tag alone.
            Content::Map(v) if self.once && v.is_empty() => visitor.visit_unit(),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'c>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        if !self.once {
            return self.deserialize_unit(visitor);
        }
        // serde's owned deserializer: an internally tagged newtype variant
        // of a unit struct is its tag alone.
        match self.content {
            Content::Map([]) | Content::Seq([]) => visitor.visit_unit(),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'c>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.content {
            Content::Newtype(v) => visitor.visit_newtype_struct(self.child(v)),
            // A format that does not mark newtypes (JSON) buffers the field
            // alone.
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Seq(v) => self.seq(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'c>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'c>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Map(v) => self.map(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'c>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.content {
            Content::Seq(v) => self.seq(v, visitor),
            Content::Map(v) => self.map(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'c>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        let (variant, value) = match self.content {
            Content::Map([(variant, value)]) => (*variant, Some(value)),
            Content::Map(_) => {
                return Err(E::invalid_value(Unexpected::Map, &"map with a single key"));
            }
            text @ Content::Str(_) => (text, None),
            other => return Err(E::invalid_type(other.unexpected(), &"string or map")),
        };
        visitor.visit_enum(EnumRef {
            variant: self.child(&variant),
            value: value.map(|value| self.child(value)),
        })
    }

    fn deserialize_identifier<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Content::Str(v) => visitor.visit_borrowed_str(v),
            Content::Bytes(v) => visitor.visit_borrowed_bytes(v),
            Content::U8(v) => visitor.visit_u8(v),
            Content::U64(v) => visitor.visit_u64(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }
}

/// The error type of `deserializer`, named before it is moved: what a
/// buffered value is read back with.
#[doc(hidden)]
#[inline]
pub fn error_of<'de, D: Deserializer<'de>>(_deserializer: &D) -> PhantomData<fn() -> D::Error> {
    PhantomData
}

/// serde's message for a list of the wrong length: "N elements in sequence".
struct ExpectedInSeq(usize);

impl Expected for ExpectedInSeq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 {
            f.write_str("1 element in sequence")
        } else {
            write!(f, "{} elements in sequence", self.0)
        }
    }
}

/// serde's message for a map of the wrong length: "N elements in map".
struct ExpectedInMap(usize);

impl Expected for ExpectedInMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 {
            f.write_str("1 element in map")
        } else {
            write!(f, "{} elements in map", self.0)
        }
    }
}

/// The elements of a buffered sequence.
struct SeqRef<'c, E> {
    iter: slice::Iter<'c, Content<'c>>,
    count: usize,
    of: ContentDeserializer<'c, E>,
}

impl<E: de::Error> SeqRef<'_, E> {
    /// An error if the visitor left elements unread, as serde's.
    fn end(self) -> Result<(), E> {
        let remaining = self.iter.len();
        if remaining == 0 {
            Ok(())
        } else {
            Err(E::invalid_length(
                self.count + remaining,
                &ExpectedInSeq(self.count),
            ))
        }
    }
}

impl<'c, E: de::Error> SeqAccess<'c> for SeqRef<'c, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'c>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        match self.iter.next() {
            Some(item) => {
                self.count += 1;
                seed.deserialize(self.of.child(item)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The entries of a buffered map.
struct MapRef<'c, E> {
    iter: slice::Iter<'c, (Content<'c>, Content<'c>)>,
    value: Option<&'c Content<'c>>,
    count: usize,
    of: ContentDeserializer<'c, E>,
}

impl<'c, E: de::Error> MapRef<'c, E> {
    /// An error if the visitor left entries unread, as serde's.
    fn end(self) -> Result<(), E> {
        let remaining = self.iter.len();
        if remaining == 0 {
            Ok(())
        } else {
            Err(E::invalid_length(
                self.count + remaining,
                &ExpectedInMap(self.count),
            ))
        }
    }

    fn next_pair(&mut self) -> Option<&'c (Content<'c>, Content<'c>)> {
        let pair = self.iter.next()?;
        self.count += 1;
        Some(pair)
    }
}

impl<'c, E: de::Error> MapAccess<'c> for MapRef<'c, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'c>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.next_pair() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(self.of.child(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'c>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.value.take() {
            Some(value) => seed.deserialize(self.of.child(value)),
            // A caller's bug (serde's panics): an error here.
            None => Err(E::custom("value is missing")),
        }
    }

    fn next_entry_seed<K, V>(
        &mut self,
        kseed: K,
        vseed: V,
    ) -> Result<Option<(K::Value, V::Value)>, E>
    where
        K: DeserializeSeed<'c>,
        V: DeserializeSeed<'c>,
    {
        match self.next_pair() {
            Some((key, value)) => {
                let key = kseed.deserialize(self.of.child(key))?;
                let value = vseed.deserialize(self.of.child(value))?;
                Ok(Some((key, value)))
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// A map read as a sequence of pairs, as serde's.
impl<'c, E: de::Error> SeqAccess<'c> for MapRef<'c, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'c>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        match self.next_pair() {
            Some((key, value)) => seed
                .deserialize(PairRef(self.of.child(key), self.of.child(value)))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// One entry of a map, as a two-element sequence.
struct PairRef<'c, E>(ContentDeserializer<'c, E>, ContentDeserializer<'c, E>);

impl<'c, E: de::Error> Deserializer<'c> for PairRef<'c, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_seq<V: Visitor<'c>>(self, visitor: V) -> Result<V::Value, E> {
        let mut pair = PairAccess(Some(self.0), Some(self.1));
        let value = visitor.visit_seq(&mut pair)?;
        if pair.1.is_none() {
            Ok(value)
        } else {
            let remaining = if pair.0.is_some() { 2 } else { 1 };
            Err(E::invalid_length(2, &ExpectedInSeq(2 - remaining)))
        }
    }

    fn deserialize_tuple<V: Visitor<'c>>(self, len: usize, visitor: V) -> Result<V::Value, E> {
        if len == 2 {
            self.deserialize_seq(visitor)
        } else {
            Err(E::invalid_length(2, &ExpectedInSeq(len)))
        }
    }

    ::serde::forward_to_deserialize_any! {
        <W: Visitor<'c>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct tuple_struct map
        struct enum identifier ignored_any
    }
}

/// The key, then the value, of one entry.
struct PairAccess<'c, E>(
    Option<ContentDeserializer<'c, E>>,
    Option<ContentDeserializer<'c, E>>,
);

impl<'c, E: de::Error> SeqAccess<'c> for PairAccess<'c, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'c>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        if let Some(key) = self.0.take() {
            seed.deserialize(key).map(Some)
        } else if let Some(value) = self.1.take() {
            seed.deserialize(value).map(Some)
        } else {
            Ok(None)
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.0.is_some()) + usize::from(self.1.is_some()))
    }
}

/// An enum buffered as its variant's name, and its value if it has one.
pub(super) struct EnumRef<'c, E> {
    pub(super) variant: ContentDeserializer<'c, E>,
    pub(super) value: Option<ContentDeserializer<'c, E>>,
}

impl<'c, E: de::Error> de::EnumAccess<'c> for EnumRef<'c, E> {
    type Error = E;
    type Variant = VariantRef<'c, E>;

    fn variant_seed<V: DeserializeSeed<'c>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantRef<'c, E>), E> {
        let value = VariantRef(self.value);
        seed.deserialize(self.variant)
            .map(|variant| (variant, value))
    }
}

/// A buffered variant's value, if it has one.
pub(super) struct VariantRef<'c, E>(Option<ContentDeserializer<'c, E>>);

impl<'c, E: de::Error> de::VariantAccess<'c> for VariantRef<'c, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        match self.0 {
            Some(value) => <() as de::Deserialize>::deserialize(value),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'c>>(self, seed: T) -> Result<T::Value, E> {
        match self.0 {
            Some(value) => seed.deserialize(value),
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"newtype variant")),
        }
    }

    fn tuple_variant<V: Visitor<'c>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        match self.0 {
            Some(value) => match value.content {
                Content::Seq(items) => value.seq(items, visitor),
                other => Err(E::invalid_type(other.unexpected(), &"tuple variant")),
            },
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'c>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.0 {
            Some(value) => match value.content {
                Content::Map(entries) => value.map(entries, visitor),
                Content::Seq(items) => value.seq(items, visitor),
                other => Err(E::invalid_type(other.unexpected(), &"struct variant")),
            },
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"struct variant")),
        }
    }
}
