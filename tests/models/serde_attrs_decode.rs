//! serde's derive as the model of `#[derive(DeserializeIn)]`, for serde's
//! attributes (issue 50): two packet families derived both ways (heap types
//! in [`heap`] with `serde::Deserialize`, arena types with `DeserializeIn`,
//! the same names and attributes, arena containers in place of the heap's),
//! the same document decoded by both, and the outcomes compared: the same
//! value (by `Debug`: the names match, and `&str` and `FrameVec` print as
//! `String` and `Vec` do) or the same error message.
//!
//! - [`Compact`] has what a format without `deserialize_any` reads
//!   (postcard, JSON, tokens): `rename_all` (type, enum, variant), `alias`
//!   (field, variant), `default = "path"`, `deserialize_with`,
//!   `rename(deserialize = ..)`, `other`, `transparent`, `try_from`,
//!   `from`, and `default` + `deny_unknown_fields` + `expecting` on a type.
//! - [`Doc`] has what needs a self-describing format (JSON, tokens; serde's
//!   derive reads none of it from postcard): `skip_deserializing`, `tag`
//!   (with `rename_all` and `other`), `tag` + `content`, `untagged` (type,
//!   with `expecting`, and one variant), `flatten`.
//!
//! Every type holds a string, so every type has the arena's lifetime and is
//! read by `DeserializeIn` (a type without one is read by its own
//! `Deserialize`, which would leave its attributes to serde).
//!
//! Used by `tests/all/serde_attrs_oracle.rs` (random packets, mutated
//! postcard, JSON and token documents).

// The arena types' fields are read by their `Debug` only.
#![allow(dead_code)]

use std::fmt;

use serde::de::{DeserializeSeed, Error as _};
use serde::{Deserialize, Deserializer};
use tickarena::serde::InArena;
use tickarena::{DeserializeIn, FrameArena, FrameVec};

use super::tokens::{self, Token};

/// `default = "seven"`.
pub fn seven() -> u8 {
    7
}

/// `deserialize_with = "clamped"`: a `u16` of at most 1000.
pub fn clamped<'de, D: Deserializer<'de>>(input: D) -> Result<u16, D::Error> {
    let level = u16::deserialize(input)?;
    if level > 1000 {
        return Err(D::Error::custom(format_args!("level {level} is over 1000")));
    }
    Ok(level)
}

/// What `Code`'s `try_from` refuses: more than 3 characters.
#[derive(Debug)]
pub struct CodeTooLong(pub usize);

impl fmt::Display for CodeTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a code of {} characters, at most 3", self.0)
    }
}

/// The heap shapes, read and written by serde's derive, under the arena
/// types' names.
pub mod heap {
    use serde::{Deserialize, Serialize};

