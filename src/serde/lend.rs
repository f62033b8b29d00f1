//! Values lent by a buffer instead of copied out of it. An untagged or
//! tagged enum buffers its input ([`Content`], `content.rs`) and reads its
//! variants back from that buffer (`ContentDeserializer`, `content_de.rs`).
//! Two kinds of reader would copy what the buffer already holds in the
//! arena, for the rest of the frame:
//!
//! - an enum nested in the buffered one, which buffers its part again
//!   (serde's derive clones it there): `d` deep, `d` times the input;
//! - a `&'a str` field, which copies its text again, in every variant an
//!   untagged enum tries (a failed try's copies stay in the arena: nested
//!   `d` deep, the tries multiply them).
//!
//! So such a reader asks for the value to be lent ([`asking`]): the
//! arena's `lend_wanted` says which kind, for the length of the call the
//! reader makes. A `ContentDeserializer` over a buffer of the same arena
//! (one made from a [`Buffered`], which lies wholly in that arena) answers
//! ([`answer`]) only a visitor of the asking reader's own type, handed to
//! it as the reader made it: it lends the value for the length of that
//! visitor's `visit_unit` call, which takes it ([`take_content`],
//! [`take_str`]). A visitor of any other type (a `Deserializer` wrapper's,
//! which may change the value on its way, or a value read some other way
//! first) gets the value as before, and the question ends there; any other
//! deserializer never looks, and the reader copies what it is given. The
//! arena keeps the kind with the value: a reader of one kind never reads a
//! value of another.
//!
//! Why a lent value's references are valid for `'a`, the taker's borrow
//! of the arena (the lifetime [`take_content`] and [`take_str`] give it):
//! a `Buffered` is made only of what a `ContentSeed` of its arena
//! returned, so every reference in a lent value is into that arena, to
//! text, bytes and values the seed allocated there and leaked into the
//! frame (nothing frees or writes them: they have no owner that could give
//! them back through the arena's `Allocator` methods, which alone free
//! memory through a shared borrow, and only the newest block); and the rest
//! of an arena's memory stays where it is while any shared borrow of the
//! arena lasts (a reset takes the arena by `&mut`, `reclaim` by value, a
//! scope's rewind by `&mut`). The lender checks the kind
//! asked for in its own arena's state and lends in that arena, and the
//! taker takes from its own: the two are the same arena.

use super::content::Content;
use crate::arena::FrameArena;

#[cfg(doc)]
use super::content::Buffered;

/// A [`Content`], asked for by a `ContentSeed`.
pub(super) const CONTENT: u8 = 1;
/// A `&str` of a `Content::Str`, asked for by `&'a str`'s decode.
pub(super) const STR: u8 = 2;

/// Runs `read` (which calls a deserializer with a visitor of kind `kind`)
/// asking for a value of that kind to be lent.
///
/// No guard clears the question if `read` unwinds: every `&'a str` of a
/// packet asks, and a guard's unwinding path cost the postcard snapshot's
/// decode 6 % of its instructions. A question left by a panic is cleared
/// by the next question and when the decode ends (`limits`); only code of
/// yours that catches the panic inside a decode and reads on from a buffer
/// made before it could see it answered: its visitor then gets a
/// `visit_unit` in place of the value (an error for most visitors, `None`
/// for an `Option`'s), never a value of another kind.
#[inline]
pub(super) fn asking<R>(arena: &FrameArena, kind: u8, read: impl FnOnce() -> R) -> R {
    let wanted = &arena.decode_state().lend_wanted;
    wanted.set(kind);
    let value = read();
    wanted.set(0);
    value
}

/// Whether a reader of kind `kind`, whose visitor is a `Reader`, is asking
/// in `arena` (the lender's own arena) now, and `V`, the visitor the
/// lender was handed, is that reader's own: the lender's first step in the
/// call the reader made. Asked, the question ends here either way. (Types
/// are told apart by name, lifetimes aside: the readers' visitors are this
/// crate's private types, which no other type is named as.)
#[inline]
pub(super) fn answer<Reader, V>(arena: &FrameArena, kind: u8) -> bool {
    let wanted = &arena.decode_state().lend_wanted;
    if wanted.get() != kind {
        return false;
    }
    wanted.set(0);
    core::any::type_name::<V>() == core::any::type_name::<Reader>()
}

/// The buffered value lent to a `ContentSeed` of `arena`, if one is.
#[inline]
pub(super) fn take_content<'a>(arena: &'a FrameArena) -> Option<Content<'a>> {
    let lent = arena.decode_state().lent.take(CONTENT)?;
    // A value of kind `CONTENT` is lent in an arena only by a
    // `ContentDeserializer` made from a `Buffered` of that arena (or from
    // a part of one), for the length of its visitor's `visit_unit` call,
    // which this is inside (`Lent`'s guard clears it when the call ends).
    // SAFETY: it points to that deserializer's own live `Content`, read as a copy; its references are valid for `'a` (the module's comment).
    let content = unsafe { lent.cast::<Content<'a>>().read() };
    Some(content)
}

/// The text lent to `&'a str`'s decode in `arena`, if one is.
#[inline]
pub(super) fn take_str<'a>(arena: &'a FrameArena) -> Option<&'a str> {
    let lent = arena.decode_state().lent.take(STR)?;
    // A value of kind `STR` is lent in an arena only by a
    // `ContentDeserializer` made from a `Buffered` of that arena (or from
    // a part of one), for the length of its visitor's `visit_unit` call,
    // which this is inside (`Lent`'s guard clears it when the call ends).
    // SAFETY: it points to the live `&str` of that deserializer's `Content::Str`, read as a copy; the text is valid for `'a` (the module's comment).
    let text = unsafe { lent.cast::<&'a str>().read() };
    Some(text)
}
