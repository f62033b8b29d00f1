//! What a frame buffer needed in recent frames, per call site: the size a
//! buffer made at the same place starts at, so that a steady frame grows
//! nothing (as a `Local` or a `Resource` that keeps its capacity grows
//! nothing). Plain arithmetic over sizes and window numbers, no pointers.
//!
//! The sizes follow the arena's retention windows: a buffer starts at the
//! most it needed in the current window or the one before. So a burst
//! that recurs within a window keeps its size (as its pages are kept),
//! and once bursts stop the size goes back down between one and two
//! windows later, when the arena gives the burst's pages back too.

#![forbid(unsafe_code)]

use alloc::vec::Vec;
use core::cell::RefCell;
use core::panic::Location;

/// One call site's sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Remembered {
    /// The window `peak` belongs to.
    window: u64,
    /// The most the site needed in that window.
    peak: usize,
    /// The most it needed in the window before.
    previous: usize,
}

impl Remembered {
    /// Moves the figures on to window `window` (the arena's count of ended
    /// windows): the old peak becomes the previous window's if `window`
    /// follows it directly, else both are forgotten.
    #[inline]
    fn roll(&mut self, window: u64) {
        if self.window != window {
            self.previous = if window == self.window + 1 {
                self.peak
            } else {
                0
            };
            self.peak = 0;
            self.window = window;
        }
    }

    /// The size to start at in window `window`.
    #[inline]
    pub(crate) fn hint(&mut self, window: u64) -> usize {
        self.roll(window);
        self.peak.max(self.previous)
    }

    /// A buffer made at this site needed `needed` in window `window`.
    #[inline]
    pub(crate) fn record(&mut self, window: u64, needed: usize) {
        self.roll(window);
        if needed > self.peak {
            self.peak = needed;
        }
    }
}

/// The sizes of an arena's call sites, found by the site (its line,
/// column and file) and a part number. Not by the `Location`'s address:
/// two calls at one site are not promised the same `&Location` (Miri gives
/// each its own). A program has few sites that ask (each a place in its
/// source), so a short list scanned in order; it grows only when a new
/// site first asks.
#[derive(Default)]
pub(crate) struct LastSizes {
    sites: RefCell<Vec<(Site, Remembered)>>,
}

/// A call site and a part of it (0 to 3: a site may make several buffers,
/// e.g. a writer's values and offsets).
#[derive(Clone, Copy, Debug)]
struct Site {
    line: u32,
    column: u32,
    part: u8,
    file: &'static str,
}

impl Site {
    #[inline]
    fn of((site, part): (&'static Location<'static>, u8)) -> Site {
        Site {
            line: site.line(),
            column: site.column(),
            part,
            file: site.file(),
        }
    }

    /// The same site and part: the numbers first, then the file (one
    /// string in the binary, so almost always the same pointer).
    #[inline]
    fn is(&self, other: &Site) -> bool {
        self.line == other.line
            && self.column == other.column
            && self.part == other.part
            && (core::ptr::eq(self.file, other.file) || self.file == other.file)
    }
}

impl LastSizes {
    /// The sizes of the site's part, made (all 0) on its first call.
    #[inline]
    fn with<R>(
        &self,
        site: (&'static Location<'static>, u8),
        f: impl FnOnce(&mut Remembered) -> R,
    ) -> R {
        let site = Site::of(site);
        let mut sites = self.sites.borrow_mut();
        if let Some((_, sizes)) = sites.iter_mut().find(|(at, _)| at.is(&site)) {
            return f(sizes);
        }
        sites.push((site, Remembered::default()));
        let last = sites.len() - 1;
        f(&mut sites[last].1)
    }

    /// The size a buffer made at `site` starts at in window `window`.
    #[inline]
    pub(crate) fn hint(&self, site: (&'static Location<'static>, u8), window: u64) -> usize {
        self.with(site, |sizes| sizes.hint(window))
    }

    /// A buffer made at `site` needed `needed` in window `window`.
    #[inline]
    pub(crate) fn record(
        &self,
        site: (&'static Location<'static>, u8),
        window: u64,
        needed: usize,
    ) {
        self.with(site, |sizes| sizes.record(window, needed));
    }

    /// Call sites seen so far.
    #[cfg(test)]
    pub(crate) fn sites(&self) -> usize {
        self.sites.borrow().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The hint of each frame of `frames` (the window, what it needed),
    /// taken before the frame records its need.
    fn hints(frames: &[(u64, usize)]) -> Vec<usize> {
        let mut sizes = Remembered::default();
        frames
            .iter()
            .map(|&(window, needed)| {
                let hint = sizes.hint(window);
                sizes.record(window, needed);
                hint
            })
            .collect()
    }

    #[test]
    fn a_steady_frame_starts_at_what_the_last_one_needed() {
        assert_eq!(hints(&[(0, 100), (0, 100), (0, 100)]), [0, 100, 100]);
    }

    #[test]
    fn a_burst_is_kept_for_the_next_window_then_forgotten() {
        let frames = [
            (0, 10),
            (0, 1000),
            (0, 10),
            (1, 10),
            (1, 10),
            (2, 10),
            (2, 10),
        ];
        assert_eq!(hints(&frames), [0, 10, 1000, 1000, 1000, 10, 10]);
    }

    #[test]
    fn a_recurring_burst_keeps_its_size() {
        let frames = [(0, 1000), (0, 10), (1, 1000), (1, 10), (2, 1000), (2, 10)];
        assert_eq!(hints(&frames), [0, 1000, 1000, 1000, 1000, 1000]);
    }

    #[test]
    fn windows_without_a_frame_forget_everything() {
        assert_eq!(hints(&[(0, 500), (3, 20), (3, 20)]), [0, 0, 20]);
    }

    #[test]
    fn sites_are_told_apart() {
        let sizes = LastSizes::default();
        let (a, b) = (Location::caller(), Location::caller());
        sizes.record((a, 0), 0, 7);
        sizes.record((b, 0), 0, 9);
        sizes.record((b, 1), 0, 11);
        assert_eq!(sizes.hint((a, 0), 0), 7);
        assert_eq!((sizes.hint((b, 0), 0), sizes.hint((b, 1), 0)), (9, 11));
        assert_eq!(sizes.hint((a, 1), 0), 0);
        assert_eq!(sizes.sites(), 4);
    }
}
