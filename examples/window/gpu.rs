//! The wgpu renderer (feature `wgpu`: the upload arena and wgpu's
//! Vulkan backend, with Mesa's lavapipe where there is no GPU; in a
//! browser its WebGL2 backend, `scripts/web-demo`): the scene
//! as instanced quads, then the overlay (panel, help, chart), rasterized
//! by the canvas into a
//! premultiplied image the size of the window, drawn over it as one
//! texture. Each frame's quads are built on this (winit's) thread from
//! the sealed render list it receives, straight into the upload arena
//! (`tickarena::gpu`): in wgpu's mapped staging memory, with no `Vec`
//! first and no size known in advance; the overlay image goes through the
//! arena too. The arena's frames in flight are the GPU's: a frame's
//! staging memory is written again only once the GPU is done with it.

use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use tickarena::Tag;
use tickarena::gpu::{UploadArena, UploadConfig, UploadError, UploadStats};
use winit::window::Window;

use crate::canvas::Canvas;
use crate::counting_alloc::thread_allocations;
use crate::quads::Quad;
use crate::scene::BACKGROUND;

/// The demo's uploads, apart in the arena's tags and sizing report.
const QUADS: Tag = Tag::new("quads");
const OVERLAY: Tag = Tag::new("overlay");

/// The shader's `Screen` uniform.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ScreenUniform {
    size: [f32; 2],
    srgb: u32,
    _pad: u32,
}

/// Pixels in a row of the overlay texture: a multiple of 64, so that its
/// rows are a multiple of `COPY_BYTES_PER_ROW_ALIGNMENT` (256 B) apart.
fn padded_width(width: u32) -> u32 {
    let per_row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT / 4;
    width.div_ceil(per_row) * per_row
}

/// Waits for a wgpu future. wgpu's adapter and device requests are ready
/// when first polled, natively and with WebGL2 in a browser (wgpu's own
/// implementation; its WebGPU backend, not built here, would answer
/// later, and a page cannot wait for it); this is for the two of them at
/// startup.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
        if IN_A_PAGE {
            panic!(
                "a wgpu request not ready at once in a page: the demo builds WebGL2, not WebGPU"
            );
        }
        std::thread::yield_now();
    }
}

/// The overlay image and its texture, sized to the window.
struct Overlay {
    /// Premultiplied BGRA pixels, `padded_width(width)` a row.
    pixels: Vec<u32>,
    texture: wgpu::Texture,
    bind_group: wgpu::BindGroup,
}

pub struct GpuRenderer {
    /// Each frame's quads and overlay image, on their way to the GPU.
    uploads: UploadArena,
    /// Staging buffers the arena had created by the end of frame
    /// `WARM_UP` (after it, a steady frame creates none).
    created_in_warm_up: Option<u64>,
    /// Frames whose `begin_frame` polled the device.
    polled_frames: u64,
    /// Frames not drawn since the GPU was behind (in a browser).
    skipped: u64,
    gpu: Gpu,
}

/// Frames that size the arena's staging chunks.
pub const WARM_UP: u64 = 10;

/// What the upload arena did in a run.
#[derive(Clone, Copy, Debug)]
pub struct UploadFigures {
    pub stats: UploadStats,
    /// Staging buffers created after frame `WARM_UP`.
    pub created_after_warm_up: u64,
    /// Frames whose `begin_frame` polled the device.
    pub polled_frames: u64,
    /// Frames not drawn since the GPU was behind (in a browser).
    #[cfg_attr(
        not(target_family = "wasm"),
        expect(dead_code, reason = "natively `begin_frame` waits: none is skipped")
    )]
    pub skipped: u64,
}

/// The device, the window's surface and what the passes draw with.
struct Gpu {
    window: Arc<Window>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    /// "ADAPTER, BACKEND".
    description: String,
    quad_pipeline: wgpu::RenderPipeline,
    overlay_pipeline: wgpu::RenderPipeline,
    bind_group_layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    /// The quads' instance buffer, and how many it holds.
    instances: wgpu::Buffer,
    instance_capacity: u64,
    overlay: Option<Overlay>,
    /// Whether an upload error was told (once is enough).
    told: bool,
}

