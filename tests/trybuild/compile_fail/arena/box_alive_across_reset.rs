// A Box in the arena cannot stay alive across a reset.
use tickarena::FrameArena;

fn main() {
    let mut arena = FrameArena::new();
    let boxed = Box::new_in(5u64, &arena);
    arena.reset();
    println!("{boxed}");
}
