//! The window loop's logic, apart from winit's event loop and window so
//! that it runs (and is tested) without a display: which events become
//! game events, when a tick runs, when it is drawn, when to stop.

use std::time::Duration;

use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, WindowEvent};

use super::input::{Input, WindowState};
use super::pacing::Pacer;
use super::view::{DrawContext, View};
use crate::frame_loop::clock::Instant;
use crate::frame_loop::{FrameLoop, Game};

/// What the event loop should do after [`Session::about_to_wait`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Schedule {
    /// Nothing to run: sleep until an event arrives.
    Sleep,
    /// Ask the window for a redraw (the tick runs on `RedrawRequested`),
    /// then wake at the given time (`None`: at once).
    Redraw(Option<Instant>),
    /// No redraw is due: wake at the given time (`None`: at once).
    WakeAt(Option<Instant>),
}

pub(super) struct Session<G: Game, V> {
    pub(super) game: FrameLoop<G>,
    pub(super) view: V,
    /// Game events for the next tick. Cleared by draining, so its capacity
    /// stays: steady frames make no allocation here.
    queue: Vec<G::Event>,
    state: WindowState,
    pacer: Pacer,
    max_frames: Option<u64>,
    last_tick: Option<Instant>,
    /// Resumed and not suspended: ticks run only then.
    running: bool,
    exit: bool,
}

impl<G: Game, V: View<G>> Session<G, V> {
    pub(super) fn new(game: FrameLoop<G>, view: V) -> Self {
        Session {
            game,
            view,
            queue: Vec::new(),
            state: WindowState::default(),
            pacer: Pacer::new(None),
            max_frames: None,
            last_tick: None,
            running: false,
            exit: false,
        }
    }

    /// The window is there (again), `size` pixels at `scale_factor`, with
    /// frames `period` apart (`None`: unpaced).
    pub(super) fn resume(
        &mut self,
        size: PhysicalSize<u32>,
        scale_factor: f64,
        period: Option<Duration>,
    ) {
        self.state = WindowState::new(size, scale_factor);
        self.pacer.restart(period);
        // Time spent suspended is not simulated: the first tick after a
        // resume is one step long.
        self.last_tick = None;
        self.running = true;
    }

    pub(super) fn set_max_frames(&mut self, max_frames: Option<u64>) {
        self.max_frames = max_frames;
    }

    pub(super) fn suspend(&mut self) {
        self.running = false;
    }

    pub(super) fn wants_exit(&self) -> bool {
        self.exit
    }

    pub(super) fn request_exit(&mut self) {
        self.exit = true;
    }

    #[cfg(test)]
    fn state(&self) -> &WindowState {
        &self.state
    }

