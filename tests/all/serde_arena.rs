//! serde into the frame arena: the snapshot packet (examples/support)
//! round-trips through postcard and JSON, the derive's attributes and
//! forms, and bad input: malformed, truncated, trailing, unknown tags,
//! wrong types, length bombs and a full arena are errors, never aborts.

use serde::de::DeserializeSeed;
use tickarena::serde::{DeserializeIn, InArena};
use tickarena::{
    DeserializeIn, FrameArena, FrameBox, FrameHashMap, FrameString, FrameVec, SegmentedList,
};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[path = "../../examples/support/snapshot.rs"]
mod snapshot;

use snapshot::{HeapSnapshot, Snapshot};

/// `bytes` decoded from postcard into `arena`, every byte used.
fn from_postcard<'a, T: DeserializeIn<'a>>(
    arena: &'a FrameArena,
    bytes: &[u8],
) -> postcard::Result<T> {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let value = InArena::new(arena).deserialize(&mut input)?;
    match input.finalize()? {
        [] => Ok(value),
        _ => Err(postcard::Error::DeserializeUnexpectedEnd),
    }
}

/// `json` decoded into `arena`, nothing but whitespace after it.
fn from_json<'a, T: DeserializeIn<'a>>(arena: &'a FrameArena, json: &str) -> serde_json::Result<T> {
    let mut input = serde_json::Deserializer::from_str(json);
    let value = InArena::new(arena).deserialize(&mut input)?;
    input.end()?;
    Ok(value)
}

#[test]
fn the_snapshot_round_trips_through_postcard_and_json() {
    let built = FrameArena::new();
    let sent = snapshot::snapshot(&built, 1000);
    let bytes = postcard::to_allocvec(&sent).unwrap();
    let json = serde_json::to_string(&sent).unwrap();
    let arena = FrameArena::new();
    let got: Snapshot<'_> = from_postcard(&arena, &bytes).unwrap();
    assert_eq!(got, sent);
    let used = arena.used();
    let again: Snapshot<'_> = from_json(&arena, &json).unwrap();
    assert_eq!(again, sent);
    assert!(used > 0 && arena.used() > used, "both in the arena");
    // serde's own derive reads the same bytes into the heap shape, and
    // writes the same bytes back: one encoding.
    let heap: HeapSnapshot = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(postcard::to_allocvec(&heap).unwrap(), bytes);
    let heap: HeapSnapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&heap).unwrap(), json);
}

#[test]
fn every_container_reads_into_the_arena() {
    let arena = FrameArena::new();
    let json = r#"{"list": [1, 2], "name": "ann", "boxed": [3, "x"], "map": {"a": [1], "b": []},
                   "segments": [5, 6, 7], "maybe": null, "pair": [true, "é"]}"#;
    #[derive(DeserializeIn, Debug)]
    struct All<'a> {
        list: FrameVec<'a, u16>,
        name: FrameString<'a>,
        boxed: FrameBox<'a, (u8, &'a str)>,
        map: FrameHashMap<'a, &'a str, &'a [u16]>,
        segments: SegmentedList<u64, &'a FrameArena>,
        maybe: Option<&'a str>,
        pair: (bool, char),
    }
    let all: All<'_> = from_json(&arena, json).unwrap();
    assert_eq!((&all.list[..], all.name.as_str()), (&[1, 2][..], "ann"));
    assert_eq!(*all.boxed, (3, "x"));
    assert_eq!((all.map["a"], all.map["b"]), (&[1][..], &[][..]));
    assert_eq!(all.segments.iter().sum::<u64>(), 18);
    assert_eq!((all.maybe, all.pair), (None, (true, 'é')));
    let array: [FrameString<'_>; 2] = from_json(&arena, r#"["a", "b"]"#).unwrap();
    assert_eq!(array[1], "b");
}

/// The derive's serde attributes, its map and sequence forms.
mod attributes {
    use serde::Serialize;
    use tickarena::{DeserializeIn, FrameArena, FrameVec};

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{from_json, from_postcard};

