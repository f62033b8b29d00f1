// A union has no fields to clone one by one.
#[derive(tickarena::RollbackState)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
