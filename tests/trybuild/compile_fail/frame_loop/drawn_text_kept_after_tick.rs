// Text formatted in the frame arena while presenting a tick cannot be kept
// once the tick is over: the frame it borrows from is reclaimed.
use tickarena::FrameArena;
use tickarena::frame_loop::{Frame, FrameLoop, Game};

struct Idle;

impl Game for Idle {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
}

fn main() {
    let mut game = FrameLoop::new(Idle);
    let mut last_caption: Option<tickarena::String<&FrameArena>> = None;
    game.tick_with([], game.step(), |_, frame, _, _| {
        last_caption = Some(tickarena::format_in!(frame.arena(), "tick {}", frame.tick()));
    });
    game.tick([], game.step());
    println!("{:?}", last_caption);
}
