//! The order check: a writer and another user of one kind of frame data
//! with no order between them, or a user of frame data or worker-arena
//! data in `Last` with no order to the frame's end ([`FrameEnd`]), is a
//! panic that names the schedule, the pair, and the ordering to add.
//!
//! Bevy lists a schedule's unordered pairs that conflict once it is built
//! (`conflicting_systems`); the frame's end conflicts with everything
//! (it is exclusive), so a pair with it shows as a conflict on the whole
//! world. Every schedule is checked once: all those the app has, built
//! for the check, before the first frame (`PreStartup`), then, at each
//! frame's end, any schedule built since (one added later, or run by the
//! game itself). Nothing of it runs per system or per frame beyond a look
//! at the list of schedules.

use core::any::TypeId;

use bevy_ecs::component::ComponentId;
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::{Schedule, ScheduleLabel, Schedules, SystemKey};
use bevy_ecs::system::{IntoSystem, System};
use bevy_ecs::world::World;

/// What the check looks for: each kind of data the frame's end drops or
/// resets, by the type of its resource, and its name for messages.
#[derive(Default)]
pub(crate) struct OrderCheck {
    /// `(resource type, name, is frame data)`; worker arenas are not.
    users: Vec<(TypeId, &'static str, bool)>,
    /// Schedules checked so far.
    checked: Vec<Interned<dyn ScheduleLabel>>,
    /// The type of the frame's end system.
    end: Option<TypeId>,
}

impl OrderCheck {
    pub(crate) fn set_end<M>(&mut self, end: impl IntoSystem<(), (), M>) {
        self.end = Some(end.system_type_id());
    }

    /// Watches the users of resource `R`, named `name`.
    pub(crate) fn watch<R: 'static>(&mut self, name: &'static str, frame_data: bool) {
        if !self.users.iter().any(|(id, ..)| *id == TypeId::of::<R>()) {
            self.users.push((TypeId::of::<R>(), name, frame_data));
        }
    }

    /// Builds every schedule of `world` that is not built yet, then checks
    /// them all.
    pub(crate) fn build_and_check_all(&mut self, world: &mut World) {
        let labels: Vec<_> = world
            .get_resource::<Schedules>()
            .map(|schedules| {
                schedules
                    .iter()
                    .map(|(_, schedule)| schedule.label())
                    .collect()
            })
            .unwrap_or_default();
        for label in labels {
            // Each schedule out of `Schedules` while it is built, as when it
            // runs (building reads `Schedules`). One that fails to build
            // fails the same way when it first runs, with Bevy's message.
            let _ = world.try_schedule_scope(label, |world, schedule| {
                let _ = schedule.initialize(world);
            });
        }
        self.check_new(world);
    }

    /// Checks each built schedule of `world` not checked before.
    pub(crate) fn check_new(&mut self, world: &World) {
        let Some(schedules) = world.get_resource::<Schedules>() else {
            return;
        };
        for (_, schedule) in schedules.iter() {
            let label = schedule.label();
            if schedule.systems().is_err() || self.checked.contains(&label) {
                continue;
            }
            self.checked.push(label);
            if let Some(message) = self.unordered(world, label, schedule) {
                panic!("{message}");
            }
        }
    }

    /// The message for the first unordered pair in `schedule`, if any.
    fn unordered(
        &self,
        world: &World,
        label: Interned<dyn ScheduleLabel>,
        schedule: &Schedule,
    ) -> Option<std::string::String> {
        let ids: Vec<(ComponentId, &str, bool)> = self
            .users
            .iter()
            .filter_map(|&(type_id, name, data)| {
                Some((world.components().get_id(type_id)?, name, data))
            })
            .collect();
        let systems: Vec<_> = schedule.systems_with_access().ok()?.collect();
        let system = |key: SystemKey| systems.iter().find(|(k, _)| *k == key).map(|(_, s)| *s);
        let name = |key: SystemKey| {
            let name = system(key)?.name().to_string();
            known_name(&name).is_some().then_some(name)
        };
        let uses = |key: SystemKey| {
            let access = system(key)?.access().to_filtered_access_set();
            let access = access.combined_access();
            ids.iter()
                .find(|(id, ..)| access.has_read(*id) || access.has_write(*id))
                .map(|&(_, kind, data)| (kind, data))
        };
        for (a, b, conflicts) in schedule.graph().conflicting_systems().iter() {
            if let Some(&(_, kind, _)) = ids.iter().find(|(id, ..)| conflicts.contains(id)) {
                let pair = match (name(*a), name(*b)) {
                    (Some(a), Some(b)) => format!("`{a}` and `{b}`"),
                    _ => format!(
                        "a system with FrameWriter<{kind}> and another with FrameWriter or \
                         FrameReader<{kind}> (bevy_ecs's `debug` feature names them)"
                    ),
                };
                return Some(format!(
                    "tickarena-bevy: in schedule {label:?}, {pair} use frame data {kind} and \
                     are not ordered: a reader may run before the writer. Order each reader \
                     after the writer: `reader.after(writer)`, or both in one `.chain()` with \
                     the writer first"
                ));
            }
            if !conflicts.is_empty() || self.end.is_none() {
                continue;
            }
            let is_end = |key: SystemKey| system(key).map(|s| s.system_type()) == self.end;
            let other = match (is_end(*a), is_end(*b)) {
                (true, false) => *b,
                (false, true) => *a,
                _ => continue,
            };
            if let Some((kind, data)) = uses(other) {
                let what = if data {
                    "frame data"
                } else {
                    "the worker arenas'"
                };
                let who = name(other).map_or_else(
                    || format!("a system that reads {what} {kind}"),
                    |name| format!("`{name}` reads {what} {kind}, and"),
                );
                return Some(format!(
                    "tickarena-bevy: in schedule {label:?}, {who} has no order to the frame's \
                     end (FrameEnd), which drops that data: it may run after it and find \
                     nothing. Order it before the end: `.add_systems(Last, reader.before(FrameEnd))`"
                ));
            }
        }
        None
    }
}

/// A system's name, if Bevy knows it: without bevy_ecs's `debug` feature
/// (games ship without it) every system is named by a placeholder.
pub(crate) fn known_name(name: &str) -> Option<&str> {
    (!name.is_empty() && !name.starts_with('<')).then_some(name)
}
