//! `#[serde(tag = "..")]` (internally tagged) and `tag` + `content`
//! (adjacently tagged) under `#[derive(DeserializeIn)]`, against serde's
//! derive on a heap twin of each type: the same JSON documents (the
//! written form, then mutated: keys reordered, the tag missing, unknown,
//! duplicated or not a string, the content before the tag, extra keys,
//! random documents over the types' own keys) give the same value (by
//! `Debug`) or the same error message. Postcard cannot say what comes
//! next (`deserialize_any`): both derives refuse it alike.

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// `$json` read whole by the arena type `$arena` and by serde's derive on
/// the heap twin `$heap`: each as `Ok(Debug)` or `Err(message)`; asserted
/// equal, and returned.
macro_rules! same {
    ($arena:ty, $heap:ty, $json:expr) => {{
        let json: &str = $json;
        let frame = tickarena::FrameArena::new();
        let mut input = serde_json::Deserializer::from_str(json);
        let arena_side = serde::de::DeserializeSeed::deserialize(
            tickarena::serde::InArena::<$arena>::new(&frame),
            &mut input,
        )
        .and_then(|value| input.end().map(|()| format!("{value:?}")))
        .map_err(|error| error.to_string());
        let mut input = serde_json::Deserializer::from_str(json);
        let heap_side = <$heap as serde::Deserialize>::deserialize(&mut input)
            .and_then(|value| input.end().map(|()| format!("{value:?}")))
            .map_err(|error| error.to_string());
        assert_eq!(arena_side, heap_side, "the two derives differ on {json}");
        arena_side
    }};
}
#[allow(unused_imports)] // used by serde_untagged and serde_flatten
pub(crate) use same;

/// Postcard (no `deserialize_any`): both derives read `$bytes` alike
/// (for a buffered type: refuse it with the same error).
macro_rules! postcard_alike {
    ($arena:ty, $heap:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let frame = tickarena::FrameArena::new();
        let mut input = postcard::Deserializer::from_bytes(bytes);
        let arena_side = serde::de::DeserializeSeed::deserialize(
            tickarena::serde::InArena::<$arena>::new(&frame),
            &mut input,
        )
        .map(|v| format!("{v:?}"));
        let heap_side = postcard::from_bytes::<$heap>(bytes).map(|v| format!("{v:?}"));
        assert_eq!(arena_side, heap_side);
        heap_side
    }};
}
#[allow(unused_imports)]
pub(crate) use postcard_alike;

/// JSON documents over a vocabulary of keys and strings (the types' tags,
/// variants and fields, and others): what the random comparisons read.
pub(crate) fn document(keys: &'static [&'static str]) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        (-3i64..300).prop_map(|n| n.to_string()),
        Just("1.5".to_owned()),
        Just("-70000".to_owned()),
        prop::sample::select(keys).prop_map(|k| format!("{k:?}")),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((prop::sample::select(keys), inner), 0..5).prop_map(|entries| {
                let entries: Vec<String> =
                    entries.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
                format!("{{{}}}", entries.join(","))
            }),
        ]
    })
}

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{FrameBox, FrameVec};

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Inner<'a> {
        pub y: i64,
        pub tags: FrameVec<'a, &'a str>,
    }

    /// Recursive, through boxes and lists, and `no_heap`.
    #[derive(tickarena::DeserializeIn, Debug)]
    #[deserialize_in(no_heap)]
    #[serde(tag = "op")]
    pub enum Expr<'a> {
        Num {
            v: i64,
        },
        Add {
            l: FrameBox<'a, Expr<'a>>,
            r: FrameBox<'a, Self>,
        },
        Call {
            f: &'a str,
            args: FrameVec<'a, Expr<'a>>,
        },
    }

    #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
    pub struct Marker;

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "type")]
    pub enum Internal<'a> {
        Unit,
        Struct {
            x: u32,
            name: &'a str,
        },
        Newtype(Inner<'a>),
        Marked(Marker),
        Opt {
            maybe: Option<u8>,
        },
        #[serde(rename = "renamed")]
        Empty {},
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c", deny_unknown_fields)]
    pub enum AdjacentStrict {
        Unit,
        Newtype(u32),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "kind", deny_unknown_fields)]
    pub enum InternalStrict {
        Unit,
        Point { x: i8 },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent<'a> {
        Unit,
        Newtype(u32),
        Maybe(Option<&'a str>),
        Tuple(u8, &'a str),
        Struct { x: u32, name: &'a str },
    }
}

#[allow(dead_code)]
mod heap {
    #[derive(serde::Deserialize, Debug)]
    pub struct Inner {
        pub y: i64,
        pub tags: Vec<String>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "op")]
    pub enum Expr {
        Num { v: i64 },
        Add { l: Box<Expr>, r: Box<Self> },
        Call { f: String, args: Vec<Expr> },
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Marker;

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "type")]
    pub enum Internal {
        Unit,
        Struct {
            x: u32,
            name: String,
        },
        Newtype(Inner),
        Marked(Marker),
        Opt {
            maybe: Option<u8>,
        },
        #[serde(rename = "renamed")]
        Empty {},
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c", deny_unknown_fields)]
    pub enum AdjacentStrict {
        Unit,
        Newtype(u32),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "kind", deny_unknown_fields)]
    pub enum InternalStrict {
        Unit,
        Point { x: i8 },
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Unit,
        Newtype(u32),
        Maybe(Option<String>),
        Tuple(u8, String),
        Struct { x: u32, name: String },
    }
}

