//! What `#[deserialize_in(no_heap)]` asks of a type: whether a decoded
//! value owns nothing on the heap ([`DeserializeIn::HEAP_FREE`]), computed
//! by the derive from its fields through these helpers.

use ::serde::Deserializer;
use ::serde::de::Error;

use super::DeserializeIn;
use crate::arena::FrameArena;

/// `T::HEAP_FREE`, through a call: a derived type's constant names its
/// fields' this way, so that two types that hold each other (an `Expr`
/// in a `Stmt` in an `Expr`) compile; rustc's passes over a constant
/// evaluate the constants it names, and would find the cycle even when no
/// `no_heap` asks for the value.
#[doc(hidden)]
#[must_use]
pub const fn heap_free<'a, T: DeserializeIn<'a>>() -> bool {
    T::HEAP_FREE
}

/// Stands for the type itself in its own fields' types (`FrameVec<'a,
/// Self>`) when the derive computes `HEAP_FREE`: a recursive type is heap
/// free if the rest of it is. Never decoded.
#[doc(hidden)]
pub struct Recursion;

impl<'a> DeserializeIn<'a> for Recursion {
    const HEAP_FREE: bool = true;

    fn deserialize_in<'de, D>(_arena: &'a FrameArena, _deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        Err(D::Error::custom(
            "tickarena::serde::__private::Recursion is a placeholder and is never decoded",
        ))
    }
}
