//! Review 4's findings on `String`: a `retain` whose predicate panics, and
//! std's panic messages (the random sequences of `string_model` compare
//! every message with std's; these are the reported cases).

#![cfg(panic = "unwind")]

use std::panic::{AssertUnwindSafe, catch_unwind};

use tickarena::{FrameArena, String};

/// The message `f` panics with.
fn panic_message(f: impl FnOnce()) -> std::string::String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<std::string::String>().cloned())
        .expect("a message")
}

#[test]
fn retain_panicking_before_rejecting_anything_keeps_the_string() {
    let arena = FrameArena::new();
    let mut ours = String::from_str_in("abc", &arena);
    let mut std = std::string::String::from("abc");
    let keep = |c: char| -> bool {
        assert!(c != 'b', "no b");
        true
    };
    panic_message(|| ours.retain(keep));
    panic_message(|| std.retain(keep));
    assert_eq!((ours.as_str(), std.as_str()), ("abc", "abc"));
}

#[test]
fn retain_panicking_after_rejecting_keeps_what_was_accepted() {
    let arena = FrameArena::new();
    let mut ours = String::from_str_in("aébc", &arena);
    let mut std = std::string::String::from("aébc");
    let keep = |c: char| -> bool {
        assert!(c != 'b', "no b");
        c != 'é'
    };
    panic_message(|| ours.retain(keep));
    panic_message(|| std.retain(keep));
    assert_eq!(std, "a");
    assert_eq!(ours, std);
}

#[test]
fn remove_panics_with_stds_messages() {
    let arena = FrameArena::new();
    for at in [1, 2, 5] {
        let mut ours = String::from_str_in("é", &arena);
        let mut std = std::string::String::from("é");
        let ours = panic_message(|| {
            ours.remove(at);
        });
        let std = panic_message(|| {
            std.remove(at);
        });
        assert_eq!(ours, std, "remove({at})");
    }
    let mut end = String::from_str_in("é", &arena);
    assert_eq!(
        panic_message(|| {
            end.remove(2);
        }),
        "cannot remove a char from the end of a string"
    );
}

#[test]
fn insert_and_truncate_panic_with_stds_messages() {
    let arena = FrameArena::new();
    let mut ours = String::from_str_in("é", &arena);
    let mut std = std::string::String::from("é");
    assert_eq!(
        panic_message(|| ours.insert(1, 'x')),
        panic_message(|| std.insert(1, 'x'))
    );
    assert_eq!(
        panic_message(|| ours.insert_str(1, "xy")),
        panic_message(|| std.insert_str(1, "xy"))
    );
    assert_eq!(
        panic_message(|| ours.truncate(1)),
        panic_message(|| std.truncate(1))
    );
}

#[test]
fn a_capacity_overflow_says_what_std_says() {
    let arena = FrameArena::new();
    let mut ours = String::from_str_in("x", &arena);
    let mut std = std::string::String::from("x");
    let message = panic_message(|| ours.reserve(usize::MAX));
    assert_eq!(message, panic_message(|| std.reserve(usize::MAX)));
    assert_eq!(message, "capacity overflow");
    // A reservation the arena cannot serve still says what to raise.
    let small = FrameArena::builder().reserve(1 << 16).build().unwrap();
    let mut refused = String::new_in(&small);
    assert!(panic_message(|| refused.reserve(1 << 20)).contains("reserve"));
}
