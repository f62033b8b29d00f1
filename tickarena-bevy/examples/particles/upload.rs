//! The prepare systems: each turns the particles of its kind into
//! instances (how many is known only once they are filtered) and uploads
//! them, in one of three ways.
//!
//! * `raw`: Bevy's `RawBufferVec`: cleared, extended, `write_buffer`
//!   (a host `Vec`, then wgpu's staging memory, then the GPU's copy);
//! * `new`: as Bevy's instancing example does, a `Vec` collected and a
//!   new buffer made with `create_buffer_with_data` every frame;
//! * `arena`: tickarena's `GpuVec`, written through `RenderUploads`
//!   straight into mapped staging memory.
//!
//! And `none`, which makes the instances and drops them: what the
//! systems' own work (culling and shading) costs, under any upload.

use bevy_ecs::prelude::*;
use bevy_render::render_resource::{Buffer, BufferUsages, RawBufferVec};
use bevy_render::renderer::{RenderDevice, RenderQueue};
use tickarena::gpu::wgpu;
use tickarena_bevy::render::{GpuVec, RenderUploads};

use crate::clock::SystemClock;
use crate::sim::{ExtractedParticles, KINDS};

/// What the GPU draws of a particle: 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Instance {
    pub position: [f32; 3],
    pub size: f32,
    pub color: [f32; 4],
}

/// The prepare systems, one per kind of particle (sparks, smoke, ...).
pub const SYSTEMS: usize = KINDS;

const COLORS: [[f32; 3]; SYSTEMS] = [[1.0, 0.6, 0.1], [0.5, 0.5, 0.6], [0.2, 0.7, 1.0]];

/// The instances of system `K`'s particles: those on screen (how many
/// is known once they are culled).
pub fn instances<const K: usize>(
    particles: &ExtractedParticles,
) -> impl Iterator<Item = Instance> + '_ {
    particles.0[K]
        .iter()
        .filter(|p| p.position[0].abs() < 1.0 && p.position[1].abs() < 1.0)
        .map(|p| {
            let [r, g, b] = COLORS[K];
            let fade = (p.life.min(60) as f32 / 60.0).max(0.2);
            Instance {
                position: [p.position[0], p.position[1], 0.0],
                size: 0.004 + (p.seed % 5) as f32 * 0.001,
                color: [r * fade, g * fade, b * fade, 1.0],
            }
        })
}

/// What the draw reads: system `K`'s buffer and instance count.
pub trait Drawn {
    fn drawn(&self) -> Option<(&wgpu::Buffer, u32)>;
}

/// `raw`: a `RawBufferVec` per system.
#[derive(Resource)]
pub struct Raw<const K: usize>(pub RawBufferVec<Instance>);

impl<const K: usize> Default for Raw<K> {
    fn default() -> Self {
        Raw(RawBufferVec::new(BufferUsages::VERTEX))
    }
}

pub fn prepare_raw<const K: usize>(
    particles: Res<ExtractedParticles>,
    mut instances: ResMut<Raw<K>>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    let _clock = SystemClock::start();
    instances.0.clear();
    instances.0.extend(self::instances::<K>(&particles));
    instances.0.write_buffer(&device, &queue);
}

impl<const K: usize> Drawn for Raw<K> {
    fn drawn(&self) -> Option<(&wgpu::Buffer, u32)> {
        Some((self.0.buffer()?, self.0.len() as u32))
    }
}

/// `new`: a new buffer per frame, as Bevy's instancing example makes.
#[derive(Resource, Default)]
pub struct New<const K: usize>(pub Option<(Buffer, u32)>);

pub fn prepare_new<const K: usize>(
    particles: Res<ExtractedParticles>,
    mut instances: ResMut<New<K>>,
    device: Res<RenderDevice>,
) {
    let _clock = SystemClock::start();
    let data: Vec<Instance> = self::instances::<K>(&particles).collect();
    let buffer = device.create_buffer_with_data(&wgpu::util::BufferInitDescriptor {
        label: Some("instances"),
        contents: bytemuck::cast_slice(&data),
        usage: BufferUsages::VERTEX,
    });
    instances.0 = Some((buffer, data.len() as u32));
}

impl<const K: usize> Drawn for New<K> {
    fn drawn(&self) -> Option<(&wgpu::Buffer, u32)> {
        self.0.as_ref().map(|(buffer, len)| (&**buffer, *len))
    }
}

/// `arena`: a `GpuVec` per system, written through the render world's
/// upload arena.
#[derive(Resource)]
pub struct Arena<const K: usize>(pub GpuVec<Instance>);

impl<const K: usize> Default for Arena<K> {
    fn default() -> Self {
        Arena(GpuVec::new("instances", BufferUsages::VERTEX))
    }
}

pub fn prepare_arena<const K: usize>(
    particles: Res<ExtractedParticles>,
    mut instances: ResMut<Arena<K>>,
    uploads: Res<RenderUploads>,
) -> Result {
    let _clock = SystemClock::start();
    instances
        .0
        .write(&mut uploads.frame()?, self::instances::<K>(&particles))?;
    Ok(())
}

impl<const K: usize> Drawn for Arena<K> {
    fn drawn(&self) -> Option<(&wgpu::Buffer, u32)> {
        Some((self.0.buffer()?, self.0.len() as u32))
    }
}

/// `none`: the instances made and dropped (each one read, so that none
/// goes unmade), nothing uploaded or drawn.
#[derive(Resource, Default)]
pub struct Nothing<const K: usize>;

pub fn prepare_nothing<const K: usize>(particles: Res<ExtractedParticles>) {
    let _clock = SystemClock::start();
    for instance in self::instances::<K>(&particles) {
        std::hint::black_box(instance);
    }
}

impl<const K: usize> Drawn for Nothing<K> {
    fn drawn(&self) -> Option<(&wgpu::Buffer, u32)> {
        None
    }
}
