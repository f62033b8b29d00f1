//! What `#[derive(DeserializeIn)]` calls for a tagged or untagged enum
//! (`#[serde(tag = "..")]`, `tag` + `content`, `untagged`): the visitors of
//! serde's derive, with its messages, buffering in the arena
//! ([`ContentSeed`]) where serde's buffers on the heap. The tag's own
//! identifier is the derive's seed (`S`), not a `Deserialize` type.

use core::fmt;

use ::serde::Deserializer;
use ::serde::de::value::SeqAccessDeserializer;
use ::serde::de::{
    self, DeserializeSeed, EnumAccess, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor,
};

use super::content::{Buffered, Content, ContentSeed, Gather, SHORT};
use super::impls::exhausted;
use super::limits;
use crate::arena::FrameArena;

/// An internally tagged enum's input (a map, or a sequence whose first
/// element is the tag): the tag read by the seed `S`, the rest buffered,
/// without the tag, in the arena. serde's `TaggedContentVisitor`.
#[doc(hidden)]
pub struct TaggedContentVisitor<'a, S> {
    arena: &'a FrameArena,
    tag: &'static str,
    expecting: &'static str,
    seed: S,
}

impl<'a, S> TaggedContentVisitor<'a, S> {
    #[doc(hidden)]
    pub fn new(arena: &'a FrameArena, tag: &'static str, expecting: &'static str, seed: S) -> Self {
        TaggedContentVisitor {
            arena,
            tag,
            expecting,
            seed,
        }
    }
}

impl<'de, 'a, S: DeserializeSeed<'de>> Visitor<'de> for TaggedContentVisitor<'a, S> {
    type Value = (S::Value, Buffered<'a>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let Some(tag) = seq.next_element_seed(self.seed)? else {
            return Err(de::Error::missing_field(self.tag));
        };
        let rest = ContentSeed::new(self.arena).deserialize(SeqAccessDeserializer::new(seq))?;
        Ok((tag, Buffered::of(self.arena, rest)))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let arena = self.arena;
        let _level = limits::enter::<M::Error>(arena)?;
        let (mut seed, mut tag) = (Some(self.seed), None);
        let mut entries = Gather::<_, SHORT>::new(arena, (Content::Unit, Content::Unit));
        let key = TagOrContentSeed {
            arena,
            tag: self.tag,
        };
        while let Some(key) = map.next_key_seed(key)? {
            match key {
                TagOrContent::Tag => match seed.take() {
                    Some(seed) => tag = Some(map.next_value_seed(seed)?),
                    None => return Err(de::Error::duplicate_field(self.tag)),
                },
                TagOrContent::Content(key) => {
                    let value = map.next_value_seed(ContentSeed::new(arena))?;
                    entries.push((key, value))?;
                }
            }
        }
        match tag {
            Some(tag) => Ok((tag, Buffered::of(arena, Content::Map(entries.finish()?)))),
            None => Err(de::Error::missing_field(self.tag)),
        }
    }
}

/// A key of an internally tagged enum's map: the tag, or any other value.
enum TagOrContent<'a> {
    Tag,
    Content(Content<'a>),
}

/// Reads a key of an internally tagged enum's map (serde's
/// `TagOrContentVisitor`).
#[derive(Clone, Copy)]
struct TagOrContentSeed<'a> {
    arena: &'a FrameArena,
    tag: &'static str,
}

impl<'de, 'a> DeserializeSeed<'de> for TagOrContentSeed<'a> {
    type Value = TagOrContent<'a>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Any value but the tag's name, buffered as `ContentSeed` buffers it.
macro_rules! content {
    ($($method:ident($($ty:ty)?)),* $(,)?) => {$(
        fn $method<E: de::Error>(self $(, value: $ty)?) -> Result<Self::Value, E> {
            ContentSeed::new(self.arena).$method($(value as $ty)?).map(TagOrContent::Content)
        }
    )*};
}

impl<'de, 'a> Visitor<'de> for TagOrContentSeed<'a> {
    type Value = TagOrContent<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a type tag `{}` or any other value", self.tag)
    }

    content!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_unit(),
        visit_none(),
    );

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        if value == self.tag {
            Ok(TagOrContent::Tag)
        } else {
            ContentSeed::new(self.arena)
                .visit_str(value)
                .map(TagOrContent::Content)
        }
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<Self::Value, E> {
        if value == self.tag.as_bytes() {
            Ok(TagOrContent::Tag)
        } else {
            ContentSeed::new(self.arena)
                .visit_bytes(value)
                .map(TagOrContent::Content)
        }
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        ContentSeed::new(self.arena)
            .visit_some(deserializer)
            .map(TagOrContent::Content)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        ContentSeed::new(self.arena)
            .visit_newtype_struct(deserializer)
            .map(TagOrContent::Content)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        ContentSeed::new(self.arena)
            .visit_seq(seq)
            .map(TagOrContent::Content)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        ContentSeed::new(self.arena)
            .visit_map(map)
            .map(TagOrContent::Content)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        ContentSeed::new(self.arena)
            .visit_enum(data)
            .map(TagOrContent::Content)
    }
}

/// A key of an adjacently tagged enum's map: the tag, the content, or
/// (unless the enum denies unknown fields) another key, skipped.
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TagContentOther {
    Tag,
    Content,
    Other,
}

/// Reads a key of an adjacently tagged enum's map: serde's
/// `TagContentOtherFieldVisitor`, or with `deny_unknown` its
/// `TagOrContentFieldVisitor` (an unknown key is an error).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct TagContentOtherSeed {
    pub tag: &'static str,
    pub content: &'static str,
    pub deny_unknown: bool,
}

