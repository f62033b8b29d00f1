// An attribute set twice on one item is serde's error, "duplicate serde
// attribute", not the last one silently winning; the two sides of
// `rename`, and `alias`, may each be given once per side / many times.
#[derive(tickarena::DeserializeIn)]
#[serde(tag = "kind")]
#[serde(tag = "type")]
enum Event<'a> {
    Say {
        #[serde(rename = "a")]
        #[serde(rename(deserialize = "b"))]
        text: &'a str,
        #[serde(skip)]
        #[serde(skip_deserializing)]
        gone: u8,
        #[serde(with = "tickarena::serde::vec", deserialize_with = "read")]
        list: tickarena::FrameVec<'a, u8>,
        #[serde(rename(serialize = "s"), rename(deserialize = "d"), alias = "x", alias = "y")]
        fine: u8,
    },
    #[serde(other, other)]
    Other,
}

fn main() {}
