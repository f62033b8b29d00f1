//! [`WorkerArenas`]: one frame arena per thread, for `par_iter` jobs and
//! every system, as a resource.

use core::ops::{Deref, DerefMut};

use bevy_ecs::change_detection::Tick;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{
    ReadOnlySystemParam, Res, SystemAccess, SystemMeta, SystemParam, SystemParamValidationError,
};
use bevy_ecs::world::World;
use bevy_ecs::world::unsafe_world_cell::UnsafeWorldCell;
use tickarena::{FrameArena, ThreadArenas};

/// A [`ThreadArenas`] as a resource: `arenas.local()` is the calling
/// thread's arena, in any system and inside `par_iter` jobs (no lock, no
/// atomic read-modify-write). [`TickarenaPlugin`](crate::TickarenaPlugin)
/// inserts it and resets it in `Last`, every frame; what a job allocates
/// borrows the `Res<WorkerArenas>` of its system, so it cannot outlive the
/// system's run, let alone the frame.
///
/// # Example
///
/// ```
/// use bevy_app::{App, Update};
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::{TickarenaPlugin, WorkerArenas};
///
/// #[derive(Component)]
/// struct Samples([u32; 8]);
/// #[derive(Component, Default)]
/// struct Median(u32);
///
/// fn medians(workers: Res<WorkerArenas>, mut query: Query<(&Samples, &mut Median)>) {
///     query.par_iter_mut().for_each(|(samples, mut median)| {
///         // Scratch on this worker thread, in its arena.
///         let sorted = workers.local().alloc_slice_copy(&samples.0);
///         sorted.sort_unstable();
///         median.0 = sorted[4];
///     });
/// }
///
/// let mut app = App::new();
/// app.add_plugins(TickarenaPlugin).add_systems(Update, medians);
/// app.world_mut().spawn_batch((0..1000).map(|i| (Samples([i, 1, 2, 3, 9, 8, 7, 6]), Median::default())));
/// app.update();
/// let workers = app.world().resource::<WorkerArenas>();
/// assert_eq!(workers.used(), 0, "reset in Last");
/// assert!(workers.stats().high_water >= 1000 * 32);
/// ```
///
/// What a job allocates cannot be kept past the system's run:
///
/// ```compile_fail,E0597
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::WorkerArenas;
///
/// #[derive(Resource)]
/// struct Kept(Option<&'static [u32]>);
///
/// fn keep(workers: Res<WorkerArenas>, mut kept: ResMut<Kept>) {
///     kept.0 = Some(workers.local().alloc_slice_copy(&[1, 2, 3]));
/// }
/// # let mut world = World::new();
/// # world.insert_resource(Kept(None));
/// # world.insert_resource(WorkerArenas::default());
/// # world.run_system_cached(keep).unwrap();
/// ```
#[derive(Resource, Debug)]
pub struct WorkerArenas(pub ThreadArenas);

/// Address space reserved for each worker thread's arena (free until used;
/// `ulimit -v` and virtual-size monitors count it): 64 MiB per thread
/// (set other sizes with [`WorkerArenas::with_builder`]).
pub const WORKER_RESERVE: usize = 64 << 20;
/// Committed bytes each worker arena keeps between frames.
pub const WORKER_RETAIN: usize = 4 << 20;

impl Default for WorkerArenas {
    /// Arenas of [`WORKER_RESERVE`] bytes, keeping [`WORKER_RETAIN`]
    /// committed (a plain `ThreadArenas::new()` reserves 16 GiB per thread).
    fn default() -> Self {
        WorkerArenas::with_builder(
            FrameArena::builder()
                .reserve(WORKER_RESERVE)
                .retain(WORKER_RETAIN)
                .name("tickarena-bevy workers (raise WorkerArenas::with_builder's reserve)"),
        )
    }
}

impl WorkerArenas {
    /// Worker arenas of the game's sizes, each thread's arena made by
    /// `builder`. Insert it before adding [`TickarenaPlugin`](crate::TickarenaPlugin),
    /// which keeps a `WorkerArenas` already there.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::App;
    /// use tickarena::FrameArena;
    /// use tickarena_bevy::{TickarenaPlugin, WorkerArenas};
    ///
    /// let mut app = App::new();
    /// let workers = FrameArena::builder().reserve(16 << 20).retain(1 << 20).name("workers");
    /// app.insert_resource(WorkerArenas::with_builder(workers))
    ///     .add_plugins(TickarenaPlugin);
    /// let arenas = app.world().resource::<WorkerArenas>();
    /// assert_eq!(arenas.local().stats().reserved, 16 << 20);
    /// ```
    pub fn with_builder(builder: tickarena::FrameArenaBuilder) -> WorkerArenas {
        WorkerArenas(ThreadArenas::with_builder(builder))
    }
}

/// The [`WorkerArenas`] as a system parameter: `Res<WorkerArenas>`, except
/// that an app without [`TickarenaPlugin`](crate::TickarenaPlugin) is told
/// to add it, instead of Bevy's "Resource does not exist".
///
/// # Example
///
/// ```
/// use bevy_app::{App, Update};
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::{TickarenaPlugin, Workers};
///
/// fn count(workers: Workers) {
///     workers.local().alloc(1u8);
/// }
/// let mut app = App::new();
/// app.add_plugins(TickarenaPlugin).add_systems(Update, count);
/// app.update();
/// ```
pub struct Workers<'w>(Res<'w, WorkerArenas>);

impl Deref for Workers<'_> {
    type Target = ThreadArenas;

    fn deref(&self) -> &ThreadArenas {
        &self.0.0
    }
}

// SAFETY: exactly `Res<WorkerArenas>`'s access, state and reads; only the
// error for a missing resource differs.
unsafe impl SystemParam for Workers<'_> {
    type State = <Res<'static, WorkerArenas> as SystemParam>::State;
    type Item<'w, 's> = Workers<'w>;

    fn init_state(world: &mut World) -> Self::State {
        <Res<'static, WorkerArenas> as SystemParam>::init_state(world)
    }

    fn init_access(
        state: &Self::State,
        system_meta: &mut SystemMeta,
        system_access: &mut SystemAccess,
        world: &mut World,
    ) {
        <Res<'static, WorkerArenas> as SystemParam>::init_access(
            state,
            system_meta,
            system_access,
            world,
        );
    }

    #[inline]
    unsafe fn get_param<'w, 's>(
        state: &'s mut Self::State,
        system_meta: &SystemMeta,
        world: UnsafeWorldCell<'w>,
        change_tick: Tick,
    ) -> Result<Self::Item<'w, 's>, SystemParamValidationError> {
        // SAFETY: the caller's guarantees for this parameter are those for
        // `Res<WorkerArenas>`, whose state and access it registered.
        let workers = unsafe {
            <Res<'w, WorkerArenas> as SystemParam>::get_param(
                state,
                system_meta,
                world,
                change_tick,
            )
        };
        workers.map(Workers).map_err(|_| {
            SystemParamValidationError::invalid::<Self>(
                "the WorkerArenas resource is missing: add tickarena_bevy::TickarenaPlugin to \
                 the App (`app.add_plugins(TickarenaPlugin)`), which inserts it and resets it \
                 every frame",
            )
        })
    }
}

// SAFETY: it only reads, as `Res` does.
unsafe impl ReadOnlySystemParam for Workers<'_> {}

impl Deref for WorkerArenas {
    type Target = ThreadArenas;

    fn deref(&self) -> &ThreadArenas {
        &self.0
    }
}

impl DerefMut for WorkerArenas {
    fn deref_mut(&mut self) -> &mut ThreadArenas {
        &mut self.0
    }
}
