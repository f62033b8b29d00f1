// A packet the source decoded into the tick's arena cannot be kept in the
// world: the world outlives the tick.
use tickarena::frame_loop::{EventSource, Frame, FrameLoop, Game, Receive};
use tickarena::FrameArena;

struct Wire;

impl EventSource for Wire {
    type Event<'f> = &'f str;
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f str)) {
        emit(arena.alloc_str("hello"));
    }
}

struct Server {
    last_message: Option<&'static str>,
}

impl Game for Server {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
}

impl Receive<Wire> for Server {
    fn receive<'f>(&mut self, message: &'f str, _: &mut Frame<'f, Self>) {
        self.last_message = Some(message);
    }
}

fn main() {
    let mut game = FrameLoop::new(Server { last_message: None });
    game.tick_from(&mut Wire, game.step());
}
