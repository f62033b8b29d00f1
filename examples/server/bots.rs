//! The bot driver: `n` clients on a thread of their own, one UDP socket
//! each, sending one input per tick at 60 Hz (with every input the server
//! has not acknowledged yet, as netcode does to survive a lost datagram)
//! and reading the server's updates for its acknowledgements. A share of
//! the datagrams is garbage instead: random bytes, truncated messages,
//! length bombs (one that claims 2^40 inputs and stops, one that claims as
//! many and carries a datagram's worth of small ones), unknown tags,
//! trailing bytes and 64 KiB of junk.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::protocol::{Button, ClientMessage, HeapUpdate, Input, MAX_DATAGRAM, MAX_UNACKED, token};

/// What the bots did.
#[derive(Debug, Default)]
pub struct BotReport {
    /// Per bot, the newest input sent in a well-formed datagram: the server
    /// must have applied every input up to it, once.
    pub well_formed_up_to: Vec<u32>,
    pub datagrams: u64,
    pub garbage: u64,
    pub updates: u64,
}

/// Bot `bot`'s input `seq`, deterministic (so it can be sent again): its
/// move, its buttons and, every 30th, a chat line.
fn input(bot: u32, seq: u32) -> (i8, i8, &'static [Button], Option<String>) {
    let dx = (seq % 3) as i8 - 1;
    let dy = ((seq / 3 + bot) % 3) as i8 - 1;
    let buttons: &'static [Button] = match seq % 5 {
        0 => &[Button::Fire],
        1 => &[Button::Jump, Button::Use],
        _ => &[],
    };
    let say = (seq % 30 == 0).then(|| format!("bot {bot} says hello at {seq}"));
    (dx, dy, buttons, say)
}

/// The well-formed datagram of `bot` with inputs `first..=last`.
fn inputs_datagram(bot: u32, first: u32, last: u32) -> Vec<u8> {
    let fields: Vec<_> = (first..=last).map(|seq| (seq, input(bot, seq))).collect();
    let inputs: Vec<Input<'_>> = fields
        .iter()
        .map(|(seq, (dx, dy, buttons, say))| Input {
            seq: *seq,
            dx: *dx,
            dy: *dy,
            buttons,
            say: say.as_deref(),
        })
        .collect();
    let message = ClientMessage::Inputs {
        client: bot,
        token: token(bot),
        inputs: &inputs,
    };
    postcard::to_allocvec(&message).unwrap()
}

/// A datagram of garbage of a random kind; `valid` is a well-formed one to
/// spoil.
fn garbage(rng: &mut SmallRng, bot: u32, valid: &[u8]) -> Vec<u8> {
    match rng.random_range(0..20) {
        0..=4 => (0..rng.random_range(1..200))
            .map(|_| rng.random())
            .collect(),
        5..=8 => valid[..rng.random_range(0..valid.len())].to_vec(),
        9 | 10 => {
            // Variant 0, the client and its token, then a list that claims
            // 2^40 inputs.
            let mut bomb = postcard::to_allocvec(&(0u8, bot, token(bot))).unwrap();
            bomb.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
            bomb.extend_from_slice(&[1, 2, 3]);
            bomb
        }
        11 | 12 => {
            // The same claim, then as many small inputs as a datagram
            // holds, each of which finishes a small list of its own first
            // (seq 1, no move, one button, no line), and no end: the list
            // of inputs, no longer the arena's last allocation, moves as
            // it grows, until the bytes run out.
            let mut bomb = postcard::to_allocvec(&(0u8, bot, token(bot))).unwrap();
            bomb.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
            while bomb.len() + 6 <= MAX_DATAGRAM {
                bomb.extend_from_slice(&[1, 0, 0, 1, 0, 0]);
            }
            bomb
        }
        13..=16 => {
            let mut unknown = valid.to_vec();
            unknown[0] = 7; // no such variant
            unknown
        }
        17 | 18 => {
            let mut trailing = valid.to_vec();
            trailing.push(0);
            trailing
        }
        _ => vec![0xAB; 64_000], // about 64 KiB: the most one datagram carries
    }
}

/// The bots in lockstep with the server: after each round (one datagram
/// per bot) they say how many datagrams they sent, and wait for the
/// server's tick to end before the next round. The server's tick then
/// never shares the machine with the bots' sending, and each tick handles
/// exactly one round.
pub struct Lockstep {
    pub sent: SyncSender<u64>,
    pub done: Receiver<()>,
}

/// Runs `bots` clients against `server` at 60 Hz (or in `lockstep` with
/// it) until `stop`, then sends their unacknowledged inputs (no new ones,
/// no garbage) for `drain` more.
pub fn run(
    server: SocketAddr,
    bots: u32,
    garbage_share: f64,
    stop: Arc<AtomicBool>,
    drain: Duration,
    lockstep: Option<Lockstep>,
) -> BotReport {
    let sockets: Vec<UdpSocket> = (0..bots)
        .map(|_| {
            let socket = UdpSocket::bind("127.0.0.1:0").expect("a bot's socket");
            socket.connect(server).expect("the server's address");
            socket.set_nonblocking(true).unwrap();
            socket
        })
        .collect();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut next_seq = vec![0u32; bots as usize];
    let mut acked = vec![0u32; bots as usize];
    let mut report = BotReport {
        well_formed_up_to: vec![0; bots as usize],
        ..BotReport::default()
    };
    let mut buffer = vec![0u8; 1 << 16];
    let step = Duration::from_secs_f64(1.0 / 60.0);
    let started = Instant::now();
    let mut stopped_at: Option<Instant> = None;
    for tick in 1u32.. {
        let mut sent_this_round = 0;
        let stopping = stop.load(Ordering::Relaxed);
        if stopping {
            let at = *stopped_at.get_or_insert_with(Instant::now);
            if at.elapsed() > drain {
                break;
            }
        }
        for bot in 0..bots {
            let index = bot as usize;
            let socket = &sockets[index];
            while let Ok(len) = socket.recv(&mut buffer) {
                if let Ok(update) = postcard::from_bytes::<HeapUpdate>(&buffer[..len]) {
                    acked[index] = acked[index].max(update.ack);
                    report.updates += 1;
                }
            }
            if !stopping {
                next_seq[index] += 1;
            }
            let last = next_seq[index];
            if last == 0 || acked[index] >= last {
                continue;
            }
            let first = (acked[index] + 1).max(last.saturating_sub(MAX_UNACKED as u32 - 1));
            let valid = inputs_datagram(bot, first, last);
            let datagram = if !stopping && rng.random_bool(garbage_share) {
                report.garbage += 1;
                garbage(&mut rng, bot, &valid)
            } else {
                report.well_formed_up_to[index] = last;
                valid
            };
            if socket.send(&datagram).is_ok() {
                report.datagrams += 1;
                sent_this_round += 1;
            }
        }
        if let Some(lockstep) = &lockstep {
            if lockstep.sent.send(sent_this_round).is_err() || lockstep.done.recv().is_err() {
                break;
            }
            continue;
        }
        let next = started + step * tick;
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    report
}
