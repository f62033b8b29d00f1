//! The render world's drawing: every system's instances drawn as quads
//! into an image (no window), and the image read back.

use bevy_ecs::prelude::*;
use bevy_render::renderer::{PendingCommandBuffers, RenderDevice};
use tickarena::gpu::wgpu;

use crate::upload::{Drawn, Instance};

/// The image's side, in pixels.
pub const SIZE: u32 = 512;
const ROW: u32 = SIZE * 4; // 2048: a multiple of 256, as copies need

const SHADER: &str = "
struct Out { @builtin(position) clip: vec4<f32>, @location(0) color: vec4<f32> };
@vertex
fn vs(@builtin(vertex_index) corner: u32, @location(0) position: vec3<f32>,
      @location(1) size: f32, @location(2) color: vec4<f32>) -> Out {
    let offset = vec2<f32>(f32(corner & 1u), f32(corner >> 1u)) * 2.0 - 1.0;
    var out: Out;
    out.clip = vec4<f32>(position.xy + offset * size, position.z, 1.0);
    out.color = color;
    return out;
}
@fragment
fn fs(in: Out) -> @location(0) vec4<f32> { return in.color; }
";

/// The image drawn into, its pipeline, and the buffer it is read back
/// through.
#[derive(Resource)]
pub struct Target {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    pipeline: wgpu::RenderPipeline,
    readback: wgpu::Buffer,
}

/// Read the image back after this frame (set by the main loop).
#[derive(Resource, Default)]
pub struct Capture {
    pub wanted: bool,
    /// The last image read back: RGBA rows of `SIZE` pixels.
    pub image: Vec<u8>,
}

pub fn setup(mut commands: Commands, device: Res<RenderDevice>) {
    let device = device.wgpu_device();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("particles"),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("particles"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let layout = wgpu::VertexBufferLayout {
        array_stride: size_of::<Instance>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32, 2 => Float32x4],
    };
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("particles"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(layout)],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: wgpu::TextureFormat::Rgba8Unorm,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleStrip,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("particles readback"),
        size: u64::from(ROW * SIZE),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    commands.insert_resource(Target {
        texture,
        view,
        pipeline,
        readback,
    });
}

/// Draws the three systems' instances, in order, on an encoder of its
/// own handed to Bevy's pending command buffers (after the uploads').
pub fn draw<A: Drawn + Resource, B: Drawn + Resource, C: Drawn + Resource>(
    (a, b, c): (Res<A>, Res<B>, Res<C>),
    target: Res<Target>,
    capture: Res<Capture>,
    device: Res<RenderDevice>,
    mut pending: ResMut<PendingCommandBuffers>,
) {
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("particles"),
    });
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("particles"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&target.pipeline);
        for (buffer, count) in [a.drawn(), b.drawn(), c.drawn()].into_iter().flatten() {
            if count > 0 {
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..4, 0..count);
            }
        }
    }
    if capture.wanted {
        encoder.copy_texture_to_buffer(
            target.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &target.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(ROW),
                    rows_per_image: None,
                },
            },
            wgpu::Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: 1,
            },
        );
    }
    pending.push_encoder(encoder, "particles");
}

/// After Bevy's render system submitted the frame: the image read back,
/// where asked for.
pub fn read_back(target: Res<Target>, device: Res<RenderDevice>, mut capture: ResMut<Capture>) {
    if !capture.wanted {
        return;
    }
    target
        .readback
        .map_async(wgpu::MapMode::Read, .., |r| r.expect("the image maps"));
    device
        .wgpu_device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes");
    capture.image = target
        .readback
        .get_mapped_range(..)
        .expect("mapped")
        .to_vec();
    target.readback.unmap();
}

/// FNV-1a of the image: equal images, equal hashes.
pub fn hash(image: &[u8]) -> u64 {
    image.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The image as a PNG (stored, uncompressed: no dependency for a
/// screenshot).
pub fn png(image: &[u8]) -> Vec<u8> {
    fn crc(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        let crc = crc(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    // Scanlines with filter 0, in stored deflate blocks.
    let mut raw = Vec::new();
    for row in image.chunks(ROW as usize) {
        raw.push(0);
        raw.extend(row);
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend(len.to_le_bytes());
        zlib.extend((!len).to_le_bytes());
        zlib.extend(*block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    zlib.extend(((b << 16) | a).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend(SIZE.to_be_bytes());
    header.extend(SIZE.to_be_bytes());
    header.extend([8, 6, 0, 0, 0]); // 8 bits, RGBA
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}
