//! Runs a [`FrameLoop`] in a winit window (cargo feature `winit`).
//!
//! [`WindowLoop`] is a winit [`ApplicationHandler`]: it opens the window,
//! turns window and device events into the game's events (through the
//! [`View`] the application writes), runs one tick per frame at the
//! display's rate, draws the frame at the end of the tick while its arena
//! is alive, and reclaims the arena. It handles resume and suspension,
//! closing, resizing (a minimized 0x0 window keeps ticking without being
//! drawn), scale factor changes, and exiting on request or after a set
//! number of frames.
//!
//! The feature enables winit without platform features: the application
//! picks them on its own winit dependency (`x11`, `wayland`, ...), as it
//! would without tickarena.
//!
//! # Example
//!
//! ```no_run
//! use tickarena::frame_loop::{Frame, FrameLoop, Game};
//! use tickarena::winit::{DrawContext, Input, Pacing, View, WindowLoop};
//! use winit::event::WindowEvent;
//!
//! struct Idle;
//! impl Game for Idle {
//!     type Event = ();
//!     type Scratch<'f> = ();
//!     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
//! }
//! struct Blank;
//! impl View<Idle> for Blank {
//!     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
//!     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
//! }
//!
//! let done = WindowLoop::new(FrameLoop::new(Idle), Blank)
//!     .with_pacing(Pacing::Hz(30.0))
//!     .with_max_frames(90)
//!     .run()?;
//! assert_eq!(done.game().ticks(), 90);
//! # Ok::<(), winit::error::EventLoopError>(())
//! ```

mod input;
mod pacing;
mod session;
mod view;

use std::sync::Arc;

