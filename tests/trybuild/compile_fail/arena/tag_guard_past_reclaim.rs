// A tag guard borrows its arena: the frame cannot end while it is alive.
use tickarena::{FrameArena, Tag};

const AI: Tag = Tag::new("ai");

fn main() {
    let arena = FrameArena::new();
    let ai = arena.tag(AI);
    let arena = arena.reclaim();
    drop(ai);
    drop(arena);
}
