//! The render side on a real device (lavapipe where there is no GPU):
//! a render sub-app with Bevy's `Render` schedule, its prepare systems
//! writing `GpuVec`s in parallel through `RenderUploads`, the plugin's
//! encoder submitted as Bevy's render system submits
//! `PendingCommandBuffers`. After every frame each buffer is read back
//! and compared with what its system wrote.
//!
//! `cargo test -p tickarena-bevy --features render --test render`.

#[path = "support/render_world.rs"]
mod render_world;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_render::renderer::{PendingCommandBuffers, RenderQueue};
use bevy_render::{Render, RenderApp, RenderStartup, RenderSystems};
use render_world::{read_back, render_sub_app};
use tickarena::gpu::wgpu;
use tickarena_bevy::render::{GpuVec, RenderUploads, RenderUploadsPlugin, UploadConfig};

/// The frame the render world is in (set by the test before each update).
#[derive(Resource, Default, Clone, Copy)]
struct Frame(u32);

#[derive(Resource)]
struct Words<const SYSTEM: u32>(GpuVec<u32>);

/// What the last frame submitted: encoders the plugin pushed.
#[derive(Resource, Default)]
struct Submitted {
    encoders: usize,
}

/// System `SYSTEM`'s values for `frame`: none on some frames, a burst on
/// every 7th.
fn values(system: u32, frame: u32) -> Option<Vec<u32>> {
    let count = match (frame + system) % 7 {
        0 => 20_000 + 997 * system,
        4 if system == 1 => return None, // nothing to draw: no write at all
        n => 17 * n + 50 * system,
    };
    Some(
        (0..count)
            .map(|i| i.wrapping_mul(2_654_435_761) ^ (frame << 12) ^ system)
            .collect(),
    )
}

fn prepare<const SYSTEM: u32>(
    uploads: Res<RenderUploads>,
    frame: Res<Frame>,
    mut words: ResMut<Words<SYSTEM>>,
) -> Result {
    if frame.0 >= 100 {
        return Ok(()); // the frames where no system writes
    }
    if let Some(values) = values(SYSTEM, frame.0) {
        if SYSTEM == 0 {
            words
                .0
                .write(&mut uploads.frame()?, values.iter().copied())?;
        } else {
            words.0.write_slice(&mut uploads.frame()?, &values)?;
        }
    }
    Ok(())
}

/// In `PrepareBindGroups`: the buffers are as large as what was written.
fn bind_groups(words: Res<Words<2>>) {
    let buffer = words.0.buffer().expect("a buffer by the first bind group");
    assert!(buffer.size() >= 4 * words.0.len() as u64);
}

/// Bevy's render system, as far as the uploads go: the pending command
/// buffers submitted.
fn submit(
    mut pending: ResMut<PendingCommandBuffers>,
    queue: Res<RenderQueue>,
    mut submitted: ResMut<Submitted>,
) {
    submitted.encoders = pending.len();
    queue.submit(pending.finish());
}

fn render_app(config: UploadConfig) -> (App, wgpu::Device) {
    let (device, queue) = tickarena::gpu::test_device().expect("a wgpu adapter (lavapipe)");
    let mut app = App::new();
    let mut render = render_sub_app(device.clone(), queue);
    render.init_resource::<Frame>().init_resource::<Submitted>();
    let readable = |label| GpuVec::new(label, wgpu::BufferUsages::MAP_READ).release_after(10);
    render
        .insert_resource(Words::<0>(readable("words 0")))
        .insert_resource(Words::<1>(readable("words 1")))
        .insert_resource(Words::<2>(readable("words 2")))
        .add_systems(
            Render,
            (
                (prepare::<0>, prepare::<1>, prepare::<2>).in_set(RenderSystems::PrepareResources),
                bind_groups.in_set(RenderSystems::PrepareBindGroups),
                submit.in_set(RenderSystems::Render),
            ),
        );
    app.insert_sub_app(RenderApp, render);
    app.add_plugins(RenderUploadsPlugin { config });
    app.sub_app_mut(RenderApp)
        .world_mut()
        .run_schedule(RenderStartup);
    (app, device)
}

fn run_frame(app: &mut App, frame: u32) -> usize {
    app.sub_app_mut(RenderApp)
        .world_mut()
        .resource_mut::<Frame>()
        .0 = frame;
    app.update();
    app.sub_app(RenderApp)
        .world()
        .resource::<Submitted>()
        .encoders
}

fn check(app: &App, device: &wgpu::Device, last: &mut [Vec<u32>; 3], frame: u32) {
    let world = app.sub_app(RenderApp).world();
    let got = [
        read_back(device, &world.resource::<Words<0>>().0),
        read_back(device, &world.resource::<Words<1>>().0),
        read_back(device, &world.resource::<Words<2>>().0),
    ];
    for system in 0..3 {
        if let Some(values) = values(system, frame).filter(|_| frame < 100) {
            last[system as usize] = values;
        }
        // A system that wrote nothing this frame: its buffer keeps the
        // values of its last write.
        assert!(
            got[system as usize] == last[system as usize],
            "frame {frame}: system {system}'s words landed otherwise"
        );
    }
}