impl GpuRenderer {
    /// A renderer drawing into `window`: the adapter wgpu picks for it
    /// (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME` and the other variables of
    /// wgpu's `from_env` choose otherwise).
    pub fn new(window: &Arc<Window>) -> Result<GpuRenderer, String> {
        // Vulkan is all the demo compiles in natively (`wgpu`), and WebGL2
        // in a browser (`wgpu/webgl`): on a platform without either, wgpu
        // would panic.
        if wgpu::Instance::enabled_backend_features().is_empty() {
            return Err("wgpu has no backend for this platform in this build".into());
        }
        let descriptor =
            wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(window.clone()));
        let instance = wgpu::Instance::new(descriptor);
        let surface = instance
            .create_surface(window.clone())
            .map_err(|error| format!("no surface: {error}"))?;
        let adapter = block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: Some(&surface),
            ..Default::default()
        }))
        .map_err(|error| format!("no adapter: {error}"))?;
        let info = adapter.get_info();
        let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("window demo"),
            required_limits:
                wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|error| format!("no device: {error}"))?;

        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or("the surface does not fit the adapter")?;
        // The demo's colours are sRGB-encoded bytes: a plain format shows
        // them as the canvas does; an sRGB one has the shader decode them.
        let capabilities = surface.get_capabilities(&adapter);
        if let Some(&plain) = capabilities.formats.iter().find(|format| !format.is_srgb()) {
            config.format = plain;
        }
        // The window loop paces the frames; vsync would wait a second time.
        config.present_mode = wgpu::PresentMode::AutoNoVsync;
        config.desired_maximum_frame_latency = 2;
        surface.configure(&device, &config);

        let shader = device.create_shader_module(wgpu::include_wgsl!("quads.wgsl"));
        let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("screen and overlay"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("window demo"),
            bind_group_layouts: &[Some(&bind_group_layout)],
            immediate_size: 0,
        });
        let pipeline = |label, vertex, fragment, buffers, blend| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &shader,
                    entry_point: Some(vertex),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleStrip,
                    ..Default::default()
                },
                depth_stencil: None,
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some(fragment),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: config.format,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let quad_layout = wgpu::VertexBufferLayout {
            array_stride: size_of::<Quad>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![
                0 => Float32x2, 1 => Float32x2, 2 => Uint32, 3 => Uint32, 4 => Float32
            ],
        };
        let quad_buffers = [Some(quad_layout)];
        let quad_pipeline = pipeline("quads", "quad_vertex", "quad_fragment", &quad_buffers, None);
        let overlay_pipeline = pipeline(
            "overlay",
            "overlay_vertex",
            "overlay_fragment",
            &[],
            Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        );
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screen"),
            size: size_of::<ScreenUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let instance_capacity = 1024;
        let instances = Gpu::instance_buffer(&device, instance_capacity);
        let uploads = UploadArena::new(
            &device,
            UploadConfig {
                // As the render lists: one frame drawn while one is built.
                frames_in_flight: 2,
                label: "window demo uploads",
                ..UploadConfig::default()
            },
        );
        let gpu = Gpu {
            window: window.clone(),
            device,
            queue,
            surface,
            config,
            description: format!("{}, {}", info.name, info.backend),
            quad_pipeline,
            overlay_pipeline,
            bind_group_layout,
            uniform,
            instances,
            instance_capacity,
            overlay: None,
            told: false,
        };
        Ok(GpuRenderer {
            uploads,
            created_in_warm_up: None,
            polled_frames: 0,
            skipped: 0,
            gpu,
        })
    }

    /// "ADAPTER, BACKEND", as wgpu names them.
    pub fn description(&self) -> &str {
        &self.gpu.description
    }

    /// What the upload arena did so far.
    pub fn upload_figures(&self) -> UploadFigures {
        let stats = self.uploads.stats();
        UploadFigures {
            stats,
            created_after_warm_up: self
                .created_in_warm_up
                .map_or(0, |warm| stats.buffers_created - warm),
            polled_frames: self.polled_frames,
            skipped: self.skipped,
        }
    }

    /// Draws a frame in a `width` x `height` window: `build` pushes the
    /// scene's quads (into the upload arena) and draws the overlay on its
    /// canvas (this thread's part of the frame; `None` draws nothing), then
    /// the overlay goes into the arena, and wgpu records the copies and
    /// passes, submits and presents them. `None` when nothing was drawn:
    /// `build` drew nothing, or the frame was skipped.
    pub fn draw<R>(
        &mut self,
        width: u32,
        height: u32,
        build: impl FnOnce(&mut dyn FnMut(Quad), &mut Canvas<'_>) -> Option<R>,
    ) -> Option<Drew<R>> {
        let start = thread_allocations();
        let gpu = &mut self.gpu;
        gpu.fit(width, height);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });

        let overlay = gpu.overlay.as_mut()?;
        let polls = self.uploads.stats().polls;
        let mut frame = match self.uploads.begin_frame() {
            Ok(frame) => frame,
            // In a browser `begin_frame` cannot wait: the GPU is behind,
            // and this frame is skipped (natively it waits instead).
            Err(UploadError::AllInFlight { .. }) if IN_A_PAGE => {
                self.skipped += 1;
                return None;
            }
            Err(error) => {
                gpu.tell(error);
                return None;
            }
        };
        // The frame's own part from here: the arena's writes and the
        // demo's. (`begin_frame` asked wgpu to map the chunks of the frames
        // told their submission, `map_async`: wgpu's allocations, counted
        // with wgpu's part below; the arena's own code allocates nothing.)
        let begun = thread_allocations();
        let mut canvas = Canvas::overlay(&mut overlay.pixels, padded_width(width), height);
        let mut failed = None;
        let (result, quads) = match frame.upload_tagged::<Quad>(QUADS) {
            Ok(mut writer) => {
                let result = build(
                    &mut |quad| {
                        if let Err(error) = writer.push(quad) {
                            failed.get_or_insert(error);
                        }
                    },
                    &mut canvas,
                );
                (result, Some(writer.finish()))
            }
            Err(error) => {
                failed = Some(error);
                (build(&mut |_| {}, &mut canvas), None)
            }
        };
        let image = frame.upload_slice_tagged(OVERLAY, &overlay.pixels);
        let own = thread_allocations() - begun;

        // wgpu's part: the copies, the passes, submitting, presenting.
        let texture = result.as_ref().and_then(|_| gpu.acquire());
        if let Some(texture) = &texture {
            let count = quads.as_ref().map_or(0, |quads| quads.len() as u64);
            if count > gpu.instance_capacity {
                gpu.instance_capacity = count.next_power_of_two();
                gpu.instances = Gpu::instance_buffer(&gpu.device, gpu.instance_capacity);
            }
            // One instance buffer for every frame: the queue runs this
            // copy after the last frame's draw, which read it before.
            if let Some(quads) = &quads
                && let Err(error) = frame.copy_to(quads, &gpu.instances, 0)
            {
                failed.get_or_insert(error);
            }
            let copied = image.and_then(|image| match &gpu.overlay {
                Some(overlay) => frame.copy_to_texture(
                    &image,
                    overlay.texture.as_image_copy(),
                    padded_width(width) * 4,
                    overlay.texture.size(),
                ),
                None => Ok(()),
            });
            if let Err(error) = copied {
                failed.get_or_insert(error);
            }
            gpu.record_passes(&mut encoder, texture, count);
        }
        // The staging memory goes back to the arena once the GPU is done
        // with this submission.
        frame.finish(&mut encoder);
        let stats = self.uploads.stats();
        // wgpu allocates inside `device.poll`, which `begin_frame` calls
        // when this frame's staging memory was not back yet: such a frame
        // is not a steady one of the demo's (its allocations stay counted
        // as its own).
        let polled = stats.polls != polls;
        self.polled_frames += u64::from(polled);
        if stats.frames == WARM_UP {
            self.created_in_warm_up = Some(stats.buffers_created);
        }
        // `begin_frame` waits on this submission alone when it must.
        self.uploads.submitted(gpu.queue.submit([encoder.finish()]));
        if let Some(texture) = texture {
            gpu.window.pre_present_notify();
            gpu.queue.present(texture);
        }
        if let Some(error) = failed {
            gpu.tell(error);
        }
        let wgpu_allocations = thread_allocations() - start - own;
        result.map(|built| Drew {
            built,
            wgpu_allocations,
            polled,
        })
    }
}

