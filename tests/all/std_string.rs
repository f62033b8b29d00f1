//! std's own tests of `String` (`library/alloctests/tests/string.rs` of
//! the pinned toolchain's rust-src, nightly-2026-10-29), ported so that the
//! strings they build are `tickarena::String<&FrameArena>` in a
//! `FrameArena`. std's assertions are unchanged; what changed is how each
//! string is made (`String::from(s)` is `String::from_str_in(s, &arena)`,
//! `s.to_string()` of a literal the same, `String::new()` is
//! `String::new_in(&arena)`, `b"..".to_vec()` a byte vector in the arena,
//! `from_utf16(..)` is `from_utf16_in(.., &arena)`).
//!
//! Tests of constructors that take no allocator (std's `From<Cow<str>>`,
//! `From<char>`, `FromStr`, `FromIterator`, `into_cow`) run on
//! `tickarena::String` over the global allocator (`GlobalString` here),
//! which has them as std's does; the arena has their `_in` forms.
//!
//! Skipped, with the reason:
//! * `test_unsized_to_string`, `test_simple_types`, `test_vectors`,
//!   `test_from_escaped_str`: test `ToString` and `format!`, which make
//!   std's `String`, not this type.
//! * `test_remove_matches`, `test_replace_first`, `test_replace_last`,
//!   `test_try_with_capacity`: unstable std APIs (`string_remove_matches`,
//!   `string_replace_in_place`, `try_with_capacity`) that take `Pattern`,
//!   which only std can implement for its own types.
//! * `test_try_reserve`, `test_try_reserve_exact`: run with the `nightly`
//!   feature only (`TryReserveError::kind` is unstable).

#![allow(clippy::all)]

use std::borrow::Cow;
use std::cell::Cell;
#[cfg(feature = "nightly")]
use std::collections::TryReserveErrorKind::*;
use std::ops::Bound::*;
use std::ops::{Bound, RangeBounds};
use std::{panic, str};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::FrameArena;

/// The type under test: std's `String` API in a frame arena.
type String<'a> = tickarena::String<&'a FrameArena>;
/// The same type on the global allocator, for std's constructors that take
/// no allocator.
type GlobalString = tickarena::String;

/// `bytes` copied into a vector in the arena (std's `b"..".to_vec()`).
fn bytes_in<'a>(bytes: &[u8], arena: &'a FrameArena) -> Vec<u8, &'a FrameArena> {
    let mut vec = Vec::with_capacity_in(bytes.len(), arena);
    vec.extend_from_slice(bytes);
    vec
}

/// std's `assert_matches!` (unstable), as the tests use it.
#[cfg(feature = "nightly")]
macro_rules! assert_matches {
    ($value:expr, $pattern:pat, $($message:tt)+) => {
        assert!(matches!($value, $pattern), $($message)+)
    };
}

pub trait IntoCow<'a, B: ?Sized>
where
    B: ToOwned,
{
    fn into_cow(self) -> Cow<'a, B>;
}

impl<'a> IntoCow<'a, str> for std::string::String {
    fn into_cow(self) -> Cow<'a, str> {
        Cow::Owned(self)
    }
}

impl<'a> IntoCow<'a, str> for &'a str {
    fn into_cow(self) -> Cow<'a, str> {
        Cow::Borrowed(self)
    }
}

impl<'a> IntoCow<'a, str> for String<'_> {
    fn into_cow(self) -> Cow<'a, str> {
        Cow::Owned(self.into())
    }
}

#[test]
fn test_from_str() {
    let owned: Option<GlobalString> = "string".parse().ok();
    assert_eq!(owned.as_ref().map(|s| &**s), Some("string"));
}

#[test]
fn test_from_cow_str() {
    assert_eq!(GlobalString::from(Cow::Borrowed("string")), "string");
    assert_eq!(
        GlobalString::from(Cow::Owned(std::string::String::from("string"))),
        "string"
    );
}

#[test]
fn test_from_utf8() {
    let arena = FrameArena::new();
    let xs = bytes_in(b"hello", &arena);
    assert_eq!(
        String::from_utf8(xs).unwrap(),
        String::from_str_in("hello", &arena)
    );

    let xs = bytes_in("ศไทย中华Việt Nam".as_bytes(), &arena);
    assert_eq!(
        String::from_utf8(xs).unwrap(),
        String::from_str_in("ศไทย中华Việt Nam", &arena)
    );

    let xs = bytes_in(b"hello\xFF", &arena);
    let err = String::from_utf8(xs).unwrap_err();
    assert_eq!(err.as_bytes(), b"hello\xff");
    let err_clone = err.clone();
    assert_eq!(err, err_clone);
    assert_eq!(err.into_bytes(), bytes_in(b"hello\xff", &arena));
    assert_eq!(err_clone.utf8_error().valid_up_to(), 5);
}

