//! serde's deserialize attributes on `#[derive(DeserializeIn)]` types, each
//! checked against serde's own derive on the heap twin: the same tokens,
//! JSON or postcard bytes decode to the same value (compared by `Debug`)
//! or fail with the same message.

use std::fmt::Debug;

use serde::Deserialize;
use serde::de::DeserializeSeed;
use tickarena::serde::{DeserializeIn, InArena};
use tickarena::{FrameArena, FrameData};

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

/// One document decoded by serde's derive (`heap`, shown) and by the arena
/// derive (`decode`, into a fresh arena): the same value or the same error,
/// `doc` naming the document where they differ.
#[track_caller]
fn same<A, E>(
    heap: Result<String, String>,
    decode: impl for<'a> FnOnce(&'a FrameArena) -> Result<A::Of<'a>, E>,
    doc: String,
) where
    A: FrameData,
    for<'a> A::Of<'a>: Debug,
    E: ToString,
{
    let arena = FrameArena::new();
    let got = shown(decode(&arena));
    assert_eq!(heap, got, "{doc}");
}

/// `json` decoded by serde's derive (`H`) and by the arena derive (`A`).
#[track_caller]
fn same_json<H, A>(json: &str)
where
    H: for<'de> Deserialize<'de> + Debug,
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    same::<A, _>(
        shown(serde_json::from_str::<H>(json)),
        |arena| InArena::new(arena).deserialize(&mut serde_json::Deserializer::from_str(json)),
        format!("JSON {json}"),
    );
}

/// `bytes` decoded from postcard by serde's derive and by the arena derive.
#[track_caller]
fn same_postcard<H, A>(bytes: &[u8])
where
    H: for<'de> Deserialize<'de> + Debug,
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    same::<A, _>(
        shown(postcard::from_bytes::<H>(bytes)),
        |arena| InArena::new(arena).deserialize(&mut postcard::Deserializer::from_bytes(bytes)),
        format!("postcard {bytes:?}"),
    );
}

/// `doc` read by serde's derive and by the arena derive, in the token format
/// (newtypes marked).
#[track_caller]
fn same_tokens<H, A>(doc: &[Token])
where
    H: for<'de> Deserialize<'de> + Debug,
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    same::<A, _>(
        shown(tokens::heap::<H>(doc)),
        |arena| tokens::arena::<A::Of<'_>>(arena, doc),
        format!("tokens {doc:?}"),
    );
}

/// `value` written by serde (JSON and postcard) and read back by both
/// derives, then each of `json` read by both.
#[track_caller]
fn same_all<H, A>(value: &H, json: &[&str])
where
    H: for<'de> Deserialize<'de> + serde::Serialize + Debug,
    A: FrameData,
    for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
{
    let written = serde_json::to_string(value).unwrap();
    same_json::<H, A>(&written);
    same_postcard::<H, A>(&postcard::to_allocvec(value).unwrap());
    for doc in json {
        same_json::<H, A>(doc);
    }
}

/// The heap types (serde's derive) and their arena twins (the same names,
/// which serde's messages quote; `String` where the twin has `&'a str`,
/// `Vec` where it has `FrameVec`, which print alike).
#[allow(dead_code)]
mod heap {
    use serde::{Deserialize, Deserializer, Serialize};

    #[derive(Deserialize, Debug)]
    pub struct Meters(pub f32);

    #[derive(Deserialize, Debug)]
    pub enum Skips {
        Gone(#[serde(skip_deserializing)] u8),
        Kept(u8),
    }

    /// One struct and one enum per `rename_all` style.
    macro_rules! styles {
        ($($module:ident => $style:literal),* $(,)?) => {$(
            pub mod $module {
                use serde::{Deserialize, Serialize};
                #[derive(Serialize, Deserialize, Debug)]
                #[serde(rename_all = $style)]
                pub struct Account {
                    pub user_id: u32,
                    pub display_name: String,
                    #[serde(rename = "kept_as_is")]
                    pub renamed: u8,
                }
                #[derive(Serialize, Deserialize, Debug)]
                #[serde(rename_all = $style, rename_all_fields = $style)]
                pub enum Event {
                    PlayerJoined,
                    ScoreChanged { new_score: u32, player_name: String },
                    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
                    ItemPicked { item_kind: u8 },
                }
            }
        )*};
    }
    styles! {
        lower => "lowercase", upper => "UPPERCASE", pascal => "PascalCase",
        camel => "camelCase", snake => "snake_case", screaming => "SCREAMING_SNAKE_CASE",
        kebab => "kebab-case", screaming_kebab => "SCREAMING-KEBAB-CASE",
    }

    /// The deserializing side's names differ from the serializing side's.
    #[derive(Serialize, Deserialize, Debug)]
    #[serde(
        rename(deserialize = "WireLogin", serialize = "Login"),
        rename_all(deserialize = "camelCase", serialize = "kebab-case")
    )]
    pub struct Login {
        pub user_name: String,
        #[serde(rename(deserialize = "pw", serialize = "password"))]
        pub pass_word: String,
        #[serde(rename(serialize = "remember"))]
        pub remember_me: bool,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Strict {
        pub id: u32,
        #[serde(alias = "nick", alias = "handle")]
        pub name: String,
        #[serde(skip_deserializing)]
        pub cache: u8,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub enum StrictEvent {
        Hit { damage: u8 },
        Miss,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct NothingRead {
        #[serde(skip)]
        pub skipped: u8,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(default)]
    pub struct Settings {
        pub volume: u8,
        pub title: String,
        #[serde(default = "super::seven")]
        pub lives: u8,
        #[serde(skip)]
        pub derived: u32,
    }

    impl Default for Settings {
        fn default() -> Self {
            Settings {
                volume: 80,
                title: "untitled".to_owned(),
                lives: 3,
                derived: 99,
            }
        }
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(default = "super::tuple_defaults")]
    pub struct Pair(pub u8, pub String);

    #[derive(Serialize, Deserialize, Debug)]
    pub struct Defaults {
        pub id: u8,
        #[serde(default = "super::seven")]
        pub lives: u8,
        #[serde(default)]
        pub tags: Option<Vec<String>>,
        #[serde(skip_deserializing, default = "super::seven")]
        pub never_read: u8,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(transparent)]
    pub struct Name {
        pub inner: String,
        #[serde(skip)]
        pub marker: u8,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(transparent)]
    pub struct Wrapped(pub Vec<u8>);

    #[derive(Serialize, Deserialize, Debug)]
    pub struct RawAngle {
        pub degrees: f32,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(from = "RawAngle")]
    pub struct Angle {
        pub radians: f32,
    }

    impl From<RawAngle> for Angle {
        fn from(raw: RawAngle) -> Self {
            Angle {
                radians: raw.degrees / 2.0,
            }
        }
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(try_from = "Vec<String>")]
    pub struct NonEmpty {
        pub first: String,
        pub count: usize,
    }

    impl TryFrom<Vec<String>> for NonEmpty {
        type Error = &'static str;
        fn try_from(words: Vec<String>) -> Result<Self, Self::Error> {
            match words.first() {
                Some(first) => Ok(NonEmpty {
                    first: first.clone(),
                    count: words.len(),
                }),
                None => Err("the list is empty"),
            }
        }
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(try_from = "u32")]
    pub enum Level {
        Low,
        High,
    }

    impl TryFrom<u32> for Level {
        type Error = String;
        fn try_from(level: u32) -> Result<Self, String> {
            match level {
                0 => Ok(Level::Low),
                1 => Ok(Level::High),
                other => Err(format!("no level {other}")),
            }
        }
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(expecting = "a point as [x, y] or {\"x\": .., \"y\": ..}")]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(expecting = "a direction")]
    pub enum Direction {
        Left,
        Right(u8),
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(expecting = "a unit")]
    pub struct Unit;

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(expecting = "a single length")]
    pub struct Length(pub u32);

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(bound = "")]
    pub struct Bounded {
        #[serde(bound(deserialize = "u32: Deserialize<'de>"))]
        pub id: u32,
        pub name: String,
    }

    pub fn hex<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let text = String::deserialize(d)?;
        u32::from_str_radix(&text, 16).map_err(serde::de::Error::custom)
    }

    pub mod doubled {
        use serde::{Deserialize, Deserializer, Serializer};
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
            u8::deserialize(d).map(|n| n.wrapping_mul(2))
        }
        pub fn serialize<S: Serializer>(n: &u8, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_u8(*n)
        }
    }

    pub fn level<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        super::level_name(u8::deserialize(d)?)
            .map(str::to_owned)
            .ok_or_else(|| serde::de::Error::custom("no such level"))
    }

    pub fn maybe<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
        u8::deserialize(d).map(Some)
    }

    #[derive(Serialize, Deserialize, Debug)]
    pub struct Custom {
        #[serde(deserialize_with = "hex", serialize_with = "super::hex_out")]
        pub color: u32,
        #[serde(with = "doubled")]
        pub twice: u8,
        #[serde(deserialize_with = "level", serialize_with = "super::level_out")]
        pub level: String,
        #[serde(deserialize_with = "maybe", default)]
        pub defaulted: Option<u8>,
        #[serde(deserialize_with = "maybe")]
        pub required: Option<u8>,
    }

    #[derive(Serialize, Deserialize, Debug)]
    pub struct Hex(#[serde(deserialize_with = "hex", serialize_with = "super::hex_out")] pub u32);

    pub fn pair<'de, D: Deserializer<'de>>(d: D) -> Result<(u8, u8), D::Error> {
        let text = String::deserialize(d)?;
        let (a, b) = text
            .split_once(',')
            .ok_or_else(|| serde::de::Error::custom("expected `a,b`"))?;
        let number = |s: &str| s.parse::<u8>().map_err(serde::de::Error::custom);
        Ok((number(a)?, number(b)?))
    }

    pub fn nothing<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        <()>::deserialize(d)
    }

    #[derive(Deserialize, Debug)]
    pub enum Shape {
        #[serde(deserialize_with = "pair")]
        Both(u8, u8),
        #[serde(deserialize_with = "pair")]
        Sized {
            w: u8,
            h: u8,
        },
        #[serde(deserialize_with = "hex")]
        Colour(u32),
        #[serde(deserialize_with = "nothing")]
        Empty,
        Plain(#[serde(deserialize_with = "hex")] u32),
    }

    #[derive(Serialize, Deserialize, Debug)]
    pub enum Command {
        #[serde(alias = "go", alias = "walk")]
        Move(i8),
        #[serde(rename = "halt", alias = "stop")]
        Stop,
        #[serde(skip_deserializing)]
        Internal,
        Say {
            #[serde(alias = "message")]
            text: String,
        },
        #[serde(other)]
        Unknown,
    }

    #[derive(Serialize, Deserialize, Debug)]
    pub enum Skipped {
        First,
        #[serde(skip_deserializing)]
        Second(u8),
        #[serde(skip)]
        Third,
        Fourth(u8),
    }

    #[derive(Serialize, Deserialize, Debug)]
    pub struct SerializeOnly {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
        #[serde(skip_serializing, default)]
        pub hidden: u8,
        #[serde(serialize_with = "super::hex_out")]
        pub shown: u32,
        #[serde(rename(serialize = "out"))]
        pub value: u8,
    }

    #[derive(Serialize, Deserialize, Debug)]
    #[serde(crate = "serde", rename_all(serialize = "UPPERCASE"))]
    pub enum SerializeOnlyEnum {
        #[serde(serialize_with = "super::hex_out_variant")]
        A(u32),
        #[serde(skip_serializing)]
        B,
    }
}

