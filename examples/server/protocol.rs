//! The game's messages, in postcard. Written twice, as in
//! `examples/support/snapshot.rs`: decoded into the tick's arena
//! (`#[derive(DeserializeIn)]`, `&'a str` and `&'a [T]`), and onto the heap
//! (serde's own derive, `String` and `Vec`), for `--heap`. One encoding.

use serde::{Deserialize, Serialize};
use tickarena::DeserializeIn;

/// The most inputs one datagram carries: every input the server has not
/// acknowledged yet, up to this many (older ones are given up).
pub const MAX_UNACKED: usize = 96;
/// Datagrams longer than this are refused before decoding.
pub const MAX_DATAGRAM: usize = 1200;
/// What one datagram's decode may take of the tick's arena
/// (`InArena::max_bytes`): the largest message a client sends, 96 inputs
/// of 40 bytes each with their buttons and chat (at most a datagram's
/// bytes of those), takes under 6 KiB. A hostile datagram (a list that
/// claims more than it holds, nested) costs the tick no more than this.
pub const MAX_DECODED: usize = 8 << 10;
/// Players each update describes besides the client's own.
pub const NEAR: usize = 8;
/// Chat lines each update carries.
pub const CHAT_LINES: usize = 4;

/// Client to server.
#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
pub enum ClientMessage<'a> {
    /// The client's unacknowledged inputs, oldest first.
    Inputs {
        client: u32,
        token: u32,
        inputs: &'a [Input<'a>],
    },
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq, Clone, Copy)]
pub struct Input<'a> {
    pub seq: u32,
    pub dx: i8,
    pub dy: i8,
    pub buttons: &'a [Button],
    pub say: Option<&'a str>,
}

/// In a list in the arena (`&'a [Button]`), so `DeserializeIn` too; serde's
/// `Deserialize` for the heap messages.
#[derive(Serialize, Deserialize, DeserializeIn, Debug, PartialEq, Clone, Copy)]
pub enum Button {
    Fire,
    Jump,
    Use,
    Reload,
}

/// Server to client, every tick.
#[derive(Serialize, DeserializeIn, Debug)]
pub struct Update<'a> {
    pub tick: u64,
    /// The newest input applied.
    pub ack: u32,
    pub you: PlayerState<'a>,
    pub near: &'a [PlayerState<'a>],
    pub chat: &'a [&'a str],
}

#[derive(Serialize, DeserializeIn, Debug, Clone, Copy)]
pub struct PlayerState<'a> {
    pub id: u32,
    pub name: &'a str,
    pub x: i32,
    pub y: i32,
    pub hp: u16,
}

/// The same messages on the heap, serde's own derive.
#[derive(Serialize, Deserialize, Debug)]
pub enum HeapClientMessage {
    Inputs {
        client: u32,
        token: u32,
        inputs: Vec<HeapInput>,
    },
}

#[derive(Serialize, Deserialize, Debug)]
pub struct HeapInput {
    pub seq: u32,
    pub dx: i8,
    pub dy: i8,
    pub buttons: Vec<Button>,
    pub say: Option<String>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct HeapUpdate {
    pub tick: u64,
    pub ack: u32,
    pub you: HeapPlayerState,
    pub near: Vec<HeapPlayerState>,
    pub chat: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct HeapPlayerState {
    pub id: u32,
    pub name: String,
    pub x: i32,
    pub y: i32,
    pub hp: u16,
}

/// The client's session token (a real game hands one out at login): an
/// input with another is refused, so a datagram of junk that happens to
/// decode cannot move a player or skip its inputs.
pub fn token(client: u32) -> u32 {
    client.wrapping_mul(0x9E37_79B9) ^ 0x5EED_CAFE
}
