// A plain `Action` gets a frame of a lifetime unrelated to its own data's,
// so it cannot hand a line it borrows to the tick's scratch (it can copy
// it into `frame.arena()`); a `FrameAction<'f, _>` can.
use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
use tickarena::FrameVec;

struct Chat;

struct Say<'a>(&'a str);

impl Action<Chat> for Say<'_> {
    fn apply(&mut self, _: &mut Chat, frame: &mut Frame<'_, Chat>) {
        frame.scratch().push(self.0);
    }
}

impl Game for Chat {
    type Event = ();
    type Scratch<'f> = FrameVec<'f, &'f str>;
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let line = frame.arena().alloc_str("gg");
        frame.push(Say(line));
    }
}

fn main() {
    let mut game = FrameLoop::new(Chat);
    game.tick([()], game.step());
}
