// Even with the lifetime bound that lets the action store its string,
// no frame can supply a string that outlives the world.
use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
use tickarena::{FrameArena, format_in};

struct World<'w> {
    last: Option<tickarena::String<&'w FrameArena>>,
}

struct Remember<'f>(Option<tickarena::String<&'f FrameArena>>);

impl<'w, 'f: 'w> Action<World<'w>> for Remember<'f> {
    fn apply(&mut self, world: &mut World<'w>, _: &mut Frame<'_, World<'w>>) {
        world.last = self.0.take();
    }
}

impl<'w> Game for World<'w> {
    type Event = u32;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, event: u32, frame: &mut Frame<'f, Self>) {
        frame.push(Remember(Some(format_in!(frame.arena(), "{event}"))));
    }
}

fn main() {
    let mut game = FrameLoop::new(World { last: None });
    game.tick([1], game.step());
}
