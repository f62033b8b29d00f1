//! What `#[deserialize_in(no_heap)]` asks of a type: whether a decoded
//! value owns nothing on the heap ([`DeserializeIn::HEAP_FREE`]), computed
//! by the derive from its fields through these helpers, and, where it
//! owns some, which field deep inside it is the cause
//! ([`DeserializeIn::HEAP_CAUSE`]), for the refusal to name. Both depend
//! on how a field is read, so the probe that decides that for a field
//! without the arena's lifetime ([`FieldProbe`]: its own `Deserialize`,
//! or its `DeserializeIn`) and the seed it gives ([`FieldSeed`]) live
//! here too.

use core::marker::PhantomData;

use ::serde::Deserializer;
use ::serde::de::Error;

use super::DeserializeIn;
use crate::arena::FrameArena;

/// What a field read through `T`'s [`DeserializeIn`] owns, through a
/// call: a derived type's constants name their fields' this way, so that
/// two types that hold each other (an `Expr` in a `Stmt` in an `Expr`)
/// compile; rustc's passes over a constant evaluate the constants it
/// names, and would find the cycle even when no `no_heap` asks for the
/// value. One call a field, so that a field type that is not
/// `DeserializeIn` is one error there, not one a constant.
#[doc(hidden)]
#[must_use]
pub const fn field_heap<'a, T: DeserializeIn<'a>>() -> FieldHeap {
    FieldHeap {
        free: T::HEAP_FREE,
        read_in: true,
        // Only asked for what is not heap free (a constant's `if` is lazy).
        inner: if T::HEAP_FREE {
            HeapCause::NONE
        } else {
            T::HEAP_CAUSE
        },
    }
}

/// Whether `T::HEAP_CAUSE` is none: a derived type's `HEAP_FREE`, through
/// a call (see [`field_heap`]).
#[doc(hidden)]
#[must_use]
pub const fn no_heap_cause<'a, T: DeserializeIn<'a>>() -> bool {
    let cause = T::HEAP_CAUSE;
    cause.is_none()
}

/// What a field read by its own `Deserialize` (or a function of the
/// user's) owns: heap memory if it needs dropping (a `String`, a `Vec`, a
/// `Box`, a type holding one).
#[doc(hidden)]
#[must_use]
pub const fn own_field_heap<T>() -> FieldHeap {
    FieldHeap {
        free: !core::mem::needs_drop::<T>(),
        read_in: false,
        inner: HeapCause::NONE,
    }
}

/// Whether a field's value owns heap memory, and where inside its type.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct FieldHeap {
    /// Heap free.
    pub free: bool,
    /// Read through `DeserializeIn`.
    pub read_in: bool,
    /// Where inside the field's type (none: the field itself, or a type
    /// implemented by hand).
    pub inner: HeapCause,
}

impl FieldHeap {
    /// The cause in `ty`'s field `field` of type `field_ty`, for `ty`'s
    /// `HEAP_CAUSE`: none where the field is heap free.
    #[must_use]
    pub const fn cause_at(&self, ty: &str, field: &str, field_ty: &str) -> HeapCause {
        if self.free {
            HeapCause::NONE
        } else {
            HeapCause::at(ty, field, field_ty, &self.inner)
        }
    }

    /// The refusal of `#[deserialize_in(no_heap)]` for the field `field`:
    /// read by its own `serde::Deserialize`, the field itself; read in the
    /// arena, the cause inside the field's type, and the way to it.
    #[must_use]
    pub const fn refusal(&self, field: &str) -> HeapCause {
        const FIX: &str = "use `&'a str`, `FrameString<'a>`, `&'a [T]` or `FrameVec<'a, T>`";
        let message = HeapCause::NONE
            .push("#[deserialize_in(no_heap)]: field `")
            .push(field);
        if !self.read_in {
            message
                .push(
                    "` is read by its own `serde::Deserialize` and needs dropping, so it owns \
                     heap memory (a `String`, `Vec` or `Box`): ",
                )
                .push(FIX)
                .push(", in the arena")
        } else if self.inner.is_none() {
            // A heap `Box` or `Vec` of a `DeserializeIn` type, or a type
            // implemented by hand.
            message
                .push("` needs dropping, so it owns heap memory (a `String`, `Vec` or `Box`): ")
                .push(FIX)
                .push(", in the arena")
        } else {
            message
                .push("` owns heap memory, in ")
                .push_cause(&self.inner)
                .push(", which needs dropping: ")
                .push(FIX)
                .push(" there, in the arena")
        }
    }
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

/// Bytes a [`HeapCause`] holds; a longer path is cut, with `…`.
const CAUSE_BYTES: usize = 448;

/// Where a type that is not heap free owns heap memory: the path from
/// the type to the field read by its own `serde::Deserialize` that owns
/// it, as text (`` `Input::inner` → `Deep::text` (`String`) ``), built
/// while constants are evaluated (a `&'static str` cannot be joined
/// there, so the text is inline); empty where the type does not say (a
/// type implemented by hand). What `#[deserialize_in(no_heap)]` names in
/// its refusal, rather than only the outer field that holds the cause.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct HeapCause {
    bytes: [u8; CAUSE_BYTES],
    len: usize,
    /// Cut: the room ran out, `…` ends the text.
    cut: bool,
}

