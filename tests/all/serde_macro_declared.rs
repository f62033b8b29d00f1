//! Types declared by a `macro_rules!` macro, with the derive attribute
//! written inside the macro: the derive's own locals (the sequence and map
//! it reads) must not take the hygiene of the field types' tokens, which
//! come from the macro's caller. serde's derive compiles these; so must
//! `DeserializeIn`.

use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::InArena;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Each item twice, as protocol crates declare message types: the heap
/// twin with serde's derive, the arena twin (in `arena`) with
/// `DeserializeIn`.
macro_rules! twins {
    ($($item:item)*) => {
        // The fields are read by `Debug` only.
        #[allow(dead_code)]
        mod heap {
            $( #[derive(serde::Deserialize, Debug)] $item )*
        }
        #[allow(dead_code)]
        mod arena {
            $( #[derive(tickarena::DeserializeIn, Debug)] $item )*
        }
    };
}

twins! {
    pub struct Named {
        pub a: i8,
        #[serde(default)]
        pub b: u16,
    }
    pub struct Tuple(pub i8, pub u16);
    pub enum Shape {
        Line(i8, u16),
        Rect { w: u8, h: u8 },
    }
}

fn arena_json<'a, T: tickarena::serde::DeserializeIn<'a> + std::fmt::Debug>(
    arena: &'a FrameArena,
    text: &str,
) -> String {
    let mut input = serde_json::Deserializer::from_str(text);
    let value: T = InArena::new(arena).deserialize(&mut input).unwrap();
    format!("{value:?}")
}

#[test]
fn types_declared_by_a_macro_decode_as_serdes_derive_reads_them() {
    let arena = FrameArena::new();
    let named = r#"{"a": -1}"#;
    assert_eq!(
        arena_json::<arena::Named>(&arena, named),
        format!("{:?}", serde_json::from_str::<heap::Named>(named).unwrap())
    );
    let tuple = "[-1, 7]";
    assert_eq!(
        arena_json::<arena::Tuple>(&arena, tuple),
        format!("{:?}", serde_json::from_str::<heap::Tuple>(tuple).unwrap())
    );
    for shape in [r#"{"Line": [1, 2]}"#, r#"{"Rect": {"h": 3, "w": 4}}"#] {
        assert_eq!(
            arena_json::<arena::Shape>(&arena, shape),
            format!("{:?}", serde_json::from_str::<heap::Shape>(shape).unwrap())
        );
    }
}
