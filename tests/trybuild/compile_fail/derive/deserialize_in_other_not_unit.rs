// `#[serde(other)]` is read for an unknown tag, which carries no fields:
// serde's derive's rule, and its message.
#[derive(tickarena::DeserializeIn)]
enum Command<'a> {
    Say(&'a str),
    #[serde(other)]
    Unknown(u8),
}

fn main() {}
