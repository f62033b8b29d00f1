// An identifier enum holds no arena data: serde's `Deserialize` reads it.
#[derive(tickarena::DeserializeIn)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Id,
    Name,
}

fn main() {}
