//! `#[serde(flatten)]` under `#[derive(DeserializeIn)]`: flattened
//! structs, maps, `Option`s, enums (externally and internally tagged) and
//! structs with flattened fields of their own, with and without
//! `deny_unknown_fields`, against serde's derive on a heap twin: the same
//! value (by `Debug`) or the same message, on written, mutated and random
//! JSON.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::InArena;

use crate::serde_tagged::{document, postcard_alike, same};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{FrameHashMap, FrameVec};

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Inner<'a> {
        pub y: i64,
        pub tag: &'a str,
    }

    /// No arena data: read by its own `Deserialize` inside arena types.
    #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
    pub struct Extra {
        pub z: u8,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Flat<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Inner<'a>,
        #[serde(flatten)]
        pub extra: Option<Extra>,
        pub name: &'a str,
    }

    /// An arena `Option` flattened: `None` where its struct does not read.
    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct FlatOption<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Option<Inner<'a>>,
        #[serde(flatten)]
        pub boxed: Option<tickarena::FrameBox<'a, Extra>>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct FlatMap<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub rest: FrameHashMap<'a, &'a str, i64>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub enum Kind<'a> {
        Walk { speed: u8 },
        Say(&'a str),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "type")]
    pub enum Msg<'a> {
        Ping,
        Chat { text: &'a str },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct FlatEnums<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub kind: Kind<'a>,
        #[serde(flatten)]
        pub msg: Msg<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Nested<'a> {
        pub top: bool,
        #[serde(flatten)]
        pub flat: Flat<'a>,
        pub list: FrameVec<'a, u8>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Strict<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Inner<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub enum External<'a> {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner<'a>,
        },
        Plain(u8),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "type")]
    pub enum Internal<'a> {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent<'a> {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Untagged<'a> {
        Named {
            id: u32,
            #[serde(flatten)]
            extra: Option<Extra>,
            #[serde(flatten)]
            inner: Inner<'a>,
        },
        Num(u8),
    }
}

#[allow(dead_code)]
mod heap {
    use std::collections::HashMap;

