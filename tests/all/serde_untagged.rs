//! `#[serde(untagged)]` under `#[derive(DeserializeIn)]`, on the type and
//! on an enum's last variants (tried after the tagged ones, on the same
//! buffer), against serde's derive on a heap twin: the same value (by
//! `Debug`) or the same message, on written, mutated and random JSON.

use proptest::prelude::*;

use crate::serde_tagged::{document, postcard_alike, same};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{FrameBox, FrameVec};

    // No arena data: read by its own `Deserialize` inside arena types.
    #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Any<'a> {
        Unit,
        Flag(bool),
        Int(u8),
        Big(i64),
        Float(f64),
        Text(&'a str),
        Pair(u8, &'a str),
        Named { x: u32, name: &'a str },
        Point(Point),
        List(FrameVec<'a, Any<'a>>),
        Boxed(FrameBox<'a, Option<u16>>),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub enum Partial<'a> {
        A(u32),
        B {
            x: u8,
        },
        C,
        #[serde(untagged)]
        Raw(&'a str),
        #[serde(untagged)]
        Num(i64),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "kind")]
    pub enum PartialInternal<'a> {
        Move {
            dx: i8,
        },
        #[serde(untagged)]
        Other(Point),
        #[serde(untagged)]
        Says(&'a str),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum PartialAdjacent {
        Move(i8),
        #[serde(untagged)]
        Fallback(u64),
    }
}

#[allow(dead_code)]
mod heap {
    #[derive(serde::Deserialize, Debug)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Any {
        Unit,
        Flag(bool),
        Int(u8),
        Big(i64),
        Float(f64),
        Text(String),
        Pair(u8, String),
        Named { x: u32, name: String },
        Point(Point),
        List(Vec<Any>),
        Boxed(Box<Option<u16>>),
    }

    #[derive(serde::Deserialize, Debug)]
    pub enum Partial {
        A(u32),
        B {
            x: u8,
        },
        C,
        #[serde(untagged)]
        Raw(String),
        #[serde(untagged)]
        Num(i64),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "kind")]
    pub enum PartialInternal {
        Move {
            dx: i8,
        },
        #[serde(untagged)]
        Other(Point),
        #[serde(untagged)]
        Says(String),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum PartialAdjacent {
        Move(i8),
        #[serde(untagged)]
        Fallback(u64),
    }
}

fn any(json: &str) -> Result<String, String> {
    same!(arena::Any<'_>, heap::Any, json)
}

#[test]
fn each_variant_is_tried_in_order_as_serde_does() {
    let cases = [
        ("null", "Unit"),
        ("true", "Flag(true)"),
        ("7", "Int(7)"),
        ("300", "Big(300)"),
        ("-1", "Big(-1)"),
        ("1.5", "Float(1.5)"),
        (r#""hi""#, r#"Text("hi")"#),
        (r#"[1,"a"]"#, r#"Pair(1, "a")"#),
        (
            r#"{"x":1,"name":"n","more":2}"#,
            r#"Named { x: 1, name: "n" }"#,
        ),
        (r#"{"x":-1,"y":2}"#, "Point(Point { x: -1, y: 2 })"),
        ("[1,2,3]", "List([Int(1), Int(2), Int(3)])"),
        ("[]", "List([])"),
        (r#"[null,[true]]"#, "List([Unit, List([Flag(true)])])"),
    ];
    for (json, expected) in cases {
        assert_eq!(any(json).unwrap(), expected, "{json}");
    }
}

/// Lists and maps longer than the buffer keeps on the stack (8) move to
/// the arena as they grow: the same values.
#[test]
fn long_lists_and_maps_buffer_alike() {
    let items: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    let json = format!("[{}]", items.join(","));
    let read = any(&json).unwrap();
    assert!(
        read.starts_with("List([Int(0), Int(1),") && read.ends_with("Int(39)])"),
        "{read}"
    );
    let keys: Vec<String> = (0..20).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let json = format!(r#"{{{},"x":3,"name":"n"}}"#, keys.join(","));
    assert_eq!(any(&json).unwrap(), r#"Named { x: 3, name: "n" }"#);
    let nested = format!("[{json},{json},[{}]]", items.join(","));
    assert!(any(&nested).unwrap().starts_with("List([Named"));
}

/// A recursive untagged type nested deep: each level read from the
/// buffer of the one above (where serde's derive clones it), read alike,
/// within the decode's limits (serde_json's own is 128 levels).
#[test]
fn deeply_nested_untagged_values_read_alike() {
    let deep = |levels: usize| format!("{}7{}", "[".repeat(levels), "]".repeat(levels));
    // Each level tries every variant before `List` (Miri is slow at it).
    let levels = if cfg!(miri) { 30 } else { 100 };
    let read = any(&deep(levels)).unwrap();
    assert!(read.starts_with("List([List([") && read.contains("Int(7)"));
    let error = any(&deep(200)).unwrap_err();
    assert!(error.contains("recursion limit exceeded"), "{error}");
}

#[test]
fn no_variant_matching_is_serdes_error() {
    for json in [r#"{"x":"1"}"#, r#"[1,"a",3,{}]"#, r#"{"y":1}"#] {
        let error = any(json).unwrap_err();
        assert!(
            error.contains("data did not match any variant of untagged enum Any"),
            "{json}: {error}"
        );
    }
    // A syntax error is the format's, before any variant is tried.
    assert!(any(r#"[1,"#).unwrap_err().contains("EOF while parsing"));
}

#[test]
fn untagged_variants_are_tried_after_the_tagged_ones() {
    let partial = |json| same!(arena::Partial<'_>, heap::Partial, json);
    assert_eq!(partial(r#"{"A":5}"#).unwrap(), "A(5)");
    assert_eq!(partial(r#"{"B":{"x":1}}"#).unwrap(), "B { x: 1 }");
    assert_eq!(partial(r#""C""#).unwrap(), "C");
    assert_eq!(partial(r#""D""#).unwrap(), r#"Raw("D")"#);
    assert_eq!(partial("-4").unwrap(), "Num(-4)");
    assert!(partial(r#"{"A":"5"}"#).is_err());
    assert!(
        partial(r#"{"Z":1}"#)
            .unwrap_err()
            .contains("data did not match")
    );

    let internal = |json| same!(arena::PartialInternal<'_>, heap::PartialInternal, json);
    assert_eq!(
        internal(r#"{"kind":"Move","dx":-1}"#).unwrap(),
        "Move { dx: -1 }"
    );
    assert_eq!(
        internal(r#"{"x":1,"y":2}"#).unwrap(),
        "Other(Point { x: 1, y: 2 })"
    );
    assert_eq!(internal(r#""hey""#).unwrap(), r#"Says("hey")"#);
    assert!(internal(r#"{"kind":"Jump"}"#).is_err());

    let adjacent = |json| same!(arena::PartialAdjacent, heap::PartialAdjacent, json);
    assert_eq!(adjacent(r#"{"t":"Move","c":3}"#).unwrap(), "Move(3)");
    assert_eq!(adjacent("99").unwrap(), "Fallback(99)");
    assert!(adjacent(r#"{"t":"Move"}"#).is_err());
}

#[test]
fn postcard_cannot_read_an_untagged_enum_under_either_derive() {
    let bytes = postcard::to_allocvec(&7u8).unwrap();
    assert!(postcard_alike!(arena::Any<'_>, heap::Any, &bytes).is_err());
    // Externally tagged variants first: postcard reads those; the
    // untagged ones it cannot buffer.
    assert!(postcard_alike!(arena::Partial<'_>, heap::Partial, &[9]).is_err());
}

const KEYS: &[&str] = &[
    "x", "y", "name", "A", "B", "C", "kind", "Move", "dx", "t", "c",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    #[test]
    fn random_documents_read_alike(json in document(KEYS)) {
        let _ = any(&json);
        let _ = same!(arena::Partial<'_>, heap::Partial, &json);
        let _ = same!(arena::PartialInternal<'_>, heap::PartialInternal, &json);
        let _ = same!(arena::PartialAdjacent, heap::PartialAdjacent, &json);
    }
}
