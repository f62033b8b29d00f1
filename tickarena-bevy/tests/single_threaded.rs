//! A single-threaded app (every schedule on Bevy's single-threaded
//! executor, as an app without bevy_ecs's `multi_threaded` feature runs):
//! the plugin, a system's scratch arena, the worker arenas and frame data
//! between systems all work, frame after frame. CI also checks that
//! tickarena-bevy itself does not turn `multi_threaded` on.

use bevy_app::{App, Last, PostUpdate, PreUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_ecs::schedule::SingleThreadedExecutor;
use tickarena_bevy::{
    CovariantFrameData, FrameData, FrameDataApp, FrameReader, FrameScratch, FrameWriter,
    TickarenaPlugin, Workers, format_in,
};

struct Names;
impl FrameData for Names {
    type Of<'f> = &'f [&'f str];
}
impl CovariantFrameData for Names {
    fn shorten<'s, 'l: 's>(data: &'s &'l [&'l str]) -> &'s &'s [&'s str] {
        data
    }
}

#[derive(Resource, Default)]
struct Seen(Vec<usize>);

fn name(scratch: FrameScratch, workers: Workers, mut names: FrameWriter<Names>) {
    let mut lengths = Vec::new_in(&*scratch);
    lengths.extend((0..4).map(|i| workers.local().alloc(i * 10).to_string().len()));
    names.publish(|arena| {
        let mut all = Vec::new_in(arena);
        for length in &lengths {
            all.push(&*format_in!(arena, "name of {length}").leak());
        }
        &*all.leak()
    });
}

fn read(names: FrameReader<Names>, mut seen: ResMut<Seen>) {
    seen.0.push(names.get().iter().map(|name| name.len()).sum());
}

#[test]
fn a_single_threaded_app_uses_every_part() {
    let mut app = App::new();
    app.add_plugins(TickarenaPlugin)
        .init_frame_data::<Names>()
        .init_resource::<Seen>()
        .add_systems(Update, (name, read).chain());
    for label in [
        PreUpdate.intern(),
        Update.intern(),
        PostUpdate.intern(),
        Last.intern(),
    ] {
        app.edit_schedule(label, |schedule| {
            schedule.set_executor(SingleThreadedExecutor::new());
        });
    }
    for _ in 0..3 {
        app.update();
    }
    // "name of 1" + "name of 2" x 3 = 9 + 27 bytes, every frame.
    assert_eq!(app.world().resource::<Seen>().0, [36, 36, 36]);
}
