// What a scope on one arena allocates cannot leave the scope.
use tickarena::FrameArena;

fn main() {
    let mut arena = FrameArena::new();
    let escaped: &u32 = arena.scoped(|temp| temp.alloc(1u32));
    println!("{escaped}");
}
