//! A buffer's lend (`serde/lend.rs`) under attack: `Deserializer` wrappers that change
//! a value or read it another way, unwinding mid-lend, a lend taken through
//! the hidden items, and nested taggings against serde's derive.

use core::cell::Cell;
use core::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Deserialize as _;
use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use tickarena::FrameArena;
use tickarena::serde::__private::{BufferSeed, Content, ContentDeserializer, ContentSeed};
use tickarena::serde::{DeserializeIn, InArena};

fn json(text: &str) -> serde_json::Deserializer<serde_json::de::StrRead<'_>> {
    serde_json::Deserializer::from_str(text)
}

/// Arena decode of `text` as `$t`, by `Debug`.
macro_rules! arena_read {
    ($t:ty, $text:expr) => {{
        let frame = FrameArena::new();
        InArena::<$t>::new(&frame)
            .deserialize(&mut json($text))
            .map(|v| format!("{v:?}"))
            .map_err(|e| e.to_string())
    }};
}

fn heap_read<T: for<'de> serde::Deserialize<'de> + fmt::Debug>(
    text: &str,
) -> Result<String, String> {
    serde_json::from_str::<T>(text)
        .map(|v| format!("{v:?}"))
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------
// A user `Deserializer` wrapper that trims every string it passes on (a
// full-forwarding visitor wrapper, as serde_path_to_error's).

struct Trim<D>(D);
struct TrimVisitor<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for TrimVisitor<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_str(v.trim())
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.0.visit_borrowed_str(v.trim())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.0.visit_str(v.trim())
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Trim<D> {
    type Error = D::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(TrimVisitor(v))
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_str(TrimVisitor(v))
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_string(TrimVisitor(v))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

#[derive(Debug)]
pub struct Trimmed<'a>(#[allow(dead_code)] &'a str);
impl<'a> DeserializeIn<'a> for Trimmed<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        <&'a str as DeserializeIn<'a>>::deserialize_in(arena, Trim(d)).map(Trimmed)
    }
}

#[derive(Debug)]
pub struct HeapTrimmed(#[allow(dead_code)] String);
impl<'de> serde::Deserialize<'de> for HeapTrimmed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(Trim(d)).map(HeapTrimmed)
    }
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum ArenaName<'a> {
    Name(Trimmed<'a>),
}

#[allow(dead_code)]
#[derive(serde::Deserialize, Debug)]
#[serde(untagged)]
enum HeapName {
    Name(HeapTrimmed),
}

