// An action reaches the tick's scratch, but cannot keep it (or what it
// holds) in the world: the world outlives the tick.
use tickarena::frame_loop::{Frame, FrameAction, FrameLoop, Game};
use tickarena::FrameVec;

struct Chat {
    said: Option<&'static [&'static str]>,
}

struct Remember;

impl<'f> FrameAction<'f, Chat> for Remember {
    fn apply(&mut self, world: &mut Chat, frame: &mut Frame<'f, Chat>) {
        world.said = Some(frame.scratch().as_slice());
    }
}

impl Game for Chat {
    type Event = ();
    type Scratch<'f> = FrameVec<'f, &'f str>;
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        frame.push_in(Remember);
    }
}

fn main() {
    let mut game = FrameLoop::new(Chat { said: None });
    game.tick([()], game.step());
}
