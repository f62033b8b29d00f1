//! Types that derive `DeserializeIn` alone compose: one without a
//! lifetime (`Pos { x: f32, y: f32 }`) is a field of another, plain, in an
//! `Option`, an array, a tuple, a heap `Vec` or `Box`, an arena list,
//! flattened, in an enum's variants (externally, internally and
//! adjacently tagged, untagged), with no serde `Deserialize` on it; a type
//! with serde's `Deserialize` only (a heap `String`, a type of another
//! crate's) is a field as before. Against serde's derive on heap twins:
//! random messages in postcard and JSON, then mutated (bytes flipped,
//! inserted, deleted, the text truncated) and random JSON documents over
//! the types' keys: the same value (by `Debug`) or the same error.

use proptest::prelude::*;
use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::{DeserializeIn, InArena};

use crate::models::byte_edit::{apply_bytes, byte_edit};
use crate::serde_tagged::{document, same};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// A type of "another crate": serde's `Deserialize` only.
#[derive(serde::Deserialize, serde::Serialize, Debug, Clone, PartialEq)]
pub struct Legacy {
    pub id: u16,
}

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena {
    use tickarena::{DeserializeIn, FrameVec};

    use super::Legacy;

    #[derive(DeserializeIn, Debug)]
    pub struct Pos {
        pub x: f32,
        pub y: f32,
    }

    #[derive(DeserializeIn, Debug)]
    pub enum Kind {
        Scout,
        Tank(Pos),
        Jet { at: Pos, alt: u16 },
    }

    /// No lifetime anywhere: heap lists and boxes of derived types, and
    /// heap types with serde's `Deserialize` only.
    #[derive(DeserializeIn, Debug)]
    pub struct Path {
        pub points: Vec<Pos>,
        pub last: Option<Box<Pos>>,
        pub name: String,
        pub legacy: Legacy,
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Unit<'a> {
        pub name: &'a str,
        pub pos: Pos,
        pub kind: Kind,
        pub maybe: Option<Pos>,
        pub pair: [Pos; 2],
        pub trail: FrameVec<'a, Pos>,
        pub path: Path,
        pub both: (Pos, Kind),
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Extra {
        pub hp: u8,
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Placed<'a> {
        pub name: &'a str,
        #[serde(flatten)]
        pub pos: Pos,
        #[serde(flatten)]
        pub extra: Option<Extra>,
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(tag = "t")]
    pub enum Order<'a> {
        Move(Pos),
        Say { text: &'a str, at: Pos },
        Build { kind: Kind },
        Stop,
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Move(Pos),
        Path(Path),
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Target {
        At(Pos),
        Unit(u32),
        Kind(Kind),
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Orders<'a> {
        pub orders: FrameVec<'a, Order<'a>>,
        pub adjacent: Option<Adjacent>,
        pub target: Target,
    }

    /// Recursive without a lifetime, through a heap `Vec`: read through
    /// `DeserializeIn`, its lists count against the decode's depth.
    #[derive(DeserializeIn, Debug)]
    pub struct Nest {
        pub kids: Vec<Nest>,
    }

    /// A type with a heap field deep inside, for `HEAP_CAUSE`.
    #[derive(DeserializeIn, Debug)]
    pub struct Deep {
        pub text: String,
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Middle<'a> {
        pub seq: u32,
        pub inner: Option<Deep>,
        pub tag: &'a str,
    }

    #[derive(DeserializeIn, Debug)]
    pub struct Outer<'a> {
        pub plain: Pos,
        pub inputs: FrameVec<'a, Middle<'a>>,
    }
}

/// The same types, serde's derive, on the heap.
mod heap {
    use serde::{Deserialize, Serialize};

    use super::Legacy;

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Pos {
        pub x: f32,
        pub y: f32,
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub enum Kind {
        Scout,
        Tank(Pos),
        Jet { at: Pos, alt: u16 },
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Path {
        pub points: Vec<Pos>,
        pub last: Option<Box<Pos>>,
        pub name: String,
        pub legacy: Legacy,
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Unit {
        pub name: String,
        pub pos: Pos,
        pub kind: Kind,
        pub maybe: Option<Pos>,
        pub pair: [Pos; 2],
        pub trail: Vec<Pos>,
        pub path: Path,
        pub both: (Pos, Kind),
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Extra {
        pub hp: u8,
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Placed {
        pub name: String,
        #[serde(flatten)]
        pub pos: Pos,
        #[serde(flatten)]
        pub extra: Option<Extra>,
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    #[serde(tag = "t")]
    pub enum Order {
        Move(Pos),
        Say { text: String, at: Pos },
        Build { kind: Kind },
        Stop,
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Move(Pos),
        Path(Path),
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    #[serde(untagged)]
    pub enum Target {
        At(Pos),
        Unit(u32),
        Kind(Kind),
    }

    #[derive(Deserialize, Serialize, Debug, Clone, PartialEq)]
    pub struct Orders {
        pub orders: Vec<Order>,
        pub adjacent: Option<Adjacent>,
        pub target: Target,
    }
}

/// Every key and tag of the types, and some that are none of them.
const KEYS: &[&str] = &[
    "x", "y", "Scout", "Tank", "Jet", "at", "alt", "points", "last", "name", "legacy", "id", "pos",
    "kind", "maybe", "pair", "trail", "path", "both", "hp", "t", "c", "Move", "Say", "text",
    "Build", "Stop", "Path", "orders", "adjacent", "target", "other",
];

/// `bytes` as postcard, read whole by the arena type and by serde's
/// derive on its heap twin: each `Ok(Debug)` or `Err(message)`, asserted
/// equal, and returned.
macro_rules! postcard_same {
    ($arena:ty, $heap:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let frame = FrameArena::new();
        let mut input = postcard::Deserializer::from_bytes(bytes);
        let arena_side = InArena::<$arena>::new(&frame)
            .deserialize(&mut input)
            .map(|value| (format!("{value:?}"), input.finalize().map(<[u8]>::len).ok()))
            .map_err(|error| error.to_string());
        let heap_side = postcard::take_from_bytes::<$heap>(bytes)
            .map(|(value, rest)| (format!("{value:?}"), Some(rest.len())))
            .map_err(|error| error.to_string());
        assert_eq!(arena_side, heap_side, "the two derives differ on {bytes:?}");
        arena_side
    }};
}

/// `bytes` as JSON (any bytes: `from_slice`), read by both derives, as
/// [`same!`] reads text.
macro_rules! json_bytes_same {
    ($arena:ty, $heap:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let frame = FrameArena::new();
        let mut input = serde_json::Deserializer::from_slice(bytes);
        let arena_side = InArena::<$arena>::new(&frame)
            .deserialize(&mut input)
            .and_then(|value| input.end().map(|()| format!("{value:?}")))
            .map_err(|error| error.to_string());
        let mut input = serde_json::Deserializer::from_slice(bytes);
        let heap_side = <$heap as serde::Deserialize>::deserialize(&mut input)
            .and_then(|value| input.end().map(|()| format!("{value:?}")))
            .map_err(|error| error.to_string());
        assert_eq!(
            arena_side,
            heap_side,
            "the two derives differ on {}",
            String::from_utf8_lossy(bytes)
        );
        arena_side
    }};
}

fn pos() -> impl Strategy<Value = heap::Pos> {
    // Finite (JSON has no NaN): the same float both ways, whatever it is.
    let coordinate = prop_oneof![
        -1e6f32..1e6,
        Just(0.0),
        Just(-0.0),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE)
    ];
    (coordinate.clone(), coordinate).prop_map(|(x, y)| heap::Pos { x, y })
}

fn kind() -> impl Strategy<Value = heap::Kind> {
    prop_oneof![
        Just(heap::Kind::Scout),
        pos().prop_map(heap::Kind::Tank),
        (pos(), any::<u16>()).prop_map(|(at, alt)| heap::Kind::Jet { at, alt }),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&['a', 'é', '"', '\\', ' '][..]), 0..5)
        .prop_map(|chars| chars.into_iter().collect())
}

fn path() -> impl Strategy<Value = heap::Path> {
    (
        prop::collection::vec(pos(), 0..4),
        prop::option::of(pos().prop_map(Box::new)),
        text(),
        any::<u16>(),
    )
        .prop_map(|(points, last, name, id)| heap::Path {
            points,
            last,
            name,
            legacy: Legacy { id },
        })
}

fn unit() -> impl Strategy<Value = heap::Unit> {
    (
        (text(), pos(), kind(), prop::option::of(pos())),
        ([pos(), pos()], prop::collection::vec(pos(), 0..4), path()),
        (pos(), kind()),
    )
        .prop_map(
            |((name, pos, kind, maybe), (pair, trail, path), both)| heap::Unit {
                name,
                pos,
                kind,
                maybe,
                pair,
                trail,
                path,
                both,
            },
        )
}

fn order() -> impl Strategy<Value = heap::Order> {
    prop_oneof![
        pos().prop_map(heap::Order::Move),
        (text(), pos()).prop_map(|(text, at)| heap::Order::Say { text, at }),
        kind().prop_map(|kind| heap::Order::Build { kind }),
        Just(heap::Order::Stop),
    ]
}

fn orders() -> impl Strategy<Value = heap::Orders> {
    (
        prop::collection::vec(order(), 0..4),
        prop::option::of(prop_oneof![
            pos().prop_map(heap::Adjacent::Move),
            path().prop_map(heap::Adjacent::Path),
        ]),
        prop_oneof![
            pos().prop_map(heap::Target::At),
            any::<u32>().prop_map(heap::Target::Unit),
            kind().prop_map(heap::Target::Kind),
        ],
    )
        .prop_map(|(orders, adjacent, target)| heap::Orders {
            orders,
            adjacent,
            target,
        })
}

fn placed() -> impl Strategy<Value = heap::Placed> {
    (text(), pos(), prop::option::of(any::<u8>())).prop_map(|(name, pos, hp)| heap::Placed {
        name,
        pos,
        extra: hp.map(|hp| heap::Extra { hp }),
    })
}

#[test]
fn a_type_without_a_lifetime_is_a_field_of_every_shape() {
    let json = r#"{"name":"ann","pos":{"x":1,"y":2},"kind":{"Jet":{"at":[3,4],"alt":9}},
        "maybe":null,"pair":[{"x":5,"y":6},[7,8]],"trail":[[0,0]],
        "path":{"points":[[1,1]],"last":[2,2],"name":"p","legacy":{"id":3}},
        "both":[[9,9],"Scout"]}"#;
    let read = same!(arena::Unit<'_>, heap::Unit, json).unwrap();
    assert!(
        read.contains("Jet { at: Pos { x: 3.0, y: 4.0 }, alt: 9 }"),
        "{read}"
    );
    let placed = same!(
        arena::Placed<'_>,
        heap::Placed,
        r#"{"name":"a","x":1,"hp":2,"y":3}"#
    );
    assert_eq!(
        placed.unwrap(),
        r#"Placed { name: "a", pos: Pos { x: 1.0, y: 3.0 }, extra: Some(Extra { hp: 2 }) }"#
    );
    let orders = r#"{"orders":[{"t":"Move","x":1,"y":2},{"t":"Say","text":"hi","at":[0,1]},
        {"t":"Build","kind":{"Tank":[1,1]}},{"t":"Stop"}],
        "adjacent":{"t":"Path","c":{"points":[],"last":null,"name":"","legacy":{"id":1}}},
        "target":{"Jet":{"at":{"x":1,"y":1},"alt":2}}}"#;
    let read = same!(arena::Orders<'_>, heap::Orders, orders).unwrap();
    assert!(read.contains("target: Kind(Jet"), "{read}");
    // The errors of a wrong field inside are serde's, word for word.
    let wrong = same!(
        arena::Unit<'_>,
        heap::Unit,
        r#"{"name":"a","pos":{"x":"no"}}"#
    );
    assert!(
        wrong.unwrap_err().contains("expected f32"),
        "a message that says what was expected"
    );
}

#[test]
fn a_lifetime_less_type_is_read_through_deserialize_in() {
    // Its lists count against the decode's depth, as the arena's do:
    // read through serde's `Deserialize`, nothing would bound them.
    let arena = FrameArena::new();
    let nest = r#"{"kids":[{"kids":[{"kids":[{"kids":[]}]}]}]}"#;
    let read = |levels: u32| {
        InArena::<arena::Nest>::new(&arena)
            .max_depth(levels)
            .deserialize(&mut serde_json::Deserializer::from_str(nest))
            .map(|nest| nest.kids.len())
            .map_err(|error| error.to_string())
    };
    assert_eq!(read(4), Ok(1));
    let error = read(3).unwrap_err();
    assert!(error.contains("nested deeper than 3 levels"), "{error}");
}

#[test]
fn heap_free_follows_the_fields_whatever_reads_them() {
    fn heap_free<'a, T: DeserializeIn<'a>>() -> bool {
        T::HEAP_FREE
    }
    assert!(heap_free::<arena::Pos>());
    assert!(heap_free::<arena::Kind>());
    assert!(heap_free::<arena::Placed<'_>>());
    assert!(
        !heap_free::<arena::Path>(),
        "a heap `Vec`, `Box` and `String`"
    );
    assert!(!heap_free::<arena::Unit<'_>>());
    assert!(!heap_free::<Vec<arena::Pos>>() && !heap_free::<Box<arena::Pos>>());
    assert!(heap_free::<[arena::Pos; 3]>() && heap_free::<Option<arena::Kind>>());
}

/// What `#[deserialize_in(no_heap)]` names: the way from the field to the
/// field that owns heap memory, however deep.
#[test]
fn the_heap_cause_is_the_path_to_the_field_that_owns_it() {
    use tickarena::FrameVec;
    fn cause<'a, T: DeserializeIn<'a>>() -> String {
        T::HEAP_CAUSE.as_str().to_owned()
    }
    assert_eq!(cause::<arena::Pos>(), "");
    assert_eq!(cause::<arena::Deep>(), "`Deep::text` (`String`)");
    assert_eq!(
        cause::<FrameVec<'_, arena::Middle<'_>>>(),
        "`Middle::inner` → `Deep::text` (`String`)"
    );
    assert_eq!(
        cause::<arena::Outer<'_>>(),
        "`Outer::inputs` → `Middle::inner` → `Deep::text` (`String`)"
    );
    assert_eq!(
        cause::<arena::Path>(),
        "`Path::points` (`Vec<Pos>`)",
        "the first field that owns some"
    );
    assert_eq!(
        cause::<arena::Adjacent>(),
        "`Adjacent::Path::0` → `Path::points` (`Vec<Pos>`)",
        "a variant's field, by its variant"
    );
    // A path too long for its room is cut, at a character, with `…`.
    let long = tickarena::serde::__private::HeapCause::NONE.push(&"é".repeat(400));
    let text = long.as_str();
    assert!(
        text.ends_with('…') && text.len() <= 448,
        "{} bytes",
        text.len()
    );
    assert!(text.trim_end_matches('…').chars().all(|c| c == 'é'));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(128)))]

    /// Postcard: a random message decodes to itself both ways; after each
    /// of up to four byte edits, both derives agree.
    #[test]
    fn postcard_composes_as_serdes_derive(
        unit in unit(),
        orders in orders(),
        edits in prop::collection::vec(byte_edit(), 1..5),
    ) {
        let mut bytes = postcard::to_allocvec(&unit).unwrap();
        let read = postcard_same!(arena::Unit<'_>, heap::Unit, &bytes);
        prop_assert_eq!(read, Ok((format!("{unit:?}"), Some(0))));
        for edit in &edits {
            apply_bytes(&mut bytes, edit);
            let _ = postcard_same!(arena::Unit<'_>, heap::Unit, &bytes);
        }
        // Internally tagged and untagged enums need `deserialize_any`,
        // which postcard has not: both derives refuse them alike.
        let bytes = postcard::to_allocvec(&orders).unwrap();
        let _ = postcard_same!(arena::Orders<'_>, heap::Orders, &bytes);
    }

    /// JSON: a random message decodes to itself both ways; after each of
    /// up to four byte edits of its text, both derives agree.
    #[test]
    fn json_composes_as_serdes_derive(
        unit in unit(),
        orders in orders(),
        placed in placed(),
        edits in prop::collection::vec(byte_edit(), 1..5),
    ) {
        let mut unit_text = serde_json::to_vec(&unit).unwrap();
        let read = json_bytes_same!(arena::Unit<'_>, heap::Unit, &unit_text);
        prop_assert_eq!(read, Ok(format!("{unit:?}")));
        let mut orders_text = serde_json::to_vec(&orders).unwrap();
        let read = json_bytes_same!(arena::Orders<'_>, heap::Orders, &orders_text);
        prop_assert_eq!(read, Ok(format!("{orders:?}")));
        let mut placed_text = serde_json::to_vec(&placed).unwrap();
        let read = json_bytes_same!(arena::Placed<'_>, heap::Placed, &placed_text);
        prop_assert_eq!(read, Ok(format!("{placed:?}")));
        for edit in &edits {
            apply_bytes(&mut unit_text, edit);
            apply_bytes(&mut orders_text, edit);
            apply_bytes(&mut placed_text, edit);
            let _ = json_bytes_same!(arena::Unit<'_>, heap::Unit, &unit_text);
            let _ = json_bytes_same!(arena::Orders<'_>, heap::Orders, &orders_text);
            let _ = json_bytes_same!(arena::Placed<'_>, heap::Placed, &placed_text);
        }
    }

    /// Random JSON documents over the types' keys and tags.
    #[test]
    fn random_documents_compose_as_serdes_derive(json in document(KEYS)) {
        let _ = same!(arena::Unit<'_>, heap::Unit, &json);
        let _ = same!(arena::Placed<'_>, heap::Placed, &json);
        let _ = same!(arena::Orders<'_>, heap::Orders, &json);
        let _ = same!(arena::Order<'_>, heap::Order, &json);
        let _ = same!(arena::Target, heap::Target, &json);
        let _ = same!(arena::Adjacent, heap::Adjacent, &json);
        let _ = same!(arena::Path, heap::Path, &json);
    }
}
