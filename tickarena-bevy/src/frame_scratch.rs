//! [`FrameScratch`]: a system's own frame arena, reset before each run.

use core::ops::Deref;

use bevy_ecs::change_detection::Tick;
use bevy_ecs::system::{
    ReadOnlySystemParam, SystemAccess, SystemMeta, SystemParam, SystemParamValidationError,
};
use bevy_ecs::world::World;
use bevy_ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy_platform::cell::SyncCell;
use tickarena::FrameArena;

/// Address space reserved for each system's scratch arena (costs nothing
/// until used).
pub const SCRATCH_RESERVE: usize = 1 << 30;

/// Committed bytes each system's scratch arena keeps between runs; a
/// burst's pages above this go back to the OS at the next run.
pub const SCRATCH_RETAIN: usize = 1 << 20;

/// This system's own [`FrameArena`], reset before each run of the system:
/// per-run scratch (vectors, maps, sorted lists, text) at a pointer bump
/// each, with nothing kept from one run to the next. Dereferences to the
/// arena: `Vec::new_in(&*scratch)`, `scratch.alloc(..)`,
/// `format_in!(&*scratch, ..)`.
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
