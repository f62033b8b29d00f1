// A `Frame` stays on the thread running the tick (its action queue holds
// actions that need not be `Send`); a worker allocates in
// `frame.threads().local()` instead.
use tickarena::frame_loop::{Frame, FrameLoop, Game};

struct Crowd(Vec<u32>);

impl Game for Crowd {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let frame = &*frame;
        std::thread::scope(|scope| {
            scope.spawn(|| frame.arena().alloc(1u8));
        });
    }
}

fn main() {
    let mut game = FrameLoop::new(Crowd(Vec::new()));
    game.tick([], game.step());
}
