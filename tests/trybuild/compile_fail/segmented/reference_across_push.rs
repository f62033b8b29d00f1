// A `&T` from the list cannot be held across a `push` through `&mut`.
use tickarena::SegmentedList;

fn main() {
    let mut list = SegmentedList::new();
    list.push(1u32);
    let first = &list[0];
    list.push(2);
    println!("{first}");
}
