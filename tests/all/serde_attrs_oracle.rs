//! serde's own derive as the oracle of `#[derive(DeserializeIn)]` for
//! serde's attributes (`tests/models/serde_attrs_decode.rs`): random
//! packets of both families, written as postcard (the compact family),
//! JSON and serde_test's tokens, then mutated (postcard: bytes flipped,
//! inserted, deleted, truncated; JSON: keys dropped, renamed to an alias,
//! another field's or variant's name or an unknown one, values set to
//! `null` or to a value of another type, the text truncated; tokens:
//! tokens dropped, repeated, strings given as borrowed or owned, keys
//! and variants renamed, the list cut short), and each document decoded
//! by both derives: the same value or the same error message. Every
//! rename of a key or a name to one of its alternatives (an alias, the
//! name before `rename_all`, another variant's) is tried on each packet.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::Value as Json;
use tickarena::FrameArena;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::byte_edit::{apply_bytes, byte_edit};
use crate::models::serde_attrs_decode::{compact, doc, heap};
use crate::models::tokens::{self, Token};

/// Every key and variant name the families know (with their aliases and
/// the names before `rename_all`), and one they do not: what a renamed key
/// becomes.
const NAMES: &[&str] = &[
    "packetId",
    "packet_id",
    "userName",
    "nick",
    "handle",
    "retries",
    "level",
    "kindIn",
    "kind",
    "label",
    "code",
    "upper",
    "msg",
    "limits",
    "tags",
    "chat_line",
    "chat",
    "ChatLine",
    "move_to",
    "X",
    "Y",
    "x",
    "y",
    "idle",
    "unknown",
    "t",
    "c",
    "ping",
    "say",
    "pair",
    "move",
    "name",
    "max",
    "doc-id",
    "doc_id",
    "cached-len",
    "events",
    "value",
    "item",
    "owner",
    "author",
    "version",
    "type",
    "JOINED",
    "LEFT",
    "TICK",
    "NOTE",
    "UNKNOWN",
    "Joined",
    "reason",
    "text",
    "a",
    "b",
    "Named",
    "Code",
    "Raw",
    "zzz",
];

/// The names a key or variant may be written as instead of the one
/// written (aliases, the names before `rename_all`, other variants): what a
/// rename picks half of the time.
const ALTERNATIVES: &[(&str, &[&str])] = &[
    ("packetId", &["packet_id", "PacketId"]),
    ("userName", &["nick", "handle", "user_name"]),
    ("retries", &["Retries"]),
    ("kindIn", &["kind"]),
    ("chat_line", &["chat", "ChatLine", "idle", "unknown"]),
    ("move_to", &["MoveTo", "moveTo"]),
    ("idle", &["unknown", "chat_line", "zzz", "Idle"]),
    ("unknown", &["idle", "zzz"]),
    ("X", &["x"]),
    ("Y", &["y"]),
    ("limits", &["limit"]),
    ("name", &["zzz", "max"]),
    ("max", &["name", "Max"]),
    ("doc-id", &["doc_id", "docId"]),
    ("cached-len", &["cached_len"]),
    ("type", &["t", "tag"]),
    ("JOINED", &["Joined", "LEFT", "UNKNOWN", "zzz"]),
    ("LEFT", &["Left", "JOINED", "TICK"]),
    ("TICK", &["NOTE", "zzz", "UNKNOWN"]),
    ("NOTE", &["Note", "TICK", "JOINED"]),
    ("UNKNOWN", &["Unknown", "zzz"]),
    ("t", &["type", "c"]),
    ("c", &["t", "content"]),
    ("ping", &["say", "Ping", "zzz"]),
    ("say", &["ping", "pair", "move"]),
    ("pair", &["move", "say"]),
    ("move", &["pair", "Move"]),
    ("Named", &["Code", "Raw", "named"]),
    ("Code", &["Named", "Raw"]),
    ("owner", &["author", "Owner"]),
    ("version", &["Version"]),
    ("a", &["b"]),
    ("b", &["a"]),
    ("text", &["level", "Text"]),
];

/// What `name` becomes under `pick`: one of its alternatives (even picks,
/// where it has some), else one of all the names.
fn renamed(name: &str, pick: usize) -> &'static str {
    match ALTERNATIVES.iter().find(|(known, _)| *known == name) {
        Some((_, alternatives)) if pick % 2 == 0 => alternatives[pick / 2 % alternatives.len()],
        _ => NAMES[pick / 2 % NAMES.len()],
    }
}

