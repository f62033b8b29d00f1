//! serde's own derive as the oracle of `#[derive(DeserializeIn)]`
//! (`tests/models/serde_decode.rs`): random packets, encoded with postcard
//! and JSON, then mutated (postcard: bytes flipped, inserted, deleted,
//! truncated; JSON: keys dropped, reordered, added, duplicated, set to
//! `null`, values of the wrong type, list elements dropped, objects
//! written as lists, the text truncated), and each document decoded by
//! both derives: the same value or both an error.

use proptest::prelude::*;
use serde::de::DeserializeSeed;
use serde_json::Value;
use tickarena::FrameArena;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::byte_edit::{apply_bytes, byte_edit};
use crate::models::serde_decode::{
    HeapCommand, HeapId, HeapPacket, HeapPair, check_json, check_postcard,
};

const CHARS: &[char] = &['a', 'Z', ' ', '"', '\\', 'é', '€', '😀', '\n', '\u{0}'];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(CHARS), 0..6)
        .prop_map(|chars| chars.into_iter().collect())
}

fn command() -> impl Strategy<Value = HeapCommand> {
    let leaf = prop_oneof![
        Just(HeapCommand::Stop),
        text().prop_map(HeapCommand::Say),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| HeapCommand::Move(x, y)),
        (any::<u32>(), prop::option::of(text()), any::<u8>())
            .prop_map(|(to, what, count)| HeapCommand::Give { to, what, count }),
        any::<u8>().prop_map(HeapCommand::r#match),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(HeapCommand::Macro)
    })
}

fn packet() -> impl Strategy<Value = HeapPacket> {
    (
        (any::<u32>(), text(), prop::option::of(text()), any::<i16>()),
        (
            prop::option::of(any::<u8>()),
            prop::collection::vec(text(), 0..4),
        ),
        (
            prop::option::of(any::<u16>()),
            prop::collection::vec(command(), 0..4),
        ),
        // JSON has no NaN or infinity (serde_json writes `null`).
        (
            any::<f32>().prop_map(|f| if f.is_finite() { f } else { 0.25 }),
            any::<i64>(),
            text(),
            prop::option::of(any::<u8>()),
        ),
        (
            any::<u64>(),
            prop::option::of((any::<bool>(), any::<char>())),
        ),
    )
        .prop_map(
            |(
                (id, ty, name, score),
                (level, tags),
                (boxed, commands),
                (f, i, s, o),
                (id2, flags),
            )| {
                HeapPacket {
                    id,
                    r#type: ty,
                    name,
                    score,
                    level,
                    tags,
                    boxed: Box::new(boxed),
                    commands,
                    position: (f, i),
                    pair: HeapPair(s, o),
                    id2: HeapId(id2),
                    flags,
                }
            },
        )
}

