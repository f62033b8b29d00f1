//! `&'a [u8]` in the arena reads what serde's `&'a [u8]` reads: bytes
//! (`deserialize_bytes`: postcard's bytes, a JSON string's), refusing a
//! sequence with serde's message; it copies them into the arena, so it
//! also reads what serde's can only borrow and cannot (a JSON string with
//! escapes, any string from a reader). A sequence of `u8` is a
//! `FrameVec<'a, u8>`, as serde's `Vec<u8>`; every other `&'a [T]` is a
//! sequence. Against serde's derive: random and mutated postcard (where
//! serde's `&[u8]` always borrows: the same outcome, value or error), and
//! random and mutated JSON, where the outcome is that of serde's
//! `&[u8]` made to copy (a twin with serde's visitor and expectation),
//! which is serde's own wherever serde's succeeds, and differs from it
//! only where serde's could not borrow.

use std::fmt;

use proptest::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, Visitor};
use tickarena::FrameArena;
use tickarena::serde::{DEFAULT_MAX_BYTES, InArena, over_max_bytes};

use crate::models::byte_edit::{apply_bytes, byte_edit};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{DeserializeIn, FrameHashMap, FrameVec};

    #[derive(DeserializeIn, Debug)]
    pub struct Blob<'a> {
        pub id: u16,
        pub data: &'a [u8],
        pub parts: FrameVec<'a, &'a [u8]>,
        pub maybe: Option<&'a [u8]>,
        pub seq: FrameVec<'a, u8>,
        pub words: &'a [u16],
    }

    /// serde's `flatten::lifetime_propagation` case `C`, with a list.
    #[derive(DeserializeIn, Debug)]
    pub struct Keyed<'a> {
        pub id: u16,
        #[serde(flatten)]
        pub t: FrameHashMap<'a, &'a [u8], u32>,
    }
}

/// serde's derive, borrowing from the input.
mod borrowed {
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Blob<'a> {
        pub id: u16,
        #[serde(borrow)]
        pub data: &'a [u8],
        #[serde(borrow)]
        pub parts: Vec<&'a [u8]>,
        #[serde(borrow)]
        pub maybe: Option<&'a [u8]>,
        pub seq: Vec<u8>,
        pub words: Vec<u16>,
    }
}

/// serde's derive with serde's `&[u8]` made to copy: what the arena's
/// reads, by specification.
#[allow(dead_code)] // read through `Debug`
mod copied {
    use serde::Deserialize;

    use super::Bytes;

    #[derive(Deserialize, Debug)]
    pub struct Blob {
        pub id: u16,
        pub data: Bytes,
        pub parts: Vec<Bytes>,
        pub maybe: Option<Bytes>,
        pub seq: Vec<u8>,
        pub words: Vec<u16>,
    }
}

/// serde's `BytesVisitor` for `&[u8]` (its expectation, what it takes),
/// taking the bytes and strings it can only borrow in any form, copied.
pub struct Bytes(Vec<u8>);

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0[..].fmt(f) // as a `&[u8]` prints
    }
}

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Bytes, D::Error> {
        struct Copying;
        impl Visitor<'_> for Copying {
            type Value = Bytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a borrowed byte array")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Bytes, E> {
                Ok(Bytes(v.as_bytes().to_vec()))
            }
        }
        deserializer.deserialize_bytes(Copying)
    }
}

/// A JSON document, read by the arena, by serde borrowing and by serde
/// copying: each `Ok(Debug)` or `Err(message)`.
struct Json {
    arena: Result<String, String>,
    borrowed: Result<String, String>,
    copied: Result<String, String>,
}

fn read_json(text: &[u8]) -> Json {
    let frame = FrameArena::new();
    let mut input = serde_json::Deserializer::from_slice(text);
    let arena = InArena::<arena::Blob<'_>>::new(&frame)
        .deserialize(&mut input)
        .and_then(|value| input.end().map(|()| format!("{value:?}")))
        .map_err(|error| error.to_string());
    let end = |mut input: serde_json::Deserializer<_>, value: String| input.end().map(|()| value);
    let mut input = serde_json::Deserializer::from_slice(text);
    let borrowed = <borrowed::Blob<'_> as serde::Deserialize>::deserialize(&mut input)
        .map(|value| format!("{value:?}"))
        .and_then(|value| end(input, value))
        .map_err(|error| error.to_string());
    let mut input = serde_json::Deserializer::from_slice(text);
    let copied = <copied::Blob as serde::Deserialize>::deserialize(&mut input)
        .map(|value| format!("{value:?}"))
        .and_then(|value| end(input, value))
        .map_err(|error| error.to_string());
    Json {
        arena,
        borrowed,
        copied,
    }
}