fn internal(json: &str) -> Result<String, String> {
    same!(arena::Internal<'_>, heap::Internal, json)
}

fn adjacent(json: &str) -> Result<String, String> {
    same!(arena::Adjacent<'_>, heap::Adjacent, json)
}

#[test]
fn internally_tagged_reads_each_variant_as_serde_does() {
    let ok = [
        r#"{"type":"Unit"}"#,
        r#"{"type":"Unit","extra":[1,2]}"#,
        r#"{"type":"Struct","x":7,"name":"ann"}"#,
        r#"{"name":"ann","x":7,"type":"Struct"}"#,
        r#"{"x":7,"type":"Struct","name":"ann","more":{"a":null}}"#,
        r#"{"type":"Newtype","y":-3,"tags":["a","b"]}"#,
        r#"{"tags":[],"type":"Newtype","y":1}"#,
        r#"{"type":"Marked"}"#,
        r#"{"type":"Opt"}"#,
        r#"{"type":"Opt","maybe":4}"#,
        r#"{"type":"renamed"}"#,
        r#"["Struct",7,"ann"]"#,
        r#"["Unit"]"#,
    ];
    for json in ok {
        assert!(internal(json).is_ok(), "{json}: {:?}", internal(json));
    }
    assert_eq!(
        internal(r#"{"x":7,"type":"Struct","name":"ann"}"#).unwrap(),
        r#"Struct { x: 7, name: "ann" }"#
    );
}

/// More entries beside the tag than the buffer keeps on the stack (8).
#[test]
fn many_entries_beside_the_tag_read_alike() {
    let keys: Vec<String> = (0..25).map(|i| format!(r#""k{i}":[{i}]"#)).collect();
    let json = format!(
        r#"{{{},"type":"Struct","x":7,"name":"ann"}}"#,
        keys.join(",")
    );
    assert_eq!(internal(&json).unwrap(), r#"Struct { x: 7, name: "ann" }"#);
    let json = format!(r#"{{"name":"ann",{},"type":"Struct"}}"#, keys.join(","));
    assert!(internal(&json).unwrap_err().contains("missing field `x`"));
}

#[test]
fn a_recursive_internally_tagged_type_reads_as_serdes() {
    let expr = |json| same!(arena::Expr<'_>, heap::Expr, json);
    let json = r#"{"op":"Call","f":"max","args":[{"op":"Num","v":1},
        {"l":{"op":"Num","v":2},"op":"Add","r":{"op":"Add","l":{"op":"Num","v":3},"r":{"v":4,"op":"Num"}}}]}"#;
    assert!(
        expr(json)
            .unwrap()
            .starts_with(r#"Call { f: "max", args: [Num { v: 1 }, Add {"#)
    );
    assert!(
        expr(r#"{"op":"Add","l":{"op":"Num","v":2}}"#)
            .unwrap_err()
            .contains("missing field `r`")
    );
    let deep = format!(
        "{}{{\"op\":\"Num\",\"v\":0}}{}",
        r#"{"op":"Add","r":{"op":"Num","v":1},"l":"#.repeat(40),
        "}".repeat(40)
    );
    assert!(expr(&deep).unwrap().starts_with("Add { l: Add {"));
}

#[test]
fn internally_tagged_errors_are_serdes() {
    let bad = [
        (r#"{"x":7,"name":"ann"}"#, "missing field `type`"),
        (r#"{}"#, "missing field `type`"),
        (r#"{"type":"Nope"}"#, "unknown variant `Nope`"),
        (r#"{"type":"Unit","type":"Unit"}"#, "duplicate field `type`"),
        (
            r#"{"type":3}"#,
            "invalid type: integer `3`, expected variant identifier",
        ),
        (r#"{"type":"Struct","x":7}"#, "missing field `name`"),
        (
            r#"{"type":"Struct","x":"7","name":"a"}"#,
            "invalid type: string \"7\"",
        ),
        (r#"{"type":"Newtype","y":1}"#, "missing field `tags`"),
        (r#"{"type":"Empty"}"#, "unknown variant `Empty`"),
        (r#"[]"#, "missing field `type`"),
        (
            r#""Unit""#,
            "invalid type: string \"Unit\", expected internally tagged enum Internal",
        ),
        (r#"{"type":"Struct","x":1,"name":"a""#, "EOF while parsing"),
        (
            r#"{"type":"Unit","x":{"a":[1,{"b":2}]}"#,
            "EOF while parsing",
        ),
    ];
    for (json, message) in bad {
        let error = internal(json).unwrap_err();
        assert!(error.contains(message), "{json}: {error}");
    }
}

#[test]
fn adjacently_tagged_reads_each_variant_as_serde_does() {
    let ok = [
        r#"{"t":"Unit"}"#,
        r#"{"t":"Unit","c":null}"#,
        r#"{"c":null,"t":"Unit"}"#,
        r#"{"t":"Newtype","c":5}"#,
        r#"{"c":5,"t":"Newtype"}"#,
        r#"{"t":"Maybe"}"#,
        r#"{"t":"Maybe","c":"x"}"#,
        r#"{"t":"Tuple","c":[1,"a"]}"#,
        r#"{"c":[1,"a"],"t":"Tuple"}"#,
        r#"{"t":"Struct","c":{"x":1,"name":"n"}}"#,
        r#"{"c":{"name":"n","x":1},"extra":3,"t":"Struct"}"#,
        r#"{"extra":3,"t":"Newtype","more":[],"c":5,"last":{}}"#,
        r#"["Newtype",5]"#,
        r#"["Struct",{"x":1,"name":"n"}]"#,
    ];
    for json in ok {
        assert!(adjacent(json).is_ok(), "{json}: {:?}", adjacent(json));
    }
}

#[test]
fn adjacently_tagged_errors_are_serdes() {
    let bad = [
        (r#"{}"#, "missing field `t`"),
        (r#"{"c":5}"#, "missing field `t`"),
        (r#"{"t":"Newtype"}"#, "missing field `c`"),
        (r#"{"t":"Struct"}"#, "missing field `c`"),
        (r#"{"t":"Newtype","t":"Unit"}"#, "duplicate field `t`"),
        (r#"{"t":"Newtype","c":5,"c":6}"#, "duplicate field `c`"),
        (r#"{"c":5,"c":6}"#, "duplicate field `c`"),
        (r#"{"c":5,"t":"Newtype","t":"Unit"}"#, "duplicate field `t`"),
        (r#"{"t":"Nope","c":1}"#, "unknown variant `Nope`"),
        (
            r#"{"t":"Struct","c":[1,"n"]}"#,
            "expected struct variant Adjacent::Struct",
        ),
        (r#"{"t":"Tuple","c":[1]}"#, "invalid length 1"),
        (r#"{"c":[1],"t":"Tuple"}"#, "invalid length 1"),
        (r#"{"t":"Unit","c":3}"#, "invalid type: integer `3`"),
        (r#"{"c":3,"t":"Unit"}"#, "invalid type: integer `3`"),
        (r#"["Newtype"]"#, "invalid length 1"),
        (r#"[]"#, "invalid length 0"),
        (r#"7"#, "expected adjacently tagged enum Adjacent"),
    ];
    for (json, message) in bad {
        let error = adjacent(json).unwrap_err();
        assert!(error.contains(message), "{json}: {error}");
    }
}

#[test]
fn deny_unknown_fields_on_tagged_enums_is_serdes() {
    let adjacent = |json| same!(arena::AdjacentStrict, heap::AdjacentStrict, json);
    assert_eq!(adjacent(r#"{"t":"Newtype","c":1}"#).unwrap(), "Newtype(1)");
    let error = adjacent(r#"{"t":"Newtype","x":0,"c":1}"#).unwrap_err();
    assert!(
        error.contains(r#"invalid value: string "x", expected "t" or "c""#),
        "{error}"
    );
    let error = adjacent(r#"{"t":"Unit","c":null,"x":0}"#).unwrap_err();
    assert!(error.contains(r#"expected "t" or "c""#), "{error}");
    let internal = |json| same!(arena::InternalStrict, heap::InternalStrict, json);
    assert_eq!(
        internal(r#"{"x":1,"kind":"Point"}"#).unwrap(),
        "Point { x: 1 }"
    );
    let error = internal(r#"{"x":1,"kind":"Point","y":2}"#).unwrap_err();
    assert!(error.contains("unknown field `y`, expected `x`"), "{error}");
    // A unit variant reads whatever is beside its tag (serde's).
    assert_eq!(internal(r#"{"kind":"Unit","y":2}"#).unwrap(), "Unit");
}

#[test]
fn postcard_cannot_read_a_tagged_enum_under_either_derive() {
    let bytes = postcard::to_allocvec(&(0u8, 7u32)).unwrap();
    let refused = postcard_alike!(arena::Internal<'_>, heap::Internal, &bytes);
    assert!(refused.is_err(), "postcard cannot buffer: {refused:?}");
    // Adjacently tagged reads a struct: postcard hands it over as a
    // sequence, whose tag is an identifier, which postcard cannot read.
    let refused = postcard_alike!(arena::Adjacent<'_>, heap::Adjacent, &bytes);
    assert!(refused.is_err(), "postcard has no identifiers: {refused:?}");
}

const INTERNAL_KEYS: &[&str] = &[
    "type", "Unit", "Struct", "Newtype", "Marked", "Opt", "renamed", "x", "name", "y", "tags",
    "maybe", "other",
];

const ADJACENT_KEYS: &[&str] = &[
    "t", "c", "Unit", "Newtype", "Maybe", "Tuple", "Struct", "x", "name", "other",
];

/// A written message, then each of its mutations.
fn mutations(entries: &[(&str, &str)]) -> Vec<String> {
    let object = |entries: &[(&str, &str)]| {
        let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
        format!("{{{}}}", body.join(","))
    };
    let mut out = vec![object(entries)];
    let mut reversed = entries.to_vec();
    reversed.reverse();
    out.push(object(&reversed));
    for skip in 0..entries.len() {
        let mut fewer = entries.to_vec();
        fewer.remove(skip);
        out.push(object(&fewer));
        let mut twice = entries.to_vec();
        twice.push(entries[skip]);
        out.push(object(&twice));
        let mut rotated = entries.to_vec();
        rotated.rotate_left(skip);
        out.push(object(&rotated));
    }
    let mut extra = entries.to_vec();
    extra.insert(entries.len() / 2, ("extra", r#"{"deep":[1,"x",null]}"#));
    out.push(object(&extra));
    out
}

#[test]
fn mutated_messages_read_alike() {
    let internal_messages: &[&[(&str, &str)]] = &[
        &[("type", r#""Struct""#), ("x", "7"), ("name", r#""ann""#)],
        &[("type", r#""Newtype""#), ("y", "-2"), ("tags", r#"["a"]"#)],
        &[("type", r#""Opt""#), ("maybe", "9")],
        &[("type", r#""Nope""#), ("x", "1")],
        &[("type", "5"), ("x", "1")],
    ];
    let mut read = 0;
    for message in internal_messages {
        for json in mutations(message) {
            read += usize::from(internal(&json).is_ok());
        }
    }
    let adjacent_messages: &[&[(&str, &str)]] = &[
        &[("t", r#""Struct""#), ("c", r#"{"x":1,"name":"n"}"#)],
        &[("t", r#""Tuple""#), ("c", r#"[2,"z"]"#)],
        &[("t", r#""Maybe""#), ("c", "null")],
        &[("t", r#""Unit""#), ("other", "1")],
    ];
    for message in adjacent_messages {
        for json in mutations(message) {
            read += usize::from(adjacent(&json).is_ok());
        }
    }
    assert!(
        read > 20,
        "the mutations keep many messages readable: {read}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    #[test]
    fn random_documents_read_alike_internally_tagged(json in document(INTERNAL_KEYS)) {
        let _ = internal(&json);
    }

    #[test]
    fn random_documents_read_alike_adjacently_tagged(json in document(ADJACENT_KEYS)) {
        let _ = adjacent(&json);
        let _ = same!(arena::AdjacentStrict, heap::AdjacentStrict, &json);
    }
}

/// A field read by a function that borrows its text (`&'de str`, the
/// guide's `hex`), inside a buffered type: serde's buffer hands over the
/// input's unescaped strings as borrowed, and the arena's hands over its
/// own copies as borrowed (they live as long as the arena), so both read
/// it. (An escaped string serde's buffer holds as its own: serde's derive
/// then refuses the borrow, where the arena's copy still lends it.)
mod borrowing {
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn hex<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        let text: &'de str = serde::Deserialize::deserialize(deserializer)?;
        u32::from_str_radix(text, 16).map_err(serde::de::Error::custom)
    }
    #[allow(dead_code)] // read through `Debug`
    mod heap {
        #[derive(serde::Deserialize, Debug)]
        pub struct Join {
            #[serde(deserialize_with = "super::hex")]
            pub color: u32,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "type", rename_all = "lowercase")]
        pub enum Message {
            Join(Join),
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        pub enum Either {
            Join(Join),
            Text(String),
        }
        #[derive(serde::Deserialize, Debug)]
        pub struct Outer {
            pub id: u8,
            #[serde(flatten)]
            pub join: Join,
        }
    }
    #[allow(dead_code)] // read through `Debug`
    mod arena {
        // No lifetime: read by serde's `Deserialize` where it is a field.
        #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
        pub struct Join {
            #[serde(deserialize_with = "super::hex")]
            pub color: u32,
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "type", rename_all = "lowercase")]
        pub enum Message {
            Join(Join),
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(untagged)]
        pub enum Either<'a> {
            Join(Join),
            Text(&'a str),
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct Outer {
            pub id: u8,
            #[serde(flatten)]
            pub join: Join,
        }
    }

    #[test]
    fn a_function_borrowing_its_text_reads_it_from_the_buffer() {
        let json = r#"{"type":"join","color":"ff8800"}"#;
        assert_eq!(
            same!(arena::Message, heap::Message, json),
            Ok("Join(Join { color: 16746496 })".to_owned())
        );
        same!(
            arena::Message,
            heap::Message,
            r#"{"type":"join","color":"zz"}"#
        )
        .unwrap_err();
        assert_eq!(
            same!(arena::Either<'_>, heap::Either, r#"{"color":"10"}"#),
            Ok("Join(Join { color: 16 })".to_owned())
        );
        assert_eq!(
            same!(arena::Outer, heap::Outer, r#"{"color":"ff","id":3}"#),
            Ok("Outer { id: 3, join: Join { color: 255 } }".to_owned())
        );
    }
}
