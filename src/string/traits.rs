//! The std traits of [`String<A>`]: deref to `str`, formatting, comparison
//! with every string type, hashing like `str`, extension and conversion.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use core::alloc::Allocator;
use core::borrow::{Borrow, BorrowMut};
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Add, AddAssign, Deref, DerefMut, Index, IndexMut};
use core::slice::SliceIndex;

use super::String;

impl<A: Allocator> Deref for String<A> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<A: Allocator> DerefMut for String<A> {
    fn deref_mut(&mut self) -> &mut str {
        self.as_mut_str()
    }
}

impl<A: Allocator> AsRef<str> for String<A> {
    fn as_ref(&self) -> &str {
        self
    }
}

impl<A: Allocator> AsRef<[u8]> for String<A> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<A: Allocator> Borrow<str> for String<A> {
    fn borrow(&self) -> &str {
        self
    }
}

impl<A: Allocator> BorrowMut<str> for String<A> {
    fn borrow_mut(&mut self) -> &mut str {
        self
    }
}

impl<A: Allocator> fmt::Display for String<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl<A: Allocator> fmt::Debug for String<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<A: Allocator + Clone> Clone for String<A> {
    /// A copy in the same allocator.
    fn clone(&self) -> Self {
        String {
            vec: self.vec.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.clear();
        self.push_str(source);
    }
}

impl<A: Allocator + Default> Default for String<A> {
    /// An empty string, without allocating.
    fn default() -> Self {
        String::new_in(A::default())
    }
}

impl<A: Allocator> Hash for String<A> {
    /// Hashes like `str`, so a `String<A>` key finds a `&str` lookup.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl<A: Allocator, B: Allocator> PartialEq<String<B>> for String<A> {
    fn eq(&self, other: &String<B>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<A: Allocator> Eq for String<A> {}

impl<A: Allocator, B: Allocator> PartialOrd<String<B>> for String<A> {
    fn partial_cmp(&self, other: &String<B>) -> Option<Ordering> {
        Some(self.as_str().cmp(other.as_str()))
    }
}

impl<A: Allocator> Ord for String<A> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// `PartialEq` and `PartialOrd` both ways between `String<A>` and a
/// std string type, all by comparing as `str`.
macro_rules! compare_with {
    ($($other:ty),*) => {$(
        impl<A: Allocator> PartialEq<$other> for String<A> {
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl<A: Allocator> PartialEq<String<A>> for $other {
            fn eq(&self, other: &String<A>) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
        impl<A: Allocator> PartialOrd<$other> for String<A> {
            fn partial_cmp(&self, other: &$other) -> Option<Ordering> {
                Some(self.as_str().cmp(AsRef::<str>::as_ref(other)))
            }
        }
        impl<A: Allocator> PartialOrd<String<A>> for $other {
            fn partial_cmp(&self, other: &String<A>) -> Option<Ordering> {
                Some(AsRef::<str>::as_ref(self).cmp(other.as_str()))
            }
        }
    )*};
}

compare_with!(str, &str, alloc::string::String, Cow<'_, str>);

impl<A: Allocator> Extend<char> for String<A> {
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        iter.for_each(|ch| self.push(ch));
    }
}

impl<'a, A: Allocator> Extend<&'a char> for String<A> {
    fn extend<I: IntoIterator<Item = &'a char>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<'a, A: Allocator> Extend<&'a str> for String<A> {
    fn extend<I: IntoIterator<Item = &'a str>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(s));
    }
}

impl<A: Allocator> Add<&str> for String<A> {
    type Output = String<A>;
    /// Appends `rhs`, reusing this string's buffer.
    fn add(mut self, rhs: &str) -> String<A> {
        self.push_str(rhs);
        self
    }
}

impl<A: Allocator> AddAssign<&str> for String<A> {
    fn add_assign(&mut self, rhs: &str) {
        self.push_str(rhs);
    }
}

impl<A: Allocator, I: SliceIndex<str>> Index<I> for String<A> {
    type Output = I::Output;

    /// `&s[range]`, as `str` indexes (every range type, and `usize`
    /// ranges' panics).
    #[inline]
    fn index(&self, index: I) -> &I::Output {
        self.as_str().index(index)
    }
}

impl<A: Allocator, I: SliceIndex<str>> IndexMut<I> for String<A> {
    #[inline]
    fn index_mut(&mut self, index: I) -> &mut I::Output {
        self.as_mut_str().index_mut(index)
    }
}

impl<A: Allocator> AsMut<str> for String<A> {
    fn as_mut(&mut self) -> &mut str {
        self.as_mut_str()
    }
}

impl<A: Allocator, B: Allocator> Extend<String<B>> for String<A> {
    fn extend<I: IntoIterator<Item = String<B>>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(&s));
    }
}

impl<A: Allocator> Extend<alloc::string::String> for String<A> {
    fn extend<I: IntoIterator<Item = alloc::string::String>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(&s));
    }
}

impl<A: Allocator, B: Allocator> Extend<Box<str, B>> for String<A> {
    fn extend<I: IntoIterator<Item = Box<str, B>>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(&s));
    }
}

impl<'a, A: Allocator> Extend<Cow<'a, str>> for String<A> {
    fn extend<I: IntoIterator<Item = Cow<'a, str>>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(&s));
    }
}

#[cfg(feature = "std")]
impl<A: Allocator> AsRef<std::ffi::OsStr> for String<A> {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.as_str().as_ref()
    }
}

#[cfg(feature = "std")]
impl<A: Allocator> AsRef<std::path::Path> for String<A> {
    fn as_ref(&self) -> &std::path::Path {
        self.as_str().as_ref()
    }
}