    #[derive(serde::Deserialize, Debug)]
    pub struct Inner {
        pub y: i64,
        pub tag: String,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Extra {
        pub z: u8,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Flat {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Inner,
        #[serde(flatten)]
        pub extra: Option<Extra>,
        pub name: String,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct FlatOption {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Option<Inner>,
        #[serde(flatten)]
        pub boxed: Option<Box<Extra>>,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct FlatMap {
        pub id: u32,
        #[serde(flatten)]
        pub rest: HashMap<String, i64>,
    }

    #[derive(serde::Deserialize, Debug)]
    pub enum Kind {
        Walk { speed: u8 },
        Say(String),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "type")]
    pub enum Msg {
        Ping,
        Chat { text: String },
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct FlatEnums {
        pub id: u32,
        #[serde(flatten)]
        pub kind: Kind,
        #[serde(flatten)]
        pub msg: Msg,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Nested {
        pub top: bool,
        #[serde(flatten)]
        pub flat: Flat,
        pub list: Vec<u8>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Strict {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Inner,
    }

    #[derive(serde::Deserialize, Debug)]
    pub enum External {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner,
        },
        Plain(u8),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "type")]
    pub enum Internal {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner,
        },
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Named {
            id: u32,
            #[serde(flatten)]
            inner: Inner,
        },
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Untagged {
        Named {
            id: u32,
            #[serde(flatten)]
            extra: Option<Extra>,
            #[serde(flatten)]
            inner: Inner,
        },
        Num(u8),
    }
}

fn flat(json: &str) -> Result<String, String> {
    same!(arena::Flat<'_>, heap::Flat, json)
}

#[test]
fn flattened_structs_and_options_read_as_serde_reads_them() {
    let cases = [
        (
            r#"{"id":1,"y":-2,"tag":"t","name":"n"}"#,
            r#"Flat { id: 1, inner: Inner { y: -2, tag: "t" }, extra: None, name: "n" }"#,
        ),
        (
            r#"{"tag":"t","z":9,"name":"n","y":3,"id":1,"other":[1]}"#,
            r#"Flat { id: 1, inner: Inner { y: 3, tag: "t" }, extra: Some(Extra { z: 9 }), name: "n" }"#,
        ),
        (
            // `z` of the wrong type: the `Option` is `None`, as serde's.
            r#"{"id":1,"y":0,"tag":"","z":"no","name":"n"}"#,
            r#"Flat { id: 1, inner: Inner { y: 0, tag: "" }, extra: None, name: "n" }"#,
        ),
    ];
    for (json, expected) in cases {
        assert_eq!(flat(json).unwrap(), expected, "{json}");
    }
    let errors = [
        (r#"{"id":1,"tag":"t","name":"n"}"#, "missing field `y`"),
        (r#"{"id":1,"y":1,"tag":"t"}"#, "missing field `name`"),
        (r#"{"y":1,"tag":"t","name":"n"}"#, "missing field `id`"),
        (r#"{"id":1,"id":2}"#, "duplicate field `id`"),
        (
            r#"{"id":1,"y":"1","tag":"t","name":"n"}"#,
            "invalid type: string \"1\"",
        ),
        (
            r#"[1,2,"t","n"]"#,
            "invalid type: sequence, expected struct Flat",
        ),
    ];
    for (json, message) in errors {
        let error = flat(json).unwrap_err();
        assert!(error.contains(message), "{json}: {error}");
    }
}

#[test]
fn a_flattened_arena_option_is_none_where_it_does_not_read() {
    let option = |json| same!(arena::FlatOption<'_>, heap::FlatOption, json);
    assert_eq!(
        option(r#"{"id":1,"y":2,"tag":"t","z":5}"#).unwrap(),
        r#"FlatOption { id: 1, inner: Some(Inner { y: 2, tag: "t" }), boxed: Some(Extra { z: 5 }) }"#
    );
    assert_eq!(
        option(r#"{"id":1,"y":"2","tag":"t"}"#).unwrap(),
        "FlatOption { id: 1, inner: None, boxed: None }"
    );
    assert_eq!(
        option(r#"{"id":1}"#).unwrap(),
        "FlatOption { id: 1, inner: None, boxed: None }"
    );
}

#[test]
fn a_flattened_map_gets_every_key_left() {
    let json = r#"{"a":1,"id":7,"b":-2,"c":3}"#;
    let arena = FrameArena::new();
    let mut input = serde_json::Deserializer::from_str(json);
    let read = InArena::<arena::FlatMap<'_>>::new(&arena)
        .deserialize(&mut input)
        .unwrap();
    let heap: heap::FlatMap = serde_json::from_str(json).unwrap();
    let ours: BTreeMap<String, i64> = read.rest.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let theirs: BTreeMap<String, i64> = heap.rest.into_iter().collect();
    assert_eq!((read.id, ours), (heap.id, theirs));
    // A value the map cannot hold: the same error.
    let bad = r#"{"id":7,"a":"x"}"#;
    let error = same!(arena::FlatMap<'_>, heap::FlatMap, bad).unwrap_err();
    assert!(
        error.contains("invalid type: string \"x\", expected i64"),
        "{error}"
    );
}

/// More entries than the buffer keeps on the stack (8): the same reading.
#[test]
fn many_collected_entries_read_alike() {
    let keys: Vec<String> = (0..30).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let json = format!(
        r#"{{{},"id":1,"y":2,"tag":"t","z":4,"name":"n"}}"#,
        keys.join(",")
    );
    assert!(flat(&json).unwrap().contains("extra: Some(Extra { z: 4 })"));
    let strict = same!(arena::Strict<'_>, heap::Strict, &json).unwrap_err();
    assert!(strict.contains("unknown field `k0`"), "{strict}");
    let arena = FrameArena::new();
    let read = InArena::<arena::FlatMap<'_>>::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(&format!(
            r#"{{{},"id":1}}"#,
            keys.join(",")
        )))
        .unwrap();
    assert_eq!((read.id, read.rest.len(), read.rest["k29"]), (1, 30, 29));
}

#[test]
fn flattened_enums_find_their_variant_or_tag() {
    let enums = |json| same!(arena::FlatEnums<'_>, heap::FlatEnums, json);
    assert_eq!(
        enums(r#"{"id":1,"Walk":{"speed":3},"type":"Ping"}"#).unwrap(),
        "FlatEnums { id: 1, kind: Walk { speed: 3 }, msg: Ping }"
    );
    assert_eq!(
        enums(r#"{"type":"Chat","Say":"hi","text":"yo","id":2}"#).unwrap(),
        r#"FlatEnums { id: 2, kind: Say("hi"), msg: Chat { text: "yo" } }"#
    );
    let error = enums(r#"{"id":1,"type":"Ping"}"#).unwrap_err();
    assert!(
        error.contains("no variant of enum Kind found in flattened data"),
        "{error}"
    );
    assert!(
        enums(r#"{"id":1,"Say":"a"}"#)
            .unwrap_err()
            .contains("missing field `type`")
    );
}

#[test]
fn a_flattened_struct_with_flattened_fields_of_its_own() {
    let nested = |json| same!(arena::Nested<'_>, heap::Nested, json);
    let read = nested(r#"{"top":true,"id":1,"y":2,"tag":"t","z":1,"name":"n","list":[1,2]}"#);
    assert!(
        read.unwrap()
            .starts_with("Nested { top: true, flat: Flat { id: 1")
    );
    assert!(
        nested(r#"{"top":true,"list":[]}"#)
            .unwrap_err()
            .contains("missing field")
    );
}

#[test]
fn deny_unknown_fields_refuses_what_no_flattened_field_took() {
    let strict = |json| same!(arena::Strict<'_>, heap::Strict, json);
    assert!(strict(r#"{"id":1,"y":2,"tag":"t"}"#).is_ok());
    let error = strict(r#"{"id":1,"y":2,"extra":0,"tag":"t"}"#).unwrap_err();
    assert!(error.contains("unknown field `extra`"), "{error}");
    // A key twice: the flattened struct takes both, and finds it twice.
    let error = strict(r#"{"id":1,"y":2,"tag":"t","y":3}"#).unwrap_err();
    assert!(error.contains("duplicate field `y`"), "{error}");
}

#[test]
fn struct_variants_flatten_under_every_tagging() {
    let named = r#"Named { id: 1, inner: Inner { y: 2, tag: "t" } }"#;
    let external = |json| same!(arena::External<'_>, heap::External, json);
    assert_eq!(
        external(r#"{"Named":{"tag":"t","id":1,"y":2}}"#).unwrap(),
        named
    );
    assert!(
        external(r#"{"Named":[1,2,"t"]}"#)
            .unwrap_err()
            .contains("expected struct variant External::Named")
    );
    let internal = |json| same!(arena::Internal<'_>, heap::Internal, json);
    assert_eq!(
        internal(r#"{"y":2,"type":"Named","tag":"t","id":1}"#).unwrap(),
        named
    );
    let adjacent = |json| same!(arena::Adjacent<'_>, heap::Adjacent, json);
    assert_eq!(
        adjacent(r#"{"c":{"id":1,"y":2,"tag":"t"},"t":"Named"}"#).unwrap(),
        named
    );
    let untagged = |json| same!(arena::Untagged<'_>, heap::Untagged, json);
    assert_eq!(
        untagged(r#"{"id":1,"y":2,"tag":"t","z":3}"#).unwrap(),
        r#"Named { id: 1, extra: Some(Extra { z: 3 }), inner: Inner { y: 2, tag: "t" } }"#
    );
    assert_eq!(untagged("4").unwrap(), "Num(4)");
    assert!(
        untagged(r#"{"id":1}"#)
            .unwrap_err()
            .contains("did not match")
    );
}

#[test]
fn postcard_cannot_read_a_flattened_struct_under_either_derive() {
    let bytes = postcard::to_allocvec(&(1u32, 2i64, "t", "n")).unwrap();
    assert!(postcard_alike!(arena::Flat<'_>, heap::Flat, &bytes).is_err());
}

const KEYS: &[&str] = &[
    "id", "y", "tag", "z", "name", "top", "list", "Walk", "speed", "Say", "type", "Ping", "Chat",
    "text", "other", "Named", "Plain", "t", "c",
];

/// A written `Flat`, and its mutations: keys dropped, repeated,
/// reordered, renamed, given values of the wrong type.
fn flat_mutations() -> impl Strategy<Value = String> {
    let entries = vec![
        ("id", "1".to_owned()),
        ("y", "-5".to_owned()),
        ("tag", r#""t""#.to_owned()),
        ("z", "4".to_owned()),
        ("name", r#""n""#.to_owned()),
    ];
    (
        Just(entries),
        prop::collection::vec((0usize..5, 0u8..5, prop::sample::select(KEYS)), 0..4),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut entries, edits, rotate)| {
            for (at, edit, key) in edits {
                let at = at % entries.len().max(1);
                match edit {
                    0 if !entries.is_empty() => {
                        entries.remove(at);
                    }
                    1 if !entries.is_empty() => entries.push(entries[at].clone()),
                    2 if !entries.is_empty() => entries[at].1 = r#""wrong""#.to_owned(),
                    3 if !entries.is_empty() => entries[at].0 = key,
                    _ => entries.push((key, "[1,{}]".to_owned())),
                }
            }
            let len = entries.len().max(1);
            entries.rotate_left(rotate.index(len) % len);
            let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
            format!("{{{}}}", body.join(","))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    #[test]
    fn mutated_messages_read_alike(json in flat_mutations()) {
        let _ = flat(&json);
        let _ = same!(arena::Strict<'_>, heap::Strict, &json);
    }

    #[test]
    fn random_documents_read_alike(json in document(KEYS)) {
        let _ = flat(&json);
        let _ = same!(arena::FlatEnums<'_>, heap::FlatEnums, &json);
        let _ = same!(arena::Nested<'_>, heap::Nested, &json);
        let _ = same!(arena::Strict<'_>, heap::Strict, &json);
        let _ = same!(arena::External<'_>, heap::External, &json);
        let _ = same!(arena::Internal<'_>, heap::Internal, &json);
        let _ = same!(arena::Adjacent<'_>, heap::Adjacent, &json);
        let _ = same!(arena::Untagged<'_>, heap::Untagged, &json);
    }
}