/// A JSON document with its objects' keys in an order of our choosing
/// (serde_json's `Value` sorts them).
#[derive(Clone, Debug)]
enum Doc {
    /// A scalar, as JSON text.
    Raw(String),
    List(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

impl Doc {
    fn of(value: &Value) -> Doc {
        match value {
            Value::Array(items) => Doc::List(items.iter().map(Doc::of).collect()),
            Value::Object(map) => {
                Doc::Object(map.iter().map(|(k, v)| (k.clone(), Doc::of(v))).collect())
            }
            scalar => Doc::Raw(scalar.to_string()),
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Doc::Raw(text) => out.push_str(text),
            Doc::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Doc::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(key).unwrap());
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// The `n`-th object or list (modulo their count), in preorder.
    fn nth(&mut self, n: usize, object: bool) -> Option<&mut Doc> {
        fn count(doc: &Doc, object: bool) -> usize {
            let own = usize::from(match doc {
                Doc::Object(_) => object,
                Doc::List(_) => !object,
                Doc::Raw(_) => false,
            });
            own + match doc {
                Doc::List(items) => items.iter().map(|d| count(d, object)).sum(),
                Doc::Object(entries) => entries.iter().map(|(_, d)| count(d, object)).sum(),
                Doc::Raw(_) => 0,
            }
        }
        fn find<'d>(doc: &'d mut Doc, n: &mut usize, object: bool) -> Option<&'d mut Doc> {
            let hit = matches!(
                (&*doc, object),
                (Doc::Object(_), true) | (Doc::List(_), false)
            );
            if hit {
                if *n == 0 {
                    return Some(doc);
                }
                *n -= 1;
            }
            match doc {
                Doc::List(items) => items.iter_mut().find_map(|d| find(d, n, object)),
                Doc::Object(entries) => entries.iter_mut().find_map(|(_, d)| find(d, n, object)),
                Doc::Raw(_) => None,
            }
        }
        let total = count(self, object);
        if total == 0 {
            return None;
        }
        find(self, &mut (n % total), object)
    }
}

/// One change to a JSON document: `at` picks an object (or a list),
/// `key` one of its entries, both modulo their counts.
#[derive(Clone, Debug)]
enum JsonEdit {
    Drop {
        at: usize,
        key: usize,
    },
    Null {
        at: usize,
        key: usize,
    },
    Replace {
        at: usize,
        key: usize,
        value: &'static str,
    },
    Add {
        at: usize,
        key: &'static str,
        value: &'static str,
    },
    Rotate {
        at: usize,
        by: usize,
    },
    /// An object as the list of its values (serde's sequence form of a
    /// struct), in its current order.
    AsList {
        at: usize,
    },
    DropElement {
        at: usize,
        index: usize,
    },
    AddElement {
        at: usize,
        value: &'static str,
    },
    Truncate(usize),
}

/// Keys an edit adds: unknown ones, and the packet's own (a duplicate).
const KEYS: &[&str] = &[
    "extra", "id", "type", "r#type", "n", "name", "lvl", "level", "boxed", "Stop", "to",
];
/// Values an edit puts in: every JSON type, and the packet's own shapes.
const VALUES: &[&str] = &[
    "null",
    "true",
    "0",
    "-1",
    "300",
    "70000",
    "1.5",
    "1e400",
    r#""x""#,
    r#""Stop""#,
    r#""match""#,
    "[]",
    "[1]",
    r#"["a",1]"#,
    "{}",
    r#"{"Stop":null}"#,
    r#"{"say":"hi"}"#,
    r#""\u00e9""#,
];

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    let value = || prop::sample::select(VALUES);
    prop_oneof![
        3 => (any::<usize>(), any::<usize>()).prop_map(|(at, key)| JsonEdit::Drop { at, key }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(at, key)| JsonEdit::Null { at, key }),
        2 => (any::<usize>(), any::<usize>(), value())
            .prop_map(|(at, key, value)| JsonEdit::Replace { at, key, value }),
        2 => (any::<usize>(), prop::sample::select(KEYS), value())
            .prop_map(|(at, key, value)| JsonEdit::Add { at, key, value }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(at, by)| JsonEdit::Rotate { at, by }),
        1 => any::<usize>().prop_map(|at| JsonEdit::AsList { at }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(at, index)| JsonEdit::DropElement { at, index }),
        1 => (any::<usize>(), value()).prop_map(|(at, value)| JsonEdit::AddElement { at, value }),
        1 => any::<usize>().prop_map(JsonEdit::Truncate),
    ]
}

