// A sealed frame whose data is `Send` but not `Sync` (a `Cell`) can move to
// another thread, but not be shared by reference between threads.
use std::cell::Cell;
use tickarena::{FrameArena, FrameData};

struct Counter;
impl FrameData for Counter {
    type Of<'f> = Cell<&'f u32>;
}

fn main() {
    let sealed = FrameArena::new().seal::<Counter>(|arena| Cell::new(&*arena.alloc(1)));
    let shared = &sealed;
    std::thread::scope(|scope| {
        scope.spawn(move || shared.with(|cell| cell.get() + 1));
    });
}
