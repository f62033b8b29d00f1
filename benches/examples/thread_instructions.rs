//! A small program for `scripts/thread-instructions`: runs frames of one
//! contender of `benches/threads.rs` on a rayon pool, so that callgrind can
//! count the instructions of each frame's work (`frame_share` on every
//! thread and `frame_end`). Counts, not time: on a shared 2-core machine
//! the timed runs of the bench differ from one another by more than the
//! contenders do.
//!
//! ```sh
//! cargo run --release --example thread_instructions -- tickarena values_and_vecs 20
//! ```

#[path = "../support/thread_contenders.rs"]
mod thread_contenders;

use std::hint::black_box;

use thread_contenders::{Workload, contenders};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "tickarena".to_owned());
    let workload = args.next().map_or(Workload::ValuesAndVecs, |arg| {
        let known = Workload::ALL.into_iter().find(|w| w.name() == arg);
        known.unwrap_or_else(|| panic!("unknown workload {arg:?}: values_and_vecs or big_vec"))
    });
    let frames: u32 = args
        .next()
        .map_or(20, |n| n.parse().expect("a frame count"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut contender = contenders(2)
        .into_iter()
        .find(|contender| contender.name() == name)
        .unwrap_or_else(|| panic!("unknown contender {name:?}"));
    for _ in 0..frames {
        pool.broadcast(|context| black_box(contender.frame_share(context.index(), workload)));
        contender.frame_end();
    }
}
