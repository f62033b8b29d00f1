//! Adversarial review of the derive's `#[inline]` / `NESTS_ITSELF`
//! (83d979e): types that recurse without naming themselves (mutually
//! recursive, through an alias), generic and enum recursion, a name
//! shared with another module's type; deep messages of each on a 2 MiB
//! thread must be the format's error.

#![allow(dead_code)]

use serde::de::DeserializeSeed;
use tickarena::serde::{DeserializeIn, InArena};
use tickarena::{DeserializeIn, FrameArena, FrameBox, FrameVec};

/// A holds Bs, a B holds an A: neither names itself.
#[derive(DeserializeIn, Debug)]
pub struct MutA<'a> {
    leaf: u8,
    #[serde(with = "tickarena::serde::vec")]
    bs: FrameVec<'a, MutB<'a>>,
}

#[derive(DeserializeIn, Debug)]
pub enum MutB<'a> {
    End(u8),
    A(#[serde(with = "tickarena::serde::boxed")] FrameBox<'a, MutA<'a>>),
}

/// Recursion through an alias: the field's tokens never name `Aliased`.
pub type Kids<'a> = FrameVec<'a, Aliased<'a>>;
#[derive(DeserializeIn, Debug)]
pub struct Aliased<'a> {
    leaf: u8,
    #[serde(with = "tickarena::serde::vec")]
    kids: Kids<'a>,
}

/// Recursion through `Self` (the derive takes no type parameters).
#[derive(DeserializeIn, Debug)]
pub struct GenTree<'a> {
    leaf: u8,
    #[serde(with = "tickarena::serde::vec")]
    kids: FrameVec<'a, Self>,
}

pub mod other {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    pub struct Tree(pub u8);
}

/// Named `Tree`, with a field of `other::Tree`: taken for self-naming
/// (only its speed changes), and still decodes.
#[derive(DeserializeIn, Debug)]
pub struct Tree {
    inner: other::Tree,
}

fn a_postcard(depth: usize) -> Vec<u8> {
    // MutA: leaf, len 1, B::A (variant 1), MutA ...; innermost: leaf, 0.
    let mut bytes = [0u8, 1, 1].repeat(depth);
    bytes.extend([0u8, 0]);
    bytes
}

fn tree_postcard(depth: usize) -> Vec<u8> {
    let mut bytes = [0u8, 1].repeat(depth);
    bytes.extend([0u8, 0]);
    bytes
}

fn postcard_in<'a, T: DeserializeIn<'a>>(
    arena: &'a FrameArena,
    bytes: &[u8],
) -> Result<T, postcard::Error> {
    InArena::<T>::new(arena).deserialize(&mut postcard::Deserializer::from_bytes(bytes))
}

#[test]
fn self_naming_edge_cases_decode() {
    let arena = FrameArena::new();
    let a: MutA<'_> = postcard_in(&arena, &a_postcard(20)).unwrap();
    assert_eq!(a.bs.len(), 1);
    let t: Aliased<'_> = postcard_in(&arena, &tree_postcard(20)).unwrap();
    assert_eq!((t.leaf, t.kids.len()), (0, 1));
    let g: GenTree<'_> = postcard_in(&arena, &tree_postcard(20)).unwrap();
    assert_eq!(g.kids.len(), 1);
    let n: Tree = postcard_in(&arena, &[7]).unwrap();
    assert_eq!(n.inner, other::Tree(7));
    // What the derive said of each (the hidden const).
    let said = [
        <MutA<'_> as DeserializeIn<'_>>::NESTS_ITSELF,
        <MutB<'_> as DeserializeIn<'_>>::NESTS_ITSELF,
        <Aliased<'_> as DeserializeIn<'_>>::NESTS_ITSELF,
        <GenTree<'_> as DeserializeIn<'_>>::NESTS_ITSELF,
        <Tree as DeserializeIn<'_>>::NESTS_ITSELF,
    ];
    eprintln!("NESTS_ITSELF: MutA, MutB, Aliased, GenTree, Tree = {said:?}");
}

/// Deep messages of the types the derive does not see recursing, on a
/// 2 MiB thread (child process): each decode is an error, the process
/// lives.
#[cfg(all(target_os = "linux", not(miri)))]
#[test]
fn deep_messages_of_hidden_recursion_are_errors_on_a_two_mib_stack() {
    const VAR: &str = "TICKARENA_REVIEW_NESTS_CHILD";
    if let Ok(depth) = std::env::var(VAR) {
        let depth: usize = depth.parse().unwrap();
        let errs = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let arena = FrameArena::new();
                [
                    postcard_in::<MutA<'_>>(&arena, &a_postcard(depth)).is_err(),
                    postcard_in::<Aliased<'_>>(&arena, &tree_postcard(depth)).is_err(),
                    postcard_in::<GenTree<'_>>(&arena, &tree_postcard(depth)).is_err(),
                ]
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(errs, [true; 3], "depth {depth}");
        println!("every decode {depth} deep was an error");
        return;
    }
    for depth in ["200", "1000", "100000"] {
        let output = crate::child_process::rerun_test(
            "review_nests::deep_messages_of_hidden_recursion_are_errors_on_a_two_mib_stack",
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
