//! Tracy plots of each frame's arena figures (cargo feature `tracy`): at
//! every reset of a [`FrameArena`](crate::FrameArena) or
//! [`ThreadArenas`](crate::ThreadArenas), the frame's bytes, the
//! high-water mark and the committed bytes, as memory plots, and the
//! frame's peak per [`Tag`](crate::Tag) (what budgets, the sizing report
//! and the CSV go by), one plot each; and every
//! tick of the frame loop, the tick's arena bytes. Plotted only while a
//! Tracy client runs (`tracy_client::Client::running()`): with
//! tracy-client's `manual-lifetime` feature, from `Client::start()` on.
//! Without the feature none of this is compiled: not even a branch.
//!
//! A plot's name is made at its first point and kept for the process, as
//! Tracy needs (a few dozen bytes per arena plotted).

use std::sync::atomic::{AtomicU64, Ordering};

use tracy_client::{Client, PlotConfiguration, PlotFormat, PlotName};

/// Plots sent so far (for tests: Tracy has no way to read them back).
static PLOTS_SENT: AtomicU64 = AtomicU64::new(0);

/// Points plotted to Tracy by tickarena so far: three per arena reset (and
/// one per tag, for an arena that met tags), one per frame-loop tick. For
/// tests of the `tracy` feature.
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

/// One memory plot. Its name is made at its first point (and kept for the
/// process, as Tracy needs), together with its display (bytes): an arena
/// that is never plotted costs no name.
struct MemoryPlot {
    owner: &'static str,
    what: &'static str,
    name: Option<PlotName>,
    /// The last point plotted (for the tests: Tracy cannot be read).
    #[cfg(test)]
    last: Option<usize>,
}

impl MemoryPlot {
    fn new(owner: &'static str, what: &'static str) -> MemoryPlot {
        MemoryPlot {
            owner,
            what,
            name: None,
            #[cfg(test)]
            last: None,
        }
    }

    fn plot(&mut self, client: &Client, bytes: usize) {
        let name = *self.name.get_or_insert_with(|| {
            let name = PlotName::new_leak(format!("{}: {}", self.owner, self.what));
            client.plot_config(
                name,
                PlotConfiguration::default().format(PlotFormat::Memory),
            );
            name
        });
        client.plot(name, bytes as f64);
        PLOTS_SENT.fetch_add(1, Ordering::Relaxed);
        #[cfg(test)]
        {
            self.last = Some(bytes);
        }
    }
}

/// The plots of one arena (or one set of thread arenas).
pub(crate) struct ArenaPlots {
    frame_bytes: MemoryPlot,
    high_water: MemoryPlot,
    committed: MemoryPlot,
    /// One plot per tag, made when the tag is first plotted.
    tags: Vec<MemoryPlot>,
    owner: &'static str,
}

impl ArenaPlots {
    /// Plots named after `name` (unnamed arenas share "tickarena").
    pub(crate) fn new(name: Option<&'static str>) -> ArenaPlots {
        let owner = name.unwrap_or("tickarena");
        ArenaPlots {
            frame_bytes: MemoryPlot::new(owner, "frame bytes"),
            high_water: MemoryPlot::new(owner, "high water"),
            committed: MemoryPlot::new(owner, "committed"),
            tags: Vec::new(),
            owner,
        }
    }

    /// Plots one frame's bytes per tag (`owner: tag`), if a client is
    /// running: each tag's peak, the figure its budget, the report and the
    /// CSV go by (a tag whose scratch was freed before the frame ended
    /// shows what it held, not the little it kept).
    pub(crate) fn plot_tags(&mut self, table: &crate::TagBytes) {
        let Some(client) = Client::running() else {
            return;
        };
        for (tag, bytes) in table.peaks() {
            let index = match self.tags.iter().position(|plot| plot.what == tag.name()) {
                Some(index) => index,
                None => {
                    self.tags.push(MemoryPlot::new(self.owner, tag.name()));
                    self.tags.len() - 1
                }
            };
            self.tags[index].plot(&client, bytes);
        }
    }

    /// Plots one frame's figures, if a client is running.
    pub(crate) fn plot(&mut self, frame_bytes: usize, high_water: usize, committed: usize) {
        let Some(client) = Client::running() else {
            return;
        };
        self.frame_bytes.plot(&client, frame_bytes);
        self.high_water.plot(&client, high_water);
        self.committed.plot(&client, committed);
    }
}

/// The frame loop's bytes per tick (its arena and its workers').
pub(crate) struct TickPlot(MemoryPlot);

impl TickPlot {
    pub(crate) fn new() -> TickPlot {
        TickPlot(MemoryPlot::new("frame loop", "tick arena bytes"))
    }

    /// Plots one tick's bytes, if a client is running.
    pub(crate) fn plot(&mut self, bytes: usize) {
        if let Some(client) = Client::running() {
            self.0.plot(&client, bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FrameArena, Tag};

    #[test]
    fn each_tag_is_plotted_at_its_peak_as_budgets_and_the_report_have_it() {
        const AI: Tag = Tag::new("ai");
        let arena = FrameArena::new();
        {
            let _ai = arena.tag(AI);
            drop(Vec::<u8, _>::with_capacity_in(1000, &arena)); // scratch, freed
            arena.alloc(0u64);
        }
        let table = arena.tag_bytes();
        let mut plots = ArenaPlots::new(Some("tags test"));
        plots.plot_tags(&table);
        // Without tracy-client's `enable`, a client always runs (a no-op).
        if Client::running().is_some() {
            let ai = plots.tags.iter().find(|plot| plot.what == "ai").unwrap();
            assert_eq!(ai.last, Some(table.peak(AI)));
            assert_eq!(ai.last, Some(1000));
        }
    }
}
