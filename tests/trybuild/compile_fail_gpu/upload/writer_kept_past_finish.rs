// A frame's writer cannot be kept once the frame is finished and its
// staging memory handed to the GPU.
use tickarena::gpu::UploadArena;

fn frames(arena: &mut UploadArena, encoder: &mut tickarena::gpu::wgpu::CommandEncoder) {
    let mut frame = arena.begin_frame().unwrap();
    let mut points = frame.upload::<u32>().unwrap();
    frame.finish(encoder);
    points.push(1).unwrap();
}

fn main() {
    let _ = frames;
}
