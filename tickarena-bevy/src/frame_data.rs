//! Per-frame data between systems: one system builds it in a frame arena
//! ([`FrameWriter::publish`]), later systems of the same frame read it
//! ([`FrameReader::read`]), and it all goes at the frame's end (in `Last`),
//! the arena kept for the next frame.
//!
//! The data is a [`Sealed`] frame: an arena and what was built in it, as
//! one value that is `'static`, `Send` and `Sync` (when the data is), which
//! is what a Bevy resource must be. So the data is frozen: slices and
//! `str`s in the arena (`Vec::leak`, `String::leak`), not arena `Vec`s,
//! which hold the arena (the compiler says so, naming `FrameArena`). Readers only borrow it, so any number
//! of them run in parallel; the writer takes the resource mutably, so the
//! executor never runs it beside a reader. Order comes from the schedule
//! (`.after(writer)`, or a chain); a reader that runs before the writer
//! (or in a frame it has not run in yet) panics with a message that names
//! the data's type, the frame and the order to add, and both systems when
//! bevy_ecs's `debug` feature keeps their names. Unordered pairs are
//! reported before the first frame (see the crate's `order_check`).

use core::fmt::Write;

use crate::order_check::known_name;
use bevy_app::App;
use bevy_diagnostic::{DiagnosticPath, DiagnosticsStore};
use bevy_ecs::change_detection::Tick;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{
    ReadOnlySystemParam, Res, ResMut, SystemAccess, SystemMeta, SystemParam,
    SystemParamValidationError,
};
use bevy_ecs::world::World;
use bevy_ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy_platform::cell::SyncCell;
use tickarena::{CovariantFrameData, FrameArena, FrameArenaBuilder, FrameData, Sealed};

/// Address space reserved for each kind of per-frame data's arena; the
/// arena keeps [`FRAME_DATA_RETAIN`] committed between frames.
pub const FRAME_DATA_RESERVE: usize = 64 << 20;
/// Committed bytes a per-frame data arena keeps between frames; a burst's
/// pages above this go back to the OS once frames stop needing them.
pub const FRAME_DATA_RETAIN: usize = 1 << 20;

/// The per-frame data of kind `D` (a [`FrameData`]), as a resource: this
/// frame's, if a system published it, and the arena to build the next one
/// in. Added by [`FrameDataApp::init_frame_data`]; systems use it through
/// [`FrameWriter`] and [`FrameReader`].
#[derive(Resource)]
pub struct PerFrame<D: FrameData + Send + Sync + 'static>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    sealed: Option<Sealed<D>>,
    /// The arena for the next `publish` (`None` while one is sealed).
    spare: Option<SyncCell<FrameArena>>,
    /// How this kind's arena is made (again, if a `build` panicked).
    builder: FrameArenaBuilder,
    /// The system that published last, and in which frame.
    publisher: std::string::String,
    published_in: Option<u64>,
    /// Frames ended so far.
    frame: u64,
    /// This kind's diagnostic.
    diagnostic: DiagnosticPath,
}

impl<D: FrameData + Send + Sync + 'static> PerFrame<D>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    fn new(builder: FrameArenaBuilder) -> Self {
        PerFrame {
            sealed: None,
            spare: Some(SyncCell::new(new_arena::<D>(&builder))),
            builder,
            publisher: std::string::String::new(),
            published_in: None,
            frame: 0,
            diagnostic: crate::frame_data_diagnostic::<D>(),
        }
    }

    /// Ends the frame: the data is dropped, its arena reclaimed for the
    /// next frame.
    fn end_frame(&mut self) {
        if let Some(sealed) = self.sealed.take() {
            self.spare = Some(SyncCell::new(sealed.reclaim()));
        }
        self.frame += 1;
    }

    /// Bytes of this frame's data, 0 if none was published.
    pub fn used(&self) -> usize {
        self.sealed.as_ref().map_or(0, Sealed::used)
    }

    /// Whether a system published this frame's data.
    pub fn is_published(&self) -> bool {
        self.sealed.is_some()
    }
}

