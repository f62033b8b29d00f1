//! The render side where Bevy's render world is not at its steadiest (a
//! review's probes, kept): render recovery on a new device, a device lost
//! between two frames, writers in every prepare set, `PrepareResourcesFlush`
//! included (with ambiguity detection as an error).
//! `cargo test -p tickarena-bevy --features render --test render_recovery`.

#[path = "support/render_world.rs"]
mod render_world;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_render::renderer::{RenderDevice, RenderQueue};
use bevy_render::{Render, RenderApp, RenderSystems};
use render_world::{read_back, render_sub_app};
use tickarena::gpu::wgpu;

use bevy_render::RenderStartup;
use bevy_render::renderer::PendingCommandBuffers;
use tickarena_bevy::render::{GpuVec, RenderUploads, RenderUploadsPlugin};

#[derive(Resource)]
struct Words<const S: u32>(GpuVec<u32>);

fn write<const S: u32>(uploads: Res<RenderUploads>, mut words: ResMut<Words<S>>) -> Result {
    words.0.write_slice(&mut uploads.frame()?, &[S; 100])?;
    Ok(())
}

/// A writer that rides out a lost device, as `RenderUploads::frame`'s
/// docs say: no `?`, the errors let go.
fn write_or_skip<const S: u32>(uploads: Res<RenderUploads>, mut words: ResMut<Words<S>>) {
    if let Ok(mut frame) = uploads.frame() {
        let _ = words.0.write_slice(&mut frame, &[S; 100]);
    }
}
#[derive(Resource, Default)]
struct Busy<const S: u32>;
fn busy<const S: u32>(_b: ResMut<Busy<S>>) {}

fn submit(mut pending: ResMut<PendingCommandBuffers>, queue: Res<RenderQueue>) {
    queue.submit(pending.finish());
}

fn sub_app(device: wgpu::Device, queue: wgpu::Queue, skip: bool) -> App {
    let mut app = App::new();
    let mut render = render_sub_app(device, queue);
    render
        .init_resource::<Busy<0>>()
        .init_resource::<Busy<1>>()
        .init_resource::<Busy<2>>();
    let readable = |label| GpuVec::new(label, wgpu::BufferUsages::MAP_READ);
    render
        .insert_resource(Words::<0>(readable("words 0")))
        .insert_resource(Words::<1>(readable("words 1")))
        .insert_resource(Words::<2>(readable("words 2")))
        .add_systems(
            Render,
            (
                busy::<0>.in_set(RenderSystems::PrepareResources),
                busy::<1>.in_set(RenderSystems::PrepareResourcesCollectPhaseBuffers),
                busy::<2>.in_set(RenderSystems::PrepareResourcesFlush),
                submit.in_set(RenderSystems::Render),
            ),
        );
    if skip {
        render.add_systems(
            Render,
            (
                write_or_skip::<0>.in_set(RenderSystems::PrepareResources),
                write_or_skip::<1>.in_set(RenderSystems::PrepareResourcesBatchPhases),
                write_or_skip::<2>.in_set(RenderSystems::PrepareResourcesWritePhaseBuffers),
            ),
        );
    } else {
        render.add_systems(
            Render,
            (
                write::<0>.in_set(RenderSystems::PrepareResources),
                write::<1>.in_set(RenderSystems::PrepareResourcesBatchPhases),
                write::<2>.in_set(RenderSystems::PrepareResourcesWritePhaseBuffers),
            ),
        );
    }
    app.insert_sub_app(RenderApp, render);
    app.add_plugins(RenderUploadsPlugin::default());
    app.sub_app_mut(RenderApp)
        .world_mut()
        .run_schedule(RenderStartup);
    app
}

/// Render recovery as Bevy runs it: a new RenderDevice (and queue), then
/// RenderStartup again. The GpuVecs in the app's resources, made as the
/// docs show (`insert_resource` at build), still hold the lost device's
/// buffers.
#[test]
fn render_recovery_on_a_new_device_frames_go_on() {
    let (device, queue) = tickarena::gpu::test_device().unwrap();
    let mut app = sub_app(device, queue, false);
    for _ in 0..3 {
        app.update();
    }
    let (device2, queue2) = tickarena::gpu::test_device().unwrap();
    {
        let render = app.sub_app_mut(RenderApp);
        render.insert_resource(RenderDevice::from(device2.clone()));
        render.insert_resource(RenderQueue::new(queue2));
        render.insert_resource(PendingCommandBuffers::default());
        render.world_mut().run_schedule(RenderStartup);
    }
    for _ in 0..3 {
        app.update();
    }
    let w = app.sub_app(RenderApp).world();
    assert_eq!(
        read_back(&device2, &w.resource::<Words<0>>().0),
        vec![0; 100]
    );
}

/// A device lost while rendering (Bevy notices it at the next extract
/// and, with `RenderErrorPolicy::Recover`, recovers): writers that let
/// the errors go, as the docs say, ride out the frames before that; the
/// plugin's begin and finish do not panic.
#[test]
fn a_lost_device_does_not_panic_writers_that_skip() {
    let (device, queue) = tickarena::gpu::test_device().unwrap();
    let mut app = sub_app(device.clone(), queue, true);
    for _ in 0..3 {
        app.update();
    }
    device.destroy();
    for _ in 0..3 {
        app.update();
    }
}

/// A writer in PrepareResourcesFlush, where Bevy's own buffer writers
/// (write_indirect_parameters_buffers, write_render_visibility_ranges) sit.
#[test]
fn a_writer_in_prepare_resources_flush_writes() {
    let (device, queue) = tickarena::gpu::test_device().unwrap();
    let mut app = sub_app(device.clone(), queue, false);
    app.sub_app_mut(RenderApp)
        .insert_resource(Words::<3>(GpuVec::new(
            "words 3",
            wgpu::BufferUsages::MAP_READ,
        )))
        .add_systems(
            Render,
            write::<3>.in_set(RenderSystems::PrepareResourcesFlush),
        )
        .edit_schedule(Render, |s| {
            s.set_build_settings(bevy_ecs::schedule::ScheduleBuildSettings {
                ambiguity_detection: bevy_ecs::schedule::LogLevel::Error,
                ..Default::default()
            });
        });
    for _ in 0..5 {
        app.update();
        let w = app.sub_app(RenderApp).world();
        assert_eq!(
            read_back(&device, &w.resource::<Words<3>>().0),
            vec![3; 100]
        );
    }
}
