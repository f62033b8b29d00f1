//! Allocation throughput, one "frame" per iteration:
//!
//! * `u64` ×10007 in the frame arena, in bumpalo and with `Box` (the global
//!   allocator, glibc malloc);
//! * values of 8 to 256 bytes ×10^4 in tickarena, bumpalo, bump-scope,
//!   typed-arena and `Box`.
//!
//! * a depth-first search over a seeded random DAG of 10^3 to 10^6 nodes
//!   built in tickarena, typed-arena, bumpalo, and with `Rc` (the global
//!   allocator): traversal time only, the graph is built once per size.
//!
//! The arenas are reset between iterations, inside the timing: the reset is
//! part of what a frame costs (typed-arena has no reset, so it gets a new
//! arena each frame, as it would be used).

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::FrameArena;

const COUNT: u64 = 10_007;

fn alloc_u64(c: &mut Criterion) {
    let mut group = c.benchmark_group("alloc_u64_x10007");
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            for i in 0..COUNT {
                black_box(arena.alloc(black_box(i)));
            }
            arena.reset();
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            for i in 0..COUNT {
                black_box(bump.alloc(black_box(i)));
            }
            bump.reset();
        });
    });
    group.bench_function("box_malloc", |b| {
        let mut boxes: Vec<Box<u64>> = Vec::with_capacity(COUNT as usize);
        b.iter(|| {
            for i in 0..COUNT {
                boxes.push(Box::new(black_box(i)));
            }
            black_box(&boxes);
            boxes.clear();
        });
    });
    group.finish();
}

/// Allocates `VALUES` values of `BYTES` bytes in every allocator.
fn alloc_sized<const WORDS: usize>(c: &mut Criterion) {
    const VALUES: u64 = 10_000;
    let bytes = WORDS * 8;
    let mut group = c.benchmark_group(format!("alloc_{bytes}B_x10k"));
    let value = |i: u64| [i; WORDS];
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(arena.alloc(value(black_box(i))));
            }
            arena.reset();
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(bump.alloc(value(black_box(i))));
            }
            bump.reset();
        });
    });
    group.bench_function("bump_scope", |b| {
        let mut bump: bump_scope::Bump = bump_scope::Bump::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(bump.alloc(value(black_box(i))).into_mut());
            }
            bump.reset();
        });
    });
    group.bench_function("typed_arena", |b| {
        b.iter(|| {
            let arena = typed_arena::Arena::new();
            for i in 0..VALUES {
                black_box(arena.alloc(value(black_box(i))));
            }
        });
    });
    group.bench_function("box_malloc", |b| {
        let mut boxes = Vec::with_capacity(VALUES as usize);
        b.iter(|| {
            for i in 0..VALUES {
                boxes.push(Box::new(value(black_box(i))));
            }
            black_box(&boxes);
            boxes.clear();
        });
    });
    group.finish();
}

/// A DAG node in an arena: children are earlier nodes. `seen` marks the
/// nodes visited by the current search, so each is visited once.
struct Node<'a> {
    value: u64,
    seen: Cell<u32>,
    children: &'a [&'a Node<'a>],
}

/// The same node with `Rc` edges, for the global allocator.
struct RcNode {
    value: u64,
    seen: Cell<u32>,
    children: Vec<Rc<RcNode>>,
}

/// The children of node `i` of an `n`-node DAG: up to three earlier nodes,
/// always including `i - 1` so the last node reaches them all. Seeded, so
/// every allocator gets the same graph.
fn children_of(i: usize, seed: &mut u64) -> impl Iterator<Item = usize> {
    let mut picks = [i.wrapping_sub(1); 3];
    for pick in &mut picks[1..] {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *pick = (*seed >> 33) as usize % i.max(1);
    }
    picks.into_iter().take(if i == 0 { 0 } else { 3 })
}

/// Builds the DAG with the given allocation functions; returns the last node.
fn build_dag<'a>(
    n: usize,
    mut alloc_node: impl FnMut(Node<'a>) -> &'a Node<'a>,
    mut alloc_children: impl FnMut(&[&'a Node<'a>]) -> &'a [&'a Node<'a>],
) -> &'a Node<'a> {
    let mut nodes: Vec<&'a Node<'a>> = Vec::with_capacity(n);
    let mut seed = 0x5EED;
    for i in 0..n {
        let children: Vec<&'a Node<'a>> = children_of(i, &mut seed).map(|j| nodes[j]).collect();
        let children = alloc_children(&children);
        nodes.push(alloc_node(Node {
            value: i as u64,
            seen: Cell::new(0),
            children,
        }));
    }
    nodes[n - 1]
}