/// Adds per-frame data to an [`App`].
pub trait FrameDataApp {
    /// Makes `D` per-frame data: inserts its [`PerFrame<D>`] resource and
    /// ends its frame in `Last` (the data dropped, the arena kept). Then
    /// one system publishes it with a [`FrameWriter<D>`] and later systems
    /// read it with a [`FrameReader<D>`].
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::App;
    /// use tickarena::FrameData;
    /// use tickarena_bevy::{FrameDataApp, PerFrame};
    ///
    /// struct Visible;
    /// impl FrameData for Visible {
    ///     type Of<'f> = &'f [u32]; // frozen: a slice, not an arena `Vec`
    /// }
    /// let mut app = App::new();
    /// app.init_frame_data::<Visible>();
    /// assert!(!app.world().resource::<PerFrame<Visible>>().is_published());
    /// ```
    fn init_frame_data<D: FrameData + Send + Sync + 'static>(&mut self) -> &mut Self
    where
        for<'f> D::Of<'f>: Send + Sync,
    {
        self.init_frame_data_with::<D>(default_builder())
    }

    /// [`init_frame_data`](Self::init_frame_data), with this kind's arena
    /// made by `builder` (its reservation, the most one frame's data may
    /// use; its retention; its name, shown in its messages).
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::App;
    /// use tickarena::{FrameArena, FrameData};
    /// use tickarena_bevy::{FrameDataApp, PerFrame};
    ///
    /// struct Requests;
    /// impl FrameData for Requests {
    ///     type Of<'f> = &'f [u32];
    /// }
    /// let mut app = App::new();
    /// let arena = FrameArena::builder().reserve(4 << 20).retain(256 << 10).name("requests");
    /// app.init_frame_data_with::<Requests>(arena);
    /// assert!(!app.world().resource::<PerFrame<Requests>>().is_published());
    /// ```
    fn init_frame_data_with<D: FrameData + Send + Sync + 'static>(
        &mut self,
        builder: FrameArenaBuilder,
    ) -> &mut Self
    where
        for<'f> D::Of<'f>: Send + Sync;
}

impl FrameDataApp for App {
    fn init_frame_data_with<D: FrameData + Send + Sync + 'static>(
        &mut self,
        builder: FrameArenaBuilder,
    ) -> &mut Self
    where
        for<'f> D::Of<'f>: Send + Sync,
    {
        if !self.world().contains_resource::<PerFrame<D>>() {
            let kind = core::any::type_name::<D>();
            // Messages (a refused allocation, a budget's breach) name the
            // kind: a name made once per kind, kept for the program.
            let builder = if builder.arena_name().is_none_or(|name| name == DEFAULT_NAME) {
                let name = format!("frame data {kind} (sizes and budget: init_frame_data_with)");
                builder.name(Box::leak(name.into_boxed_str()))
            } else {
                builder
            };
            self.insert_resource(PerFrame::<D>::new(builder));
            crate::frame_end::add_kind::<PerFrame<D>>(self, kind, end_frame::<D>);
        }
        self
    }
}

/// The arena per-frame data is built in, by default.
fn default_builder() -> FrameArenaBuilder {
    FrameArena::builder()
        .reserve(FRAME_DATA_RESERVE)
        .retain(FRAME_DATA_RETAIN)
        .name(DEFAULT_NAME)
}

/// The default name of a kind's arena, replaced by one naming the kind.
const DEFAULT_NAME: &str = "tickarena-bevy frame data (raise init_frame_data_with's reserve)";

/// A per-frame data arena of kind `D`.
fn new_arena<D>(builder: &FrameArenaBuilder) -> FrameArena {
    builder.clone().build().unwrap_or_else(|error| {
        panic!(
            "tickarena-bevy: no arena for per-frame data {}: {error}",
            core::any::type_name::<D>()
        )
    })
}

/// Ends the frame of this kind of frame data.
fn end_frame<D: FrameData + Send + Sync + 'static>(world: &mut World)
where
    for<'f> D::Of<'f>: Send + Sync,
{
    let Some(mut per_frame) = world.get_resource_mut::<PerFrame<D>>() else {
        return;
    };
    let used = per_frame.used();
    per_frame.end_frame();
    if world.contains_resource::<DiagnosticsStore>() {
        // Moved out and back: the path and the store are both the world's.
        let path = core::mem::replace(
            &mut world.resource_mut::<PerFrame<D>>().diagnostic,
            DiagnosticPath::const_new(""),
        );
        crate::diagnostics::measure(&mut world.resource_mut::<DiagnosticsStore>(), &path, used);
        world.resource_mut::<PerFrame<D>>().diagnostic = path;
    }
}