#[test]
fn test_from_utf8_lossy() {
    let arena = FrameArena::new();
    let xs = b"hello";
    let ys: Cow<'_, str> = "hello".into_cow();
    assert_eq!(String::from_utf8_lossy_in(xs, &arena), ys);

    let xs = "ศไทย中华Việt Nam".as_bytes();
    let ys: Cow<'_, str> = "ศไทย中华Việt Nam".into_cow();
    assert_eq!(String::from_utf8_lossy_in(xs, &arena), ys);

    let xs = b"Hello\xC2 There\xFF Goodbye";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("Hello\u{FFFD} There\u{FFFD} Goodbye", &arena).into_cow()
    );

    let xs = b"Hello\xC0\x80 There\xE6\x83 Goodbye";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("Hello\u{FFFD}\u{FFFD} There\u{FFFD} Goodbye", &arena).into_cow()
    );

    let xs = b"\xF5foo\xF5\x80bar";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("\u{FFFD}foo\u{FFFD}\u{FFFD}bar", &arena).into_cow()
    );

    let xs = b"\xF1foo\xF1\x80bar\xF1\x80\x80baz";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("\u{FFFD}foo\u{FFFD}bar\u{FFFD}baz", &arena).into_cow()
    );

    let xs = b"\xF4foo\xF4\x80bar\xF4\xBFbaz";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("\u{FFFD}foo\u{FFFD}bar\u{FFFD}\u{FFFD}baz", &arena).into_cow()
    );

    let xs = b"\xF0\x80\x80\x80foo\xF0\x90\x80\x80bar";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}foo\u{10000}bar", &arena).into_cow()
    );

    // surrogates
    let xs = b"\xED\xA0\x80foo\xED\xBF\xBFbar";
    assert_eq!(
        String::from_utf8_lossy_in(xs, &arena),
        String::from_str_in(
            "\u{FFFD}\u{FFFD}\u{FFFD}foo\u{FFFD}\u{FFFD}\u{FFFD}bar",
            &arena
        )
        .into_cow()
    );
}

#[test]
fn test_fromutf8error_into_lossy() {
    let arena = FrameArena::new();
    let func = |input: &[u8]| -> String<'_> {
        String::from_utf8(bytes_in(input, &arena)).unwrap_or_else(|e| e.into_utf8_lossy())
    };

    let xs = b"hello";
    let ys = String::from_str_in("hello", &arena);
    assert_eq!(func(xs), ys);

    let xs = "ศไทย中华Việt Nam".as_bytes();
    let ys = String::from_str_in("ศไทย中华Việt Nam", &arena);
    assert_eq!(func(xs), ys);

    let xs = b"Hello\xC2 There\xFF Goodbye";
    assert_eq!(
        func(xs),
        String::from_str_in("Hello\u{FFFD} There\u{FFFD} Goodbye", &arena)
    );

    let xs = b"Hello\xC0\x80 There\xE6\x83 Goodbye";
    assert_eq!(
        func(xs),
        String::from_str_in("Hello\u{FFFD}\u{FFFD} There\u{FFFD} Goodbye", &arena)
    );

    let xs = b"\xF5foo\xF5\x80bar";
    assert_eq!(
        func(xs),
        String::from_str_in("\u{FFFD}foo\u{FFFD}\u{FFFD}bar", &arena)
    );

    let xs = b"\xF1foo\xF1\x80bar\xF1\x80\x80baz";
    assert_eq!(
        func(xs),
        String::from_str_in("\u{FFFD}foo\u{FFFD}bar\u{FFFD}baz", &arena)
    );

    let xs = b"\xF4foo\xF4\x80bar\xF4\xBFbaz";
    assert_eq!(
        func(xs),
        String::from_str_in("\u{FFFD}foo\u{FFFD}bar\u{FFFD}\u{FFFD}baz", &arena)
    );

    let xs = b"\xF0\x80\x80\x80foo\xF0\x90\x80\x80bar";
    assert_eq!(
        func(xs),
        String::from_str_in("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}foo\u{10000}bar", &arena)
    );

    // surrogates
    let xs = b"\xED\xA0\x80foo\xED\xBF\xBFbar";
    assert_eq!(
        func(xs),
        String::from_str_in(
            "\u{FFFD}\u{FFFD}\u{FFFD}foo\u{FFFD}\u{FFFD}\u{FFFD}bar",
            &arena
        )
    );
}

