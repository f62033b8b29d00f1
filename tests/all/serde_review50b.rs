//! The second review of issue 50's last two changes: strings and bytes
//! lent from the arena's buffer (`visit_borrowed_str`), and `DefaultIn`
//! (`#[serde(default)]`, `skip_deserializing`, a type's `default`) picked
//! over `Default` by the derive's probe.

use std::fmt::Debug;

use serde::Deserialize;
use serde::de::DeserializeSeed;
use tickarena::serde::{DeserializeIn, InArena};
use tickarena::{FrameArena, FrameData};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::tokens::{self, Token};

/// `Ok(Debug)` or `Err(message)`.
fn shown<T: Debug, E: ToString>(result: Result<T, E>) -> Result<String, String> {
    result
        .map(|value| format!("{value:?}"))
        .map_err(|error| error.to_string())
}

/// `json` decoded by the arena derive (`A`), shown.
fn arena_json<A>(json: &str) -> Result<String, String>
where
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    let arena = FrameArena::new();
    shown(
        InArena::<A::Of<'_>>::new(&arena)
            .deserialize(&mut serde_json::Deserializer::from_str(json)),
    )
}

/// `doc` decoded by the arena derive (`A`), shown.
fn arena_tokens<A>(doc: &[Token]) -> Result<String, String>
where
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    let arena = FrameArena::new();
    shown(tokens::arena::<A::Of<'_>>(&arena, doc))
}

/// Reads a `&'de str` (borrowed from the input, or from the arena's buffer)
/// as hex.
fn hex<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let text: &'de str = Deserialize::deserialize(deserializer)?;
    u32::from_str_radix(text, 16).map_err(serde::de::Error::custom)
}

