// `#[deserialize_in(no_heap)]` reaches the types nested in the message: a
// derived type, itself unmarked, with or without a lifetime, that holds a
// `String` (read by its own `Deserialize`, on the heap) is refused under
// the field that holds it, directly or in an arena list, and the message
// names the way to the `String`, however deep.
use tickarena::{DeserializeIn, FrameVec};

#[derive(DeserializeIn)]
struct Inner<'a> {
    tag: &'a str,
    chat: String,
}

#[derive(DeserializeIn)]
struct Text {
    body: String,
}

#[derive(DeserializeIn)]
struct Input {
    seq: u32,
    text: Option<Text>,
}

#[derive(DeserializeIn)]
#[deserialize_in(no_heap)]
struct Outer<'a> {
    id: u8,
    inner: Inner<'a>,
    more: FrameVec<'a, Option<Inner<'a>>>,
    inputs: FrameVec<'a, Input>,
    last: Input,
}

fn main() {}