/// A `&'a str` read through a user's wrapper inside an untagged enum: the
/// wrapper's visitor is not the `&str`'s own, so nothing is lent to it and
/// the wrapper trims the text, alone and inside the buffer, as under
/// serde's derive.
#[test]
fn a_wrapper_that_changes_text_is_not_skipped() {
    let input = r#""  padded  ""#;
    println!("alone:  arena {:?}", arena_read!(Trimmed<'_>, input));
    println!("alone:  heap  {:?}", heap_read::<HeapTrimmed>(input));
    println!("nested: arena {:?}", arena_read!(ArenaName<'_>, input));
    println!("nested: heap  {:?}", heap_read::<HeapName>(input));
    let heap = heap_read::<HeapName>(input).map(|read| read.replace("Heap", ""));
    assert_eq!(arena_read!(ArenaName<'_>, input), heap);
    assert_eq!(
        arena_read!(ArenaName<'_>, input).unwrap(),
        r#"Name(Trimmed("padded"))"#
    );
}

// ---------------------------------------------------------------------
// A user `Deserializer` that reads its input through `serde_json::Value`
// (a normalising step), then hands the value on.

struct ViaValue<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ViaValue<D> {
    type Error = D::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        let value = serde_json::Value::deserialize(self.0)?;
        value.deserialize_any(v).map_err(de::Error::custom)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
pub enum Inner<'a> {
    Pair { k: u32, name: &'a str },
    Nothing,
}

#[derive(Debug)]
pub struct Normalized<'a>(#[allow(dead_code)] Inner<'a>);
impl<'a> DeserializeIn<'a> for Normalized<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        Inner::deserialize_in(arena, ViaValue(d)).map(Normalized)
    }
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum ArenaOuter<'a> {
    N(Normalized<'a>),
}

#[allow(dead_code)]
#[derive(serde::Deserialize, Debug)]
#[serde(untagged)]
pub enum HeapInner {
    Pair { k: u32, name: String },
    Nothing,
}

#[derive(Debug)]
pub struct HeapNormalized(#[allow(dead_code)] HeapInner);
impl<'de> serde::Deserialize<'de> for HeapNormalized {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        HeapInner::deserialize(ViaValue(d)).map(HeapNormalized)
    }
}

#[allow(dead_code)]
#[derive(serde::Deserialize, Debug)]
#[serde(untagged)]
enum HeapOuter {
    N(HeapNormalized),
}

/// The lend is asked for in the arena, not of the deserializer called: a
/// `serde_json::Value` read inside the user's deserializer reaches the
/// buffer first, and must get the value, not a `visit_unit` (which would
/// read as `Value::Null` and pick the inner enum's unit variant).
#[test]
fn a_wrapper_that_reads_another_way_is_not_answered() {
    let input = r#"{"k":1,"name":"x"}"#;
    println!("alone:  arena {:?}", arena_read!(Normalized<'_>, input));
    println!("nested: arena {:?}", arena_read!(ArenaOuter<'_>, input));
    println!("nested: heap  {:?}", heap_read::<HeapOuter>(input));
    let heap = heap_read::<HeapOuter>(input).map(|read| read.replace("Heap", ""));
    assert_eq!(arena_read!(ArenaOuter<'_>, input), heap);
}

// ---------------------------------------------------------------------
// Unwinding out of a lend, then a valid decode in the same arena.

struct PanicOnUnit<D>(D);
struct PanicVisitor<V>(V);
impl<'de, V: Visitor<'de>> Visitor<'de> for PanicVisitor<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        panic!("unwinding out of a lend")
    }
}
impl<'de, D: Deserializer<'de>> Deserializer<'de> for PanicOnUnit<D> {
    type Error = D::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(PanicVisitor(v))
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_str(PanicVisitor(v))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

#[derive(Debug)]
pub struct Panicky<'a>(#[allow(dead_code)] Inner<'a>, #[allow(dead_code)] &'a str);
impl<'a> DeserializeIn<'a> for Panicky<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        let inner = Inner::deserialize_in(arena, PanicOnUnit(d))?;
        Ok(Panicky(inner, ""))
    }
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum ArenaPanicky<'a> {
    P(Panicky<'a>),
}

#[derive(Debug)]
pub struct PanickyStr<'a>(#[allow(dead_code)] &'a str);
impl<'a> DeserializeIn<'a> for PanickyStr<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        <&'a str>::deserialize_in(arena, PanicOnUnit(d)).map(PanickyStr)
    }
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum ArenaPanickyStr<'a> {
    P(PanickyStr<'a>),
}

/// Under Miri: a wrapper's visitor that would panic if it were lent to
/// (both kinds) is never lent to; nothing stays lent nor asked for; later
/// decodes in the arena read what they are given.
#[test]
fn a_wrapper_visitor_is_never_lent_to_and_leaves_nothing_lent() {
    let arena = FrameArena::new();
    let r = catch_unwind(AssertUnwindSafe(|| {
        InArena::<ArenaPanicky<'_>>::new(&arena).deserialize(&mut json(r#"{"k":1,"name":"x"}"#))
    }));
    assert!(r.is_ok(), "the wrapper's visitor was lent to");
    let r = catch_unwind(AssertUnwindSafe(|| {
        InArena::<ArenaPanickyStr<'_>>::new(&arena).deserialize(&mut json(r#""text""#))
    }));
    assert!(r.is_ok(), "the wrapper's visitor was lent the text");
    // Nothing lent: a direct `visit_unit` on the seeds reads a unit.
    let unit: Result<Content<'_>, serde_json::Error> = ContentSeed::new(&arena).visit_unit();
    assert_eq!(unit.unwrap(), Content::Unit);
    // Nothing asked: a null read through `ContentSeed` and `&str`.
    let read = ContentSeed::new(&arena)
        .deserialize(&mut json("null"))
        .unwrap();
    assert_eq!(read, Content::Unit);
    assert!(<&str>::deserialize_in(&arena, &mut json("null")).is_err());
    // And a nested decode after it reads right.
    let read = InArena::<ArenaOuterPlain<'_>>::new(&arena)
        .deserialize(&mut json(r#"[{"k":1,"name":"x"}, null]"#))
        .unwrap();
    assert_eq!(
        format!("{read:?}"),
        r#"L([I(Pair { k: 1, name: "x" }), I(Nothing)])"#
    );
}

#[allow(dead_code)]
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(untagged)]
enum ArenaOuterPlain<'a> {
    I(Inner<'a>),
    L(tickarena::FrameVec<'a, ArenaOuterPlain<'a>>),
}

// ---------------------------------------------------------------------
// `__private`: a lend taken by a visitor of the user's, kept past the
// lender's frame; lenders and takers in different arenas.

/// Calls `lender` with a visitor of its own that takes the lent value with
/// the taker's (longer) borrow of the arena, then answers the asker with
/// `None`.
struct Hijack<'c, 'a, 's> {
    lender: ContentDeserializer<'c, serde_json::Error>,
    taker: &'a FrameArena,
    slot: &'s Cell<Option<Content<'a>>>,
}
struct Steal<'a, 's> {
    taker: &'a FrameArena,
    slot: &'s Cell<Option<Content<'a>>>,
}
impl<'de, 'a, 's> Visitor<'de> for Steal<'a, 's> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a lend")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        let taken: Content<'a> = Visitor::<'de>::visit_unit::<E>(ContentSeed::new(self.taker))?;
        self.slot.set(Some(taken));
        Ok(())
    }
}
impl<'de, 'c, 'a, 's> Deserializer<'de> for Hijack<'c, 'a, 's> {
    type Error = serde_json::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, serde_json::Error> {
        self.lender.deserialize_any(Steal {
            taker: self.taker,
            slot: self.slot,
        })?;
        v.visit_none()
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

/// Under Miri: a visitor of the user's, handed to a lending deserializer
/// through the hidden items while a `ContentSeed` asks, is not lent to (it
/// is not the seed): it gets the buffered map, which it refuses, and
/// nothing stays lent. A lender in a scope arena, asked from another
/// arena, is copied, and the copy reads the same after the scope's memory
/// is reused.
#[test]
fn a_lend_taken_through_private_items_is_a_copy() {
    let arena = FrameArena::new();
    let text = r#"{"a":["s",1,{"b":null}],"c":"dd"}"#;
    let buf = BufferSeed::new(&arena)
        .deserialize(&mut json(text))
        .unwrap();
    let slot = Cell::new(None);
    {
        let lender = ContentDeserializer::<serde_json::Error>::lending(&buf);
        let asked = ContentSeed::new(&arena).deserialize(Hijack {
            lender,
            taker: &arena,
            slot: &slot,
        });
        assert!(asked.unwrap_err().to_string().contains("expected a lend"));
    }
    assert!(
        slot.take().is_none(),
        "nothing was lent to the user's visitor"
    );
    let unit: Result<Content<'_>, serde_json::Error> = ContentSeed::new(&arena).visit_unit();
    assert_eq!(unit.unwrap(), Content::Unit, "nothing stays lent");

    // Different arenas.
    let outer = FrameArena::new();
    let copied = tickarena::scoped(|temp| {
        let buf = BufferSeed::new(temp).deserialize(&mut json(text)).unwrap();
        // Asked in `outer`, lender of `temp`: not answered, copied.
        let lender = ContentDeserializer::<serde_json::Error>::lending(&buf);
        ContentSeed::new(&outer).deserialize(lender).unwrap()
    });
    tickarena::scoped(|temp| {
        for _ in 0..10 {
            let _ = ContentSeed::new(temp).deserialize(&mut json(r#"[["zzzzzzzz",9],{"q":"r"}]"#));
        }
    });
    let fresh = ContentSeed::new(&outer)
        .deserialize(&mut json(text))
        .unwrap();
    assert_eq!(copied, fresh);
}

// ---------------------------------------------------------------------
// Parity with serde's derive: untagged / internally / adjacently tagged /
// flatten, nested, with `&str`s at each level.

#[allow(dead_code)]
mod arena_side {
    use tickarena::{FrameBox, FrameVec};

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum U<'a> {
        T(Tagged<'a>),
        A(Adj<'a>),
        S(&'a str),
        L(FrameVec<'a, U<'a>>),
        F(Flat<'a>),
        Unit,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t")]
    pub enum Tagged<'a> {
        A {
            x: &'a str,
            #[serde(flatten)]
            rest: Flat<'a>,
        },
        B(Adj<'a>),
        C(FrameBox<'a, U<'a>>),
        D,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Flat<'a> {
        pub y: Option<&'a str>,
        #[serde(flatten)]
        pub inner: Either<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Either<'a> {
        Z { z: &'a str },
        W { w: FrameBox<'a, U<'a>> },
        Nil {},
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "k", content = "c")]
    pub enum Adj<'a> {
        P(&'a str),
        Q(FrameBox<'a, U<'a>>),
        R { s: &'a str },
    }
}

#[allow(dead_code)]
mod heap_side {
    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum U {
        T(Tagged),
        A(Adj),
        S(String),
        L(Vec<U>),
        F(Flat),
        Unit,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "t")]
    pub enum Tagged {
        A {
            x: String,
            #[serde(flatten)]
            rest: Flat,
        },
        B(Adj),
        C(Box<U>),
        D,
    }

    #[derive(serde::Deserialize, Debug)]
    pub struct Flat {
        pub y: Option<String>,
        #[serde(flatten)]
        pub inner: Either,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Either {
        Z { z: String },
        W { w: Box<U> },
        Nil {},
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "k", content = "c")]
    pub enum Adj {
        P(String),
        Q(Box<U>),
        R { s: String },
    }
}

#[test]
fn nested_taggings_read_as_serdes() {
    let docs = [
        r#""s""#,
        r#"null"#,
        r#"["a",["b",{"t":"D"}],{"k":"P","c":"p"}]"#,
        r#"{"t":"A","x":"x1","y":"y1","z":"z1"}"#,
        r#"{"t":"A","x":"x1","w":{"t":"C","k":"Q","c":["q",{"z":"zz"}]}}"#,
        r#"{"t":"B","k":"R","c":{"s":"ss"}}"#,
        r#"{"c":{"s":"ss"},"k":"R"}"#,
        r#"{"c":{"t":"C","y":null,"w":"deep"},"k":"Q"}"#,
        r#"{"t":"C","c":[1],"k":"P"}"#,
        r#"[{"t":"C"},{"y":"only"},{"w":[{"w":["x"]}]}]"#,
        r#"{"t":"A","x":"x","y":"y","w":{"k":"P","c":"kk"},"extra":1}"#,
        r#"{"k":"Q","c":{"k":"Q","c":{"k":"P","c":"in"}}}"#,
        r#"[[[[[["deep"]]]]],{"t":"B","k":"P","c":"p"}]"#,
        r#"{"y":"a","z":"b","w":"c"}"#,
        r#"{"t":"D","x":"ignored"}"#,
        r#"{"t":"A","x":"x","z":7}"#,
    ];
    let mut differ = Vec::new();
    for doc in docs {
        let a = arena_read!(arena_side::U<'_>, doc);
        let h = heap_read::<heap_side::U>(doc);
        println!("{doc}\n  arena {a:?}\n  heap  {h:?}");
        if a != h {
            differ.push(doc);
        }
    }
    assert!(differ.is_empty(), "differ on {differ:?}");
}
