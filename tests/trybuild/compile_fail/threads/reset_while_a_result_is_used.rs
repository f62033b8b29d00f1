// What a worker handed back borrows the set: the frame cannot end while it
// is still used.
use tickarena::ThreadArenas;

fn main() {
    let mut arenas = ThreadArenas::new();
    let result: &[u64] = std::thread::scope(|scope| {
        scope
            .spawn(|| &*arenas.local().alloc_slice_fill_with(4, |i| i as u64))
            .join()
            .unwrap()
    });
    arenas.reset();
    println!("{result:?}");
}
