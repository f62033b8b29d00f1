// `#[serde(other)]` takes every unknown tag, so it ends the enum: serde's
// derive's rule, and its message.
#[derive(tickarena::DeserializeIn)]
enum Command {
    #[serde(other)]
    Unknown,
    Stop,
}

fn main() {}
