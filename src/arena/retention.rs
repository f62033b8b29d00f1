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

    /// A frame that used `used` bytes has ended: at the end of a window,
    /// the committed bytes to keep (the pages above go back); `None` in
    /// between, when nothing is given back.
    #[inline]
    pub(crate) fn frame_ended(&mut self, used: usize) -> Option<usize> {
        self.peak = self.peak.max(used);
        self.frames += 1;
        if self.frames < self.release_after {
            return None;
        }
        let keep = if self.release_after == 0 {
            self.retain
        } else {
            self.retain.max(self.peak)
        };
        (self.frames, self.peak) = (0, 0);
        Some(keep)
    }
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
            .map(|&used| retention.frame_ended(used))
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
    fn the_retained_size_is_kept_whatever_the_frames_used() {
        let kept = run(Retention::new(100, 2), &[0, 0, 5, 7]);
        assert_eq!(kept, [None, Some(100), None, Some(100)]);
    }
}
