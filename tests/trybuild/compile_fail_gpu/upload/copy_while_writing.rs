// Several uploads may be open at once (each grows in a room of its own),
// but a copy, like the frame's finish, waits until every writer is
// finished: a copy of an upload whose writer is still open would copy
// bytes not written yet.
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena, dst: &tickarena::gpu::wgpu::Buffer) {
    let mut frame = arena.begin_frame().unwrap();
    let mut lines = frame.upload::<[f32; 2]>().unwrap();
    let quads = frame.upload_slice(&[[0.0f32; 4]]).unwrap();
    frame.copy_to(&quads, dst, 0).unwrap();
    lines.push([0.0, 1.0]).unwrap();
}

fn main() {
    let _ = frames;
}
