//! The authoritative server as a `FrameLoop` game, one step per tick. Its
//! events are the datagrams: the [`Inbox`] (the loop's `EventSource`)
//! receives every pending datagram into the tick's arena and decodes each
//! there, and the server's `receive` checks the client and pushes an
//! action per message; the actions apply the inputs to the players and
//! hand this tick's chat lines to the tick's scratch; `update` simulates;
//! `end_frame` (the snapshots) encodes one update per client, with the
//! chat lines, and sends it; the loop resets the arena.
//!
//! What the frame's data is, and where, is the `C` parameter ([`Codec`]):
//! [`InArena`] decodes into the arena and encodes into it; [`OnHeap`]
//! decodes with serde's own derive into `String`s and `Vec`s (into a
//! receive buffer it reuses) and encodes into a `Vec` per update, as a
//! server is written without tickarena.

use std::io::ErrorKind;
use std::marker::PhantomData;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use serde::de::DeserializeSeed;
use tickarena::frame_loop::{EventSource, Frame, FrameAction, Game, Receive};
use tickarena::{FrameArena, FrameVec};

use crate::protocol::{
    Button, CHAT_LINES, ClientMessage, HeapClientMessage, HeapInput, HeapPlayerState, HeapUpdate,
    Input, MAX_DATAGRAM, MAX_DECODED, NEAR, PlayerState, Update, token,
};

/// Why a datagram was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    Oversize,
    Truncated,
    BadValueOrTag,
    Malformed,
    Trailing,
    /// The decode would have taken more than `MAX_DECODED` of the arena.
    OverBound,
    BadToken,
    UnknownClient,
}

impl Reject {
    pub const ALL: [Reject; 8] = [
        Reject::Oversize,
        Reject::Truncated,
        Reject::BadValueOrTag,
        Reject::Malformed,
        Reject::Trailing,
        Reject::OverBound,
        Reject::BadToken,
        Reject::UnknownClient,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reject::Oversize => "oversize",
            Reject::Truncated => "truncated",
            Reject::BadValueOrTag => "unknown tag or bad value",
            Reject::Malformed => "malformed",
            Reject::Trailing => "trailing bytes",
            Reject::OverBound => "over the per-packet bound",
            Reject::BadToken => "bad token",
            Reject::UnknownClient => "unknown client",
        }
    }

    /// The reason postcard's `error` gives.
    fn of(error: postcard::Error) -> Reject {
        match error {
            postcard::Error::DeserializeUnexpectedEnd => Reject::Truncated,
            postcard::Error::SerdeDeCustom | postcard::Error::DeserializeBadEnum => {
                Reject::BadValueOrTag
            }
            _ => Reject::Malformed,
        }
    }
}

/// What the server counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub received: u64,
    pub rejected: [u64; Reject::ALL.len()],
    pub applied: u64,
    /// Inputs skipped over: a sequence number jumped past one never applied.
    pub gaps: u64,
    pub sent: u64,
}

pub struct Player {
    pub name: String,
    pub address: Option<SocketAddr>,
    pub x: i32,
    pub y: i32,
    pub hp: u16,
    /// The newest input applied (0: none yet).
    pub last_applied: u32,
}

/// The calling thread's CPU time in nanoseconds (0 where there is no such
/// clock): what each phase of a tick costs the server, whatever the
/// scheduler did meanwhile.
pub fn thread_cpu_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// The thread CPU clock at the phase boundaries of the last tick: the end
/// of the events' phase (receive + decode + apply, when the update step
/// starts), the start and the end of the snapshots (`end_frame`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseMarks {
    pub update: u64,
    pub snapshots: u64,
    pub sent: u64,
}

/// The server's world. It sends through its own handle on the socket the
/// [`Inbox`] receives from.
pub struct Server<C> {
    pub socket: UdpSocket,
    pub players: Vec<Player>,
    /// The last chat lines, oldest first; each `String` keeps its capacity.
    pub chat: [String; CHAT_LINES],
    pub counts: Counts,
    pub marks: PhaseMarks,
    /// The heap version's chat lines of this tick, moved out of its
    /// messages (the arena version's are in the tick's scratch).
    heap_said: Vec<String>,
    codec: PhantomData<C>,
}

