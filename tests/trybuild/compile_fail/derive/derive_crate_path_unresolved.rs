// `#[tickarena(crate = "..")]` names the path the derives reach tickarena
// by: a path that does not resolve is rustc's error at the attribute.
#[derive(tickarena::FrameData)]
#[tickarena(crate = "nowhere::tickarena")]
struct Marks<'f>(&'f [u32]);

fn main() {}
