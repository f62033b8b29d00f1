// What a scope allocates cannot be returned from it: its arena is reset
// when the closure returns.
use tickarena::scoped;

fn main() {
    let path: &[u32] = scoped(|temp| &*temp.alloc_slice_copy(&[1, 2, 3]));
    println!("{path:?}");
}
