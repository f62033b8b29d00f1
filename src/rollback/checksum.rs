//! A checksum of a game's state that every peer computes alike: the same
//! bits on every machine, run and build (no random seed, no native
//! endianness, no `usize` width).

#![forbid(unsafe_code)]

use core::hash::Hasher;

/// A deterministic 128-bit checksum of a game state, for ggrs's desync
/// checks (`SyncTestSession` and the peers' desync detection).
///
/// Feed it the state's integers and floats with `write_u32`, `write_f32`
/// and the like, or any `Hash` type (`state.hash(&mut checksum)`: it is a
/// [`Hasher`]). Unlike std's `DefaultHasher` and hashbrown's default, it
/// has no random seed, and it reads integers by value, so two peers on
/// different machines agree: `usize` values are hashed as `u64`, and the
/// slices of integers std's `Hash` hands over as raw memory (`[i32; 2]`,
/// `Vec<u32>`, `Vec<usize>`) are read back as integers in the machine's
/// byte order and width (see [`Hasher::write`](#method.write) for the
/// one case left to you). Tests pin the sums of such states on x86-64 and
/// check them on 32-bit x86 and under Miri on big-endian s390x.
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
    sum: Lanes,
    /// What the last write leaves open for the next one.
    open: Open,
}

/// What a write leaves open for the next one (see [`Hasher::write`]).
#[derive(Clone, Copy, Debug)]
enum Open {
    Nothing,
    /// A `write_usize(n)`: a slice's length prefix, if `write` comes next.
    LengthPrefix(usize),
    /// A slice of integers that could also be a `str`: the sum with those
    /// bytes read the other way, taken if the string's `0xFF` terminator
    /// comes next.
    IfString(Lanes),
}

