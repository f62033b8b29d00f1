// `Sealed::get` needs data covariant in its lifetime: through a
// `Cell<&'f str>` a reader could store a string that lives shorter than
// the frame. The compiler refuses the `shorten` that would claim it.
use std::cell::Cell;
use tickarena::{CovariantFrameData, FrameData};

struct Slot;
impl FrameData for Slot {
    type Of<'f> = &'f Cell<&'f str>;
}
impl CovariantFrameData for Slot {
    fn shorten<'short, 'long: 'short>(
        data: &'short &'long Cell<&'long str>,
    ) -> &'short &'short Cell<&'short str> {
        data
    }
}

fn main() {}