/// The arena reads as serde's `&[u8]` made to copy; that is serde's own
/// outcome wherever serde's borrowing one succeeds, and where it does not
/// (or fails otherwise), its error is the one of bytes it could not
/// borrow, or the same error.
fn check_json(text: &[u8]) -> Json {
    let read = read_json(text);
    let shown = String::from_utf8_lossy(text);
    assert_eq!(
        read.arena, read.copied,
        "the arena against the copying twin on {shown}"
    );
    match (&read.borrowed, &read.arena) {
        (Ok(serde), arena) => {
            assert_eq!(
                Ok(serde),
                arena.as_ref(),
                "serde borrowed it: the same, on {shown}"
            )
        }
        (Err(serde), _) if serde.contains("expected a borrowed byte array") => {}
        (Err(serde), arena) => assert_eq!(
            arena.as_ref(),
            Err(serde),
            "serde failed otherwise than on a borrow: the same, on {shown}"
        ),
    }
    read
}

/// `bytes` as postcard, where serde's `&[u8]` always borrows: the arena
/// and serde's derive, the same outcome.
fn check_postcard(bytes: &[u8]) -> Result<String, String> {
    let frame = FrameArena::new();
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let arena = InArena::<arena::Blob<'_>>::new(&frame)
        .deserialize(&mut input)
        .map(|value| (format!("{value:?}"), input.finalize().map(<[u8]>::len).ok()))
        .map_err(|error| error.to_string());
    let serde = postcard::take_from_bytes::<borrowed::Blob<'_>>(bytes)
        .map(|(value, rest)| (format!("{value:?}"), Some(rest.len())))
        .map_err(|error| error.to_string());
    assert_eq!(arena, serde, "the two derives differ on {bytes:?}");
    arena.map(|(value, _)| value)
}

/// A JSON string of `bytes` (as text: what a JSON string holds), escaped
/// as serde_json escapes it, and sometimes with every character escaped
/// (`\u00e9`), which no reader can lend.
fn json_string(text: &str, escape_all: bool) -> String {
    if escape_all {
        text.encode_utf16()
            .map(|unit| format!("\\u{unit:04x}"))
            .collect::<String>()
    } else {
        let quoted = serde_json::to_string(text).unwrap();
        quoted[1..quoted.len() - 1].to_owned()
    }
}

#[derive(Clone, Debug)]
struct Doc {
    id: u16,
    data: (String, bool),
    parts: Vec<(String, bool)>,
    maybe: Option<(String, bool)>,
    seq: Vec<u8>,
    words: Vec<u16>,
    /// Whether `seq` is written as a string (bytes, which `Vec<u8>` refuses).
    seq_as_text: bool,
    /// Whether `data` is written as a list of numbers (which `&[u8]` refuses).
    data_as_list: bool,
}

impl Doc {
    fn write(&self) -> String {
        let string =
            |(text, escape): &(String, bool)| format!("\"{}\"", json_string(text, *escape));
        let numbers = |n: &mut dyn Iterator<Item = u32>| {
            n.map(|n| n.to_string()).collect::<Vec<_>>().join(",")
        };
        let data = if self.data_as_list {
            format!("[{}]", numbers(&mut self.data.0.bytes().map(u32::from)))
        } else {
            string(&self.data)
        };
        let parts: Vec<String> = self.parts.iter().map(string).collect();
        let maybe = self.maybe.as_ref().map_or("null".to_owned(), string);
        let seq = if self.seq_as_text {
            format!(
                "\"{}\"",
                json_string(&String::from_utf8_lossy(&self.seq), false)
            )
        } else {
            format!("[{}]", numbers(&mut self.seq.iter().map(|&b| u32::from(b))))
        };
        let words = numbers(&mut self.words.iter().map(|&w| u32::from(w)));
        format!(
            r#"{{"id":{},"data":{data},"parts":[{}],"maybe":{maybe},"seq":{seq},"words":[{words}]}}"#,
            self.id,
            parts.join(",")
        )
    }
}

