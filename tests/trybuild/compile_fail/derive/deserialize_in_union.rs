// No format says which field of a union is set.
#[derive(tickarena::DeserializeIn)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