impl<'de> DeserializeSeed<'de> for TagContentOtherSeed {
    type Value = TagContentOther;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for TagContentOtherSeed {
    type Value = TagContentOther;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.deny_unknown {
            write!(f, "{:?} or {:?}", self.tag, self.content)
        } else {
            write!(
                f,
                "{:?}, {:?}, or other ignored fields",
                self.tag, self.content
            )
        }
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Self::Value, E> {
        match index {
            0 => Ok(TagContentOther::Tag),
            1 => Ok(TagContentOther::Content),
            _ if self.deny_unknown => Err(E::invalid_value(Unexpected::Unsigned(index), &self)),
            _ => Ok(TagContentOther::Other),
        }
    }

    fn visit_str<E: de::Error>(self, field: &str) -> Result<Self::Value, E> {
        if field == self.tag {
            Ok(TagContentOther::Tag)
        } else if field == self.content {
            Ok(TagContentOther::Content)
        } else if self.deny_unknown {
            Err(E::invalid_value(Unexpected::Str(field), &self))
        } else {
            Ok(TagContentOther::Other)
        }
    }

    fn visit_bytes<E: de::Error>(self, field: &[u8]) -> Result<Self::Value, E> {
        if field == self.tag.as_bytes() {
            Ok(TagContentOther::Tag)
        } else if field == self.content.as_bytes() {
            Ok(TagContentOther::Content)
        } else if self.deny_unknown {
            Err(E::invalid_value(Unexpected::Bytes(field), &self))
        } else {
            Ok(TagContentOther::Other)
        }
    }
}

impl TagContentOtherSeed {
    /// The next key that is the tag or the content (skipping the others,
    /// and their values), or none.
    #[doc(hidden)]
    pub fn next_relevant<'de, M: MapAccess<'de>>(
        self,
        map: &mut M,
    ) -> Result<Option<TagContentOther>, M::Error> {
        while let Some(key) = map.next_key_seed(self)? {
            match key {
                TagContentOther::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
                relevant => return Ok(Some(relevant)),
            }
        }
        Ok(None)
    }
}

/// The tag of an adjacently tagged enum, read as a unit variant of the
/// derive's identifier seed `S` (serde's `AdjacentlyTaggedEnumVariantSeed`).
#[doc(hidden)]
pub struct AdjacentTagSeed<S> {
    pub enum_name: &'static str,
    pub variants: &'static [&'static str],
    pub seed: S,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for AdjacentTagSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_enum(self.enum_name, self.variants, self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for AdjacentTagSeed<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant of enum {}", self.enum_name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let (variant, access) = data.variant_seed(self.seed)?;
        de::VariantAccess::unit_variant(access)?;
        Ok(variant)
    }
}

/// A unit variant of an internally tagged enum: its content is whatever is
/// left beside the tag (serde's `InternallyTaggedUnitVisitor`).
#[doc(hidden)]
pub struct InternallyTaggedUnitVisitor {
    type_name: &'static str,
    variant: &'static str,
}

impl InternallyTaggedUnitVisitor {
    #[doc(hidden)]
    pub fn new(type_name: &'static str, variant: &'static str) -> Self {
        InternallyTaggedUnitVisitor { type_name, variant }
    }
}

impl<'de> Visitor<'de> for InternallyTaggedUnitVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit variant {}::{}", self.type_name, self.variant)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Ok(())
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(())
    }
}

/// A unit variant of an untagged enum: a unit or a none (serde's
/// `UntaggedUnitVisitor`).
#[doc(hidden)]
pub struct UntaggedUnitVisitor {
    type_name: &'static str,
    variant: &'static str,
}

impl UntaggedUnitVisitor {
    #[doc(hidden)]
    pub fn new(type_name: &'static str, variant: &'static str) -> Self {
        UntaggedUnitVisitor { type_name, variant }
    }
}

impl<'de> Visitor<'de> for UntaggedUnitVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit variant {}::{}", self.type_name, self.variant)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The error of an attempt whose error is dropped (each variant an
/// untagged enum tries, and the tagged variants tried before untagged
/// ones): serde's derive drops the message, so nothing is formatted, and
/// a steady decode that tries and fails makes no heap allocation (a
/// format's error, serde_json's, allocates its message).
#[doc(hidden)]
#[derive(Debug)]
pub struct Discarded;

impl fmt::Display for Discarded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attempt that failed")
    }
}

impl core::error::Error for Discarded {}

impl de::Error for Discarded {
    #[inline]
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Discarded
    }
}

/// Whether `arena` has refused the decode so far: taken before attempts
/// whose errors are dropped, so that [`refused_since`] can tell the
/// arena's refusal, which no later attempt may hide, from input that did
/// not match.
#[doc(hidden)]
#[inline]
pub fn refused_before(arena: &FrameArena) -> bool {
    limits::was_refused(arena) || limits::was_over_bound(arena)
}

/// Whether `arena` refused an attempt since [`refused_before`] said
/// `before`: the attempt's error was the arena's, and the decode ends with
/// it ([`refused_error`]), as one that does not try is.
#[doc(hidden)]
#[inline]
pub fn refused_since(arena: &FrameArena, before: bool) -> bool {
    !before && (limits::was_refused(arena) || limits::was_over_bound(arena))
}

/// The arena's error, for a decode whose attempt it refused (the
/// attempt's own error, `Discarded`, said nothing).
#[doc(hidden)]
#[cold]
pub fn refused_error<E: de::Error>(arena: &FrameArena) -> E {
    if limits::was_over_bound(arena) {
        // The bound refused the attempt (as it would refuse any other: its
        // bytes stay taken): the decode ends with the bound's error.
        return limits::too_many_bytes(arena, "decoded value");
    }
    exhausted(arena, "decoded value")
}
