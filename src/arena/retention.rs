//! When a frame arena gives committed pages back: the pages a burst
//! committed stay while bursts recur, and go back once the arena has stayed
//! below them for a while. Plain arithmetic over byte counts, no pointers.
//!
//! Frames are counted in windows of `release_after` frames. At the end of a
//! window the arena keeps what the largest frame of that window used (and
//! never less than `retain`); pages above go back. So a periodic burst
//! whose period is at most the window keeps its pages (no page faults
//! after the first bursts), and once bursts stop their pages go back
//! between `release_after` and twice that many frames later. A window of 0
//! frames gives everything above `retain` back at every reset, as an arena
//! that keeps nothing for bursts would. (Anchors: Bevy's planned
//! `Scratch<T>`, which shrinks after several frames of low occupancy;
//! Unreal's `FVirtualStackAllocator`, `ExcessOnStackEmpty`.)

#![forbid(unsafe_code)]

/// Frames a burst's pages stay unless told otherwise: 5 s at 60 Hz.
pub(crate) const DEFAULT_RELEASE_AFTER: u32 = 300;

/// An arena's retention: what it keeps, and the window it measures.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Retention {
    /// Committed bytes always kept.
    retain: usize,
    /// Frames in a window.
    release_after: u32,
    /// Frames ended in the current window.
    frames: u32,
    /// The most bytes a frame of the current window used.
    peak: usize,
}

impl Retention {
    pub(crate) const fn new(retain: usize, release_after: u32) -> Retention {
        Retention {
            retain,
            release_after,
            frames: 0,
            peak: 0,
        }
    }

    /// Committed bytes always kept.
    pub(crate) const fn retain(&self) -> usize {
        self.retain
    }

    /// Frames in a window.
    pub(crate) const fn release_after(&self) -> u32 {
        self.release_after
    }

    /// Frames ended in the current window.
    pub(crate) const fn frames(&self) -> u32 {
        self.frames
    }

    /// The most bytes a frame of the current window used.
    pub(crate) const fn peak(&self) -> usize {
        self.peak
    }

    /// A frame that used `used` bytes has ended: whether that ends the
    /// window (then [`end_window`](Self::end_window) says what to keep).
    ///
    /// A branch rather than `max`: a frame below the window's peak stores
    /// nothing, so resets in a row (a scope's, thousands a frame) do not
    /// each wait for the previous one's store of the peak to be read back.
    #[inline(always)]
    pub(crate) fn frame_ended(&mut self, used: usize) -> bool {
        if used > self.peak {
            self.peak = used;
        }
        self.frames += 1;
        self.frames >= self.release_after
    }

    /// Ends the current window and starts the next: what it leaves to keep
    /// (the pages above go back), and its figures.
    pub(crate) fn end_window(&mut self) -> Window {
        let keep = if self.release_after == 0 {
            self.retain
        } else {
            self.retain.max(self.peak)
        };
        let ended = Window {
            keep,
            peak: self.peak,
            frames: self.frames,
        };
        (self.frames, self.peak) = (0, 0);
        ended
    }
}

/// A window that ended: the committed bytes to keep, the most bytes one
/// of its frames used, and its frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) keep: usize,
    pub(crate) peak: usize,
    pub(crate) frames: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// What each of `frames` (bytes used) leaves kept: `None` where
    /// nothing is given back.
    fn run(mut retention: Retention, frames: &[usize]) -> Vec<Option<usize>> {
        frames
            .iter()
            .map(|&used| {
                retention
                    .frame_ended(used)
                    .then(|| retention.end_window().keep)
            })
            .collect()
    }

    #[test]
    fn a_window_of_zero_frames_keeps_only_the_retained_size() {
        let kept = run(Retention::new(100, 0), &[50, 1000, 10]);
        assert_eq!(kept, [Some(100), Some(100), Some(100)]);
    }

    #[test]
    fn a_recurring_burst_keeps_its_pages() {
        // A burst of 1000 every 3 frames, windows of 4: every window has one.
        let frames = [1000, 10, 10, 1000, 10, 10, 1000, 10, 10, 1000, 10, 10];
        let kept = run(Retention::new(100, 4), &frames);
        let trims: Vec<usize> = kept.into_iter().flatten().collect();
        assert_eq!(trims, [1000, 1000, 1000]);
    }

    #[test]
    fn a_burst_goes_back_within_two_windows_of_quiet_frames() {
        let mut frames = vec![1000];
        frames.extend([10; 7]);
        let kept = run(Retention::new(100, 4), &frames);
        // The burst's window keeps it; the next, all quiet, gives it back.
        assert_eq!(kept[3], Some(1000));
        assert_eq!(kept[7], Some(100));
        assert_eq!(kept.iter().flatten().count(), 2);
    }

    #[test]
    fn a_window_reports_its_peak_and_frames() {
        let mut retention = Retention::new(100, 3);
        assert!(!retention.frame_ended(40));
        assert!(!retention.frame_ended(700));
        assert_eq!((retention.frames(), retention.peak()), (2, 700));
        assert!(retention.frame_ended(5));
        let window = retention.end_window();
        assert_eq!(
            window,
            Window {
                keep: 700,
                peak: 700,
                frames: 3
            }
        );
        assert_eq!((retention.frames(), retention.peak()), (0, 0));
    }

    #[test]
    fn the_retained_size_is_kept_whatever_the_frames_used() {
        let kept = run(Retention::new(100, 2), &[0, 0, 5, 7]);
        assert_eq!(kept, [None, Some(100), None, Some(100)]);
    }
}
