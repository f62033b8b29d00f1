// A frame borrows its arena mutably: a second frame cannot begin while
// the first is open (one open frame at a time).
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena) {
    let first = arena.begin_frame().unwrap();
    let second = arena.begin_frame().unwrap();
    drop(first);
    drop(second);
}

fn main() {
    let _ = frames;
}
