//! [`View`]: the window side of a game (input translation and drawing),
//! and [`DrawContext`], what a frame is drawn with.

use std::num::NonZeroU32;
use std::sync::Arc;

use winit::event::{DeviceEvent, DeviceId, WindowEvent};
use winit::window::{Window, WindowAttributes};

use super::input::{Input, WindowState};
use crate::frame_loop::{Frame, FrameHistory, Game};

/// The window side of a game: which window to open, how window input
/// becomes the game's events, and how a frame is drawn. The world (the
/// [`Game`]) stays free of windowing, so the same game runs headless in
/// tests and in a window.
///
/// Only [`input`](Self::input) and [`draw`](Self::draw) must be written.
///
/// # Example
///
/// ```no_run
/// use std::sync::Arc;
/// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
/// use tickarena::winit::{DrawContext, Input, View, WindowLoop};
/// use winit::event::{ElementState, WindowEvent};
/// use winit::window::Window;
///
/// struct Clicks(u32);
/// struct Click;
/// impl Action<Clicks> for Click {
///     fn apply(&mut self, world: &mut Clicks, _: &mut Frame<'_, Clicks>) {
///         world.0 += 1;
///     }
/// }
/// impl Game for Clicks {
///     type Event = ();
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
///         frame.push(Click);
///     }
/// }
///
/// #[derive(Default)]
/// struct Title(Option<Arc<Window>>);
/// impl View<Clicks> for Title {
///     fn resumed(&mut self, window: &Arc<Window>) {
///         self.0 = Some(window.clone());
///     }
///     fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, ()>) {
///         if let WindowEvent::MouseInput { state: ElementState::Pressed, .. } = event {
///             input.push(());
///         }
///     }
///     fn draw(&mut self, world: &Clicks, frame: &Frame<'_, Clicks>, _: &(), _: &DrawContext<'_>) {
///         let title = tickarena::format_in!(frame.arena(), "{} clicks", world.0);
///         if let Some(window) = &self.0 {
///             window.set_title(&title);
///         }
///     }
/// }
///
/// let finished = WindowLoop::new(FrameLoop::new(Clicks(0)), Title::default()).run()?;
/// println!("{} clicks in {} frames", finished.game().world().0, finished.game().ticks());
/// # Ok::<(), winit::error::EventLoopError>(())
/// ```
pub trait View<G: Game> {
    /// The window to open. The default is a 1280x720 window titled
    /// "tickarena".
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// struct Plain;
    /// impl View<Sum> for Plain {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// assert_eq!(Plain.window_attributes().title, "tickarena");
    /// ```
    fn window_attributes(&self) -> WindowAttributes {
        Window::default_attributes()
            .with_title("tickarena")
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 720.0))
    }

    /// The window exists (first start, or back from a suspension): make the
    /// surfaces that draw into it.
    ///
    /// # Example
    ///
    /// A view keeps the window to draw into (with softbuffer's
    /// `Surface::new`, say); the [`View`] example runs it in a real window.
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// use std::sync::Arc;
    /// use winit::window::Window;
    ///
    /// #[derive(Default)]
    /// struct Screen(Option<Arc<Window>>);
    /// impl View<Sum> for Screen {
    ///     fn resumed(&mut self, window: &Arc<Window>) {
    ///         self.0 = Some(window.clone());
    ///     }
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// assert!(Screen::default().0.is_none(), "no window before the first resume");
    /// ```
    fn resumed(&mut self, window: &Arc<Window>) {
        let _ = window;
    }

    /// The application is suspended (mobile platforms): drop the surfaces.
    /// No tick runs until the next [`resumed`](Self::resumed).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// struct Screen(Option<Vec<u32>>); // stands for a drawing surface
    /// impl View<Sum> for Screen {
    ///     fn suspended(&mut self) {
    ///         self.0 = None;
    ///     }
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// let mut screen = Screen(Some(vec![0; 64]));
    /// screen.suspended();
    /// assert!(screen.0.is_none());
    /// ```
    fn suspended(&mut self) {}

    /// Turns a window event into zero or more game events for the next
    /// tick. Every window event comes here but `RedrawRequested`; the
    /// window state in `input` already reflects it (a new cursor position,
    /// size or modifier), and the loop has already acted on it (closing on
    /// `CloseRequested`, skipping the drawing of a 0x0 window): a view only
    /// translates, and may call [`Input::exit`].
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// use winit::event::{DeviceId, ElementState, MouseButton};
    ///
    /// struct Clicks;
    /// impl View<Sum> for Clicks {
    ///     fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, u32>) {
    ///         if let WindowEvent::MouseInput { state: ElementState::Pressed, .. } = event {
    ///             input.push(1);
    ///         }
    ///     }
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// let (mut queue, mut exit, state) = (Vec::new(), false, WindowState::default());
    /// let press = WindowEvent::MouseInput {
    ///     device_id: DeviceId::dummy(),
    ///     state: ElementState::Pressed,
    ///     button: MouseButton::Left,
    /// };
    /// Clicks.input(&press, &mut Input::new(&mut queue, &state, 0, &mut exit));
    /// assert_eq!(queue, [1]);
    /// ```
    fn input(&mut self, event: &WindowEvent, input: &mut Input<'_, G::Event>);

    /// The same for a device event (raw mouse motion, for example). Ignored
    /// by default.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// use winit::event::{DeviceEvent, DeviceId};
    ///
    /// struct Mouse;
    /// impl View<Sum> for Mouse {
    ///     fn device_input(&mut self, _: DeviceId, event: &DeviceEvent, input: &mut Input<'_, u32>) {
    ///         if let DeviceEvent::MouseMotion { delta: (dx, _) } = event {
    ///             input.push(dx.abs() as u32);
    ///         }
    ///     }
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// let (mut queue, mut exit, state) = (Vec::new(), false, WindowState::default());
    /// let motion = DeviceEvent::MouseMotion { delta: (-3.0, 1.0) };
    /// Mouse.device_input(DeviceId::dummy(), &motion, &mut Input::new(&mut queue, &state, 0, &mut exit));
    /// assert_eq!(queue, [3]);
    /// ```
    fn device_input(
        &mut self,
        device: DeviceId,
        event: &DeviceEvent,
        input: &mut Input<'_, G::Event>,
    ) {
        let _ = (device, event, input);
    }

    /// Called once before every tick: for input that is a state rather
    /// than an event (keys held down, gamepad axes), and for scripted
    /// input. Nothing by default.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// struct Autopilot;
    /// impl View<Sum> for Autopilot {
    ///     fn poll(&mut self, input: &mut Input<'_, u32>) {
    ///         if input.tick() % 2 == 0 {
    ///             input.push(10); // every other tick
    ///         }
    ///     }
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// #     fn draw(&mut self, _: &Sum, _: &Frame<'_, Sum>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// let (mut queue, mut exit, state) = (Vec::new(), false, WindowState::default());
    /// Autopilot.poll(&mut Input::new(&mut queue, &state, 4, &mut exit));
    /// assert_eq!(queue, [10]);
    /// ```
    fn poll(&mut self, input: &mut Input<'_, G::Event>) {
        let _ = input;
    }

    /// Draws the frame: called at the end of each tick whose window has
    /// pixels, after the actions and updates, before the frame's arena is
    /// reclaimed, so draw lists and text can live in `frame.arena()`.
    /// `scratch` is the tick's [`Game::Scratch`] (what the update steps
    /// built for drawing, e.g. a visible list).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowState};
    /// # use winit::event::WindowEvent;
    /// # struct Sum(u32);
    /// # struct Add(u32);
    /// # impl Action<Sum> for Add {
    /// #     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) { world.0 += self.0; }
    /// # }
    /// # impl Game for Sum {
    /// #     type Event = u32;
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, n: u32, frame: &mut Frame<'f, Self>) { frame.push(Add(n)); }
    /// # }
    /// struct Caption(String);
    /// impl View<Sum> for Caption {
    ///     fn draw(&mut self, world: &Sum, frame: &Frame<'_, Sum>, _: &(), context: &DrawContext<'_>) {
    ///         let text = tickarena::format_in!(frame.arena(), "{} at {}px", world.0, context.width());
    ///         self.0 = text.as_str().to_owned();
    ///     }
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, u32>) {}
    /// }
    /// // Drawn without a window: the loop does the same with the real one.
    /// let mut game = FrameLoop::new(Sum(0));
    /// let state = WindowState::new((320, 200).into(), 1.0);
    /// let mut caption = Caption(String::new());
    /// game.tick_with([7], game.step(), |world, frame, scratch, history| {
    ///     caption.draw(world, frame, scratch, &DrawContext::new(&state, history).unwrap());
    /// });
    /// assert_eq!(caption.0, "7 at 320px");
    /// ```
    fn draw<'f>(
        &mut self,
        world: &G,
        frame: &Frame<'f, G>,
        scratch: &G::Scratch<'f>,
        context: &DrawContext<'_>,
    );
}