fn seven() -> u8 {
    7
}

fn tuple_defaults<T: From<(u8, &'static str)>>() -> T {
    T::from((5, "five"))
}

impl From<(u8, &'static str)> for heap::Pair {
    fn from((n, s): (u8, &'static str)) -> Self {
        heap::Pair(n, s.to_owned())
    }
}

impl<'a> From<(u8, &'static str)> for arena::Pair<'a> {
    fn from((n, s): (u8, &'static str)) -> Self {
        arena::Pair(n, s)
    }
}

fn level_name(n: u8) -> Option<&'static str> {
    ["bronze", "silver", "gold"].get(usize::from(n)).copied()
}

fn hex_out<S: serde::Serializer>(n: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{n:x}"))
}

fn level_out<S: serde::Serializer>(name: &str, s: S) -> Result<S::Ok, S::Error> {
    let at = ["bronze", "silver", "gold"].iter().position(|n| *n == name);
    s.serialize_u8(at.unwrap_or(9) as u8)
}

fn hex_out_variant<S: serde::Serializer>(n: &u32, s: S) -> Result<S::Ok, S::Error> {
    hex_out(n, s)
}

#[allow(dead_code)]
mod arena {
    use serde::{Deserialize, Deserializer};
    use tickarena::{DeserializeIn, FrameData, FrameVec};

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct Meters(pub f32);

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct Words<'a>(pub FrameVec<'a, &'a str>);

    #[derive(DeserializeIn, FrameData, Debug)]
    pub enum Skips {
        Gone(#[serde(skip_deserializing)] u8),
        Kept(u8),
    }

