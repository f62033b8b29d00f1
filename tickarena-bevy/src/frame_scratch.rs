//! [`FrameScratch`]: a system's own frame arena, reset before each run.

use core::alloc::{AllocError, Allocator, Layout};
use core::marker::PhantomData;
use core::ops::Deref;
use core::ptr::NonNull;

use bevy_ecs::change_detection::Tick;
use bevy_ecs::system::{
    ReadOnlySystemParam, SystemAccess, SystemMeta, SystemParam, SystemParamValidationError,
};
use bevy_ecs::world::World;
use bevy_ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy_platform::cell::SyncCell;
use std::sync::Arc;
use tickarena::{FrameArena, FrameArenaBuilder};

use crate::diagnostics::{ScratchFigure, ScratchFigures};

/// The sizes of a system's [`FrameScratch`] arena, chosen by the game:
/// `FrameScratch<Planning>` where `Planning` implements this.
///
/// # Example
///
/// ```
/// use bevy_app::{App, Update};
/// use tickarena::{FrameArena, FrameArenaBuilder};
/// use tickarena_bevy::{FrameScratch, ScratchSize};
///
/// /// The planner's scratch: large bursts, kept while they recur.
/// struct Planning;
/// impl ScratchSize for Planning {
///     fn builder() -> FrameArenaBuilder {
///         FrameArena::builder()
///             .reserve(8 << 20) // the most one run may use
///             .retain(1 << 20)
///             .release_after(600) // a burst's pages stay for 600 runs
///             .name("planning scratch (raise Planning's reserve)")
///     }
/// }
///
/// fn plan(scratch: FrameScratch<Planning>) {
///     assert_eq!(scratch.stats().reserved, 8 << 20);
///     // Past the reservation: an error (`alloc*` would panic, naming the arena).
///     assert!(scratch.try_alloc_slice_fill_with(9 << 20, |_| 0u8).is_err());
/// }
///
/// let mut app = App::new();
/// app.add_systems(Update, plan);
/// app.update();
/// ```
pub trait ScratchSize: Send + Sync + 'static {
    /// The builder of the arena (its name, too: messages about the arena
    /// show it).
    fn builder() -> FrameArenaBuilder;
}

/// The default [`ScratchSize`]: [`SCRATCH_RESERVE`] reserved,
/// [`SCRATCH_RETAIN`] kept, named after the parameter.
///
/// # Example
///
/// ```
/// use tickarena_bevy::{DefaultScratch, ScratchSize, SCRATCH_RESERVE};
/// let arena = DefaultScratch::builder().build().unwrap();
/// assert_eq!(arena.stats().reserved, SCRATCH_RESERVE);
/// ```
pub struct DefaultScratch;

impl ScratchSize for DefaultScratch {
    fn builder() -> FrameArenaBuilder {
        FrameArena::builder()
            .reserve(SCRATCH_RESERVE)
            .retain(SCRATCH_RETAIN)
            .name(DEFAULT_NAME)
    }
}

/// The default scratch arena's name, until its system's first run.
const DEFAULT_NAME: &str = "tickarena-bevy FrameScratch (set a ScratchSize to raise its reserve)";

/// Address space reserved for each system's scratch arena (costs nothing
/// until used, but tools that watch a process's virtual size, and
/// `ulimit -v`, count it): 32 MiB per system, unless its [`ScratchSize`]
/// says otherwise.
pub const SCRATCH_RESERVE: usize = 32 << 20;

/// Committed bytes each system's scratch arena keeps between runs; a
/// burst's pages above this go back to the OS once runs stop needing them
/// (see `FrameArenaBuilder::release_after`).
pub const SCRATCH_RETAIN: usize = 1 << 20;

