// An open row borrows its writer: the rows cannot be finished (nor the
// writer moved or dropped) while a row is open.
use tickarena::{FrameArena, FrameRows};

fn main() {
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    let mut row = rows.open_row();
    let done = rows.finish();
    row.push(1u32);
    assert_eq!(done.len(), 1);
}
