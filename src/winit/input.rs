//! What a [`View`](super::View) sees of the window when it translates input:
//! [`WindowState`] (size, scale factor, cursor, modifiers, focus) and
//! [`Input`], where the game events of the next tick are queued.

use winit::dpi::{LogicalPosition, PhysicalPosition, PhysicalSize};
use winit::event::WindowEvent;
use winit::keyboard::ModifiersState;

/// The window's state as the adapter last heard it from winit.
///
/// # Example
///
/// ```
/// use tickarena::winit::WindowState;
///
/// let state = WindowState::default();
/// assert_eq!(state.scale_factor(), 1.0);
/// assert!(state.cursor().is_none());
/// assert!(!state.is_drawable(), "a window of 0x0 pixels is not drawn");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WindowState {
    size: PhysicalSize<u32>,
    scale_factor: f64,
    cursor: Option<PhysicalPosition<f64>>,
    modifiers: ModifiersState,
    focused: bool,
    occluded: bool,
}

impl Default for WindowState {
    fn default() -> Self {
        WindowState {
            size: PhysicalSize::new(0, 0),
            scale_factor: 1.0,
            cursor: None,
            modifiers: ModifiersState::empty(),
            focused: false,
            occluded: false,
        }
    }
}

impl WindowState {
    /// The state of a focused window of `size` pixels at `scale_factor`
    /// (what the loop starts from when the window opens; public so that
    /// views can be tested without a window).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::winit::WindowState;
    /// use winit::dpi::PhysicalSize;
    ///
    /// let state = WindowState::new(PhysicalSize::new(800, 600), 2.0);
    /// assert!(state.is_drawable() && state.is_focused());
    /// ```
    pub fn new(size: PhysicalSize<u32>, scale_factor: f64) -> Self {
        WindowState {
            size,
            scale_factor,
            focused: true,
            ..WindowState::default()
        }
    }

    /// Takes in what a window event says about the window.
    pub(super) fn observe(&mut self, event: &WindowEvent) {
        match event {
            WindowEvent::Resized(size) => self.size = *size,
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                self.set_scale_factor(*scale_factor);
            }
            WindowEvent::CursorMoved { position, .. } => self.cursor = Some(*position),
            WindowEvent::CursorLeft { .. } => self.cursor = None,
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::Focused(focused) => {
                self.focused = *focused;
                if !focused {
                    // Keys released while another window has the focus are
                    // never reported; forget the modifiers held now.
                    self.modifiers = ModifiersState::empty();
                }
            }
            WindowEvent::Occluded(occluded) => self.occluded = *occluded,
            _ => {}
        }
    }

    /// A new scale factor (`ScaleFactorChanged`; kept apart because winit
    /// gives no way to build that event outside winit, and tests need it).
    pub(super) fn set_scale_factor(&mut self, scale_factor: f64) {
        if scale_factor.is_finite() && scale_factor > 0.0 {
            self.scale_factor = scale_factor;
        }
    }

    /// The drawable area in physical pixels (0x0 while minimized).
    ///
    /// # Example
    ///
    /// ```
    /// let state = tickarena::winit::WindowState::default();
    /// assert_eq!((state.size().width, state.size().height), (0, 0));
    /// ```
    pub fn size(&self) -> PhysicalSize<u32> {
        self.size
    }

    /// Physical pixels per logical pixel.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::winit::WindowState::default().scale_factor(), 1.0);
    /// ```
    pub fn scale_factor(&self) -> f64 {
        self.scale_factor
    }

    /// Where the cursor is, in physical pixels from the top left of the
    /// window; `None` while it is outside.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::winit::WindowState::default().cursor().is_none());
    /// ```
    pub fn cursor(&self) -> Option<PhysicalPosition<f64>> {
        self.cursor
    }

    /// The cursor in logical pixels (physical divided by the scale factor).
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::winit::WindowState::default().cursor_logical().is_none());
    /// ```
    pub fn cursor_logical(&self) -> Option<LogicalPosition<f64>> {
        self.cursor
            .map(|position| position.to_logical(self.scale_factor))
    }

    /// The modifier keys held (shift, control, alt, super).
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::winit::WindowState::default().modifiers().is_empty());
    /// ```
    pub fn modifiers(&self) -> ModifiersState {
        self.modifiers
    }

    /// Whether the window has the keyboard focus.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(!tickarena::winit::WindowState::default().is_focused());
    /// ```
    pub fn is_focused(&self) -> bool {
        self.focused
    }

    /// Whether a frame drawn now would be seen: the window has pixels (it
    /// is 0x0 while minimized on some platforms) and is not hidden.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(!tickarena::winit::WindowState::default().is_drawable());
    /// ```
    pub fn is_drawable(&self) -> bool {
        self.size.width > 0 && self.size.height > 0 && !self.occluded
    }
}

