// The arena `local()` gives is the calling thread's: it cannot be used on
// another thread (`&FrameArena` is not `Send`).
use tickarena::ThreadArenas;

fn main() {
    let arenas = ThreadArenas::new();
    let mine = arenas.local();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            mine.alloc(1u8);
        });
    });
}
