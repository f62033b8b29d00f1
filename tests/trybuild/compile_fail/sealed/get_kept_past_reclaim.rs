// What `Sealed::get` lends lives as long as the borrow of the sealed
// frame: it cannot be used once the frame is reclaimed.
use tickarena::{CovariantFrameData, FrameArena, FrameData};

struct Title;
impl FrameData for Title {
    type Of<'f> = &'f str;
}
impl CovariantFrameData for Title {
    fn shorten<'short, 'long: 'short>(data: &'short &'long str) -> &'short &'short str {
        data
    }
}

fn main() {
    let sealed = FrameArena::new().seal::<Title>(|arena| &*arena.alloc_str("frame 1"));
    let title: &str = sealed.get();
    let arena = sealed.reclaim();
    println!("{title} {}", arena.used());
}
