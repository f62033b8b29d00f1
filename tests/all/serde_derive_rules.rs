//! `#[derive(DeserializeIn)]` reads what serde's `#[derive(Deserialize)]`
//! reads: missing `Option` fields are `None` (also behind a `FrameBox`),
//! `#[serde(default)]`, raw identifiers without their `r#`,
//! `rename(deserialize = "..")`, a lifetime named `'de`, `Self` in a field,
//! and a crate path of the caller's choosing. Each is checked against
//! serde's own derive on the matching heap type.

use serde::{Deserialize, Serialize};
use tickarena::serde::{DeserializeIn, InArena};
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// `json` decoded into `arena`, nothing but whitespace after it.
fn from_json<'a, T: DeserializeIn<'a>>(arena: &'a FrameArena, json: &str) -> serde_json::Result<T> {
    use serde::de::DeserializeSeed;
    let mut input = serde_json::Deserializer::from_str(json);
    let value = InArena::new(arena).deserialize(&mut input)?;
    input.end()?;
    Ok(value)
}

#[derive(DeserializeIn, Debug, PartialEq)]
struct Optional<'a> {
    id: u32,
    name: Option<&'a str>,
    count: Option<u32>,
    boxed: FrameBox<'a, Option<u8>>,
    #[serde(default)]
    pair: (u8, u16),
    #[serde(default)]
    level: u8,
}

#[derive(Deserialize, Debug, PartialEq)]
struct HeapOptional {
    id: u32,
    name: Option<String>,
    count: Option<u32>,
    boxed: Box<Option<u8>>,
    #[serde(default)]
    pair: (u8, u16),
    #[serde(default)]
    level: u8,
}

#[derive(DeserializeIn, Debug, PartialEq)]
enum Event<'a> {
    Join { who: &'a str, team: Option<u8> },
    Leave(Option<u8>, u8),
}

#[derive(Deserialize, Debug, PartialEq)]
enum HeapEvent {
    Join { who: String, team: Option<u8> },
    Leave(Option<u8>, u8),
}

