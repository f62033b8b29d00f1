// A string made in one tick cannot be kept for the next.
use tickarena::frame_loop::{Frame, FrameLoop, Game};
use tickarena::{FrameArena, format_in};

struct World;

impl Game for World {
    type Event = u32;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: u32, _: &mut Frame<'f, Self>) {}
}

fn main() {
    let mut game = FrameLoop::new(World);
    let mut kept: Option<tickarena::String<&FrameArena>> = None;
    for tick in 0..2 {
        if let Some(previous) = &kept {
            println!("{previous}");
        }
        kept = Some(format_in!(game.arena(), "tick {tick}"));
        game.tick([tick], game.step());
    }
}