#[test]
fn test_from_utf16() {
    let arena = FrameArena::new();
    let pairs = [
        (
            String::from_str_in("𐍅𐌿𐌻𐍆𐌹𐌻𐌰\n", &arena),
            vec![
                0xd800, 0xdf45, 0xd800, 0xdf3f, 0xd800, 0xdf3b, 0xd800, 0xdf46, 0xd800, 0xdf39,
                0xd800, 0xdf3b, 0xd800, 0xdf30, 0x000a,
            ],
        ),
        (
            String::from_str_in("𐐒𐑉𐐮𐑀𐐲𐑋 𐐏𐐲𐑍\n", &arena),
            vec![
                0xd801, 0xdc12, 0xd801, 0xdc49, 0xd801, 0xdc2e, 0xd801, 0xdc40, 0xd801, 0xdc32,
                0xd801, 0xdc4b, 0x0020, 0xd801, 0xdc0f, 0xd801, 0xdc32, 0xd801, 0xdc4d, 0x000a,
            ],
        ),
        (
            String::from_str_in("𐌀𐌖𐌋𐌄𐌑𐌉·𐌌𐌄𐌕𐌄𐌋𐌉𐌑\n", &arena),
            vec![
                0xd800, 0xdf00, 0xd800, 0xdf16, 0xd800, 0xdf0b, 0xd800, 0xdf04, 0xd800, 0xdf11,
                0xd800, 0xdf09, 0x00b7, 0xd800, 0xdf0c, 0xd800, 0xdf04, 0xd800, 0xdf15, 0xd800,
                0xdf04, 0xd800, 0xdf0b, 0xd800, 0xdf09, 0xd800, 0xdf11, 0x000a,
            ],
        ),
        (
            String::from_str_in("𐒋𐒘𐒈𐒑𐒛𐒒 𐒕𐒓 𐒈𐒚𐒍 𐒏𐒜𐒒𐒖𐒆 𐒕𐒆\n", &arena),
            vec![
                0xd801, 0xdc8b, 0xd801, 0xdc98, 0xd801, 0xdc88, 0xd801, 0xdc91, 0xd801, 0xdc9b,
                0xd801, 0xdc92, 0x0020, 0xd801, 0xdc95, 0xd801, 0xdc93, 0x0020, 0xd801, 0xdc88,
                0xd801, 0xdc9a, 0xd801, 0xdc8d, 0x0020, 0xd801, 0xdc8f, 0xd801, 0xdc9c, 0xd801,
                0xdc92, 0xd801, 0xdc96, 0xd801, 0xdc86, 0x0020, 0xd801, 0xdc95, 0xd801, 0xdc86,
                0x000a,
            ],
        ),
        // Issue #12318, even-numbered non-BMP planes
        (
            String::from_str_in("\u{20000}", &arena),
            vec![0xD840, 0xDC00],
        ),
    ];

    for p in &pairs {
        let (s, u) = (*p).clone();
        let s_as_utf16 = s.encode_utf16().collect::<Vec<u16>>();
        let u_as_string = String::from_utf16_in(&u, &arena).unwrap();

        assert!(core::char::decode_utf16(u.iter().cloned()).all(|r| r.is_ok()));
        assert_eq!(s_as_utf16, u);

        assert_eq!(u_as_string, s);
        assert_eq!(String::from_utf16_lossy_in(&u, &arena), s);

        assert_eq!(String::from_utf16_in(&s_as_utf16, &arena).unwrap(), s);
        assert_eq!(u_as_string.encode_utf16().collect::<Vec<u16>>(), u);
    }
}

#[test]
fn test_utf16_invalid() {
    let arena = FrameArena::new();
    // completely positive cases tested above.
    // lead + eof
    assert!(String::from_utf16_in(&[0xD800], &arena).is_err());
    // lead + lead
    assert!(String::from_utf16_in(&[0xD800, 0xD800], &arena).is_err());

    // isolated trail
    assert!(String::from_utf16_in(&[0x0061, 0xDC00], &arena).is_err());

    // general
    assert!(String::from_utf16_in(&[0xD800, 0xd801, 0xdc8b, 0xD800], &arena).is_err());
}

