// One row is open at a time: a second `open_row` needs the first closed.
use tickarena::{FrameArena, FrameRows};

fn main() {
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    let mut first = rows.open_row();
    let mut second = rows.open_row();
    first.push(1u32);
    second.push(2u32);
}
