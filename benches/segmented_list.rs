//! `SegmentedList` against `Vec` and the segmented lists on crates.io
//! (`segmented-vec`, `orx-split-vec`, `segvec`): push of small, 40-byte and
//! boxed 1 MiB elements into a fresh list, a sum of 1M elements by random
//! index, and a sum of 1M elements by iteration.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use orx_split_vec::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tickarena::SegmentedList;

/// The operations every contender offers, under one name.
trait List<T>: Sized {
    const NAME: &'static str;
    fn new() -> Self;
    fn push(&mut self, value: T);
    fn get(&self, index: usize) -> Option<&T>;
    fn sum(&self) -> u64
    where
        T: Copy + Into<u64>;
}

macro_rules! list_impl {
    ($name:literal, $type:ty, push: $push:expr, get: $get:expr, iter: $iter:expr) => {
        impl<T> List<T> for $type {
            const NAME: &'static str = $name;
            fn new() -> Self {
                <$type>::new()
            }
            #[inline]
            fn push(&mut self, value: T) {
                $push(self, value)
            }
            #[inline]
            fn get(&self, index: usize) -> Option<&T> {
                $get(self, index)
            }
            fn sum(&self) -> u64
            where
                T: Copy + Into<u64>,
            {
                $iter(self).map(|&x| x.into()).sum()
            }
        }
    };
}

list_impl!("vec", Vec<T>, push: Vec::push, get: <[T]>::get, iter: <[T]>::iter);
list_impl!("tickarena", SegmentedList<T>,
    push: SegmentedList::push, get: SegmentedList::get, iter: SegmentedList::iter);
list_impl!("segmented_vec", segmented_vec::SegmentedVec<T>,
    push: segmented_vec::SegmentedVec::push, get: segmented_vec::SegmentedVec::get,
    iter: segmented_vec::SegmentedVec::iter);
list_impl!("orx_split_vec", SplitVec<T>,
    push: PinnedVec::push, get: PinnedVec::get, iter: split_vec_iter);
list_impl!("segvec", segvec::SegVec<T>,
    push: segvec::SegVec::push, get: segvec::SegVec::get, iter: segvec::SegVec::iter);

/// `SplitVec` iterates through `IntoIterator for &SplitVec`.
fn split_vec_iter<T>(list: &SplitVec<T>) -> impl Iterator<Item = &T> {
    list.into_iter()
}

const BIG: usize = 1 << 20;

fn push_u64<L: List<u64>>(c: &mut Criterion) {
    c.bench_function(&format!("push_u64_x10k/{}", L::NAME), |b| {
        b.iter(|| {
            let mut list = L::new();
            for i in 0..10_000u64 {
                list.push(black_box(i));
            }
            list
        })
    });
}

fn push_40_bytes<L: List<[u64; 5]>>(c: &mut Criterion) {
    c.bench_function(&format!("push_40B_x1k/{}", L::NAME), |b| {
        b.iter(|| {
            let mut list = L::new();
            for i in 0..1_000u64 {
                list.push(black_box([i; 5]));
            }
            list
        })
    });
}

fn push_boxed_mebibytes<L: List<Box<[u8]>>>(c: &mut Criterion) {
    c.bench_function(&format!("push_1MiB_box_x50/{}", L::NAME), |b| {
        b.iter_batched(
            || {
                (0..50)
                    .map(|i| vec![i as u8; BIG].into_boxed_slice())
                    .collect::<Vec<_>>()
            },
            |boxes| {
                let mut list = L::new();
                for element in boxes {
                    list.push(element);
                }
                list
            },
            BatchSize::PerIteration,
        )
    });
}

fn filled<L: List<u64>>(n: usize) -> L {
    let mut list = L::new();
    for i in 0..n as u64 {
        list.push(i);
    }
    list
}

fn sum_random<L: List<u64>>(c: &mut Criterion, indices: &[usize]) {
    let list: L = filled(indices.len());
    c.bench_function(&format!("sum_1M_random_index/{}", L::NAME), |b| {
        b.iter(|| indices.iter().map(|&i| *list.get(i).unwrap()).sum::<u64>())
    });
}

fn sum_iter<L: List<u64>>(c: &mut Criterion, n: usize) {
    let list: L = filled(n);
    c.bench_function(&format!("sum_1M_iter/{}", L::NAME), |b| {
        b.iter(|| black_box(&list).sum())
    });
}

/// Sums a `Vec` and a `SegmentedList` of `n` elements the ways a game
/// writes it (`iter().sum()`, slice by slice over `segments()`, a `for`
/// loop), warm (the data in cache from the last run) and cold (a 64 MiB
/// sweep of another buffer before each run, untimed, evicts it).
fn sum_loops(c: &mut Criterion, n: usize) {
    let vec: Vec<u64> = (0..n as u64).collect();
    let list: SegmentedList<u64> = (0..n as u64).collect();
    let mut evictor = vec![0u8; 64 << 20];
    let mut sweep = move || {
        evictor
            .iter_mut()
            .for_each(|byte| *byte = byte.wrapping_add(1));
        black_box(&evictor);
    };
    type Sum<'a> = Box<dyn Fn() -> u64 + 'a>;
    let loops: [(&str, Sum<'_>); 5] = [
        ("vec_iter", Box::new(|| black_box(&vec).iter().sum())),
        ("tickarena_iter", Box::new(|| black_box(&list).iter().sum())),
        (
            "tickarena_segments",
            Box::new(|| {
                black_box(&list)
                    .segments()
                    .map(|s| s.iter().sum::<u64>())
                    .sum()
            }),
        ),
        (
            "vec_for",
            Box::new(|| {
                let mut sum = 0;
                for x in black_box(&vec) {
                    sum += x;
                }
                sum
            }),
        ),
        (
            "tickarena_for",
            Box::new(|| {
                let mut sum = 0;
                for x in black_box(&list) {
                    sum += x;
                }
                sum
            }),
        ),
    ];
    for (name, sum) in &loops {
        c.bench_function(&format!("sum_1M_warm/{name}"), |b| b.iter(sum));
        c.bench_function(&format!("sum_1M_cold/{name}"), |b| {
            b.iter_batched(&mut sweep, |()| sum(), BatchSize::PerIteration)
        });
    }
}

macro_rules! for_each_list {
    ($f:ident ($($arg:expr),*)) => {
        $f::<Vec<_>>($($arg),*);
        $f::<SegmentedList<_>>($($arg),*);
        $f::<segmented_vec::SegmentedVec<_>>($($arg),*);
        $f::<SplitVec<_>>($($arg),*);
        $f::<segvec::SegVec<_>>($($arg),*);
    };
}

fn benches(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut rng = SmallRng::seed_from_u64(0x5EED);
    let indices: Vec<usize> = (0..N).map(|_| rng.random_range(0..N)).collect();
    for_each_list!(push_u64(c));
    for_each_list!(push_40_bytes(c));
    for_each_list!(push_boxed_mebibytes(c));
    for_each_list!(sum_random(c, &indices));
    for_each_list!(sum_iter(c, N));
    sum_loops(c, N);
}

criterion_group!(segmented, benches);
criterion_main!(segmented);
