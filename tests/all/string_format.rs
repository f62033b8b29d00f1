//! `format_in!` matches `format!` exactly; `try_format_in!` reports what the
//! allocator refused; `vec_in!` builds the same vectors as `vec!`.

use std::alloc::Global;
use std::fmt;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, String, format_in, try_format_in, vec_in};

#[derive(Debug)]
#[allow(dead_code, reason = "read through Debug only")]
struct Position {
    x: f32,
    y: f32,
}

struct Fails;

impl fmt::Display for Fails {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Err(fmt::Error)
    }
}

macro_rules! same_as_format {
    ($arena:expr, $($arg:tt)+) => {
        assert_eq!(format_in!($arena, $($arg)+), format!($($arg)+));
        assert_eq!(format_in!(Global, $($arg)+), format!($($arg)+));
    };
}

#[test]
fn formatting_matches_format_exactly() {
    let arena = FrameArena::new();
    let position = Position { x: 1.5, y: -0.25 };
    same_as_format!(&arena, "plain literal");
    same_as_format!(&arena, "");
    same_as_format!(&arena, "{} {} {}", 0, -17i64, u128::MAX);
    same_as_format!(
        &arena,
        "{:.3} {:.0} {:e} {}",
        std::f64::consts::PI,
        2.5f32,
        1234.5,
        f64::NAN
    );
    same_as_format!(&arena, "{:?} {:#?}", position, Some("quoted \"text\""));
    same_as_format!(
        &arena,
        "[{:>8}] [{:<8}] [{:^9}] [{:*^9}]",
        "r",
        "l",
        "mid",
        "ß"
    );
    same_as_format!(
        &arena,
        "{:08.2} {:+} {:#x} {:#b} {:o}",
        -3.25159,
        5,
        255,
        5u8,
        64
    );
    same_as_format!(&arena, "{0}-{0}-{1} {name}", 'é', "→", name = "named");
    same_as_format!(
        &arena,
        "{:width$.prec$}",
        2.0f64.sqrt(),
        width = 12,
        prec = 4
    );
    let long = "x".repeat(5000);
    same_as_format!(&arena, "{long}{}", 1);
}

#[test]
fn arena_strings_take_exactly_their_length() {
    let arena = FrameArena::new();
    let a = format_in!(&arena, "ls -a | sed -n {}p | xargs rm -rf", 12345);
    assert_eq!(arena.used(), a.len());
    assert_eq!(a.capacity(), a.len());
    let b = format_in!(&arena, "literal");
    assert_eq!(arena.used(), a.len() + b.len());
    let c = format_in!(&arena, "{}", "y".repeat(1000));
    assert_eq!(c.capacity(), 1000);
    assert_eq!(arena.used(), a.len() + b.len() + 1000);
}

#[test]
fn try_format_in_reports_a_full_arena() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    arena.alloc_slice_copy(&vec![0u8; (1 << 20) - 4096]);
    let four_mib = "x".repeat(4 << 20);
    let big = try_format_in!(&arena, "{four_mib}{}", 1);
    assert!(big.is_err());
    let small = try_format_in!(&arena, "frame {}", 61).unwrap();
    assert_eq!(small, "frame 61");
    let literal = try_format_in!(&arena, "short literal").unwrap();
    assert_eq!(literal, "short literal");
}

/// Writes a head, a body too large for the arena and a tail, ignoring the
/// result of each write as many `Display` implementations do.
struct IgnoresWriteErrors<'a>(&'a str);

impl fmt::Display for IgnoresWriteErrors<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = f.write_str("head ");
        let _ = f.write_str(self.0);
        let _ = f.write_str(" tail");
        Ok(())
    }
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_refusal_ignored_by_display_is_still_an_error() {
    let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    let body = "x".repeat(1 << 20);
    let result = try_format_in!(&arena, "{}", IgnoresWriteErrors(&body));
    assert!(
        result.is_err(),
        "text went missing: {:?}",
        result.map(|s| s.len())
    );
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        format_in!(&arena, "{}", IgnoresWriteErrors(&body));
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<std::string::String>().unwrap();
    assert!(message.contains("could not allocate"), "{message}");
    // Where it fits, the same value formats in full, as with `format!`.
    let fits = format_in!(&arena, "{}", IgnoresWriteErrors("body"));
    assert_eq!(fits, format!("{}", IgnoresWriteErrors("body")));
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn format_in_panics_with_a_clear_message_when_the_arena_is_full() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    let four_mib = "x".repeat(4 << 20);
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        format_in!(&arena, "{four_mib}{}", 1);
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<std::string::String>().unwrap();
    assert!(
        message.contains("format_in!") && message.contains(".reserve("),
        "{message}"
    );
}

#[test]
#[should_panic(expected = "a formatting trait implementation returned an error")]
fn a_failing_display_panics_like_format() {
    let arena = FrameArena::new();
    format_in!(&arena, "{}", Fails);
}

#[test]
fn vec_in_builds_like_vec() {
    let arena = FrameArena::new();
    let listed = vec_in![&arena; 1, 2, 3];
    assert_eq!(listed, [1, 2, 3]);
    assert_eq!(listed.capacity(), 3);
    let trailing = vec_in![&arena; "a", "b",];
    assert_eq!(trailing, ["a", "b"]);
    let repeated = vec_in![&arena; String::from("ab"); 4];
    assert_eq!(repeated.len(), 4);
    assert!(repeated.iter().all(|s| s == "ab"));
    let empty: Vec<u8, _> = vec_in![&arena;];
    assert!(empty.is_empty());
    let global = vec_in![Global; 5u8; 3];
    assert_eq!(global, vec![5, 5, 5]);
}
