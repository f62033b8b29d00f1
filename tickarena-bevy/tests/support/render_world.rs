//! What the render side's tests share: a render sub-app as Bevy's
//! `RenderPlugin` makes it, as far as the uploads go (Bevy's `Render`
//! schedule, `RenderStartup`, the device, queue and pending command
//! buffers), and a `GpuVec` read back.

use bevy_app::SubApp;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_render::renderer::{PendingCommandBuffers, RenderDevice, RenderQueue};
use bevy_render::{Render, RenderStartup};
use tickarena::gpu::wgpu;
use tickarena_bevy::render::GpuVec;

/// A render sub-app on `device`: `Render` its update schedule.
pub fn render_sub_app(device: wgpu::Device, queue: wgpu::Queue) -> SubApp {
    let mut render = SubApp::new();
    render.update_schedule = Some(Render.intern());
    render.add_schedule(Render::base_schedule());
    render.init_schedule(RenderStartup);
    render
        .insert_resource(RenderDevice::from(device))
        .insert_resource(RenderQueue::new(queue))
        .init_resource::<PendingCommandBuffers>();
    render
}

/// `vec`'s values, read back from its buffer (its work submitted).
pub fn read_back(device: &wgpu::Device, vec: &GpuVec<u32>) -> Vec<u32> {
    if vec.is_empty() {
        return Vec::new();
    }
    let buffer = vec.buffer().unwrap();
    let len = 4 * vec.len() as u64;
    buffer.map_async(wgpu::MapMode::Read, ..len, |r| r.unwrap());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let words = bytemuck::pod_collect_to_vec(&buffer.get_mapped_range(..len).unwrap());
    buffer.unmap();
    words
}
