//! The render world's upload figures, handed to the main world's
//! diagnostics: the render world has no `DiagnosticsStore` of its own.

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bevy_diagnostic::{DiagnosticPath, DiagnosticsStore};
use bevy_ecs::prelude::*;
use tickarena::gpu::UploadStats;

use crate::diagnostics::measure_in;

/// The diagnostic of the render world's upload bytes per frame (the
/// frame's [`FrameRecord::arena_bytes`](tickarena::frame_loop::FrameRecord)).
///
/// # Example
///
/// ```
/// use tickarena_bevy::render::UPLOAD_BYTES_DIAGNOSTIC;
/// assert_eq!(UPLOAD_BYTES_DIAGNOSTIC.as_str(), "tickarena/render/upload_bytes");
/// ```
pub const UPLOAD_BYTES_DIAGNOSTIC: DiagnosticPath =
    DiagnosticPath::const_new("tickarena/render/upload_bytes");

/// The diagnostic of staging buffers the render world's upload arena made
/// per frame (0 in steady frames).
///
/// # Example
///
/// ```
/// use tickarena_bevy::render::UPLOAD_BUFFERS_DIAGNOSTIC;
/// assert_eq!(UPLOAD_BUFFERS_DIAGNOSTIC.as_str(), "tickarena/render/staging_buffers_made");
/// ```
pub const UPLOAD_BUFFERS_DIAGNOSTIC: DiagnosticPath =
    DiagnosticPath::const_new("tickarena/render/staging_buffers_made");

/// The diagnostic of the staging memory the render world's upload arena
/// holds, over its frames in flight (what its retention keeps).
///
/// # Example
///
/// ```
/// use tickarena_bevy::render::UPLOAD_STAGING_DIAGNOSTIC;
/// assert_eq!(UPLOAD_STAGING_DIAGNOSTIC.as_str(), "tickarena/render/staging_bytes");
/// ```
pub const UPLOAD_STAGING_DIAGNOSTIC: DiagnosticPath =
    DiagnosticPath::const_new("tickarena/render/staging_bytes");

/// The diagnostic of the most upload bytes one render frame used so far:
/// the sizing report's high-water mark, the least chunk that holds every
/// frame in one (`RenderUploads::report` gives the whole report).
///
/// # Example
///
/// ```
/// use tickarena_bevy::render::UPLOAD_HIGH_WATER_DIAGNOSTIC;
/// assert_eq!(UPLOAD_HIGH_WATER_DIAGNOSTIC.as_str(), "tickarena/render/upload_high_water");
/// ```
pub const UPLOAD_HIGH_WATER_DIAGNOSTIC: DiagnosticPath =
    DiagnosticPath::const_new("tickarena/render/upload_high_water");

/// The last render frame's figures, written by the render world and read
/// by the main world (atomics: no lock, no allocation).
#[derive(Default)]
pub(crate) struct Figures {
    /// Render frames finished, ever.
    frames: AtomicU64,
    bytes: AtomicU64,
    buffers: AtomicU64,
    staging: AtomicU64,
    high_water: AtomicU64,
}

impl Figures {
    /// A render frame ended: its upload bytes, the staging buffers it
    /// made, and the arena's counts after it.
    pub(crate) fn frame_ended(&self, bytes: u64, buffers: u64, stats: &UploadStats) {
        self.bytes.store(bytes, Ordering::Relaxed);
        self.buffers.store(buffers, Ordering::Relaxed);
        self.staging.store(stats.staging_bytes, Ordering::Relaxed);
        self.high_water.store(stats.high_water, Ordering::Relaxed);
        self.frames.fetch_add(1, Ordering::Release);
    }
}

/// The main world's side of the figures, and the render frames it has
/// measured.
#[derive(Resource)]
pub(crate) struct MainFigures {
    pub(crate) figures: Arc<Figures>,
    seen: u64,
}

impl MainFigures {
    pub(crate) fn new(figures: Arc<Figures>) -> Self {
        MainFigures { figures, seen: 0 }
    }
}

/// Adds a render frame's figures to the diagnostics, once each.
pub(crate) fn measure_uploads(
    mut main: ResMut<MainFigures>,
    store: Option<ResMut<DiagnosticsStore>>,
) {
    let Some(mut store) = store else {
        return;
    };
    let frames = main.figures.frames.load(Ordering::Acquire);
    if frames == main.seen {
        return;
    }
    main.seen = frames;
    let figures = &main.figures;
    for (path, figure, suffix) in [
        (&UPLOAD_BYTES_DIAGNOSTIC, &figures.bytes, " B"),
        (&UPLOAD_BUFFERS_DIAGNOSTIC, &figures.buffers, ""),
        (&UPLOAD_STAGING_DIAGNOSTIC, &figures.staging, " B"),
        (&UPLOAD_HIGH_WATER_DIAGNOSTIC, &figures.high_water, " B"),
    ] {
        measure_in(
            &mut store,
            path,
            figure.load(Ordering::Relaxed) as f64,
            suffix,
        );
    }
}
