// serde's derive refuses these at compile time (its check.rs); so does the
// arena derive, with serde's messages: an adjacently tagged enum whose tag
// and content keys are one, `other` in an untagged enum, a variant read by
// its own function that skips itself or a field, and a tuple struct field
// without a default after one with a default.
#[derive(tickarena::DeserializeIn)]
#[serde(tag = "t", content = "t")]
enum SameTags<'a> {
    A(&'a str),
}

#[derive(tickarena::DeserializeIn)]
#[serde(untagged)]
enum OtherUntagged<'a> {
    A(&'a str),
    #[serde(other)]
    B,
}

fn read<'de, D: serde::Deserializer<'de>>(_: D) -> Result<(u8,), D::Error> {
    todo!()
}

#[derive(tickarena::DeserializeIn)]
enum WithSkip<'a> {
    A(&'a str),
    #[serde(deserialize_with = "read", skip_deserializing)]
    B(u8),
}

#[derive(tickarena::DeserializeIn)]
struct TupleDefault<'a>(#[serde(default)] u8, &'a str);
#[derive(tickarena::DeserializeIn)]
enum WithSkippedField<'a> {
    A(&'a str),
    #[serde(deserialize_with = "read")]
    B(#[serde(skip_deserializing)] u8),
}

fn main() {}
