// An arena over a buffer outlives every frame, so the buffer must live for
// the whole program: a local array is rejected.
use core::mem::MaybeUninit;
use tickarena::FrameArena;

fn main() {
    let mut local = [MaybeUninit::<u8>::uninit(); 1024];
    let arena = FrameArena::from_buffer(&mut local);
    arena.alloc(1u8);
}