impl<C: Codec> Server<C> {
    pub fn new(socket: UdpSocket, players: u32) -> Self {
        Server {
            socket,
            players: (0..players)
                .map(|id| Player {
                    name: format!("bot-{id:04}"),
                    address: None,
                    x: 0,
                    y: 0,
                    hp: 100,
                    last_applied: 0,
                })
                .collect(),
            chat: std::array::from_fn(|_| String::with_capacity(64)),
            counts: Counts::default(),
            marks: PhaseMarks::default(),
            heap_said: Vec::with_capacity(1024),
            codec: PhantomData,
        }
    }

    /// The client a message claims to be, if its token and address agree
    /// (the first well-formed message from an address registers it).
    fn check_client(&mut self, client: u32, claimed: u32, from: SocketAddr) -> Result<(), Reject> {
        let player = self
            .players
            .get_mut(client as usize)
            .ok_or(Reject::UnknownClient)?;
        if claimed != token(client) {
            return Err(Reject::BadToken);
        }
        match player.address {
            Some(address) if address != from => Err(Reject::BadToken),
            _ => {
                player.address = Some(from);
                Ok(())
            }
        }
    }

    /// Applies one input of `client`, exactly once, in order; true if it
    /// is new (its chat line, if any, is then this tick's).
    fn apply_input(&mut self, client: u32, seq: u32, dx: i8, dy: i8, buttons: &[Button]) -> bool {
        let player = &mut self.players[client as usize];
        if seq <= player.last_applied {
            return false; // sent again while unacknowledged: applied already
        }
        self.counts.gaps += u64::from(seq - player.last_applied - 1);
        player.last_applied = seq;
        player.x += i32::from(dx);
        player.y += i32::from(dy);
        for button in buttons {
            if *button == Button::Fire {
                player.hp = player.hp.saturating_sub(1);
            }
        }
        self.counts.applied += 1;
        true
    }

    /// The chat lines an update carries: the last `CHAT_LINES` of the
    /// earlier ticks' and this tick's `said`.
    fn chat_lines<'a>(&'a self, said: &[&'a str]) -> [&'a str; CHAT_LINES] {
        let fresh = said.len().min(CHAT_LINES);
        std::array::from_fn(|i| {
            let old = CHAT_LINES - fresh;
            if i < old {
                self.chat[i + fresh].as_str()
            } else {
                said[said.len() - fresh + (i - old)]
            }
        })
    }

    /// Keeps this tick's chat lines for the next ticks: the oldest line's
    /// `String` takes each new text (no allocation once every line has
    /// held a long one).
    fn remember<'a>(&mut self, said: impl IntoIterator<Item = &'a str>) {
        for text in said {
            self.chat.rotate_left(1);
            let line = &mut self.chat[CHAT_LINES - 1];
            line.clear();
            line.push_str(text);
        }
    }
}

/// One datagram, as the tick's event: who sent it, and its message
/// (decoded into the tick's arena, or onto the heap), or why not.
pub struct Datagram<'f, C: Codec> {
    pub from: SocketAddr,
    pub message: Result<Message<'f, C>, Reject>,
}

/// A decoded message: the client it claims to be, its token, its inputs.
pub struct Message<'f, C: Codec> {
    pub client: u32,
    pub token: u32,
    pub inputs: C::Inputs<'f>,
}

/// The server's source of events: its socket, each tick's datagrams
/// received into the tick (the arena version receives into the tick's
/// arena, the heap version into a buffer it reuses) and decoded there.
pub struct Inbox<C> {
    socket: UdpSocket,
    /// In lockstep with the bots: the datagrams of this tick's round, all
    /// of which are waited for (the bots have sent them before the tick).
    pub expect: Option<u64>,
    /// Ticks whose round did not all arrive within the wait.
    pub short_rounds: u64,
    /// Time this tick spent waiting for the rest of its round (not the
    /// server's work: the measurement leaves it out).
    pub waited: Duration,
    /// What one datagram's decode may take of the tick's arena
    /// (`MAX_DECODED` unless `--max-decoded` says otherwise).
    pub max_decoded: usize,
    heap_buffer: Vec<u8>,
    codec: PhantomData<C>,
}

