//! serde's own deserialize tests (serde's `test_suite/tests`: test_annotations,
//! test_de, test_de_error, test_enum_internally_tagged,
//! test_enum_adjacently_tagged, test_enum_untagged), ported: every case whose
//! type is derived, declared twice by [`case!`] (a heap twin with serde's
//! `Deserialize`, an arena twin with `#[derive(DeserializeIn)]`, the same
//! attributes), the case's tokens read by both ([`ok!`], [`err!`]):
//! serde's derive must give serde's expected value or message, and
//! `DeserializeIn` the same (by the values' `Debug`, the twins having the
//! same names) or the same message. Where the tokens have a JSON shape (the
//! `serde_json::Value` they read as), the JSON text is read by both too and
//! the outcomes compared.
//!
//! One module per attribute (the first, in [`main`]'s order, that a case
//! uses).

#![allow(
    dead_code,
    non_camel_case_types,
    clippy::all,
    clippy::pedantic,
    unused_imports,
    unused_variables
)]

#[path = "../models/tokens.rs"]
mod tokens;

mod prelude;

/// The case's types twice: in the case's module with serde's derive (the
/// heap twin, `Debug` and `PartialEq`), and in its `arena` module with
/// `DeserializeIn` (and `Debug`); `shared` items (helper types, impls,
/// functions) in both. The test runs in `arena::t`, where a type's name is
/// the heap twin and `super::Name` the arena one.
///
/// serde's types borrow nothing, and the arena twins derive
/// `DeserializeIn` alone: one that is a field of another (no lifetime) is
/// read through its `DeserializeIn` too, as a protocol written with
/// `DeserializeIn` on every type reads.
macro_rules! case {
    (data { $($data:item)* } shared { $($shared:item)* } test { $($test:tt)* }) => {
        $( #[derive(::serde::Deserialize, Debug, PartialEq)] $data )*
        $( $shared )*
        mod arena {
            use super::*;
            $( #[derive(::tickarena::DeserializeIn, Debug)] $data )*
            $( $shared )*
            mod t {
                use super::super::*;
                #[test]
                fn case() {
                    $($test)*
                }
            }
        }
    };
}

/// serde's `assert_de_tokens(&value, &tokens)`: serde's derive reads
/// `value` from `tokens`, `DeserializeIn` the same value; then the JSON
/// shape of the tokens, if they have one, read by both alike.
macro_rules! ok {
    ($ty:ident, $value:expr, $tokens:expr $(,)?) => {{
        let tokens: &[$crate::tokens::Token] = $tokens;
        let heap = $crate::tokens::heap::<$ty>(tokens);
        assert_eq!(heap.as_ref(), Ok(&$value), "serde's derive on {tokens:?}");
        let arena = ::tickarena::FrameArena::new();
        let got = $crate::tokens::arena::<super::$ty>(&arena, tokens).map(|v| format!("{v:?}"));
        assert_eq!(
            got,
            heap.as_ref()
                .map(|v| format!("{v:?}"))
                .map_err(Clone::clone),
            "DeserializeIn on {tokens:?}"
        );
        json_agree!($ty, tokens);
    }};
}

/// serde's `assert_de_tokens_error::<T>(&tokens, message)`: serde's derive
/// fails with `message`, `DeserializeIn` with the same; then JSON as in
/// [`ok!`].
macro_rules! err {
    ($ty:ident, $tokens:expr, $message:expr $(,)?) => {{
        let tokens: &[$crate::tokens::Token] = $tokens;
        let heap = $crate::tokens::heap::<$ty>(tokens).map(|v| format!("{v:?}"));
        assert_eq!(
            heap,
            Err(String::from($message)),
            "serde's derive on {tokens:?}"
        );
        let arena = ::tickarena::FrameArena::new();
        let got = $crate::tokens::arena::<super::$ty>(&arena, tokens).map(|v| format!("{v:?}"));
        assert_eq!(got, heap, "DeserializeIn on {tokens:?}");
        json_agree!($ty, tokens);
    }};
}

/// The tokens as JSON text (through `serde_json::Value`), read by both
/// derives: the same value (`Debug`) or the same message, with its line
/// and column.
macro_rules! json_agree {
    ($ty:ident, $tokens:expr) => {
        if let Ok(value) = $crate::tokens::heap::<::serde_json::Value>($tokens) {
            let text = value.to_string();
            let heap = ::serde_json::from_str::<$ty>(&text)
                .map(|v| format!("{v:?}"))
                .map_err(|e| e.to_string());
            let arena = ::tickarena::FrameArena::new();
            let got = $crate::arena_json::<super::$ty>(&arena, &text);
            assert_eq!(got, heap, "JSON {text}");
        }
    };
}

/// `text` read by `DeserializeIn` from JSON, nothing but whitespace after:
/// the value's `Debug`, or the error's message.
fn arena_json<'a, T: tickarena::serde::DeserializeIn<'a> + std::fmt::Debug>(
    arena: &'a tickarena::FrameArena,
    text: &str,
) -> Result<String, String> {
    use serde::de::DeserializeSeed;
    let mut input = serde_json::Deserializer::from_str(text);
    let value: T = tickarena::serde::InArena::new(arena)
        .deserialize(&mut input)
        .map_err(|e| e.to_string())?;
    input.end().map_err(|e| e.to_string())?;
    Ok(format!("{value:?}"))
}

// Every case of those files with a derived type (147, 357 decodes; the one generic type written out), each module's
// cases read alike by both derives.
mod adjacently_tagged;
mod basic;
mod defaults;
mod deny_unknown_fields;
mod expecting;
mod flatten;
mod from;
mod identifier;
mod internally_tagged;
mod other;
mod skip;
mod transparent;
mod untagged;
mod with;
