// A source cannot keep what it received into one tick's arena for the
// next tick: the arena is lent to it for one call.
use tickarena::frame_loop::EventSource;
use tickarena::FrameArena;

struct Wire<'a> {
    previous: Option<&'a [u8]>,
}

impl<'a> EventSource for Wire<'a> {
    type Event<'f> = &'f [u8];
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f [u8])) {
        let datagram = arena.alloc_slice_copy(&[1, 2, 3]);
        self.previous = Some(datagram);
        emit(datagram);
    }
}

fn main() {}