/// How long a lockstep tick waits for the rest of a round: datagrams the
/// kernel dropped never come (their inputs come again in the next round).
const ROUND_WAIT: Duration = Duration::from_millis(20);

impl<C: Codec> Inbox<C> {
    pub fn new(socket: UdpSocket) -> Self {
        Inbox {
            socket,
            max_decoded: MAX_DECODED,
            expect: None,
            short_rounds: 0,
            waited: Duration::ZERO,
            heap_buffer: vec![0; 1 << 16],
            codec: PhantomData,
        }
    }
}

impl<C: Codec> EventSource for Inbox<C> {
    type Event<'f> = Datagram<'f, C>;

    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(Datagram<'f, C>)) {
        // 64 KiB, so that an oversize datagram is seen whole (and refused)
        // rather than cut.
        let buffer = C::receive_buffer(&mut self.heap_buffer, arena);
        let mut received = 0;
        let mut receive_errors = 0;
        let mut waiting_since: Option<Instant> = None;
        self.waited = Duration::ZERO;
        loop {
            if self.expect.is_some_and(|expect| received >= expect) {
                break;
            }
            let (len, from) = match self.socket.recv_from(buffer) {
                Ok(datagram) => datagram,
                // Not "nothing pending": an ICMP error from an earlier
                // send (Windows reports it on the next receive as
                // WSAECONNRESET), or an interrupted call. The datagrams
                // behind it are still there.
                Err(error) if error.kind() != ErrorKind::WouldBlock && receive_errors < 64 => {
                    receive_errors += 1;
                    continue;
                }
                Err(_) if self.expect.is_some() => {
                    // Lockstep: the rest of the round is on its way.
                    let since = *waiting_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > ROUND_WAIT {
                        self.short_rounds += 1;
                        self.waited += since.elapsed();
                        break;
                    }
                    // Let the kernel's softirq thread on this core
                    // deliver it, if that is where it waits.
                    std::thread::yield_now();
                    continue;
                }
                Err(_) => break,
            };
            if let Some(since) = waiting_since.take() {
                self.waited += since.elapsed();
            }
            received += 1;
            let message = if len > MAX_DATAGRAM {
                Err(Reject::Oversize)
            } else {
                C::decode(arena, &buffer[..len], self.max_decoded)
            };
            emit(Datagram { from, message });
        }
    }
}

/// How messages are decoded and updates encoded: in the frame arena, or
/// on the heap.
pub trait Codec: Sized + 'static {
    const NAME: &'static str;
    /// A message's inputs, as decoded.
    type Inputs<'f>;
    /// Where a tick's datagrams are received.
    fn receive_buffer<'a>(heap: &'a mut Vec<u8>, arena: &'a FrameArena) -> &'a mut [u8];
    /// `bytes` as one message, every byte used.
    fn decode<'f>(
        arena: &'f FrameArena,
        bytes: &[u8],
        max_decoded: usize,
    ) -> Result<Message<'f, Self>, Reject>;
    /// Pushes the action that applies a checked client's inputs.
    fn act<'f>(client: u32, inputs: Self::Inputs<'f>, frame: &mut Frame<'f, Server<Self>>);
    /// Encodes and sends this tick's update to every client, with the
    /// chat lines of this tick (`said`) and of the earlier ones.
    fn send_updates<'f>(
        server: &mut Server<Self>,
        frame: &mut Frame<'f, Server<Self>>,
        said: &mut Said<'f>,
    );
}

/// The tick's scratch: the chat lines its messages carried, handed from
/// the actions to the snapshots (the arena version's; the heap version
/// moves its `String`s into the world instead).
pub type Said<'f> = FrameVec<'f, &'f str>;