    #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
    struct Player<'a> {
        #[serde(rename = "n")]
        name: &'a str,
        #[serde(default)]
        score: u32,
        #[serde(skip)]
        cached: u64,
        #[serde(serialize_with = "tickarena::serde::vec::serialize")]
        items: FrameVec<'a, &'a str>,
        position: (i32, i32), // no arena lifetime: its own `Deserialize`
    }

    #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
    struct Id(u32);

    #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
    struct Pair<'a>(&'a str, u8);

    #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
    struct Ping;

    #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
    enum Command<'a> {
        Stop,
        #[serde(rename = "say")]
        Say(&'a str),
        Move(i32, i32),
        Give {
            to: u32,
            what: &'a str,
        },
    }

    #[test]
    fn json_objects_with_renames_defaults_skips_and_unknown_fields() {
        let arena = FrameArena::new();
        let json = r#"{"n": "ann", "items": ["sword"], "position": [1, 2], "extra": {"x": 1}}"#;
        let player: Player<'_> = from_json(&arena, json).unwrap();
        assert_eq!((player.name, player.score, player.cached), ("ann", 0, 0));
        assert_eq!(
            (&player.items[..], player.position),
            (&["sword"][..], (1, 2))
        );
        let missing = from_json::<Player<'_>>(&arena, r#"{"n": "ann", "position": [1, 2]}"#);
        assert!(
            missing
                .unwrap_err()
                .to_string()
                .contains("missing field `items`")
        );
        let twice = from_json::<Player<'_>>(
            &arena,
            r#"{"n": "a", "n": "b", "items": [], "position": [0, 0]}"#,
        );
        assert!(
            twice
                .unwrap_err()
                .to_string()
                .contains("duplicate field `n`")
        );
    }

    #[test]
    fn sequences_newtypes_units_and_every_kind_of_variant_round_trip() {
        let arena = FrameArena::new();
        let player = Player {
            name: "bob",
            score: 7,
            cached: 0,
            items: tickarena::vec_in![&arena; "a", "b"],
            position: (-1, 5),
        };
        let commands = [
            Command::Stop,
            Command::Say("hi"),
            Command::Move(1, -2),
            Command::Give { to: 3, what: "gem" },
        ];
        let bytes =
            postcard::to_allocvec(&(&player, Id(9), Pair("p", 2), Ping, &commands[..])).unwrap();
        type All<'a> = (Player<'a>, Id, Pair<'a>, Ping, &'a [Command<'a>]);
        let (p, id, pair, ping, got): All<'_> = from_postcard(&arena, &bytes).unwrap();
        assert_eq!((p, id, pair, ping), (player, Id(9), Pair("p", 2), Ping));
        assert_eq!(got, commands);
        // JSON: variants by (renamed) name, a struct as an array too.
        let json = serde_json::to_string(&commands).unwrap();
        assert!(json.contains(r#"{"say":"hi"}"#), "{json}");
        let got: &[Command<'_>] = from_json(&arena, &json).unwrap();
        assert_eq!(got, commands);
        let as_array: Player<'_> = from_json(&arena, r#"["cy", 3, ["x"], [0, 1]]"#).unwrap();
        assert_eq!(
            (as_array.name, as_array.score, as_array.items.len()),
            ("cy", 3, 1)
        );
    }

    #[test]
    fn unknown_variants_and_wrong_types_are_the_formats_errors() {
        let arena = FrameArena::new();
        let unknown = from_json::<Command<'_>>(&arena, r#"{"Jump": 1}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown variant `Jump`"),
            "{unknown}"
        );
        let tag = from_postcard::<Command<'_>>(&arena, &[9]).unwrap_err();
        assert!(matches!(tag, postcard::Error::SerdeDeCustom), "{tag:?}");
        let wrong = from_json::<Player<'_>>(&arena, r#"{"n": 5}"#).unwrap_err();
        assert!(wrong.to_string().contains("invalid type"), "{wrong}");
    }
}

#[test]
fn malformed_truncated_and_trailing_bytes_are_errors() {
    let built = FrameArena::new();
    let bytes = postcard::to_allocvec(&snapshot::snapshot(&built, 5)).unwrap();
    let arena = FrameArena::new();
    for cut in [0, 1, bytes.len() / 3, bytes.len() - 1] {
        assert!(
            from_postcard::<Snapshot<'_>>(&arena, &bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(from_postcard::<Snapshot<'_>>(&arena, &trailing).is_err());
    assert!(from_json::<Snapshot<'_>>(&arena, r#"{"tick": 1, "entities": []} x"#).is_err());
    let mut bad_utf8 = postcard::to_allocvec(&"abc").unwrap();
    bad_utf8[2] = 0xFF;
    assert!(from_postcard::<&str>(&arena, &bad_utf8).is_err());
}

#[test]
fn a_length_bomb_is_refused_before_anything_is_reserved() {
    // A postcard list that claims 2^40 elements, then ends.
    let bomb = postcard_length_bomb();
    // The arena's peak, not `used()` (back to 0 once the error dropped
    // the list): what the lie was given while it lasted.
    let peaks = [
        {
            let arena = FrameArena::new();
            assert!(from_postcard::<FrameVec<'_, u64>>(&arena, &bomb).is_err());
            arena.peak()
        },
        {
            let arena = FrameArena::new();
            assert!(from_postcard::<&[&str]>(&arena, &bomb).is_err());
            arena.peak()
        },
        {
            let arena = FrameArena::new();
            assert!(from_postcard::<FrameHashMap<'_, u32, u32>>(&arena, &bomb).is_err());
            arena.peak()
        },
        {
            let arena = FrameArena::new();
            assert!(from_postcard::<SegmentedList<u8, &FrameArena>>(&arena, &bomb).is_err());
            arena.peak()
        },
    ];
    for peak in peaks {
        assert!(
            peak <= tickarena::serde::CAUTIOUS_BYTES,
            "reserved {peak} bytes for a lie"
        );
    }
}

#[test]
fn a_decode_that_would_exhaust_the_arena_is_an_error() {
    // Small sizes: Miri runs this too.
    let big = "x".repeat(10 << 10);
    let bytes = postcard::to_allocvec(&(&big, vec![7u32; 3_000])).unwrap();
    let small = FrameArena::builder().reserve(8 << 10).build().unwrap();
    let error = from_postcard::<(&str, &[u32])>(&small, &bytes).unwrap_err();
    assert!(matches!(error, postcard::Error::SerdeDeCustom), "{error:?}");
    let json = serde_json::to_string(&vec![big.as_str(); 2]).unwrap();
    let error = from_json::<FrameVec<'_, FrameString<'_>>>(&small, &json).unwrap_err();
    assert!(
        error.to_string().contains("frame arena cannot hold"),
        "{error}"
    );
    let mut small = small;
    small.reset();
    // Still serving after the refusals.
    let fits: &str = from_postcard(&small, &postcard::to_allocvec(&"ok").unwrap()).unwrap();
    assert_eq!(fits, "ok");
}

/// A postcard length prefix claiming 2^40 elements (a varint), then three
/// bytes: all a lying sender has to send.
pub(crate) fn postcard_length_bomb() -> Vec<u8> {
    let mut bomb = Vec::new();
    let mut claim: u64 = 1 << 40;
    while claim >= 0x80 {
        bomb.push((claim as u8) | 0x80);
        claim >>= 7;
    }
    bomb.push(claim as u8);
    bomb.extend_from_slice(&[1, 2, 3]);
    bomb
}
