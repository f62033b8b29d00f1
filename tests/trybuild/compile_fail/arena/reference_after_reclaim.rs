// A value allocated in a frame cannot be used after the frame is reclaimed.
use tickarena::FrameArena;

fn main() {
    let arena = FrameArena::new();
    let score = arena.alloc(10u32);
    let arena = arena.reclaim();
    *score += 1;
    drop(arena);
}