/// Publishes this frame's data of kind `D`, for the [`FrameReader`]s that
/// run after this system in the same frame.
///
/// # Example
///
/// ```
/// use bevy_app::{App, Update};
/// use bevy_ecs::prelude::*;
/// use tickarena::{FrameData, format_in};
/// use tickarena_bevy::{FrameDataApp, FrameReader, FrameWriter};
///
/// /// Requests of this frame: a label and a path each, frozen (slices and
/// /// `str`s in the arena: arena `Vec`s would hold the arena itself).
/// struct Requests;
/// impl FrameData for Requests {
///     type Of<'f> = &'f [(&'f str, &'f [(i32, i32)])];
/// }
///
/// fn plan(mut requests: FrameWriter<Requests>) {
///     requests.publish(|arena| {
///         let mut all = Vec::new_in(arena);
///         for unit in 0..3 {
///             let mut path = Vec::new_in(arena);
///             path.extend((0..unit + 1).map(|step| (step, unit)));
///             all.push((&*format_in!(arena, "unit {unit}").leak(), &*path.leak()));
///         }
///         &*all.leak()
///     });
/// }
///
/// #[derive(Resource, Default)]
/// struct Steps(usize);
///
/// fn walk(requests: FrameReader<Requests>, mut steps: ResMut<Steps>) {
///     steps.0 += requests.read(|all| all.iter().map(|(_, path)| path.len()).sum::<usize>());
/// }
///
/// let mut app = App::new();
/// app.init_frame_data::<Requests>()
///     .init_resource::<Steps>()
///     .add_systems(Update, (plan, walk).chain());
/// app.update();
/// app.update();
/// assert_eq!(app.world().resource::<Steps>().0, 2 * (1 + 2 + 3));
/// ```
#[derive(SystemParam)]
pub struct FrameWriter<'w, 's, D: FrameData + Send + Sync + 'static>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    per_frame: ResMut<'w, PerFrame<D>>,
    system: SystemLabel<'s>,
}

impl<D: FrameData + Send + Sync + 'static> FrameWriter<'_, '_, D>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    /// Builds this frame's data in its arena and publishes it, replacing
    /// (and dropping) any published earlier this frame.
    ///
    /// # Panics
    ///
    /// If `build` panics (the data's arena is then made anew), or the data
    /// arena's reservation ([`FRAME_DATA_RESERVE`]) runs out.
    // Inlined (as `FrameArena::seal` is): the call of `build` is in the
    // system's function, where LLVM can inline its body among the
    // system's locals.
    #[inline(always)]
    pub fn publish(&mut self, build: impl for<'f> FnOnce(&'f FrameArena) -> D::Of<'f>) {
        let per_frame = &mut *self.per_frame;
        let arena = match (per_frame.sealed.take(), per_frame.spare.take()) {
            // Published twice this frame: the first data goes.
            (Some(sealed), _) => sealed.reclaim(),
            (None, Some(spare)) => SyncCell::to_inner(spare),
            // A `build` that panicked took the arena with it.
            (None, None) => new_arena::<D>(&per_frame.builder),
        };
        per_frame.sealed = Some(arena.seal(build));
        if per_frame.publisher != self.system.0 {
            per_frame.publisher.clear();
            per_frame.publisher.push_str(self.system.0);
        }
        per_frame.published_in = Some(per_frame.frame);
    }
}

/// Reads this frame's data of kind `D`, published by a [`FrameWriter`]
/// that runs earlier in the frame. Readers run in parallel with one
/// another. See [`FrameWriter`] for an example.
#[derive(SystemParam)]
pub struct FrameReader<'w, 's, D: FrameData + Send + Sync + 'static>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    per_frame: Res<'w, PerFrame<D>>,
    system: SystemLabel<'s>,
}

