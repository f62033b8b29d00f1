//! `#[derive(DeserializeIn)]` fails with serde's derive's own messages:
//! the same types derived both ways under the same names (serde's messages
//! name the type and the variant), every error of a set of hostile JSON
//! documents compared as text, with its position. Also: the serializing
//! side's attributes are accepted and left to serde's `Serialize`.

use serde::Deserialize;
use serde::de::{DeserializeSeed, IntoDeserializer};
use tickarena::serde::{DeserializeIn as _, InArena};
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// serde's own derive, under the arena types' names.
mod heap {
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    pub struct Msg {
        pub r#type: u8,
        #[serde(skip)]
        pub cache: u32,
        #[serde(rename(deserialize = "who"))]
        pub name: String,
        #[serde(default)]
        pub maybe: Option<Box<Option<u16>>>,
        pub list: Vec<(char, i8)>,
        pub kind: Kind,
        pub units: Vec<Unit>,
        pub pair: Pair2,
        pub one: Vec<One>,
        pub grid: Option<[String; 2]>,
        pub none: Option<[String; 0]>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    pub struct Unit;

    #[derive(Deserialize, Debug, PartialEq)]
    pub struct Pair2(pub u16, pub String);

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename = "Single")]
    pub struct One {
        pub x: u8,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename = "Sort")]
    #[allow(non_camel_case_types)]
    pub enum Kind {
        r#loop,
        One(String),
        Two(i8, i8),
        #[serde(rename = "3")]
        Three {
            r#in: Option<u8>,
            #[serde(default)]
            z: bool,
        },
        r#Four(u8, #[serde(skip)] u8, u8),
    }
}

#[derive(DeserializeIn, Debug)]
#[allow(dead_code)]
struct Msg<'a> {
    r#type: u8,
    #[serde(skip)]
    cache: u32,
    #[serde(rename(deserialize = "who"))]
    name: &'a str,
    #[serde(default)]
    maybe: Option<FrameBox<'a, Option<u16>>>,
    list: FrameVec<'a, (char, i8)>,
    kind: Kind<'a>,
    units: FrameVec<'a, Unit>,
    pair: Pair2<'a>,
    one: FrameVec<'a, One>,
    grid: Option<[&'a str; 2]>,
    none: Option<[&'a str; 0]>,
}

#[derive(DeserializeIn, Debug)]
struct Unit;

#[derive(DeserializeIn, Debug)]
#[allow(dead_code)]
struct Pair2<'a>(u16, &'a str);

#[derive(DeserializeIn, Debug)]
#[serde(rename = "Single")]
#[allow(dead_code)]
struct One {
    x: u8,
}

#[derive(DeserializeIn, Debug)]
#[serde(rename = "Sort")]
#[allow(non_camel_case_types, dead_code)]
enum Kind<'a> {
    r#loop,
    One(&'a str),
    Two(i8, i8),
    #[serde(rename = "3")]
    Three {
        r#in: Option<u8>,
        #[serde(default)]
        z: bool,
    },
    r#Four(u8, #[serde(skip)] u8, u8),
}

fn heap_json(text: &str) -> Result<(), String> {
    serde_json::from_str::<heap::Msg>(text)
        .map(drop)
        .map_err(|e| e.to_string())
}

fn arena_json(text: &str) -> Result<(), String> {
    let arena = FrameArena::new();
    let mut input = serde_json::Deserializer::from_str(text);
    let _: Msg<'_> = InArena::new(&arena)
        .deserialize(&mut input)
        .map_err(|e| e.to_string())?;
    input.end().map_err(|e| e.to_string())
}

const GOOD: &str = r#"{"type": 1, "who": "ab", "maybe": 5, "list": [["x", -128]],
    "kind": "loop", "units": [null], "pair": [7, "p"], "one": [{"x": 1}],
    "grid": ["a", "b"], "none": []}"#;

