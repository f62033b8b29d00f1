//! A UDP socket on 127.0.0.1 for ggrs that loses a share of the packets
//! it sends and holds back others (a bad Wi-Fi link), from a fixed seed:
//! the two-peer rollback test and example. Messages are encoded as ggrs's
//! own socket does (bincode 1).

// Shared by several targets, each of which uses part of it.
#![allow(dead_code)]

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ggrs::{Message, NonBlockingSocket};

/// The lossy socket: one packet in ten lost, one in five 10 to 60 ms late.
/// ggrs resends what was lost.
pub struct LossySocket {
    socket: UdpSocket,
    random: u64,
    held: Vec<(Instant, Vec<u8>, SocketAddr)>,
    buffer: Vec<u8>,
    /// Packets lost and packets held back so far.
    pub losses: Arc<[AtomicU64; 2]>,
}

impl LossySocket {
    pub fn bind(seed: u64) -> LossySocket {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket.set_nonblocking(true).unwrap();
        LossySocket {
            socket,
            random: seed,
            held: Vec::new(),
            buffer: vec![0; 4096],
            losses: Arc::new([AtomicU64::new(0), AtomicU64::new(0)]),
        }
    }

    pub fn address(&self) -> SocketAddr {
        self.socket.local_addr().unwrap()
    }

    /// 0..100, from a xorshift generator.
    fn percent(&mut self) -> u64 {
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random % 100
    }

    /// Sends the held packets whose time has come.
    fn send_due(&mut self) {
        let now = Instant::now();
        let socket = &self.socket;
        self.held.retain(|(due, bytes, to)| {
            if *due > now {
                return true;
            }
            let _ = socket.send_to(bytes, to);
            false
        });
    }
}

impl NonBlockingSocket<SocketAddr> for LossySocket {
    fn send_to(&mut self, message: &Message, to: &SocketAddr) {
        self.send_due();
        let bytes = bincode::serialize(message).unwrap();
        match self.percent() {
            // One packet in ten is lost.
            0..10 => {
                self.losses[0].fetch_add(1, Ordering::Relaxed);
            }
            // One in five arrives 10 to 60 ms late (so out of order too).
            10..30 => {
                let late = Duration::from_millis(10 + self.percent() / 2);
                self.held.push((Instant::now() + late, bytes, *to));
                self.losses[1].fetch_add(1, Ordering::Relaxed);
            }
            _ => {
                let _ = self.socket.send_to(&bytes, to);
            }
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.send_due();
        let mut received = Vec::new();
        while let Ok((len, from)) = self.socket.recv_from(&mut self.buffer) {
            if let Ok(message) = bincode::deserialize(&self.buffer[..len]) {
                received.push((from, message));
            }
        }
        received
    }
}