const CHARS: &[char] = &['a', 'Z', ' ', '"', '\\', 'é', '😀', '\n'];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(CHARS), 0..5)
        .prop_map(|chars| chars.into_iter().collect())
}

/// Mostly short (a valid `Code`), sometimes too long.
fn code() -> impl Strategy<Value = heap::Code> {
    prop::collection::vec(prop::sample::select(CHARS), 0..5)
        .prop_map(|chars| heap::Code(chars.into_iter().collect()))
}

fn kind() -> impl Strategy<Value = heap::Kind> {
    prop_oneof![
        text().prop_map(heap::Kind::ChatLine),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| heap::Kind::MoveTo { x, y }),
        Just(heap::Kind::Idle),
        Just(heap::Kind::Unknown),
    ]
}

fn msg() -> impl Strategy<Value = heap::Msg> {
    prop_oneof![
        Just(heap::Msg::Ping),
        text().prop_map(heap::Msg::Say),
        (any::<u8>(), text()).prop_map(|(n, s)| heap::Msg::Pair(n, s)),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| heap::Msg::Move { x, y }),
    ]
}

fn compact() -> impl Strategy<Value = heap::Compact> {
    (
        (any::<u32>(), text(), any::<u8>(), 0..1200u16),
        (kind(), text(), code(), text()),
        (text(), any::<u32>(), prop::collection::vec(text(), 0..3)),
    )
        .prop_map(
            |(
                (packet_id, user_name, retries, level),
                (kind, label, code, upper),
                (name, max, tags),
            )| {
                heap::Compact {
                    packet_id,
                    user_name,
                    retries,
                    level,
                    kind,
                    label: heap::Label(label),
                    code,
                    upper: upper.into(),
                    limits: heap::Limits { name, max },
                    tags,
                }
            },
        )
}

fn event() -> impl Strategy<Value = heap::Event> {
    prop_oneof![
        text().prop_map(|name| heap::Event::Joined { name }),
        (text(), prop::option::of(text()))
            .prop_map(|(name, reason)| heap::Event::Left { name, reason }),
        Just(heap::Event::Tick),
        (text(), any::<u8>())
            .prop_map(|(text, level)| heap::Event::Note(heap::Note { text, level })),
        Just(heap::Event::Unknown),
    ]
}

fn value() -> impl Strategy<Value = heap::Value> {
    prop_oneof![
        any::<i64>().prop_map(heap::Value::Int),
        text().prop_map(heap::Value::Text),
        prop::collection::vec(any::<i64>(), 0..3).prop_map(heap::Value::List),
        (any::<u8>(), text()).prop_map(|(a, b)| heap::Value::Obj { a, b }),
    ]
}

fn item() -> impl Strategy<Value = heap::Item> {
    prop_oneof![
        text().prop_map(|name| heap::Item::Named { name }),
        any::<u32>().prop_map(heap::Item::Code),
        text().prop_map(heap::Item::Raw),
    ]
}

fn doc() -> impl Strategy<Value = heap::Doc> {
    (
        (
            any::<u64>(),
            any::<u32>(),
            prop::collection::vec(event(), 0..4),
        ),
        (value(), item(), msg(), text(), any::<u16>()),
    )
        .prop_map(
            |((doc_id, cached_len, events), (value, item, msg, owner, version))| heap::Doc {
                doc_id,
                cached_len,
                events,
                value,
                item,
                msg,
                meta: heap::Meta { owner, version },
            },
        )
}

/// One change to a JSON document: at the `n`-th object (in preorder,
/// modulo their count), its `k`-th key (modulo their count).
#[derive(Clone, Debug)]
enum JsonEdit {
    Drop(usize, usize),
    /// The key renamed (see [`renamed`]).
    Rename(usize, usize, usize),
    /// The `n`-th string value (in preorder, modulo their count) renamed
    /// (see [`renamed`]): a variant's name, an internal tag's.
    Restring(usize, usize),
    Null(usize, usize),
    /// The value replaced by one of another type.
    Retype(usize, usize, u8),
    /// The text cut at this many bytes (modulo its length).
    Truncate(usize),
}

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(n, k)| JsonEdit::Drop(n, k)),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(n, k, pick)| JsonEdit::Rename(n, k, pick)),
        (any::<usize>(), any::<usize>()).prop_map(|(n, pick)| JsonEdit::Restring(n, pick)),
        (any::<usize>(), any::<usize>()).prop_map(|(n, k)| JsonEdit::Null(n, k)),
        (any::<usize>(), any::<usize>(), 0..4u8).prop_map(|(n, k, t)| JsonEdit::Retype(n, k, t)),
        any::<usize>().prop_map(JsonEdit::Truncate),
    ]
}