impl<C: Codec> Game for Server<C> {
    type Event = ();
    type Scratch<'f> = Said<'f>;

    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}

    fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut Said<'f>) {
        self.marks.update = thread_cpu_ns();
        for player in &mut self.players {
            player.hp = (player.hp + 1).min(100);
        }
    }

    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, said: &mut Said<'f>) {
        self.marks.snapshots = thread_cpu_ns();
        C::send_updates(self, frame, said);
        self.marks.sent = thread_cpu_ns();
    }
}

impl<C: Codec> Receive<Inbox<C>> for Server<C> {
    fn receive<'f>(&mut self, datagram: Datagram<'f, C>, frame: &mut Frame<'f, Self>) {
        self.counts.received += 1;
        let checked = datagram.message.and_then(|message| {
            self.check_client(message.client, message.token, datagram.from)
                .map(|()| message)
        });
        match checked {
            Ok(message) => C::act(message.client, message.inputs, frame),
            Err(why) => self.counts.rejected[why as usize] += 1,
        }
    }
}

/// The players an update describes besides the client: the next `NEAR`
/// by id (a stand-in for an area-of-interest query).
fn near(client: usize, players: usize) -> impl ExactSizeIterator<Item = usize> {
    (1..NEAR + 1).map(move |k| (client + k) % players)
}

/// Decoded into the tick's arena, encoded into it.
pub struct InArena;

/// A message's inputs, in the arena, applied as an action of the frame:
/// its chat lines go on to the snapshots through the tick's scratch, not
/// copied.
struct ApplyInputs<'f> {
    client: u32,
    inputs: &'f [Input<'f>],
}

impl<'f> FrameAction<'f, Server<InArena>> for ApplyInputs<'f> {
    fn apply(&mut self, server: &mut Server<InArena>, frame: &mut Frame<'f, Server<InArena>>) {
        for input in self.inputs {
            let new = server.apply_input(self.client, input.seq, input.dx, input.dy, input.buttons);
            if let (true, Some(text)) = (new, input.say) {
                frame.scratch().push(text);
            }
        }
    }
}

/// The one place the arena server decodes: `bytes` as one message in the
/// tick's arena, every byte used.
fn decode_in<'f>(
    arena: &'f FrameArena,
    bytes: &[u8],
    max_decoded: usize,
) -> Result<ClientMessage<'f>, Reject> {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let message = tickarena::serde::InArena::new(arena)
        .max_bytes(max_decoded)
        .deserialize(&mut input)
        .map_err(|error| match tickarena::serde::over_max_bytes(arena) {
            true => Reject::OverBound,
            false => Reject::of(error),
        })?;
    match input.finalize() {
        Ok([]) => Ok(message),
        _ => Err(Reject::Trailing),
    }
}

impl Codec for InArena {
    const NAME: &'static str = "arena";
    type Inputs<'f> = &'f [Input<'f>];

    fn receive_buffer<'a>(_: &'a mut Vec<u8>, arena: &'a FrameArena) -> &'a mut [u8] {
        arena.alloc_slice_fill_with(1 << 16, |_| 0u8)
    }

    fn decode<'f>(
        arena: &'f FrameArena,
        bytes: &[u8],
        max_decoded: usize,
    ) -> Result<Message<'f, Self>, Reject> {
        let ClientMessage::Inputs {
            client,
            token,
            inputs,
        } = decode_in(arena, bytes, max_decoded)?;
        Ok(Message {
            client,
            token,
            inputs,
        })
    }

    fn act<'f>(client: u32, inputs: &'f [Input<'f>], frame: &mut Frame<'f, Server<InArena>>) {
        frame.push_in(ApplyInputs { client, inputs });
    }

    fn send_updates<'f>(
        server: &mut Server<InArena>,
        frame: &mut Frame<'f, Server<InArena>>,
        said: &mut Said<'f>,
    ) {
        let arena = frame.arena();
        let chat = arena.alloc_slice_copy(&server.chat_lines(said));
        let state = |id: usize| {
            let player = &server.players[id];
            PlayerState {
                id: id as u32,
                name: &player.name,
                x: player.x,
                y: player.y,
                hp: player.hp,
            }
        };
        // One buffer for the encoded updates and one list of the players
        // near, each written again for every client.
        let buffer = arena.alloc_slice_fill_with(MAX_DATAGRAM * 4, |_| 0u8);
        let nearby = arena.alloc_slice_fill_with(NEAR, |_| state(0));
        let count = server.players.len();
        let mut sent = 0;
        for (id, player) in server.players.iter().enumerate() {
            let Some(address) = player.address else {
                continue;
            };
            for (slot, other) in nearby.iter_mut().zip(near(id, count)) {
                *slot = state(other);
            }
            let update = Update {
                tick: frame.tick(),
                ack: player.last_applied,
                you: state(id),
                near: nearby,
                chat,
            };
            let bytes = postcard::to_slice(&update, buffer).expect("an update fits 4.8 KB");
            if server.socket.send_to(bytes, address).is_ok() {
                sent += 1;
            }
        }
        server.counts.sent += sent;
        server.remember(said.iter().copied());
    }
}