/// The `Rc` DAG, all nodes oldest first; drop it with [`drop_rc_dag`].
fn build_rc_dag(n: usize) -> Vec<Rc<RcNode>> {
    let mut nodes: Vec<Rc<RcNode>> = Vec::with_capacity(n);
    let mut seed = 0x5EED;
    for i in 0..n {
        let children = children_of(i, &mut seed)
            .map(|j| Rc::clone(&nodes[j]))
            .collect();
        nodes.push(Rc::new(RcNode {
            value: i as u64,
            seen: Cell::new(0),
            children,
        }));
    }
    nodes
}

/// Drops the newest node first, so no drop recurses down the whole chain
/// (dropping the root first would recurse a million deep).
fn drop_rc_dag(mut nodes: Vec<Rc<RcNode>>) {
    while nodes.pop().is_some() {}
}

/// What the search needs of a node, in an arena or behind an `Rc`.
trait DagNode {
    fn value(&self) -> u64;
    fn seen(&self) -> &Cell<u32>;
    fn children(&self) -> impl Iterator<Item = &Self>;
}

impl DagNode for Node<'_> {
    fn value(&self) -> u64 {
        self.value
    }
    fn seen(&self) -> &Cell<u32> {
        &self.seen
    }
    fn children(&self) -> impl Iterator<Item = &Self> {
        self.children.iter().copied()
    }
}

impl DagNode for RcNode {
    fn value(&self) -> u64 {
        self.value
    }
    fn seen(&self) -> &Cell<u32> {
        &self.seen
    }
    fn children(&self) -> impl Iterator<Item = &Self> {
        self.children.iter().map(|child| &**child)
    }
}

/// Sums the values of every node reachable from `root`, each once.
fn dfs<N: DagNode>(root: &N, epoch: u32) -> u64 {
    let mut sum = 0;
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if node.seen().replace(epoch) == epoch {
            continue;
        }
        sum += node.value();
        pending.extend(node.children());
    }
    sum
}

fn dag_dfs(c: &mut Criterion) {
    let mut group = c.benchmark_group("dag_dfs");
    group.sample_size(20);
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        let expected = (n as u64) * (n as u64 - 1) / 2;
        // Each search marks the nodes it visits with a fresh epoch, checks it
        // saw every node once, then is timed.
        let mut epoch = 0;
        let mut bench_search = |name: &str, search: &dyn Fn(u32) -> u64| {
            epoch += 1;
            assert_eq!(search(epoch), expected, "every node visited once");
            group.bench_function(format!("{name}/{n}"), |b| {
                b.iter(|| {
                    epoch += 1;
                    black_box(search(epoch))
                })
            });
        };

        let arena = tickarena::FrameArena::new();
        let root = build_dag(
            n,
            |node| arena.alloc(node),
            |children| arena.alloc_slice_copy(children),
        );
        bench_search("tickarena", &|epoch| dfs(root, epoch));

        // The layout typed-arena gets by construction: nodes dense in one
        // arena, edge slices in another.
        let (nodes, edges) = (tickarena::FrameArena::new(), tickarena::FrameArena::new());
        let root = build_dag(
            n,
            |node| nodes.alloc(node),
            |children| edges.alloc_slice_copy(children),
        );
        bench_search("tickarena_two_arenas", &|epoch| dfs(root, epoch));

        let nodes = typed_arena::Arena::new();
        let edges = typed_arena::Arena::new();
        let root = build_dag(
            n,
            |node| &*nodes.alloc(node),
            |children| &*edges.alloc_extend(children.iter().copied()),
        );
        bench_search("typed_arena", &|epoch| dfs(root, epoch));

        let bump = bumpalo::Bump::new();
        let root = build_dag(
            n,
            |node| &*bump.alloc(node),
            |children| &*bump.alloc_slice_copy(children),
        );
        bench_search("bumpalo", &|epoch| dfs(root, epoch));

        let nodes = build_rc_dag(n);
        let root = nodes.last().unwrap();
        bench_search("rc_malloc", &|epoch| dfs(&**root, epoch));
        drop_rc_dag(nodes);
    }
    group.finish();
}

criterion_group!(
    benches,
    dag_dfs,
    alloc_u64,
    alloc_sized::<1>,
    alloc_sized::<2>,
    alloc_sized::<4>,
    alloc_sized::<8>,
    alloc_sized::<16>,
    alloc_sized::<32>
);
criterion_main!(benches);
