//! The authoritative server as a `FrameLoop` game. Each tick's one event
//! is "the socket may have datagrams": `actions` receives every pending
//! datagram into the tick's arena, decodes each, and pushes an action per
//! message; the actions apply the inputs to the players; `update`
//! simulates; `end_frame` encodes one update per client and sends it.
//!
//! What the frame's data is, and where, is the `C` parameter ([`Codec`]):
//! [`InArena`] decodes into the arena and encodes into it; [`OnHeap`]
//! decodes with serde's own derive into `String`s and `Vec`s and encodes
//! into a `Vec` per update, as a server is written without tickarena.

use std::marker::PhantomData;
use std::net::{SocketAddr, UdpSocket};

use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::frame_loop::{Action, Frame, Game};

use crate::protocol::{
    Button, CHAT_LINES, ClientMessage, HeapClientMessage, HeapPlayerState, HeapUpdate, Input,
    MAX_DATAGRAM, NEAR, PlayerState, Update, token,
};

/// Why a datagram was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    Oversize,
    Truncated,
    BadValueOrTag,
    Malformed,
    Trailing,
    BadToken,
    UnknownClient,
}

impl Reject {
    pub const ALL: [Reject; 7] = [
        Reject::Oversize,
        Reject::Truncated,
        Reject::BadValueOrTag,
        Reject::Malformed,
        Reject::Trailing,
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

/// The server's world.
pub struct Server<C> {
    pub socket: UdpSocket,
    pub players: Vec<Player>,
    /// The last chat lines, oldest first; each `String` keeps its capacity.
    pub chat: [String; CHAT_LINES],
    pub counts: Counts,
    /// The heap version's receive buffer (the arena version receives into
    /// the tick's arena).
    heap_buffer: Vec<u8>,
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
            heap_buffer: vec![0; 1 << 16],
            codec: PhantomData,
        }
    }

    fn reject(&mut self, why: Reject) {
        self.counts.rejected[why as usize] += 1;
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

    /// Receives every pending datagram into `buffer`: an oversize one is
    /// refused, the others decoded by `decode` into a client, its token and
    /// a message; a message whose client checks out goes to `accept`.
    fn receive_each<M>(
        &mut self,
        buffer: &mut [u8],
        decode: impl Fn(&[u8]) -> Result<(u32, u32, M), Reject>,
        mut accept: impl FnMut(u32, M),
    ) {
        while let Ok((len, from)) = self.socket.recv_from(buffer) {
            self.counts.received += 1;
            let message = if len > MAX_DATAGRAM {
                Err(Reject::Oversize)
            } else {
                decode(&buffer[..len])
            };
            let checked = message.and_then(|(client, token, message)| {
                self.check_client(client, token, from)
                    .map(|()| (client, message))
            });
            match checked {
                Ok((client, message)) => accept(client, message),
                Err(why) => self.reject(why),
            }
        }
    }

    /// Applies one input of `client`, exactly once, in order.
    fn apply_input(
        &mut self,
        client: u32,
        seq: u32,
        dx: i8,
        dy: i8,
        buttons: &[Button],
        say: Option<&str>,
    ) {
        let player = &mut self.players[client as usize];
        if seq <= player.last_applied {
            return; // sent again while unacknowledged: applied already
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
        if let Some(text) = say {
            // The oldest line's `String` takes the new text: no allocation
            // once every line has held a long one.
            self.chat.rotate_left(1);
            let line = &mut self.chat[CHAT_LINES - 1];
            line.clear();
            line.push_str(text);
        }
    }
}

/// The tick's one event: datagrams may be waiting.
pub struct Readable;

/// How messages are decoded and updates encoded: in the frame arena, or
/// on the heap.
pub trait Codec: Sized + 'static {
    const NAME: &'static str;
    /// Receives every pending datagram, decodes it and pushes its actions.
    fn receive<'f>(server: &mut Server<Self>, frame: &mut Frame<'f, Server<Self>>);
    /// Encodes and sends this tick's update to every client.
    fn send_updates<'f>(server: &mut Server<Self>, frame: &mut Frame<'f, Server<Self>>);
}

impl<C: Codec> Game for Server<C> {
    type Event = Readable;
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, _: Readable, frame: &mut Frame<'f, Self>) {
        C::receive(self, frame);
    }

    fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut ()) {
        for player in &mut self.players {
            player.hp = (player.hp + 1).min(100);
        }
    }

    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        C::send_updates(self, frame);
    }
}

/// The players an update describes besides the client: the next `NEAR`
/// by id (a stand-in for an area-of-interest query).
fn near(client: usize, players: usize) -> impl ExactSizeIterator<Item = usize> {
    (1..NEAR + 1).map(move |k| (client + k) % players)
}

