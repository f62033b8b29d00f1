//! The render world's upload arena, as a resource.

use std::sync::Arc;

use bevy_ecs::resource::Resource;
use tickarena::gpu::{
    SharedFrame, SharedUploadArena, UploadArena, UploadConfig, UploadError, UploadStats, wgpu,
};

use super::figures::Figures;

/// The render world's upload arena: a [`SharedUploadArena`] whose frame
/// [`RenderUploadsPlugin`](super::RenderUploadsPlugin) opens before
/// `PrepareResources` and closes after `PrepareResourcesFlush`. A prepare
/// system takes it shared (`Res<RenderUploads>`), so several write at
/// once, and writes through [`frame`](Self::frame).
///
/// # Example
///
/// ```
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::render::{GpuVec, RenderUploads};
///
/// #[derive(Resource)]
/// struct Lights(GpuVec<[f32; 8]>);
///
/// fn prepare_lights(uploads: Res<RenderUploads>, mut lights: ResMut<Lights>) -> Result {
///     lights.0.write_slice(&mut uploads.frame()?, &[[1.0; 8]; 4])?;
///     Ok(())
/// }
/// # Schedule::default().add_systems(prepare_lights);
/// ```
#[derive(Resource)]
pub struct RenderUploads {
    pub(super) shared: SharedUploadArena,
    pub(super) figures: Arc<Figures>,
    /// Staging buffers made before this frame, to count the frame's.
    pub(super) buffers_before: u64,
}

impl RenderUploads {
    pub(super) fn new(device: &wgpu::Device, config: UploadConfig, figures: Arc<Figures>) -> Self {
        RenderUploads {
            shared: SharedUploadArena::new(UploadArena::new(device, config)),
            figures,
            buffers_before: 0,
        }
    }

    /// A handle on this frame's uploads, for one prepare system.
    ///
    /// # Errors
    ///
    /// [`UploadError::NoFrameOpen`] outside the frame: before
    /// `PrepareResources` or after `PrepareResourcesFlush` (order the
    /// system in `PrepareResources`), or when the frame could not begin
    /// (said in Bevy's log). A device lost is found here first as an
    /// error of a write (`MapFailed`, `DeviceLost`), then as no frame
    /// until Bevy's render recovery makes a new arena: with `?`, Bevy's
    /// error handler (by default a panic) gets it. A system that must
    /// ride out a lost device lets the errors go instead:
    /// `if let Ok(mut frame) = uploads.frame() { let _ = instances.write(&mut frame, iter); }`.
    /// A [`GpuVec`](tickarena::gpu::GpuVec) written on the new arena makes
    /// its buffer anew on the new device.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::render::RenderUploads;
    ///
    /// fn prepare(uploads: Res<RenderUploads>) -> Result {
    ///     let frame = uploads.frame()?;
    ///     let _indices = frame.upload_slice(&[0u16, 1, 2])?;
    ///     Ok(())
    /// }
    /// # Schedule::default().add_systems(prepare);
    /// ```
    pub fn frame(&self) -> Result<SharedFrame<'_>, UploadError> {
        self.shared.frame()
    }

    /// The arena's counts: frames, staging buffers made and destroyed.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::render::RenderUploads;
    ///
    /// fn staging_buffers(uploads: Res<RenderUploads>) {
    ///     println!("{} staging buffers made", uploads.stats().buffers_created);
    /// }
    /// # Schedule::default().add_systems(staging_buffers);
    /// ```
    pub fn stats(&self) -> UploadStats {
        self.shared.stats()
    }

    /// The sizing report of the frames the arena's history holds: how
    /// large a chunk would have held them (see
    /// [`UploadArena::report`]). Computed on call: for an overlay or the
    /// app's exit, not every frame.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::render::RenderUploads;
    ///
    /// fn print_report(mut uploads: ResMut<RenderUploads>) {
    ///     println!("{}", uploads.report());
    /// }
    /// # Schedule::default().add_systems(print_report);
    /// ```
    pub fn report(&mut self) -> tickarena::frame_loop::SizingReport {
        self.shared.arena_mut().report()
    }

    /// The arena itself: its history and budgets.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_ecs::prelude::*;
    /// use tickarena_bevy::render::RenderUploads;
    ///
    /// fn frames_recorded(mut uploads: ResMut<RenderUploads>) {
    ///     println!("{} frames recorded", uploads.arena_mut().history().len());
    /// }
    /// # Schedule::default().add_systems(frames_recorded);
    /// ```
    pub fn arena_mut(&mut self) -> &mut UploadArena {
        self.shared.arena_mut()
    }
}