fn text() -> impl Strategy<Value = (String, bool)> {
    let chars =
        prop::sample::select(&['a', 'Z', ' ', '"', '\\', 'é', '€', '😀', '\n', '\u{1}'][..]);
    (
        prop::collection::vec(chars, 0..6).prop_map(|chars| chars.into_iter().collect()),
        prop::bool::weighted(0.2),
    )
}

fn doc() -> impl Strategy<Value = Doc> {
    (
        (any::<u16>(), text(), prop::collection::vec(text(), 0..4)),
        (
            prop::option::of(text()),
            prop::collection::vec(any::<u8>(), 0..5),
        ),
        (
            prop::collection::vec(any::<u16>(), 0..4),
            prop::bool::weighted(0.1),
            prop::bool::weighted(0.1),
        ),
    )
        .prop_map(
            |((id, data, parts), (maybe, seq), (words, seq_as_text, data_as_list))| Doc {
                id,
                data,
                parts,
                maybe,
                seq,
                words,
                seq_as_text,
                data_as_list,
            },
        )
}

/// What a borrowed `Blob` holds, owned: id, data, parts, maybe, seq, words.
type Owned = (
    u16,
    Vec<u8>,
    Vec<Vec<u8>>,
    Option<Vec<u8>>,
    Vec<u8>,
    Vec<u16>,
);

fn blob() -> impl Strategy<Value = Owned> {
    let bytes = || prop::collection::vec(any::<u8>(), 0..8);
    (
        any::<u16>(),
        bytes(),
        prop::collection::vec(bytes(), 0..4),
        prop::option::of(bytes()),
        bytes(),
        prop::collection::vec(any::<u16>(), 0..4),
    )
}

