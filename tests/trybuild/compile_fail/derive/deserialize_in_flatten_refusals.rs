// `flatten` needs a map: serde's derive refuses it in a tuple struct and a
// tuple variant, with its message.
#[derive(tickarena::DeserializeIn)]
struct Pair<'a>(#[serde(flatten)] Inner<'a>, u8);

#[derive(tickarena::DeserializeIn)]
struct Inner<'a> {
    name: &'a str,
}

#[derive(tickarena::DeserializeIn)]
enum Event<'a> {
    Named(u32, #[serde(flatten)] Inner<'a>),
}

fn main() {}
