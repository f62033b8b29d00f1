//! Bevy diagnostics of the plugin's arenas: a [`Diagnostic`] per system's
//! [`FrameScratch`](crate::FrameScratch), per kind of frame data and for
//! the worker arenas, in bytes, measured at each frame's end, so that
//! `LogDiagnosticsPlugin` prints them and any overlay reading the
//! `DiagnosticsStore` shows them.
//!
//! Paths: `tickarena/scratch/<system>` (the most the system's scratch held
//! in its run; `system <n>` for the n-th system initialized, where Bevy's
//! `debug` feature is off and systems have no names),
//! `tickarena/frame_data/<kind>` (the frame's data of that kind) and
//! `tickarena/workers` (the worker arenas' peak, summed).
//! Measured only when the app has a `DiagnosticsStore`
//! (`DiagnosticsPlugin`); a diagnostic is registered the first frame its
//! arena has a figure, so nothing needs declaring.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use bevy_diagnostic::{Diagnostic, DiagnosticMeasurement, DiagnosticPath, DiagnosticsStore};
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use bevy_platform::time::Instant;

/// The root of every path.
///
/// # Example
///
/// ```
/// use tickarena_bevy::{DIAGNOSTIC_ROOT, WORKERS_DIAGNOSTIC};
/// assert!(WORKERS_DIAGNOSTIC.as_str().starts_with(DIAGNOSTIC_ROOT));
/// ```
pub const DIAGNOSTIC_ROOT: &str = "tickarena";

/// The worker arenas' diagnostic: the peak of their frame, summed.
///
/// # Example
///
/// ```
/// use bevy_app::App;
/// use bevy_diagnostic::{DiagnosticsPlugin, DiagnosticsStore};
/// use tickarena_bevy::{TickarenaPlugin, WORKERS_DIAGNOSTIC};
///
/// let mut app = App::new();
/// app.add_plugins((TickarenaPlugin, DiagnosticsPlugin));
/// app.update();
/// let store = app.world().resource::<DiagnosticsStore>();
/// assert_eq!(store.get(&WORKERS_DIAGNOSTIC).unwrap().value(), Some(0.0));
/// ```
pub const WORKERS_DIAGNOSTIC: DiagnosticPath = DiagnosticPath::const_new("tickarena/workers");

/// The diagnostic of a system's scratch (`tickarena/scratch/<system>`).
///
/// # Example
///
/// ```
/// let path = tickarena_bevy::scratch_diagnostic("game::plan");
/// assert_eq!(path.as_str(), "tickarena/scratch/game::plan");
/// ```
pub fn scratch_diagnostic(system: &str) -> DiagnosticPath {
    DiagnosticPath::new(format!("{DIAGNOSTIC_ROOT}/scratch/{system}"))
}

/// The diagnostic of a kind of frame data (`tickarena/frame_data/<kind>`,
/// the kind's type name).
///
/// # Example
///
/// ```
/// struct Requests;
/// let path = tickarena_bevy::frame_data_diagnostic::<Requests>();
/// assert!(path.as_str().starts_with("tickarena/frame_data/"));
/// assert!(path.as_str().ends_with("Requests"));
/// ```
pub fn frame_data_diagnostic<D: 'static>() -> DiagnosticPath {
    DiagnosticPath::new(format!(
        "{DIAGNOSTIC_ROOT}/frame_data/{}",
        core::any::type_name::<D>()
    ))
}

/// One system's scratch figure (in its `FrameScratch` state), written by
/// its `FrameScratch` at each run (the last run's peak), read at the
/// frame's end.
#[derive(Default)]
#[doc(hidden)]
pub struct ScratchFigure {
    /// Set at the system's first run.
    path: OnceLock<DiagnosticPath>,
    /// The order its system's parameter was initialized in: the name of a
    /// system without one (Bevy without its `debug` feature).
    index: usize,
    bytes: AtomicUsize,
    ran: AtomicBool,
}

impl ScratchFigure {
    /// Whether the system has not run yet.
    pub(crate) fn first_run(&self) -> bool {
        self.path.get().is_none()
    }

    /// The system's name, known at its first run (`None`: it has none, and
    /// is named `system <index>`).
    pub(crate) fn name(&self, system: Option<&str>) {
        self.path.get_or_init(|| match system {
            Some(system) => scratch_diagnostic(system),
            None => scratch_diagnostic(&format!("system {}", self.index)),
        });
    }

    /// The last run's peak.
    pub(crate) fn record(&self, bytes: usize) {
        self.bytes.store(bytes, Ordering::Relaxed);
        self.ran.store(true, Ordering::Relaxed);
    }
}

/// Every system scratch's figure, registered when the parameter is
/// initialized.
#[derive(Resource, Default)]
pub(crate) struct ScratchFigures(Vec<Arc<ScratchFigure>>);

impl ScratchFigures {
    /// A new figure for a system's scratch.
    pub(crate) fn register(world: &mut World) -> Arc<ScratchFigure> {
        let mut figures = world.get_resource_or_init::<ScratchFigures>();
        let figure = Arc::new(ScratchFigure {
            index: figures.0.len(),
            ..ScratchFigure::default()
        });
        figures.0.push(Arc::clone(&figure));
        figure
    }
}

/// Adds `bytes` to the diagnostic `path`, registering it on first use.
pub(crate) fn measure(store: &mut DiagnosticsStore, path: &DiagnosticPath, bytes: usize) {
    measure_in(store, path, bytes as f64, " B");
}

/// Adds `value` to the diagnostic `path`, registering it with `suffix`
/// on first use.
pub(crate) fn measure_in(
    store: &mut DiagnosticsStore,
    path: &DiagnosticPath,
    value: f64,
    suffix: &'static str,
) {
    if store.get(path).is_none() {
        store.add(Diagnostic::new(path.clone()).with_suffix(suffix));
    }
    if let Some(diagnostic) = store.get_mut(path).filter(|d| d.is_enabled) {
        diagnostic.add_measurement(DiagnosticMeasurement {
            time: Instant::now(),
            value,
        });
    }
}

/// The frame's end: each system scratch that ran since the last one.
pub(crate) fn measure_scratch(world: &mut World) {
    if !world.contains_resource::<DiagnosticsStore>() {
        return;
    }
    // Taken out and put back (no copy, no allocation): the list and the
    // store are both the world's. (`resource_scope` would move the store's
    // entity between archetypes twice a frame.)
    let Some(figures) = world
        .get_resource_mut::<ScratchFigures>()
        .map(|mut figures| core::mem::take(&mut figures.0))
    else {
        return;
    };
    let mut store = world.resource_mut::<DiagnosticsStore>();
    for figure in &figures {
        if let Some(path) = figure.path.get()
            && figure.ran.swap(false, Ordering::Relaxed)
        {
            measure(&mut store, path, figure.bytes.load(Ordering::Relaxed));
        }
    }
    world.resource_mut::<ScratchFigures>().0 = figures;
}
