//! The plugin: the arena made at render startup, its frame opened before
//! the prepare systems and closed after them, on one encoder.

use std::sync::Arc;

use bevy_app::{App, Last, Plugin};
use bevy_ecs::prelude::*;
use bevy_render::renderer::{PendingCommandBuffers, RenderDevice};
use bevy_render::{Render, RenderApp, RenderStartup, RenderSystems};
use tickarena::gpu::wgpu;
use tickarena::gpu::{UploadConfig, UploadError};

use super::RenderUploads;
use super::figures::{Figures, MainFigures, measure_uploads};

/// Puts a [`RenderUploads`] arena in Bevy's render world and runs its
/// frames: made at [`RenderStartup`] (again after render recovery, on
/// the new device), opened in [`RenderUploadsSystems::Begin`] (before
/// `PrepareResources`), closed in [`RenderUploadsSystems::Finish`] (after
/// `PrepareResourcesFlush`, before `PrepareBindGroups`): the copies the prepare systems asked for are
/// recorded on one encoder, pushed to Bevy's `PendingCommandBuffers`,
/// which Bevy submits ahead of the render graph's passes. A frame in
/// which no system wrote makes no encoder. Bind groups made in
/// `PrepareBindGroups` see the buffers the frame grew.
///
/// Add it after Bevy's `RenderPlugin` (`DefaultPlugins`), once: without a
/// render world it does nothing, and a second one is refused as any
/// plugin added twice is (Bevy panics; guard with
/// `app.is_plugin_added::<RenderUploadsPlugin>()` where several plugins
/// of yours may add it).
/// With a `DiagnosticsStore` in the main world (`DiagnosticsPlugin`),
/// it measures each render frame's upload bytes, the staging buffers it
/// made, the staging memory held and the high-water mark
/// ([`UPLOAD_BYTES_DIAGNOSTIC`](super::UPLOAD_BYTES_DIAGNOSTIC),
/// [`UPLOAD_BUFFERS_DIAGNOSTIC`](super::UPLOAD_BUFFERS_DIAGNOSTIC),
/// [`UPLOAD_STAGING_DIAGNOSTIC`](super::UPLOAD_STAGING_DIAGNOSTIC),
/// [`UPLOAD_HIGH_WATER_DIAGNOSTIC`](super::UPLOAD_HIGH_WATER_DIAGNOSTIC)),
/// which `LogDiagnosticsPlugin` prints; the whole sizing report is
/// [`RenderUploads::report`](super::RenderUploads::report).
///
/// The encoder goes to `PendingCommandBuffers`, which Bevy's core
/// pipeline submits (`bevy_core_pipeline`, in
/// `RenderGraphSystems::Submit`) ahead of the passes it records. An app
/// that renders without the core pipeline submits them itself
/// (`FlushCommands::flush`, as the `particles` example does).
///
/// # Example
///
/// ```
/// use bevy_app::App;
/// use tickarena_bevy::render::{RenderUploadsPlugin, UploadConfig};
///
/// let mut app = App::new();
/// app.add_plugins(RenderUploadsPlugin {
///     config: UploadConfig { chunk_size: 1 << 20, ..Default::default() },
/// });
/// ```
#[derive(Clone, Debug, Default)]
pub struct RenderUploadsPlugin {
    /// The arena's settings (chunk size, frames in flight, limits).
    pub config: UploadConfig,
}

/// Where the plugin's systems run in Bevy's [`Render`] schedule: order a
/// system that must see the frame open or closed against them.
///
/// # Example
///
/// ```
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::render::RenderUploadsSystems;
///
/// fn after_the_uploads() {}
/// let mut schedule = Schedule::default();
/// schedule.add_systems(after_the_uploads.after(RenderUploadsSystems::Finish));
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RenderUploadsSystems {
    /// Opens the frame: in `Prepare`, before `PrepareResources`.
    Begin,
    /// Closes the frame: after `PrepareResourcesFlush`, before
    /// `PrepareBindGroups`.
    Finish,
}

impl Plugin for RenderUploadsPlugin {
    fn build(&self, app: &mut App) {
        let figures = Arc::new(Figures::default());
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        let config = self.config;
        let render_figures = Arc::clone(&figures);
        render_app
            .add_systems(
                RenderStartup,
                move |mut commands: Commands, device: Res<RenderDevice>| {
                    // A new device (the first, or render recovery's): a
                    // new arena on it; the old one's chunks were the lost
                    // device's.
                    commands.insert_resource(RenderUploads::new(
                        device.wgpu_device(),
                        config,
                        Arc::clone(&render_figures),
                    ));
                },
            )
            .configure_sets(
                Render,
                (
                    RenderUploadsSystems::Begin
                        .in_set(RenderSystems::Prepare)
                        .before(RenderSystems::PrepareResources),
                    // After every set a prepare system may write in (Bevy's
                    // own buffer writers sit in `PrepareResourcesFlush`),
                    // before the bind groups.
                    RenderUploadsSystems::Finish
                        .in_set(RenderSystems::Prepare)
                        .after(RenderSystems::PrepareResourcesFlush)
                        .before(RenderSystems::PrepareBindGroups),
                ),
            )
            .add_systems(
                Render,
                (
                    begin_frame.in_set(RenderUploadsSystems::Begin),
                    finish_frame.in_set(RenderUploadsSystems::Finish),
                ),
            );
        app.insert_resource(MainFigures::new(figures))
            .add_systems(Last, measure_uploads);
    }
}

/// Opens the render frame's uploads.
fn begin_frame(uploads: Option<ResMut<RenderUploads>>) {
    let Some(mut uploads) = uploads else {
        return;
    };
    // A frame left open (its finish skipped) and a chunk that could not
    // be mapped again are reported once: the next begin goes on. Any other
    // refusal (a lost device, until Bevy's render recovery makes a new
    // arena) leaves the frame closed, and the prepare systems' `frame()`
    // say so.
    let mut begun = uploads.shared.begin_frame();
    if let Err(error @ (UploadError::NotSubmitted { .. } | UploadError::MapFailed)) = begun {
        bevy_log::warn!("tickarena's render uploads: {error}");
        begun = uploads.shared.begin_frame();
    }
    if let Err(error) = begun {
        bevy_log::warn!("tickarena's render uploads: no frame this time: {error}");
    }
}

/// Closes the render frame's uploads: every copy on one encoder, handed
/// to Bevy's pending command buffers.
fn finish_frame(
    uploads: Option<ResMut<RenderUploads>>,
    device: Res<RenderDevice>,
    mut pending: ResMut<PendingCommandBuffers>,
) {
    let Some(mut uploads) = uploads else {
        return;
    };
    let uploads = &mut *uploads;
    let wrote = uploads.shared.frame().is_ok_and(|frame| frame.bytes() > 0);
    if !wrote {
        // Nothing to copy: no encoder, and the staging memory stays mapped.
        if uploads.shared.discard() {
            let stats = uploads.shared.stats();
            let made = stats.buffers_created - uploads.buffers_before;
            uploads.buffers_before = stats.buffers_created;
            uploads.figures.frame_ended(0, made, &stats);
        }
        return;
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("tickarena uploads"),
    });
    let Ok(record) = uploads.shared.finish(&mut encoder) else {
        return;
    };
    pending.push_encoder(encoder, "tickarena uploads");
    let stats = uploads.shared.stats();
    let frame_made = stats.buffers_created - uploads.buffers_before;
    uploads.buffers_before = stats.buffers_created;
    uploads
        .figures
        .frame_ended(record.arena_bytes as u64, frame_made, &stats);
}