#[test]
fn bytes_read_as_serdes_and_a_sequence_is_refused_as_serde_refuses_it() {
    // The issue's case: bytes, where the arena read a sequence before.
    let read = check_json(
        br#"{"id":1,"data":"x","parts":["ab",""],"maybe":"\u00e9","seq":[120],"words":[7]}"#,
    );
    assert_eq!(
        read.arena.unwrap(),
        r#"Blob { id: 1, data: [120], parts: [[97, 98], []], maybe: Some([195, 169]), seq: [120], words: [7] }"#
    );
    assert!(
        read.borrowed
            .unwrap_err()
            .contains("expected a borrowed byte array"),
        "an escape: serde cannot borrow"
    );
    let read = check_json(br#"{"id":1,"data":[120],"parts":[],"maybe":null,"seq":[],"words":[]}"#);
    assert_eq!(read.arena, read.borrowed, "a sequence: refused both ways");
    assert!(
        read.arena
            .unwrap_err()
            .starts_with("invalid type: sequence, expected a borrowed byte array"),
    );
    // A string where `Vec<u8>` (and so `FrameVec<'a, u8>`) wants a sequence.
    let read = check_json(br#"{"id":1,"data":"","parts":[],"maybe":null,"seq":"x","words":[]}"#);
    assert_eq!(read.arena, read.borrowed);
    assert!(read.arena.unwrap_err().contains("expected a sequence"));
}

#[test]
fn bytes_the_input_cannot_lend_are_copied() {
    let json = br#"{"id":3,"data":"raw","parts":["a"],"maybe":null,"seq":[1],"words":[2,3]}"#;
    let from_slice = check_json(json);
    assert!(from_slice.borrowed.is_ok(), "serde borrows from a slice");
    // From a reader nothing can be lent: serde's `&[u8]` refuses, the arena copies.
    let frame = FrameArena::new();
    let mut input = serde_json::Deserializer::from_reader(&json[..]);
    let arena = InArena::<arena::Blob<'_>>::new(&frame)
        .deserialize(&mut input)
        .unwrap();
    assert_eq!(format!("{arena:?}"), from_slice.arena.unwrap());
    let mut input = serde_json::Deserializer::from_reader(&json[..]);
    let serde = <borrowed::Blob<'_> as serde::Deserialize>::deserialize(&mut input).unwrap_err();
    assert!(
        serde.to_string().contains("expected a borrowed byte array"),
        "{serde}"
    );
    // serde's own value deserializers: transient bytes (copied) and borrowed.
    let transient = serde::de::value::BytesDeserializer::<serde::de::value::Error>::new(b"ab");
    assert_eq!(
        InArena::<&[u8]>::new(&frame)
            .deserialize(transient)
            .unwrap(),
        b"ab"
    );
    let lent = serde::de::value::BorrowedBytesDeserializer::<serde::de::value::Error>::new(b"cd");
    assert_eq!(
        InArena::<&[u8]>::new(&frame).deserialize(lent).unwrap(),
        b"cd"
    );
    let transient = serde::de::value::BytesDeserializer::<serde::de::value::Error>::new(b"ab");
    assert!(
        <&[u8] as serde::Deserialize>::deserialize(transient).is_err(),
        "serde's cannot"
    );
}

#[test]
fn bytes_count_against_the_decodes_byte_bound() {
    let arena = FrameArena::new();
    let json = format!("{:?}", "x".repeat(DEFAULT_MAX_BYTES + 1));
    let before = arena.used();
    let error = InArena::<&[u8]>::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(&json))
        .unwrap_err();
    assert!(error.to_string().contains("bytes of the arena"), "{error}");
    assert!(over_max_bytes(&arena) && arena.used() - before <= DEFAULT_MAX_BYTES);
    let small = FrameArena::builder().reserve(64 << 10).build().unwrap();
    let bytes = postcard::to_allocvec(&vec![7u8; 100 << 10]).unwrap();
    let refused = InArena::<&[u8]>::new(&small)
        .max_bytes(usize::MAX)
        .deserialize(&mut postcard::Deserializer::from_bytes(&bytes));
    assert!(refused.is_err() && tickarena::serde::arena_refused(&small));
}

/// serde's `flatten::lifetime_propagation`: a flattened map keyed by
/// `&'a [u8]`, whose keys are strings (JSON) read as their bytes.
#[test]
fn flattened_byte_keys_read_as_serdes() {
    #[derive(serde::Deserialize, Debug)]
    struct Keyed<'a> {
        id: u16,
        #[serde(flatten, borrow)]
        t: std::collections::HashMap<&'a [u8], u32>,
    }
    let json = r#"{"id":1,"x":42,"yz":7}"#;
    let frame = FrameArena::new();
    let arena = InArena::<arena::Keyed<'_>>::new(&frame)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    let serde: Keyed<'_> = serde_json::from_str(json).unwrap();
    assert_eq!((arena.id, arena.t.len()), (serde.id, serde.t.len()));
    for (key, value) in &serde.t {
        assert_eq!(arena.t.get(key), Some(value));
    }
    assert_eq!(arena.t.get(&b"x"[..]), Some(&42));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    /// Postcard: a random blob decodes to itself both ways; after each of
    /// up to four byte edits, both derives agree.
    #[test]
    fn postcard_bytes_read_as_serdes(
        (id, data, parts, maybe, seq, words) in blob(),
        edits in prop::collection::vec(byte_edit(), 1..5),
    ) {
        let sent = borrowed::Blob {
            id,
            data: &data,
            parts: parts.iter().map(Vec::as_slice).collect(),
            maybe: maybe.as_deref(),
            seq,
            words,
        };
        let mut bytes = postcard::to_allocvec(&sent).unwrap();
        prop_assert_eq!(check_postcard(&bytes), Ok(format!("{sent:?}")));
        for edit in &edits {
            apply_bytes(&mut bytes, edit);
            let _ = check_postcard(&bytes);
        }
    }

    /// Random bytes, most of them junk.
    #[test]
    fn random_postcard_bytes_read_as_serdes(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
        let _ = check_postcard(&bytes);
    }

    /// JSON: random documents (strings with and without escapes, the odd
    /// list where bytes go and string where a list goes), then mutated.
    #[test]
    fn json_bytes_read_as_serdes_made_to_copy(
        doc in doc(),
        edits in prop::collection::vec(byte_edit(), 1..5),
    ) {
        let mut text = doc.write().into_bytes();
        let read = check_json(&text);
        if !doc.seq_as_text && !doc.data_as_list {
            prop_assert!(read.arena.is_ok(), "{:?}", read.arena);
        }
        for edit in &edits {
            apply_bytes(&mut text, edit);
            check_json(&text);
        }
    }
}