#[test]
fn a_missing_option_field_is_none_as_with_serdes_derive() {
    let arena = FrameArena::new();
    let json = r#"{"id": 7}"#;
    let heap: HeapOptional = serde_json::from_str(json).unwrap();
    let got: Optional<'_> = from_json(&arena, json).unwrap();
    assert_eq!(
        (got.id, got.name, got.count, *got.boxed, got.pair, got.level),
        (
            heap.id,
            None,
            heap.count,
            *heap.boxed,
            heap.pair,
            heap.level
        )
    );
    assert_eq!((heap.name, heap.count, *heap.boxed), (None, None, None));
    // A sequence may end before its `#[serde(default)]` fields, not
    // before an `Option` (serde's rule: only maps leave fields out).
    let json = "[7, null, 3, null]";
    let heap: HeapOptional = serde_json::from_str(json).unwrap();
    let got: Optional<'_> = from_json(&arena, json).unwrap();
    assert_eq!(
        (got.count, got.pair, got.level),
        (heap.count, heap.pair, heap.level)
    );
    assert_eq!((heap.count, heap.pair, heap.level), (Some(3), (0, 0), 0));
    assert!(serde_json::from_str::<HeapOptional>("[7, null, 3]").is_err());
    assert!(from_json::<Optional<'_>>(&arena, "[7, null, 3]").is_err());
    // In an enum's struct variant too.
    let json = r#"{"Join": {"who": "ann"}}"#;
    let heap: HeapEvent = serde_json::from_str(json).unwrap();
    let got: Event<'_> = from_json(&arena, json).unwrap();
    assert_eq!(
        heap,
        HeapEvent::Join {
            who: "ann".into(),
            team: None
        }
    );
    assert_eq!(
        got,
        Event::Join {
            who: "ann",
            team: None
        }
    );
}

#[test]
fn a_missing_required_field_or_element_is_still_an_error() {
    let arena = FrameArena::new();
    for json in [r#"{"name": "x"}"#, r#"{"Join": {"team": 1}}"#, "[]"] {
        let heap = serde_json::from_str::<HeapOptional>(json)
            .map(drop)
            .or_else(|_| serde_json::from_str::<HeapEvent>(json).map(drop));
        assert!(heap.is_err(), "{json}");
        let got = from_json::<Optional<'_>>(&arena, json)
            .map(drop)
            .or_else(|_| from_json::<Event<'_>>(&arena, json).map(drop));
        assert!(got.is_err(), "{json}");
    }
    let message = from_json::<Optional<'_>>(&arena, r#"{"name": "x"}"#).unwrap_err();
    let heap = serde_json::from_str::<HeapOptional>(r#"{"name": "x"}"#).unwrap_err();
    assert_eq!(message.to_string(), heap.to_string());
    // A sequence that ends early is short even where the field is an
    // `Option` (serde's rule: only maps can leave fields out).
    let heap = serde_json::from_str::<HeapEvent>(r#"{"Leave": [1]}"#);
    let got = from_json::<Event<'_>>(&arena, r#"{"Leave": [1]}"#);
    assert!(heap.is_err() && got.is_err());
}

#[derive(DeserializeIn, Serialize, Debug, PartialEq)]
struct Raw<'a> {
    r#type: &'a str,
    r#match: Option<u8>,
    kind: Keyword,
}

#[derive(DeserializeIn, Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
#[allow(non_camel_case_types)] // the point: keywords as names
enum Keyword {
    r#loop,
    r#match,
}

#[test]
fn raw_identifiers_are_read_without_their_r_hash() {
    let arena = FrameArena::new();
    let sent = Raw {
        r#type: "gem",
        r#match: Some(3),
        kind: Keyword::r#match,
    };
    let json = serde_json::to_string(&sent).unwrap();
    assert_eq!(json, r#"{"type":"gem","match":3,"kind":"match"}"#);
    let got: Raw<'_> = from_json(&arena, &json).unwrap();
    assert_eq!(got, sent);
    let got: Keyword = from_json(&arena, r#""loop""#).unwrap();
    assert_eq!(got, Keyword::r#loop);
    assert!(from_json::<Keyword>(&arena, r##""r#loop""##).is_err());
    assert!(serde_json::from_str::<Keyword>(r##""r#loop""##).is_err());
}

#[derive(DeserializeIn, Serialize, Debug, PartialEq)]
struct Renamed<'a> {
    #[serde(rename(deserialize = "in", serialize = "out"))]
    both: &'a str,
    #[serde(rename(deserialize = "d"))]
    only_in: u8,
    #[serde(rename(serialize = "s"))]
    only_out: u8,
}

#[derive(Deserialize, Debug, PartialEq)]
struct HeapRenamed {
    #[serde(rename(deserialize = "in", serialize = "out"))]
    both: String,
    #[serde(rename(deserialize = "d"))]
    only_in: u8,
    #[serde(rename(serialize = "s"))]
    only_out: u8,
}

#[test]
fn rename_deserialize_names_the_key_read_and_rename_serialize_is_ignored() {
    let arena = FrameArena::new();
    let json = r#"{"in": "x", "d": 1, "only_out": 2}"#;
    let heap: HeapRenamed = serde_json::from_str(json).unwrap();
    let got: Renamed<'_> = from_json(&arena, json).unwrap();
    assert_eq!((got.both, got.only_in, got.only_out), (&*heap.both, 1, 2));
    assert_eq!((heap.only_in, heap.only_out), (1, 2));
    let written = serde_json::to_string(&got).unwrap();
    assert_eq!(written, r#"{"out":"x","only_in":1,"s":2}"#);
    assert!(from_json::<Renamed<'_>>(&arena, &written).is_err());
    assert!(serde_json::from_str::<HeapRenamed>(&written).is_err());
}

/// serde's derive accepts a lifetime named `'de`; so does this one.
#[derive(DeserializeIn, Debug, PartialEq)]
struct Borrowed<'de> {
    name: &'de str,
    more: Option<FrameVec<'de, u8>>,
}

#[test]
fn a_lifetime_named_de_is_the_arenas() {
    let arena = FrameArena::new();
    let got: Borrowed<'_> = from_json(&arena, r#"{"name": "x", "more": [1]}"#).unwrap();
    assert_eq!((got.name, got.more.as_deref()), ("x", Some(&[1u8][..])));
}

/// `Self` in a field's type, as serde's derive accepts it.
#[derive(DeserializeIn, Debug, PartialEq)]
enum Tree<'a> {
    Leaf(u32),
    Node(FrameVec<'a, Self>),
    Named {
        name: &'a str,
        child: Option<FrameBox<'a, Self>>,
    },
}

#[derive(Deserialize, Debug, PartialEq)]
enum HeapTree {
    Leaf(u32),
    Node(Vec<Self>),
    Named {
        name: String,
        child: Option<Box<Self>>,
    },
}

fn sum(tree: &Tree<'_>) -> u32 {
    match tree {
        Tree::Leaf(n) => *n,
        Tree::Node(children) => children.iter().map(sum).sum(),
        Tree::Named { child, .. } => child.as_deref().map_or(0, sum),
    }
}

fn heap_sum(tree: &HeapTree) -> u32 {
    match tree {
        HeapTree::Leaf(n) => *n,
        HeapTree::Node(children) => children.iter().map(heap_sum).sum(),
        HeapTree::Named { child, .. } => child.as_deref().map_or(0, heap_sum),
    }
}

#[test]
fn self_in_a_field_type_is_the_type_itself() {
    let arena = FrameArena::new();
    let json = r#"{"Node": [{"Leaf": 1}, {"Named": {"name": "n", "child": {"Leaf": 2}}},
                            {"Named": {"name": "m"}}, {"Node": [{"Leaf": 4}]}]}"#;
    let heap: HeapTree = serde_json::from_str(json).unwrap();
    let got: Tree<'_> = from_json(&arena, json).unwrap();
    assert_eq!((sum(&got), heap_sum(&heap)), (7, 7));
}

/// tickarena under another name, as a crate that re-exports it sees it.
mod elsewhere {
    pub use ::tickarena as renamed;
}

#[derive(DeserializeIn, tickarena::FrameData, tickarena::RollbackState, Debug, PartialEq)]
#[tickarena(crate = "crate::serde_derive_rules::elsewhere::renamed")]
struct ThroughAPath<'a> {
    name: &'a str,
}

#[test]
fn the_derives_take_the_crate_path_the_caller_names() {
    let arena = FrameArena::new();
    let got: ThroughAPath<'_> = from_json(&arena, r#"{"name": "x"}"#).unwrap();
    assert_eq!(got.clone(), ThroughAPath { name: "x" });
    fn is_frame_data<T: tickarena::CovariantFrameData>() {}
    is_frame_data::<ThroughAPath<'static>>();
}

/// A sequence's last field read is built into the value in its own match
/// (the decode's stack figures): with a `default` and a skipped field
/// after it, a short sequence, a full one and one too short for a field
/// without `default` read as serde's derive reads them.
#[derive(DeserializeIn, Debug, PartialEq)]
struct Tail<'a>(u8, #[serde(default)] Option<&'a str>, #[serde(skip)] u32);

#[derive(DeserializeIn, Debug, PartialEq)]
struct Last<'a> {
    id: u8,
    name: &'a str,
    #[serde(skip)]
    seen: bool,
}

/// serde's own derive on the same names (its messages name the type).
mod heap {
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    pub struct Tail(
        pub u8,
        #[serde(default)] pub Option<String>,
        #[serde(skip)] pub u32,
    );

    #[derive(Deserialize, Debug, PartialEq)]
    pub struct Last {
        pub id: u8,
        pub name: String,
        #[serde(skip)]
        pub seen: bool,
    }
}

#[test]
fn the_last_field_of_a_sequence_reads_as_with_serdes_derive() {
    let arena = FrameArena::new();
    for json in [r#"[7, "x"]"#, "[7]", "[7, null]", "[]", r#"[7, "x", 1]"#] {
        let got = from_json::<Tail<'_>>(&arena, json);
        let heap = serde_json::from_str::<heap::Tail>(json);
        match (&got, &heap) {
            (Ok(Tail(a, b, c)), Ok(heap::Tail(x, y, z))) => {
                assert_eq!(
                    (*a, b.map(str::to_owned), *c),
                    (*x, y.clone(), *z),
                    "{json}"
                );
            }
            (Err(got), Err(heap)) => assert_eq!(got.to_string(), heap.to_string(), "{json}"),
            _ => panic!("{json}: {got:?} against serde's {heap:?}"),
        }
    }
    for json in [r#"[7, "x"]"#, "[7]", "[]"] {
        let got = from_json::<Last<'_>>(&arena, json);
        let heap = serde_json::from_str::<heap::Last>(json);
        match (&got, &heap) {
            (Ok(Last { id, name, seen }), Ok(heap)) => {
                assert_eq!(
                    (*id, name.to_string(), *seen),
                    (heap.id, heap.name.clone(), heap.seen)
                );
            }
            (Err(got), Err(heap)) => assert_eq!(got.to_string(), heap.to_string(), "{json}"),
            _ => panic!("{json}: {got:?} against serde's {heap:?}"),
        }
    }
}