#[test]
fn test_from_utf16_lossy() {
    let arena = FrameArena::new();
    // completely positive cases tested above.
    // lead + eof
    assert_eq!(
        String::from_utf16_lossy_in(&[0xD800], &arena),
        String::from_str_in("\u{FFFD}", &arena)
    );
    // lead + lead
    assert_eq!(
        String::from_utf16_lossy_in(&[0xD800, 0xD800], &arena),
        String::from_str_in("\u{FFFD}\u{FFFD}", &arena)
    );

    // isolated trail
    assert_eq!(
        String::from_utf16_lossy_in(&[0x0061, 0xDC00], &arena),
        String::from_str_in("a\u{FFFD}", &arena)
    );

    // general
    assert_eq!(
        String::from_utf16_lossy_in(&[0xD800, 0xd801, 0xdc8b, 0xD800], &arena),
        String::from_str_in("\u{FFFD}𐒋\u{FFFD}", &arena)
    );
}

#[test]
fn test_push_bytes() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("ABC", &arena);
    unsafe {
        let mv = s.as_mut_vec();
        mv.extend_from_slice(&[b'D']);
    }
    assert_eq!(s, "ABCD");
}

#[test]
fn test_push_str() {
    let arena = FrameArena::new();
    let mut s = String::new_in(&arena);
    s.push_str("");
    assert_eq!(&s[0..], "");
    s.push_str("abc");
    assert_eq!(&s[0..], "abc");
    s.push_str("ประเทศไทย中华Việt Nam");
    assert_eq!(&s[0..], "abcประเทศไทย中华Việt Nam");
}

#[test]
fn test_add_assign() {
    let arena = FrameArena::new();
    let mut s = String::new_in(&arena);
    s += "";
    assert_eq!(s.as_str(), "");
    s += "abc";
    assert_eq!(s.as_str(), "abc");
    s += "ประเทศไทย中华Việt Nam";
    assert_eq!(s.as_str(), "abcประเทศไทย中华Việt Nam");
}

#[test]
fn test_push() {
    let arena = FrameArena::new();
    let mut data = String::from_str_in("ประเทศไทย中", &arena);
    data.push('华');
    data.push('b'); // 1 byte
    data.push('¢'); // 2 byte
    data.push('€'); // 3 byte
    data.push('𤭢'); // 4 byte
    assert_eq!(data, "ประเทศไทย中华b¢€𤭢");
}

#[test]
fn test_pop() {
    let arena = FrameArena::new();
    let mut data = String::from_str_in("ประเทศไทย中华b¢€𤭢", &arena);
    assert_eq!(data.pop().unwrap(), '𤭢'); // 4 bytes
    assert_eq!(data.pop().unwrap(), '€'); // 3 bytes
    assert_eq!(data.pop().unwrap(), '¢'); // 2 bytes
    assert_eq!(data.pop().unwrap(), 'b'); // 1 bytes
    assert_eq!(data.pop().unwrap(), '华');
    assert_eq!(data, "ประเทศไทย中");
}

#[test]
fn test_split_off_empty() {
    let arena = FrameArena::new();
    let orig = "Hello, world!";
    let mut split = String::from_str_in(orig, &arena);
    let empty: String = split.split_off(orig.len());
    assert!(empty.is_empty());
}

#[test]
#[should_panic]
fn test_split_off_past_end() {
    let arena = FrameArena::new();
    let orig = "Hello, world!";
    let mut split = String::from_str_in(orig, &arena);
    let _ = split.split_off(orig.len() + 1);
}

#[test]
#[should_panic]
fn test_split_off_mid_char() {
    let arena = FrameArena::new();
    let mut shan = String::from_str_in("山", &arena);
    let _broken_mountain = shan.split_off(1);
}

#[test]
fn test_split_off_ascii() {
    let arena = FrameArena::new();
    let mut ab = String::from_str_in("ABCD", &arena);
    let orig_capacity = ab.capacity();
    let cd = ab.split_off(2);
    assert_eq!(ab, "AB");
    assert_eq!(cd, "CD");
    assert_eq!(ab.capacity(), orig_capacity);
}