impl<D: FrameData + Send + Sync + 'static> FrameReader<'_, '_, D>
where
    for<'f> D::Of<'f>: Send + Sync,
{
    /// Lends this frame's data to `read`.
    ///
    /// # Panics
    ///
    /// If no system published it this frame: this system runs before the
    /// writer (the message names the data's type and the ordering to add,
    /// and both systems with bevy_ecs's `debug` feature), or the writer did
    /// not run this frame.
    #[track_caller]
    pub fn read<R>(&self, read: impl for<'f> FnOnce(&D::Of<'f>) -> R) -> R {
        match self.try_read(read) {
            Some(result) => result,
            None => panic!("{}", self.not_published()),
        }
    }

    /// Lends this frame's data to `read`, or returns `None` if no system
    /// published it this frame.
    pub fn try_read<R>(&self, read: impl for<'f> FnOnce(&D::Of<'f>) -> R) -> Option<R> {
        self.per_frame
            .sealed
            .as_ref()
            .map(|sealed| sealed.with(read))
    }

    /// This frame's data, for the rest of the system's run: no closure (so
    /// a system that reads one kind of frame data and publishes another
    /// writes one closure, not two). For data whose type is covariant in
    /// its lifetime, which frozen data (slices, `str`s, structs of those)
    /// is: see [`CovariantFrameData`].
    ///
    /// # Panics
    ///
    /// As [`read`](Self::read), if no system published it this frame.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::{App, Update};
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::{CovariantFrameData, FrameData, FrameDataApp, FrameReader, FrameWriter};
    ///
    /// struct Targets;
    /// impl FrameData for Targets {
    ///     type Of<'f> = &'f [u32];
    /// }
    /// impl CovariantFrameData for Targets {
    ///     fn shorten<'s, 'l: 's>(data: &'s &'l [u32]) -> &'s &'s [u32] {
    ///         data
    ///     }
    /// }
    /// struct Doubled;
    /// impl FrameData for Doubled {
    ///     type Of<'f> = &'f [u32];
    /// }
    ///
    /// fn pick(mut targets: FrameWriter<Targets>) {
    ///     targets.publish(|arena| &*arena.alloc_slice_copy(&[1, 2, 3]));
    /// }
    /// // Reads one kind and publishes another: one closure.
    /// fn double(targets: FrameReader<Targets>, mut doubled: FrameWriter<Doubled>) {
    ///     let targets = targets.get();
    ///     doubled.publish(|arena| &*arena.alloc_slice_fill_with(targets.len(), |i| 2 * targets[i]));
    /// }
    /// #[derive(Resource, Default)]
    /// struct Sum(u32);
    /// fn sum(doubled: FrameReader<Doubled>, mut total: ResMut<Sum>) {
    ///     total.0 = doubled.read(|d| d.iter().sum());
    /// }
    ///
    /// let mut app = App::new();
    /// app.init_frame_data::<Targets>()
    ///     .init_frame_data::<Doubled>()
    ///     .init_resource::<Sum>()
    ///     .add_systems(Update, (pick, double, sum).chain());
    /// app.update();
    /// assert_eq!(app.world().resource::<Sum>().0, 12);
    /// ```
    #[track_caller]
    pub fn get(&self) -> &D::Of<'_>
    where
        D: CovariantFrameData,
    {
        match self.try_get() {
            Some(data) => data,
            None => panic!("{}", self.not_published()),
        }
    }

    /// This frame's data, or `None` if no system published it this frame
    /// (a system that may run in a frame without a publisher).
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_app::{App, Update};
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::{CovariantFrameData, FrameData, FrameDataApp, FrameReader};
    ///
    /// struct Alerts;
    /// impl FrameData for Alerts {
    ///     type Of<'f> = &'f [u32];
    /// }
    /// impl CovariantFrameData for Alerts {
    ///     fn shorten<'s, 'l: 's>(data: &'s &'l [u32]) -> &'s &'s [u32] {
    ///         data
    ///     }
    /// }
    /// #[derive(Resource, Default)]
    /// struct Quiet(u32);
    /// // Nothing publishes alerts in a quiet frame.
    /// fn count_quiet(alerts: FrameReader<Alerts>, mut quiet: ResMut<Quiet>) {
    ///     if alerts.try_get().is_none() {
    ///         quiet.0 += 1;
    ///     }
    /// }
    /// let mut app = App::new();
    /// app.init_frame_data::<Alerts>()
    ///     .init_resource::<Quiet>()
    ///     .add_systems(Update, count_quiet);
    /// app.update();
    /// assert_eq!(app.world().resource::<Quiet>().0, 1);
    /// ```
    pub fn try_get(&self) -> Option<&D::Of<'_>>
    where
        D: CovariantFrameData,
    {
        self.per_frame.sealed.as_ref().map(Sealed::get)
    }

    /// What went wrong when there is nothing to read.
    #[cold]
    fn not_published(&self) -> std::string::String {
        let per_frame = &*self.per_frame;
        not_published_message(
            self.system.0,
            core::any::type_name::<D>(),
            per_frame.frame,
            per_frame
                .published_in
                .map(|frame| (per_frame.publisher.as_str(), frame)),
        )
    }
}

