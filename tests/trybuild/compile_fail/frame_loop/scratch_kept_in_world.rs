// The tick's scratch (built in the frame arena, handed from the update
// steps to `end_frame`) cannot be kept in the world: the world outlives
// the frame.
use tickarena::frame_loop::{Frame, FrameLoop, Game};
use tickarena::FrameVec;

struct Camera {
    last_visible: Option<&'static [u32]>,
}

impl Game for Camera {
    type Event = ();
    type Scratch<'f> = FrameVec<'f, u32>;
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    fn update<'f>(&mut self, _: &mut Frame<'f, Self>, visible: &mut FrameVec<'f, u32>) {
        visible.push(7);
    }
    fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, visible: &mut FrameVec<'f, u32>) {
        self.last_visible = Some(visible.as_slice());
    }
}

fn main() {
    let mut game = FrameLoop::new(Camera { last_visible: None });
    game.tick([], game.step());
}
