//! Conversions of [`String<A>`]: from and into std's string types, boxes,
//! byte vectors, characters and iterators (std's `From`, `TryFrom`,
//! `FromStr` and `FromIterator` impls).

use alloc::alloc::Global;
use alloc::borrow::{Cow, ToOwned};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::alloc::Allocator;
use core::convert::Infallible;
use core::str::FromStr;

use super::{FromUtf8Error, String};

impl From<&str> for String {
    fn from(s: &str) -> String {
        String::from_str_in(s, Global)
    }
}

impl From<alloc::string::String> for String {
    /// Takes over the std string's buffer, without copying.
    fn from(s: alloc::string::String) -> String {
        String {
            vec: s.into_bytes(),
        }
    }
}

impl<A: Allocator> From<String<A>> for alloc::string::String {
    /// Copies the contents into a std string on the global allocator.
    fn from(s: String<A>) -> alloc::string::String {
        s.as_str().to_owned()
    }
}

impl FromIterator<char> for String {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> String {
        let mut string = String::new();
        string.extend(iter);
        string
    }
}

impl<'a> FromIterator<&'a str> for String {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> String {
        let mut string = String::new();
        string.extend(iter);
        string
    }
}

impl From<char> for String {
    fn from(ch: char) -> String {
        let mut string = String::new();
        string.push(ch);
        string
    }
}

impl From<&mut str> for String {
    fn from(s: &mut str) -> String {
        String::from(&*s)
    }
}

impl<A: Allocator> From<&String<A>> for String {
    /// A copy on the global allocator.
    fn from(s: &String<A>) -> String {
        String::from(s.as_str())
    }
}

impl From<&alloc::string::String> for String {
    fn from(s: &alloc::string::String) -> String {
        String::from(s.as_str())
    }
}

impl From<Cow<'_, str>> for String {
    /// Takes over an owned std string's buffer; copies a borrowed one.
    fn from(s: Cow<'_, str>) -> String {
        match s {
            Cow::Borrowed(s) => String::from(s),
            Cow::Owned(s) => String::from(s),
        }
    }
}

impl<A: Allocator> From<Box<str, A>> for String<A> {
    /// Takes over the box's bytes, without copying.
    fn from(s: Box<str, A>) -> String<A> {
        let (bytes, alloc) = Box::into_raw_with_allocator(s);
        // SAFETY: `str` has the layout of `[u8]`, so the box's allocation
        // is a `[u8]` of the same length in the same allocator.
        let bytes = unsafe { Box::from_raw_in(bytes as *mut [u8], alloc) };
        String {
            vec: bytes.into_vec(),
        }
    }
}

impl<A: Allocator> From<String<A>> for Box<str, A> {
    fn from(s: String<A>) -> Box<str, A> {
        s.into_boxed_str()
    }
}

impl<A: Allocator> From<String<A>> for Vec<u8, A> {
    fn from(s: String<A>) -> Vec<u8, A> {
        s.into_bytes()
    }
}

impl<A: Allocator> TryFrom<Vec<u8, A>> for String<A> {
    type Error = FromUtf8Error<A>;

    /// [`String::from_utf8`].
    fn try_from(bytes: Vec<u8, A>) -> Result<String<A>, FromUtf8Error<A>> {
        String::from_utf8(bytes)
    }
}

#[cfg(feature = "std")]
impl<A: Allocator> From<String<A>> for std::sync::Arc<str> {
    fn from(s: String<A>) -> std::sync::Arc<str> {
        std::sync::Arc::from(s.as_str())
    }
}

#[cfg(feature = "std")]
impl<A: Allocator> From<String<A>> for std::rc::Rc<str> {
    fn from(s: String<A>) -> std::rc::Rc<str> {
        std::rc::Rc::from(s.as_str())
    }
}

#[cfg(feature = "std")]
impl<A: Allocator> From<String<A>> for Box<dyn core::error::Error + Send + Sync> {
    fn from(s: String<A>) -> Box<dyn core::error::Error + Send + Sync> {
        Box::from(alloc::string::String::from(s))
    }
}

impl FromStr for String {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<String, Infallible> {
        Ok(String::from(s))
    }
}

impl<'a> FromIterator<&'a char> for String {
    fn from_iter<I: IntoIterator<Item = &'a char>>(iter: I) -> String {
        iter.into_iter().copied().collect()
    }
}

impl FromIterator<String> for String {
    /// Reuses the first string's buffer, as std's does.
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> String {
        let mut iter = iter.into_iter();
        let mut first = iter.next().unwrap_or_default();
        first.extend(iter);
        first
    }
}

impl<A: Allocator> FromIterator<Box<str, A>> for String {
    fn from_iter<I: IntoIterator<Item = Box<str, A>>>(iter: I) -> String {
        let mut string = String::new();
        string.extend(iter);
        string
    }
}

impl<'a> FromIterator<Cow<'a, str>> for String {
    fn from_iter<I: IntoIterator<Item = Cow<'a, str>>>(iter: I) -> String {
        let mut string = String::new();
        string.extend(iter);
        string
    }
}
