//! Deep nesting in a decode: a recursive message (a macro of commands, a
//! tree) nested 10^3 to 10^5 deep is the format's error on a 2 MiB thread
//! stack, never a stack overflow; the limit can be raised; and a level
//! of the arena's decode takes no more stack than one of serde's derive.

use std::cell::Cell;

use serde::de::DeserializeSeed;
use serde::{Deserialize, Serialize};
use tickarena::serde::InArena;
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// A leaf that notes how deep the stack is where it is read.
#[derive(Serialize, Debug, PartialEq)]
struct Leaf(u8);

thread_local! {
    static LEAF_STACK: Cell<usize> = const { Cell::new(0) };
}

impl<'de> Deserialize<'de> for Leaf {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Leaf, D::Error> {
        let value = u8::deserialize(deserializer)?;
        let here = 0u8;
        LEAF_STACK.set(std::hint::black_box(&here) as *const u8 as usize);
        Ok(Leaf(value))
    }
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
enum Command<'a> {
    Move(Leaf),
    Macro(#[serde(with = "tickarena::serde::vec")] FrameVec<'a, Command<'a>>),
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
struct Tree<'a> {
    leaf: Leaf,
    #[serde(with = "tickarena::serde::vec")]
    children: FrameVec<'a, Tree<'a>>,
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
enum Chain<'a> {
    End(Leaf),
    Next(#[serde(with = "tickarena::serde::boxed")] FrameBox<'a, Chain<'a>>),
}

/// serde's own derive on the heap shapes.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum HeapCommand {
    Move(Leaf),
    Macro(Vec<HeapCommand>),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[cfg_attr(any(miri, not(target_arch = "x86_64")), allow(dead_code))] // the stack figures' alone
struct HeapTree {
    leaf: Leaf,
    children: Vec<HeapTree>,
}

/// A command nested `depth` macros deep, in postcard.
fn command_postcard(depth: usize) -> Vec<u8> {
    let mut bytes = [1u8, 1].repeat(depth); // `Macro`, one element
    bytes.extend([0, 7]); // `Move(Leaf(7))`
    bytes
}

fn command_json(depth: usize) -> String {
    r#"{"Macro":["#.repeat(depth) + r#"{"Move":7}"# + &"]}".repeat(depth)
}

/// A tree nested `depth` deep (one child each), in postcard.
fn tree_postcard(depth: usize) -> Vec<u8> {
    let mut bytes = [7u8, 1].repeat(depth); // leaf, one child
    bytes.extend([7, 0]);
    bytes
}

fn chain_postcard(depth: usize) -> Vec<u8> {
    let mut bytes = [1u8].repeat(depth);
    bytes.extend([0, 7]);
    bytes
}

fn postcard_in<'a, T: tickarena::serde::DeserializeIn<'a>>(
    seed: InArena<'a, T>,
    bytes: &[u8],
) -> postcard::Result<T> {
    seed.deserialize(&mut postcard::Deserializer::from_bytes(bytes))
}

fn json_in<'a, T: tickarena::serde::DeserializeIn<'a>>(
    seed: InArena<'a, T>,
    json: &str,
) -> serde_json::Result<T> {
    seed.deserialize(&mut serde_json::Deserializer::from_str(json))
}

#[test]
fn nesting_within_the_limit_decodes_like_serdes_derive() {
    let arena = FrameArena::new();
    for depth in [0, 1, 5, 60] {
        let bytes = command_postcard(depth);
        let heap: HeapCommand = postcard::from_bytes(&bytes).unwrap();
        let got: Command<'_> = postcard_in(InArena::new(&arena), &bytes).unwrap();
        assert_eq!(
            postcard::to_allocvec(&got).unwrap(),
            postcard::to_allocvec(&heap).unwrap()
        );
        let json = command_json(depth);
        let got: Command<'_> = json_in(InArena::new(&arena), &json).unwrap();
        assert_eq!(serde_json::to_string(&got).unwrap(), json);
    }
}

#[test]
fn nesting_past_the_limit_is_the_formats_error() {
    let arena = FrameArena::new();
    let limit = tickarena::serde::DEFAULT_MAX_DEPTH;
    // Each list, map or box inside another is a level.
    let deepest_ok = limit as usize;
    assert!(
        postcard_in::<Command<'_>>(InArena::new(&arena), &command_postcard(deepest_ok)).is_ok()
    );
    let error = postcard_in::<Command<'_>>(InArena::new(&arena), &command_postcard(deepest_ok + 1))
        .unwrap_err();
    assert!(matches!(error, postcard::Error::SerdeDeCustom), "{error:?}");
    // A tree `d` deep has `d + 1` lists of children, the last one empty.
    assert!(postcard_in::<Tree<'_>>(InArena::new(&arena), &tree_postcard(deepest_ok - 1)).is_ok());
    assert!(postcard_in::<Tree<'_>>(InArena::new(&arena), &tree_postcard(deepest_ok)).is_err());
    assert!(postcard_in::<Chain<'_>>(InArena::new(&arena), &chain_postcard(deepest_ok)).is_ok());
    assert!(
        postcard_in::<Chain<'_>>(InArena::new(&arena), &chain_postcard(deepest_ok + 1)).is_err()
    );
    // JSON has its own limit (128 of its own levels, two per macro here):
    // past it, serde_json's error; ours names the setting.
    let error = json_in::<Command<'_>>(InArena::new(&arena), &command_json(200)).unwrap_err();
    assert!(error.to_string().contains("recursion limit"), "{error}");
    let mut input = serde_json::Deserializer::from_str(r#"[[[[1]]]]"#);
    let error = InArena::<FrameVec<'_, FrameVec<'_, FrameVec<'_, &[u16]>>>>::new(&arena)
        .max_depth(3)
        .deserialize(&mut input)
        .unwrap_err();
    assert!(
        error.to_string().contains("nested deeper than 3 levels"),
        "{error}"
    );
    // The count comes back after an error: the same decode works again.
    assert!(
        postcard_in::<Command<'_>>(InArena::new(&arena), &command_postcard(deepest_ok)).is_ok()
    );
}

#[test]
fn the_limit_can_be_raised_and_lowered() {
    let arena = FrameArena::new();
    let bytes = command_postcard(300);
    assert!(postcard_in::<Command<'_>>(InArena::new(&arena), &bytes).is_err());
    // The stack's bound off: the level count alone (300 levels of a debug
    // build take about as much as the default stack bound).
    let raised = |levels| InArena::new(&arena).max_depth(levels).max_stack(usize::MAX);
    let got = postcard_in::<Command<'_>>(raised(300), &bytes).unwrap();
    assert!(matches!(got, Command::Macro(_)));
    assert!(postcard_in::<Command<'_>>(raised(299), &bytes).is_err());
    assert!(
        postcard_in::<Command<'_>>(InArena::new(&arena).max_depth(10), &command_postcard(10))
            .is_ok()
    );
    assert!(
        postcard_in::<Command<'_>>(InArena::new(&arena).max_depth(10), &command_postcard(11))
            .is_err()
    );
    // The raised limit was for that decode only.
    assert!(postcard_in::<Command<'_>>(InArena::new(&arena), &bytes).is_err());
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_panic_midway_gives_the_count_back() {
    struct Bomb;
    impl<'de> Deserialize<'de> for Bomb {
        fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Bomb, D::Error> {
            panic!("a user's Deserialize panicked");
        }
    }
    #[derive(DeserializeIn)]
    #[allow(dead_code)]
    enum Boom<'a> {
        Bomb(Bomb),
        Nest(FrameVec<'a, Boom<'a>>),
    }
    let arena = FrameArena::new();
    let mut bytes = [1u8, 1].repeat(100);
    bytes.push(0);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = postcard_in::<Boom<'_>>(InArena::new(&arena), &bytes);
    }));
    assert!(caught.is_err());
    let limit = tickarena::serde::DEFAULT_MAX_DEPTH as usize;
    assert!(postcard_in::<Command<'_>>(InArena::new(&arena), &command_postcard(limit)).is_ok());
}

/// Stack bytes per level: where the leaf is read at two depths (10 and
/// 60), apart.
#[cfg_attr(any(miri, not(target_arch = "x86_64")), allow(dead_code))]
fn per_level(read: impl Fn(usize)) -> usize {
    let at = |depth| {
        read(depth);
        LEAF_STACK.get()
    };
    let (shallow, deep) = (at(10), at(60));
    (shallow - deep) / 50
}

// Not under Miri: its stack addresses are not a machine's. The figures
// are x86-64's (other targets' frames differ, serde's as well as ours).
#[cfg(all(not(miri), target_arch = "x86_64"))]
#[test]
fn a_level_takes_no_more_stack_than_serdes_derive() {
    let arena = FrameArena::new();
    let arena = &arena;
    fn raise<T>(arena: &FrameArena, depth: usize) -> InArena<'_, T> {
        InArena::new(arena).max_depth(depth as u32)
    }
    let figures = [
        (
            "command, postcard",
            per_level(|d| {
                drop(postcard_in::<Command<'_>>(raise(arena, d), &command_postcard(d)).unwrap())
            }),
            per_level(|d| drop(postcard::from_bytes::<HeapCommand>(&command_postcard(d)).unwrap())),
        ),
        (
            "tree, postcard",
            per_level(|d| {
                drop(postcard_in::<Tree<'_>>(raise(arena, d + 1), &tree_postcard(d)).unwrap())
            }),
            per_level(|d| drop(postcard::from_bytes::<HeapTree>(&tree_postcard(d)).unwrap())),
        ),
        (
            "command, JSON",
            per_level(|d| drop(json_in::<Command<'_>>(raise(arena, d), &command_json(d)).unwrap())),
            per_level(|d| drop(serde_json::from_str::<HeapCommand>(&command_json(d)).unwrap())),
        ),
    ];
    for (what, arena, serde) in figures {
        println!("{what}: the arena's decode {arena} bytes a level, serde's derive {serde}");
    }
    // Measured (x86-64, nightly-2026-10-29): release builds, the command
    // 128 bytes a level against serde's 192, a tree 192 against 160 (its
    // 40-byte element and 32-byte list against serde's 32 and 24, and the
    // list field's `Result`, where the two ways its seed decodes, a decode
    // started or running, meet), JSON 304 against 320; debug builds, the
    // command 1040 against 1008, a tree 1344 against 1392, JSON 1872
    // against 1712. Frames are 16-byte aligned and serde's own figure
    // moves by 16 between builds of the same code: release builds keep
    // the command and JSON within 16 bytes of serde's derive and a tree
    // within 32; debug builds within 1.10x of it.
    let release = !cfg!(debug_assertions);
    for (what, arena, serde) in figures {
        let bound = match (release, what) {
            (true, "tree, postcard") => serde + 32,
            (true, _) => serde + 16,
            (false, _) => serde * 11 / 10,
        };
        assert!(
            arena <= bound,
            "{what}: {arena} bytes a level against serde's {serde} (at most {bound})"
        );
    }
}

/// Runs in a child process, on a 2 MiB thread stack: each decode is an
/// error, and the process lives.
#[cfg(not(miri))]
#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn nesting_ten_to_the_fifth_deep_is_an_error_on_a_two_mib_stack() {
    const VAR: &str = "TICKARENA_SERDE_DEPTH_CHILD";
    if let Ok(depth) = std::env::var(VAR) {
        let depth: usize = depth.parse().unwrap();
        let decoded = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let arena = FrameArena::new();
                let command =
                    postcard_in::<Command<'_>>(InArena::new(&arena), &command_postcard(depth));
                let tree = postcard_in::<Tree<'_>>(InArena::new(&arena), &tree_postcard(depth));
                let chain = postcard_in::<Chain<'_>>(InArena::new(&arena), &chain_postcard(depth));
                let json = json_in::<Command<'_>>(InArena::new(&arena), &command_json(depth));
                [
                    command.is_err(),
                    tree.is_err(),
                    chain.is_err(),
                    json.is_err(),
                ]
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(decoded, [true; 4], "depth {depth}");
        println!("every decode {depth} deep was an error");
        return;
    }
    for depth in ["1000", "10000", "100000"] {
        let output = crate::child_process::rerun_test(
            "serde_depth::nesting_ten_to_the_fifth_deep_is_an_error_on_a_two_mib_stack",
            VAR,
            depth,
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("was an error"),
            "depth {depth}: {:?}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// A level of 4 KiB inline: 128 of them (the default level count) take
/// several MiB of stack in a debug build.
#[derive(DeserializeIn)]
#[allow(dead_code)] // `pad` is the level's size, never read (and under Miri, no child runs it)
struct Big<'a> {
    pad: [[u64; 32]; 16],
    kids: FrameVec<'a, Big<'a>>,
}

/// `Big` nested `depth` deep, in postcard: 512 zeros (the pad), then one
/// kid, a level; the innermost has none.
#[cfg_attr(miri, allow(dead_code))]
fn big_postcard(depth: usize) -> Vec<u8> {
    let mut level = vec![0u8; 512];
    level.push(1);
    let mut bytes = level.repeat(depth);
    bytes.extend([0u8; 512]);
    bytes.push(0);
    bytes
}

/// Runs in a child process, on a 2 MiB thread stack: a recursive type of
/// large levels nested within the default level count (100 of 128) is
/// the format's error (the stack bound), never a stack overflow; with
/// both limits raised, on a stack that holds it, it decodes.
#[cfg(not(miri))]
#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn large_levels_within_the_level_count_are_an_error_on_a_two_mib_stack() {
    const VAR: &str = "TICKARENA_SERDE_BIG_CHILD";
    if let Ok(case) = std::env::var(VAR) {
        let (stack, depth) = match case.as_str() {
            "default" => (2 << 20, 100),
            _ => (128 << 20, 300),
        };
        let kids = std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let arena = FrameArena::new();
                let mut seed = InArena::<Big<'_>>::new(&arena);
                if case != "default" {
                    // 300 levels of 4 KiB take 1.2 MiB of the arena:
                    // past the default byte bound too.
                    seed = seed.max_depth(1000).max_stack(96 << 20).max_bytes(8 << 20);
                }
                let bytes = big_postcard(depth);
                let mut input = postcard::Deserializer::from_bytes(&bytes);
                seed.deserialize(&mut input).map(|big| big.kids.len())
            })
            .unwrap()
            .join()
            .unwrap();
        match kids {
            Ok(kids) => println!("decoded, {kids} kid"),
            Err(error) => println!("an error: {error}"),
        }
        return;
    }
    for (case, expected) in [("default", "an error"), ("raised", "decoded, 1 kid")] {
        let output = crate::child_process::rerun_test(
            "serde_depth::large_levels_within_the_level_count_are_an_error_on_a_two_mib_stack",
            VAR,
            case,
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains(expected),
            "{case}: {:?}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
