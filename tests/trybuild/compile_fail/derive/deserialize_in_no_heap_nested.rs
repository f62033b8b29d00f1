// `#[deserialize_in(no_heap)]` reaches the types nested in the message: a
// derived type, itself unmarked, that holds a `String` (read by its own
// `Deserialize`, on the heap) is refused under the field that holds it,
// directly or in an arena list.
use tickarena::{DeserializeIn, FrameVec};

#[derive(DeserializeIn)]
struct Inner<'a> {
    tag: &'a str,
    chat: String,
}

#[derive(DeserializeIn)]
#[deserialize_in(no_heap)]
struct Outer<'a> {
    id: u8,
    inner: Inner<'a>,
    more: FrameVec<'a, Option<Inner<'a>>>,
}

fn main() {}