/// This system's own [`FrameArena`], reset before each run of the system:
/// per-run scratch (vectors, maps, sorted lists, text) at a pointer bump
/// each, with nothing kept from one run to the next. It is an allocator
/// itself (`Vec::new_in(&scratch)`) and dereferences to the arena:
/// `scratch.alloc(..)`, `format_in!(&*scratch, ..)`.
///
/// Each system that takes a `FrameScratch` has its own arena (reserving
/// [`SCRATCH_RESERVE`] bytes of address space, keeping [`SCRATCH_RETAIN`]
/// committed; a [`ScratchSize`] type sets other sizes for a system:
/// `FrameScratch<Planning>`), so systems running in parallel never share
/// one. It
/// registers no world access: it never keeps a system from running in
/// parallel with another. It needs no plugin: the system resets its own
/// arena as its run starts (`TickarenaPlugin` is for frame data, worker
/// arenas and the diagnostics).
///
/// # Example
///
/// ```
/// use bevy_app::{App, Update};
/// use bevy_ecs::prelude::*;
/// use tickarena::format_in;
/// use tickarena_bevy::FrameScratch;
///
/// #[derive(Resource, Default)]
/// struct Used(Vec<usize>);
///
/// fn label(scratch: FrameScratch, mut used: ResMut<Used>) {
///     used.0.push(scratch.used()); // 0: reset before every run
///     let text = format_in!(&*scratch, "run {}", used.0.len());
///     assert!(text.starts_with("run "));
///     let mut ids = Vec::new_in(&scratch); // the parameter is an allocator
///     ids.extend([3, 1, 2]);
///     ids.sort_unstable();
///     assert_eq!(ids, [1, 2, 3]);
/// }
///
/// let mut app = App::new();
/// app.init_resource::<Used>().add_systems(Update, label);
/// app.update();
/// app.update();
/// assert_eq!(app.world().resource::<Used>().0, [0, 0]);
/// ```
///
/// Nothing allocated in it outlives the run:
///
/// ```compile_fail,E0597
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::FrameScratch;
///
/// #[derive(Resource)]
/// struct Kept(Option<&'static u32>);
///
/// fn keep(scratch: FrameScratch, mut kept: ResMut<Kept>) {
///     kept.0 = Some(scratch.alloc(7));
/// }
/// # let mut world = World::new();
/// # world.insert_resource(Kept(None));
/// # world.run_system_cached(keep).unwrap();
/// ```
pub struct FrameScratch<'s, S: ScratchSize = DefaultScratch> {
    /// By `&mut` (the system's own, lent for the run): what lets
    /// [`scoped`](Self::scoped) rewind it.
    arena: &'s mut FrameArena,
    /// Where the run's peak goes when the run ends (the diagnostics).
    figure: &'s ScratchFigure,
    size: PhantomData<S>,
}

impl<S: ScratchSize> Drop for FrameScratch<'_, S> {
    /// The run is over: its peak is this frame's figure for the system.
    fn drop(&mut self) {
        self.figure.record(self.arena.peak());
    }
}

impl<S: ScratchSize> Deref for FrameScratch<'_, S> {
    type Target = FrameArena;

    fn deref(&self) -> &FrameArena {
        self.arena
    }
}

impl<S: ScratchSize> FrameScratch<'_, S> {
    /// Runs `f` on this system's scratch and gives back what `f` allocated
    /// when it returns: [`FrameArena::scoped`] on the system's own arena (a
    /// checkpoint of its top), for a system that runs many temporary
    /// computations in one run (a path search per unit). Needs the
    /// parameter by `mut`, which proves nothing allocated in the scratch
    /// before is still borrowed.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::{App, Update};
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::FrameScratch;
    ///
    /// #[derive(Resource, Default)]
    /// struct Found(Vec<u32>);
    ///
    /// fn search(mut scratch: FrameScratch, mut found: ResMut<Found>) {
    ///     for unit in 0..100u32 {
    ///         let best = scratch.scoped(|temp| {
    ///             let mut open = Vec::with_capacity_in(256, temp); // this search's
    ///             open.extend((0..256).map(|k| (k * 7 + unit) % 256));
    ///             open.iter().copied().max().unwrap()
    ///         });
    ///         found.0.push(best);
    ///     }
    ///     assert_eq!(scratch.used(), 0); // every search's memory went back
    /// }
    ///
    /// let mut app = App::new();
    /// app.init_resource::<Found>().add_systems(Update, search);
    /// app.update();
    /// assert_eq!(app.world().resource::<Found>().0.len(), 100);
    /// ```
    pub fn scoped<R>(&mut self, f: impl for<'t> FnOnce(&'t FrameArena) -> R) -> R {
        self.arena.scoped(f)
    }
}

