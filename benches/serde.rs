//! Decoding a world snapshot (64 entities, each with a name, 0 to 8
//! components and a list of events with formatted text:
//! `examples/support/snapshot.rs`) from postcard and from JSON, decode plus
//! drop (or reset), three ways in one run:
//!
//! * `arena`: into a `FrameArena` with `InArena` (`#[derive(DeserializeIn)]`),
//!   the arena reset after each decode;
//! * `glibc`: into `String`s and `Vec`s with serde's own derive, on glibc's
//!   malloc, dropped after each decode;
//! * `mimalloc`, in its place in a process started with
//!   `TICKARENA_SERDE_HEAP=mimalloc`: the same on mimalloc (one allocator
//!   per process: see `support/switchable_alloc.rs`);
//! * `bump`, in its place with `TICKARENA_SERDE_HEAP=bump`: the same with
//!   every allocation a bump and every free nothing, the ceiling of any
//!   allocator under serde's derive;
//! * `parse_only` (JSON): serde_json walking the packet into
//!   `serde::de::IgnoredAny`, building nothing: the floor under any decode
//!   of it, the arena's included.
//!
//! Before measuring it prints each way's heap allocations per decode, and
//! checks the arena's is 0.
//!
//! ```sh
//! cargo bench -p tickarena-benches --bench serde
//! TICKARENA_SERDE_HEAP=mimalloc cargo bench -p tickarena-benches --bench serde
//! ```

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::InArena;

#[path = "../examples/support/snapshot.rs"]
mod snapshot;
#[path = "support/switchable_alloc.rs"]
mod switchable_alloc;

use snapshot::{HeapSnapshot, Snapshot};
use switchable_alloc::{Switchable, allocations, bumping, count_allocations, heap_name};

#[global_allocator]
static GLOBAL: Switchable = Switchable;

/// The packet, encoded once: postcard's bytes and JSON's.
fn packets() -> (Vec<u8>, Vec<u8>) {
    let arena = FrameArena::new();
    let snapshot = snapshot::snapshot(&arena, 12_345);
    (
        postcard::to_allocvec(&snapshot).unwrap(),
        serde_json::to_vec(&snapshot).unwrap(),
    )
}

fn arena_postcard<'a>(arena: &'a FrameArena, bytes: &[u8]) -> Snapshot<'a> {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    InArena::new(arena).deserialize(&mut input).unwrap()
}

fn arena_json<'a>(arena: &'a FrameArena, bytes: &[u8]) -> Snapshot<'a> {
    let mut input = serde_json::Deserializer::from_slice(bytes);
    InArena::new(arena).deserialize(&mut input).unwrap()
}

fn heap_postcard(bytes: &[u8]) -> HeapSnapshot {
    postcard::from_bytes(bytes).unwrap()
}

fn heap_json(bytes: &[u8]) -> HeapSnapshot {
    serde_json::from_slice(bytes).unwrap()
}

/// Heap allocations of one call of `f` (after one to warm up).
fn allocations_of(mut f: impl FnMut()) -> u64 {
    f();
    count_allocations(true);
    let before = allocations();
    f();
    let counted = allocations() - before;
    count_allocations(false);
    counted
}

/// A format: its name, the packet in it, and its decode into the arena
/// and onto the heap.
type Format<'b> = (
    &'static str,
    &'b [u8],
    for<'a> fn(&'a FrameArena, &[u8]) -> Snapshot<'a>,
    fn(&[u8]) -> HeapSnapshot,
);

fn decode(c: &mut Criterion) {
    let (postcard_bytes, json_bytes) = packets();
    let mut arena = FrameArena::new();
    let formats: [Format<'_>; 2] = [
        ("postcard", &postcard_bytes, arena_postcard, heap_postcard),
        ("json", &json_bytes, arena_json, heap_json),
    ];
    for (format, bytes, in_arena, on_heap) in formats {
        let arena_allocations = allocations_of(|| {
            black_box(in_arena(&arena, bytes));
        });
        let heap_allocations = allocations_of(|| drop(black_box(on_heap(bytes))));
        println!(
            "{format} ({} bytes): heap allocations per decode: arena {arena_allocations}, serde's derive {heap_allocations}",
            bytes.len()
        );
        assert_eq!(
            arena_allocations, 0,
            "the arena decode allocated on the heap"
        );
        arena.reset();

        let mut group = c.benchmark_group(format!("serde_{format}"));
        group.bench_function("arena", |b| {
            b.iter(|| {
                black_box(in_arena(&arena, black_box(bytes)));
                arena.reset();
            })
        });
        group.bench_function(heap_name(), |b| {
            bumping(|| b.iter(|| drop(black_box(on_heap(black_box(bytes))))))
        });
        if format == "json" {
            group.bench_function("parse_only", |b| {
                b.iter(|| {
                    serde_json::from_slice::<serde::de::IgnoredAny>(black_box(bytes)).unwrap()
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);
