// No handle to a staging buffer leaves a frame: the arena writes through
// a view of it until the frame's finish, and a handle would let safe code
// destroy it (`wgpu::Buffer::destroy`) and send the arena's later writes
// into another buffer's memory. A segment says where the bytes are; the
// copies out of it are the frame's operations.
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena) {
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[1u32; 4]).unwrap();
    let segment = frame.segments(&upload).unwrap().next().unwrap();
    segment.buffer.destroy();
}

fn main() {
    let _ = frames;
}