    use super::CodeTooLong;

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Compact {
        pub packet_id: u32,
        #[serde(alias = "nick", alias = "handle")]
        pub user_name: String,
        #[serde(default = "super::seven")]
        pub retries: u8,
        #[serde(deserialize_with = "super::clamped")]
        pub level: u16,
        #[serde(rename(deserialize = "kindIn", serialize = "kindIn"))]
        pub kind: Kind,
        pub label: Label,
        pub code: Code,
        pub upper: Upper,
        pub limits: Limits,
        pub tags: Vec<String>,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename_all = "snake_case")]
    pub enum Kind {
        #[serde(alias = "chat")]
        ChatLine(String),
        #[serde(rename_all = "UPPERCASE")]
        MoveTo {
            x: i32,
            y: i32,
        },
        Idle,
        #[serde(other)]
        Unknown,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(transparent)]
    pub struct Label(pub String);

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(try_from = "String", into = "String")]
    pub struct Code(pub String);

    impl TryFrom<String> for Code {
        type Error = CodeTooLong;
        fn try_from(text: String) -> Result<Self, CodeTooLong> {
            match text.chars().count() {
                0..=3 => Ok(Code(text)),
                n => Err(CodeTooLong(n)),
            }
        }
    }

    impl From<Code> for String {
        fn from(code: Code) -> String {
            code.0
        }
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(from = "String", into = "String")]
    pub struct Upper {
        pub text: String,
        pub shouting: bool,
    }

    impl From<String> for Upper {
        fn from(text: String) -> Self {
            let shouting = !text.is_empty() && text.chars().all(|c| !c.is_lowercase());
            Upper { text, shouting }
        }
    }

    impl From<Upper> for String {
        fn from(upper: Upper) -> String {
            upper.text
        }
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(tag = "t", content = "c", rename_all = "lowercase")]
    pub enum Msg {
        Ping,
        Say(String),
        Pair(u8, String),
        Move { x: i32, y: i32 },
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(default, deny_unknown_fields, expecting = "a limits object")]
    pub struct Limits {
        pub name: String,
        pub max: u32,
    }

    impl Default for Limits {
        fn default() -> Self {
            Limits {
                name: "none".into(),
                max: 10,
            }
        }
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    pub struct Doc {
        pub doc_id: u64,
        #[serde(skip_deserializing)]
        pub cached_len: u32,
        pub events: Vec<Event>,
        pub value: Value,
        pub item: Item,
        pub msg: Msg,
        #[serde(flatten)]
        pub meta: Meta,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
    pub enum Event {
        Joined {
            name: String,
        },
        Left {
            name: String,
            #[serde(default)]
            reason: Option<String>,
        },
        Tick,
        Note(Note),
        #[serde(other)]
        Unknown,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Note {
        pub text: String,
        #[serde(default = "super::seven")]
        pub level: u8,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(untagged, expecting = "an int, a text, a list or an object")]
    pub enum Value {
        Int(i64),
        Text(String),
        List(Vec<i64>),
        Obj { a: u8, b: String },
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub enum Item {
        Named {
            name: String,
        },
        Code(u32),
        #[serde(untagged)]
        Raw(String),
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Meta {
        #[serde(alias = "author")]
        pub owner: String,
        #[serde(default)]
        pub version: u16,
    }
}

// The arena shapes, read by `#[derive(DeserializeIn)]`: the same names and
// attributes (`try_from` and `from` name the arena's string).

#[derive(DeserializeIn, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Compact<'a> {
    pub packet_id: u32,
    #[serde(alias = "nick", alias = "handle")]
    pub user_name: &'a str,
    #[serde(default = "seven")]
    pub retries: u8,
    #[serde(deserialize_with = "clamped")]
    pub level: u16,
    #[serde(rename(deserialize = "kindIn", serialize = "kindIn"))]
    pub kind: Kind<'a>,
    pub label: Label<'a>,
    pub code: Code<'a>,
    pub upper: Upper<'a>,
    pub limits: Limits<'a>,
    pub tags: FrameVec<'a, &'a str>,
}

#[derive(DeserializeIn, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Kind<'a> {
    #[serde(alias = "chat")]
    ChatLine(&'a str),
    #[serde(rename_all = "UPPERCASE")]
    MoveTo {
        x: i32,
        y: i32,
    },
    Idle,
    #[serde(other)]
    Unknown,
}

#[derive(DeserializeIn, Debug)]
#[serde(transparent)]
pub struct Label<'a>(pub &'a str);

#[derive(DeserializeIn, Debug)]
#[serde(try_from = "&'a str")]
pub struct Code<'a>(pub &'a str);

impl<'a> TryFrom<&'a str> for Code<'a> {
    type Error = CodeTooLong;
    fn try_from(text: &'a str) -> Result<Self, CodeTooLong> {
        match text.chars().count() {
            0..=3 => Ok(Code(text)),
            n => Err(CodeTooLong(n)),
        }
    }
}

#[derive(DeserializeIn, Debug)]
#[serde(from = "&'a str")]
pub struct Upper<'a> {
    pub text: &'a str,
    pub shouting: bool,
}

impl<'a> From<&'a str> for Upper<'a> {
    fn from(text: &'a str) -> Self {
        let shouting = !text.is_empty() && text.chars().all(|c| !c.is_lowercase());
        Upper { text, shouting }
    }
}

#[derive(DeserializeIn, Debug)]
#[serde(tag = "t", content = "c", rename_all = "lowercase")]
pub enum Msg<'a> {
    Ping,
    Say(&'a str),
    Pair(u8, &'a str),
    Move { x: i32, y: i32 },
}

#[derive(DeserializeIn, Debug)]
#[serde(default, deny_unknown_fields, expecting = "a limits object")]
pub struct Limits<'a> {
    pub name: &'a str,
    pub max: u32,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            name: "none",
            max: 10,
        }
    }
}

#[derive(DeserializeIn, Debug)]
#[serde(rename_all = "kebab-case")]
pub struct Doc<'a> {
    pub doc_id: u64,
    #[serde(skip_deserializing)]
    pub cached_len: u32,
    pub events: FrameVec<'a, Event<'a>>,
    pub value: Value<'a>,
    pub item: Item<'a>,
    pub msg: Msg<'a>,
    #[serde(flatten)]
    pub meta: Meta<'a>,
}