/// Applies `edit` to the JSON text of `value`.
fn apply_json(value: &Json, edit: &JsonEdit) -> String {
    let mut value = value.clone();
    let (n, k) = match *edit {
        JsonEdit::Truncate(at) => {
            let text = value.to_string();
            let mut cut = at % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_owned();
        }
        JsonEdit::Restring(n, pick) => {
            let mut strings = Vec::new();
            collect_strings(&mut value, &mut strings);
            if !strings.is_empty() {
                let count = strings.len();
                let at = &mut strings[n % count];
                **at = Json::from(renamed(at.as_str().unwrap_or(""), pick));
            }
            return value.to_string();
        }
        JsonEdit::Drop(n, k)
        | JsonEdit::Rename(n, k, _)
        | JsonEdit::Null(n, k)
        | JsonEdit::Retype(n, k, _) => (n, k),
    };
    let count = count_objects(&value);
    if count > 0 {
        let map = nth_object(&mut value, n % count).expect("counted");
        if !map.is_empty() {
            let key = map.keys().nth(k % map.len()).expect("counted").clone();
            match *edit {
                JsonEdit::Drop(..) => {
                    map.remove(&key);
                }
                JsonEdit::Rename(_, _, pick) => {
                    let moved = map.remove(&key).expect("present");
                    map.insert(renamed(&key, pick).to_owned(), moved);
                }
                JsonEdit::Null(..) => {
                    map.insert(key, Json::Null);
                }
                JsonEdit::Retype(_, _, t) => {
                    let other = match t {
                        0 => Json::from(-3),
                        1 => Json::from("text"),
                        2 => Json::from(vec![1, 2]),
                        _ => Json::from(true),
                    };
                    map.insert(key, other);
                }
                JsonEdit::Truncate(_) | JsonEdit::Restring(..) => unreachable!(),
            }
        }
    }
    value.to_string()
}

/// Every document one rename away from `value`: each key of each object,
/// and each string value, renamed to each of its alternatives
/// ([`ALTERNATIVES`]; the names a field or variant is also read by, or
/// another's).
fn every_rename(value: &Json) -> Vec<String> {
    let mut out = Vec::new();
    for n in 0..count_objects(value) {
        let mut probe = value.clone();
        let keys: Vec<String> = nth_object(&mut probe, n)
            .expect("counted")
            .keys()
            .cloned()
            .collect();
        for key in keys {
            for &other in alternatives(&key) {
                let mut copy = value.clone();
                let map = nth_object(&mut copy, n).expect("counted");
                let moved = map.remove(&key).expect("present");
                map.insert(other.to_owned(), moved);
                out.push(copy.to_string());
            }
        }
    }
    let mut probe = value.clone();
    let mut strings = Vec::new();
    collect_strings(&mut probe, &mut strings);
    let texts: Vec<String> = strings
        .iter()
        .map(|s| s.as_str().unwrap_or("").to_owned())
        .collect();
    for (i, text) in texts.iter().enumerate() {
        for &other in alternatives(text) {
            let mut copy = value.clone();
            let mut strings = Vec::new();
            collect_strings(&mut copy, &mut strings);
            *strings[i] = Json::from(other);
            out.push(copy.to_string());
        }
    }
    out
}

/// Every token document one rename away from `doc`: each string and each
/// variant's name renamed to each of its alternatives.
fn every_token_rename(doc: &[Token]) -> Vec<Vec<Token>> {
    let mut out = Vec::new();
    for (i, token) in doc.iter().enumerate() {
        let name = match *token {
            Token::Str(name)
            | Token::UnitVariant { variant: name, .. }
            | Token::NewtypeVariant { variant: name, .. }
            | Token::TupleVariant { variant: name, .. }
            | Token::StructVariant { variant: name, .. } => name,
            _ => continue,
        };
        for &other in alternatives(name) {
            let mut copy = doc.to_vec();
            match &mut copy[i] {
                Token::Str(name)
                | Token::UnitVariant { variant: name, .. }
                | Token::NewtypeVariant { variant: name, .. }
                | Token::TupleVariant { variant: name, .. }
                | Token::StructVariant { variant: name, .. } => *name = other,
                _ => unreachable!(),
            }
            out.push(copy);
        }
    }
    out
}