    macro_rules! styles {
        ($($module:ident => $style:literal),* $(,)?) => {$(
            pub mod $module {
                use tickarena::{DeserializeIn, FrameData};
                #[derive(DeserializeIn, FrameData, Debug)]
                #[serde(rename_all = $style)]
                pub struct Account<'a> {
                    pub user_id: u32,
                    pub display_name: &'a str,
                    #[serde(rename = "kept_as_is")]
                    pub renamed: u8,
                }
                #[derive(DeserializeIn, FrameData, Debug)]
                #[serde(rename_all = $style, rename_all_fields = $style)]
                pub enum Event<'a> {
                    PlayerJoined,
                    ScoreChanged { new_score: u32, player_name: &'a str },
                    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
                    ItemPicked { item_kind: u8 },
                }
            }
        )*};
    }
    styles! {
        lower => "lowercase", upper => "UPPERCASE", pascal => "PascalCase",
        camel => "camelCase", snake => "snake_case", screaming => "SCREAMING_SNAKE_CASE",
        kebab => "kebab-case", screaming_kebab => "SCREAMING-KEBAB-CASE",
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(
        rename(deserialize = "WireLogin", serialize = "Login"),
        rename_all(deserialize = "camelCase", serialize = "kebab-case")
    )]
    pub struct Login<'a> {
        pub user_name: &'a str,
        #[serde(rename(deserialize = "pw", serialize = "password"))]
        pub pass_word: &'a str,
        #[serde(rename(serialize = "remember"))]
        pub remember_me: bool,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Strict<'a> {
        pub id: u32,
        #[serde(alias = "nick", alias = "handle")]
        pub name: &'a str,
        #[serde(skip_deserializing)]
        pub cache: u8,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(deny_unknown_fields)]
    pub enum StrictEvent {
        Hit { damage: u8 },
        Miss,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct NothingRead {
        #[serde(skip)]
        pub skipped: u8,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(default)]
    pub struct Settings<'a> {
        pub volume: u8,
        pub title: &'a str,
        #[serde(default = "super::seven")]
        pub lives: u8,
        #[serde(skip)]
        pub derived: u32,
    }

    impl Default for Settings<'_> {
        fn default() -> Self {
            Settings {
                volume: 80,
                title: "untitled",
                lives: 3,
                derived: 99,
            }
        }
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(default = "super::tuple_defaults")]
    pub struct Pair<'a>(pub u8, pub &'a str);

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct Defaults<'a> {
        pub id: u8,
        #[serde(default = "super::seven")]
        pub lives: u8,
        #[serde(default)]
        pub tags: Option<FrameVec<'a, &'a str>>,
        #[serde(skip_deserializing, default = "super::seven")]
        pub never_read: u8,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(transparent)]
    pub struct Name<'a> {
        pub inner: &'a str,
        #[serde(skip)]
        pub marker: u8,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(transparent)]
    pub struct Wrapped<'a>(pub FrameVec<'a, u8>);

    #[derive(Deserialize, Debug)]
    pub struct RawAngle {
        pub degrees: f32,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(from = "RawAngle")]
    pub struct Angle {
        pub radians: f32,
    }

    impl From<RawAngle> for Angle {
        fn from(raw: RawAngle) -> Self {
            Angle {
                radians: raw.degrees / 2.0,
            }
        }
    }

    /// Read through the arena (the source type mentions its lifetime).
    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(try_from = "FrameVec<'a, &'a str>")]
    pub struct NonEmpty<'a> {
        pub first: &'a str,
        pub count: usize,
    }

    impl<'a> TryFrom<FrameVec<'a, &'a str>> for NonEmpty<'a> {
        type Error = &'static str;
        fn try_from(words: FrameVec<'a, &'a str>) -> Result<Self, Self::Error> {
            match words.first() {
                Some(first) => Ok(NonEmpty {
                    first,
                    count: words.len(),
                }),
                None => Err("the list is empty"),
            }
        }
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(try_from = "u32")]
    pub enum Level {
        Low,
        High,
    }

    impl TryFrom<u32> for Level {
        type Error = String;
        fn try_from(level: u32) -> Result<Self, String> {
            match level {
                0 => Ok(Level::Low),
                1 => Ok(Level::High),
                other => Err(format!("no level {other}")),
            }
        }
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(expecting = "a point as [x, y] or {\"x\": .., \"y\": ..}")]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(expecting = "a direction")]
    pub enum Direction {
        Left,
        Right(u8),
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(expecting = "a unit")]
    pub struct Unit;

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(expecting = "a single length")]
    pub struct Length(pub u32);

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(bound = "")]
    pub struct Bounded<'a> {
        #[serde(bound(deserialize = "u32: Deserialize<'de>"))]
        pub id: u32,
        #[serde(borrow)]
        pub name: &'a str,
    }

    pub use super::heap::{doubled, hex, maybe, nothing, pair};

    /// A field that borrows the arena, read by serde's signature: the
    /// function has no arena, and returns data that lives longer.
    pub fn level<'de, 'a, D: Deserializer<'de>>(d: D) -> Result<&'a str, D::Error> {
        super::level_name(u8::deserialize(d)?)
            .ok_or_else(|| serde::de::Error::custom("no such level"))
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct Custom<'a> {
        #[serde(deserialize_with = "hex", serialize_with = "super::hex_out")]
        pub color: u32,
        #[serde(with = "doubled")]
        pub twice: u8,
        #[serde(deserialize_with = "level", serialize_with = "super::level_out")]
        pub level: &'a str,
        #[serde(deserialize_with = "maybe", default)]
        pub defaulted: Option<u8>,
        #[serde(deserialize_with = "maybe")]
        pub required: Option<u8>,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct Hex(#[serde(deserialize_with = "hex", serialize_with = "super::hex_out")] pub u32);

    #[derive(DeserializeIn, FrameData, Debug)]
    pub enum Shape {
        #[serde(deserialize_with = "pair")]
        Both(u8, u8),
        #[serde(deserialize_with = "pair")]
        Sized {
            w: u8,
            h: u8,
        },
        #[serde(deserialize_with = "hex")]
        Colour(u32),
        #[serde(deserialize_with = "nothing")]
        Empty,
        Plain(#[serde(deserialize_with = "hex")] u32),
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    pub enum Command<'a> {
        #[serde(alias = "go", alias = "walk")]
        Move(i8),
        #[serde(rename = "halt", alias = "stop")]
        Stop,
        #[serde(skip_deserializing)]
        Internal,
        Say {
            #[serde(alias = "message")]
            text: &'a str,
        },
        #[serde(other)]
        Unknown,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    pub enum Skipped {
        First,
        #[serde(skip_deserializing)]
        Second(u8),
        #[serde(skip)]
        Third,
        Fourth(u8),
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    pub struct SerializeOnly<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub note: Option<&'a str>,
        #[serde(skip_serializing, default)]
        pub hidden: u8,
        #[serde(serialize_with = "super::hex_out")]
        pub shown: u32,
        #[serde(rename(serialize = "out"))]
        pub value: u8,
    }

    #[derive(DeserializeIn, FrameData, Debug)]
    #[serde(crate = "serde", rename_all(serialize = "UPPERCASE"), into = "u8")]
    pub enum SerializeOnlyEnum {
        #[serde(serialize_with = "super::hex_out_variant")]
        A(u32),
        #[serde(skip_serializing)]
        B,
    }
}

// --- Names: rename_all, rename(deserialize), alias ------------------------

/// Every case style, on a struct's fields, an enum's variants
/// (`rename_all`), its struct variants' fields (`rename_all_fields`, or a
/// variant's own `rename_all`); an explicit `rename` wins.
#[test]
fn rename_all_reads_every_case_style() {
    macro_rules! check {
        // Under Miri, one style: the others run the same code.
        ($($module:ident),*) => {$( if !cfg!(miri) || stringify!($module) == "camel" {
            use heap::$module::{Account, Event};
            let account = Account { user_id: 7, display_name: "Ann".into(), renamed: 1 };
            same_all::<Account, arena::$module::Account<'_>>(&account, &[
                r#"{"user_id": 1, "display_name": "x", "kept_as_is": 2}"#,
                r#"{"userId": 1, "displayName": "x", "kept_as_is": 2}"#,
                r#"{"USER_ID": 1, "DISPLAY_NAME": "x", "renamed": 2}"#,
            ]);
            for event in [
                Event::PlayerJoined,
                Event::ScoreChanged { new_score: 3, player_name: "Bo".into() },
                Event::ItemPicked { item_kind: 4 },
            ] {
                same_all::<Event, arena::$module::Event<'_>>(&event, &[
                    r#""PlayerJoined""#,
                    r#""player_joined""#,
                    r#"{"ScoreChanged": {"new_score": 1, "player_name": "x"}}"#,
                ]);
            }
        })*};
    }
    check!(
        lower,
        upper,
        pascal,
        camel,
        snake,
        screaming,
        kebab,
        screaming_kebab
    );
    // One check that the names are the styles' (not only both derives
    // alike): camelCase.
    let arena = FrameArena::new();
    let json = r#"{"userId": 1, "displayName": "x", "kept_as_is": 2}"#;
    let account: arena::camel::Account<'_> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    assert_eq!(
        (account.user_id, account.display_name, account.renamed),
        (1, "x", 2)
    );
}

/// `rename(deserialize = ..)` and `rename_all(deserialize = ..)` name what
/// is read; the `serialize` side's names are not.
#[test]
fn the_deserialize_side_names_are_read() {
    let login = heap::Login {
        user_name: "a".into(),
        pass_word: "b".into(),
        remember_me: true,
    };
    same_all::<heap::Login, arena::Login<'_>>(
        &login,
        &[
            r#"{"userName": "a", "pw": "b", "rememberMe": true}"#,
            r#"{"user-name": "a", "password": "b", "remember": true}"#,
            r#"{"userName": "a", "pw": "b"}"#,
        ],
    );
    // The type's name as the format is told it (the tokens check it).
    let wire: &[Token] = &[
        Token::Struct {
            name: "WireLogin",
            len: 3,
        },
        Token::Str("userName"),
        Token::Str("a"),
        Token::Str("pw"),
        Token::Str("b"),
        Token::Str("rememberMe"),
        Token::Bool(false),
        Token::StructEnd,
    ];
    same_tokens::<heap::Login, arena::Login<'_>>(wire);
    same_tokens::<heap::Login, arena::Login<'_>>(&[
        Token::Struct {
            name: "Login",
            len: 3,
        },
        Token::StructEnd,
    ]);
}

/// Aliases: every one reads the field or the variant; the messages list
/// them, sorted, as serde's do.
#[test]
fn aliases_are_read_and_listed() {
    let strict = heap::Strict {
        id: 1,
        name: "n".into(),
        cache: 0,
    };
    same_all::<heap::Strict, arena::Strict<'_>>(
        &strict,
        &[
            r#"{"id": 1, "nick": "a"}"#,
            r#"{"id": 1, "handle": "a"}"#,
            r#"{"id": 1, "name": "a", "nick": "b"}"#,
        ],
    );
    for doc in [
        r#"{"Move": 1}"#,
        r#"{"go": 1}"#,
        r#"{"walk": 1}"#,
        r#""halt""#,
        r#""stop""#,
        r#""Stop""#,
        r#"{"Say": {"message": "hi"}}"#,
        r#"{"Say": {"text": "hi", "message": "again"}}"#,
    ] {
        same_json::<heap::Command, arena::Command<'_>>(doc);
    }
}

// --- deny_unknown_fields ---------------------------------------------------

