// A writer (and the rows it finishes) borrows its arena: the frame cannot
// end while either is alive.
use tickarena::{FrameArena, FrameRows};

fn main() {
    let mut arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    rows.push_row([1u32, 2]);
    arena.reset();
    let rows = rows.finish();
    assert_eq!(rows.len(), 1);
}
