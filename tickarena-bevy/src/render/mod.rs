//! Bevy's render world (feature `render`): a frame's GPU data written
//! once, straight into wgpu's mapped staging memory, from Bevy's prepare
//! systems, with no `Vec` on the host and no copy into staging memory
//! that `RawBufferVec::write_buffer` makes.
//!
//! * [`RenderUploadsPlugin`]: makes the [`RenderUploads`] arena at render
//!   startup (and again after render recovery, on the new device), opens
//!   its frame before [`RenderSystems::PrepareResources`], and closes it
//!   after [`RenderSystems::PrepareResourcesFlush`]: every copy the prepare
//!   systems asked for, recorded on one encoder handed to Bevy's
//!   [`PendingCommandBuffers`], which Bevy submits before the render
//!   graph's passes.
//! * [`RenderUploads`]: the resource a prepare system takes as
//!   `Res<RenderUploads>` (shared: several prepare systems write in
//!   parallel, as Bevy runs them) for a [`SharedFrame`] to write through.
//! * [`GpuVec<T>`]: `RawBufferVec<T>`'s counterpart, a buffer that grows
//!   with what the frame wrote; in a resource of yours.
//!
//! ```
//! use bevy_app::App;
//! use bevy_ecs::prelude::*;
//! use tickarena_bevy::render::{GpuVec, RenderUploads, RenderUploadsPlugin};
//! use bevy_render::{Render, RenderApp, RenderSystems, render_resource::BufferUsages};
//!
//! #[repr(C)]
//! #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
//! struct Instance { position: [f32; 3], scale: f32 }
//!
//! #[derive(Component)]
//! struct ExtractedSprite(Instance);
//!
//! #[derive(Resource)]
//! struct Instances(GpuVec<Instance>);
//!
//! // One line where a `RawBufferVec` wants a clear, a push per value and a
//! // `write_buffer`; the length need not be known before.
//! fn prepare_instances(uploads: Res<RenderUploads>, mut instances: ResMut<Instances>, sprites: Query<&ExtractedSprite>) -> Result {
//!     instances.0.write(&mut uploads.frame()?, sprites.iter().map(|s| s.0))?;
//!     Ok(())
//! }
//!
//! fn build(app: &mut App) {
//!     app.add_plugins(RenderUploadsPlugin::default());
//!     if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
//!         render_app
//!             .insert_resource(Instances(GpuVec::new("instances", BufferUsages::VERTEX)))
//!             .add_systems(Render, prepare_instances.in_set(RenderSystems::PrepareResources));
//!     }
//! }
//! # build(&mut App::new());
//! ```
//!
//! [`RenderSystems::PrepareResources`]: bevy_render::RenderSystems::PrepareResources
//! [`RenderSystems::PrepareResourcesFlush`]: bevy_render::RenderSystems::PrepareResourcesFlush
//! [`PendingCommandBuffers`]: bevy_render::renderer::PendingCommandBuffers

mod figures;
mod plugin;
mod uploads;

pub use figures::{
    UPLOAD_BUFFERS_DIAGNOSTIC, UPLOAD_BYTES_DIAGNOSTIC, UPLOAD_HIGH_WATER_DIAGNOSTIC,
    UPLOAD_STAGING_DIAGNOSTIC,
};
pub use plugin::{RenderUploadsPlugin, RenderUploadsSystems};
pub use tickarena::gpu::{GpuVec, OpenFrame, SharedFrame, UploadConfig, UploadError};
pub use uploads::RenderUploads;
