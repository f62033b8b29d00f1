// A packet's data lives in one arena: one lifetime.
#[derive(tickarena::DeserializeIn)]
struct Packet<'a, 'b> {
    name: &'a str,
    tag: &'b str,
}

fn main() {}
