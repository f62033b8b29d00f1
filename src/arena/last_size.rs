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
use core::cell::{Cell, RefCell};
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
/// column and file) and a part number. Not by the `Location`'s address
/// alone: two calls at one site are not promised the same `&Location`
/// (Miri gives each its own). A program has few sites that ask (each a
/// place in its source), so a short list scanned in order; it grows only
/// when a new site first asks.
///
/// The scan is the slow path: the site found last is kept by its
/// `Location`'s address (a `'static`, so an address is never another
/// site's), and a buffer keeps its site's index ([`slot`](Self::slot)) to
/// record into. So a search that makes its list 4000 times a frame at one
/// line compares one word per list, not line, column and file twice.
#[derive(Default)]
pub(crate) struct LastSizes {
    sites: RefCell<Vec<(Site, Remembered)>>,
    /// The site found last: its `Location`'s address with the part in the
    /// low bits (a `Location` is aligned to at least 4), and its index.
    /// `(0, 0)` before any.
    last: Cell<(usize, usize)>,
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

/// The cache key of a site's part: the `Location`'s address, the part in
/// its low two bits (`Location` holds a `&str` and two `u32`s, so its
/// alignment is at least 4).
#[inline(always)]
fn key((site, part): (&'static Location<'static>, u8)) -> usize {
    debug_assert!(part < 4 && align_of::<Location<'static>>() >= 4);
    core::ptr::from_ref(site).addr() | usize::from(part)
}

impl LastSizes {
    /// The index of the site's part in the list, made (all 0) on its
    /// first call: the one found last by one comparison, any other by
    /// the scan.
    #[inline]
    pub(crate) fn slot(&self, site: (&'static Location<'static>, u8)) -> usize {
        let (last, index) = self.last.get();
        if last == key(site) {
            return index;
        }
        self.find(site)
    }

    /// The scan (and the push of a new site).
    #[cold]
    #[inline(never)]
    fn find(&self, site: (&'static Location<'static>, u8)) -> usize {
        let wanted = Site::of(site);
        let mut sites = self.sites.borrow_mut();
        let index = match sites.iter().position(|(at, _)| at.is(&wanted)) {
            Some(index) => index,
            None => {
                sites.push((wanted, Remembered::default()));
                sites.len() - 1
            }
        };
        self.last.set((key(site), index));
        index
    }

    /// The sizes at `slot` (from [`slot`](Self::slot); the list only
    /// grows, so an index stays its site's).
    #[inline]
    fn at<R>(&self, slot: usize, f: impl FnOnce(&mut Remembered) -> R) -> R {
        let mut sites = self.sites.borrow_mut();
        match sites.get_mut(slot) {
            Some((_, sizes)) => f(sizes),
            // An index from another arena's list: nothing to read or keep.
            None => f(&mut Remembered::default()),
        }
    }

    /// The size a buffer of the site at `slot` starts at in window `window`.
    #[inline]
    pub(crate) fn hint_at(&self, slot: usize, window: u64) -> usize {
        self.at(slot, |sizes| sizes.hint(window))
    }

    /// A buffer of the site at `slot` needed `needed` in window `window`.
    #[inline]
    pub(crate) fn record_at(&self, slot: usize, window: u64, needed: usize) {
        self.at(slot, |sizes| sizes.record(window, needed));
    }

    /// The size a buffer made at `site` starts at in window `window`.
    #[inline]
    pub(crate) fn hint(&self, site: (&'static Location<'static>, u8), window: u64) -> usize {
        self.hint_at(self.slot(site), window)
    }

    /// A buffer made at `site` needed `needed` in window `window`.
    #[inline]
    pub(crate) fn record(
        &self,
        site: (&'static Location<'static>, u8),
        window: u64,
        needed: usize,
    ) {
        self.record_at(self.slot(site), window, needed);
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
    fn the_site_found_last_is_one_comparison_away_and_others_are_scanned() {
        let sizes = LastSizes::default();
        let (a, b) = (Location::caller(), Location::caller());
        let (at_a, at_b) = (sizes.slot((a, 0)), sizes.slot((b, 0)));
        assert_ne!(at_a, at_b);
        assert_eq!(sizes.slot((b, 0)), at_b, "the one found last");
        assert_eq!(sizes.slot((a, 0)), at_a, "found by the scan");
        assert_eq!(sizes.slot((a, 1)), 2, "another part is another site");
        sizes.record_at(at_a, 0, 5);
        assert_eq!((sizes.hint((a, 0), 0), sizes.hint_at(at_b, 0)), (5, 0));
        assert_eq!(sizes.sites(), 3);
    }

    #[test]
    fn a_site_at_another_address_is_the_same_site() {
        // As Miri hands out a `Location` per call: equal, not the same
        // address. The one found last must not stand in for it by mistake,
        // nor must it be missed.
        const HERE: &Location<'static> = Location::caller();
        static SITE: Location<'static> = *HERE;
        static COPY: Location<'static> = *HERE;
        let sizes = LastSizes::default();
        let (site, copy) = (&SITE, &COPY);
        assert!(!core::ptr::eq(site, copy));
        sizes.record((site, 0), 0, 40);
        assert_eq!(sizes.hint((copy, 0), 0), 40);
        assert_eq!(sizes.slot((copy, 0)), sizes.slot((site, 0)));
        assert_eq!(sizes.sites(), 1);
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
