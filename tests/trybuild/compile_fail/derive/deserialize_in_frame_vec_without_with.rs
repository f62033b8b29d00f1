// serde's `Serialize` beside `DeserializeIn`: an arena `Vec` field needs
// `#[serde(with = "tickarena::serde::vec")]` (std's `Vec<T, A>` is not
// `Serialize` for an allocator other than the global one).
#[derive(serde::Serialize, tickarena::DeserializeIn)]
struct Wave<'a> {
    ids: tickarena::FrameVec<'a, u16>,
}

fn main() {}
