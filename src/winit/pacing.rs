//! [`Pacing`]: when the next frame is due.

use std::time::Duration;

use crate::frame_loop::clock::Instant;

/// How often the window loop runs a tick.
///
/// # Example
///
/// ```
/// use tickarena::winit::Pacing;
///
/// let pacing = Pacing::Hz(144.0);
/// assert_eq!(pacing.period(None), Some(std::time::Duration::from_secs_f64(1.0 / 144.0)));
/// assert_eq!(Pacing::Display.period(Some(75_000)), Some(std::time::Duration::from_secs_f64(1.0 / 75.0)));
/// assert_eq!(Pacing::Unlimited.period(Some(60_000)), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Pacing {
    /// At the refresh rate of the window's monitor (60 Hz when the
    /// platform does not say). The default.
    #[default]
    Display,
    /// At this many frames per second.
    Hz(f64),
    /// As fast as the loop can go (for measuring, and for smoke tests).
    Unlimited,
}

/// The rate [`Pacing::Display`] falls back to when the monitor's is unknown.
const FALLBACK_MILLIHERTZ: u32 = 60_000;

impl Pacing {
    /// The time between frames, given the monitor's refresh rate in
    /// millihertz (as winit reports it); `None` for [`Pacing::Unlimited`].
    ///
    /// # Panics
    ///
    /// If a [`Pacing::Hz`] rate is not a positive, finite number, or so low
    /// that one frame would last longer than a [`Duration`] can say.
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use tickarena::winit::Pacing;
    /// assert_eq!(Pacing::Display.period(None), Some(Duration::from_secs_f64(1.0 / 60.0)));
    /// ```
    #[track_caller]
    pub fn period(self, monitor_millihertz: Option<u32>) -> Option<Duration> {
        match self {
            Pacing::Display => {
                let millihertz = monitor_millihertz
                    .filter(|&rate| rate > 0)
                    .unwrap_or(FALLBACK_MILLIHERTZ);
                Some(Duration::from_secs_f64(1000.0 / f64::from(millihertz)))
            }
            Pacing::Hz(rate) => {
                assert!(
                    rate.is_finite() && rate > 0.0,
                    "tickarena::winit: Pacing::Hz needs a positive frame rate, got {rate}"
                );
                match Duration::try_from_secs_f64(1.0 / rate) {
                    Ok(period) => Some(period),
                    Err(_) => panic!(
                        "tickarena::winit: Pacing::Hz({rate}) is too low a frame rate: one frame \
                         would last longer than a Duration can hold"
                    ),
                }
            }
            Pacing::Unlimited => None,
        }
    }
}

/// The frame clock: says when a frame is due and when to wake for the next.
#[derive(Debug)]
pub(super) struct Pacer {
    period: Option<Duration>,
    next: Option<Instant>,
}

impl Pacer {
    /// A clock with frames `period` apart (`None`: every time it is asked).
    pub(super) fn new(period: Option<Duration>) -> Pacer {
        Pacer { period, next: None }
    }

    /// Starts over: the next frame is due now (after a resume, or a new
    /// monitor rate).
    pub(super) fn restart(&mut self, period: Option<Duration>) {
        *self = Pacer::new(period);
    }

    /// Whether a frame is due at `now`; if so, schedules the next one. A
    /// clock that fell more than a period behind (a stall, a debugger)
    /// skips the missed frames instead of running them back to back.
    pub(super) fn take_due(&mut self, now: Instant) -> bool {
        let Some(period) = self.period else {
            return true;
        };
        match self.next {
            Some(next) if now < next => false,
            Some(next) if now < next + period => {
                self.next = Some(next + period);
                true
            }
            _ => {
                self.next = Some(now + period);
                true
            }
        }
    }

    /// When to wake up for the next frame: `None` means at once (unpaced,
    /// where no next frame is ever scheduled).
    pub(super) fn wake_at(&self) -> Option<Instant> {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD: Duration = Duration::from_millis(10);

    #[test]
    fn frames_come_one_period_apart_without_drift() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Some(PERIOD));
        assert!(pacer.take_due(start), "the first frame is due at once");
        assert!(!pacer.take_due(start + Duration::from_millis(9)));
        assert_eq!(pacer.wake_at(), Some(start + PERIOD));
        // Woken a little late: the next frame is still scheduled on the grid.
        assert!(pacer.take_due(start + Duration::from_millis(12)));
        assert_eq!(pacer.wake_at(), Some(start + 2 * PERIOD));
    }

    #[test]
    fn a_stall_skips_the_missed_frames() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Some(PERIOD));
        assert!(pacer.take_due(start));
        let late = start + Duration::from_millis(95);
        assert!(pacer.take_due(late));
        assert_eq!(pacer.wake_at(), Some(late + PERIOD));
        assert!(!pacer.take_due(late + Duration::from_millis(1)));
    }

    #[test]
    fn unpaced_frames_are_always_due() {
        let now = Instant::now();
        let mut pacer = Pacer::new(None);
        assert!(pacer.take_due(now) && pacer.take_due(now));
        assert_eq!(pacer.wake_at(), None);
    }

    #[test]
    fn restart_makes_a_frame_due_at_once() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Some(PERIOD));
        assert!(pacer.take_due(start));
        pacer.restart(Some(PERIOD * 2));
        assert!(pacer.take_due(start + Duration::from_millis(1)));
        assert_eq!(
            pacer.wake_at(),
            Some(start + Duration::from_millis(1) + PERIOD * 2)
        );
    }

    #[test]
    #[should_panic(expected = "positive frame rate")]
    fn a_zero_rate_is_refused_with_a_message() {
        let _ = Pacing::Hz(0.0).period(None);
    }

    #[test]
    #[should_panic(expected = "too low a frame rate")]
    fn a_rate_too_low_for_a_duration_is_refused_with_our_message() {
        let _ = Pacing::Hz(1e-300).period(None);
    }

    #[test]
    fn a_very_low_rate_that_fits_a_duration_is_accepted() {
        assert_eq!(
            Pacing::Hz(1e-3).period(None),
            Some(Duration::from_secs(1000))
        );
    }
}