/// What a frame is drawn with, besides the world and the frame: the size
/// of the window (never 0x0: such frames are not drawn), its state, and the
/// history of the frames before this one.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::FrameHistory;
/// use tickarena::winit::{DrawContext, WindowState};
///
/// let history = FrameHistory::with_capacity(8);
/// let state = WindowState::default();
/// // 0x0: nothing to draw.
/// assert!(DrawContext::new(&state, &history).is_none());
/// ```
#[derive(Clone, Copy)]
pub struct DrawContext<'a> {
    width: NonZeroU32,
    height: NonZeroU32,
    state: &'a WindowState,
    history: &'a FrameHistory,
}

impl<'a> DrawContext<'a> {
    /// A context for drawing a window in `state`, or `None` when it is not
    /// drawable (0x0, or hidden).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// # use tickarena::winit::{DrawContext, WindowState};
    /// let history = FrameHistory::with_capacity(1);
    /// assert!(DrawContext::new(&WindowState::default(), &history).is_none());
    /// ```
    pub fn new(state: &'a WindowState, history: &'a FrameHistory) -> Option<Self> {
        if !state.is_drawable() {
            return None;
        }
        Some(DrawContext {
            width: NonZeroU32::new(state.size().width)?,
            height: NonZeroU32::new(state.size().height)?,
            state,
            history,
        })
    }

