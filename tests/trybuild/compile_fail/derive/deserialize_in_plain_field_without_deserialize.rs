// A field without the arena's lifetime is read through its own
// `serde::Deserialize`, else through its type's `DeserializeIn`: a type
// with neither is refused under the field's type, saying to derive
// `DeserializeIn`.
enum Kind {
    Scout,
    Tank,
}

#[derive(tickarena::DeserializeIn)]
struct Unit<'a> {
    name: &'a str,
    kind: Kind,
}

fn main() {
    let _ = |unit: Unit<'_>| unit.name.len() + usize::from(matches!(unit.kind, Kind::Tank));
    let _ = Kind::Scout;
}