// SAFETY: every method is the arena's own (`FrameArena: Allocator`); the
// arena is reset only before the system's next run, when this parameter
// and everything allocated through it are gone (they borrow it).
unsafe impl<S: ScratchSize> Allocator for FrameScratch<'_, S> {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        (*self.arena).allocate(layout)
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's guarantees are the arena's.
        unsafe { (*self.arena).deallocate(ptr, layout) }
    }

    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        unsafe { (*self.arena).grow(ptr, old_layout, new_layout) }
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        unsafe { (*self.arena).shrink(ptr, old_layout, new_layout) }
    }
}

// SAFETY: `FrameScratch` touches no world data: it registers no access and
// reads only its own state (the system's arena), which the executor lends
// to one run of the system at a time (`&mut Self::State`).
unsafe impl<S: ScratchSize> SystemParam for FrameScratch<'_, S> {
    /// The arena (`Send`, and `Sync` through `SyncCell`, which hands it
    /// out only by `&mut`) and the system's figure for the diagnostics.
    type State = (SyncCell<FrameArena>, Arc<ScratchFigure>);
    type Item<'w, 's> = FrameScratch<'s, S>;

    fn init_state(world: &mut World) -> Self::State {
        let arena = S::builder().build().unwrap_or_else(|error| {
            panic!(
                "tickarena-bevy: no scratch arena for a system ({}): {error}",
                core::any::type_name::<S>()
            )
        });
        (SyncCell::new(arena), ScratchFigures::register(world))
    }

    fn init_access(
        _state: &Self::State,
        _system_meta: &mut SystemMeta,
        _system_access: &mut SystemAccess,
        _world: &mut World,
    ) {
    }

    #[inline]
    unsafe fn get_param<'w, 's>(
        state: &'s mut Self::State,
        system_meta: &SystemMeta,
        _world: UnsafeWorldCell<'w>,
        _change_tick: Tick,
    ) -> Result<Self::Item<'w, 's>, SystemParamValidationError> {
        let (arena, figure) = state;
        let arena = arena.get();
        if figure.first_run() {
            name_after(arena, figure, system_meta.name());
        }
        // The last run's `FrameScratch` (and everything allocated through
        // it) is gone: this `&mut` proves it.
        arena.reset();
        Ok(FrameScratch {
            arena,
            figure,
            size: PhantomData,
        })
    }
}

// SAFETY: it reads no world data at all.
unsafe impl<S: ScratchSize> ReadOnlySystemParam for FrameScratch<'_, S> {}

/// At a system's first run: its diagnostic is named after it, and so is its
/// arena if it has no name or the default one (a budget's breach or a refused
/// allocation then names the system). The name is made once per system
/// and kept for the program (an arena's name is `&'static str`). Without
/// Bevy's `debug` feature systems have no names: both keep theirs.
#[cold]
fn name_after(arena: &mut FrameArena, figure: &ScratchFigure, system: &str) {
    if system.starts_with('<') {
        figure.name(None);
        return;
    }
    figure.name(Some(system));
    if arena.name().is_none_or(|name| name == DEFAULT_NAME) {
        let name = format!("FrameScratch of {system} (sizes and budget: a ScratchSize)");
        arena.set_name(Box::leak(name.into_boxed_str()));
    }
}
