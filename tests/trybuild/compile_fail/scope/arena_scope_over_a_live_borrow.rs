// A scope on one arena rewinds it: nothing allocated in the arena before
// may still be in use while it runs.
use tickarena::FrameArena;

fn main() {
    let mut arena = FrameArena::new();
    let kept = arena.alloc(7u32);
    arena.scoped(|temp| *temp.alloc(1u32));
    *kept += 1;
}
