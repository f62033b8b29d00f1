//! Serializing what lives in an arena: `String` and `SegmentedList`
//! implement `Serialize`; arena `Vec` and `Box` fields serialize through
//! [`vec`] and [`boxed`].

use core::alloc::Allocator;

use ::serde::{Serialize, Serializer};

use crate::segmented::SegmentedList;
use crate::string::String;

impl<A: Allocator> Serialize for String<A> {
    /// As a string, like std's `String`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl<T: Serialize, A: Allocator> Serialize for SegmentedList<T, A> {
    /// As a sequence of its elements, like a `Vec`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Serializes a `Vec<T, A>` in any allocator (a [`FrameVec`](crate::FrameVec))
/// as a sequence, like a `Vec<T>`: serde implements its trait for std's
/// `Vec<T>` alone, and the orphan rule keeps this crate from adding it.
/// Name it on the field: `#[serde(with = "tickarena::serde::vec")]`.
///
/// # Example
///
/// ```
/// use serde::Serialize;
/// use tickarena::{FrameArena, FrameVec, vec_in};
///
/// #[derive(Serialize)]
/// struct Hits<'f> {
///     #[serde(with = "tickarena::serde::vec")]
///     ids: FrameVec<'f, u32>,
/// }
/// let arena = FrameArena::new();
/// let hits = Hits { ids: vec_in![&arena; 4, 2] };
/// assert_eq!(serde_json::to_string(&hits).unwrap(), r#"{"ids":[4,2]}"#);
/// ```
pub mod vec {
    use alloc::vec::Vec;
    use core::alloc::Allocator;

    use ::serde::{Serialize, Serializer};

    /// `vec` as a sequence of its elements.
    ///
    /// # Errors
    ///
    /// The serializer's.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let ids = tickarena::vec_in![&arena; 1u8, 2];
    /// let mut json = Vec::new();
    /// tickarena::serde::vec::serialize(&ids, &mut serde_json::Serializer::new(&mut json)).unwrap();
    /// assert_eq!(json, b"[1,2]");
    /// ```
    pub fn serialize<T: Serialize, A: Allocator, S: Serializer>(
        vec: &Vec<T, A>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        vec.as_slice().serialize(serializer)
    }
}

/// Serializes a `Box<T, A>` in any allocator (a [`FrameBox`](crate::FrameBox))
/// as its `T`, like a `Box<T>`: `#[serde(with = "tickarena::serde::boxed")]`.
///
/// # Example
///
/// ```
/// use serde::Serialize;
/// use tickarena::{FrameArena, FrameBox};
///
/// #[derive(Serialize)]
/// struct Event<'f> {
///     #[serde(with = "tickarena::serde::boxed")]
///     at: FrameBox<'f, (i32, i32)>,
/// }
/// let arena = FrameArena::new();
/// let event = Event { at: Box::new_in((3, 4), &arena) };
/// assert_eq!(serde_json::to_string(&event).unwrap(), r#"{"at":[3,4]}"#);
/// ```
pub mod boxed {
    use alloc::boxed::Box;
    use core::alloc::Allocator;

    use ::serde::{Serialize, Serializer};

    /// `boxed`'s value.
    ///
    /// # Errors
    ///
    /// The serializer's.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let boxed = Box::new_in(7u8, &arena);
    /// let mut json = Vec::new();
    /// tickarena::serde::boxed::serialize(&boxed, &mut serde_json::Serializer::new(&mut json)).unwrap();
    /// assert_eq!(json, b"7");
    /// ```
    #[allow(clippy::borrowed_box, reason = "serde's `with` hands over `&field`")]
    pub fn serialize<T: Serialize + ?Sized, A: Allocator, S: Serializer>(
        boxed: &Box<T, A>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        (**boxed).serialize(serializer)
    }
}
