//! The part of a string an iterator over its characters has not yet
//! yielded, from both ends: what [`Drain`](super::Drain) and
//! [`IntoChars`](super::IntoChars) share.

/// Bytes `front..back` of a string: whole characters, not yet yielded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cursor {
    front: usize,
    back: usize,
}

impl Cursor {
    pub(super) fn new(front: usize, back: usize) -> Cursor {
        Cursor { front, back }
    }

    /// The bytes not yet yielded.
    pub(super) fn range(&self) -> core::ops::Range<usize> {
        self.front..self.back
    }

    /// The characters of `text` not yet yielded.
    pub(super) fn rest<'s>(&self, text: &'s str) -> &'s str {
        &text[self.front..self.back]
    }

    /// The next character of `text` from the front.
    #[inline]
    pub(super) fn next(&mut self, text: &str) -> Option<char> {
        let ch = self.rest(text).chars().next()?;
        self.front += ch.len_utf8();
        Some(ch)
    }

    /// The next character of `text` from the back.
    #[inline]
    pub(super) fn next_back(&mut self, text: &str) -> Option<char> {
        let ch = self.rest(text).chars().next_back()?;
        self.back -= ch.len_utf8();
        Some(ch)
    }
}