/// Borrowed text inside buffered types: what serde's derive reads, the
/// arena's reads to the same value (and it reads more: the buffer lends
/// its own copy of an escaped or transient string, where serde's buffer
/// holds one of its own and refuses the borrow).
mod borrowed {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[allow(dead_code)] // read through `Debug`
    mod heap {
        #[derive(serde::Deserialize, Debug)]
        pub struct Join {
            #[serde(deserialize_with = "super::super::hex")]
            pub color: u32,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "type")]
        pub enum Internal {
            Join(Join),
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "t", content = "c")]
        pub enum Adjacent {
            Join(Join),
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        pub enum Untagged {
            Join(Join),
        }
        #[derive(serde::Deserialize, Debug)]
        pub struct Flat {
            pub id: u8,
            #[serde(flatten)]
            pub join: Join,
        }
    }

    #[allow(dead_code)] // read through `Debug`
    mod arena {
        #[derive(tickarena::DeserializeIn, serde::Deserialize, tickarena::FrameData, Debug)]
        pub struct Join {
            #[serde(deserialize_with = "super::super::hex")]
            pub color: u32,
        }
        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        #[serde(tag = "type")]
        pub enum Internal {
            Join(Join),
        }
        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        #[serde(tag = "t", content = "c")]
        pub enum Adjacent {
            Join(Join),
        }
        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        #[serde(untagged)]
        pub enum Untagged {
            Join(Join),
        }
        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        pub struct Flat {
            pub id: u8,
            #[serde(flatten)]
            pub join: Join,
        }
    }

    /// Where serde's derive reads the document, the arena's reads the same
    /// value; where serde's refuses it, the arena's reads it or refuses it
    /// too. Returns the arena's result.
    #[track_caller]
    fn at_least_serdes(
        heap: Result<String, String>,
        arena: Result<String, String>,
        doc: &str,
    ) -> Result<String, String> {
        if heap.is_ok() {
            assert_eq!(heap, arena, "{doc}");
        }
        arena
    }

    macro_rules! json_case {
        ($heap:ty, $arena:ty, $json:expr) => {{
            let json: &str = $json;
            at_least_serdes(
                shown(serde_json::from_str::<$heap>(json)),
                arena_json::<$arena>(json),
                json,
            )
        }};
    }

    #[test]
    fn buffered_json_with_and_without_escapes() {
        // Unescaped: serde's buffer lends the input's text; both read it.
        for (plain, escaped) in [
            (
                r#"{"type":"Join","color":"ff"}"#,
                r#"{"type":"Join","color":"f\u0066"}"#,
            ),
            (
                r#"{"type":"Join","color":"zz"}"#,
                r#"{"type":"Join","color":"z\u007a"}"#,
            ),
        ] {
            let a = json_case!(heap::Internal, arena::Internal, plain);
            let b = json_case!(heap::Internal, arena::Internal, escaped);
            // An escaped string reads as its unescaped twin in the arena.
            assert_eq!(a, b, "{plain} / {escaped}");
        }
        assert_eq!(
            json_case!(
                heap::Internal,
                arena::Internal,
                r#"{"type":"Join","color":"ff"}"#
            ),
            Ok("Join(Join { color: 255 })".to_owned())
        );
        for json in [
            r#"{"t":"Join","c":{"color":"a0"}}"#,
            r#"{"c":{"color":"a0"},"t":"Join"}"#,
            r#"{"c":{"color":"\u0061\u0030"},"t":"Join"}"#,
        ] {
            assert_eq!(
                json_case!(heap::Adjacent, arena::Adjacent, json),
                Ok("Join(Join { color: 160 })".to_owned()),
                "{json}"
            );
        }
        for json in [r#"{"color":"10"}"#, r#"{"color":"1\u0030"}"#] {
            assert_eq!(
                json_case!(heap::Untagged, arena::Untagged, json),
                Ok("Join(Join { color: 16 })".to_owned()),
                "{json}"
            );
        }
        for json in [r#"{"color":"ff","id":3}"#, r#"{"id":3,"color":"\u0066f"}"#] {
            assert_eq!(
                json_case!(heap::Flat, arena::Flat, json),
                Ok("Flat { id: 3, join: Join { color: 255 } }".to_owned()),
                "{json}"
            );
        }
    }

    /// The token format's three kinds of string: borrowed (lent by both
    /// buffers), transient and owned (serde's buffer keeps its own copy and
    /// refuses the borrow; the arena lends its copy).
    #[test]
    fn buffered_tokens_str_borrowed_str_and_string() {
        let doc = |color: Token| {
            [
                Token::Map { len: Some(2) },
                Token::Str("type"),
                Token::Str("Join"),
                Token::Str("color"),
                color,
                Token::MapEnd,
            ]
        };
        for color in [
            Token::BorrowedStr("7f"),
            Token::Str("7f"),
            Token::String("7f"),
        ] {
            let doc = doc(color);
            let heap = shown(tokens::heap::<heap::Internal>(&doc));
            let arena = arena_tokens::<arena::Internal>(&doc);
            assert_eq!(
                at_least_serdes(heap, arena, &format!("{doc:?}")),
                Ok("Join(Join { color: 127 })".to_owned())
            );
        }
        // Bytes that are not text: the borrowed `&str` is refused by both,
        // with serde's message.
        let doc = doc(Token::BorrowedBytes(b"\xff"));
        let heap = shown(tokens::heap::<heap::Internal>(&doc));
        let arena = arena_tokens::<arena::Internal>(&doc);
        assert!(heap.is_err() && arena.is_err(), "{heap:?} {arena:?}");
        assert_eq!(heap, arena);
    }
}

/// `DefaultIn` and `Default`: which the derive's probe takes.
#[allow(dead_code)] // read through `Debug`
mod defaults {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tickarena::FrameVec;
    use tickarena::serde::DefaultIn;

