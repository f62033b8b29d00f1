// An attribute serde does not know either (a misspelt `flatten`) is an
// error, not ignored.
#[derive(tickarena::DeserializeIn)]
struct Packet<'a> {
    #[serde(flaten)]
    header: (u32, &'a str),
}

fn main() {}
