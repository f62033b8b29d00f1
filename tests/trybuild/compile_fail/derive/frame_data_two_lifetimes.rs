// Frame data borrows from one arena: one lifetime.
#[derive(tickarena::FrameData)]
struct PairOf<'a, 'b> {
    left: &'a [u32],
    right: &'b [u32],
}

fn main() {}