    /// Width of the window in physical pixels.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// # use tickarena::winit::{DrawContext, WindowState};
    /// let (state, history) = (WindowState::new((640, 360).into(), 1.5), FrameHistory::with_capacity(4));
    /// let context = DrawContext::new(&state, &history).unwrap();
    /// assert_eq!(context.width().get(), 640);
    /// ```
    pub fn width(&self) -> NonZeroU32 {
        self.width
    }

    /// Height of the window in physical pixels.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// # use tickarena::winit::{DrawContext, WindowState};
    /// let (state, history) = (WindowState::new((640, 360).into(), 1.5), FrameHistory::with_capacity(4));
    /// let context = DrawContext::new(&state, &history).unwrap();
    /// assert_eq!(context.height().get(), 360);
    /// ```
    pub fn height(&self) -> NonZeroU32 {
        self.height
    }

    /// The window's state: scale factor, cursor, modifiers.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// # use tickarena::winit::{DrawContext, WindowState};
    /// let (state, history) = (WindowState::new((640, 360).into(), 1.5), FrameHistory::with_capacity(4));
    /// let context = DrawContext::new(&state, &history).unwrap();
    /// assert_eq!(context.state().scale_factor(), 1.5);
    /// ```
    pub fn state(&self) -> &WindowState {
        self.state
    }

    /// The figures of the frames before this one (arena bytes, actions,
    /// tick times) and their high-water mark: what an overlay plots.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// # use tickarena::winit::{DrawContext, WindowState};
    /// let (state, history) = (WindowState::new((640, 360).into(), 1.5), FrameHistory::with_capacity(4));
    /// let context = DrawContext::new(&state, &history).unwrap();
    /// assert_eq!(context.history().capacity(), 4);
    /// ```
    pub fn history(&self) -> &FrameHistory {
        self.history
    }
}
