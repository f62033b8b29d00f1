// A struct inside an arena list must be `DeserializeIn` itself: rustc's
// message says to derive it too.
#[derive(tickarena::DeserializeIn)]
struct Wave<'a> {
    units: tickarena::FrameVec<'a, Unit<'a>>,
}

struct Unit<'a> {
    name: &'a str,
}

fn main() {
    let _ = |wave: Wave<'_>| wave.units.first().map(|unit| unit.name.len());
}
