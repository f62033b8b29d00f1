// An upload belongs to its frame: once the next frame has begun, the
// upload (whose staging memory may be reused by then) cannot be used.
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena) {
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[1u32, 2, 3]).unwrap();
    drop(frame);
    let next = arena.begin_frame().unwrap();
    let _ = next.segments(&upload);
}

fn main() {
    let _ = frames;
}
