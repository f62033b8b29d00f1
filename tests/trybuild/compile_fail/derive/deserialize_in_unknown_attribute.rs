// serde attributes the derive cannot follow are errors, not ignored:
// `flatten` changes the encoding.
#[derive(tickarena::DeserializeIn)]
struct Packet<'a> {
    #[serde(flatten)]
    header: (u32, &'a str),
}

fn main() {}
