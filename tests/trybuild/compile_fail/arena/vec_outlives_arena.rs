// A Vec in the arena cannot outlive the arena.
use tickarena::FrameArena;

fn main() {
    let kept;
    {
        let arena = FrameArena::new();
        let mut v = Vec::new_in(&arena);
        v.push(1u8);
        kept = v;
    }
    println!("{kept:?}");
}