fn apply_json(doc: &mut Doc, edit: &JsonEdit) {
    // Scalars as they are (`1e400` is no `Value`), the rest through serde_json.
    let parse = |text: &str| match text.as_bytes()[0] {
        b'[' | b'{' => Doc::of(&serde_json::from_str(text).unwrap()),
        _ => Doc::Raw(text.to_owned()),
    };
    match *edit {
        JsonEdit::Drop { at, key }
        | JsonEdit::Null { at, key }
        | JsonEdit::Replace { at, key, .. } => {
            let Some(Doc::Object(entries)) = doc.nth(at, true) else {
                return;
            };
            if entries.is_empty() {
                return;
            }
            let key = key % entries.len();
            match edit {
                JsonEdit::Drop { .. } => {
                    entries.remove(key);
                }
                JsonEdit::Null { .. } => entries[key].1 = Doc::Raw("null".into()),
                JsonEdit::Replace { value, .. } => entries[key].1 = parse(value),
                _ => unreachable!(),
            }
        }
        JsonEdit::Add { at, key, value } => {
            if let Some(Doc::Object(entries)) = doc.nth(at, true) {
                let place = at % (entries.len() + 1);
                entries.insert(place, (key.to_owned(), parse(value)));
            }
        }
        JsonEdit::Rotate { at, by } => {
            if let Some(Doc::Object(entries)) = doc.nth(at, true)
                && !entries.is_empty()
            {
                let by = by % entries.len();
                entries.rotate_left(by);
            }
        }
        JsonEdit::AsList { at } => {
            if let Some(object @ Doc::Object(_)) = doc.nth(at, true) {
                let Doc::Object(entries) = std::mem::replace(object, Doc::List(Vec::new())) else {
                    unreachable!()
                };
                *object = Doc::List(entries.into_iter().map(|(_, value)| value).collect());
            }
        }
        JsonEdit::DropElement { at, index } => {
            if let Some(Doc::List(items)) = doc.nth(at, false)
                && !items.is_empty()
            {
                items.remove(index % items.len());
            }
        }
        JsonEdit::AddElement { at, value } => {
            if let Some(Doc::List(items)) = doc.nth(at, false) {
                items.push(parse(value));
            }
        }
        JsonEdit::Truncate(_) => {} // on the text
    }
}

