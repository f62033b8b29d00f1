// An arena collection stays on the thread that made it: a `Vec` in this
// thread's arena cannot move to another thread. Freeze it first (`leak`).
use tickarena::ThreadArenas;

fn main() {
    let arenas = ThreadArenas::new();
    let mut ids = Vec::new_in(arenas.local());
    ids.push(7u32);
    std::thread::scope(|scope| {
        scope.spawn(move || ids.len());
    });
}
