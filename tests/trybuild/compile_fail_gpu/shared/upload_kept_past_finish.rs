// An upload of a shared frame borrows the arena: it cannot be kept past
// the frame's finish, into the next frame (across systems, where a
// system's state could keep it, a run-time check refuses it:
// `UploadError::ForeignUpload`).
use tickarena::gpu::SharedUploadArena;

fn frames(
    uploads: &mut SharedUploadArena,
    encoder: &mut tickarena::gpu::wgpu::CommandEncoder,
    dst: &tickarena::gpu::wgpu::Buffer,
) {
    uploads.begin_frame().unwrap();
    let upload = uploads.frame().unwrap().upload_slice(&[1u32; 4]).unwrap();
    uploads.finish(encoder).unwrap();
    uploads.begin_frame().unwrap();
    uploads.frame().unwrap().copy_to(&upload, dst, 0).unwrap();
}

fn main() {
    let _ = frames;
}
