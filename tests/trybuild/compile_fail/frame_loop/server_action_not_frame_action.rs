// The server loop's shape (`EventSource`, `Receive`): a command borrowed
// from the tick's packet, handed on to the tick's scratch by a plain
// `Action`, whose `apply` gets a frame of a lifetime of its own (`'1`),
// not the frame its data lives in (`'f`): it needs `FrameAction<'f, _>`,
// pushed with `push_in`.
use tickarena::frame_loop::{Action, EventSource, Frame, FrameLoop, Game, Receive};
use tickarena::{FrameArena, FrameVec};

struct Packets(Vec<&'static str>);
impl EventSource for Packets {
    type Event<'f> = &'f str;
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f str)) {
        for packet in self.0.drain(..) {
            emit(arena.alloc_str(packet));
        }
    }
}

#[derive(Default)]
struct Server {
    log: Vec<String>,
}

struct Play<'f>(&'f str);
impl<'f> Action<Server> for Play<'f> {
    fn apply(&mut self, _: &mut Server, frame: &mut Frame<'_, Server>) {
        frame.scratch().push(self.0);
    }
}

impl Game for Server {
    type Event = ();
    type Scratch<'f> = FrameVec<'f, &'f str>;
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, played: &mut Self::Scratch<'f>) {
        self.log.push(played.join(" "));
    }
}

impl Receive<Packets> for Server {
    fn receive<'f>(&mut self, command: &'f str, frame: &mut Frame<'f, Self>) {
        frame.push(Play(command));
    }
}

fn main() {
    let mut server = FrameLoop::new(Server::default()).one_step_per_tick();
    server.tick_from(&mut Packets(vec!["e4"]), std::time::Duration::ZERO);
}