#[test]
fn test_split_off_unicode() {
    let arena = FrameArena::new();
    let mut nihon = String::from_str_in("日本語", &arena);
    let orig_capacity = nihon.capacity();
    let go = nihon.split_off("日本".len());
    assert_eq!(nihon, "日本");
    assert_eq!(go, "語");
    assert_eq!(nihon.capacity(), orig_capacity);
}

#[test]
fn test_str_truncate() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.truncate(5);
    assert_eq!(s, "12345");
    s.truncate(3);
    assert_eq!(s, "123");
    s.truncate(0);
    assert_eq!(s, "");

    let mut s = String::from_str_in("12345", &arena);
    let p = s.as_ptr();
    s.truncate(3);
    s.push_str("6");
    let p_ = s.as_ptr();
    assert_eq!(p_, p);
}

#[test]
fn test_str_truncate_invalid_len() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.truncate(6);
    assert_eq!(s, "12345");
}

#[test]
#[should_panic]
fn test_str_truncate_split_codepoint() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("\u{FC}", &arena); // ü
    s.truncate(1);
}

#[test]
fn test_str_clear() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.clear();
    assert_eq!(s.len(), 0);
    assert_eq!(s, "");
}

#[test]
fn test_str_add() {
    let arena = FrameArena::new();
    let a = String::from_str_in("12345", &arena);
    let b = a + "2";
    let b = b + "2";
    assert_eq!(b.len(), 7);
    assert_eq!(b, "1234522");
}

#[test]
fn remove() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("ศไทย中华Việt Nam; foobar", &arena);
    assert_eq!(s.remove(0), 'ศ');
    assert_eq!(s.len(), 33);
    assert_eq!(s, "ไทย中华Việt Nam; foobar");
    assert_eq!(s.remove(17), 'ệ');
    assert_eq!(s, "ไทย中华Vit Nam; foobar");
}

#[test]
#[should_panic]
fn remove_bad() {
    let arena = FrameArena::new();
    String::from_str_in("ศ", &arena).remove(1);
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_retain() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("α_β_γ", &arena);

    s.retain(|_| true);
    assert_eq!(s, "α_β_γ");

    s.retain(|c| c != '_');
    assert_eq!(s, "αβγ");

    s.retain(|c| c != 'β');
    assert_eq!(s, "αγ");

    s.retain(|c| c == 'α');
    assert_eq!(s, "α");

    s.retain(|_| false);
    assert_eq!(s, "");

    let mut s = String::from_str_in("0è0", &arena);
    let _ = panic::catch_unwind(panic::AssertUnwindSafe(|| {
        let mut count = 0;
        s.retain(|_| {
            count += 1;
            match count {
                1 => false,
                2 => true,
                _ => panic!(),
            }
        });
    }));
    assert!(std::str::from_utf8(s.as_bytes()).is_ok());
}

#[test]
fn insert() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("foobar", &arena);
    s.insert(0, 'ệ');
    assert_eq!(s, "ệfoobar");
    s.insert(6, 'ย');
    assert_eq!(s, "ệfooยbar");
}

#[test]
#[should_panic]
fn insert_bad1() {
    let arena = FrameArena::new();
    String::from_str_in("", &arena).insert(1, 't');
}
#[test]
#[should_panic]
fn insert_bad2() {
    let arena = FrameArena::new();
    String::from_str_in("ệ", &arena).insert(1, 't');
}

#[test]
fn test_slicing() {
    let arena = FrameArena::new();
    let s = String::from_str_in("foobar", &arena);
    assert_eq!("foobar", &s[..]);
    assert_eq!("foo", &s[..3]);
    assert_eq!("bar", &s[3..]);
    assert_eq!("oob", &s[1..4]);
}

#[test]
fn test_from_iterator() {
    let arena = FrameArena::new();
    let s = String::from_str_in("ศไทย中华Việt Nam", &arena);
    let t = "ศไทย中华";
    let u = "Việt Nam";

    let a: GlobalString = s.chars().collect();
    assert_eq!(s, a);

    let mut b = String::from_str_in(t, &arena);
    b.extend(u.chars());
    assert_eq!(s, b);

    let c: GlobalString = [t, u].into_iter().collect();
    assert_eq!(s, c);

    let mut d = String::from_str_in(t, &arena);
    d.extend(vec![u]);
    assert_eq!(s, d);
}

