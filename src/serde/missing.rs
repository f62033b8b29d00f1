//! What `#[derive(DeserializeIn)]` reads a field from when its key is
//! missing from a map: serde's rule, so the derive reads what serde's own
//! derive reads. A type that asks for an `Option` gets `None` (an `Option`,
//! also inside a `FrameBox`); any other type gets the format's
//! `missing_field` error.

use core::marker::PhantomData;

use ::serde::Deserializer;
use ::serde::de::{Error, Visitor};

/// A deserializer of nothing, for the missing field `0`.
#[doc(hidden)]
pub struct MissingField<E>(&'static str, PhantomData<E>);

impl<E> MissingField<E> {
    #[doc(hidden)]
    #[inline]
    pub fn new(field: &'static str) -> Self {
        MissingField(field, PhantomData)
    }
}

impl<'de, E: Error> Deserializer<'de> for MissingField<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
