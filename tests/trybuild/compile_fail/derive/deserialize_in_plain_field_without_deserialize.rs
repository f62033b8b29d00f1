// A field without the arena's lifetime is read by its own
// `serde::Deserialize`, which `DeserializeIn` alone does not give.
#[derive(tickarena::DeserializeIn)]
enum Kind {
    Scout,
    Tank,
}

#[derive(tickarena::DeserializeIn)]
struct Unit<'a> {
    name: &'a str,
    kind: Kind,
}

fn main() {}
