//! serde's own derive is the model of `#[derive(DeserializeIn)]`: a packet
//! type derived both ways (heap [`HeapPacket`] with `serde::Deserialize`,
//! arena [`Packet`] with `DeserializeIn`), the same document decoded by
//! both, and the results compared: the same value (the arena one brought
//! to the heap shape), or the same error message (serde_json's names the
//! type, the field or the length expected, and the line and column).
//!
//! The packet has what serde's rules treat specially: `Option` fields (also
//! in a `FrameBox`, and in an enum's struct variant), `#[serde(default)]`,
//! raw identifiers (`r#type`, `r#match`), renamed fields and variants
//! (`rename`, `rename(deserialize = ..)`), nested and recursive enums
//! (`Self` in a field), lists, strings, tuples and a newtype.
//!
//! Used by `tests/all/serde_oracle.rs` (random packets, mutated postcard
//! and JSON documents) and `fuzz/fuzz_targets/serde_decode.rs` (any bytes).

use serde::Deserialize;
use serde::de::DeserializeSeed;
use tickarena::serde::InArena;
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

/// The heap shape, read and written by serde's own derive, under the
/// arena types' names: serde's messages name the type ("expected struct
/// Packet with 12 elements"), and the two derives' messages are compared.
pub mod heap {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Packet {
        pub id: u32,
        pub r#type: String,
        #[serde(rename = "n")]
        pub name: Option<String>,
        #[serde(default)]
        pub score: i16,
        #[serde(rename(deserialize = "lvl", serialize = "lvl"))]
        pub level: Option<u8>,
        pub tags: Vec<String>,
        pub boxed: Box<Option<u16>>,
        pub commands: Vec<Command>,
        pub position: (f32, i64),
        pub pair: Pair,
        pub id2: Id,
        #[serde(default)]
        pub flags: Option<(bool, char)>,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Pair(pub String, pub Option<u8>);

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Id(pub u64);

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[allow(non_camel_case_types)] // `r#match`: a keyword as a variant's name
    pub enum Command {
        Stop,
        #[serde(rename = "say")]
        Say(String),
        Move(i32, i32),
        Give {
            to: u32,
            what: Option<String>,
            #[serde(default)]
            count: u8,
        },
        r#match(u8),
        Macro(Vec<Self>),
    }
}

pub use heap::{Command as HeapCommand, Id as HeapId, Packet as HeapPacket, Pair as HeapPair};

/// The arena shape, read by `#[derive(DeserializeIn)]`: the same names and
/// attributes, arena containers in place of the heap's.
#[derive(DeserializeIn, Debug)]
pub struct Packet<'a> {
    pub id: u32,
    pub r#type: &'a str,
    #[serde(rename = "n")]
    pub name: Option<&'a str>,
    #[serde(default)]
    pub score: i16,
    #[serde(rename(deserialize = "lvl", serialize = "lvl"))]
    pub level: Option<u8>,
    pub tags: FrameVec<'a, &'a str>,
    pub boxed: FrameBox<'a, Option<u16>>,
    pub commands: FrameVec<'a, Command<'a>>,
    pub position: (f32, i64),
    pub pair: Pair<'a>,
    pub id2: Id,
    #[serde(default)]
    pub flags: Option<(bool, char)>,
}

#[derive(DeserializeIn, Debug)]
pub struct Pair<'a>(pub &'a str, pub Option<u8>);

/// A lifetime-less field is read through its own `Deserialize`: the
/// derive reads `Id` as serde does.
#[derive(DeserializeIn, Deserialize, Debug)]
pub struct Id(pub u64);

#[derive(DeserializeIn, Debug)]
#[allow(non_camel_case_types)]
pub enum Command<'a> {
    Stop,
    #[serde(rename = "say")]
    Say(&'a str),
    Move(i32, i32),
    Give {
        to: u32,
        what: Option<&'a str>,
        #[serde(default)]
        count: u8,
    },
    r#match(u8),
    Macro(FrameVec<'a, Self>),
}

impl Packet<'_> {
    /// The heap shape of the same value.
    pub fn to_heap(&self) -> HeapPacket {
        HeapPacket {
            id: self.id,
            r#type: self.r#type.into(),
            name: self.name.map(Into::into),
            score: self.score,
            level: self.level,
            tags: self.tags.iter().map(|&t| t.into()).collect(),
            boxed: Box::new(*self.boxed),
            commands: self.commands.iter().map(Command::to_heap).collect(),
            position: self.position,
            pair: HeapPair(self.pair.0.into(), self.pair.1),
            id2: HeapId(self.id2.0),
            flags: self.flags,
        }
    }
}

impl Command<'_> {
    /// The heap shape of the same value.
    pub fn to_heap(&self) -> HeapCommand {
        match self {
            Command::Stop => HeapCommand::Stop,
            Command::Say(text) => HeapCommand::Say((*text).into()),
            Command::Move(x, y) => HeapCommand::Move(*x, *y),
            Command::Give { to, what, count } => HeapCommand::Give {
                to: *to,
                what: what.map(Into::into),
                count: *count,
            },
            Command::r#match(n) => HeapCommand::r#match(*n),
            Command::Macro(list) => HeapCommand::Macro(list.iter().map(Command::to_heap).collect()),
        }
    }
}

