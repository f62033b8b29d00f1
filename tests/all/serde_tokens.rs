//! The token format of `tests/models/tokens.rs` behaves as serde_test's:
//! newtypes are marked, names are checked, a variant read by
//! `deserialize_any` is a one-entry map, and its errors are serde_test's.
//! serde's derive is the reference; `DeserializeIn` reads the same tokens.

use serde::Deserialize;
use tickarena::{DeserializeIn, FrameArena, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::tokens::{self, Token};

#[derive(Deserialize, Debug, PartialEq)]
struct Meters(f32);

#[derive(Deserialize, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Deserialize, Debug, PartialEq)]
enum Shape {
    Empty,
    Circle(u8),
    Line(u8, u8),
    Rect { w: u8, h: u8 },
}

#[test]
fn a_marked_newtype_is_read_through_visit_newtype_struct() {
    let marked = [Token::NewtypeStruct { name: "Meters" }, Token::F32(1.5)];
    assert_eq!(tokens::heap::<Meters>(&marked), Ok(Meters(1.5)));
    // serde's newtype visitor has no `visit_f32`: the marker is what it reads.
    assert_eq!(
        tokens::heap::<Meters>(&[Token::F32(1.5)]),
        Err("invalid type: floating point `1.5`, expected tuple struct Meters".to_owned())
    );
}

#[test]
fn names_are_checked() {
    let wrong = [
        Token::Struct {
            name: "Other",
            len: 2,
        },
        Token::Str("x"),
        Token::I32(1),
        Token::Str("y"),
        Token::I32(2),
        Token::StructEnd,
    ];
    assert_eq!(
        tokens::heap::<Point>(&wrong),
        Err(
            "expected Token::Struct { name: \"Other\", len: 2 } but deserialization \
             wants Token::Struct { name: \"Point\", len: 2 }"
                .to_owned()
        )
    );
    assert_eq!(
        tokens::heap::<Meters>(&[Token::NewtypeStruct { name: "Feet" }, Token::F32(1.0)]),
        Err(
            "expected Token::NewtypeStruct { name: \"Feet\" } but deserialization \
             wants Token::NewtypeStruct { name: \"Meters\" }"
                .to_owned()
        )
    );
    // A map stands for any struct.
    let map = [
        Token::Map { len: Some(2) },
        Token::Str("y"),
        Token::I32(2),
        Token::Str("x"),
        Token::I32(1),
        Token::MapEnd,
    ];
    assert_eq!(tokens::heap::<Point>(&map), Ok(Point { x: 1, y: 2 }));
}

#[test]
fn enums_read_in_both_spellings() {
    let cases: [(&[Token], Shape); 5] = [
        (
            &[Token::UnitVariant {
                name: "Shape",
                variant: "Empty",
            }],
            Shape::Empty,
        ),
        (
            &[
                Token::Enum { name: "Shape" },
                Token::Str("Empty"),
                Token::Unit,
            ],
            Shape::Empty,
        ),
        (
            &[
                Token::NewtypeVariant {
                    name: "Shape",
                    variant: "Circle",
                },
                Token::U8(3),
            ],
            Shape::Circle(3),
        ),
        (
            &[
                Token::TupleVariant {
                    name: "Shape",
                    variant: "Line",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(2),
                Token::TupleVariantEnd,
            ],
            Shape::Line(1, 2),
        ),
        (
            &[
                Token::Enum { name: "Shape" },
                Token::Str("Rect"),
                Token::Map { len: Some(2) },
                Token::Str("w"),
                Token::U8(4),
                Token::Str("h"),
                Token::U8(5),
                Token::MapEnd,
            ],
            Shape::Rect { w: 4, h: 5 },
        ),
    ];
    for (doc, want) in cases {
        assert_eq!(tokens::heap::<Shape>(doc), Ok(want), "{doc:?}");
    }
}

#[test]
fn a_variant_read_by_deserialize_any_is_a_map_of_one_entry() {
    let doc = [
        Token::StructVariant {
            name: "Shape",
            variant: "Rect",
            len: 1,
        },
        Token::Str("w"),
        Token::U8(4),
        Token::StructVariantEnd,
    ];
    assert_eq!(
        tokens::heap::<serde_json::Value>(&doc),
        Ok(serde_json::json!({"Rect": {"w": 4}}))
    );
    let doc = [Token::UnitVariant {
        name: "Shape",
        variant: "Empty",
    }];
    assert_eq!(
        tokens::heap::<serde_json::Value>(&doc),
        Ok(serde_json::json!("Empty"))
    );
}

#[test]
fn errors_are_serde_tests() {
    assert_eq!(
        tokens::heap::<Point>(&[
            Token::Struct {
                name: "Point",
                len: 2
            },
            Token::Str("x")
        ]),
        Err("ran out of tokens to deserialize".to_owned())
    );
    assert_eq!(
        tokens::heap::<u8>(&[Token::U8(1), Token::U8(2)]),
        Err("1 remaining tokens".to_owned())
    );
    assert_eq!(
        tokens::heap::<u8>(&[Token::SeqEnd]),
        Err("deserialization did not expect this token: SeqEnd".to_owned())
    );
    assert_eq!(
        tokens::heap::<Point>(&[Token::Seq { len: Some(1) }, Token::I32(1), Token::SeqEnd]),
        Err("invalid length 1, expected struct Point with 2 elements".to_owned())
    );
}

#[derive(DeserializeIn, Debug)]
struct ArenaPoint<'a> {
    name: &'a str,
    steps: FrameVec<'a, Option<i32>>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "ArenaPoint")]
struct HeapPoint {
    name: String,
    steps: Vec<Option<i32>>,
}

#[test]
fn the_arena_derive_reads_tokens_as_serdes_does() {
    let arena = FrameArena::new();
    let doc = [
        Token::Struct {
            name: "ArenaPoint",
            len: 2,
        },
        Token::Str("name"),
        Token::BorrowedStr("p"),
        Token::Str("steps"),
        Token::Seq { len: Some(2) },
        Token::Some,
        Token::I32(-1),
        Token::None,
        Token::SeqEnd,
        Token::StructEnd,
    ];
    let heap = tokens::heap::<HeapPoint>(&doc).unwrap();
    let got = tokens::arena::<ArenaPoint<'_>>(&arena, &doc).unwrap();
    assert_eq!((got.name, &got.steps[..]), (&*heap.name, &heap.steps[..]));
    // Cut short, both fail the same way.
    for end in 0..doc.len() {
        let heap = tokens::heap::<HeapPoint>(&doc[..end]).unwrap_err();
        let got = tokens::arena::<ArenaPoint<'_>>(&arena, &doc[..end]).unwrap_err();
        assert_eq!(heap, got, "{:?}", &doc[..end]);
    }
}

#[test]
fn serialized_tokens_read_back() {
    #[derive(serde::Serialize, Deserialize, Debug, PartialEq)]
    struct Message {
        id: Meters,
        shapes: Vec<Shape>,
        note: Option<String>,
    }
    #[derive(serde::Serialize, Deserialize, Debug, PartialEq)]
    struct Meters(f32);
    #[derive(serde::Serialize, Deserialize, Debug, PartialEq)]
    enum Shape {
        Empty,
        Circle(u8),
        Line(u8, u8),
        Rect { w: u8, h: u8 },
    }
    let message = Message {
        id: Meters(2.5),
        shapes: vec![
            Shape::Empty,
            Shape::Circle(1),
            Shape::Line(2, 3),
            Shape::Rect { w: 4, h: 5 },
        ],
        note: Some("hi".into()),
    };
    let doc = tokens::to_tokens(&message).unwrap();
    assert_eq!(
        &doc[..5],
        &[
            Token::Struct {
                name: "Message",
                len: 3
            },
            Token::Str("id"),
            Token::NewtypeStruct { name: "Meters" },
            Token::F32(2.5),
            Token::Str("shapes"),
        ]
    );
    assert_eq!(tokens::heap::<Message>(&doc), Ok(message));
}