#[test]
fn deny_unknown_fields_refuses_unknown_keys_with_serdes_message() {
    for doc in [
        r#"{"id": 1, "name": "a", "extra": 3}"#,
        r#"{"id": 1, "cache": 3, "name": "a"}"#,
        r#"{"id": 1, "name": "a"}"#,
        r#"[1, "a"]"#,
        r#"[1, "a", 3]"#,
    ] {
        same_json::<heap::Strict, arena::Strict<'_>>(doc);
    }
    for doc in [
        r#"{"Hit": {"damage": 1, "range": 2}}"#,
        r#"{"Hit": {"damage": 1}}"#,
        r#""Miss""#,
    ] {
        same_json::<heap::StrictEvent, arena::StrictEvent>(doc);
    }
    for doc in [r#"{}"#, r#"{"skipped": 1}"#, r#"[]"#] {
        same_json::<heap::NothingRead, arena::NothingRead>(doc);
    }
    // Keys given as bytes (lossily, for bad UTF-8) or as an index.
    let strict = |key: Token| -> Vec<Token> {
        vec![
            Token::Struct {
                name: "Strict",
                len: 2,
            },
            Token::Str("id"),
            Token::U32(1),
            key,
            Token::Str("x"),
            Token::StructEnd,
        ]
    };
    for key in [
        Token::Bytes(b"nick"),
        Token::Bytes(b"zz"),
        Token::Bytes(b"z\xffz"),
        Token::U64(1),
        Token::U64(2),
        Token::U8(9),
    ] {
        same_tokens::<heap::Strict, arena::Strict<'_>>(&strict(key));
    }
}

// --- default ----------------------------------------------------------------

#[test]
fn the_types_default_fills_missing_fields() {
    let settings = heap::Settings {
        volume: 1,
        title: "t".into(),
        lives: 2,
        derived: 5,
    };
    same_all::<heap::Settings, arena::Settings<'_>>(
        &settings,
        &[
            "{}",
            r#"{"volume": 5}"#,
            r#"{"title": "x", "lives": 1}"#,
            "[]",
            "[1]",
            r#"[1, "x"]"#,
            r#"{"derived": 1}"#,
        ],
    );
    same_all::<heap::Pair, arena::Pair<'_>>(
        &heap::Pair(1, "one".into()),
        &["[]", "[2]", r#"[2, "x"]"#, r#"[2, "x", 3]"#],
    );
    same_postcard::<heap::Settings, arena::Settings<'_>>(&[]);
    same_postcard::<heap::Settings, arena::Settings<'_>>(&[9]);
}

#[test]
fn a_fields_default_function_fills_it() {
    let defaults = heap::Defaults {
        id: 1,
        lives: 2,
        tags: Some(vec!["a".into()]),
        never_read: 3,
    };
    same_all::<heap::Defaults, arena::Defaults<'_>>(
        &defaults,
        &[
            r#"{"id": 1}"#,
            r#"{"id": 1, "lives": 9, "never_read": 1}"#,
            "{}",
            "[1]",
            "[1, 2]",
            "[]",
        ],
    );
}

// --- transparent, from, try_from ------------------------------------------

#[test]
fn transparent_reads_the_one_field() {
    let name = heap::Name {
        inner: "n".into(),
        marker: 4,
    };
    same_all::<heap::Name, arena::Name<'_>>(&name, &[r#""x""#, "5", r#"{"inner": "x"}"#]);
    same_all::<heap::Wrapped, arena::Wrapped<'_>>(
        &heap::Wrapped(vec![1, 2]),
        &["[]", "[1, 300]", "7"],
    );
    same_tokens::<heap::Wrapped, arena::Wrapped<'_>>(&[
        Token::Seq { len: Some(1) },
        Token::U8(3),
        Token::SeqEnd,
    ]);
}

