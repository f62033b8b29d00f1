// `&FrameArena` cannot be used from a second thread: the arena is not Sync.
use tickarena::FrameArena;

fn main() {
    let arena = FrameArena::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            arena.alloc(1u8);
        });
    });
}
