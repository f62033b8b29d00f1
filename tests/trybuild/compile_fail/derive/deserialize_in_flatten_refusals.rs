// `flatten` needs a map: serde's derive refuses it in a tuple struct, with
// its message; in an enum's variant this derive does not follow it yet,
// and says what to write instead.
#[derive(tickarena::DeserializeIn)]
struct Pair<'a>(#[serde(flatten)] Inner<'a>, u8);

#[derive(tickarena::DeserializeIn)]
struct Inner<'a> {
    name: &'a str,
}

#[derive(tickarena::DeserializeIn)]
enum Event<'a> {
    Named {
        id: u32,
        #[serde(flatten)]
        inner: Inner<'a>,
    },
}

fn main() {}