#[test]
fn from_and_try_from_read_the_other_type() {
    same_all::<heap::Angle, arena::Angle>(
        &heap::Angle { radians: 1.0 },
        &[r#"{"degrees": 90.0}"#, r#"{"radians": 1.0}"#, "[4.0]", "1"],
    );
    same_all::<heap::NonEmpty, arena::NonEmpty<'_>>(
        &heap::NonEmpty {
            first: "a".into(),
            count: 1,
        },
        &[r#"["a", "b"]"#, "[]", r#"{"first": "a"}"#],
    );
    same_json::<heap::Level, arena::Level>("1");
    same_json::<heap::Level, arena::Level>("7");
    same_json::<heap::Level, arena::Level>(r#""Low""#);
    same_postcard::<heap::Level, arena::Level>(&[0]);
    same_postcard::<heap::Level, arena::Level>(&[3]);
}

// --- expecting --------------------------------------------------------------

#[test]
fn expecting_is_the_message_of_every_visitor() {
    let point = heap::Point { x: 1, y: 2 };
    same_all::<heap::Point, arena::Point>(&point, &[r#""p""#, "[1]", "[]", "3", r#"{"x": 1}"#]);
    for doc in [r#"5"#, r#"{"Right": "x"}"#, r#"{"Right": [1]}"#, r#""Up""#] {
        same_json::<heap::Direction, arena::Direction>(doc);
    }
    same_json::<heap::Unit, arena::Unit>("3");
    same_json::<heap::Unit, arena::Unit>("null");
    same_json::<heap::Length, arena::Length>(r#""x""#);
    same_tokens::<heap::Length, arena::Length>(&[Token::Seq { len: Some(0) }, Token::SeqEnd]);
    same_tokens::<heap::Length, arena::Length>(&[Token::Str("x")]);
    same_tokens::<heap::Unit, arena::Unit>(&[Token::Bool(true)]);
}

// --- bound, borrow, crate, the serializing side's -------------------------

#[test]
fn bounds_and_the_serializing_sides_attributes_change_nothing_read() {
    same_all::<heap::Bounded, arena::Bounded<'_>>(
        &heap::Bounded {
            id: 1,
            name: "b".into(),
        },
        &[r#"{"id": 1}"#],
    );
    let only = heap::SerializeOnly {
        note: None,
        hidden: 3,
        shown: 255,
        value: 4,
    };
    same_all::<heap::SerializeOnly, arena::SerializeOnly<'_>>(
        &only,
        &[
            r#"{"note": "n", "hidden": 1, "shown": 2, "value": 3}"#,
            r#"{"shown": 2, "out": 3}"#,
            r#"{"shown": 2, "value": 3}"#,
        ],
    );
    for doc in [r#"{"A": 1}"#, r#""B""#, r#""b""#, r#"{"A": "ff"}"#] {
        same_json::<heap::SerializeOnlyEnum, arena::SerializeOnlyEnum>(doc);
    }
}

// --- deserialize_with, with -----------------------------------------------

#[test]
fn a_fields_function_reads_it() {
    let custom = heap::Custom {
        color: 0xff00,
        twice: 3,
        level: "silver".into(),
        defaulted: Some(1),
        required: Some(2),
    };
    // Written by `serialize_with`/`with` (hex text, the level's index), read
    // by the functions; a missing function-read field is missing even as an
    // `Option`, unless it has a `default`.
    same_all::<heap::Custom, arena::Custom<'_>>(
        &custom,
        &[
            r#"{"color": "zz", "twice": 1, "level": 0, "required": 1}"#,
            r#"{"color": "a", "twice": 1, "level": 7, "required": 1}"#,
            r#"{"color": "a", "twice": 1, "level": 2}"#,
            r#"{"color": "a", "twice": 200, "level": 2, "required": 0, "defaulted": 5}"#,
            r#"["a", 1, 1, 1, 1]"#,
            r#"["a", 1, 1, 1]"#,
        ],
    );
    same_all::<heap::Hex, arena::Hex>(&heap::Hex(0xab), &[r#""q""#, "[\"1\"]"]);
    same_tokens::<heap::Hex, arena::Hex>(&[Token::NewtypeStruct { name: "Hex" }, Token::Str("10")]);
}

#[test]
fn a_variants_function_reads_its_fields() {
    for doc in [
        r#"{"Both": "1,2"}"#,
        r#"{"Both": "1"}"#,
        r#"{"Both": [1, 2]}"#,
        r#"{"Sized": "3,4"}"#,
        r#"{"Colour": "ff"}"#,
        r#"{"Empty": null}"#,
        r#""Empty""#,
        r#"{"Plain": "10"}"#,
        r#"{"Plain": 10}"#,
    ] {
        same_json::<heap::Shape, arena::Shape>(doc);
    }
    same_tokens::<heap::Shape, arena::Shape>(&[
        Token::NewtypeVariant {
            name: "Shape",
            variant: "Both",
        },
        Token::Str("5,6"),
    ]);
    same_tokens::<heap::Shape, arena::Shape>(&[
        Token::NewtypeVariant {
            name: "Shape",
            variant: "Empty",
        },
        Token::Unit,
    ]);
}

// --- variants: other, skip_deserializing -----------------------------------

#[test]
fn other_reads_every_unknown_tag() {
    for doc in [
        r#""Fly""#,
        r#""Unknown""#,
        r#""Internal""#,
        r#"{"Fly": 1}"#,
        r#""""#,
    ] {
        same_json::<heap::Command, arena::Command<'_>>(doc);
    }
    // By index: the variants read count (the skipped one does not).
    for tag in 0u8..8 {
        same_postcard::<heap::Command, arena::Command<'_>>(&[tag, 2, 1, b'x']);
    }
    for doc in [
        &[Token::UnitVariant {
            name: "Command",
            variant: "Elsewhere",
        }][..],
        &[
            Token::Enum { name: "Command" },
            Token::Bytes(b"z\xff"),
            Token::Unit,
        ][..],
    ] {
        same_tokens::<heap::Command, arena::Command<'_>>(doc);
    }
}

#[test]
fn skipped_variants_are_unknown_and_take_no_index() {
    for doc in [
        r#""First""#,
        r#"{"Second": 1}"#,
        r#""Third""#,
        r#"{"Fourth": 2}"#,
    ] {
        same_json::<heap::Skipped, arena::Skipped>(doc);
    }
    for bytes in [[0u8, 5], [1, 5], [2, 5], [3, 5]] {
        same_postcard::<heap::Skipped, arena::Skipped>(&bytes);
    }
    same_tokens::<heap::Skipped, arena::Skipped>(&[
        Token::Enum { name: "Skipped" },
        Token::Bytes(b"z\xffz"),
        Token::Unit,
    ]);
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

// --- Random documents --------------------------------------------------------

mod random {
    use proptest::prelude::*;

    use super::{arena, heap, identifiers_arena, identifiers_heap, same_json, same_postcard};

    /// Every key the types below read (names, aliases, renamed and
    /// case-styled ones), a few they do not, and tags.
    const KEYS: &[&str] = &[
        "id",
        "name",
        "nick",
        "handle",
        "cache",
        "extra",
        "volume",
        "title",
        "lives",
        "derived",
        "tags",
        "never_read",
        "color",
        "twice",
        "level",
        "defaulted",
        "required",
        "userName",
        "user_name",
        "pw",
        "rememberMe",
        "userId",
        "displayName",
        "kept_as_is",
        "x",
        "y",
        "inner",
        "degrees",
        "Move",
        "go",
        "walk",
        "halt",
        "stop",
        "Stop",
        "Internal",
        "Say",
        "message",
        "text",
        "Unknown",
        "Both",
        "Sized",
        "Colour",
        "Empty",
        "Plain",
        "w",
        "h",
        "First",
        "Second",
        "Third",
        "Fourth",
        "Hit",
        "Miss",
        "damage",
        "Left",
        "Right",
        "hidden",
        "A",
        "B",
    ];

    /// Values of every JSON kind the fields take or refuse.
    const VALUES: &[&str] = &[
        "0",
        "1",
        "2",
        "255",
        "300",
        "-1",
        "1.5",
        "\"ff\"",
        "\"1,2\"",
        "\"x\"",
        "null",
        "true",
        "[]",
        "[1, 2]",
        "[\"a\"]",
        "{}",
        "{\"degrees\": 90}",
        "{\"damage\": 1}",
        "{\"text\": \"t\"}",
    ];

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(VALUES).prop_map(str::to_owned),
            prop::sample::select(KEYS).prop_map(|key| format!("{key:?}")),
        ]
    }

    /// An object of known and unknown keys (some twice), a list, or a
    /// lone value.
    fn document() -> impl Strategy<Value = String> {
        let entry = (prop::sample::select(KEYS), value())
            .prop_map(|(key, value)| format!("{key:?}: {value}"));
        prop_oneof![
            prop::collection::vec(entry, 0..6).prop_map(|e| format!("{{{}}}", e.join(", "))),
            prop::collection::vec(value(), 0..6).prop_map(|v| format!("[{}]", v.join(", "))),
            value(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

        /// Random JSON: serde's derive and the arena derive give the same
        /// value or the same message, type by type.
        #[test]
        fn json_decodes_as_serdes_derive_decodes(doc in document()) {
            same_json::<heap::Strict, arena::Strict<'_>>(&doc);
            same_json::<heap::StrictEvent, arena::StrictEvent>(&doc);
            same_json::<heap::Settings, arena::Settings<'_>>(&doc);
            same_json::<heap::Pair, arena::Pair<'_>>(&doc);
            same_json::<heap::Defaults, arena::Defaults<'_>>(&doc);
            same_json::<heap::Login, arena::Login<'_>>(&doc);
            same_json::<heap::camel::Account, arena::camel::Account<'_>>(&doc);
            same_json::<heap::kebab::Event, arena::kebab::Event<'_>>(&doc);
            same_json::<heap::Name, arena::Name<'_>>(&doc);
            same_json::<heap::Angle, arena::Angle>(&doc);
            same_json::<heap::NonEmpty, arena::NonEmpty<'_>>(&doc);
            same_json::<heap::Level, arena::Level>(&doc);
            same_json::<heap::Point, arena::Point>(&doc);
            same_json::<heap::Direction, arena::Direction>(&doc);
            same_json::<heap::Custom, arena::Custom<'_>>(&doc);
            same_json::<heap::Shape, arena::Shape>(&doc);
            same_json::<heap::Command, arena::Command<'_>>(&doc);
            same_json::<heap::Skipped, arena::Skipped>(&doc);
            same_json::<heap::SerializeOnly, arena::SerializeOnly<'_>>(&doc);
            same_json::<heap::Meters, arena::Meters>(&doc);
            same_json::<heap::Skips, arena::Skips>(&doc);
            same_json::<identifiers_heap::FieldName, identifiers_arena::FieldName>(&doc);
            same_json::<identifiers_heap::FieldOrOther, identifiers_arena::FieldOrOther>(&doc);
            same_json::<identifiers_heap::VariantName, identifiers_arena::VariantName>(&doc);
            same_json::<identifiers_heap::Keyed, identifiers_arena::Keyed>(&doc);
        }

        /// Random postcard bytes, the same way.
        #[test]
        fn postcard_decodes_as_serdes_derive_decodes(
            bytes in prop::collection::vec(prop_oneof![0u8..8, any::<u8>()], 0..12),
        ) {
            same_postcard::<heap::Strict, arena::Strict<'_>>(&bytes);
            same_postcard::<heap::Settings, arena::Settings<'_>>(&bytes);
            same_postcard::<heap::Pair, arena::Pair<'_>>(&bytes);
            same_postcard::<heap::Defaults, arena::Defaults<'_>>(&bytes);
            same_postcard::<heap::snake::Event, arena::snake::Event<'_>>(&bytes);
            same_postcard::<heap::Name, arena::Name<'_>>(&bytes);
            same_postcard::<heap::NonEmpty, arena::NonEmpty<'_>>(&bytes);
            same_postcard::<heap::Level, arena::Level>(&bytes);
            same_postcard::<heap::Direction, arena::Direction>(&bytes);
            same_postcard::<heap::Command, arena::Command<'_>>(&bytes);
            same_postcard::<heap::Skipped, arena::Skipped>(&bytes);
            same_postcard::<heap::Skips, arena::Skips>(&bytes);
            same_postcard::<heap::Meters, arena::Meters>(&bytes);
            same_postcard::<identifiers_heap::FieldName, identifiers_arena::FieldName>(&bytes);
            same_postcard::<identifiers_heap::VariantName, identifiers_arena::VariantName>(&bytes);
        }
    }
}

// --- serde's own annotation cases, ported --------------------------------------

/// Each item twice: with serde's derive in `ported_heap`, with the arena
/// derive in `ported_arena` (types without the arena's lifetime: what these
/// cases check is the attribute).
macro_rules! twins {
    ($($item:item)*) => {
        #[allow(dead_code)]
        mod ported_heap {
            use super::ported::*;
            $( #[derive(serde::Deserialize, Debug)] $item )*
        }
        #[allow(dead_code)]
        mod ported_arena {
            use super::ported::*;
            $( #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)] $item )*
        }
    };
}

/// The identifier enums twice, as `twins!` (their own modules).
macro_rules! twins_identifiers {
    ($($item:item)*) => {
        #[allow(dead_code)]
        mod identifiers_heap {
            $( #[derive(serde::Deserialize, Debug)] $item )*
        }
        #[allow(dead_code)]
        mod identifiers_arena {
            $( #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)] $item )*
        }
    };
}

/// What the ported types call.
mod ported {
    use serde::{Deserialize, Deserializer};

    pub fn my_default() -> i32 {
        123
    }

    /// `true` is 123, `false` is 2.
    pub fn bool_as_i32<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        Ok(if bool::deserialize(d)? { 123 } else { 2 })
    }

    pub fn i8_as_unit<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        match i8::deserialize(d)? {
            0 => Ok(()),
            n => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Signed(n.into()),
                &"0",
            )),
        }
    }

    pub fn text_as_pair<'de, D: Deserializer<'de>>(d: D) -> Result<(String, u8), D::Error> {
        let text = String::deserialize(d)?;
        let (left, right) = text
            .split_once(';')
            .ok_or_else(|| serde::de::Error::invalid_length(1, &"2"))?;
        let right = right.parse().map_err(|_| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Str(right), &"a u8")
        })?;
        Ok((left.to_owned(), right))
    }

    /// No `Default`, no `Deserialize`: only a `default = ".."` makes it.
    #[derive(Debug)]
    #[allow(dead_code)] // read by `Debug`
    pub struct NoDefault(pub i8);

    pub fn no_default() -> NoDefault {
        NoDefault(123)
    }
}

twins! {
    pub struct DefaultStruct {
        a1: i32,
        #[serde(default)]
        a2: i32,
        #[serde(default = "my_default")]
        a3: i32,
        #[serde(skip_deserializing)]
        a4: i32,
        #[serde(skip_deserializing, default = "my_default")]
        a5: i32,
    }

    pub struct DefaultTupleStruct(i32, #[serde(default)] i32, #[serde(default = "my_default")] i32);

    pub enum DefaultVariants {
        Struct {
            a1: i32,
            #[serde(default)]
            a2: i32,
            #[serde(default = "my_default")]
            a3: i32,
            #[serde(skip_deserializing)]
            a4: i32,
            #[serde(skip_deserializing, default = "my_default")]
            a5: i32,
        },
        Tuple(i32, #[serde(default)] i32, #[serde(default = "my_default")] i32),
    }

    pub struct ContainsNoDefault {
        #[serde(default = "no_default", skip_deserializing)]
        a: NoDefault,
        #[serde(deserialize_with = "bool_as_i32", default)]
        c: i32,
    }

    #[serde(deny_unknown_fields)]
    pub struct DenyUnknown {
        a1: i32,
    }

    #[serde(rename = "Superhero")]
    pub struct RenameStruct {
        a1: i32,
        #[serde(rename = "a3")]
        a2: i32,
    }

    #[serde(rename(serialize = "SuperheroSer", deserialize = "SuperheroDe"))]
    pub struct RenameStructSerializeDeserialize {
        a1: i32,
        #[serde(rename(serialize = "a4", deserialize = "a5"))]
        a2: i32,
    }

    #[serde(deny_unknown_fields)]
    pub struct AliasStruct {
        a1: i32,
        #[serde(alias = "a3")]
        a2: i32,
        #[serde(alias = "a5", rename = "a6")]
        a4: i32,
    }

    #[serde(rename = "Superhero")]
    pub enum RenameEnum {
        #[serde(rename = "bruce_wayne")]
        Batman,
        #[serde(rename = "clark_kent")]
        Superman(i8),
        #[serde(rename = "diana_prince")]
        WonderWoman(i8, i8),
        #[serde(rename = "barry_allan")]
        Flash {
            #[serde(rename = "b")]
            a: i32,
        },
    }

    #[serde(deny_unknown_fields)]
    pub enum AliasEnum {
        #[serde(rename = "sailor_moon", alias = "usagi_tsukino")]
        SailorMoon {
            a: i8,
            #[serde(alias = "c")]
            b: i8,
            #[serde(alias = "e", rename = "f")]
            d: i8,
        },
    }

    pub struct SkipStruct {
        a: i8,
        #[serde(skip)]
        b: i8,
    }

    pub struct DeserializeWithStruct {
        a: i8,
        #[serde(deserialize_with = "bool_as_i32")]
        b: i32,
    }

    pub enum DeserializeWithEnum {
        Struct {
            a: i8,
            #[serde(deserialize_with = "bool_as_i32")]
            b: i32,
        },
    }

    #[serde(rename(serialize = "SuperheroSer", deserialize = "SuperheroDe"))]
    pub enum RenameEnumSerializeDeserialize {
        #[serde(rename(serialize = "dick_grayson", deserialize = "jason_todd"))]
        Robin {
            a: i8,
            #[serde(rename(serialize = "c"))]
            #[serde(rename(deserialize = "d"))]
            b: i8,
        },
    }

    pub enum InvalidLengthEnum {
        A(i32, i32, i32),
        B(#[serde(skip_deserializing)] i32, i32, i32),
    }

    #[serde(from = "Option<u32>")]
    pub enum EnumToU32 {
        One,
        Two,
        Nothing,
    }

    #[serde(from = "super::ported_heap::EnumToU32")]
    pub struct StructFromEnum(pub Option<u32>);

    #[serde(try_from = "u32")]
    pub enum TryFromU32 {
        One,
        Two,
    }

    #[serde(transparent)]
    pub struct Transparent {
        #[serde(skip)]
        a: bool,
        b: u32,
        #[serde(skip)]
        c: bool,
        d: std::marker::PhantomData<()>,
    }

    #[serde(transparent)]
    pub struct TransparentTuple(
        #[serde(skip)] bool,
        u32,
        #[serde(skip)] bool,
        std::marker::PhantomData<()>,
    );

    pub enum WithVariant {
        #[serde(deserialize_with = "i8_as_unit")]
        Unit,
        #[serde(deserialize_with = "bool_as_i32")]
        Newtype(i32),
        #[serde(deserialize_with = "text_as_pair")]
        Tuple(String, u8),
        #[serde(deserialize_with = "text_as_pair")]
        Struct { f1: String, f2: u8 },
    }
}

/// The conversions of the ported `from`/`try_from` types, for both twins.
macro_rules! conversions {
    ($($module:ident),*) => {$(
        impl From<Option<u32>> for $module::EnumToU32 {
            fn from(n: Option<u32>) -> Self {
                match n {
                    Some(1) => $module::EnumToU32::One,
                    Some(2) => $module::EnumToU32::Two,
                    _ => $module::EnumToU32::Nothing,
                }
            }
        }
        impl From<ported_heap::EnumToU32> for $module::StructFromEnum {
            fn from(n: ported_heap::EnumToU32) -> Self {
                $module::StructFromEnum(match n {
                    ported_heap::EnumToU32::One => Some(1),
                    ported_heap::EnumToU32::Two => Some(2),
                    ported_heap::EnumToU32::Nothing => None,
                })
            }
        }
        impl TryFrom<u32> for $module::TryFromU32 {
            type Error = String;
            fn try_from(n: u32) -> Result<Self, String> {
                match n {
                    1 => Ok($module::TryFromU32::One),
                    2 => Ok($module::TryFromU32::Two),
                    _ => Err("out of range".to_owned()),
                }
            }
        }
    )*};
}
conversions!(ported_heap, ported_arena);

/// The token documents of serde's `test_annotations` for the attributes
/// above (and mutations of them: cut short, unknown keys, wrong names),
/// read by both derives.
#[test]
fn serdes_annotation_cases_read_alike() {
    use Token::*;
    fn cases<H, A>(docs: &[&[Token]])
    where
        H: for<'de> Deserialize<'de> + Debug,
        A: FrameData,
        for<'a> A::Of<'a>: DeserializeIn<'a> + Debug,
    {
        for doc in docs {
            // Whole, and cut short at every token (under Miri, whole and
            // with its last token cut: the same code, fewer times).
            let cut = if cfg!(miri) {
                doc.len().saturating_sub(1)
            } else {
                0
            };
            for end in cut..=doc.len() {
                same_tokens::<H, A>(&doc[..end]);
            }
        }
    }
    macro_rules! case {
        ($ty:ident: $($doc:expr),* $(,)?) => {
            cases::<ported_heap::$ty, ported_arena::$ty>(&[$(&$doc),*])
        };
    }
    let s = |name| Struct { name, len: 3 };
    case!(DefaultStruct:
        [s("DefaultStruct"), Str("a1"), I32(1), Str("a2"), I32(2), Str("a3"), I32(3), Str("a4"), I32(4), Str("a5"), I32(5), StructEnd],
        [s("DefaultStruct"), Str("a1"), I32(1), StructEnd],
        [s("DefaultStruct"), Str("whoops1"), I32(2), Str("a1"), I32(1), Str("whoops2"), Seq { len: Option::Some(1) }, I32(2), SeqEnd, Str("a2"), I32(2), StructEnd],
        [Seq { len: Option::Some(1) }, I32(1), SeqEnd],
    );
    case!(DefaultTupleStruct:
        [TupleStruct { name: "DefaultTupleStruct", len: 3 }, I32(1), I32(2), I32(3), TupleStructEnd],
        [TupleStruct { name: "DefaultTupleStruct", len: 3 }, I32(1), TupleStructEnd],
    );
    case!(DefaultVariants:
        [StructVariant { name: "DefaultVariants", variant: "Struct", len: 3 }, Str("a1"), I32(1), Str("a4"), I32(4), StructVariantEnd],
        [TupleVariant { name: "DefaultVariants", variant: "Tuple", len: 3 }, I32(1), TupleVariantEnd],
        [TupleVariant { name: "DefaultVariants", variant: "Tuple", len: 3 }, I32(1), I32(2), I32(3), TupleVariantEnd],
    );
    case!(ContainsNoDefault:
        [s("ContainsNoDefault"), StructEnd],
        [s("ContainsNoDefault"), Str("c"), Bool(true), StructEnd],
        [s("ContainsNoDefault"), Str("c"), I32(1), StructEnd],
    );
    case!(DenyUnknown:
        [Struct { name: "DenyUnknown", len: 1 }, Str("a1"), I32(1), Str("whoops"), I32(2), StructEnd],
    );
    case!(RenameStruct:
        [Struct { name: "Superhero", len: 2 }, Str("a1"), I32(1), Str("a3"), I32(2), StructEnd],
        [Struct { name: "RenameStruct", len: 2 }, StructEnd],
        [Struct { name: "Superhero", len: 2 }, Str("a1"), I32(1), Str("a2"), I32(2), StructEnd],
    );
    case!(RenameStructSerializeDeserialize:
        [Struct { name: "SuperheroDe", len: 2 }, Str("a1"), I32(1), Str("a5"), I32(2), StructEnd],
        [Struct { name: "SuperheroSer", len: 2 }, Str("a1"), I32(1), Str("a4"), I32(2), StructEnd],
    );
    case!(AliasStruct:
        [s("AliasStruct"), Str("a1"), I32(1), Str("a2"), I32(2), Str("a5"), I32(3), StructEnd],
        [s("AliasStruct"), Str("a1"), I32(1), Str("a3"), I32(2), Str("a6"), I32(3), StructEnd],
        [s("AliasStruct"), Str("a1"), I32(1), Str("a3"), I32(2), Str("a4"), I32(3), StructEnd],
    );
    case!(RenameEnum:
        [UnitVariant { name: "Superhero", variant: "bruce_wayne" }],
        [NewtypeVariant { name: "Superhero", variant: "clark_kent" }, I8(0)],
        [TupleVariant { name: "Superhero", variant: "diana_prince", len: 2 }, I8(0), I8(1), TupleVariantEnd],
        [StructVariant { name: "Superhero", variant: "barry_allan", len: 1 }, Str("b"), I32(1), StructVariantEnd],
        [UnitVariant { name: "Superhero", variant: "Batman" }],
    );
    case!(AliasEnum:
        [StructVariant { name: "AliasEnum", variant: "sailor_moon", len: 3 }, Str("a"), I8(0), Str("b"), I8(1), Str("e"), I8(2), StructVariantEnd],
        [StructVariant { name: "AliasEnum", variant: "usagi_tsukino", len: 3 }, Str("a"), I8(0), Str("c"), I8(1), Str("f"), I8(2), StructVariantEnd],
        [StructVariant { name: "AliasEnum", variant: "SailorMoon", len: 3 }],
        [StructVariant { name: "AliasEnum", variant: "usagi_tsukino", len: 3 }, Str("a"), I8(0), Str("c"), I8(1), Str("d"), I8(2), StructVariantEnd],
    );
    case!(SkipStruct:
        [Struct { name: "SkipStruct", len: 1 }, Str("a"), I8(1), StructEnd],
        [Struct { name: "SkipStruct", len: 1 }, Str("a"), I8(1), Str("b"), I8(2), StructEnd],
    );
    case!(DeserializeWithStruct:
        [Struct { name: "DeserializeWithStruct", len: 2 }, Str("a"), I8(1), Str("b"), Bool(false), StructEnd],
        [Struct { name: "DeserializeWithStruct", len: 2 }, Str("a"), I8(1), Str("b"), Bool(true), StructEnd],
        [Struct { name: "DeserializeWithStruct", len: 2 }, Str("a"), I8(1), StructEnd],
    );
    case!(DeserializeWithEnum:
        [StructVariant { name: "DeserializeWithEnum", variant: "Struct", len: 2 }, Str("a"), I8(1), Str("b"), Bool(true), StructVariantEnd],
    );
    case!(RenameEnumSerializeDeserialize:
        [StructVariant { name: "SuperheroDe", variant: "jason_todd", len: 2 }, Str("a"), I8(0), Str("d"), I8(1), StructVariantEnd],
        [StructVariant { name: "SuperheroDe", variant: "jason_todd", len: 2 }, Str("a"), I8(0), StructVariantEnd],
        [StructVariant { name: "SuperheroDe", variant: "dick_grayson", len: 2 }],
    );
    case!(InvalidLengthEnum:
        [TupleVariant { name: "InvalidLengthEnum", variant: "A", len: 3 }, I32(1), TupleVariantEnd],
        [TupleVariant { name: "InvalidLengthEnum", variant: "B", len: 3 }, I32(1), TupleVariantEnd],
        [TupleVariant { name: "InvalidLengthEnum", variant: "B", len: 2 }, I32(1), I32(2), TupleVariantEnd],
    );
    case!(EnumToU32: [Token::Some, U32(2)], [Token::None], [U32(2)]);
    case!(StructFromEnum: [Token::Some, U32(2)], [Token::None]);
    case!(TryFromU32: [U32(2)], [U32(5)], [Str("x")]);
    case!(Transparent: [U32(1)], [Str("x")]);
    case!(TransparentTuple: [U32(1)], [NewtypeStruct { name: "TransparentTuple" }, U32(1)]);
    case!(WithVariant:
        [NewtypeVariant { name: "WithVariant", variant: "Unit" }, I8(0)],
        [NewtypeVariant { name: "WithVariant", variant: "Unit" }, I8(1)],
        [NewtypeVariant { name: "WithVariant", variant: "Newtype" }, Bool(true)],
        [NewtypeVariant { name: "WithVariant", variant: "Tuple" }, Str("hello;0")],
        [NewtypeVariant { name: "WithVariant", variant: "Struct" }, Str("world;1")],
        [NewtypeVariant { name: "WithVariant", variant: "Struct" }, Str("world;x")],
        [NewtypeVariant { name: "WithVariant", variant: "Tuple" }, Str("hello")],
        [UnitVariant { name: "WithVariant", variant: "Unit" }],
    );
}

/// Neither `DeserializeIn` nor `Deserialize`: only a function makes one.
#[derive(Debug)]
pub struct Opaque(u8);

static OPAQUE: [Opaque; 2] = [Opaque(0), Opaque(1)];

fn opaque<'de, 'a, D: serde::Deserializer<'de>>(d: D) -> Result<&'a Opaque, D::Error> {
    Ok(&OPAQUE[usize::from(bool::deserialize(d)?)])
}

#[derive(tickarena::DeserializeIn, Debug)]
struct HoldsOpaque<'a> {
    #[serde(deserialize_with = "opaque")]
    opaque: &'a Opaque,
    name: &'a str,
}

/// A field that borrows the arena and is read by its own function need not
/// be `DeserializeIn` (as under serde's derive, where it need not be
/// `Deserialize`).
#[test]
fn a_field_read_by_a_function_needs_no_deserialize_in() {
    let arena = FrameArena::new();
    let json = r#"{"opaque": true, "name": "n"}"#;
    let held: HoldsOpaque<'_> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    assert_eq!((held.opaque.0, held.name), (1, "n"));
}

/// Made by `from`: its fields are not read, and need not be `DeserializeIn`.
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(from = "bool")]
struct FromBool<'a> {
    opaque: &'a Opaque,
}

impl From<bool> for FromBool<'_> {
    fn from(b: bool) -> Self {
        FromBool {
            opaque: &OPAQUE[usize::from(b)],
        }
    }
}

#[test]
fn a_converted_types_fields_need_no_deserialize_in() {
    let arena = FrameArena::new();
    let made: FromBool<'_> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str("true"))
        .unwrap();
    assert_eq!(made.opaque.0, 1);
}

// --- Identifier enums --------------------------------------------------------

twins_identifiers! {
    #[serde(field_identifier, rename_all = "lowercase")]
    pub enum FieldName {
        Id,
        #[serde(alias = "nick")]
        Name,
        #[serde(skip_deserializing)]
        Hidden,
    }

    #[serde(field_identifier)]
    pub enum FieldOrOther {
        Id,
        #[serde(other)]
        Other,
    }

    #[serde(variant_identifier)]
    pub enum VariantName {
        Move,
        #[serde(alias = "halt")]
        Stop,
    }

    #[serde(field_identifier, expecting = "a key of the table")]
    pub enum Keyed {
        A,
        B,
    }
}

/// `field_identifier` and `variant_identifier` enums read one identifier
/// (a string, bytes or an index), as serde's derive reads them: unknown ones
/// are `other`'s, or serde's "unknown field" / "unknown variant" message.
#[test]
fn identifier_enums_read_an_identifier() {
    use Token::*;
    macro_rules! case {
        ($ty:ident: $($doc:expr),* $(,)?) => {$(
            same_tokens::<identifiers_heap::$ty, identifiers_arena::$ty>(&$doc);
        )*};
    }
    case!(FieldName:
        [Str("id")], [Str("name")], [Str("nick")], [Str("hidden")], [Str("Id")], [Str("x")],
        [Bytes(b"name")], [Bytes(b"z\xff")], [U64(0)], [U64(2)], [U64(3)], [U8(1)], [Unit], [Bool(true)],
    );
    case!(FieldOrOther:
        [Str("Id")], [Str("Other")], [Str("x")], [Bytes(b"\xff")], [U64(0)], [U64(1)], [U64(9)], [Unit],
    );
    case!(VariantName:
        [Str("Move")], [Str("halt")], [Str("Other")], [Bytes(b"Stop")], [Bytes(b"\xff")],
        [U64(1)], [U64(2)], [Unit],
    );
    case!(Keyed: [Str("A")], [Str("C")], [Unit], [U64(5)]);
    for doc in [r#""id""#, r#""nick""#, r#""x""#, "1", "7", "null"] {
        same_json::<identifiers_heap::FieldName, identifiers_arena::FieldName>(doc);
        same_json::<identifiers_heap::VariantName, identifiers_arena::VariantName>(doc);
        same_json::<identifiers_heap::FieldOrOther, identifiers_arena::FieldOrOther>(doc);
    }
    // As a map's key, read by its own `Deserialize` in the heap twin and
    // through `DeserializeIn` in a list in the arena.
    let arena = FrameArena::new();
    let json = r#"["id", "nick", "name"]"#;
    let keys: tickarena::FrameVec<'_, identifiers_arena::FieldName> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    assert_eq!(format!("{keys:?}"), "[Id, Name, Name]");
}

/// `#[serde(default)]` and `skip_deserializing` on the arena's containers
/// (which have no `Default`): the empty container, made in the arena
/// (`DefaultIn`), where serde's derive takes the heap twin's `Default` —
/// in a struct's map and sequence forms, a tuple struct, a flattened
/// struct and an internally tagged variant.
mod arena_defaults {
    use super::*;
    // Named, not glob-imported: the glob's `test` would be ambiguous.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[allow(dead_code)] // read through `Debug`
    mod heap {
        use std::collections::HashMap;

        #[derive(serde::Deserialize, serde::Serialize, Debug)]
        pub struct Chat {
            pub text: String,
            #[serde(default)]
            pub mentions: Vec<String>,
            #[serde(default)]
            pub note: String,
            #[serde(skip_deserializing)]
            pub cache: Vec<u8>,
            #[serde(default)]
            pub counts: HashMap<String, u8>,
        }

        #[derive(serde::Deserialize, Debug)]
        pub struct Pair(pub u8, #[serde(default)] pub Vec<u16>);

        #[derive(serde::Deserialize, Debug)]
        pub struct Outer {
            pub id: u8,
            #[serde(flatten)]
            pub chat: Inner,
        }

        #[derive(serde::Deserialize, Debug)]
        pub struct Inner {
            #[serde(default)]
            pub mentions: Vec<String>,
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(default)]
        pub struct Lobby {
            pub name: String,
            pub players: Vec<String>,
        }

        impl Default for Lobby {
            fn default() -> Self {
                Lobby {
                    name: "lobby".into(),
                    players: vec!["host".into()],
                }
            }
        }

        #[derive(serde::Deserialize, Debug)]
        #[serde(tag = "type")]
        pub enum Message {
            Say {
                #[serde(default)]
                words: Vec<String>,
            },
        }
    }

    #[allow(dead_code)] // read through `Debug`
    mod arena {
        use tickarena::{FrameHashMap, FrameString, FrameVec};

        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        pub struct Chat<'a> {
            pub text: &'a str,
            #[serde(default)]
            pub mentions: FrameVec<'a, &'a str>,
            #[serde(default)]
            pub note: FrameString<'a>,
            #[serde(skip_deserializing)]
            pub cache: FrameVec<'a, u8>,
            #[serde(default)]
            pub counts: FrameHashMap<'a, &'a str, u8>,
        }

        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        pub struct Pair<'a>(pub u8, #[serde(default)] pub FrameVec<'a, u16>);

        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        pub struct Outer<'a> {
            pub id: u8,
            #[serde(flatten)]
            pub chat: Inner<'a>,
        }

        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        pub struct Inner<'a> {
            #[serde(default)]
            pub mentions: FrameVec<'a, &'a str>,
        }

        /// The type's `default`: its `DefaultIn`, the list made in the
        /// arena.
        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        #[serde(default)]
        pub struct Lobby<'a> {
            pub name: &'a str,
            pub players: FrameVec<'a, &'a str>,
        }

        impl<'a> tickarena::serde::DefaultIn<'a> for Lobby<'a> {
            fn default_in(arena: &'a tickarena::FrameArena) -> Self {
                let mut players = FrameVec::new_in(arena);
                players.push("host");
                Lobby {
                    name: "lobby",
                    players,
                }
            }
        }

        #[derive(tickarena::DeserializeIn, tickarena::FrameData, Debug)]
        #[serde(tag = "type")]
        pub enum Message<'a> {
            Say {
                #[serde(default)]
                words: FrameVec<'a, &'a str>,
            },
        }
    }

    #[test]
    fn arena_containers_default_to_empty_in_the_arena() {
        let chat = heap::Chat {
            text: "hi".into(),
            mentions: vec!["ann".into()],
            note: "n".into(),
            cache: vec![],
            counts: [("x".to_owned(), 1)].into(),
        };
        same_all::<heap::Chat, arena::Chat<'_>>(
            &chat,
            &[
                r#"{"text":"hi"}"#,
                r#"{"text":"hi","cache":[1,2]}"#,
                r#"{"text":"hi","mentions":["a","b"],"note":"x"}"#,
                r#"["hi"]"#,
                r#"["hi",["a"]]"#,
                r#"{"mentions":[]}"#,
            ],
        );
        for json in ["[1]", "[1,[2,3]]", "[]"] {
            same_json::<heap::Pair, arena::Pair<'_>>(json);
        }
        for json in [r#"{"id":1}"#, r#"{"id":1,"mentions":["a"]}"#] {
            same_json::<heap::Outer, arena::Outer<'_>>(json);
        }
        for json in [
            "{}",
            r#"{"name":"x"}"#,
            r#"{"players":["a","b"]}"#,
            "[]",
            r#"["x"]"#,
            r#"["x",[]]"#,
        ] {
            same_json::<heap::Lobby, arena::Lobby<'_>>(json);
        }
        for json in [r#"{"type":"Say"}"#, r#"{"type":"Say","words":["a"]}"#] {
            same_json::<heap::Message, arena::Message<'_>>(json);
        }
        // The default allocates nothing: an empty list, no arena bytes.
        let arena = FrameArena::new();
        let chat: arena::Chat<'_> = InArena::new(&arena)
            .deserialize(&mut serde_json::Deserializer::from_str(r#"{"text":""}"#))
            .unwrap();
        assert!(chat.mentions.is_empty() && chat.cache.is_empty() && chat.counts.is_empty());
        assert_eq!(arena.used(), 0);
    }
}
