//! Review of issue 50 (serde's attributes on `#[derive(DeserializeIn)]`):
//! the corners where the arena derive was attacked, each against serde's
//! derive on a heap twin (the same value by `Debug`, or the same message).

use crate::models::tokens::{self, Token};
use crate::serde_tagged::same;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// `$doc` (tokens) read by the arena type and by serde's derive on the heap
/// twin: the same `Ok(Debug)` or `Err(message)`.
macro_rules! same_tokens {
    ($arena:ty, $heap:ty, $doc:expr) => {{
        let doc: &[Token] = $doc;
        let frame = tickarena::FrameArena::new();
        let arena_side = tokens::arena::<$arena>(&frame, doc).map(|v| format!("{v:?}"));
        let heap_side = tokens::heap::<$heap>(doc).map(|v| format!("{v:?}"));
        assert_eq!(arena_side, heap_side, "the two derives differ on {doc:?}");
        arena_side
    }};
}

/// Both twins' `Even` (`try_from = "i64"`): an even number, else the
/// conversion's error.
fn even(n: i64) -> Result<i64, &'static str> {
    if n % 2 == 0 { Ok(n) } else { Err("odd number") }
}

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{FrameHashMap, FrameVec};

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Num {
        U8(u8),
        I8(i8),
        U16(u16),
        I32(i32),
        U64(u64),
        I64(i64),
        F32(f32),
        F64(f64),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Wide {
        I(i128),
        U(u128),
        S(u8),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Text<'a> {
        C(char),
        S(&'a str),
        B(FrameVec<'a, u8>),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "kind")]
    pub enum Internal {
        A,
        B { x: u8 },
        C(Inner),
    }

    #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
    pub struct Inner {
        pub y: u8,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c", deny_unknown_fields)]
    pub enum Adjacent<'a> {
        U,
        N(u8),
        O(Option<u8>),
        S { x: &'a str },
        T(u8, u8),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum AdjacentLoose<'a> {
        U,
        N(u8),
        S { x: &'a str },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Aliased<'a> {
        #[serde(alias = "old_name")]
        pub new_name: u8,
        pub z: &'a str,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct FlatRenamed<'a> {
        pub my_id: u32,
        #[serde(flatten)]
        pub inner: Aliased<'a>,
        #[serde(flatten)]
        pub opt: Option<Inner>,
        pub some_text: &'a str,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct TwoMaps<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub nums: FrameHashMap<'a, &'a str, i64>,
        #[serde(flatten)]
        pub texts: FrameHashMap<'a, &'a str, &'a str>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Shape<'a> {
        Circle { r: u8 },
        Square { side: &'a str },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct FlatUntagged<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub shape: Shape<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(rename_all = "snake_case")]
    pub enum OtherRenamed {
        FooBar,
        BazQux,
        #[serde(other)]
        Unknown,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", rename_all = "kebab-case")]
    pub enum OtherTagged {
        FooBar {
            x: u8,
        },
        #[serde(other)]
        Unknown,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct AliasCollides {
        pub a: u8,
        #[serde(alias = "a")]
        pub b: u8,
    }

    pub fn default_text<'a>() -> &'a str {
        "fallback"
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct DefaultPath<'a> {
        pub id: u8,
        #[serde(default = "default_text")]
        pub text: &'a str,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(transparent)]
    pub struct Wrapped<'a> {
        pub items: FrameVec<'a, &'a str>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(transparent)]
    pub struct Name<'a>(pub &'a str);

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(try_from = "i64")]
    pub struct Even(pub i64);

    impl TryFrom<i64> for Even {
        type Error = &'static str;
        fn try_from(n: i64) -> Result<Self, Self::Error> {
            super::even(n).map(Even)
        }
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(expecting = "a nice point")]
    pub struct Expect {
        pub x: u8,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged, expecting = "a number or a name")]
    pub enum ExpectUntagged<'a> {
        N(u8),
        S(&'a str),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", expecting = "a tagged thing")]
    pub enum ExpectInternal {
        A { x: u8 },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(expecting = "a plain enum")]
    pub enum ExpectExternal {
        A,
        B(u8),
    }
}

#[allow(dead_code)]
mod heap {
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Num {
        U8(u8),
        I8(i8),
        U16(u16),
        I32(i32),
        U64(u64),
        I64(i64),
        F32(f32),
        F64(f64),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Wide {
        I(i128),
        U(u128),
        S(u8),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Text {
        C(char),
        S(String),
        B(Vec<u8>),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "kind")]
    pub enum Internal {
        A,
        B { x: u8 },
        C(super::arena::Inner),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c", deny_unknown_fields)]
    pub enum Adjacent {
        U,
        N(u8),
        O(Option<u8>),
        S { x: String },
        T(u8, u8),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum AdjacentLoose {
        U,
        N(u8),
        S { x: String },
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Aliased {
        #[serde(alias = "old_name")]
        pub new_name: u8,
        pub z: String,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct FlatRenamed {
        pub my_id: u32,
        #[serde(flatten)]
        pub inner: Aliased,
        #[serde(flatten)]
        pub opt: Option<super::arena::Inner>,
        pub some_text: String,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct TwoMaps {
        pub id: u32,
        #[serde(flatten)]
        pub nums: BTreeMap<String, i64>,
        #[serde(flatten)]
        pub texts: BTreeMap<String, String>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Shape {
        Circle { r: u8 },
        Square { side: String },
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct FlatUntagged {
        pub id: u32,
        #[serde(flatten)]
        pub shape: Shape,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "snake_case")]
    pub enum OtherRenamed {
        FooBar,
        BazQux,
        #[serde(other)]
        Unknown,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", rename_all = "kebab-case")]
    pub enum OtherTagged {
        FooBar {
            x: u8,
        },
        #[serde(other)]
        Unknown,
    }

    pub use collides::AliasCollides;

    // serde's derive matches the alias after the name it repeats (the
    // arena derive drops the repeat).
    #[allow(unreachable_patterns)]
    mod collides {
        #[derive(serde::Deserialize, Debug)]
        pub struct AliasCollides {
            pub a: u8,
            #[serde(alias = "a")]
            pub b: u8,
        }
    }

    pub fn default_text() -> String {
        "fallback".to_owned()
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct DefaultPath {
        pub id: u8,
        #[serde(default = "default_text")]
        pub text: String,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(transparent)]
    pub struct Wrapped {
        pub items: Vec<String>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(transparent)]
    pub struct Name(pub String);

    #[derive(serde::Deserialize, Debug)]
    #[serde(try_from = "i64")]
    pub struct Even(pub i64);

    impl TryFrom<i64> for Even {
        type Error = &'static str;
        fn try_from(n: i64) -> Result<Self, Self::Error> {
            super::even(n).map(Even)
        }
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(expecting = "a nice point")]
    pub struct Expect {
        pub x: u8,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged, expecting = "a number or a name")]
    pub enum ExpectUntagged {
        N(u8),
        S(String),
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t", expecting = "a tagged thing")]
    pub enum ExpectInternal {
        A { x: u8 },
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(expecting = "a plain enum")]
    pub enum ExpectExternal {
        A,
        B(u8),
    }
}

#[test]
fn untagged_numbers_of_every_width_read_as_serdes() {
    for json in [
        "0",
        "255",
        "256",
        "-1",
        "-129",
        "65536",
        "-70000",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        "1e300",
        "-0.0",
        "1e39",
        "\"1\"",
        "null",
        "true",
    ] {
        let _ = same!(arena::Num, heap::Num, json);
    }
    for doc in [
        [Token::U8(7)],
        [Token::I8(-7)],
        [Token::U16(300)],
        [Token::I16(-300)],
        [Token::U32(70000)],
        [Token::I32(-70000)],
        [Token::U64(u64::MAX)],
        [Token::I64(i64::MIN)],
        [Token::F32(1.5)],
        [Token::F64(1e300)],
        [Token::F32(f32::MAX)],
        [Token::F64(f64::NAN)],
    ] {
        let _ = same_tokens!(arena::Num, heap::Num, &doc);
    }
}

#[test]
fn untagged_128_bit_integers_read_as_serdes() {
    for doc in [
        [Token::I128(1)],
        [Token::U128(1)],
        [Token::I128(i128::MIN)],
        [Token::U128(u128::MAX)],
        [Token::U8(3)],
        [Token::I64(-3)],
        [Token::U64(u64::MAX)],
    ] {
        let _ = same_tokens!(arena::Wide, heap::Wide, &doc);
    }
    for json in ["1", "-1", "18446744073709551615", "18446744073709551616"] {
        let _ = same!(arena::Wide, heap::Wide, json);
    }
}

#[test]
fn untagged_chars_strings_and_bytes_read_as_serdes() {
    for json in ["\"a\"", "\"ab\"", "\"\"", "\"é\"", "[1,2]", "[256]", "[]"] {
        let _ = same!(arena::Text<'_>, heap::Text, json);
    }
    for doc in [
        &[Token::Char('x')][..],
        &[Token::Str("y")],
        &[Token::BorrowedStr("yz")],
        &[Token::String("q")],
        &[Token::Bytes(b"ab")],
        &[Token::BorrowedBytes(b"a")],
        &[Token::ByteBuf(b"\xff")],
        &[Token::Bytes(b"\xff")],
    ] {
        let _ = same_tokens!(arena::Text<'_>, heap::Text, doc);
    }
}

#[test]
fn internal_tags_that_are_not_strings_read_as_serdes() {
    for json in [
        r#"{"kind":"A"}"#,
        r#"{"kind":0}"#,
        r#"{"kind":1,"x":2}"#,
        r#"{"kind":2,"y":3}"#,
        r#"{"kind":3}"#,
        r#"{"kind":true}"#,
        r#"{"kind":null}"#,
        r#"{"kind":1.0,"x":2}"#,
        r#"{"kind":-1}"#,
        r#"{"kind":[]}"#,
        r#"{"kind":{}}"#,
        r#"["A"]"#,
        r#"["B",4]"#,
        r#"["C",{"y":1}]"#,
        r#"["C",[1]]"#,
        r#"[0]"#,
        r#"[]"#,
        r#"{"x":1}"#,
        r#"{"x":1,"kind":"B"}"#,
        r#"{"kind":"B","kind":"A"}"#,
        r#""A""#,
    ] {
        let _ = same!(arena::Internal, heap::Internal, json);
    }
    for doc in [
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::U8(0),
            Token::MapEnd,
        ][..],
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::Bool(false),
            Token::MapEnd,
        ],
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::Bytes(b"A"),
            Token::MapEnd,
        ],
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::Char('A'),
            Token::MapEnd,
        ],
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::U64(0),
            Token::MapEnd,
        ],
        &[
            Token::Map { len: Some(1) },
            Token::Bytes(b"kind"),
            Token::Str("A"),
            Token::MapEnd,
        ],
        &[
            Token::Map { len: Some(1) },
            Token::Str("kind"),
            Token::I8(0),
            Token::MapEnd,
        ],
    ] {
        let _ = same_tokens!(arena::Internal, heap::Internal, doc);
    }
}

#[test]
fn adjacent_tags_with_null_missing_and_unknown_content_read_as_serdes() {
    for json in [
        r#"{"t":"U"}"#,
        r#"{"t":"U","c":null}"#,
        r#"{"t":"U","c":1}"#,
        r#"{"c":null,"t":"U"}"#,
        r#"{"t":"N"}"#,
        r#"{"t":"N","c":null}"#,
        r#"{"t":"N","c":1}"#,
        r#"{"c":1,"t":"N"}"#,
        r#"{"t":"O"}"#,
        r#"{"t":"O","c":null}"#,
        r#"{"c":null,"t":"O"}"#,
        r#"{"t":"S","c":{"x":"a"}}"#,
        r#"{"t":"S","c":{"x":"a","y":1}}"#,
        r#"{"t":"S"}"#,
        r#"{"t":"T","c":[1,2]}"#,
        r#"{"t":"T","c":[1]}"#,
        r#"{"t":"T"}"#,
        r#"{"t":"U","x":1}"#,
        r#"{"x":1,"t":"U"}"#,
        r#"{"t":"U","c":null,"x":1}"#,
        r#"{"t":0}"#,
        r#"{"t":1,"c":5}"#,
        r#"{"t":9}"#,
        r#"{"t":"Z"}"#,
        r#"{"c":1}"#,
        r#"{}"#,
        r#"{"t":"U","t":"U"}"#,
        r#"{"t":"N","c":1,"c":2}"#,
        r#"["N",1]"#,
        r#"["U"]"#,
        r#"[]"#,
        r#"["U",null]"#,
        r#"["N"]"#,
        r#"["N",1,2]"#,
        r#"null"#,
        r#""U""#,
    ] {
        let _ = same!(arena::Adjacent<'_>, heap::Adjacent, json);
        let _ = same!(arena::AdjacentLoose<'_>, heap::AdjacentLoose, json);
    }
}

#[test]
fn flatten_with_aliases_renames_and_options_reads_as_serdes() {
    for json in [
        r#"{"myId":1,"new_name":2,"z":"3","someText":"a"}"#,
        r#"{"myId":1,"old_name":2,"z":"3","someText":"a","y":4}"#,
        r#"{"my_id":1,"old_name":2,"z":"3","someText":"a"}"#,
        r#"{"myId":1,"newName":2,"z":"3","someText":"a"}"#,
        r#"{"myId":1,"old_name":2,"new_name":5,"z":"3","someText":"a"}"#,
        r#"{"myId":1,"old_name":2,"z":"3","someText":"a","y":"no"}"#,
        r#"{"myId":1,"z":"3","someText":"a"}"#,
        r#"{"myId":1,"old_name":2,"z":"3"}"#,
    ] {
        let _ = same!(arena::FlatRenamed<'_>, heap::FlatRenamed, json);
    }
}

#[test]
fn two_flattened_maps_read_as_serdes() {
    // Sorted maps on the heap side print in key order; the arena side's
    // hash map is compared entry by entry.
    for json in [
        r#"{"id":1}"#,
        r#"{"id":1,"a":2}"#,
        r#"{"id":1,"a":"x"}"#,
        r#"{"a":2,"id":1,"b":"y"}"#,
        r#"{"id":1,"a":2.5}"#,
    ] {
        let frame = tickarena::FrameArena::new();
        let arena_side = serde_json::from_str::<serde::de::IgnoredAny>(json).map(|_| ());
        assert!(arena_side.is_ok());
        let mut input = serde_json::Deserializer::from_str(json);
        let got = serde::de::DeserializeSeed::deserialize(
            tickarena::serde::InArena::<arena::TwoMaps<'_>>::new(&frame),
            &mut input,
        )
        .map(|v| {
            let mut nums: Vec<_> = v.nums.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let mut texts: Vec<_> = v
                .texts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            nums.sort();
            texts.sort();
            (v.id, nums, texts)
        })
        .map_err(|e| e.to_string());
        let want = serde_json::from_str::<heap::TwoMaps>(json)
            .map(|v| {
                (
                    v.id,
                    v.nums.into_iter().collect::<Vec<_>>(),
                    v.texts.into_iter().collect::<Vec<_>>(),
                )
            })
            .map_err(|e| e.to_string());
        assert_eq!(got, want, "{json}");
    }
}

#[test]
fn a_flattened_untagged_enum_reads_as_serdes() {
    for json in [
        r#"{"id":1,"r":2}"#,
        r#"{"id":1,"side":"2"}"#,
        r#"{"r":2,"id":1,"side":"3"}"#,
        r#"{"id":1}"#,
        r#"{"id":1,"r":"x"}"#,
        r#"{"id":1,"r":300}"#,
    ] {
        let _ = same!(arena::FlatUntagged<'_>, heap::FlatUntagged, json);
    }
}

#[test]
fn other_with_rename_all_reads_as_serdes() {
    for json in [
        r#""foo_bar""#,
        r#""FooBar""#,
        r#""baz_qux""#,
        r#""unknown""#,
        r#""Unknown""#,
        r#""x""#,
        r#"0"#,
        r#"1"#,
        r#"2"#,
        r#"3"#,
        r#"{"zzz":null}"#,
        r#"{"foo_bar":null}"#,
        r#"{"zzz":1}"#,
    ] {
        let _ = same!(arena::OtherRenamed, heap::OtherRenamed, json);
    }
    for json in [
        r#"{"t":"foo-bar","x":1}"#,
        r#"{"t":"FooBar","x":1}"#,
        r#"{"t":"nope"}"#,
        r#"{"t":"nope","x":1}"#,
        r#"{"t":"unknown"}"#,
        r#"{"t":0,"x":1}"#,
        r#"{"t":1}"#,
        r#"{"t":5}"#,
    ] {
        let _ = same!(arena::OtherTagged, heap::OtherTagged, json);
    }
}

#[test]
fn an_alias_that_is_another_fields_name_reads_as_serdes() {
    for json in [
        r#"{"a":1,"b":2}"#,
        r#"{"a":1}"#,
        r#"{"b":2}"#,
        r#"{"b":2,"a":1}"#,
    ] {
        let _ = same!(arena::AliasCollides, heap::AliasCollides, json);
    }
}

#[test]
fn default_path_and_transparent_arena_types_read_as_serdes() {
    for json in [r#"{"id":1}"#, r#"{"id":1,"text":"t"}"#, r#"{"text":"t"}"#] {
        let _ = same!(arena::DefaultPath<'_>, heap::DefaultPath, json);
    }
    for json in [r#"["a","b"]"#, r#"[]"#, r#""a""#, r#"{"items":["a"]}"#] {
        let _ = same!(arena::Wrapped<'_>, heap::Wrapped, json);
    }
    for json in [r#""a""#, r#"1"#, r#"["a"]"#] {
        let _ = same!(arena::Name<'_>, heap::Name, json);
    }
    for doc in [
        &[Token::Str("a")][..],
        &[Token::NewtypeStruct { name: "Name" }, Token::Str("a")],
    ] {
        let _ = same_tokens!(arena::Name<'_>, heap::Name, doc);
    }
}

#[test]
fn try_from_and_expecting_say_what_serde_says() {
    for json in ["2", "3", "\"2\"", "null"] {
        let _ = same!(arena::Even, heap::Even, json);
    }
    for json in ["1", "[1]", "{\"x\":1}", "\"s\"", "null", "[]"] {
        let _ = same!(arena::Expect, heap::Expect, json);
    }
    for json in ["1", "\"s\"", "null", "[]", "{}", "-1", "1.5"] {
        let _ = same!(arena::ExpectUntagged<'_>, heap::ExpectUntagged, json);
    }
    for json in [
        "1",
        "\"s\"",
        "null",
        "[]",
        "{}",
        "{\"t\":\"A\"}",
        "[\"A\"]",
        "[\"B\"]",
    ] {
        let _ = same!(arena::ExpectInternal, heap::ExpectInternal, json);
    }
    for json in [
        "1",
        "\"s\"",
        "null",
        "[]",
        "{}",
        "\"A\"",
        "{\"B\":1}",
        "{\"A\":1}",
    ] {
        let _ = same!(arena::ExpectExternal, heap::ExpectExternal, json);
    }
}

mod refusals {
    use serde::de::DeserializeSeed;
    use tickarena::serde::{InArena, arena_refused};
    use tickarena::{FrameArena, FrameVec};

    #[cfg_attr(miri, allow(unused_imports))] // the deep-nesting tests' alone
    use crate::models::tokens::{self, Token};

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    enum Copied<'a> {
        // A `FrameString` copies its text out of the buffer (a `&'a str`
        // is lent it: see `a_borrowed_str_in_an_untagged_attempt_is_lent`).
        Text(tickarena::FrameString<'a>),
        Num(u8),
    }

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    enum Lent<'a> {
        Text(&'a str),
        Num(u8),
    }

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    enum Lists<'a> {
        Nums(FrameVec<'a, u64>),
        Num(u8),
    }

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    enum Tree<'a> {
        Leaf(u8),
        Node(FrameVec<'a, Tree<'a>>),
    }

    #[allow(dead_code)]
    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    enum HeapTree {
        Leaf(u8),
        Node(Vec<HeapTree>),
    }

    /// The buffer fits, but the variant's own copy of the string does not:
    /// the decode is the arena's error and `arena_refused` says so, not
    /// "did not match any variant" with the arena's part lost.
    #[test]
    fn an_arena_that_refuses_an_untagged_attempt_is_the_arenas_error() {
        let small = FrameArena::builder().reserve(4096).build().unwrap();
        let text = "x".repeat(2600);
        let json = format!("{text:?}");
        let result = InArena::<Copied<'_>>::new(&small)
            .deserialize(&mut serde_json::Deserializer::from_str(&json));
        let message = result.map(|_| ()).unwrap_err().to_string();
        assert!(arena_refused(&small), "arena_refused after: {message}");
        assert!(message.contains("frame arena cannot hold"), "{message}");
    }

    /// A `&'a str` read from the buffer is the buffer's text, lent, not a
    /// copy: the same input fits the small arena, and the text is the
    /// buffer's own.
    #[test]
    fn a_borrowed_str_in_an_untagged_attempt_is_lent() {
        let small = FrameArena::builder().reserve(4096).build().unwrap();
        let text = "x".repeat(2600);
        let json = format!("{text:?}");
        let read = InArena::<Lent<'_>>::new(&small)
            .deserialize(&mut serde_json::Deserializer::from_str(&json))
            .unwrap();
        assert!(matches!(read, Lent::Text(t) if t == text));
        assert!(small.used() < 2 * 2600, "one copy: {} bytes", small.used());
    }

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    struct Inner<'a> {
        y: u8,
        tag: &'a str,
    }

    #[allow(dead_code)]
    #[derive(tickarena::DeserializeIn, Debug)]
    struct FlatOption<'a> {
        id: u32,
        #[serde(flatten)]
        inner: Option<Inner<'a>>,
    }

    /// A flattened `Option` is `None` where its value does not read, but
    /// not where the arena refused it: that decode is the arena's error,
    /// not a value with the part silently gone.
    #[test]
    fn an_arena_that_refuses_a_flattened_option_is_the_arenas_error() {
        let small = FrameArena::builder().reserve(4096).build().unwrap();
        let json = format!(r#"{{"id":1,"y":2,"tag":"{}"}}"#, "x".repeat(2600));
        let result = InArena::<FlatOption<'_>>::new(&small)
            .deserialize(&mut serde_json::Deserializer::from_str(&json))
            .map(|flat| format!("{flat:?}").len());
        assert!(arena_refused(&small), "arena_refused after: {result:?}");
        let message = result.unwrap_err().to_string();
        assert!(message.contains("frame arena cannot hold"), "{message}");
        // In a large arena it reads; without `y`, it is `None`.
        let big = FrameArena::new();
        let read = InArena::<FlatOption<'_>>::new(&big)
            .deserialize(&mut serde_json::Deserializer::from_str(&json))
            .unwrap();
        assert!(matches!(read.inner, Some(Inner { y: 2, .. })));
        let none = InArena::<FlatOption<'_>>::new(&big)
            .deserialize(&mut serde_json::Deserializer::from_str(
                r#"{"id":1,"tag":"t"}"#,
            ))
            .unwrap();
        assert!(none.inner.is_none());
        assert!(!arena_refused(&big));
    }

    /// A list of more than the stack's 8 elements spills into the arena,
    /// and the arena refuses it midway: the arena's error, and the next
    /// decode in a larger arena reads it.
    #[test]
    fn an_arena_that_refuses_a_spilled_list_midway_is_the_arenas_error() {
        let small = FrameArena::builder().reserve(4096).build().unwrap();
        let n = 1000;
        let json = format!("[{}]", vec!["1"; n].join(","));
        let result = InArena::<Lists<'_>>::new(&small)
            .deserialize(&mut serde_json::Deserializer::from_str(&json));
        let message = result.map(|_| ()).unwrap_err().to_string();
        assert!(arena_refused(&small), "arena_refused after: {message}");
        assert!(message.contains("frame arena cannot hold"), "{message}");
        let big = FrameArena::new();
        let read = InArena::<Lists<'_>>::new(&big)
            .deserialize(&mut serde_json::Deserializer::from_str(&json))
            .unwrap();
        assert!(matches!(read, Lists::Nums(list) if list.len() == n));
        assert!(!arena_refused(&big));
    }

    /// 10^5 nested lists in a format with no depth limit of its own (the
    /// token format), read into an untagged recursive type on a 2 MiB
    /// thread: an error, not a stack overflow.
    #[cfg(not(miri))]
    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "spawns a thread")]
    fn untagged_nesting_ten_to_the_fifth_deep_is_an_error_on_a_two_mib_stack() {
        let depth = 100_000;
        let mut doc = vec![Token::Seq { len: Some(1) }; depth];
        doc.push(Token::U8(1));
        doc.extend(std::iter::repeat_n(Token::SeqEnd, depth));
        // Borrowed by a scoped thread (a leaked list is a leak to valgrind).
        let doc = &doc[..];
        let message = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn_scoped(scope, move || {
                    let arena = FrameArena::new();
                    let tree = tokens::arena::<Tree<'_>>(&arena, doc).map(|_| ());
                    let list = tokens::arena::<FrameVec<'_, Tree<'_>>>(&arena, doc).map(|_| ());
                    (tree.unwrap_err(), list.unwrap_err())
                })
                .unwrap()
                .join()
                .unwrap()
        });
        for message in [message.0, message.1] {
            assert!(message.contains("inside each other"), "{message}");
        }
    }

    /// 60 levels (within the limits of a debug build's stack bound) read
    /// into the untagged recursive type on a 2 MiB thread, as serde's.
    #[cfg(not(miri))]
    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "spawns a thread")]
    fn untagged_nesting_within_the_limit_reads_on_a_two_mib_stack() {
        let depth = 60;
        let mut doc = vec![Token::Seq { len: Some(1) }; depth];
        doc.push(Token::U8(1));
        doc.extend(std::iter::repeat_n(Token::SeqEnd, depth));
        // Borrowed by a scoped thread (a leaked list is a leak to valgrind).
        let doc = &doc[..];
        let read = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn_scoped(scope, move || {
                    let arena = FrameArena::new();
                    let tree = tokens::arena::<Tree<'_>>(&arena, doc).map(|_| ());
                    let heap = tokens::heap::<HeapTree>(doc).map(|_| ());
                    (tree, heap, arena.used())
                })
                .unwrap()
                .join()
                .unwrap()
        });
        assert_eq!((read.0, read.1), (Ok(()), Ok(())));
        // Each level re-buffers what is inside it (serde's derive clones
        // its buffer alike): quadratic in the depth, bounded by its limit.
        assert!(read.2 < depth * depth * 16, "{} arena bytes", read.2);
    }
}

/// Newtypes, options and unit structs inside untagged and internally
/// tagged enums, from the token format (which marks them) and JSON.
mod marked {
    use crate::models::tokens::{self, Token};
    use crate::serde_tagged::same;

    #[allow(dead_code)]
    mod arena {
        use tickarena::{FrameHashMap, FrameVec};

        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct Meters<'a>(pub &'a str);

        #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
        pub struct Nothing;

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(untagged)]
        pub enum Loose<'a> {
            Nothing(Nothing),
            Opt(Option<bool>),
            M(Meters<'a>),
            Name(&'a str),
            Seq(FrameVec<'a, Meters<'a>>),
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "k")]
        pub enum Tagged<'a> {
            Unit,
            Nothing(Nothing),
            Map(FrameHashMap<'a, &'a str, u8>),
            Inner(Loose2<'a>),
            Boxed(tickarena::FrameBox<'a, Inner2>),
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(untagged)]
        pub enum Loose2<'a> {
            A { a: u8 },
            B { b: &'a str },
        }

        #[derive(tickarena::DeserializeIn, serde::Deserialize, Debug)]
        pub struct Inner2 {
            pub z: Option<u8>,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct KeyedFlat<'a> {
            pub id: u8,
            #[serde(flatten)]
            pub rest: FrameHashMap<'a, u32, u8>,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(deny_unknown_fields)]
        pub struct StrictFlat<'a> {
            #[serde(alias = "ident")]
            pub id: u8,
            #[serde(flatten)]
            pub inner: Aliased<'a>,
            #[serde(skip_deserializing)]
            pub gone: u8,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(rename_all = "UPPERCASE")]
        pub struct Aliased<'a> {
            #[serde(alias = "nm")]
            pub name: &'a str,
            #[serde(default)]
            pub level: u8,
        }
    }

    #[allow(dead_code)]
    mod heap {
        use std::collections::BTreeMap;

        #[derive(serde::Deserialize, Debug)]
        pub struct Meters(pub String);

        pub use super::arena::Nothing;

        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        pub enum Loose {
            Nothing(Nothing),
            Opt(Option<bool>),
            M(Meters),
            Name(String),
            Seq(Vec<Meters>),
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "k")]
        pub enum Tagged {
            Unit,
            Nothing(Nothing),
            Map(BTreeMap<String, u8>),
            Inner(Loose2),
            Boxed(Box<super::arena::Inner2>),
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        pub enum Loose2 {
            A { a: u8 },
            B { b: String },
        }

        #[derive(serde::Deserialize, Debug)]
        pub struct KeyedFlat {
            pub id: u8,
            #[serde(flatten)]
            pub rest: BTreeMap<u32, u8>,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        pub struct StrictFlat {
            #[serde(alias = "ident")]
            pub id: u8,
            #[serde(flatten)]
            pub inner: Aliased,
            #[serde(skip_deserializing)]
            pub gone: u8,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(rename_all = "UPPERCASE")]
        pub struct Aliased {
            #[serde(alias = "nm")]
            pub name: String,
            #[serde(default)]
            pub level: u8,
        }
    }

    #[test]
    fn newtypes_options_and_unit_structs_in_untagged_read_as_serdes() {
        for doc in [
            &[Token::Unit][..],
            &[Token::UnitStruct { name: "Nothing" }],
            &[Token::None],
            &[Token::Some, Token::Bool(true)],
            &[Token::Some, Token::F32(1.0)],
            &[Token::Bool(false)],
            &[Token::NewtypeStruct { name: "Meters" }, Token::Str("m")],
            &[Token::NewtypeStruct { name: "Other" }, Token::Str("m")],
            &[Token::NewtypeStruct { name: "Meters" }, Token::F32(2.5)],
            &[Token::F32(2.5)],
            &[Token::I8(-1)],
            &[
                Token::Seq { len: Some(1) },
                Token::NewtypeStruct { name: "Meters" },
                Token::Str("a"),
                Token::SeqEnd,
            ],
            &[Token::Seq { len: Some(1) }, Token::Str("b"), Token::SeqEnd],
            &[Token::Seq { len: None }, Token::SeqEnd],
            &[Token::Map { len: Some(0) }, Token::MapEnd],
            &[Token::Str("n")],
            &[Token::Char('n')],
        ] {
            let _ = same_tokens!(arena::Loose<'_>, heap::Loose, doc);
        }
        for json in [
            "null", "true", "1.5", "3", "\"s\"", "[]", "[1,2]", "{}", "[null]",
        ] {
            let _ = same!(arena::Loose<'_>, heap::Loose, json);
        }
    }

    #[test]
    fn internally_tagged_newtypes_of_maps_units_and_untagged_read_as_serdes() {
        for json in [
            r#"{"k":"Unit"}"#,
            r#"{"k":"Unit","x":1}"#,
            r#"{"k":"Nothing"}"#,
            r#"{"k":"Nothing","x":1}"#,
            r#"{"k":"Map"}"#,
            r#"{"k":"Map","a":1,"a":2}"#,
            r#"{"a":1,"k":"Map"}"#,
            r#"{"k":"Map","a":"x"}"#,
            r#"{"k":"Inner","a":1}"#,
            r#"{"k":"Inner","b":"x"}"#,
            r#"{"k":"Inner"}"#,
            r#"{"k":"Boxed"}"#,
            r#"{"k":"Boxed","z":1}"#,
            r#"{"k":"Boxed","z":null}"#,
            r#"["Unit"]"#,
            r#"["Nothing"]"#,
            r#"["Nothing",null]"#,
            r#"["Map",{"a":1}]"#,
            r#"["Inner",{"a":1}]"#,
            r#"["Boxed",[1]]"#,
            r#"["Boxed",[]]"#,
        ] {
            // `Map`'s entries print in another order: one key at most.
            let _ = same!(arena::Tagged<'_>, heap::Tagged, json);
        }
    }

    #[test]
    fn flattened_maps_with_integer_keys_read_as_serdes() {
        for json in [r#"{"id":1}"#, r#"{"id":1,"2":3}"#, r#"{"id":1,"x":3}"#] {
            let _ = same!(arena::KeyedFlat<'_>, heap::KeyedFlat, json);
        }
    }

    #[test]
    fn deny_unknown_fields_with_flatten_aliases_and_skips_reads_as_serdes() {
        for json in [
            r#"{"id":1,"NAME":"a"}"#,
            r#"{"ident":1,"nm":"a"}"#,
            r#"{"id":1,"name":"a"}"#,
            r#"{"id":1,"NAME":"a","LEVEL":3}"#,
            r#"{"id":1,"NAME":"a","gone":3}"#,
            r#"{"id":1,"NAME":"a","x":3}"#,
            r#"{"NAME":"a"}"#,
            r#"{"id":1}"#,
            r#"{"id":1,"nm":"a","NAME":"b"}"#,
            r#"{"id":1,"id":2,"NAME":"a"}"#,
        ] {
            let _ = same!(arena::StrictFlat<'_>, heap::StrictFlat, json);
        }
    }
}

/// `expecting` and `default` on a struct that flattens, and a type read
/// from an arena type (`from`), against serde's derive.
mod containers {
    use crate::serde_tagged::same;

    #[allow(dead_code)]
    mod arena {
        use tickarena::FrameVec;

        #[derive(tickarena::DeserializeIn, Debug, Default)]
        pub struct Part<'a> {
            pub name: &'a str,
        }

        #[derive(tickarena::DeserializeIn, Debug, Default)]
        #[serde(expecting = "a flat thing", default)]
        pub struct Flat<'a> {
            pub id: u8,
            #[serde(flatten)]
            pub part: Part<'a>,
            pub tags: Option<FrameVec<'a, &'a str>>,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(from = "FrameVec<'a, u8>")]
        pub struct Sum<'a> {
            pub total: u32,
            pub marker: core::marker::PhantomData<&'a ()>,
        }

        impl<'a> From<FrameVec<'a, u8>> for Sum<'a> {
            fn from(list: FrameVec<'a, u8>) -> Self {
                Sum {
                    total: list.iter().map(|&n| u32::from(n)).sum(),
                    marker: core::marker::PhantomData,
                }
            }
        }
    }

    /// Variant attributes under an internal tag, and a flattened struct
    /// that denies unknown fields (it sees only its own).
    #[allow(dead_code)]
    pub mod arena2 {
        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "t", rename_all = "snake_case")]
        pub enum Cmd<'a> {
            #[serde(alias = "mv", rename_all = "camelCase")]
            MoveTo {
                target_x: u8,
                label: Option<&'a str>,
            },
            #[serde(rename(deserialize = "halt"), alias = "stop")]
            Stop,
            #[serde(skip_deserializing)]
            Hidden,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(tag = "t", content = "c", expecting = "an adjacent thing")]
        pub enum Adj<'a> {
            A(&'a str),
            B,
            #[serde(untagged)]
            Raw(u8),
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        pub struct Outer<'a> {
            pub id: u8,
            #[serde(flatten)]
            pub inner: Strict<'a>,
        }

        #[derive(tickarena::DeserializeIn, Debug)]
        #[serde(deny_unknown_fields)]
        pub struct Strict<'a> {
            pub name: &'a str,
        }
    }

    #[allow(dead_code)]
    pub mod heap2 {
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "t", rename_all = "snake_case")]
        pub enum Cmd {
            #[serde(alias = "mv", rename_all = "camelCase")]
            MoveTo { target_x: u8, label: Option<String> },
            #[serde(rename(deserialize = "halt"), alias = "stop")]
            Stop,
            #[serde(skip_deserializing)]
            Hidden,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "t", content = "c", expecting = "an adjacent thing")]
        pub enum Adj {
            A(String),
            B,
            #[serde(untagged)]
            Raw(u8),
        }

        #[derive(serde::Deserialize, Debug)]
        pub struct Outer {
            pub id: u8,
            #[serde(flatten)]
            pub inner: Strict,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        pub struct Strict {
            pub name: String,
        }
    }

    #[test]
    fn variant_attributes_under_a_tag_and_a_strict_flattened_struct_read_as_serdes() {
        for json in [
            r#"{"t":"move_to","targetX":1}"#,
            r#"{"t":"mv","targetX":1,"label":"a"}"#,
            r#"{"t":"move_to","target_x":1}"#,
            r#"{"t":"MoveTo","targetX":1}"#,
            r#"{"t":"halt"}"#,
            r#"{"t":"stop"}"#,
            r#"{"t":"Stop"}"#,
            r#"{"t":"hidden"}"#,
            r#"{"t":0,"targetX":1}"#,
            r#"{"t":1}"#,
            r#"{"t":2}"#,
            r#"{"t":"x"}"#,
        ] {
            let _ = same!(arena2::Cmd<'_>, heap2::Cmd, json);
        }
        for json in [
            r#"{"id":1,"name":"n"}"#,
            r#"{"id":1,"name":"n","x":2}"#,
            r#"{"id":1}"#,
        ] {
            let _ = same!(arena2::Outer<'_>, heap2::Outer, json);
        }
    }

    #[allow(dead_code)]
    mod heap {
        #[derive(serde::Deserialize, Debug, Default)]
        pub struct Part {
            pub name: String,
        }

        #[derive(serde::Deserialize, Debug, Default)]
        #[serde(expecting = "a flat thing", default)]
        pub struct Flat {
            pub id: u8,
            #[serde(flatten)]
            pub part: Part,
            pub tags: Option<Vec<String>>,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(from = "Vec<u8>")]
        pub struct Sum {
            pub total: u32,
            pub marker: core::marker::PhantomData<&'static ()>,
        }

        impl From<Vec<u8>> for Sum {
            fn from(list: Vec<u8>) -> Self {
                Sum {
                    total: list.iter().map(|&n| u32::from(n)).sum(),
                    marker: core::marker::PhantomData,
                }
            }
        }
    }

    #[test]
    fn expecting_and_default_with_flatten_and_from_an_arena_type_read_as_serdes() {
        for json in [
            "1",
            "[]",
            "null",
            "\"s\"",
            "{}",
            r#"{"id":1}"#,
            r#"{"name":"n"}"#,
            r#"{"id":1,"name":"n","tags":["a"]}"#,
            r#"{"tags":[1]}"#,
            r#"{"id":"x"}"#,
        ] {
            let _ = same!(arena::Flat<'_>, heap::Flat, json);
        }
        for json in ["[1,2,3]", "[]", "[256]", "1", "{}"] {
            let _ = same!(arena::Sum<'_>, heap::Sum, json);
        }
    }
}

/// Random documents over the review types' own keys and names: each read
/// alike by both derives.
mod random {
    use proptest::prelude::*;

    use super::{arena, containers, heap};
    use crate::serde_tagged::{document, same};

    const KEYS: &[&str] = &[
        "t", "c", "kind", "U", "N", "O", "S", "T", "A", "B", "C", "x", "y", "myId", "new_name",
        "old_name", "z", "someText", "foo_bar", "FooBar", "foo-bar", "r", "side", "id", "a", "b",
        "move_to", "mv", "targetX", "label", "halt", "stop", "name",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

        #[test]
        fn random_documents_read_alike(json in document(KEYS)) {
            let _ = same!(arena::Internal, heap::Internal, &json);
            let _ = same!(arena::Adjacent<'_>, heap::Adjacent, &json);
            let _ = same!(arena::AdjacentLoose<'_>, heap::AdjacentLoose, &json);
            let _ = same!(arena::FlatRenamed<'_>, heap::FlatRenamed, &json);
            let _ = same!(arena::FlatUntagged<'_>, heap::FlatUntagged, &json);
            let _ = same!(arena::OtherRenamed, heap::OtherRenamed, &json);
            let _ = same!(arena::OtherTagged, heap::OtherTagged, &json);
            let _ = same!(arena::AliasCollides, heap::AliasCollides, &json);
            let _ = same!(arena::Num, heap::Num, &json);
            let _ = same!(arena::Text<'_>, heap::Text, &json);
            let _ = same!(containers::arena2::Cmd<'_>, containers::heap2::Cmd, &json);
            let _ = same!(containers::arena2::Outer<'_>, containers::heap2::Outer, &json);
        }
    }
}