    /// A type of the arena's lifetime with both: `Default` says where it
    /// came from as `"Default"`, `DefaultIn` as `"DefaultIn"`.
    #[derive(Debug)]
    pub struct Both<'a>(pub &'a str);

    impl Default for Both<'_> {
        fn default() -> Self {
            Both("Default")
        }
    }

    impl<'a> DefaultIn<'a> for Both<'a> {
        fn default_in(arena: &'a FrameArena) -> Self {
            Both(arena.alloc_str("DefaultIn"))
        }
    }

    impl<'a> DeserializeIn<'a> for Both<'a> {
        fn deserialize_in<'de, D: serde::Deserializer<'de>>(
            arena: &'a FrameArena,
            deserializer: D,
        ) -> Result<Self, D::Error> {
            <&'a str>::deserialize_in(arena, deserializer).map(Both)
        }
    }

    /// Without the arena's lifetime, with both (`Default` is 1, `DefaultIn`
    /// 2): serde's rule, `Default`.
    #[derive(Debug, Deserialize)]
    pub struct Plain(pub u8);

    impl Default for Plain {
        fn default() -> Self {
            Plain(1)
        }
    }

    impl<'a> DefaultIn<'a> for Plain {
        fn default_in(_: &'a FrameArena) -> Self {
            Plain(2)
        }
    }

    /// A type of the arena's lifetime whose `Default` is its `'static`
    /// self (text that is always there): serde's derive, and this derive
    /// before `DefaultIn`, take it for any lifetime.
    #[derive(Debug, Deserialize)]
    pub struct Label<'a>(pub &'a str);

    impl Default for Label<'static> {
        fn default() -> Self {
            Label("unnamed")
        }
    }

    impl<'a> DeserializeIn<'a> for Label<'a> {
        fn deserialize_in<'de, D: serde::Deserializer<'de>>(
            arena: &'a FrameArena,
            deserializer: D,
        ) -> Result<Self, D::Error> {
            <&'a str>::deserialize_in(arena, deserializer).map(Label)
        }
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Fields<'a> {
        pub id: u8,
        #[serde(default)]
        pub missing: Both<'a>,
        #[serde(skip_deserializing)]
        pub skipped: Both<'a>,
        #[serde(default)]
        pub plain: Plain,
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Tuple<'a>(
        pub u8,
        #[serde(skip_deserializing)] pub Both<'a>,
        #[serde(default)] pub Both<'a>,
    );

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub enum External<'a> {
        Gone(#[serde(skip_deserializing)] Both<'a>),
        Named {
            id: u8,
            #[serde(default)]
            missing: Both<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(tag = "type")]
    pub enum Internal<'a> {
        Gone(#[serde(skip_deserializing)] Both<'a>),
        Named {
            id: u8,
            #[serde(default)]
            missing: Both<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent<'a> {
        Gone(#[serde(skip_deserializing)] Both<'a>),
        Named {
            id: u8,
            #[serde(default)]
            missing: Both<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(untagged)]
    pub enum Untagged<'a> {
        Named {
            id: u8,
            #[serde(default)]
            missing: Both<'a>,
        },
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Flat<'a> {
        #[serde(flatten)]
        pub inner: Fields<'a>,
        #[serde(default)]
        pub beside: Both<'a>,
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(transparent)]
    pub struct Clear<'a> {
        pub id: u8,
        #[serde(skip_deserializing)]
        pub sibling: Both<'a>,
    }

    /// The whole type's `default`, with both.
    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(default)]
    pub struct Whole<'a> {
        pub id: u8,
        pub both: Both<'a>,
    }

    impl Default for Whole<'_> {
        fn default() -> Self {
            Whole {
                id: 1,
                both: Both("Default"),
            }
        }
    }

    impl<'a> DefaultIn<'a> for Whole<'a> {
        fn default_in(arena: &'a FrameArena) -> Self {
            Whole {
                id: 2,
                both: Both::default_in(arena),
            }
        }
    }

    #[test]
    fn default_in_wins_over_default_everywhere() {
        let both = r#"Both("DefaultIn")"#;
        assert_eq!(
            arena_json::<Fields<'_>>(r#"{"id":1}"#),
            Ok(format!(
                r#"Fields {{ id: 1, missing: {both}, skipped: {both}, plain: Plain(1) }}"#
            ))
        );
        assert_eq!(
            arena_json::<Tuple<'_>>("[1]"),
            Ok(format!("Tuple(1, {both}, {both})"))
        );
        assert_eq!(
            arena_json::<External<'_>>(r#""Gone""#),
            Ok(format!("Gone({both})"))
        );
        assert_eq!(
            arena_json::<External<'_>>(r#"{"Named":{"id":3}}"#),
            Ok(format!("Named {{ id: 3, missing: {both} }}"))
        );
        assert_eq!(
            arena_json::<Internal<'_>>(r#"{"type":"Gone"}"#),
            Ok(format!("Gone({both})"))
        );
        assert_eq!(
            arena_json::<Internal<'_>>(r#"{"type":"Named","id":3}"#),
            Ok(format!("Named {{ id: 3, missing: {both} }}"))
        );
        // serde's derive: the same variant, read as a unit (its content
        // `null`, and required).
        for json in [
            r#"{"t":"Gone"}"#,
            r#"{"t":"Gone","c":null}"#,
            r#"{"c":null,"t":"Gone"}"#,
        ] {
            assert_eq!(
                shown(serde_json::from_str::<heap::Adjacent>(json)),
                arena_json::<AdjacentU8>(json),
                "{json}"
            );
        }
        assert_eq!(
            arena_json::<Adjacent<'_>>(r#"{"t":"Gone","c":null}"#),
            Ok(format!("Gone({both})"))
        );
        assert_eq!(
            arena_json::<Adjacent<'_>>(r#"{"c":{"id":3},"t":"Named"}"#),
            Ok(format!("Named {{ id: 3, missing: {both} }}"))
        );
        assert_eq!(
            arena_json::<Untagged<'_>>(r#"{"id":3}"#),
            Ok(format!("Named {{ id: 3, missing: {both} }}"))
        );
        assert_eq!(
            arena_json::<Flat<'_>>(r#"{"id":4}"#),
            Ok(format!(
                r#"Flat {{ inner: Fields {{ id: 4, missing: {both}, skipped: {both}, plain: Plain(1) }}, beside: {both} }}"#
            ))
        );
        assert_eq!(
            arena_json::<Clear<'_>>("5"),
            Ok(format!("Clear {{ id: 5, sibling: {both} }}"))
        );
        assert_eq!(
            arena_json::<Whole<'_>>("{}"),
            Ok(format!("Whole {{ id: 2, both: {both} }}"))
        );
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Labelled<'a> {
        pub id: u8,
        #[serde(default)]
        pub label: Label<'a>,
        #[serde(skip_deserializing)]
        pub hidden: Label<'a>,
    }

    /// A type of the arena's lifetime with only `Default`, for any lifetime.
    #[derive(Debug)]
    pub struct Only<'a>(pub &'a str);

    impl Default for Only<'_> {
        fn default() -> Self {
            Only("only")
        }
    }

    impl<'a> DeserializeIn<'a> for Only<'a> {
        fn deserialize_in<'de, D: serde::Deserializer<'de>>(
            arena: &'a FrameArena,
            deserializer: D,
        ) -> Result<Self, D::Error> {
            <&'a str>::deserialize_in(arena, deserializer).map(Only)
        }
    }

    fn seven() -> u8 {
        7
    }

    fn named() -> Both<'static> {
        Both("path")
    }

    /// `default = "path"` is the path's, whatever the type has.
    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Paths<'a> {
        #[serde(default = "seven")]
        pub n: u8,
        #[serde(default = "named")]
        pub both: Both<'a>,
        #[serde(default)]
        pub only: Only<'a>,
        #[serde(skip_deserializing)]
        pub skipped: Only<'a>,
    }

    /// The whole type's `Default` is its `'static` self.
    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(default)]
    pub struct Settings<'a> {
        pub name: &'a str,
        pub level: u8,
    }

    impl Default for Settings<'static> {
        fn default() -> Self {
            Settings {
                name: "anon",
                level: 1,
            }
        }
    }

    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum AdjacentU8 {
        Gone(#[serde(skip_deserializing)] u8),
        Kept(u8),
    }

    #[allow(dead_code)] // read through `Debug`
    mod heap {
        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "t", content = "c")]
        pub enum Adjacent {
            Gone(#[serde(skip_deserializing)] u8),
            Kept(u8),
        }
        #[derive(serde::Deserialize, Debug)]
        pub struct Labelled<'a> {
            pub id: u8,
            #[serde(default, borrow)]
            pub label: super::Label<'a>,
            #[serde(skip_deserializing)]
            pub hidden: super::Label<'a>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(default)]
        pub struct Settings<'a> {
            pub name: &'a str,
            pub level: u8,
        }
        impl Default for Settings<'static> {
            fn default() -> Self {
                Settings {
                    name: "anon",
                    level: 1,
                }
            }
        }
    }

    /// A `Default` for the `'static` type only (`impl Default for
    /// Label<'static>`) serves every arena lifetime, as it does in serde's
    /// derive (the `'static` value is a `Label<'a>` too).
    #[test]
    fn a_static_default_serves_every_arena_lifetime() {
        for json in [r#"{"id":1}"#, r#"{"id":1,"label":"x","hidden":"y"}"#] {
            assert_eq!(
                shown(serde_json::from_str::<heap::Labelled<'_>>(json)),
                arena_json::<Labelled<'_>>(json),
                "{json}"
            );
        }
        assert_eq!(
            arena_json::<Paths<'_>>("{}"),
            Ok(
                r#"Paths { n: 7, both: Both("path"), only: Only("only"), skipped: Only("only") }"#
                    .to_owned()
            )
        );
        for json in ["{}", r#"{"name":"x"}"#, r#"{"level":7}"#] {
            assert_eq!(
                shown(serde_json::from_str::<heap::Settings<'_>>(json)),
                arena_json::<Settings<'_>>(json),
                "{json}"
            );
        }
    }

    /// `Self` in a defaulted field's type, and a type declared by a
    /// `macro_rules!` (the probe's method call and its trait imports under
    /// the macro's spans).
    #[derive(tickarena::DeserializeIn, FrameData, Debug)]
    pub struct Tree<'a> {
        pub id: u8,
        #[serde(default)]
        pub kids: FrameVec<'a, Self>,
    }

    macro_rules! declare {
        ($name:ident, $whole:ident) => {
            #[derive(tickarena::DeserializeIn, FrameData, Debug)]
            pub struct $name<'a> {
                pub id: u8,
                #[serde(default)]
                pub kids: FrameVec<'a, u8>,
                #[serde(skip_deserializing)]
                pub both: Both<'a>,
            }
            #[derive(tickarena::DeserializeIn, FrameData, Debug)]
            #[serde(default)]
            pub struct $whole<'a> {
                pub id: u8,
                pub both: Both<'a>,
            }
            impl<'a> DefaultIn<'a> for $whole<'a> {
                fn default_in(arena: &'a FrameArena) -> Self {
                    $whole {
                        id: 9,
                        both: Both::default_in(arena),
                    }
                }
            }
        };
    }
    declare!(Declared, DeclaredWhole);

    /// The defaulted field's type handed to the macro as a `ty` fragment
    /// (an invisible group in the derive's input).
    macro_rules! with_field {
        ($name:ident, $ty:ty) => {
            #[derive(tickarena::DeserializeIn, FrameData, Debug)]
            pub struct $name<'a> {
                pub id: u8,
                #[serde(default)]
                pub field: $ty,
            }
        };
    }
    with_field!(Fragment, Both<'a>);
    with_field!(FragmentList, FrameVec<'a, Both<'a>>);

    #[test]
    fn self_and_macro_declared_types_take_default_in() {
        assert_eq!(
            arena_json::<Tree<'_>>(r#"{"id":1,"kids":[{"id":2}]}"#),
            Ok("Tree { id: 1, kids: [Tree { id: 2, kids: [] }] }".to_owned())
        );
        assert_eq!(
            arena_json::<Declared<'_>>(r#"{"id":1}"#),
            Ok(r#"Declared { id: 1, kids: [], both: Both("DefaultIn") }"#.to_owned())
        );
        assert_eq!(
            arena_json::<DeclaredWhole<'_>>("{}"),
            Ok(r#"DeclaredWhole { id: 9, both: Both("DefaultIn") }"#.to_owned())
        );
        assert_eq!(
            arena_json::<Fragment<'_>>(r#"{"id":1}"#),
            Ok(r#"Fragment { id: 1, field: Both("DefaultIn") }"#.to_owned())
        );
        assert_eq!(
            arena_json::<FragmentList<'_>>(r#"{"id":1}"#),
            Ok("FragmentList { id: 1, field: [] }".to_owned())
        );
    }
}
