// Strings kept in a Vec across loop iterations that reclaim the arena.
use tickarena::{FrameArena, format_in};

fn main() {
    let mut arena = FrameArena::new();
    let mut log = Vec::new();
    for frame in 0..3 {
        log.push(format_in!(&arena, "frame {frame}"));
        arena = arena.reclaim();
    }
    println!("{}", log.len());
}
