//! serde's deserialize attributes on `#[derive(DeserializeIn)]` types, each
//! checked against serde's own derive on the heap twin: the same tokens,
//! JSON or postcard bytes decode to the same value (compared by `Debug`)
//! or fail with the same message.

use std::fmt::Debug;

use serde::Deserialize;
use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::{DeserializeIn, InArena};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::tokens::{self, Token};

/// `Ok(Debug)` or `Err(message)`, for comparing a heap decode and an arena
/// one.
fn shown<T: Debug, E: ToString>(result: Result<T, E>) -> Result<String, String> {
    result
        .map(|value| format!("{value:?}"))
        .map_err(|error| error.to_string())
}

/// `json` decoded by serde's derive (`H`) and by the arena derive (`A`).
#[track_caller]
fn same_json<H, A>(json: &str)
where
    H: for<'de> Deserialize<'de> + Debug,
    A: for<'a> DeserializeIn<'a> + Debug,
{
    let arena = FrameArena::new();
    let heap = shown(serde_json::from_str::<H>(json));
    let got =
        shown(InArena::<A>::new(&arena).deserialize(&mut serde_json::Deserializer::from_str(json)));
    assert_eq!(heap, got, "JSON {json}");
}

/// `bytes` decoded from postcard by serde's derive and by the arena derive.
#[track_caller]
fn same_postcard<H, A>(bytes: &[u8])
where
    H: for<'de> Deserialize<'de> + Debug,
    A: for<'a> DeserializeIn<'a> + Debug,
{
    let arena = FrameArena::new();
    let heap = shown(postcard::from_bytes::<H>(bytes));
    let got = shown(
        InArena::<A>::new(&arena).deserialize(&mut postcard::Deserializer::from_bytes(bytes)),
    );
    assert_eq!(heap, got, "postcard {bytes:?}");
}

/// `doc` read by serde's derive and by the arena derive, in the token format
/// (newtypes marked).
#[track_caller]
fn same_tokens<H, A>(doc: &'static [Token])
where
    H: for<'de> Deserialize<'de> + Debug,
    A: for<'a> DeserializeIn<'a> + Debug,
{
    let arena = FrameArena::new();
    let heap = shown(tokens::heap::<H>(doc));
    let got = shown(tokens::arena::<A>(&arena, doc));
    assert_eq!(heap, got, "tokens {doc:?}");
}

/// A heap type and its arena twin: the same name (serde's messages name the
/// type), in two modules. Their fields are read through `Debug` alone.
#[allow(dead_code)]
mod heap {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    pub struct Meters(pub f32);

    #[derive(Deserialize, Debug)]
    pub enum Skips {
        Gone(#[serde(skip_deserializing)] u8),
        Kept(u8),
    }
}

#[allow(dead_code)]
mod arena {
    use tickarena::{DeserializeIn, FrameVec};

    #[derive(DeserializeIn, Debug)]
    pub struct Meters(pub f32);

    #[derive(DeserializeIn, Debug)]
    pub struct Words<'a>(pub FrameVec<'a, &'a str>);

    #[derive(DeserializeIn, Debug)]
    pub enum Skips {
        Gone(#[serde(skip_deserializing)] u8),
        Kept(u8),
    }
}

// --- The two wrong results of issue 50 -----------------------------------

/// A one-field tuple struct is serde's newtype struct: read through
/// `deserialize_newtype_struct` (`visit_newtype_struct` for a format that
/// marks it, `visit_seq` for one that writes a sequence).
#[test]
fn a_one_field_tuple_struct_is_read_as_a_newtype_struct() {
    same_tokens::<heap::Meters, arena::Meters>(&[
        Token::NewtypeStruct { name: "Meters" },
        Token::F32(1.5),
    ]);
    same_tokens::<heap::Meters, arena::Meters>(&[Token::F32(1.5)]);
    same_tokens::<heap::Meters, arena::Meters>(&[
        Token::Seq { len: Some(1) },
        Token::F32(2.5),
        Token::SeqEnd,
    ]);
    same_tokens::<heap::Meters, arena::Meters>(&[Token::Seq { len: Some(0) }, Token::SeqEnd]);
    same_tokens::<heap::Meters, arena::Meters>(&[
        Token::NewtypeStruct { name: "Feet" },
        Token::F32(1.5),
    ]);
    let arena = FrameArena::new();
    let doc = [
        Token::NewtypeStruct { name: "Words" },
        Token::Seq { len: Some(2) },
        Token::Str("a"),
        Token::Str("b"),
        Token::SeqEnd,
    ];
    let words = tokens::arena::<arena::Words<'_>>(&arena, &doc).unwrap();
    assert_eq!(words.0[..], ["a", "b"]);
    same_json::<heap::Meters, arena::Meters>("1.5");
    same_json::<heap::Meters, arena::Meters>("[1.5]");
    same_json::<heap::Meters, arena::Meters>("\"x\"");
    same_postcard::<heap::Meters, arena::Meters>(&postcard::to_allocvec(&1.5f32).unwrap());
}

/// A tuple variant whose one field is skipped is read from a unit variant,
/// its field the default.
#[test]
fn a_tuple_variant_with_its_one_field_skipped_is_read_from_a_unit_variant() {
    same_tokens::<heap::Skips, arena::Skips>(&[Token::UnitVariant {
        name: "Skips",
        variant: "Gone",
    }]);
    same_tokens::<heap::Skips, arena::Skips>(&[
        Token::TupleVariant {
            name: "Skips",
            variant: "Gone",
            len: 0,
        },
        Token::TupleVariantEnd,
    ]);
    same_json::<heap::Skips, arena::Skips>("\"Gone\"");
    same_json::<heap::Skips, arena::Skips>("{\"Gone\": []}");
    same_json::<heap::Skips, arena::Skips>("{\"Gone\": null}");
    same_postcard::<heap::Skips, arena::Skips>(&[0]);
    same_postcard::<heap::Skips, arena::Skips>(&[1, 7]);
}
