// One open upload at a time: it grows at the top of the frame, so
// another cannot start above it until it is finished.
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena) {
    let mut frame = arena.begin_frame().unwrap();
    let mut lines = frame.upload::<[f32; 2]>().unwrap();
    let quads = frame.upload_slice(&[[0.0f32; 4]]).unwrap();
    lines.push([0.0, 1.0]).unwrap();
    drop((lines, quads));
}

fn main() {
    let _ = frames;
}
