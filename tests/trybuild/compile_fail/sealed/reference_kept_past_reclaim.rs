// Nothing borrowed from a sealed frame's data can leave `with`: the frame
// is reclaimed, and its text with it.
use tickarena::{FrameArena, FrameData};

struct Title;
impl FrameData for Title {
    type Of<'f> = &'f str;
}

fn main() {
    let sealed = FrameArena::new().seal::<Title>(|arena| &*arena.alloc_str("frame 1"));
    let title: &str = sealed.with(|title| *title);
    let arena = sealed.reclaim();
    println!("{title} {}", arena.used());
}
