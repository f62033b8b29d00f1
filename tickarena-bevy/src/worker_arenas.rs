//! [`WorkerArenas`]: one frame arena per thread, for `par_iter` jobs and
//! every system, as a resource.

use core::ops::{Deref, DerefMut};

use bevy_ecs::resource::Resource;
use tickarena::ThreadArenas;

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
#[derive(Resource, Default, Debug)]
pub struct WorkerArenas(pub ThreadArenas);

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
