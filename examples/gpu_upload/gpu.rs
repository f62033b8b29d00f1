//! The device the contenders upload to: the first adapter wgpu offers
//! (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME` and `WGPU_POWER_PREF` choose, as
//! in wgpu's own examples), and a way to keep a bounded number of frames
//! in flight.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// The device, its queue and what the adapter says it is.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
}

impl Gpu {
    /// The first adapter and a device on it, or why there is none.
    pub fn new() -> Result<Gpu, String> {
        if wgpu::Instance::enabled_backend_features().is_empty() {
            return Err("this build of wgpu has no backend (build with the feature \
                        `wgpu`)"
                .to_owned());
        }
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter =
            block_on(
                instance.request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::from_env()
                        .unwrap_or(wgpu::PowerPreference::HighPerformance),
                    ..Default::default()
                }),
            )
            .map_err(|error| {
                format!(
                    "no GPU adapter ({error}); on Linux install a Vulkan driver (Debian: \
                 mesa-vulkan-drivers, whose lavapipe runs on the CPU)"
                )
            })?;
        let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("gpu_upload"),
            ..Default::default()
        }))
        .map_err(|error| format!("no device on the adapter: {error}"))?;
        Ok(Gpu {
            device,
            queue,
            info: adapter.get_info(),
        })
    }

    /// `NAME (BACKEND)`.
    pub fn adapter(&self) -> String {
        format!("{} ({:?})", self.info.name, self.info.backend)
    }

    /// The destination of every contender's upload: GPU memory for
    /// `bytes`, as a vertex buffer of instances would be.
    pub fn destination(&self, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("instances"),
            size: bytes,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }
}

/// Native wgpu's futures are ready when first polled; this polls until
/// they are.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}

/// The submissions still on the GPU, as a renderer with `frames` frames
/// in flight keeps them: when a frame begins, at most `frames - 1`
/// earlier frames are unfinished (with 2, the GPU works on frame `i`
/// while the CPU builds frame `i + 1`). Callbacks (buffers mapped again,
/// staging memory recalled) run in its polls.
pub struct InFlight {
    submissions: VecDeque<wgpu::SubmissionIndex>,
    frames: usize,
}

impl InFlight {
    pub fn new(frames: usize) -> InFlight {
        InFlight {
            // `submitted` never grows it.
            submissions: VecDeque::with_capacity(frames),
            frames: frames.max(1),
        }
    }

    /// Records the frame just submitted; waits for the oldest frames
    /// until at most `frames - 1` are unfinished, and otherwise only polls
    /// (which runs the callbacks of what finished).
    pub fn submitted(&mut self, gpu: &Gpu, index: wgpu::SubmissionIndex) {
        self.submissions.push_back(index);
        if self.submissions.len() < self.frames {
            gpu.device
                .poll(wgpu::PollType::Poll)
                .expect("a poll of the device");
        }
        while self.submissions.len() >= self.frames {
            let oldest = self.submissions.pop_front().expect("a frame in flight");
            gpu.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(oldest),
                    timeout: None,
                })
                .expect("the GPU finishes a frame");
        }
    }

    /// Waits for every frame in flight.
    pub fn drain(&mut self, gpu: &Gpu) {
        self.submissions.clear();
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the GPU finishes its frames");
    }
}
