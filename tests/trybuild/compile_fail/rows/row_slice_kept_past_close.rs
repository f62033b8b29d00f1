// The open row's slice lives while the row is open: a sort or cut later
// could move what it shows, so it cannot be kept past the close.
use tickarena::{FrameArena, FrameRows};

fn main() {
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    let mut row = rows.open_row();
    row.extend([3u32, 1, 2]);
    let kept: &[u32] = &row;
    row.finish_row();
    assert_eq!(kept.len(), 3);
}