/// A frame wgpu drew.
pub struct Drew<R> {
    /// What `build` returned.
    pub built: R,
    /// The heap allocations made by wgpu (and in resizing), which are not
    /// the frame's own.
    pub wgpu_allocations: u64,
    /// Whether `begin_frame` polled the device (wgpu allocates there).
    pub polled: bool,
}

/// Whether this is a browser page, where `begin_frame` does not wait.
const IN_A_PAGE: bool = cfg!(all(target_family = "wasm", target_os = "unknown"));

impl Gpu {
    /// Says what went wrong with an upload, the first time.
    fn tell(&mut self, error: UploadError) {
        if !std::mem::replace(&mut self.told, true) {
            crate::screen::complain(&format!("window: cannot upload a frame: {error}"));
        }
    }

    fn instance_buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("quads"),
            size: capacity * size_of::<Quad>() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Sizes the surface and the overlay to a `width` x `height` window
    /// (nothing to do when they are that size already).
    fn fit(&mut self, width: u32, height: u32) {
        let fits =
            self.overlay.is_some() && (self.config.width, self.config.height) == (width, height);
        if fits {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.device, &self.config);
        let uniform = ScreenUniform {
            size: [width as f32, height as f32],
            srgb: u32::from(self.config.format.is_srgb()),
            _pad: 0,
        };
        self.queue
            .write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("overlay"),
            size: wgpu::Extent3d {
                width: padded_width(width),
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            // The canvas's BGRA pixels, red and blue swapped back by the
            // shader: WebGL2 has no BGRA textures.
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("screen and overlay"),
            layout: &self.bind_group_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
            ],
        });
        self.overlay = Some(Overlay {
            pixels: vec![0; padded_width(width) as usize * height as usize],
            texture,
            bind_group,
        });
    }

    /// The surface's next texture, or `None` to skip drawing this frame.
    fn acquire(&mut self) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture)
            | wgpu::CurrentSurfaceTexture::Suboptimal(texture) => Some(texture),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                // Configured again (at this size) for the next frame.
                self.overlay = None;
                None
            }
            wgpu::CurrentSurfaceTexture::Timeout
            | wgpu::CurrentSurfaceTexture::Occluded
            | wgpu::CurrentSurfaceTexture::Validation => None,
        }
    }

    /// Records the frame's pass: the background, `count` quads, the
    /// overlay.
    fn record_passes(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::SurfaceTexture,
        count: u64,
    ) {
        let Some(overlay) = &self.overlay else {
            return;
        };
        let view = texture.texture.create_view(&Default::default());
        let background = |shift: u32| f64::from((BACKGROUND >> shift) & 0xFF) / 255.0;
        let decode = |c: f64| {
            if !self.config.format.is_srgb() {
                c
            } else if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene and overlay"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                resolve_target: None,
                depth_slice: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: decode(background(16)),
                        g: decode(background(8)),
                        b: decode(background(0)),
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_bind_group(0, &overlay.bind_group, &[]);
        if count > 0 {
            pass.set_pipeline(&self.quad_pipeline);
            pass.set_vertex_buffer(0, self.instances.slice(..count * size_of::<Quad>() as u64));
            pass.draw(0..4, 0..count as u32);
        }
        pass.set_pipeline(&self.overlay_pipeline);
        pass.draw(0..3, 0..1);
    }
}