/// The alternatives of `name` ([`ALTERNATIVES`]), none if it has none.
fn alternatives(name: &str) -> &'static [&'static str] {
    ALTERNATIVES
        .iter()
        .find(|(known, _)| *known == name)
        .map_or(&[], |(_, alternatives)| alternatives)
}

/// The string values of `value`, in preorder.
fn collect_strings<'v>(value: &'v mut Json, out: &mut Vec<&'v mut Json>) {
    match value {
        Json::String(_) => out.push(value),
        Json::Array(items) => items.iter_mut().for_each(|item| collect_strings(item, out)),
        Json::Object(map) => map.values_mut().for_each(|item| collect_strings(item, out)),
        _ => {}
    }
}

fn count_objects(value: &Json) -> usize {
    match value {
        Json::Object(map) => 1 + map.values().map(count_objects).sum::<usize>(),
        Json::Array(items) => items.iter().map(count_objects).sum(),
        _ => 0,
    }
}

/// The `n`-th object of `value` in preorder.
fn nth_object(value: &mut Json, n: usize) -> Option<&mut serde_json::Map<String, Json>> {
    fn find<'v>(
        value: &'v mut Json,
        n: &mut usize,
    ) -> Option<&'v mut serde_json::Map<String, Json>> {
        match value {
            Json::Object(_) if *n == 0 => match value {
                Json::Object(map) => Some(map),
                _ => None,
            },
            Json::Object(map) => {
                *n -= 1;
                map.values_mut().find_map(|v| find(v, n))
            }
            Json::Array(items) => items.iter_mut().find_map(|v| find(v, n)),
            _ => None,
        }
    }
    let mut n = n;
    find(value, &mut n)
}

/// One change to a token document; positions are taken modulo its length.
#[derive(Clone, Debug)]
enum TokenEdit {
    Drop(usize),
    Repeat(usize),
    /// A `Str` given as `BorrowedStr` (or `String` when `owned`).
    Borrowed(usize, bool),
    /// A `Str` renamed (see [`renamed`]).
    Rename(usize, usize),
    /// A variant token's variant renamed (see [`renamed`]).
    Variant(usize, usize),
    Truncate(usize),
}

fn token_edit() -> impl Strategy<Value = TokenEdit> {
    prop_oneof![
        any::<usize>().prop_map(TokenEdit::Drop),
        any::<usize>().prop_map(TokenEdit::Repeat),
        (any::<usize>(), any::<bool>()).prop_map(|(at, owned)| TokenEdit::Borrowed(at, owned)),
        (any::<usize>(), any::<usize>()).prop_map(|(at, pick)| TokenEdit::Rename(at, pick)),
        (any::<usize>(), any::<usize>()).prop_map(|(at, pick)| TokenEdit::Variant(at, pick)),
        any::<usize>().prop_map(TokenEdit::Truncate),
    ]
}

