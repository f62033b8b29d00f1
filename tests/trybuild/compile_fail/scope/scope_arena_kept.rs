// The scope's arena itself cannot be kept to allocate in later.
use tickarena::{FrameArena, scoped};

fn main() {
    let mut later: Option<&FrameArena> = None;
    scoped(|temp| later = Some(temp));
    later.unwrap().alloc(1u8);
}