#[test]
fn test_drain() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("αβγ", &arena);
    assert_eq!(s.drain(2..4).collect::<GlobalString>(), "β");
    assert_eq!(s, "αγ");

    let mut t = String::from_str_in("abcd", &arena);
    t.drain(..0);
    assert_eq!(t, "abcd");
    t.drain(..1);
    assert_eq!(t, "bcd");
    t.drain(3..);
    assert_eq!(t, "bcd");
    t.drain(..);
    assert_eq!(t, "");
}

#[test]
#[should_panic]
fn test_drain_start_overflow() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("abc", &arena);
    s.drain((Excluded(usize::MAX), Included(0)));
}

#[test]
#[should_panic]
fn test_drain_end_overflow() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("abc", &arena);
    s.drain((Included(0), Included(usize::MAX)));
}

#[test]
fn test_replace_range() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("Hello, world!", &arena);
    s.replace_range(7..12, "世界");
    assert_eq!(s, "Hello, 世界!");
}

#[test]
#[should_panic = "start of range should be a character boundary"]
fn test_replace_range_start_char_boundary() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("Hello, 世界!", &arena);
    s.replace_range(8.., "");
}

#[test]
#[should_panic = "end of range should be a character boundary"]
fn test_replace_range_end_char_boundary() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("Hello, 世界!", &arena);
    s.replace_range(..8, "");
}

#[test]
fn test_replace_range_inclusive_range() {
    let arena = FrameArena::new();
    let mut v = String::from_str_in("12345", &arena);
    v.replace_range(2..=3, "789");
    assert_eq!(v, "127895");
    v.replace_range(1..=2, "A");
    assert_eq!(v, "1A895");
}

#[test]
#[should_panic = "range end index 6 out of range for slice of length 5"]
fn test_replace_range_out_of_bounds() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.replace_range(5..6, "789");
}

#[test]
#[should_panic = "range end index 5 out of range for slice of length 5"]
fn test_replace_range_inclusive_out_of_bounds() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.replace_range(5..=5, "789");
}

// The overflowed index value is target-dependent,
// so we don't check for its exact value in the panic message
#[test]
#[should_panic = "out of range for slice of length 3"]
fn test_replace_range_start_overflow() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("123", &arena);
    s.replace_range((Excluded(usize::MAX), Included(0)), "");
}

// The overflowed index value is target-dependent,
// so we don't check for its exact value in the panic message
#[test]
#[should_panic = "out of range for slice of length 3"]
fn test_replace_range_end_overflow() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("456", &arena);
    s.replace_range((Included(0), Included(usize::MAX)), "");
}

#[test]
fn test_replace_range_empty() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.replace_range(1..2, "");
    assert_eq!(s, "1345");
}

#[test]
fn test_replace_range_unbounded() {
    let arena = FrameArena::new();
    let mut s = String::from_str_in("12345", &arena);
    s.replace_range(.., "");
    assert_eq!(s, "");
}

#[test]
fn test_replace_range_evil_start_bound() {
    let arena = FrameArena::new();
    struct EvilRange(Cell<bool>);

    impl RangeBounds<usize> for EvilRange {
        fn start_bound(&self) -> Bound<&usize> {
            Bound::Included(if self.0.get() {
                &1
            } else {
                self.0.set(true);
                &0
            })
        }
        fn end_bound(&self) -> Bound<&usize> {
            Bound::Unbounded
        }
    }

    let mut s = String::from_str_in("🦀", &arena);
    s.replace_range(EvilRange(Cell::new(false)), "");
    assert_eq!(Ok(""), str::from_utf8(s.as_bytes()));
}

#[test]
fn test_replace_range_evil_end_bound() {
    let arena = FrameArena::new();
    struct EvilRange(Cell<bool>);

    impl RangeBounds<usize> for EvilRange {
        fn start_bound(&self) -> Bound<&usize> {
            Bound::Included(&0)
        }
        fn end_bound(&self) -> Bound<&usize> {
            Bound::Excluded(if self.0.get() {
                &3
            } else {
                self.0.set(true);
                &4
            })
        }
    }

    let mut s = String::from_str_in("🦀", &arena);
    s.replace_range(EvilRange(Cell::new(false)), "");
    assert_eq!(Ok(""), str::from_utf8(s.as_bytes()));
}

#[test]
fn test_extend_ref() {
    let arena = FrameArena::new();
    let mut a = String::from_str_in("foo", &arena);
    a.extend(&['b', 'a', 'r']);

    assert_eq!(&a, "foobar");
}

