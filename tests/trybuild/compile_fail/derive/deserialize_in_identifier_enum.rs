// A `field_identifier` enum's last newtype variant keeps an unknown key
// (serde's derive buffers it in its private `Content`): refused, with what
// to write instead.
#[derive(tickarena::DeserializeIn)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Id,
    Name,
    Other(String),
}

fn main() {}
