//! The std traits of `tickarena::String`: hashing like `str`, comparison with
//! every string type, conversions, `fmt::Write`, boxing.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, String, format_in};

fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

#[test]
#[allow(
    clippy::mutable_key_type,
    reason = "the arena's Cell is not part of the key's hash or equality"
)]
fn hash_agrees_with_str() {
    let arena = FrameArena::new();
    let key = format_in!(&arena, "entity-{}", 3);
    assert_eq!(hash_of(&key), hash_of("entity-3"));
    let mut by_name = HashMap::new();
    by_name.insert(key, 3);
    assert_eq!(by_name.get("entity-3"), Some(&3));
}

#[test]
fn compares_with_every_string_type() {
    let arena = FrameArena::new();
    let a = String::from_str_in("abc", &arena);
    let b = String::from("abd");
    let std_string = std::string::String::from("abc");
    assert!(a == "abc" && "abc" == a && a == *"abc" && *"abc" == a);
    assert!(a == std_string && std_string == a);
    assert!(a < b && b > a && a != b);
    assert!(a < "b" && "aa" < a && a <= std_string);
    let mut sorted = [String::from("b"), String::from("a"), String::from("c")];
    sorted.sort();
    assert_eq!(sorted, ["a", "b", "c"]);
}

#[test]
fn write_display_debug_and_conversions() {
    let arena = FrameArena::new();
    let mut s = String::new_in(&arena);
    let (key, value) = ("k", "v");
    write!(s, "{key}:{value:?}").unwrap();
    assert_eq!(s, "k:\"v\"");
    assert_eq!(format!("[{s}] {s:?}"), "[k:\"v\"] \"k:\\\"v\\\"\"");
    let copied: std::string::String = s.clone().into();
    assert_eq!(copied, "k:\"v\"");
    let cloned = s.clone();
    assert!(std::ptr::eq(*cloned.allocator(), &arena));
    let boxed = (s + "!").into_boxed_str();
    assert_eq!(&*boxed, "k:\"v\"!");
    let from_std = String::from(std::string::String::from("std"));
    assert_eq!(from_std, "std");
    let collected: String = ["a", "b"].into_iter().collect();
    assert_eq!(collected, "ab");
    assert_eq!(<String>::default(), "");
}

#[test]
fn write_into_a_full_arena_is_an_error_not_a_crash() {
    let arena = FrameArena::builder().reserve(4096).build().unwrap();
    let mut s = String::new_in(&arena);
    assert!(write!(s, "{:>9000}", 1).is_err());
    assert!(s.len() <= 4096 && s.chars().all(|c| c == ' '));
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn retain_keeps_valid_utf8_when_the_predicate_panics() {
    let mut s = String::from("aé→b😀c");
    let mut seen = 0;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.retain(|c| {
            seen += 1;
            assert!(seen < 4, "boom");
            c != 'é'
        });
    }));
    assert!(result.is_err());
    assert!(std::str::from_utf8(s.as_bytes()).is_ok());
    assert_eq!(s, "a→");
}

/// std's conversions and iterators that the ported std tests do not reach,
/// over the arena.
#[test]
fn std_conversions_and_iterators_in_the_arena() {
    use std::borrow::Cow;
    use tickarena::{FrameArena, String};

    let arena = FrameArena::new();
    // Box<str, A> <-> String<A>, without copying.
    let boxed = String::from_str_in("boxed", &arena).into_boxed_str();
    let at = boxed.as_ptr();
    let back = String::from(boxed);
    assert_eq!((back.as_str(), back.as_ptr()), ("boxed", at));
    // Vec<u8, A> <-> String<A>.
    let bytes: Vec<u8, _> = back.into();
    let text = String::try_from(bytes).unwrap();
    assert_eq!(text, "boxed");
    let bad = tickarena::vec_in![&arena; 0xFF, b'a'];
    assert_eq!(String::try_from(bad).unwrap_err().as_bytes(), [0xFF, b'a']);
    // Index by every range type, through a generic bound.
    fn third<I: std::ops::Index<std::ops::RangeInclusive<usize>, Output = str>>(s: &I) -> &str {
        &s[2..=2]
    }
    assert_eq!(third(&text), "x");
    assert_eq!(&text[..=1], "bo");
    assert_eq!(
        &text[(std::ops::Bound::Excluded(0), std::ops::Bound::Unbounded)],
        "oxed"
    );
    // Cow comparisons, both ways.
    assert_eq!(Cow::Borrowed("boxed"), text);
    assert_eq!(text, Cow::<str>::Owned("boxed".to_owned()));
    // Extend with strings of any allocator, boxes and cows.
    let mut all = String::new_in(&arena);
    all.extend([String::from_str_in("a", &arena)]);
    all.extend([Box::<str>::from("b")]);
    all.extend([Cow::Borrowed("c")]);
    all.extend(["d".to_owned()]);
    assert_eq!(all, "abcd");
    // Drain and IntoChars, from both ends.
    let mut drain = all.drain(1..3);
    assert_eq!((drain.next_back(), drain.as_str()), (Some('c'), "b"));
    drop(drain);
    assert_eq!(all, "ad");
    let mut chars = all.into_chars();
    assert_eq!((chars.next(), chars.as_str()), (Some('a'), "d"));
    assert_eq!(chars.into_string(), "d");
    // FromIterator of std strings' kinds, on the global allocator.
    let joined: tickarena::String = ["x", "y"]
        .map(tickarena::String::from)
        .into_iter()
        .collect();
    assert_eq!(joined, "xy");
    let cows: tickarena::String = [Cow::Borrowed("p"), Cow::Owned("q".to_owned())]
        .into_iter()
        .collect();
    assert_eq!(cows, "pq");
    assert!(arena.used() > 0);
}