#[derive(DeserializeIn, Debug)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Event<'a> {
    Joined {
        name: &'a str,
    },
    Left {
        name: &'a str,
        #[serde(default)]
        reason: Option<&'a str>,
    },
    Tick,
    Note(Note<'a>),
    #[serde(other)]
    Unknown,
}

#[derive(DeserializeIn, Debug)]
pub struct Note<'a> {
    pub text: &'a str,
    #[serde(default = "seven")]
    pub level: u8,
}

#[derive(DeserializeIn, Debug)]
#[serde(untagged, expecting = "an int, a text, a list or an object")]
pub enum Value<'a> {
    Int(i64),
    Text(&'a str),
    List(FrameVec<'a, i64>),
    Obj { a: u8, b: &'a str },
}

#[derive(DeserializeIn, Debug)]
pub enum Item<'a> {
    Named {
        name: &'a str,
    },
    Code(u32),
    #[serde(untagged)]
    Raw(&'a str),
}

#[derive(DeserializeIn, Debug)]
pub struct Meta<'a> {
    #[serde(alias = "author")]
    pub owner: &'a str,
    #[serde(default)]
    pub version: u16,
}

/// What a decoder made of a document: the value's `Debug`, with the bytes
/// it left unread (postcard), or the error's message.
pub type Outcome = Result<(String, usize), String>;

/// Checks one document of one family in one format, both ways; panics,
/// naming the document and both outcomes, if they disagree. The arena is
/// reset after.
fn check(arena: &mut FrameArena, format: &str, doc: &dyn fmt::Debug, heap: Outcome, got: Outcome) {
    assert_eq!(
        heap, got,
        "{format} {doc:?}:\nserde's derive (left), DeserializeIn (right)"
    );
    arena.reset();
}

/// The decoders of one family (`$heap` by serde's derive, `$arena` by
/// `DeserializeIn`) in postcard, JSON and tokens.
macro_rules! family {
    ($name:ident, $heap:ty, $arena:ident) => {
        pub mod $name {
            use super::*;

            /// `bytes` from postcard, both ways, compared.
            pub fn check_postcard(arena: &mut FrameArena, bytes: &[u8]) {
                let heap = postcard::take_from_bytes::<$heap>(bytes)
                    .map(|(value, rest)| (format!("{value:?}"), rest.len()))
                    .map_err(|error| error.to_string());
                let decode = |seed: InArena<'_, $arena<'_>>| {
                    let mut input = postcard::Deserializer::from_bytes(bytes);
                    seed.deserialize(&mut input)
                        .map_err(|error| error.to_string())
                        .and_then(|value| {
                            let shown = format!("{value:?}");
                            let rest = input.finalize().map_err(|error| error.to_string())?;
                            Ok((shown, rest.len()))
                        })
                };
                let mut got = decode(InArena::new(arena));
                // Lying length prefixes nested in each other meet the
                // arena's byte bound (believed up to its room) before
                // serde's derive meets the error further on: with the
                // bound lifted, the decode must agree with serde's derive.
                if got.is_err() && got != heap && tickarena::serde::over_max_bytes(arena) {
                    got = decode(InArena::new(arena).max_bytes(usize::MAX));
                }
                check(arena, "postcard", &bytes, heap, got);
            }

            /// `text` from JSON (nothing but whitespace after), both ways,
            /// compared. (The fuzz crate has no serde_json.)
            #[cfg(not(fuzzing))]
            pub fn check_json(arena: &mut FrameArena, text: &str) {
                let heap = serde_json::from_str::<$heap>(text)
                    .map(|value| (format!("{value:?}"), 0))
                    .map_err(|error| error.to_string());
                let got = {
                    let mut input = serde_json::Deserializer::from_str(text);
                    InArena::<$arena<'_>>::new(arena)
                        .deserialize(&mut input)
                        .map_err(|error| error.to_string())
                        .and_then(|value| {
                            let shown = format!("{value:?}");
                            input.end().map_err(|error| error.to_string())?;
                            Ok((shown, 0))
                        })
                };
                check(arena, "JSON", &text, heap, got);
            }

            /// `doc` from tokens (every token used), both ways, compared.
            pub fn check_tokens(arena: &mut FrameArena, doc: &[Token]) {
                let heap = tokens::heap::<$heap>(doc).map(|value| (format!("{value:?}"), 0));
                let got =
                    tokens::arena::<$arena<'_>>(arena, doc).map(|value| (format!("{value:?}"), 0));
                check(arena, "tokens", &doc, heap, got);
            }
        }
    };
}

family!(compact, heap::Compact, Compact);
family!(doc, heap::Doc, Doc);
