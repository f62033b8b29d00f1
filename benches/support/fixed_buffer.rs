//! A fixed-size buffer held by value that `write!` fills: the storage of
//! the no-allocation floors in the benches.

/// Up to `N` bytes of formatted text, no allocation.
#[derive(Clone, Copy)]
pub struct FixedBuffer<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> FixedBuffer<N> {
    pub const EMPTY: Self = FixedBuffer {
        bytes: [0; N],
        len: 0,
    };

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> std::fmt::Write for FixedBuffer<N> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
