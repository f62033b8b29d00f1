//! Elements that need dropping (a heap `String` read by serde's own
//! `Deserialize`, an arena list) are dropped: in a `FrameVec` when it
//! goes, and `&'a [T]` (which never drops) refuses such elements at
//! compile time (the `compile_fail` example on `DeserializeIn`).

use std::cell::Cell;

use serde::de::DeserializeSeed;
use tickarena::serde::InArena;
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

thread_local! {
    static DROPS: Cell<usize> = const { Cell::new(0) };
}

/// A name on the heap (read by `String`'s own `Deserialize`), its drops
/// counted.
#[derive(DeserializeIn)]
struct Named {
    #[allow(dead_code)]
    name: String,
}

impl Drop for Named {
    fn drop(&mut self) {
        DROPS.set(DROPS.get() + 1);
    }
}

#[derive(DeserializeIn)]
#[allow(dead_code)]
struct Roster<'a> {
    players: FrameVec<'a, FrameBox<'a, Named>>,
    teams: FrameVec<'a, FrameVec<'a, Named>>,
}

#[test]
fn a_frame_vec_drops_every_element_it_decoded() {
    let arena = FrameArena::new();
    let count = if cfg!(miri) { 50 } else { 1000 };
    let names: Vec<_> = (0..count)
        .map(|i| serde_json::json!({"name": format!("p{i}")}))
        .collect();
    let json = serde_json::json!({"players": names, "teams": [names, names]}).to_string();
    DROPS.set(0);
    // About 50 KB of JSON, past the default bound: bounded by its length.
    let roster: Roster<'_> = InArena::new(&arena)
        .for_input(json.len())
        .deserialize(&mut serde_json::Deserializer::from_str(&json))
        .unwrap();
    assert_eq!(DROPS.get(), 0);
    drop(roster);
    assert_eq!(DROPS.get(), 3 * count, "every heap name dropped");
    // A decode that fails midway drops what it had read.
    DROPS.set(0);
    let cut = &json[..json.len() / 2];
    assert!(
        InArena::<Roster<'_>>::new(&arena)
            .for_input(cut.len())
            .deserialize(&mut serde_json::Deserializer::from_str(cut))
            .is_err()
    );
    assert!(DROPS.get() > count, "{} dropped", DROPS.get());
}

/// `#[deserialize_in(no_heap)]` lets plain fields and arena data through
/// (a field that would own heap memory is refused at compile time: the
/// `compile_fail` example in `guide::serde`).
#[derive(DeserializeIn, Debug, PartialEq)]
#[deserialize_in(no_heap)]
enum Plain<'a> {
    Move { to: (i32, i32), speed: f32 },
    Say(&'a str),
    Keys(FrameVec<'a, u8>),
    Idle,
}

#[test]
fn a_no_heap_type_decodes_as_any_other() {
    let arena = FrameArena::new();
    let json = r#"[{"Move": {"to": [1, -2], "speed": 0.5}}, {"Say": "hi"}, {"Keys": [3]}, "Idle"]"#;
    let got: FrameVec<'_, Plain<'_>> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    assert_eq!(
        got[0],
        Plain::Move {
            to: (1, -2),
            speed: 0.5
        }
    );
    assert_eq!((&got[1], &got[3]), (&Plain::Say("hi"), &Plain::Idle));
    assert!(matches!(&got[2], Plain::Keys(keys) if keys[..] == [3]));
}

/// `no_heap` on a recursive message (a macro of commands, a box of
/// itself): the type's own `HEAP_FREE` does not name itself, so it
/// compiles, and decodes as any other.
#[derive(DeserializeIn, Debug)]
#[deserialize_in(no_heap)]
enum Script<'a> {
    Say(&'a str),
    Macro(FrameVec<'a, Self>),
    Then(Option<FrameBox<'a, Script<'a>>>, u8),
}

/// Two types that hold each other, without `no_heap`: they compile (their
/// `HEAP_FREE` is evaluated only where it is asked for).
#[derive(DeserializeIn, Debug)]
enum Expr<'a> {
    Num(i64),
    Block(FrameVec<'a, Stmt<'a>>),
}

#[derive(DeserializeIn, Debug)]
enum Stmt<'a> {
    Eval(Expr<'a>),
    Note(String),
}

fn heap_free<'a, T: tickarena::serde::DeserializeIn<'a>>() -> bool {
    T::HEAP_FREE
}

/// A derived type with a heap field, and everything that holds one, is
/// not `HEAP_FREE`; the arena's shapes around plain data are.
#[derive(DeserializeIn)]
#[allow(dead_code)]
struct Chat<'a> {
    to: &'a str,
    text: String,
}

#[test]
fn heap_free_reaches_nested_and_recursive_types() {
    assert!(!heap_free::<Named>());
    assert!(!heap_free::<Chat<'_>>());
    assert!(!heap_free::<Option<FrameBox<'_, (u8, Chat<'_>)>>>());
    assert!(!heap_free::<FrameVec<'_, [Chat<'_>; 2]>>());
    assert!(heap_free::<Plain<'_>>());
    assert!(heap_free::<Script<'_>>());
    assert!(heap_free::<(u8, &str, FrameVec<'_, Option<[f32; 3]>>)>());

    let arena = FrameArena::new();
    let json = r#"{"Macro": [{"Say": "a"}, {"Then": [{"Macro": []}, 2]}]}"#;
    let got: Script<'_> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    let Script::Macro(steps) = &got else {
        panic!("{got:?}")
    };
    assert!(matches!(&steps[0], Script::Say("a")));
    assert!(
        matches!(&steps[1], Script::Then(Some(inner), 2) if matches!(**inner, Script::Macro(ref m) if m.is_empty()))
    );

    let json = r#"{"Block": [{"Eval": {"Num": 3}}, {"Note": "n"}]}"#;
    let got: Expr<'_> = InArena::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .unwrap();
    let Expr::Block(block) = &got else {
        panic!("{got:?}")
    };
    assert!(matches!(block[0], Stmt::Eval(Expr::Num(3))));
    assert!(matches!(&block[1], Stmt::Note(note) if note == "n"));
}