/// What a decoder made of a document: the value, in the heap shape, with
/// the bytes it left unread (postcard), or an error.
pub type Outcome = Result<(HeapPacket, usize), String>;

/// Whether two outcomes agree: the same error message (with its position,
/// in JSON), or the same value (by its postcard bytes, so that a NaN equals
/// itself) with as much left unread.
pub fn agree(heap: &Outcome, arena: &Outcome) -> bool {
    match (heap, arena) {
        (Ok((a, rest_a)), Ok((b, rest_b))) => {
            rest_a == rest_b
                && postcard::to_allocvec(a).unwrap() == postcard::to_allocvec(b).unwrap()
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// `bytes` read from postcard by serde's derive.
pub fn heap_postcard(bytes: &[u8]) -> Outcome {
    postcard::take_from_bytes::<HeapPacket>(bytes)
        .map(|(packet, rest)| (packet, rest.len()))
        .map_err(|error| error.to_string())
}

/// `bytes` read from postcard by the arena derive, into `arena`.
pub fn arena_postcard(arena: &FrameArena, bytes: &[u8]) -> Outcome {
    arena_postcard_with(bytes, InArena::new(arena))
}

/// `bytes` read from postcard by the arena derive, with `seed`'s limits.
fn arena_postcard_with<'a>(bytes: &[u8], seed: InArena<'a, Packet<'a>>) -> Outcome {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let packet = seed
        .deserialize(&mut input)
        .map_err(|error| error.to_string())?;
    let rest = input.finalize().map_err(|error| error.to_string())?;
    Ok((packet.to_heap(), rest.len()))
}

/// Decodes `bytes` as postcard both ways; panics, naming the bytes and both
/// outcomes, if they disagree. The arena is reset after.
pub fn check_postcard(arena: &mut FrameArena, bytes: &[u8]) {
    let heap = heap_postcard(bytes);
    let got = arena_postcard(arena, bytes);
    assert!(
        agree(&heap, &got) || refused_by_a_limit(arena, bytes, &heap, &got),
        "postcard {bytes:?}:\nserde's derive: {heap:?}\nDeserializeIn:  {got:?}"
    );
    arena.reset();
}

/// Where the two derives differ by design: the arena's decode of `bytes`
/// refused them on a limit serde's derive does not have, its byte bound
/// (postcard's length prefixes are believed up to the bound's room before
/// their elements arrive: lying ones nested in each other meet it before
/// serde's derive meets the error further on) or its depth bound
/// ([`DEFAULT_MAX_DEPTH`](tickarena::serde::DEFAULT_MAX_DEPTH) lists
/// nested; postcard has none). Then the same bytes decoded again with both
/// lifted must agree with serde's derive: the limit, not something else,
/// made the difference. Past them the decode keeps its stack bound and the
/// arena its reservation, which no seed lifts: a refusal by either (on
/// input nested or claimed past them) passes where serde's derive refuses
/// the input too.
pub fn refused_by_a_limit(arena: &FrameArena, bytes: &[u8], heap: &Outcome, got: &Outcome) -> bool {
    use tickarena::serde::{arena_refused, over_max_bytes, too_deep};
    if got.is_ok() || !(over_max_bytes(arena) || too_deep(arena)) {
        return false;
    }
    let lifted = arena_postcard_with(
        bytes,
        InArena::new(arena)
            .max_depth(u32::MAX)
            .max_bytes(usize::MAX),
    );
    agree(heap, &lifted)
        || (lifted.is_err() && heap.is_err() && (too_deep(arena) || arena_refused(arena)))
}

/// `text` read from JSON by serde's derive, nothing but whitespace after.
#[cfg(not(fuzzing))]
pub fn heap_json(text: &str) -> Outcome {
    serde_json::from_str::<HeapPacket>(text)
        .map(|packet| (packet, 0))
        .map_err(|error| error.to_string())
}

/// `text` read from JSON by the arena derive, into `arena`, nothing but
/// whitespace after.
#[cfg(not(fuzzing))]
pub fn arena_json(arena: &FrameArena, text: &str) -> Outcome {
    let mut input = serde_json::Deserializer::from_str(text);
    let packet: Packet<'_> = InArena::new(arena)
        .deserialize(&mut input)
        .map_err(|error| error.to_string())?;
    input.end().map_err(|error| error.to_string())?;
    Ok((packet.to_heap(), 0))
}

/// Decodes `text` as JSON both ways; panics, naming the text and both
/// outcomes, if they disagree. The arena is reset after.
#[cfg(not(fuzzing))]
pub fn check_json(arena: &mut FrameArena, text: &str) {
    let heap = heap_json(text);
    let got = arena_json(arena, text);
    assert!(
        agree(&heap, &got),
        "JSON {text}\nserde's derive: {heap:?}\nDeserializeIn:  {got:?}"
    );
    arena.reset();
}