#[test]
fn test_into_boxed_str() {
    let arena = FrameArena::new();
    let xs = String::from_str_in("hello my name is bob", &arena);
    let ys = xs.into_boxed_str();
    assert_eq!(&*ys, "hello my name is bob");
}

#[test]
fn test_reserve_exact() {
    let arena = FrameArena::new();
    // This is all the same as test_reserve

    let mut s = String::new_in(&arena);
    assert_eq!(s.capacity(), 0);

    s.reserve_exact(2);
    assert!(s.capacity() >= 2);

    for _i in 0..16 {
        s.push('0');
    }

    assert!(s.capacity() >= 16);
    s.reserve_exact(16);
    assert!(s.capacity() >= 32);

    s.push('0');

    s.reserve_exact(16);
    assert!(s.capacity() >= 33)
}

#[test]
#[cfg_attr(miri, ignore)] // Miri does not support signalling OOM
#[cfg(feature = "nightly")]
fn test_try_reserve() {
    let arena = FrameArena::new();
    // These are the interesting cases:
    // * exactly isize::MAX should never trigger a CapacityOverflow (can be OOM)
    // * > isize::MAX should always fail
    //    * On 16/32-bit should CapacityOverflow
    //    * On 64-bit should OOM
    // * overflow may trigger when adding `len` to `cap` (in number of elements)
    // * overflow may trigger when multiplying `new_cap` by size_of::<T> (to get bytes)

    const MAX_CAP: usize = isize::MAX as usize;
    const MAX_USIZE: usize = usize::MAX;

    {
        // Note: basic stuff is checked by test_reserve
        let mut empty_string: String = String::new_in(&arena);

        // Check isize::MAX doesn't count as an overflow
        if let Err(CapacityOverflow) = empty_string.try_reserve(MAX_CAP).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        // Play it again, frank! (just to be sure)
        if let Err(CapacityOverflow) = empty_string.try_reserve(MAX_CAP).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        // Check isize::MAX + 1 does count as overflow
        assert_matches!(
            empty_string.try_reserve(MAX_CAP + 1).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        // Check usize::MAX does count as overflow
        assert_matches!(
            empty_string.try_reserve(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        // Same basic idea, but with non-zero len
        let mut ten_bytes: String = String::from_str_in("0123456789", &arena);

        if let Err(CapacityOverflow) = ten_bytes.try_reserve(MAX_CAP - 10).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_bytes.try_reserve(MAX_CAP - 10).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_bytes.try_reserve(MAX_CAP - 9).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        // Should always overflow in the add-to-len
        assert_matches!(
            ten_bytes.try_reserve(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore)] // Miri does not support signalling OOM
#[cfg(feature = "nightly")]
fn test_try_reserve_exact() {
    let arena = FrameArena::new();
    // This is exactly the same as test_try_reserve with the method changed.
    // See that test for comments.

    const MAX_CAP: usize = isize::MAX as usize;
    const MAX_USIZE: usize = usize::MAX;

    {
        let mut empty_string: String = String::new_in(&arena);

        if let Err(CapacityOverflow) = empty_string
            .try_reserve_exact(MAX_CAP)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = empty_string
            .try_reserve_exact(MAX_CAP)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            empty_string
                .try_reserve_exact(MAX_CAP + 1)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        assert_matches!(
            empty_string
                .try_reserve_exact(MAX_USIZE)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        let mut ten_bytes: String = String::from_str_in("0123456789", &arena);

        if let Err(CapacityOverflow) = ten_bytes
            .try_reserve_exact(MAX_CAP - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_bytes
            .try_reserve_exact(MAX_CAP - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_bytes
                .try_reserve_exact(MAX_CAP - 9)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        assert_matches!(
            ten_bytes.try_reserve_exact(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }
}

#[test]
fn test_from_char() {
    assert_eq!(GlobalString::from('a'), 'a'.to_string());
    let s: GlobalString = 'x'.into();
    assert_eq!(s, 'x'.to_string());
}

#[test]
fn test_str_concat() {
    let arena = FrameArena::new();
    let a: String = String::from_str_in("hello", &arena);
    let b: String = String::from_str_in("world", &arena);
    let s: String = tickarena::format_in!(&arena, "{a}{b}");
    assert_eq!(s.as_bytes()[9], 'd' as u8);
}
