//! A checksum of a game's state that every peer computes alike: the same
//! bits on every machine, run and build (no random seed, no native
//! endianness, no `usize` width).

#![forbid(unsafe_code)]

use core::hash::Hasher;

/// A deterministic 128-bit checksum of a game state, for ggrs's desync
/// checks (`SyncTestSession` and the peers' desync detection).
///
/// Feed it the state's integers and floats with `write_u32`, `write_f32`
/// and the like (or any `Hash` type: it is a [`Hasher`]). Unlike std's
/// `DefaultHasher` and hashbrown's default, it has no random seed, and it
/// reads integers by value, so two peers on different machines agree.
/// `usize` values are hashed as `u64`.
///
/// # Example
///
/// ```
/// use core::hash::Hasher;
/// use tickarena::rollback::Checksum;
///
/// let sum = |x: f32, hits: u32| {
///     let mut checksum = Checksum::new();
///     checksum.write_f32(x);
///     checksum.write_u32(hits);
///     checksum.finish128()
/// };
/// assert_eq!(sum(1.5, 3), sum(1.5, 3));
/// assert_ne!(sum(1.5, 3), sum(1.5, 4));
/// ```
#[derive(Clone, Debug)]
pub struct Checksum {
    /// Four lanes, word `i` going to lane `i % 4`: four independent
    /// multiply chains, so a long state sums at about a word a cycle
    /// rather than one per multiply latency.
    lanes: [u64; 4],
    words: u64,
}

impl Checksum {
    /// An empty checksum.
    ///
    /// # Example
    ///
    /// ```
    /// let empty = tickarena::rollback::Checksum::new();
    /// assert_eq!(empty.finish128(), tickarena::rollback::Checksum::default().finish128());
    /// ```
    pub const fn new() -> Checksum {
        Checksum {
            lanes: [
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ],
            words: 0,
        }
    }

    /// Adds a 64-bit word.
    #[inline]
    fn word(&mut self, word: u64) {
        // Multiply-rotate mixing in the word's lane: words swapped within
        // a lane, or across lanes, change the sum.
        let lane = &mut self.lanes[(self.words & 3) as usize];
        *lane = (*lane ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
        self.words = self.words.wrapping_add(1);
    }

    /// Adds an `f32` by its bits (so `-0.0` and `0.0` differ, and a NaN is
    /// whatever bits it has).
    ///
    /// # Example
    ///
    /// ```
    /// let mut a = tickarena::rollback::Checksum::new();
    /// a.write_f32(0.5);
    /// let mut b = tickarena::rollback::Checksum::new();
    /// b.write_f32(0.25);
    /// assert_ne!(a.finish128(), b.finish128());
    /// ```
    #[inline]
    pub fn write_f32(&mut self, value: f32) {
        self.word(u64::from(value.to_bits()));
    }

    /// Adds an `f64` by its bits.
    ///
    /// # Example
    ///
    /// ```
    /// let mut a = tickarena::rollback::Checksum::new();
    /// a.write_f64(0.5);
    /// assert_ne!(a.finish128(), tickarena::rollback::Checksum::new().finish128());
    /// ```
    #[inline]
    pub fn write_f64(&mut self, value: f64) {
        self.word(value.to_bits());
    }

    /// The 128-bit checksum, what ggrs's `GameStateCell::save` takes.
    ///
    /// # Example
    ///
    /// ```
    /// use core::hash::Hasher;
    /// let mut checksum = tickarena::rollback::Checksum::new();
    /// checksum.write_u64(7);
    /// assert_eq!(checksum.finish128() as u64 ^ (checksum.finish128() >> 64) as u64, checksum.finish());
    /// ```
    pub fn finish128(&self) -> u128 {
        // The lanes folded in order, then a final avalanche, so that short
        // states still spread over the bits.
        let [a, b, c, d] = self.lanes;
        let mut low = (a ^ c.rotate_left(17)) ^ self.words;
        let mut high = (b ^ d.rotate_left(41)) ^ self.words.rotate_left(32);
        for _ in 0..2 {
            low = (low ^ (high >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            high = (high ^ (low >> 32)).wrapping_mul(0x94D0_49BB_1331_11EB);
        }
        (u128::from(high) << 64) | u128::from(low)
    }
}

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum::new()
    }
}

impl Hasher for Checksum {
    /// The two halves of [`finish128`](Checksum::finish128), folded.
    fn finish(&self) -> u64 {
        let sum = self.finish128();
        sum as u64 ^ (sum >> 64) as u64
    }

    /// Bytes, eight at a time (little-endian), then the rest and the length.
    fn write(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for &word in words {
            self.word(u64::from_le_bytes(word));
        }
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.word(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }

    fn write_u8(&mut self, value: u8) {
        self.word(u64::from(value));
    }

    fn write_u16(&mut self, value: u16) {
        self.word(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.word(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.word(value);
    }

    fn write_u128(&mut self, value: u128) {
        self.word(value as u64);
        self.word((value >> 64) as u64);
    }

    fn write_usize(&mut self, value: usize) {
        self.word(value as u64);
    }

    fn write_i8(&mut self, value: i8) {
        self.write_u8(value as u8);
    }

    fn write_i16(&mut self, value: i16) {
        self.write_u16(value as u16);
    }

    fn write_i32(&mut self, value: i32) {
        self.write_u32(value as u32);
    }

    fn write_i64(&mut self, value: i64) {
        self.write_u64(value as u64);
    }

    fn write_isize(&mut self, value: isize) {
        self.write_u64(value as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED: u128 = 0x6e2a_67d2_04e9_3451_9d00_c2a3_dd17_ae71;

    fn of(words: &[u64]) -> u128 {
        let mut checksum = Checksum::new();
        words.iter().for_each(|&w| checksum.write_u64(w));
        checksum.finish128()
    }

    #[test]
    fn order_and_length_change_the_sum() {
        assert_ne!(of(&[1, 2]), of(&[2, 1]));
        assert_ne!(of(&[1, 0, 0, 0, 2]), of(&[2, 0, 0, 0, 1]), "within a lane");
        assert_ne!(of(&[0]), of(&[0, 0]));
        assert_ne!(of(&[]), of(&[0]));
    }

    #[test]
    fn the_sum_is_fixed_across_runs_and_machines() {
        // Pinned: a change here would split peers built from two versions.
        assert_eq!(of(&[1, 2, 3]), PINNED, "{:#x}", of(&[1, 2, 3]));
        let mut bytes = Checksum::new();
        bytes.write(&[1, 0, 0, 0, 0, 0, 0, 0, 9]);
        let mut again = Checksum::new();
        again.write(&[1, 0, 0, 0, 0, 0, 0, 0, 9]);
        assert_eq!(bytes.finish128(), again.finish128());
        assert_ne!(bytes.finish128(), of(&[1, 9]));
    }
}