/// Decoded into the tick's arena, encoded into it.
pub struct InArena;

/// A message's inputs, in the arena, applied as an action.
struct ApplyInputs<'f> {
    client: u32,
    inputs: &'f [Input<'f>],
}

impl<'f> Action<Server<InArena>> for ApplyInputs<'f> {
    fn apply(&mut self, server: &mut Server<InArena>, _: &mut Frame<'_, Server<InArena>>) {
        for input in self.inputs {
            server.apply_input(
                self.client,
                input.seq,
                input.dx,
                input.dy,
                input.buttons,
                input.say,
            );
        }
    }
}

/// `bytes` as one message, every byte used.
fn decode_in<'f>(arena: &'f FrameArena, bytes: &[u8]) -> Result<ClientMessage<'f>, Reject> {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let message = tickarena::serde::InArena::new(arena)
        .deserialize(&mut input)
        .map_err(Reject::of)?;
    match input.finalize() {
        Ok([]) => Ok(message),
        _ => Err(Reject::Trailing),
    }
}

impl Codec for InArena {
    const NAME: &'static str = "arena";

    fn receive<'f>(server: &mut Server<InArena>, frame: &mut Frame<'f, Server<InArena>>) {
        let arena = frame.arena();
        // The receive buffer is the tick's too: 64 KiB, so that an
        // oversize datagram is seen whole (and refused) rather than cut.
        let buffer = arena.alloc_slice_fill_with(1 << 16, |_| 0u8);
        server.receive_each(
            buffer,
            |bytes| {
                decode_in(arena, bytes).map(
                    |ClientMessage::Inputs {
                         client,
                         token,
                         inputs,
                     }| (client, token, inputs),
                )
            },
            |client, inputs| frame.push(ApplyInputs { client, inputs }),
        );
    }

    fn send_updates<'f>(server: &mut Server<InArena>, frame: &mut Frame<'f, Server<InArena>>) {
        let arena = frame.arena();
        let chat = arena.alloc_slice_fill_with(CHAT_LINES, |i| server.chat[i].as_str());
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
        let buffer = arena.alloc_slice_fill_with(MAX_DATAGRAM * 4, |_| 0u8);
        let count = server.players.len();
        let mut sent = 0;
        for (id, player) in server.players.iter().enumerate() {
            let Some(address) = player.address else {
                continue;
            };
            let update = Update {
                tick: frame.tick(),
                ack: player.last_applied,
                you: state(id),
                near: arena.alloc_slice_fill_iter(near(id, count).map(state)),
                chat,
            };
            let bytes = postcard::to_slice(&update, buffer).expect("an update fits 4.8 KB");
            if server.socket.send_to(bytes, address).is_ok() {
                sent += 1;
            }
        }
        server.counts.sent += sent;
    }
}

/// Decoded onto the heap (serde's own derive), encoded into a `Vec` per
/// update.
pub struct OnHeap;

struct ApplyHeapInputs {
    client: u32,
    inputs: Vec<crate::protocol::HeapInput>,
}

impl Action<Server<OnHeap>> for ApplyHeapInputs {
    fn apply(&mut self, server: &mut Server<OnHeap>, _: &mut Frame<'_, Server<OnHeap>>) {
        for input in &self.inputs {
            server.apply_input(
                self.client,
                input.seq,
                input.dx,
                input.dy,
                &input.buttons,
                input.say.as_deref(),
            );
        }
    }
}

impl Codec for OnHeap {
    const NAME: &'static str = "heap";

    fn receive<'f>(server: &mut Server<OnHeap>, frame: &mut Frame<'f, Server<OnHeap>>) {
        let mut buffer = std::mem::take(&mut server.heap_buffer);
        server.receive_each(
            &mut buffer,
            |bytes| match postcard::take_from_bytes::<HeapClientMessage>(bytes) {
                Ok((
                    HeapClientMessage::Inputs {
                        client,
                        token,
                        inputs,
                    },
                    [],
                )) => Ok((client, token, inputs)),
                Ok(_) => Err(Reject::Trailing),
                Err(error) => Err(Reject::of(error)),
            },
            |client, inputs| frame.push(ApplyHeapInputs { client, inputs }),
        );
        server.heap_buffer = buffer;
    }

    fn send_updates<'f>(server: &mut Server<OnHeap>, frame: &mut Frame<'f, Server<OnHeap>>) {
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
                chat: server.chat.to_vec(),
            };
            let bytes = postcard::to_allocvec(&update).expect("an update encodes");
            if server.socket.send_to(&bytes, address).is_ok() {
                sent += 1;
            }
        }
        server.counts.sent += sent;
    }
}
