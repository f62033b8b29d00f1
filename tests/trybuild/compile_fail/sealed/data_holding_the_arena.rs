// Data that holds the arena itself (an arena `Vec` keeps a `&FrameArena`)
// cannot be sealed: the arena moves with the `Sealed`. Freeze it first
// (`vec.leak()`).
use tickarena::{FrameArena, FrameData};

struct Ids;
impl FrameData for Ids {
    type Of<'f> = Vec<u32, &'f FrameArena>;
}

fn main() {
    let sealed = FrameArena::new().seal::<Ids>(|arena| {
        let mut ids = Vec::new_in(arena);
        ids.push(1);
        ids
    });
    drop(sealed);
}
