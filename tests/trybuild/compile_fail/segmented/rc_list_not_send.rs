// A list of `Rc`s cannot be sent to another thread.
use std::rc::Rc;
use tickarena::SegmentedList;

fn main() {
    let mut list = SegmentedList::new();
    list.push(Rc::new(1u32));
    std::thread::spawn(move || list.len());
}