impl HeapCause {
    /// No cause known.
    pub const NONE: HeapCause = HeapCause {
        bytes: [0; CAUSE_BYTES],
        len: 0,
        cut: false,
    };

    /// Whether no cause is known.
    #[must_use]
    pub const fn is_none(&self) -> bool {
        self.len == 0
    }

    /// `text` appended, whole characters only: where the room ends, `…`
    /// ends the text (room for it is always kept) and nothing more is
    /// appended.
    #[must_use]
    pub const fn push(mut self, text: &str) -> HeapCause {
        const ELLIPSIS: &[u8] = "…".as_bytes();
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && !self.cut {
            let char_len = match text[i] {
                0..0x80 => 1,
                0xC0..0xE0 => 2,
                0xE0..0xF0 => 3,
                _ => 4,
            };
            if self.len + char_len > CAUSE_BYTES - ELLIPSIS.len() {
                let mut j = 0;
                while j < ELLIPSIS.len() {
                    self.bytes[self.len + j] = ELLIPSIS[j];
                    j += 1;
                }
                self.len += ELLIPSIS.len();
                self.cut = true;
            } else {
                let mut j = 0;
                while j < char_len {
                    self.bytes[self.len + j] = text[i + j];
                    j += 1;
                }
                self.len += char_len;
                i += char_len;
            }
        }
        self
    }

    /// `inner` appended.
    #[must_use]
    pub const fn push_cause(self, inner: &HeapCause) -> HeapCause {
        self.push(inner.as_str())
    }

    /// The cause in `ty`'s field `field` (of type `field_ty`): the field
    /// itself when `inner` (its type's cause) is none (`` `Input::text`
    /// (`String`) ``), else the way through it to `inner`.
    #[must_use]
    pub const fn at(ty: &str, field: &str, field_ty: &str, inner: &HeapCause) -> HeapCause {
        let path = HeapCause::NONE
            .push("`")
            .push(ty)
            .push("::")
            .push(field)
            .push("`");
        if inner.is_none() {
            path.push(" (`").push(field_ty).push("`)")
        } else {
            path.push(" → ").push_cause(inner)
        }
    }

    /// The text.
    #[must_use]
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            // `push` writes whole characters only.
            Err(_) => "",
        }
    }
}

/// How the derive reads a field whose type does not name the arena's
/// lifetime: through its own `serde::Deserialize` where it has one (a
/// number, `[f32; 3]`, a heap `String`, a type of another crate, a type
/// deriving both), as serde's derive reads it, else through its
/// [`DeserializeIn`] (a `Pos { x: f32, y: f32 }` deriving only that, an
/// `Option`, array, `Vec` or `Box` of one). So types deriving only
/// `DeserializeIn` compose, with or without a lifetime, and every field
/// that compiled before reads as before, at the same cost: read through
/// `DeserializeIn`, the std shapes of a 64-entity snapshot (`[f32; 3]`,
/// `(i32, i32)`, `Option<u16>`) took 5 % more instructions to decode from
/// postcard than through serde's own impls.
///
/// `FieldProbe::<T>::REF.kind()` is [`ReadOwn<T>`] or [`ReadIn<T>`]:
/// method resolution tries the receiver's own type, `&FieldProbe<T>`
/// ([`ViaDeserialize`]), before it dereferences it to `FieldProbe<T>`
/// ([`ViaDeserializeIn`]). The derive never calls it: it names it in a
/// closure inside a constant ([`kind_of`], [`kind_field_heap`]), whose
/// type says which way resolution went, so that the choice costs a
/// decode nothing (no call, no check at run time; a call in a recursive
/// message's level would keep what lives across it in the level's frame,
/// in a debug build). A type with neither trait falls to `DeserializeIn`,
/// whose error says to derive it.
#[doc(hidden)]
pub struct FieldProbe<T>(PhantomData<fn() -> T>);

