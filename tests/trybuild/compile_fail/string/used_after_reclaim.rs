// A format_in! string cannot be used after its arena is reclaimed.
use tickarena::{FrameArena, format_in};

fn main() {
    let arena = FrameArena::new();
    let label = format_in!(&arena, "entity {}", 7);
    let arena = arena.reclaim();
    println!("{label}");
    drop(arena);
}
