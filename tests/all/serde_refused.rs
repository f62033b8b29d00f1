//! "The arena is full" told from "the input is bad", whatever the format:
//! postcard keeps no custom message (a full arena and an unknown tag are
//! both `SerdeDeCustom`), so the arena says which (`arena_refused`).

use serde::de::DeserializeSeed;
use tickarena::serde::{DeserializeIn, InArena, arena_refused};
use tickarena::{DeserializeIn, FrameArena, FrameHashMap, FrameString, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[derive(DeserializeIn, Debug)]
#[allow(dead_code)]
enum Message<'a> {
    Hello(&'a str),
    Bulk { id: u32, cells: FrameVec<'a, u32> },
    Names(FrameHashMap<'a, &'a str, FrameString<'a>>),
}

fn postcard_in<'a, T: DeserializeIn<'a>>(
    arena: &'a FrameArena,
    bytes: &[u8],
) -> postcard::Result<T> {
    InArena::new(arena).deserialize(&mut postcard::Deserializer::from_bytes(bytes))
}

fn json_in<'a, T: DeserializeIn<'a>>(arena: &'a FrameArena, json: &str) -> serde_json::Result<T> {
    InArena::new(arena).deserialize(&mut serde_json::Deserializer::from_str(json))
}

/// An arena of 16 KiB.
fn small() -> FrameArena {
    FrameArena::builder().reserve(16 << 10).build().unwrap()
}

#[test]
fn postcard_says_the_same_for_a_full_arena_and_junk_and_the_arena_tells_them_apart() {
    let mut arena = small();
    let big = postcard::to_allocvec(&(1u8, 7u32, vec![5u32; 10_000])).unwrap(); // `Bulk`
    let unknown_tag = [9u8, 0];
    let refused = postcard_in::<Message<'_>>(&arena, &big).unwrap_err();
    assert!(arena_refused(&arena), "the arena refused the bulk message");
    let junk = postcard_in::<Message<'_>>(&arena, &unknown_tag).unwrap_err();
    assert_eq!(refused, junk, "postcard cannot say which");
    assert!(!arena_refused(&arena), "an unknown tag is bad input");
    let hello = postcard::to_allocvec(&(0u8, "hi")).unwrap();
    assert!(postcard_in::<Message<'_>>(&arena, &hello).is_ok());
    assert!(!arena_refused(&arena));
    // Every container and string refuses through the same path.
    let long = "x".repeat(20 << 10);
    assert!(
        postcard_in::<Message<'_>>(&arena, &postcard::to_allocvec(&(0u8, &long)).unwrap()).is_err()
    );
    assert!(arena_refused(&arena), "a string");
    let names: std::collections::BTreeMap<String, String> = (0..2000)
        .map(|i| (format!("n{i}"), format!("v{i}")))
        .collect();
    assert!(
        postcard_in::<Message<'_>>(&arena, &postcard::to_allocvec(&(2u8, &names)).unwrap())
            .is_err()
    );
    assert!(arena_refused(&arena), "a map");
    // Truncated input after a refusal: bad input again.
    assert!(postcard_in::<Message<'_>>(&arena, &hello[..2]).is_err());
    assert!(!arena_refused(&arena));
    arena.reset();
    assert!(postcard_in::<Message<'_>>(&arena, &hello).is_ok());
}

#[test]
fn json_says_so_in_its_message_and_the_arena_agrees() {
    let arena = small();
    let cells = vec![5u32; 10_000];
    let big =
        serde_json::to_string(&serde_json::json!({"Bulk": {"id": 1, "cells": cells}})).unwrap();
    let error = json_in::<Message<'_>>(&arena, &big).unwrap_err();
    assert!(
        error.to_string().contains("frame arena cannot hold"),
        "{error}"
    );
    assert!(arena_refused(&arena));
    let error = json_in::<Message<'_>>(&arena, r#"{"Jump": 1}"#).unwrap_err();
    assert!(error.to_string().contains("unknown variant"), "{error}");
    assert!(!arena_refused(&arena));
    let error =
        json_in::<Message<'_>>(&arena, r#"{"Bulk": {"id": 1, "cells": [1, "x"]}}"#).unwrap_err();
    assert!(error.to_string().contains("invalid type"), "{error}");
    assert!(!arena_refused(&arena));
}