use winit::application::ApplicationHandler;
use winit::error::{EventLoopError, OsError};
use winit::event::{DeviceEvent, DeviceId, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use crate::frame_loop::clock::Instant;
use crate::frame_loop::{FrameLoop, Game};

pub use input::{Input, WindowState};
pub use pacing::Pacing;
pub use view::{DrawContext, View};

use session::{Schedule, Session};

/// A [`FrameLoop`] and its [`View`] running in a window: the winit
/// [`ApplicationHandler`] that drives them.
///
/// Build it with [`new`](Self::new), set the pacing and an optional frame
/// limit, and [`run`](Self::run) it; or hand it to an event loop of your
/// own with `event_loop.run_app(&mut window_loop)`.
///
/// # Example
///
/// ```no_run
/// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
/// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
/// # use winit::event::WindowEvent;
/// # struct Idle;
/// # impl Game for Idle {
/// #     type Event = ();
/// #     type Scratch<'f> = ();
/// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
/// # }
/// # struct Blank;
/// # impl View<Idle> for Blank {
/// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
/// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
/// # }
/// let event_loop = winit::event_loop::EventLoop::new()?;
/// let mut window_loop = WindowLoop::new(FrameLoop::new(Idle), Blank).with_max_frames(10);
/// event_loop.run_app(&mut window_loop)?;
/// let (game, _view) = window_loop.into_parts();
/// assert_eq!(game.ticks(), 10);
/// # Ok::<(), winit::error::EventLoopError>(())
/// ```
pub struct WindowLoop<G: Game, V> {
    session: Session<G, V>,
    pacing: Pacing,
    window: Option<Arc<Window>>,
    /// The window could not be opened: `run` returns this.
    error: Option<OsError>,
}

impl<G: Game, V: View<G>> WindowLoop<G, V> {
    /// A window loop for `game`, drawn and fed by `view`, paced at the
    /// display's refresh rate, running until the window is closed or the
    /// view asks to exit.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// let window_loop = WindowLoop::new(FrameLoop::new(Idle), Blank);
    /// assert_eq!(window_loop.game().ticks(), 0); // no window until it runs
    /// ```
    pub fn new(game: FrameLoop<G>, view: V) -> Self {
        WindowLoop {
            session: Session::new(game, view),
            pacing: Pacing::default(),
            window: None,
            error: None,
        }
    }

    /// Sets how often frames run (the display's rate by default).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, Pacing, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// let window_loop = WindowLoop::new(FrameLoop::new(Idle), Blank).with_pacing(Pacing::Unlimited);
    /// assert_eq!(window_loop.pacing(), Pacing::Unlimited);
    /// ```
    pub fn with_pacing(mut self, pacing: Pacing) -> Self {
        self.pacing = pacing;
        self
    }

    /// Makes the loop exit by itself after `frames` ticks (for smoke tests
    /// and recordings).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// let window_loop = WindowLoop::new(FrameLoop::new(Idle), Blank).with_max_frames(120);
    /// # drop(window_loop);
    /// ```
    pub fn with_max_frames(mut self, frames: u64) -> Self {
        self.session.set_max_frames(Some(frames));
        self
    }

    /// How often frames run.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, Pacing, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// assert_eq!(WindowLoop::new(FrameLoop::new(Idle), Blank).pacing(), Pacing::Display);
    /// ```
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// Makes an event loop, runs until the window closes, the view asks to
    /// exit or the frame limit is reached, and gives the loop back (with
    /// the game's final state).
    ///
    /// # Errors
    ///
    /// If winit cannot make an event loop (no display to connect to, or an
    /// event loop was already made in this process) or open the window.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// match WindowLoop::new(FrameLoop::new(Idle), Blank).run() {
    ///     Ok(done) => println!("{} frames", done.game().ticks()),
    ///     Err(error) => eprintln!("no window: {error}"),
    /// }
    /// ```
    pub fn run(mut self) -> Result<Self, EventLoopError> {
        let event_loop = EventLoop::new()?;
        event_loop.run_app(&mut self)?;
        match self.error.take() {
            Some(error) => Err(EventLoopError::Os(error)),
            None => Ok(self),
        }
    }

    /// In a browser (wasm32-unknown-unknown): starts the loop and returns
    /// at once. A web page has no loop of its own to block in: the browser
    /// calls back into this one for every event and animation frame, until
    /// the page closes or the loop exits. The window is a canvas: give the
    /// view's [`View::window_attributes`] one of the page's canvases, or
    /// winit's `with_append(true)` to add one to the page. This is the web's
    /// [`run`](Self::run), which is for native targets; the rest of the
    /// loop works as it does natively.
    ///
    /// A window that cannot be opened is reported by nothing but an empty
    /// page: the loop never runs and the error has no caller to go to.
    ///
    /// # Errors
    ///
    /// If winit cannot make an event loop (one was already made).
    ///
    /// # Example
    ///
    /// ```no_run
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// use winit::platform::web::WindowAttributesExtWebSys;
    /// use winit::window::{Window, WindowAttributes};
    ///
    /// struct OnThePage;
    /// impl View<Idle> for OnThePage {
    ///     fn window_attributes(&self) -> WindowAttributes {
    ///         Window::default_attributes().with_append(true)
    ///     }
    ///     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    ///     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// WindowLoop::new(FrameLoop::new(Idle), OnThePage).spawn()?;
    /// // The page runs the loop from here on.
    /// # Ok::<(), winit::error::EventLoopError>(())
    /// ```
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    pub fn spawn(self) -> Result<(), EventLoopError>
    where
        G: 'static,
        V: 'static,
    {
        use winit::platform::web::EventLoopExtWebSys;
        EventLoop::new()?.spawn_app(self);
        Ok(())
    }

    /// The game loop: world, arena, history.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// let window_loop = WindowLoop::new(FrameLoop::new(Idle), Blank);
    /// assert!(window_loop.game().history().is_empty());
    /// ```
    pub fn game(&self) -> &FrameLoop<G> {
        &self.session.game
    }

    /// The view.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// struct Named(&'static str);
    /// impl View<Idle> for Named {
    ///     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    ///     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// }
    /// assert_eq!(WindowLoop::new(FrameLoop::new(Idle), Named("hud")).view().0, "hud");
    /// ```
    pub fn view(&self) -> &V {
        &self.session.view
    }

    /// Takes the game loop and the view back.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use tickarena::winit::{DrawContext, Input, View, WindowLoop};
    /// # use winit::event::WindowEvent;
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// # struct Blank;
    /// # impl View<Idle> for Blank {
    /// #     fn input(&mut self, _: &WindowEvent, _: &mut Input<'_, ()>) {}
    /// #     fn draw(&mut self, _: &Idle, _: &Frame<'_, Idle>, _: &(), _: &DrawContext<'_>) {}
    /// # }
    /// let (game, Blank) = WindowLoop::new(FrameLoop::new(Idle), Blank).into_parts();
    /// assert_eq!(game.ticks(), 0);
    /// ```
    pub fn into_parts(self) -> (FrameLoop<G>, V) {
        (self.session.game, self.session.view)
    }

    /// Opens the window, or reports why it could not be.
    fn open_window(&mut self, event_loop: &ActiveEventLoop) -> Option<Arc<Window>> {
        if let Some(window) = &self.window {
            return Some(window.clone());
        }
        match event_loop.create_window(self.session.view.window_attributes()) {
            Ok(window) => {
                let window = Arc::new(window);
                self.window = Some(window.clone());
                Some(window)
            }
            Err(error) => {
                self.error = Some(error);
                self.session.request_exit();
                event_loop.exit();
                None
            }
        }
    }

    fn exit_if_asked(&self, event_loop: &ActiveEventLoop) {
        if self.session.wants_exit() {
            event_loop.exit();
        }
    }
}

impl<G: Game, V: View<G>> ApplicationHandler for WindowLoop<G, V> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let Some(window) = self.open_window(event_loop) else {
            return;
        };
        let refresh = window
            .current_monitor()
            .and_then(|monitor| monitor.refresh_rate_millihertz());
        self.session.resume(
            window.inner_size(),
            window.scale_factor(),
            self.pacing.period(refresh),
        );
        self.session.view.resumed(&window);
        window.request_redraw();
    }

    fn suspended(&mut self, _: &ActiveEventLoop) {
        self.session.suspend();
        self.session.view.suspended();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        if self.window.as_ref().is_none_or(|window| window.id() != id) {
            return;
        }
        self.session.window_event(&event, Instant::now());
        self.exit_if_asked(event_loop);
    }

    fn device_event(&mut self, event_loop: &ActiveEventLoop, device: DeviceId, event: DeviceEvent) {
        self.session.device_event(device, &event);
        self.exit_if_asked(event_loop);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let schedule = self.session.about_to_wait(Instant::now());
        if let (Schedule::Redraw(_), Some(window)) = (schedule, &self.window) {
            window.request_redraw();
        }
        event_loop.set_control_flow(match schedule {
            Schedule::Sleep => ControlFlow::Wait,
            Schedule::Redraw(wake_at) | Schedule::WakeAt(wake_at) => {
                wake_at.map_or(ControlFlow::Poll, ControlFlow::WaitUntil)
            }
        });
        self.exit_if_asked(event_loop);
    }
}