/// The message of a reader of frame data of type `kind` that found none
/// in `frame`; `published` is the last publisher and its frame, if any.
/// Names both systems where Bevy gives names; otherwise the frame data's
/// type and the ordering to add.
fn not_published_message(
    reader: &str,
    kind: &str,
    frame: u64,
    published: Option<(&str, u64)>,
) -> std::string::String {
    let reader = known_name(reader);
    let mut message = match reader {
        Some(reader) => format!(
            "tickarena-bevy: `{reader}` reads FrameReader<{kind}> in frame {frame}, before any \
             system published it this frame"
        ),
        None => format!(
            "tickarena-bevy: a system reads FrameReader<{kind}> in frame {frame}, before any \
             system published it this frame"
        ),
    };
    match published.map(|(writer, frame)| (known_name(writer), frame)) {
        Some((Some(writer), published)) => {
            let reader = reader.unwrap_or("the reader");
            let _ = write!(
                message,
                " (`{writer}` published it last, in frame {published}; its data ended with \
                 that frame). Run the reader after the writer: \
                 `.add_systems(Update, ({writer}, {reader}).chain())` or `{reader}.after({writer})`"
            );
        }
        Some((None, published)) => {
            let _ = write!(
                message,
                " (it was published last in frame {published}; its data ended with that \
                 frame). Run the system that takes FrameReader<{kind}> after the one that takes \
                 FrameWriter<{kind}>: `reader.after(writer)`, or both in one `.chain()` with \
                 the writer first (bevy_ecs's `debug` feature names the systems here)"
            );
        }
        None => {
            let _ = write!(
                message,
                " (no system has published it yet). Publish it with \
                 FrameWriter<{kind}>::publish in a system that runs before the reader in every \
                 frame, and order the reader after it"
            );
        }
    }
    message
}

/// The running system's name, for messages: kept in the parameter's state
/// from its first run on (Bevy's `SystemName` clones it on every run).
#[doc(hidden)]
pub struct SystemLabel<'s>(&'s str);

// SAFETY: it touches no world data: no access registered, nothing read but
// its own state and the system's metadata.
unsafe impl SystemParam for SystemLabel<'_> {
    type State = std::string::String;
    type Item<'w, 's> = SystemLabel<'s>;

    fn init_state(_world: &mut World) -> Self::State {
        std::string::String::new()
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
        if state.is_empty() {
            state.push_str(system_meta.name());
        }
        Ok(SystemLabel(state))
    }
}

// SAFETY: it reads no world data at all.
unsafe impl ReadOnlySystemParam for SystemLabel<'_> {}

#[cfg(test)]
mod tests {
    use super::not_published_message;

    const NO_DEBUG: &str = "<Enable the debug feature to see the name>";

    #[test]
    fn with_names_both_systems_and_the_order_are_named() {
        let message =
            not_published_message("game::walk", "game::Requests", 5, Some(("game::plan", 4)));
        assert!(message.contains("`game::walk` reads FrameReader<game::Requests> in frame 5"));
        assert!(message.contains("`game::plan` published it last, in frame 4"));
        assert!(
            message.contains("`game::walk.after(game::plan)`"),
            "{message}"
        );
    }

    #[test]
    fn without_bevys_debug_feature_the_type_and_the_ordering_are_named() {
        let message = not_published_message(NO_DEBUG, "game::Requests", 5, Some((NO_DEBUG, 4)));
        assert!(!message.contains("Enable the debug"), "{message}");
        assert!(message.contains("a system reads FrameReader<game::Requests> in frame 5"));
        assert!(message.contains("published last in frame 4"), "{message}");
        assert!(message.contains("after the one that takes FrameWriter<game::Requests>"));
        let never = not_published_message(NO_DEBUG, "game::Requests", 0, None);
        assert!(
            never.contains("FrameWriter<game::Requests>::publish"),
            "{never}"
        );
    }
}
