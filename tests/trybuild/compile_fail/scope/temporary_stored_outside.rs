// Nor stored in a variable of the caller's, to be read after the scope.
use tickarena::{FrameArena, FrameVec, scoped};

fn main() {
    let frame = FrameArena::new();
    let mut kept: Option<FrameVec<'_, u32>> = None;
    scoped(|temp| {
        let mut path = Vec::new_in(temp);
        path.extend([1, 2, 3]);
        kept = Some(path);
    });
    println!("{:?} {}", kept, frame.used());
}