/// Changes of [`GOOD`] that serde's derive refuses, one message each.
fn bad_documents() -> Vec<String> {
    let mut cases: Vec<String> = ["", "null", "[]", "{}", "7", r#""Msg""#]
        .map(String::from)
        .into();
    for (from, to) in [
        (r#""type": 1,"#, ""),
        (r#""type": 1"#, r#""type": 256"#),
        (r#""type": 1,"#, r#""type": 1, "type": 2,"#),
        (r#"["x", -128]"#, r#"["x"]"#),
        (r#"["x", -128]"#, r#"["xy", 0]"#),
        (r#"["x", -128]"#, r#"{"a": 1}"#),
        (r#""kind": "loop""#, r#""kind": "Nope""#),
        (r#""kind": "loop""#, r#""kind": "Three""#),
        (r#""kind": "loop""#, r#""kind": "One""#),
        (r#""kind": "loop""#, r#""kind": {"Two": [1]}"#),
        (r#""kind": "loop""#, r#""kind": {"Two": 1}"#),
        (r#""kind": "loop""#, r#""kind": {"Four": [1]}"#),
        (r#""kind": "loop""#, r#""kind": {"Four": 1}"#),
        (r#""kind": "loop""#, r#""kind": {"3": 1}"#),
        (r#""kind": "loop""#, r#""kind": {"3": []}"#),
        (r#""kind": "loop""#, r#""kind": {"3": {"in": 1, "in": 1}}"#),
        (r#""kind": "loop""#, r#""kind": 0"#),
        (r#""kind": "loop""#, r#""kind": []"#),
        (r#""units": [null]"#, r#""units": [[]]"#),
        (r#""units": [null]"#, r#""units": [0]"#),
        (r#""pair": [7, "p"]"#, r#""pair": [7]"#),
        (r#""pair": [7, "p"]"#, r#""pair": 7"#),
        (r#""pair": [7, "p"]"#, r#""pair": {"0": 7}"#),
        (r#"[{"x": 1}]"#, r#"[[]]"#),
        (r#"[{"x": 1}]"#, r#"[7]"#),
        (r#"[{"x": 1}]"#, r#"[{}]"#),
        (r#""grid": ["a", "b"]"#, r#""grid": ["a"]"#),
        (r#""grid": ["a", "b"]"#, r#""grid": 1"#),
        (r#""none": []"#, r#""none": 1"#),
        (r#""maybe": 5"#, r#""maybe": "5""#),
        (r#""list": [["x", -128]]"#, r#""list": 1"#),
    ] {
        assert!(GOOD.contains(from), "{from}");
        cases.push(GOOD.replacen(from, to, 1));
    }
    // The struct as a sequence (the skipped field left out), short.
    cases.push(r#"[1, "w"]"#.into());
    cases.push(r#"[1, "w", null, [], {"3": []}, [], [1, "x"], [], null, null]"#.into());
    cases
}

/// Every refusal is serde's derive's, word for word and at the same
/// place: "struct Msg with 10 elements", "tuple struct Pair2 with 2
/// elements", "unit struct Unit", "tuple variant Kind::Two with 2
/// elements", "struct variant Kind::Three with 2 elements", "a tuple of
/// size 2", "an array of length 2"; the Rust name, not the `rename`, as
/// serde's derive writes them.
#[test]
fn json_errors_are_serdes_derives_word_for_word() {
    let mut differ = Vec::new();
    let mut errors = 0;
    for text in bad_documents() {
        let (heap, arena) = (heap_json(&text), arena_json(&text));
        assert!(heap.is_err(), "not a bad document: {text}");
        errors += 1;
        if heap != arena {
            differ.push(format!("{text}\n  serde: {heap:?}\n  arena: {arena:?}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {errors} messages differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// A variant by an index past the last, from a format that sends indices:
/// serde's derive's "variant index 0 <= i < 5".
#[test]
fn an_unknown_variant_index_is_serdes_message() {
    let arena = FrameArena::new();
    let heap = heap::Kind::deserialize(
        IntoDeserializer::<serde::de::value::Error>::into_deserializer(9u32),
    )
    .unwrap_err()
    .to_string();
    let got = Kind::deserialize_in(
        &arena,
        IntoDeserializer::<serde::de::value::Error>::into_deserializer(9u32),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(got, heap);
    assert_eq!(
        got,
        "invalid value: integer `9`, expected variant index 0 <= i < 5"
    );
}

// ---------------------------------------------------------------------
// The serializing side's attributes, left to serde's `Serialize`.

/// Writes a `u16` as its decimal text (a `serialize_with` of the
/// serializing side, which the decode does not read back: a field and a
/// variant that use it are never written in this test's documents).
fn as_text<S: serde::Serializer>(value: &u16, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// One type deriving both, with every serializing-only attribute serde
/// has for a field or a variant.
#[derive(DeserializeIn, serde::Serialize, Debug, PartialEq)]
struct Both<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    nick: Option<&'a str>,
    #[serde(skip_serializing, default)]
    secret: u32,
    #[serde(serialize_with = "as_text", skip_serializing_if = "is_zero", default)]
    shown: u16,
    #[serde(rename(serialize = "k", deserialize = "k"))]
    kind: Shape,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

#[derive(DeserializeIn, serde::Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
enum Shape {
    Dot,
    #[serde(skip_serializing)]
    Hidden,
    #[serde(serialize_with = "as_text")]
    Shout(u16),
    Line {
        #[serde(skip_serializing_if = "is_zero", default)]
        len: u16,
    },
}

/// The same, by serde's derive, to read what `Both` writes.
#[derive(Deserialize, Debug, PartialEq)]
struct HeapBoth {
    name: String,
    nick: Option<String>,
    #[serde(default)]
    secret: u32,
    #[serde(default)]
    shown: u16,
    #[serde(rename = "k")]
    kind: Shape,
}

#[test]
fn serializing_attributes_are_accepted_and_a_json_round_trip_holds() {
    let arena = FrameArena::new();
    let sent = [
        Both {
            name: "a",
            nick: None,
            secret: 7,
            shown: 0,
            kind: Shape::Line { len: 0 },
        },
        Both {
            name: "b",
            nick: Some("bee"),
            secret: 0,
            shown: 0,
            kind: Shape::Dot,
        },
    ];
    let written: Vec<String> = sent
        .iter()
        .map(|both| serde_json::to_string(both).unwrap())
        .collect();
    assert_eq!(written[0], r#"{"name":"a","k":{"Line":{}}}"#);
    assert_eq!(written[1], r#"{"name":"b","nick":"bee","k":"Dot"}"#);
    for (both, text) in sent.iter().zip(&written) {
        let mut input = serde_json::Deserializer::from_str(text);
        let got: Both<'_> = InArena::new(&arena).deserialize(&mut input).unwrap();
        let heap: HeapBoth = serde_json::from_str(text).unwrap();
        let expected = Both {
            secret: 0, // not written
            ..*both
        };
        assert_eq!(got, expected, "{text}");
        assert_eq!(
            (heap.name.as_str(), heap.nick.as_deref()),
            (got.name, got.nick)
        );
        assert_eq!((heap.secret, heap.shown, heap.kind), (0, 0, got.kind));
    }
    // What the serializing side writes with `serialize_with` is its own
    // business: serde's derive and this one read it alike (here, refuse).
    let shout = serde_json::to_string(&Shape::Shout(3)).unwrap();
    assert_eq!(shout, r#"{"Shout":"3"}"#);
    let heap = serde_json::from_str::<Shape>(&shout)
        .unwrap_err()
        .to_string();
    let got = Shape::deserialize_in(&arena, &mut serde_json::Deserializer::from_str(&shout))
        .unwrap_err()
        .to_string();
    assert_eq!(got, heap);
}
