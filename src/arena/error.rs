//! [`ArenaError`]: why an arena could not be built.

use core::fmt;

/// Why [`FrameArenaBuilder::build`](crate::FrameArenaBuilder::build) failed:
/// the OS refused the reservation, or the settings contradict each other.
///
/// # Example
///
/// ```
/// use tickarena::{ArenaError, FrameArena};
///
/// let error = FrameArena::builder().reserve(1 << 20).retain(2 << 20).build().unwrap_err();
/// assert!(matches!(error, ArenaError::RetainExceedsReserve { .. }));
/// assert!(error.to_string().contains("retain"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArenaError {
    /// The OS refused to reserve the address space. With the default size
    /// the arena halves the request down to 64 MiB before giving up; an
    /// explicit [`reserve`](crate::FrameArenaBuilder::reserve) is tried as is.
    ReservationRefused {
        /// Bytes first asked for.
        requested: usize,
        /// The smallest reservation tried.
        smallest_tried: usize,
    },
    /// [`reserve`](crate::FrameArenaBuilder::reserve) was zero.
    ZeroReserve,
    /// [`retain`](crate::FrameArenaBuilder::retain) asked to keep more
    /// committed than is reserved.
    RetainExceedsReserve {
        /// The retained size asked for.
        retain: usize,
        /// The reservation.
        reserve: usize,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ArenaError::ReservationRefused {
                requested,
                smallest_tried,
            } => write!(
                f,
                "the OS refused to reserve address space for the frame arena \
                 (asked for {requested} bytes, tried down to {smallest_tried}); \
                 ask for less with FrameArena::builder().reserve(bytes)"
            ),
            ArenaError::ZeroReserve => {
                write!(
                    f,
                    "invalid FrameArena settings: reserve(0) leaves no room to allocate"
                )
            }
            ArenaError::RetainExceedsReserve { retain, reserve } => write!(
                f,
                "invalid FrameArena settings: retain({retain}) is larger than reserve({reserve})"
            ),
        }
    }
}

impl core::error::Error for ArenaError {}
