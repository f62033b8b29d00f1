//! [`FrameScratch`]: a system's own frame arena, reset before each run.

use core::alloc::{AllocError, Allocator, Layout};
use core::ops::Deref;
use core::ptr::NonNull;

use bevy_ecs::change_detection::Tick;
use bevy_ecs::system::{
    ReadOnlySystemParam, SystemAccess, SystemMeta, SystemParam, SystemParamValidationError,
};
use bevy_ecs::world::World;
use bevy_ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy_platform::cell::SyncCell;
use tickarena::FrameArena;

/// Address space reserved for each system's scratch arena (costs nothing
/// until used, but tools that watch a process's virtual size, and
/// `ulimit -v`, count it): 64 MiB per system.
pub const SCRATCH_RESERVE: usize = 64 << 20;

/// Committed bytes each system's scratch arena keeps between runs; a
/// burst's pages above this go back to the OS at the next run.
pub const SCRATCH_RETAIN: usize = 1 << 20;

/// This system's own [`FrameArena`], reset before each run of the system:
/// per-run scratch (vectors, maps, sorted lists, text) at a pointer bump
/// each, with nothing kept from one run to the next. It is an allocator
/// itself (`Vec::new_in(&scratch)`) and dereferences to the arena:
/// `scratch.alloc(..)`, `format_in!(&*scratch, ..)`.
///
/// Each system that takes a `FrameScratch` has its own arena (reserving
/// [`SCRATCH_RESERVE`] bytes of address space, keeping [`SCRATCH_RETAIN`]
/// committed), so systems running in parallel never share one. It
/// registers no world access: it never keeps a system from running in
/// parallel with another.
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
pub struct FrameScratch<'s> {
    arena: &'s FrameArena,
}

impl Deref for FrameScratch<'_> {
    type Target = FrameArena;

    fn deref(&self) -> &FrameArena {
        self.arena
    }
}

// SAFETY: every method is the arena's own (`FrameArena: Allocator`); the
// arena is reset only before the system's next run, when this parameter
// and everything allocated through it are gone (they borrow it).
unsafe impl Allocator for FrameScratch<'_> {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        self.arena.allocate(layout)
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's guarantees are the arena's.
        unsafe { self.arena.deallocate(ptr, layout) }
    }

    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        unsafe { self.arena.grow(ptr, old_layout, new_layout) }
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        unsafe { self.arena.shrink(ptr, old_layout, new_layout) }
    }
}

// SAFETY: `FrameScratch` touches no world data: it registers no access and
// reads only its own state (the system's arena), which the executor lends
// to one run of the system at a time (`&mut Self::State`).
unsafe impl SystemParam for FrameScratch<'_> {
    /// The arena: `Send`, and `Sync` through `SyncCell`, which hands it out
    /// only by `&mut`.
    type State = SyncCell<FrameArena>;
    type Item<'w, 's> = FrameScratch<'s>;

    fn init_state(_world: &mut World) -> Self::State {
        let arena = FrameArena::builder()
            .reserve(SCRATCH_RESERVE)
            .retain(SCRATCH_RETAIN)
            .build()
            .unwrap_or_else(|error| {
                panic!("tickarena-bevy: no scratch arena for a system: {error}")
            });
        SyncCell::new(arena)
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
        _system_meta: &SystemMeta,
        _world: UnsafeWorldCell<'w>,
        _change_tick: Tick,
    ) -> Result<Self::Item<'w, 's>, SystemParamValidationError> {
        let arena = state.get();
        // The last run's `FrameScratch` (and everything allocated through
        // it) is gone: this `&mut` proves it.
        arena.reset();
        Ok(FrameScratch { arena })
    }
}

// SAFETY: it reads no world data at all.
unsafe impl ReadOnlySystemParam for FrameScratch<'_> {}
