// A system's handle on a shared frame writes and asks for copies, but
// cannot end the frame: other systems may be writing into it at the same
// moment. Only the arena's own `finish` ends it.
use tickarena::gpu::SharedUploadArena;

fn system(uploads: &SharedUploadArena, encoder: &mut tickarena::gpu::wgpu::CommandEncoder) {
    let frame = uploads.frame().unwrap();
    frame.finish(encoder);
}

fn main() {
    let _ = system;
}
