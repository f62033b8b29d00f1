//! What `#[derive(DeserializeIn)]` calls for a struct with
//! `#[serde(flatten)]` fields: the entries its own fields did not claim,
//! buffered in the arena ([`Collected`]), read by each flattened field in
//! turn through [`FlatMapDeserializer`], as serde's derive does (a
//! flattened struct takes the keys it knows out of the buffer, a flattened
//! map sees every key left, an `Option` is `None` where its value does not
//! read), with serde's messages.

use core::marker::PhantomData;

use ::serde::Deserializer;
use ::serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use super::content::{Content, Gather, SHORT};
use super::content_de::{ContentDeserializer, EnumRef};
use super::tagged::{Discarded, refused_before, refused_error, refused_since};
use crate::arena::FrameArena;

/// The entries of a map that no field of the struct claimed, in the
/// arena; a flattened struct takes (`None`s) those it reads.
#[doc(hidden)]
pub struct Collected<'a> {
    entries: Gather<'a, Option<(Content<'a>, Content<'a>)>, SHORT>,
}

impl<'a> Collected<'a> {
    /// None yet: the first entries gather on the stack (a map's length
    /// hint counts the struct's own fields too, so none is taken).
    #[doc(hidden)]
    pub fn new(arena: &'a FrameArena) -> Self {
        Collected {
            entries: Gather::new(arena, None),
        }
    }

    /// Keeps the entry `key`: `value`.
    #[doc(hidden)]
    pub fn push<E: de::Error>(&mut self, key: Content<'a>, value: Content<'a>) -> Result<(), E> {
        self.entries.push(Some((key, value)))
    }

    /// The deserializer a flattened field reads from.
    #[doc(hidden)]
    pub fn deserializer<E>(&mut self) -> FlatMapDeserializer<'_, 'a, E> {
        let arena = self.entries.arena();
        FlatMapDeserializer(self.entries.as_mut_slice(), arena, PhantomData)
    }

    /// With `deny_unknown_fields`: the error of the first entry that no
    /// flattened field took, as serde's.
    #[doc(hidden)]
    pub fn deny_unknown<E: de::Error>(&self) -> Result<(), E> {
        match self.entries.as_slice().iter().flatten().next() {
            None => Ok(()),
            Some((key, _)) => match key.as_str() {
                Some(key) => Err(E::custom(format_args!("unknown field `{key}`"))),
                None => Err(E::custom("unexpected map key")),
            },
        }
    }
}

/// serde's `FlatMapDeserializer`, over the arena's buffer.
#[doc(hidden)]
pub struct FlatMapDeserializer<'m, 'a, E>(
    &'m mut [Option<(Content<'a>, Content<'a>)>],
    /// Whose refusal a flattened `Option` may not turn into `None`.
    &'a FrameArena,
    PhantomData<fn() -> E>,
);

impl<E: de::Error> FlatMapDeserializer<'_, '_, E> {
    #[cold]
    fn other<T>() -> Result<T, E> {
        Err(E::custom("can only flatten structs and maps"))
    }
}

/// Takes `entry` if its key is one of `known`.
fn take_entry<'a>(
    entry: &mut Option<(Content<'a>, Content<'a>)>,
    known: &[&str],
) -> Option<(Content<'a>, Content<'a>)> {
    let is_known = entry
        .as_ref()
        .and_then(|(key, _)| key.as_str())
        .is_some_and(|name| known.contains(&name));
    if is_known { entry.take() } else { None }
}

/// Refuses what cannot be flattened.
macro_rules! other {
    ($($method:ident($($arg:ty),*))*) => {$(
        fn $method<V: Visitor<'a>>(self, $(_: $arg,)* _visitor: V) -> Result<V::Value, E> {
            Self::other()
        }
    )*};
}

impl<'a, E: de::Error> Deserializer<'a> for FlatMapDeserializer<'_, 'a, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        for entry in self.0.iter_mut() {
            if let Some((key, value)) = take_entry(entry, variants) {
                return visitor.visit_enum(EnumRef {
                    variant: ContentDeserializer::once(&key),
                    value: Some(ContentDeserializer::once(&value)),
                });
            }
        }
        Err(E::custom(format_args!(
            "no variant of enum {name} found in flattened data"
        )))
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_map(FlatMapAccess {
            iter: self.0.iter(),
            pending: None,
            error: PhantomData,
        })
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_map(FlatStructAccess {
            iter: self.0.iter_mut(),
            pending: None,
            fields,
            error: PhantomData,
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, E> {
        // serde's hook for a flattened `Option` (its own and the arena's
        // implement it): `None` where the value does not read. Its error is
        // dropped, so it is the cheap `Discarded` (no message formatted, no
        // heap allocation); but where the arena refused the value, the
        // decode ends with the arena's error, not `None`.
        let FlatMapDeserializer(entries, arena, _) = self;
        let before = refused_before(arena);
        let attempt = FlatMapDeserializer::<Discarded>(entries, arena, PhantomData);
        match visitor.__private_visit_untagged_option(attempt) {
            _ if refused_since(arena, before) => Err(refused_error(arena)),
            Ok(value) => Ok(value),
            Err(()) => Self::other(),
        }
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    other! {
        deserialize_bool()
        deserialize_i8()
        deserialize_i16()
        deserialize_i32()
        deserialize_i64()
        deserialize_u8()
        deserialize_u16()
        deserialize_u32()
        deserialize_u64()
        deserialize_f32()
        deserialize_f64()
        deserialize_char()
        deserialize_str()
        deserialize_string()
        deserialize_bytes()
        deserialize_byte_buf()
        deserialize_seq()
        deserialize_tuple(usize)
        deserialize_tuple_struct(&'static str, usize)
        deserialize_identifier()
    }
}

/// A flattened map: every entry left, borrowed (a later flattened field
/// may read it too).
struct FlatMapAccess<'m, 'a, E> {
    iter: core::slice::Iter<'m, Option<(Content<'a>, Content<'a>)>>,
    pending: Option<Content<'a>>,
    error: PhantomData<fn() -> E>,
}

impl<'a, E: de::Error> MapAccess<'a> for FlatMapAccess<'_, 'a, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.iter.by_ref().flatten().next() {
            Some((key, value)) => {
                self.pending = Some(*value);
                seed.deserialize(ContentDeserializer::new(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.pending.take() {
            Some(value) => seed.deserialize(ContentDeserializer::new(&value)),
            None => Err(E::custom("value is missing")),
        }
    }
}

/// A flattened struct: the entries whose keys are its fields, taken.
struct FlatStructAccess<'m, 'a, E> {
    iter: core::slice::IterMut<'m, Option<(Content<'a>, Content<'a>)>>,
    pending: Option<Content<'a>>,
    fields: &'static [&'static str],
    error: PhantomData<fn() -> E>,
}

impl<'a, E: de::Error> MapAccess<'a> for FlatStructAccess<'_, 'a, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        for entry in self.iter.by_ref() {
            if let Some((key, value)) = take_entry(entry, self.fields) {
                self.pending = Some(value);
                return seed.deserialize(ContentDeserializer::once(&key)).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.pending.take() {
            Some(value) => seed.deserialize(ContentDeserializer::once(&value)),
            None => Err(E::custom("value is missing")),
        }
    }
}
