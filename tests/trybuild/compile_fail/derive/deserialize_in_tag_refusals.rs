// serde's derive's rules for tagged enums, with its messages: an internally
// tagged enum has no tuple variants (there is no map to put the tag in),
// its tag is no struct variant's field, and untagged variants come last.
#[derive(tickarena::DeserializeIn)]
#[serde(tag = "type")]
enum Command<'a> {
    Move(i32, i32),
    Say { r#type: &'a str },
    #[serde(untagged)]
    Raw(&'a str),
    Stop,
}

#[derive(tickarena::DeserializeIn)]
#[serde(untagged, content = "c")]
enum Both {
    A,
}

fn main() {}
