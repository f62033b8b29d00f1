//! The input that `tag`, `untagged` and `flatten` buffer in the arena:
//! read back as serde's buffer reads it, from a format that marks what
//! JSON cannot (the token format of `tests/models/tokens.rs`), and held to
//! the decode's limits: nested deeper than `max_depth` is the
//! format's error (the buffer's levels count), an arena that cannot hold
//! it is the arena's error (`arena_refused`), and both leave the arena's
//! decode state as they found it (the next decode reads normally).

use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::{InArena, arena_refused};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

// The fields are read through `Debug` and `matches!`.
#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum Any<'a> {
    Num(i64),
    Text(&'a str),
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(tag = "type")]
enum Tagged<'a> {
    Say { text: &'a str },
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
struct Flat<'a> {
    id: u32,
    #[serde(flatten)]
    rest: tickarena::FrameHashMap<'a, &'a str, i64>,
}

fn nested(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

#[test]
fn buffered_input_counts_its_levels_against_max_depth() {
    let arena = FrameArena::new();
    // Three levels of lists buffered: under a limit of 3, read (and not
    // matched); under 2, the depth error, not "did not match".
    let json = nested(3);
    let three = InArena::<Any<'_>>::new(&arena)
        .max_depth(3)
        .deserialize(&mut serde_json::Deserializer::from_str(&json));
    assert!(
        three
            .unwrap_err()
            .to_string()
            .contains("did not match any variant")
    );
    let two = InArena::<Any<'_>>::new(&arena)
        .max_depth(2)
        .deserialize(&mut serde_json::Deserializer::from_str(&json));
    let message = two.unwrap_err().to_string();
    assert!(message.contains("nested deeper than 2 levels"), "{message}");
    // The same in a tagged enum's buffer and a flattened struct's.
    let json = format!(r#"{{"type":"Say","text":"hi","extra":{}}}"#, nested(5));
    let tagged = InArena::<Tagged<'_>>::new(&arena)
        .max_depth(4)
        .deserialize(&mut serde_json::Deserializer::from_str(&json));
    assert!(
        tagged
            .unwrap_err()
            .to_string()
            .contains("nested deeper than 4 levels")
    );
    let json = format!(r#"{{"id":1,"x":{}}}"#, nested(5));
    let flat = InArena::<Flat<'_>>::new(&arena)
        .max_depth(4)
        .deserialize(&mut serde_json::Deserializer::from_str(&json));
    assert!(
        flat.unwrap_err()
            .to_string()
            .contains("nested deeper than 4 levels")
    );
    // The state is as it was: the next decode reads.
    let ok = InArena::<Any<'_>>::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(r#""fine""#))
        .unwrap();
    assert!(matches!(ok, Any::Text("fine")));
}

#[test]
fn an_arena_too_small_for_the_buffer_is_the_arenas_error() {
    let small = FrameArena::builder().reserve(4096).build().unwrap();
    let long = format!(r#""{}""#, "x".repeat(10_000));
    let error = InArena::<Any<'_>>::new(&small)
        .deserialize(&mut serde_json::Deserializer::from_str(&long))
        .unwrap_err();
    assert!(
        error.to_string().contains("frame arena cannot hold"),
        "{error}"
    );
    assert!(arena_refused(&small), "the arena refused the buffer");
    let json = format!(r#"{{"type":"Say","text":"hi","pad":{long}}}"#);
    let error = InArena::<Tagged<'_>>::new(&small)
        .deserialize(&mut serde_json::Deserializer::from_str(&json))
        .unwrap_err();
    assert!(
        error.to_string().contains("frame arena cannot hold"),
        "{error}"
    );
    assert!(arena_refused(&small));
    // Bad input in the same arena: not the arena's fault.
    let bad = InArena::<Any<'_>>::new(&small)
        .deserialize(&mut serde_json::Deserializer::from_str("[true]"));
    assert!(bad.is_err());
    assert!(!arena_refused(&small));
}

/// A format that marks what JSON cannot (a `Some`, a newtype, integer
/// widths, chars, bytes, an enum): the buffer presents each to the
/// untagged variants as serde's own buffer does, so the same variant reads
/// it under both derives, or both refuse it with the same message.
#[test]
fn a_marking_format_is_buffered_and_presented_as_serde_does() {
    use crate::models::tokens::{self, Token};
    #[allow(dead_code)]
    mod arena {
        #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
        pub struct Meters(pub f32);
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(untagged)]
        pub enum Tok<'a> {
            Nothing,
            Small(u8),
            Signed(i32),
            Letter(char),
            Text(&'a str),
            Wrapped(Meters),
            Maybe(Option<Option<u16>>),
            List(tickarena::FrameVec<'a, u16>),
            Pair { a: bool, b: Option<&'a str> },
        }
    }
    #[allow(dead_code)]
    mod heap {
        #[derive(serde::Deserialize, Debug)]
        pub struct Meters(pub f32);
        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        pub enum Tok {
            Nothing,
            Small(u8),
            Signed(i32),
            Letter(char),
            Text(String),
            Wrapped(Meters),
            Maybe(Option<Option<u16>>),
            List(Vec<u16>),
            Pair { a: bool, b: Option<String> },
        }
    }
    let docs: &[(&[Token], &str)] = &[
        (&[Token::Unit], "Nothing"),
        (&[Token::None], "Nothing"),
        (&[Token::U16(5)], "Small(5)"),
        (&[Token::U64(300)], "Signed(300)"),
        (&[Token::I64(-3)], "Signed(-3)"),
        (&[Token::Char('x')], "Letter('x')"),
        (&[Token::Str("h")], "Letter('h')"),
        (&[Token::BorrowedStr("hi")], "Text(\"hi\")"),
        (&[Token::Bytes(b"hi")], "Text(\"hi\")"),
        (
            &[Token::NewtypeStruct { name: "Meters" }, Token::F32(1.5)],
            "Wrapped(Meters(1.5))",
        ),
        (&[Token::F64(2.0)], "Wrapped(Meters(2.0))"),
        (&[Token::Some, Token::U8(3)], "Maybe(Some(Some(3)))"),
        (&[Token::Some, Token::None], "Maybe(Some(None))"),
        (
            &[
                Token::Seq { len: Some(2) },
                Token::U16(1),
                Token::U8(2),
                Token::SeqEnd,
            ],
            "List([1, 2])",
        ),
        (
            &[
                Token::Map { len: None },
                Token::Str("b"),
                Token::Str("x"),
                Token::Str("a"),
                Token::Bool(true),
                Token::MapEnd,
            ],
            "Pair { a: true, b: Some(\"x\") }",
        ),
        (
            &[
                Token::Struct {
                    name: "Pair",
                    len: 1,
                },
                Token::Str("a"),
                Token::Bool(false),
                Token::StructEnd,
            ],
            "Pair { a: false, b: None }",
        ),
    ];
    let frame = FrameArena::new();
    for (doc, expected) in docs {
        let heap = tokens::heap::<heap::Tok>(doc).map(|v| format!("{v:?}"));
        let ours = tokens::arena::<arena::Tok<'_>>(&frame, doc).map(|v| format!("{v:?}"));
        assert_eq!(ours, heap, "{doc:?}");
        assert_eq!(ours.as_deref(), Ok(*expected), "{doc:?}");
    }
    // (This format hands a variant to `deserialize_any` as a one-entry
    // map, as JSON writes it: "Letter('V')" under both derives.)
    let variant: &[Token] = &[Token::UnitVariant {
        name: "E",
        variant: "V",
    }];
    let heap = tokens::heap::<heap::Tok>(variant).map(|v| format!("{v:?}"));
    let ours = tokens::arena::<arena::Tok<'_>>(&frame, variant).map(|v| format!("{v:?}"));
    assert_eq!(ours, heap);
    let refused: &[(&[Token], &str)] = &[
        (&[Token::I128(5)], "integer `5` as i128, expected any value"),
        (
            &[Token::Bool(true)],
            "data did not match any variant of untagged enum Tok",
        ),
    ];
    for (doc, message) in refused {
        let heap = tokens::heap::<heap::Tok>(doc).map(|v| format!("{v:?}"));
        let ours = tokens::arena::<arena::Tok<'_>>(&frame, doc).map(|v| format!("{v:?}"));
        assert_eq!(ours, heap, "{doc:?}");
        assert!(ours.unwrap_err().contains(message), "{doc:?}");
    }
}

/// Tagged enums and flattened structs from the token format (names
/// checked, newtypes marked): the same value or message as serde's derive.
#[test]
fn tagged_and_flattened_types_from_tokens_read_as_serdes() {
    use crate::models::tokens::{self, Token};
    #[allow(dead_code)]
    mod arena {
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "type")]
        pub enum Internal<'a> {
            Say { text: &'a str },
            Stop,
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "t", content = "c")]
        pub enum Adjacent<'a> {
            Say(&'a str),
            Stop,
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct Inner<'a> {
            pub tag: &'a str,
        }
        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct Flat<'a> {
            pub id: u8,
            #[serde(flatten)]
            pub inner: Inner<'a>,
        }
    }
    #[allow(dead_code)]
    mod heap {
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "type")]
        pub enum Internal {
            Say { text: String },
            Stop,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "t", content = "c")]
        pub enum Adjacent {
            Say(String),
            Stop,
        }
        #[derive(serde::Deserialize, Debug)]
        pub struct Inner {
            pub tag: String,
        }
        #[derive(serde::Deserialize, Debug)]
        pub struct Flat {
            pub id: u8,
            #[serde(flatten)]
            pub inner: Inner,
        }
    }
    let frame = FrameArena::new();
    macro_rules! alike {
        ($arena:ty, $heap:ty, $doc:expr) => {{
            let doc: &[Token] = $doc;
            let heap = tokens::heap::<$heap>(doc).map(|v| format!("{v:?}"));
            let ours = tokens::arena::<$arena>(&frame, doc).map(|v| format!("{v:?}"));
            assert_eq!(ours, heap, "{doc:?}");
            ours
        }};
    }
    let map = |entries: &[Token]| {
        let mut doc = vec![Token::Map {
            len: Some(entries.len() / 2),
        }];
        doc.extend_from_slice(entries);
        doc.push(Token::MapEnd);
        doc
    };
    let say = map(&[
        Token::Str("text"),
        Token::Str("hi"),
        Token::Str("type"),
        Token::Str("Say"),
    ]);
    assert_eq!(
        alike!(arena::Internal<'_>, heap::Internal, &say).unwrap(),
        r#"Say { text: "hi" }"#
    );
    let stop = map(&[
        Token::Str("type"),
        Token::Str("Stop"),
        Token::Str("x"),
        Token::Some,
        Token::U8(1),
    ]);
    assert_eq!(
        alike!(arena::Internal<'_>, heap::Internal, &stop).unwrap(),
        "Stop"
    );
    let wrong = map(&[
        Token::Str("type"),
        Token::U32(0),
        Token::Str("text"),
        Token::Str("hi"),
    ]);
    assert!(alike!(arena::Internal<'_>, heap::Internal, &wrong).is_ok());
    let adjacent = [
        Token::Struct {
            name: "Adjacent",
            len: 2,
        },
        Token::Str("c"),
        Token::NewtypeStruct { name: "Wrapped" },
        Token::Str("yo"),
        Token::Str("t"),
        Token::UnitVariant {
            name: "Adjacent",
            variant: "Say",
        },
        Token::StructEnd,
    ];
    let _ = alike!(arena::Adjacent<'_>, heap::Adjacent, &adjacent);
    let flat = map(&[
        Token::Str("tag"),
        Token::BorrowedStr("t"),
        Token::Str("id"),
        Token::U8(3),
        Token::Bytes(b"extra"),
        Token::Unit,
    ]);
    assert_eq!(
        alike!(arena::Flat<'_>, heap::Flat, &flat).unwrap(),
        r#"Flat { id: 3, inner: Inner { tag: "t" } }"#
    );
}