/// Decoded onto the heap (serde's own derive), encoded into a `Vec` per
/// update.
pub struct OnHeap;

struct ApplyHeapInputs {
    client: u32,
    inputs: Vec<HeapInput>,
}

impl<'f> FrameAction<'f, Server<OnHeap>> for ApplyHeapInputs {
    fn apply(&mut self, server: &mut Server<OnHeap>, _: &mut Frame<'f, Server<OnHeap>>) {
        for input in &mut self.inputs {
            let new =
                server.apply_input(self.client, input.seq, input.dx, input.dy, &input.buttons);
            if let (true, Some(text)) = (new, input.say.take()) {
                server.heap_said.push(text);
            }
        }
    }
}

impl Codec for OnHeap {
    const NAME: &'static str = "heap";
    type Inputs<'f> = Vec<HeapInput>;

    fn receive_buffer<'a>(heap: &'a mut Vec<u8>, _: &'a FrameArena) -> &'a mut [u8] {
        heap
    }

    // serde's derive has no per-decode bound: a length is believed up to
    // its own cautious cap.
    fn decode<'f>(_: &'f FrameArena, bytes: &[u8], _: usize) -> Result<Message<'f, Self>, Reject> {
        match postcard::take_from_bytes::<HeapClientMessage>(bytes) {
            Ok((
                HeapClientMessage::Inputs {
                    client,
                    token,
                    inputs,
                },
                [],
            )) => Ok(Message {
                client,
                token,
                inputs,
            }),
            Ok(_) => Err(Reject::Trailing),
            Err(error) => Err(Reject::of(error)),
        }
    }

    fn act<'f>(client: u32, inputs: Vec<HeapInput>, frame: &mut Frame<'f, Server<OnHeap>>) {
        frame.push_in(ApplyHeapInputs { client, inputs });
    }

    fn send_updates<'f>(
        server: &mut Server<OnHeap>,
        frame: &mut Frame<'f, Server<OnHeap>>,
        _: &mut Said<'f>,
    ) {
        let said = std::mem::take(&mut server.heap_said);
        let state = |id: usize| {
            let player = &server.players[id];
            HeapPlayerState {
                id: id as u32,
                name: player.name.clone(),
                x: player.x,
                y: player.y,
                hp: player.hp,
            }
        };
        let fresh: Vec<&str> = said.iter().map(String::as_str).collect();
        let chat = server.chat_lines(&fresh);
        let count = server.players.len();
        let mut sent = 0;
        for (id, player) in server.players.iter().enumerate() {
            let Some(address) = player.address else {
                continue;
            };
            let update = HeapUpdate {
                tick: frame.tick(),
                ack: player.last_applied,
                you: state(id),
                near: near(id, count).map(state).collect(),
                chat: chat.iter().map(|line| (*line).to_owned()).collect(),
            };
            let bytes = postcard::to_allocvec(&update).expect("an update encodes");
            if server.socket.send_to(&bytes, address).is_ok() {
                sent += 1;
            }
        }
        server.counts.sent += sent;
        drop(fresh);
        server.remember(said.iter().map(String::as_str));
        // The list keeps its capacity for the next tick.
        server.heap_said = said;
        server.heap_said.clear();
    }
}