    /// Handles one event of the window: the loop's own (close, redraw)
    /// here, the window state updated, and the event handed to the view
    /// for translation into game events.
    pub(super) fn window_event(&mut self, event: &WindowEvent, now: Instant) {
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => self.exit = true,
            WindowEvent::RedrawRequested => {
                self.run_tick(now, true);
                return;
            }
            _ => self.state.observe(event),
        }
        let mut input = Input::new(
            &mut self.queue,
            &self.state,
            self.game.ticks(),
            &mut self.exit,
        );
        self.view.input(event, &mut input);
    }

    /// A new scale factor: `ScaleFactorChanged`, whose event cannot be
    /// built outside winit (so tests call this directly).
    #[cfg(test)]
    fn scale_factor_changed(&mut self, scale_factor: f64) {
        self.state.set_scale_factor(scale_factor);
    }

    pub(super) fn device_event(&mut self, device: DeviceId, event: &DeviceEvent) {
        let mut input = Input::new(
            &mut self.queue,
            &self.state,
            self.game.ticks(),
            &mut self.exit,
        );
        self.view.device_input(device, event, &mut input);
    }

    /// All pending events are handled: decide whether a frame is due. A
    /// drawable window gets a redraw request (the tick runs with its
    /// drawing on `RedrawRequested`); a minimized or hidden one, which may
    /// never be asked to redraw, ticks right here without drawing, so the
    /// game goes on.
    pub(super) fn about_to_wait(&mut self, now: Instant) -> Schedule {
        if !self.running || self.exit {
            return Schedule::Sleep;
        }
        if !self.pacer.take_due(now) {
            return Schedule::WakeAt(self.pacer.wake_at());
        }
        if self.state.is_drawable() {
            return Schedule::Redraw(self.pacer.wake_at());
        }
        self.run_tick(now, false);
        if self.exit {
            return Schedule::Sleep;
        }
        Schedule::WakeAt(self.pacer.wake_at())
    }

    /// Runs one tick on the queued events, drawing it if asked and the
    /// window has pixels.
    fn run_tick(&mut self, now: Instant, draw: bool) {
        if !self.running || self.exit {
            return;
        }
        let elapsed = match self.last_tick.replace(now) {
            Some(last) => now.saturating_duration_since(last),
            None => self.game.step(),
        };
        let mut input = Input::new(
            &mut self.queue,
            &self.state,
            self.game.ticks(),
            &mut self.exit,
        );
        self.view.poll(&mut input);
        let (view, state) = (&mut self.view, &self.state);
        self.game.tick_with(
            self.queue.drain(..),
            elapsed,
            |world, frame, scratch, history| {
                if !draw {
                    return;
                }
                if let Some(context) = DrawContext::new(state, history) {
                    view.draw(world, frame, scratch, &context);
                }
            },
        );
        if self.max_frames.is_some_and(|max| self.game.ticks() >= max) {
            self.exit = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use winit::dpi::PhysicalPosition;
    use winit::event::{DeviceId, ElementState, MouseButton, WindowEvent};

    use super::*;
    use crate::frame_loop::{Action, Frame, FrameLoop, Game};

    /// A game that records the events each tick applied.
    #[derive(Default)]
    struct Recorder {
        ticks: Vec<Vec<Click>>,
        steps: u32,
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Click {
        x: f64,
        y: f64,
    }

    struct Record(Click);

    impl Action<Recorder> for Record {
        fn apply(&mut self, world: &mut Recorder, _: &mut Frame<'_, Recorder>) {
            world.ticks.last_mut().unwrap().push(self.0);
        }
    }

    impl Game for Recorder {
        type Event = Click;
        type Scratch<'f> = ();

        fn actions<'f>(&mut self, event: Click, frame: &mut Frame<'f, Self>) {
            frame.push(Record(event));
        }

        fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut ()) {
            self.steps += 1;
        }
    }

    /// Translates a left press into a click at the cursor; remembers draws.
    #[derive(Default)]
    struct TestView {
        draws: Vec<(u32, u32, f64, usize)>,
        polls: u32,
        seen: usize,
        exit_on_right_click: bool,
    }

    impl View<Recorder> for TestView {
        fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, Click>) {
            self.seen += 1;
            if let WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button,
                ..
            } = event
            {
                if *button == MouseButton::Right && self.exit_on_right_click {
                    input.exit();
                }
                if let Some(at) = input.state().cursor() {
                    input.push(Click { x: at.x, y: at.y });
                }
            }
        }

        fn poll(&mut self, _: &mut Input<'_, Click>) {
            self.polls += 1;
        }

        fn draw(
            &mut self,
            _: &Recorder,
            frame: &Frame<'_, Recorder>,
            _: &(),
            context: &DrawContext<'_>,
        ) {
            // Drawing may use the frame arena.
            let label = crate::format_in!(frame.arena(), "tick {}", frame.tick());
            self.draws.push((
                context.width().get(),
                context.height().get(),
                context.state().scale_factor(),
                label.len(),
            ));
        }
    }

    fn begin_tick(session: &mut Session<Recorder, TestView>) {
        session.game.world_mut().ticks.push(Vec::new());
    }

    const PERIOD: Duration = Duration::from_millis(16);

    fn session() -> (Session<Recorder, TestView>, Instant) {
        let mut session = Session::new(FrameLoop::new(Recorder::default()), TestView::default());
        session.resume(PhysicalSize::new(640, 480), 1.0, Some(PERIOD));
        (session, Instant::now())
    }

    fn cursor_moved(x: f64, y: f64) -> WindowEvent {
        WindowEvent::CursorMoved {
            device_id: DeviceId::dummy(),
            position: PhysicalPosition::new(x, y),
        }
    }

    fn press(button: MouseButton) -> WindowEvent {
        WindowEvent::MouseInput {
            device_id: DeviceId::dummy(),
            state: ElementState::Pressed,
            button,
        }
    }

    #[test]
    fn window_events_become_the_next_ticks_events_in_order() {
        let (mut session, now) = session();
        session.window_event(&cursor_moved(10.0, 20.0), now);
        session.window_event(&press(MouseButton::Left), now);
        session.window_event(&cursor_moved(30.0, 40.0), now);
        session.window_event(&press(MouseButton::Left), now);
        assert!(
            session.game.world().ticks.is_empty(),
            "no tick before a redraw"
        );

        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now);
        assert_eq!(
            session.game.world().ticks[0],
            [Click { x: 10.0, y: 20.0 }, Click { x: 30.0, y: 40.0 }]
        );
        assert_eq!(session.game.history().latest().unwrap().events, 2);
        // The redraw itself is the loop's business, not the view's.
        assert_eq!(session.view.seen, 4);
        assert_eq!(session.view.polls, 1);

        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now + PERIOD);
        assert!(
            session.game.world().ticks[1].is_empty(),
            "events are used once"
        );
    }

    #[test]
    fn a_click_outside_the_window_has_no_cursor() {
        let (mut session, now) = session();
        session.window_event(&cursor_moved(5.0, 5.0), now);
        session.window_event(
            &WindowEvent::CursorLeft {
                device_id: DeviceId::dummy(),
            },
            now,
        );
        session.window_event(&press(MouseButton::Left), now);
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now);
        assert!(session.game.world().ticks[0].is_empty());
    }

    #[test]
    fn each_redraw_ticks_and_draws_at_the_window_size() {
        let (mut session, now) = session();
        for frame in 0..3u32 {
            begin_tick(&mut session);
            session.window_event(&WindowEvent::RedrawRequested, now + PERIOD * frame);
        }
        assert_eq!(session.game.ticks(), 3);
        assert_eq!(session.view.draws.len(), 3);
        assert_eq!(session.view.draws[0], (640, 480, 1.0, "tick 0".len()));
        // What draw allocated counts in the frame's arena bytes.
        assert!(session.game.history().latest().unwrap().arena_bytes >= "tick 2".len());
    }

    #[test]
    fn a_minimized_window_keeps_ticking_without_drawing() {
        let (mut session, now) = session();
        session.window_event(&WindowEvent::Resized(PhysicalSize::new(0, 0)), now);
        assert!(!session.state().is_drawable());

        // A frame is due: no redraw is asked for, the tick runs at once.
        begin_tick(&mut session);
        assert_eq!(
            session.about_to_wait(now),
            Schedule::WakeAt(Some(now + PERIOD))
        );
        assert_eq!(session.game.ticks(), 1);
        // A redraw the platform sends anyway ticks but draws nothing.
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now + PERIOD);
        assert_eq!(session.game.ticks(), 2);
        assert!(session.view.draws.is_empty(), "nothing is drawn at 0x0");

        // Restored to a new size: drawn again, at that size.
        session.window_event(&WindowEvent::Resized(PhysicalSize::new(800, 600)), now);
        let due = now + PERIOD * 2;
        assert_eq!(
            session.about_to_wait(due),
            Schedule::Redraw(Some(due + PERIOD))
        );
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, due);
        assert_eq!(session.view.draws, [(800, 600, 1.0, "tick 2".len())]);
    }

    #[test]
    fn a_zero_width_or_height_alone_is_not_drawn_either() {
        let (mut session, now) = session();
        for size in [PhysicalSize::new(0, 480), PhysicalSize::new(640, 0)] {
            session.window_event(&WindowEvent::Resized(size), now);
            begin_tick(&mut session);
            session.window_event(&WindowEvent::RedrawRequested, now);
        }
        session.window_event(&WindowEvent::Occluded(true), now);
        session.window_event(&WindowEvent::Resized(PhysicalSize::new(64, 64)), now);
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now);
        assert_eq!(session.game.ticks(), 3);
        assert!(session.view.draws.is_empty());
    }

    #[test]
    fn a_scale_factor_change_reaches_the_drawing() {
        let (mut session, now) = session();
        session.scale_factor_changed(2.0);
        session.window_event(&cursor_moved(100.0, 60.0), now);
        let logical = session.state().cursor_logical().unwrap();
        assert_eq!((logical.x, logical.y), (50.0, 30.0));
        session.scale_factor_changed(f64::NAN); // ignored, not stored
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now);
        assert_eq!(session.view.draws[0].2, 2.0);
    }

    #[test]
    fn close_requested_stops_the_loop() {
        let (mut session, now) = session();
        session.window_event(&WindowEvent::CloseRequested, now);
        assert!(session.wants_exit());
        assert_eq!(session.about_to_wait(now), Schedule::Sleep);
        session.window_event(&WindowEvent::RedrawRequested, now);
        assert_eq!(session.game.ticks(), 0, "no tick after the close");
    }

    #[test]
    fn the_view_can_ask_to_exit() {
        let (mut session, now) = session();
        session.view.exit_on_right_click = true;
        session.window_event(&press(MouseButton::Right), now);
        assert!(session.wants_exit());
    }

    #[test]
    fn max_frames_exits_after_that_many_ticks() {
        let mut session = Session::new(FrameLoop::new(Recorder::default()), TestView::default());
        session.set_max_frames(Some(2));
        session.resume(PhysicalSize::new(10, 10), 1.0, None);
        let now = Instant::now();
        for _ in 0..2 {
            assert!(!session.wants_exit());
            begin_tick(&mut session);
            assert_eq!(session.about_to_wait(now), Schedule::Redraw(None));
            session.window_event(&WindowEvent::RedrawRequested, now);
        }
        assert!(session.wants_exit());
        assert_eq!(session.game.ticks(), 2);
    }

    #[test]
    fn frames_are_paced_and_time_is_simulated_in_fixed_steps() {
        let (mut session, now) = session();
        assert_eq!(
            session.about_to_wait(now),
            Schedule::Redraw(Some(now + PERIOD))
        );
        assert_eq!(
            session.about_to_wait(now + Duration::from_millis(3)),
            Schedule::WakeAt(Some(now + PERIOD))
        );
        let step = session.game.step();
        for frame in 0..10 {
            begin_tick(&mut session);
            session.window_event(&WindowEvent::RedrawRequested, now + step * frame);
        }
        // 1 step for the first tick, then one per step of wall-clock time.
        assert_eq!(session.game.world().steps, 10);
    }

    #[test]
    fn nothing_ticks_while_suspended_and_the_pause_is_not_simulated() {
        let (mut session, now) = session();
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, now);
        session.suspend();
        assert_eq!(session.about_to_wait(now + PERIOD), Schedule::Sleep);
        session.window_event(&WindowEvent::RedrawRequested, now + PERIOD);
        assert_eq!(session.game.ticks(), 1);

        let later = now + Duration::from_secs(30);
        session.resume(PhysicalSize::new(640, 480), 1.0, Some(PERIOD));
        begin_tick(&mut session);
        session.window_event(&WindowEvent::RedrawRequested, later);
        assert_eq!(session.game.ticks(), 2);
        assert_eq!(session.game.history().latest().unwrap().steps, 1);
    }
}