fn apply_tokens(doc: &mut Vec<Token>, edit: &TokenEdit) {
    let len = doc.len();
    if len == 0 {
        return;
    }
    match *edit {
        TokenEdit::Drop(at) => {
            doc.remove(at % len);
        }
        TokenEdit::Repeat(at) => doc.insert(at % len, doc[at % len]),
        TokenEdit::Borrowed(at, owned) => {
            // The first string at or after `at`, wrapping.
            if let Some(i) = (0..len)
                .map(|i| (at + i) % len)
                .find(|&i| matches!(doc[i], Token::Str(_)))
            {
                let Token::Str(text) = doc[i] else {
                    unreachable!()
                };
                doc[i] = if owned {
                    Token::String(text)
                } else {
                    Token::BorrowedStr(text)
                };
            }
        }
        TokenEdit::Rename(at, pick) => {
            if let Some(i) = (0..len)
                .map(|i| (at + i) % len)
                .find(|&i| matches!(doc[i], Token::Str(_)))
            {
                let Token::Str(name) = doc[i] else {
                    unreachable!()
                };
                doc[i] = Token::Str(renamed(name, pick));
            }
        }
        TokenEdit::Variant(at, pick) => {
            for i in (0..len).map(|i| (at + i) % len) {
                if let Token::UnitVariant { variant, .. }
                | Token::NewtypeVariant { variant, .. }
                | Token::TupleVariant { variant, .. }
                | Token::StructVariant { variant, .. } = &mut doc[i]
                {
                    *variant = renamed(variant, pick);
                    break;
                }
            }
        }
        TokenEdit::Truncate(at) => doc.truncate(at % (len + 1)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(128)))]

    #[test]
    fn compact_packets_decode_as_serdes_derive_reads_them(
        packet in compact(),
        byte_edits in prop::collection::vec(byte_edit(), 0..3),
        json_edits in prop::collection::vec(json_edit(), 0..3),
        token_edits in prop::collection::vec(token_edit(), 0..3),
    ) {
        let mut arena = FrameArena::new();
        let mut bytes = postcard::to_allocvec(&packet).unwrap();
        compact::check_postcard(&mut arena, &bytes);
        for edit in &byte_edits {
            apply_bytes(&mut bytes, edit);
            compact::check_postcard(&mut arena, &bytes);
        }
        let json = serde_json::to_value(&packet).unwrap();
        compact::check_json(&mut arena, &json.to_string());
        for text in every_rename(&json) {
            compact::check_json(&mut arena, &text);
        }
        for edit in &json_edits {
            compact::check_json(&mut arena, &apply_json(&json, edit));
        }
        let mut doc = tokens::to_tokens(&packet).unwrap();
        compact::check_tokens(&mut arena, &doc);
        for renamed in every_token_rename(&doc) {
            compact::check_tokens(&mut arena, &renamed);
        }
        for edit in &token_edits {
            apply_tokens(&mut doc, edit);
            compact::check_tokens(&mut arena, &doc);
        }
    }

    #[test]
    fn self_describing_docs_decode_as_serdes_derive_reads_them(
        packet in doc(),
        json_edits in prop::collection::vec(json_edit(), 0..3),
        token_edits in prop::collection::vec(token_edit(), 0..3),
    ) {
        let mut arena = FrameArena::new();
        let json = serde_json::to_value(&packet).unwrap();
        doc::check_json(&mut arena, &json.to_string());
        for text in every_rename(&json) {
            doc::check_json(&mut arena, &text);
        }
        for edit in &json_edits {
            doc::check_json(&mut arena, &apply_json(&json, edit));
        }
        let mut tokens = tokens::to_tokens(&packet).unwrap();
        doc::check_tokens(&mut arena, &tokens);
        for renamed in every_token_rename(&tokens) {
            doc::check_tokens(&mut arena, &renamed);
        }
        for edit in &token_edits {
            apply_tokens(&mut tokens, edit);
            doc::check_tokens(&mut arena, &tokens);
        }
    }
}

/// The generated documents are read by serde's derive (the reference is
/// not refusing everything): an unmutated packet decodes, but for a `Code`
/// of more than 3 characters or a level over 1000 (what `try_from` and
/// `deserialize_with` refuse), in every format.
#[test]
fn the_reference_reads_the_unmutated_packets() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..64 {
        let packet = compact().new_tree(&mut runner).unwrap().current();
        let valid = packet.code.0.chars().count() <= 3 && packet.level <= 1000;
        let bytes = postcard::to_allocvec(&packet).unwrap();
        assert_eq!(
            postcard::from_bytes::<heap::Compact>(&bytes).is_ok(),
            valid,
            "{packet:?}"
        );
        let json = serde_json::to_string(&packet).unwrap();
        assert_eq!(
            serde_json::from_str::<heap::Compact>(&json).is_ok(),
            valid,
            "{json}"
        );
        let list = tokens::to_tokens(&packet).unwrap();
        assert_eq!(
            tokens::heap::<heap::Compact>(&list).is_ok(),
            valid,
            "{list:?}"
        );

        let packet = doc().new_tree(&mut runner).unwrap().current();
        let json = serde_json::to_string(&packet).unwrap();
        serde_json::from_str::<heap::Doc>(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let list = tokens::to_tokens(&packet).unwrap();
        tokens::heap::<heap::Doc>(&list).unwrap_or_else(|e| panic!("{list:?}: {e}"));
    }
}