/// The running sum: four lanes, word `i` going to lane `i % 4`: four
/// independent multiply chains, so a long state sums at about a word a
/// cycle rather than one per multiply latency.
#[derive(Clone, Copy, Debug)]
struct Lanes {
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
            sum: Lanes::NEW,
            open: Open::Nothing,
        }
    }

    /// The checksum of any `Hash` value: `value.hash(&mut checksum)`, then
    /// [`finish128`](Self::finish128).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::rollback::Checksum;
    /// #[derive(Hash)]
    /// struct State { positions: Vec<(i32, i32)>, names: Vec<String> }
    /// let state = State { positions: vec![(1, 2)], names: vec!["ann".into()] };
    /// assert_eq!(Checksum::of(&state), Checksum::of(&state));
    /// assert_ne!(Checksum::of(&state), Checksum::of(&State { positions: vec![], names: vec![] }));
    /// ```
    pub fn of<T: core::hash::Hash + ?Sized>(value: &T) -> u128 {
        let mut checksum = Checksum::new();
        value.hash(&mut checksum);
        checksum.finish128()
    }

    /// Adds a 64-bit word: what every other write comes down to.
    #[inline]
    fn word(&mut self, word: u64) {
        self.settle(false);
        self.sum.word(word);
    }

    /// Ends the choice a possible `str` left open: `terminator` is whether
    /// the call that follows it is the `0xFF` byte std writes after a `str`.
    /// Nothing is left open by most writes, so the common case is one
    /// compare.
    #[inline]
    fn settle(&mut self, terminator: bool) {
        if matches!(self.open, Open::Nothing) {
            return;
        }
        if let Open::IfString(other) = self.open
            && terminator
        {
            self.sum = other;
        }
        self.open = Open::Nothing;
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
        let Lanes { lanes, words } = self.sum;
        let [a, b, c, d] = lanes;
        let mut low = (a ^ c.rotate_left(17)) ^ words;
        let mut high = (b ^ d.rotate_left(41)) ^ words.rotate_left(32);
        for _ in 0..2 {
            low = (low ^ (high >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            high = (high ^ (low >> 32)).wrapping_mul(0x94D0_49BB_1331_11EB);
        }
        (u128::from(high) << 64) | u128::from(low)
    }
}

impl Lanes {
    const NEW: Lanes = Lanes {
        lanes: [
            0x243F_6A88_85A3_08D3,
            0x1319_8A2E_0370_7344,
            0xA409_3822_299F_31D0,
            0x082E_FA98_EC4E_6C89,
        ],
        words: 0,
    };

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

    /// Adds bytes: eight at a time (little-endian), then the rest and the
    /// length.
    fn bytes(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for &word in words {
            self.word(u64::from_le_bytes(word));
        }
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.word(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }

    /// Adds `bytes` as the integers of `width` bytes that std's
    /// `hash_slice` wrote in this machine's byte order: each by value, as
    /// `write_u16`..`write_u128` add them (so a `usize` is the same word on
    /// 32- and 64-bit machines).
    fn integers(&mut self, bytes: &[u8], width: usize) {
        for element in bytes.chunks_exact(width) {
            let value = if cfg!(target_endian = "big") {
                read_big_endian(element)
            } else {
                read_little_endian(element)
            };
            self.wide(value, width);
        }
    }

    /// Adds each element of `width` bytes as the smaller of its two
    /// readings, little- and big-endian: the same on every machine whether
    /// the bytes are a string's (the same bytes everywhere) or integers in
    /// the machine's byte order (reversed between the two kinds).
    fn either_order(&mut self, bytes: &[u8], width: usize) {
        for element in bytes.chunks_exact(width) {
            let value = read_little_endian(element).min(read_big_endian(element));
            self.wide(value, width);
        }
    }

    /// Adds an integer of `width` bytes: one word, two for a `u128`.
    fn wide(&mut self, value: u128, width: usize) {
        self.word(value as u64);
        if width > 8 {
            self.word((value >> 64) as u64);
        }
    }
}

/// `element` (at most 16 bytes) as an unsigned little-endian integer.
fn read_little_endian(element: &[u8]) -> u128 {
    let mut wide = [0u8; 16];
    wide[..element.len()].copy_from_slice(element);
    u128::from_le_bytes(wide)
}

/// `element` (at most 16 bytes) as an unsigned big-endian integer.
fn read_big_endian(element: &[u8]) -> u128 {
    let mut wide = [0u8; 16];
    wide[16 - element.len()..].copy_from_slice(element);
    u128::from_be_bytes(wide)
}

/// The width of the integers std's `hash_slice` wrote as `len` bytes after
/// the length prefix `count`, if they can be integers of 2 to 16 bytes.
fn element_width(len: usize, count: usize) -> Option<usize> {
    let width = len.checked_div(count)?;
    (width * count == len && matches!(width, 2 | 4 | 8 | 16)).then_some(width)
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

    /// Bytes, read so that the sum is the same on every machine.
    ///
    /// std hashes a slice of integers (`[u32]`, `Vec<usize>`, an array) as
    /// its length (`write_usize`) and then its memory in one `write`: in
    /// the machine's byte order and `usize` width. So a `write` of `n *
    /// width` bytes right after a `write_usize(n)` is read as `n` integers
    /// of 2, 4, 8 or 16 bytes, each added by value as `write_u32` and the
    /// like add them. Other bytes (a `[u8]`, a `str`) are added as they
    /// are: eight at a time (little-endian), then the rest and the length.
    ///
    /// A `str` right after a `usize` whose value divides its length would
    /// look like integers too; std ends a `str` with a `0xFF` byte
    /// (`write_u8`), so when that byte comes next, each element is added
    /// as the smaller of its little- and big-endian readings, which is the
    /// same on every machine for a string's bytes and for integers alike.
    ///
    /// One case stays machine-dependent: a slice of `isize` holding
    /// negative values, between a 32- and a 64-bit peer (the bytes do not
    /// say the integers are signed). Hash such a slice element by element
    /// (`write_i64(x as i64)`).
    fn write(&mut self, bytes: &[u8]) {
        let count = match self.open {
            Open::LengthPrefix(count) => Some(count),
            _ => None,
        };
        self.settle(false);
        match count.and_then(|count| element_width(bytes.len(), count)) {
            Some(width) => {
                let mut as_string = self.sum;
                as_string.either_order(bytes, width);
                self.sum.integers(bytes, width);
                self.open = Open::IfString(as_string);
            }
            None => self.sum.bytes(bytes),
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.settle(value == 0xFF);
        self.sum.word(u64::from(value));
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
        self.open = Open::LengthPrefix(value);
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

    fn hashed<T: core::hash::Hash + ?Sized>(value: &T) -> u128 {
        let mut checksum = Checksum::new();
        value.hash(&mut checksum);
        checksum.finish128()
    }

    /// States as std's `Hash` writes them (slices of integers in one
    /// `write` of native-endian, native-width bytes), each with its sum as
    /// computed on x86-64. The same sums on i686 (CI's 32-bit tests) and on
    /// big-endian s390x (CI's Miri stage) show that peers agree.
    fn hashed_states() -> [(&'static str, u128); 12] {
        let name = std::string::String::from("abcdefgh");
        [
            ("[i32; 2]", hashed(&[-1i32, 7])),
            ("Vec<u32>", hashed(&vec![1u32, 2, 3, 0xDEAD_BEEF])),
            (
                "Vec<usize>",
                hashed(&vec![1usize, 2, usize::from(u16::MAX)]),
            ),
            ("&[u16]", hashed(&[1u16, 0x0102, 0xFF00][..])),
            (
                "Vec<Vec<u64>>",
                hashed(&vec![vec![1u64, 2], vec![], vec![u64::MAX]]),
            ),
            (
                "(u8, usize, String)",
                hashed(&(7u8, 3usize, std::string::String::from("abc"))),
            ),
            ("(usize, str of 2 per)", hashed(&(4usize, name.as_str()))),
            (
                "Vec<String>",
                hashed(&vec![std::string::String::from("wxyz"), name.clone()]),
            ),
            ("([u32], 0xFF)", hashed(&(vec![5u32, 6], 0xFFu8))),
            ("Vec<u128>", hashed(&vec![1u128 << 100, 3])),
            ("[i64] negative", hashed(&[-5i64, i64::MIN][..])),
            ("(bool, char, [u8])", hashed(&(true, 'é', [1u8, 2, 3]))),
        ]
    }

    #[test]
    fn hashed_states_sum_alike_on_every_machine() {
        let pinned: [u128; 12] = [
            0x25b9_822a_f487_a0a0_31d1_a859_d1dd_958e,
            0xc251_9580_fbdb_1bf1_ce1f_ea21_b96a_b7d6,
            0x30bc_5c62_3e2b_4829_09c8_161b_b2a4_6312,
            0x6861_218b_801f_841a_94da_0d96_a99c_445d,
            0x544b_03f3_9d88_d3b5_dbcd_2eaa_346b_6317,
            0xfbf3_b0a4_fb92_e943_9cbf_3e66_d065_e149,
            0x6bcd_bac0_d39d_840b_1f55_bab8_b417_7210,
            0x8507_f5bd_f436_b5ec_69f6_0a8b_697f_3e91,
            0x9dd2_d9fd_89a9_a27c_da36_f6b1_566f_67f7,
            0xe099_7d86_73a7_4a79_7b2a_797a_8792_5bb2,
            0x323c_23a1_d6d1_ebf4_63f8_15d1_70d0_b438,
            0xf043_a25b_b866_48e8_1c48_754d_dc08_ab96,
        ];
        let sums = hashed_states();
        let differ: std::vec::Vec<_> = sums
            .iter()
            .zip(pinned)
            .filter(|((_, sum), pinned)| sum != pinned)
            .map(|((state, sum), _)| format!("{state}: {sum:#x}"))
            .collect();
        assert!(
            differ.is_empty(),
            "these states sum differently here:\n{}",
            differ.join("\n")
        );
    }

    #[test]
    fn slices_of_integers_sum_as_their_values() {
        // A `Vec<u32>` sums as its length and each element's value, as
        // written one by one: no byte order, no width in it.
        let mut by_value = Checksum::new();
        by_value.write_usize(2);
        by_value.write_u32(5);
        by_value.write_u32(6);
        assert_eq!(hashed(&vec![5u32, 6]), by_value.finish128());
        let mut wide = Checksum::new();
        wide.write_usize(2);
        wide.write_u64(5);
        wide.write_u64(6);
        assert_eq!(hashed(&vec![5usize, 6]), wide.finish128());
        assert_eq!(hashed(&vec![5u64, 6]), wide.finish128());
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
