// Frame data read without a closure (`get`) must be covariant in its
// lifetime: a `Cell` of a frame reference is not, and the derive refuses
// it (`#[frame_data(not_covariant)]` is the way to say so).
use std::cell::Cell;

#[derive(tickarena::FrameData)]
struct SlotOf<'f> {
    name: &'f Cell<&'f str>,
}

fn main() {}
