// A shared arena's frame is written through handles that borrow the
// arena shared; its finish takes the arena mutably: the frame cannot be
// handed to the GPU while a system still holds a handle (a writer may be
// writing into its staging memory).
use tickarena::gpu::SharedUploadArena;

fn frames(uploads: &mut SharedUploadArena, encoder: &mut tickarena::gpu::wgpu::CommandEncoder) {
    uploads.begin_frame().unwrap();
    let frame = uploads.frame().unwrap();
    let mut sprites = frame.upload::<[f32; 4]>().unwrap();
    uploads.finish(encoder).unwrap();
    sprites.push([0.0; 4]).unwrap();
}

fn main() {
    let _ = frames;
}
