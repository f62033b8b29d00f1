//! Tracy plots of each frame's arena figures (cargo feature `tracy`): at
//! every reset of a [`FrameArena`](crate::FrameArena) or
//! [`ThreadArenas`](crate::ThreadArenas), the frame's bytes, the
//! high-water mark and the committed bytes, as memory plots; and every
//! tick of the frame loop, the tick's arena bytes. Plotted only while a
//! Tracy client runs (`tracy_client::Client::running()`): with
//! tracy-client's `manual-lifetime` feature, from `Client::start()` on.
//! Without the feature none of this is compiled: not even a branch.
//!
//! Each arena's plot names are made when it is built and kept for the
//! process, as Tracy needs (a few dozen bytes per arena built).

use std::sync::atomic::{AtomicU64, Ordering};

use tracy_client::{Client, PlotConfiguration, PlotFormat, PlotName};

/// Plots sent so far (for tests: Tracy has no way to read them back).
static PLOTS_SENT: AtomicU64 = AtomicU64::new(0);

/// Points plotted to Tracy by tickarena so far: three per arena reset, one
/// per frame-loop tick. For tests of the `tracy` feature.
///
/// # Example
///
/// ```
/// let before = tickarena::tracy_points_sent();
/// let mut arena = tickarena::FrameArena::builder().name("example").build().unwrap();
/// arena.reset();
/// if tracy_client::Client::running().is_some() {
///     assert_eq!(tickarena::tracy_points_sent(), before + 3);
/// }
/// ```
pub fn tracy_points_sent() -> u64 {
    PLOTS_SENT.load(Ordering::Relaxed)
}

/// A plot's name made once (Tracy keeps it for the process).
fn plot_name(owner: &str, what: &str) -> PlotName {
    PlotName::new_leak(format!("{owner}: {what}"))
}

/// The plots of one arena (or one set of thread arenas).
pub(crate) struct ArenaPlots {
    frame_bytes: PlotName,
    high_water: PlotName,
    committed: PlotName,
    /// Whether the plots' display (memory, in bytes) was sent to the
    /// running client.
    configured: bool,
}

impl ArenaPlots {
    /// Plots named after `name` (unnamed arenas share "tickarena").
    pub(crate) fn new(name: Option<&str>) -> ArenaPlots {
        let owner = name.unwrap_or("tickarena");
        ArenaPlots {
            frame_bytes: plot_name(owner, "frame bytes"),
            high_water: plot_name(owner, "high water"),
            committed: plot_name(owner, "committed"),
            configured: false,
        }
    }

    /// Plots one frame's figures, if a client is running.
    pub(crate) fn plot(&mut self, frame_bytes: usize, high_water: usize, committed: usize) {
        let Some(client) = Client::running() else {
            return;
        };
        let plots = [
            (self.frame_bytes, frame_bytes),
            (self.high_water, high_water),
            (self.committed, committed),
        ];
        if !self.configured {
            for (name, _) in plots {
                client.plot_config(
                    name,
                    PlotConfiguration::default().format(PlotFormat::Memory),
                );
            }
            self.configured = true;
        }
        for (name, value) in plots {
            client.plot(name, value as f64);
        }
        PLOTS_SENT.fetch_add(plots.len() as u64, Ordering::Relaxed);
    }
}

/// One plot: the frame loop's bytes per tick (its arena and its workers').
pub(crate) struct TickPlot {
    name: PlotName,
    configured: bool,
}

impl TickPlot {
    pub(crate) fn new() -> TickPlot {
        TickPlot {
            name: plot_name("frame loop", "tick arena bytes"),
            configured: false,
        }
    }

    pub(crate) fn plot(&mut self, bytes: usize) {
        let Some(client) = Client::running() else {
            return;
        };
        if !self.configured {
            client.plot_config(
                self.name,
                PlotConfiguration::default().format(PlotFormat::Memory),
            );
            self.configured = true;
        }
        client.plot(self.name, bytes as f64);
        PLOTS_SENT.fetch_add(1, Ordering::Relaxed);
    }
}
