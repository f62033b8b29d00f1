// A remote derive reads a type of another crate through a mirror of it;
// `DeserializeIn` is implemented on the type itself, so it is refused with
// what to write instead.
#[derive(tickarena::DeserializeIn)]
#[serde(remote = "core::time::Duration")]
struct DurationDef {
    secs: u64,
    nanos: u32,
}

fn main() {}
