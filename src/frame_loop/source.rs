//! [`EventSource`]: where a tick's events come from when they live in the
//! tick's own arena (datagrams received into it and decoded there), and
//! [`Receive`]: how the game turns each of them into actions.
//!
//! A server's input is not a list the caller holds before the tick: it is
//! whatever the socket has when the tick starts, and each packet decodes
//! into data that lives exactly as long as the tick. So the loop asks the
//! source once per tick ([`FrameLoop::tick_from`](super::FrameLoop::tick_from)),
//! lending it the frame's arena; the source receives and decodes into it
//! and hands each event on; the game maps each event to actions, as
//! [`Game::actions`] does for the events of [`FrameLoop::tick`](super::FrameLoop::tick).
//! The source knows bytes (a socket, a replay file, a test's queue), the
//! game knows messages: either can be swapped, and neither can keep an
//! event past its tick.

use super::{Frame, Game};
use crate::arena::FrameArena;

/// A source of events that live in the tick's arena: asked once per tick
/// by [`FrameLoop::tick_from`](super::FrameLoop::tick_from), at the start
/// of the tick, with the frame's arena.
///
/// [`poll`](Self::poll) receives what is pending (datagrams, lines of a
/// replay), decodes it into `arena`, and calls `emit` with each event; the
/// loop hands each at once to the game's [`Receive::receive`], which turns
/// it into actions. An event may borrow the arena (`Event<'f>` names its
/// lifetime), so a decoded message is the event itself, with no copy; the
/// borrow checker keeps it, and everything it points to, inside the tick.
/// The source itself is `&mut` only for the call: it keeps its socket and
/// its counters, never the tick's data.
///
/// # Example
///
/// ```
/// use std::collections::VecDeque;
/// use tickarena::FrameArena;
/// use tickarena::frame_loop::{EventSource, Frame, FrameLoop, Game, Receive};
///
/// // A test's wire: the bytes of the packets waiting for the next tick.
/// struct Wire(VecDeque<Vec<u8>>);
///
/// impl EventSource for Wire {
///     type Event<'f> = &'f str; // a packet, as text in the tick's arena
///     fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f str)) {
///         while let Some(bytes) = self.0.pop_front() {
///             let copy = arena.alloc_slice_copy(&bytes); // "receive into the tick"
///             if let Ok(text) = std::str::from_utf8(copy) {
///                 emit(text);
///             }
///         }
///     }
/// }
///
/// #[derive(Default)]
/// struct Lobby { names: Vec<String> }
/// impl Game for Lobby {
///     type Event = (); // no events of its own: they come from the wire
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
/// }
/// impl Receive<Wire> for Lobby {
///     fn receive<'f>(&mut self, name: &'f str, _: &mut Frame<'f, Self>) {
///         self.names.push(name.to_owned()); // what the world keeps, it copies
///     }
/// }
///
/// let mut wire = Wire(VecDeque::from([b"ada".to_vec(), vec![0xff], b"grace".to_vec()]));
/// let mut game = FrameLoop::new(Lobby::default());
/// let record = game.tick_from(&mut wire, game.step());
/// assert_eq!(game.world().names, ["ada", "grace"]);
/// assert_eq!(record.events, 2);
/// assert_eq!(game.arena().used(), 0, "the packets went with the tick");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event source the frame loop can ask",
    label = "`FrameLoop::tick_from` needs `{Self}: EventSource`",
    note = "implement `tickarena::frame_loop::EventSource` for it: `type Event<'f>`, and \
            `fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(Self::Event<'f>))`"
)]
pub trait EventSource {
    /// One event of a tick, which may borrow the tick's arena for `'f`: a
    /// decoded message (`ClientMessage<'f>`), a `&'f [u8]` datagram, or
    /// a `Result` that also says why a datagram was refused.
    type Event<'f>;

    /// Receives what is pending into `arena` and calls `emit` with each
    /// event, in order. Called once per tick, before any other phase of it.
    /// A source with nothing pending emits nothing. (`emit` is a `dyn`
    /// callback, one indirect call per event, so that an implementation
    /// names `'f` the way the trait does whether or not its events borrow
    /// the arena: `emit: &mut dyn FnMut(u32)` matches as well.)
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(Self::Event<'f>));
}

/// How a game turns the events of the source `S` into actions: the
/// [`Game::actions`] of [`FrameLoop::tick_from`](super::FrameLoop::tick_from),
/// for events that live in the tick's arena. It is called for each event
/// as the source emits it; the actions it pushes apply once the source has
/// emitted the tick's last event, before the first update step, as the
/// actions of [`Game::actions`] do. It may also write the tick's scratch
/// ([`Frame::scratch`]).
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Action, EventSource, Frame, FrameLoop, Game, Receive};
/// use tickarena::FrameArena;
///
/// // Two messages a tick, "decoded" into the arena.
/// struct Numbers(u32);
/// impl EventSource for Numbers {
///     type Event<'f> = &'f [u32];
///     fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f [u32])) {
///         for _ in 0..2 {
///             self.0 += 1;
///             emit(arena.alloc_slice_fill_with(self.0 as usize, |i| i as u32));
///         }
///     }
/// }
///
/// struct Sum(u32);
/// struct Add(u32);
/// impl Action<Sum> for Add {
///     fn apply(&mut self, world: &mut Sum, _: &mut Frame<'_, Sum>) {
///         world.0 += self.0;
///     }
/// }
/// impl Game for Sum {
///     type Event = ();
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
/// }
/// impl Receive<Numbers> for Sum {
///     fn receive<'f>(&mut self, numbers: &'f [u32], frame: &mut Frame<'f, Self>) {
///         frame.push(Add(numbers.iter().sum()));
///     }
/// }
///
/// let (mut source, mut game) = (Numbers(0), FrameLoop::new(Sum(0)));
/// let record = game.tick_from(&mut source, game.step());
/// assert_eq!(game.world().0, 0 + 1); // [0] and [0, 1]
/// assert_eq!((record.events, record.actions), (2, 2));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not receive the events of `{S}`",
    label = "`FrameLoop::tick_from` needs `{Self}: Receive<{S}>`",
    note = "implement it: `impl Receive<{S}> for {Self} {{ fn receive<'f>(&mut self, event: <{S} as EventSource>::Event<'f>, frame: &mut Frame<'f, Self>) {{ .. }} }}`"
)]
pub trait Receive<S: EventSource>: Game {
    /// Turns one event of the source into zero or more actions, pushed
    /// onto the frame (or into the tick's scratch).
    fn receive<'f>(&mut self, event: S::Event<'f>, frame: &mut Frame<'f, Self>);
}