impl<T> Clone for FieldProbe<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for FieldProbe<T> {}

impl<T: 'static> FieldProbe<T> {
    /// The receiver of the probe. The probed types name no arena
    /// lifetime: they are `'static`.
    #[doc(hidden)]
    pub const REF: &'static FieldProbe<T> = &FieldProbe(PhantomData);
}

/// The first choice: `T`'s own `serde::Deserialize`, for every `'de` (a
/// type without the arena's lifetime that has one reads as it always did,
/// under serde's derive and here alike: numbers, `[f32; 3]`, a heap
/// `String`, a type deriving both).
#[doc(hidden)]
pub trait ViaDeserialize<T> {
    fn kind(self) -> ReadOwn<T>;
}

impl<T: for<'de> ::serde::Deserialize<'de>> ViaDeserialize<T> for &FieldProbe<T> {
    #[inline]
    fn kind(self) -> ReadOwn<T> {
        ReadOwn(PhantomData)
    }
}

/// The second: `T`'s [`DeserializeIn`] (a type that derives only that).
/// A type with neither falls here, where rustc's error names
/// `DeserializeIn` and says to derive it.
#[doc(hidden)]
pub trait ViaDeserializeIn<T> {
    fn kind(self) -> ReadIn<T>;
}

impl<T> ViaDeserializeIn<T> for FieldProbe<T> {
    #[inline]
    fn kind(self) -> ReadIn<T> {
        ReadIn(PhantomData)
    }
}

/// How a field of a probed type is read, and what it owns.
#[doc(hidden)]
pub trait HeapKind {
    /// The kind, as a value (a constant: it holds nothing).
    const VALUE: Self;
    const FIELD: FieldHeap;
}

/// A field read through its type's `DeserializeIn`.
#[doc(hidden)]
pub struct ReadIn<T>(PhantomData<fn() -> T>);

/// A field read through its type's own `Deserialize`.
#[doc(hidden)]
pub struct ReadOwn<T>(PhantomData<fn() -> T>);

impl<T: DeserializeIn<'static>> HeapKind for ReadIn<T> {
    const VALUE: Self = ReadIn(PhantomData);
    const FIELD: FieldHeap = field_heap::<'static, T>();
}

impl<T> HeapKind for ReadOwn<T> {
    const VALUE: Self = ReadOwn(PhantomData);
    const FIELD: FieldHeap = own_field_heap::<T>();
}

/// The seed of a probed field: `FieldSeed(arena, const { kind_of(|| ..) })`,
/// a value built with no call. Through its type's `DeserializeIn`, it is
/// `T::deserialize_in` in the decode that reads the struct holding it, as
/// an element of an arena list is read (an [`InArena`](super::InArena)
/// seed would look whether a decode is running first, a load and a
/// branch on every number of a message); through its own `Deserialize`,
/// serde's.
#[doc(hidden)]
pub struct FieldSeed<'a, K>(pub &'a FrameArena, pub K);

impl<'de, 'a, T: DeserializeIn<'a>> ::serde::de::DeserializeSeed<'de> for FieldSeed<'a, ReadIn<T>> {
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.0, deserializer)
    }
}

impl<'de, T: ::serde::Deserialize<'de>> ::serde::de::DeserializeSeed<'de>
    for FieldSeed<'_, ReadOwn<T>>
{
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(deserializer)
    }
}

/// The kind itself, for [`FieldSeed`]: `probe` is never called (a trait
/// method cannot be, in a constant), its type only says which way method
/// resolution went.
#[doc(hidden)]
#[must_use]
pub const fn kind_of<K: HeapKind>(probe: impl FnOnce() -> K) -> K {
    core::mem::forget(probe);
    K::VALUE
}

/// What a probed field owns (see [`kind_of`]).
#[doc(hidden)]
#[must_use]
pub const fn kind_field_heap<K: HeapKind>(probe: impl FnOnce() -> K) -> FieldHeap {
    core::mem::forget(probe);
    K::FIELD
}