fn arena() -> FrameArena {
    FrameArena::builder().reserve(16 << 20).build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    /// Postcard: the packet as written decodes to itself both ways; after
    /// each of up to four byte edits, both derives agree.
    #[test]
    fn postcard_decodes_as_serdes_derive_decodes(
        sent in packet(),
        edits in prop::collection::vec(byte_edit(), 1..5),
    ) {
        let mut arena = arena();
        let mut bytes = postcard::to_allocvec(&sent).unwrap();
        let heap = crate::models::serde_decode::arena_postcard(&arena, &bytes).unwrap();
        prop_assert_eq!(postcard::to_allocvec(&heap.0).unwrap(), bytes.clone());
        arena.reset();
        for edit in &edits {
            apply_bytes(&mut bytes, edit);
            check_postcard(&mut arena, &bytes);
        }
    }

    /// Random bytes, most of them junk.
    #[test]
    fn random_bytes_decode_as_serdes_derive_decodes(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        check_postcard(&mut arena(), &bytes);
    }

    /// JSON: the packet as serde writes it (fields in declaration order)
    /// and in serde_json's sorted order decodes to itself both ways; after
    /// each of up to four edits, both derives agree.
    #[test]
    fn json_decodes_as_serdes_derive_decodes(
        sent in packet(),
        edits in prop::collection::vec(json_edit(), 1..5),
    ) {
        let mut arena = arena();
        let written = serde_json::to_string(&sent).unwrap();
        let got = crate::models::serde_decode::arena_json(&arena, &written).unwrap();
        prop_assert_eq!(postcard::to_allocvec(&got.0).unwrap(), postcard::to_allocvec(&sent).unwrap());
        check_json(&mut arena, &written);
        let mut doc = Doc::of(&serde_json::to_value(&sent).unwrap());
        for edit in &edits {
            apply_json(&mut doc, edit);
            let mut text = String::new();
            doc.write(&mut text);
            if let JsonEdit::Truncate(at) = *edit {
                let mut at = at % (text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
            }
            check_json(&mut arena, &text);
        }
    }
}

/// The oracle sees what it is for: a dropped `Option` key decodes as
/// `None` both ways, a dropped required key is an error both ways.
#[test]
fn dropped_keys_are_none_or_errors_as_serde_says() {
    let sent = HeapPacket {
        id: 1,
        r#type: "t".into(),
        name: Some("n".into()),
        score: 2,
        level: Some(3),
        tags: vec!["a".into()],
        boxed: Box::new(Some(4)),
        commands: vec![HeapCommand::Give {
            to: 1,
            what: Some("w".into()),
            count: 2,
        }],
        position: (0.5, -1),
        pair: HeapPair("p".into(), Some(5)),
        id2: HeapId(6),
        flags: Some((true, 'x')),
    };
    let Value::Object(all) = serde_json::to_value(&sent).unwrap() else {
        unreachable!()
    };
    let mut arena = arena();
    let mut decoded = 0;
    for key in all.keys() {
        let mut less = all.clone();
        less.remove(key);
        let text = Value::Object(less).to_string();
        check_json(&mut arena, &text);
        decoded += usize::from(serde_json::from_str::<HeapPacket>(&text).is_ok());
    }
    // n, score, lvl, boxed, flags may go; the other seven may not.
    assert_eq!(decoded, 5);
}

/// Inputs the fuzzer found where the two derives once disagreed (in
/// `tests/data/fuzz_found/`, named by the target and the artifact's hash),
/// read both ways again. The first nests `Macro` lists past the depth
/// bound under lying length prefixes: under the default byte bound the
/// prefixes meet the bound first where a `Command` is 32 bytes (64-bit),
/// the depth bound where it is 16; under a bound of 1 MiB the depth bound
/// refuses; serde's derive reads on to a varint that never ends, and so
/// does the arena's decode with every bound lifted.
#[test]
fn inputs_the_fuzzer_found_decode_as_serdes_derive_decodes() {
    use tickarena::serde::{InArena, over_max_bytes, too_deep};
    let bomb = include_bytes!("../data/fuzz_found/serde_decode-021470a4.postcard");
    let mut arena = arena();
    check_postcard(&mut arena, bomb);
    let heap_error = crate::models::serde_decode::heap_postcard(bomb).unwrap_err();
    assert!(heap_error.contains("varint"), "{heap_error}");
    let arena_said = crate::models::serde_decode::arena_postcard(&arena, bomb);
    assert!(arena_said.is_err() && (over_max_bytes(&arena) || too_deep(&arena)));
    arena.reset();
    let mut input = postcard::Deserializer::from_bytes(bomb);
    let refused = InArena::<crate::models::serde_decode::Packet<'_>>::new(&arena)
        .max_bytes(1 << 20)
        .deserialize(&mut input)
        .is_err();
    assert!(refused && too_deep(&arena) && !over_max_bytes(&arena));
    // Every bound lifted, the stack's too (on a stack of 64 MiB, which a
    // browser's test has no thread for): serde's own error.
    #[cfg(not(target_family = "wasm"))]
    {
        let lifted = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let fresh = self::arena();
                let mut input = postcard::Deserializer::from_bytes(bomb);
                InArena::<crate::models::serde_decode::Packet<'_>>::new(&fresh)
                    .max_depth(u32::MAX)
                    .max_bytes(usize::MAX)
                    .max_stack(usize::MAX)
                    .deserialize(&mut input)
                    .map(|_| ())
                    .map_err(|error| error.to_string())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(lifted, Err(heap_error));
    }
}

/// A valid packet that the default byte bound refuses where serde's derive
/// reads it (`Stop`s, a wire byte each, 32 bytes each in the arena on
/// 64-bit targets, 16 on 32-bit ones, enough to pass the bound): the oracle
/// decodes it again with the bound lifted, and that agrees.
#[test]
fn a_packet_past_the_byte_bound_reads_alike_with_the_bound_lifted() {
    let stops = tickarena::serde::DEFAULT_MAX_BYTES
        / size_of::<crate::models::serde_decode::Command<'static>>()
        + 1;
    let sent = crate::models::serde_decode::HeapPacket {
        id: 1,
        r#type: "t".into(),
        name: None,
        score: 0,
        level: None,
        tags: vec![],
        boxed: Box::new(None),
        commands: vec![HeapCommand::Stop; stops],
        position: (0.0, 0),
        pair: HeapPair("p".into(), None),
        id2: HeapId(0),
        flags: None,
    };
    let bytes = postcard::to_allocvec(&sent).unwrap();
    let mut arena = arena();
    assert!(crate::models::serde_decode::arena_postcard(&arena, &bytes).is_err());
    assert!(tickarena::serde::over_max_bytes(&arena));
    arena.reset();
    check_postcard(&mut arena, &bytes);
}