#[test]
fn prepare_systems_in_parallel_write_one_frame_and_every_buffer_holds_its_values() {
    let (mut app, device) = render_app(UploadConfig::default());
    let mut last: [Vec<u32>; 3] = Default::default();
    for frame in 0..40 {
        let encoders = run_frame(&mut app, frame);
        assert_eq!(
            encoders, 1,
            "frame {frame}: one encoder for every system's copies"
        );
        check(&app, &device, &mut last, frame);
    }
    let uploads = app.sub_app(RenderApp).world().resource::<RenderUploads>();
    assert_eq!(uploads.stats().frames, 40);
}

#[test]
fn a_frame_with_nothing_written_makes_no_encoder_and_breaks_nothing() {
    let (mut app, device) = render_app(UploadConfig::default());
    let mut last: [Vec<u32>; 3] = Default::default();
    for frame in [0, 1, 100, 101, 2, 102, 3] {
        let encoders = run_frame(&mut app, frame);
        assert_eq!(encoders, usize::from(frame < 100), "frame {frame}");
        check(&app, &device, &mut last, frame);
    }
}

#[test]
fn steady_frames_make_no_staging_buffer() {
    let (mut app, device) = render_app(UploadConfig::default());
    let mut last: [Vec<u32>; 3] = Default::default();
    // Every frame the same sizes, bursts included, after the first round.
    for round in 0..3 {
        let before = app
            .sub_app(RenderApp)
            .world()
            .resource::<RenderUploads>()
            .stats()
            .buffers_created;
        for frame in 0..14 {
            run_frame(&mut app, frame);
            check(&app, &device, &mut last, frame);
        }
        let after = app
            .sub_app(RenderApp)
            .world()
            .resource::<RenderUploads>()
            .stats()
            .buffers_created;
        if round > 0 {
            let stats = app
                .sub_app(RenderApp)
                .world()
                .resource::<RenderUploads>()
                .stats();
            assert_eq!(
                after, before,
                "round {round} made staging buffers: {stats:?}"
            );
        }
    }
}

#[test]
fn render_recovery_makes_a_new_arena_and_frames_go_on() {
    let (mut app, device) = render_app(UploadConfig::default());
    let mut last: [Vec<u32>; 3] = Default::default();
    for frame in 0..3 {
        run_frame(&mut app, frame);
        check(&app, &device, &mut last, frame);
    }
    // Bevy runs RenderStartup again on a new device.
    app.sub_app_mut(RenderApp)
        .world_mut()
        .run_schedule(RenderStartup);
    assert_eq!(
        app.sub_app(RenderApp)
            .world()
            .resource::<RenderUploads>()
            .stats()
            .frames,
        0
    );
    for frame in 3..6 {
        run_frame(&mut app, frame);
        check(&app, &device, &mut last, frame);
    }
}

#[test]
fn the_main_world_diagnostics_show_each_render_frame() {
    use bevy_diagnostic::{DiagnosticsPlugin, DiagnosticsStore};
    use tickarena_bevy::render::{
        UPLOAD_BUFFERS_DIAGNOSTIC, UPLOAD_BYTES_DIAGNOSTIC, UPLOAD_HIGH_WATER_DIAGNOSTIC,
        UPLOAD_STAGING_DIAGNOSTIC,
    };
    let (mut app, _device) = render_app(UploadConfig::default());
    app.add_plugins(DiagnosticsPlugin);
    for frame in 0..8 {
        run_frame(&mut app, frame);
    }
    // The main world measures at its `Last`, before the render world's
    // frame of the same update: one more update (nothing written)
    // measures frame 7.
    run_frame(&mut app, 100);
    let want_bytes: usize = (0..3)
        .map(|system| values(system, 7).map_or(0, |v| 4 * v.len()))
        .sum();
    let store = app.world().resource::<DiagnosticsStore>();
    let value = |path: &bevy_diagnostic::DiagnosticPath| -> f64 {
        store.get(path).and_then(|d| d.value()).expect("measured")
    };
    assert_eq!(value(&UPLOAD_BYTES_DIAGNOSTIC), want_bytes as f64);
    let uploads = app
        .sub_app(RenderApp)
        .world()
        .resource::<RenderUploads>()
        .stats();
    assert_eq!(
        value(&UPLOAD_STAGING_DIAGNOSTIC),
        uploads.staging_bytes as f64
    );
    assert_eq!(
        value(&UPLOAD_HIGH_WATER_DIAGNOSTIC),
        uploads.high_water as f64
    );
    // Staging buffers made, frame by frame, add up to the arena's count.
    let made: f64 = store
        .get(&UPLOAD_BUFFERS_DIAGNOSTIC)
        .unwrap()
        .values()
        .sum();
    assert_eq!(made, uploads.buffers_created as f64);
}