/// Where a [`View`](super::View) puts the game events it makes from window
/// input; they are the input of the next tick, in order.
///
/// # Example
///
/// ```
/// use tickarena::winit::{Input, WindowState};
///
/// let mut queue = Vec::new();
/// let mut exit = false;
/// let state = WindowState::default();
/// let mut input = Input::new(&mut queue, &state, 0, &mut exit);
/// input.push('a');
/// input.extend(['b', 'c']);
/// input.exit();
/// assert_eq!(queue, ['a', 'b', 'c']);
/// assert!(exit);
/// ```
pub struct Input<'a, E> {
    queue: &'a mut Vec<E>,
    state: &'a WindowState,
    tick: u64,
    exit: &'a mut bool,
}

impl<'a, E> Input<'a, E> {
    /// An input that appends to `queue` and sets `exit` on
    /// [`exit`](Self::exit). The window loop makes these; this is public so
    /// views can be tested without a window.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit, state) = (Vec::<u8>::new(), false, WindowState::default());
    /// let input = Input::new(&mut queue, &state, 7, &mut exit);
    /// assert_eq!(input.tick(), 7);
    /// ```
    pub fn new(
        queue: &'a mut Vec<E>,
        state: &'a WindowState,
        tick: u64,
        exit: &'a mut bool,
    ) -> Self {
        Input {
            queue,
            state,
            tick,
            exit,
        }
    }

    /// Queues a game event for the next tick.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit) = (Vec::new(), false);
    /// Input::new(&mut queue, &WindowState::default(), 0, &mut exit).push(5u32);
    /// assert_eq!(queue, [5]);
    /// ```
    pub fn push(&mut self, event: E) {
        self.queue.push(event);
    }

    /// Asks the window loop to close the window and return.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit) = (Vec::<()>::new(), false);
    /// Input::new(&mut queue, &WindowState::default(), 0, &mut exit).exit();
    /// assert!(exit);
    /// ```
    pub fn exit(&mut self) {
        *self.exit = true;
    }

    /// The window's state (size, cursor, modifiers), already updated with
    /// the event being translated.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit, state) = (Vec::<()>::new(), false, WindowState::default());
    /// let input = Input::new(&mut queue, &state, 0, &mut exit);
    /// assert!(input.state().cursor().is_none());
    /// ```
    pub fn state(&self) -> &WindowState {
        self.state
    }

    /// The number of the tick these events will go to.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit) = (Vec::<()>::new(), false);
    /// assert_eq!(Input::new(&mut queue, &WindowState::default(), 3, &mut exit).tick(), 3);
    /// ```
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Game events queued for the next tick so far.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::winit::{Input, WindowState};
    /// let (mut queue, mut exit) = (vec![1, 2], false);
    /// assert_eq!(Input::new(&mut queue, &WindowState::default(), 0, &mut exit).queued(), 2);
    /// ```
    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}

impl<E> Extend<E> for Input<'_, E> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, events: I) {
        self.queue.extend(events);
    }
}
