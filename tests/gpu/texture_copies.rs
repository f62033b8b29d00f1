//! `UploadFrame::copy_to_texture` against wgpu itself, the reference:
//! every case uploads pseudo-random texels (after a prefix upload, so the
//! texels start at various offsets), asks for a copy into a texture
//! (various formats, dimensions, mip levels, origins, bytes_per_row
//! paddings, chunk sizes small enough to split mid-row), records the
//! readback of the whole mip level on the same encoder, and compares the
//! texture byte for byte with the naive expectation (zeros outside the
//! copied box). wgpu validation errors are captured by an error scope
//! (instead of the default handler's panic) so every case is classified:
//!
//! * `ok`: accepted, texture matches;
//! * `MISMATCH`: accepted, wgpu happy, texture differs (a bug);
//! * `ACCEPTED_BUT_WGPU_REFUSED`: accepted by the arena, wgpu raised a
//!   validation error (under the default handler: a panic at
//!   `encoder.finish()`);
//! * `refused_wgpu_agrees`: refused, and the same copy done as one copy
//!   from a plain buffer (data at the same offset mod 256) is refused by
//!   wgpu too;
//! * `refused_wgpu_would_accept`: refused, but wgpu accepts the same copy
//!   from one contiguous buffer (an arena limitation).

use std::collections::BTreeMap;

use bytemuck::Pod;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tickarena::gpu::{UploadArena, UploadConfig, UploadError};

fn ready<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::yield_now();
    }
}

/// A device with BC compression where the adapter has it.
fn device() -> (wgpu::Device, wgpu::Queue, bool) {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = ready(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("no adapter");
    let bc = adapter
        .features()
        .contains(wgpu::Features::TEXTURE_COMPRESSION_BC);
    let descriptor = wgpu::DeviceDescriptor {
        required_features: if bc {
            wgpu::Features::TEXTURE_COMPRESSION_BC
        } else {
            wgpu::Features::empty()
        },
        ..Default::default()
    };
    let (device, queue) = ready(adapter.request_device(&descriptor)).unwrap();
    eprintln!("adapter: {:?}, BC: {bc}", adapter.get_info().name);
    (device, queue, bc)
}

#[derive(Clone, Debug)]
struct Case {
    format: wgpu::TextureFormat,
    dimension: wgpu::TextureDimension,
    /// Texture size at mip 0.
    tex: wgpu::Extent3d,
    mips: u32,
    mip: u32,
    origin: wgpu::Origin3d,
    size: wgpu::Extent3d,
    bytes_per_row: u32,
    /// u32 words uploaded before the texels.
    prefix: usize,
    /// Element size of the texel upload (bytes).
    elem: usize,
    chunk: u64,
    aspect: wgpu::TextureAspect,
    sample_count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Ok,
    Mismatch(String),
    AcceptedButWgpuRefused(String),
    RefusedWgpuAgrees(String),
    RefusedWgpuWouldAccept(String),
    /// Arena panicked inside copy_to_texture.
    ArenaPanicked(String),
    Setup(String),
}

impl Outcome {
    fn key(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Mismatch(_) => "MISMATCH",
            Outcome::AcceptedButWgpuRefused(_) => "ACCEPTED_BUT_WGPU_REFUSED",
            Outcome::RefusedWgpuAgrees(_) => "refused_wgpu_agrees",
            Outcome::RefusedWgpuWouldAccept(_) => "refused_wgpu_would_accept",
            Outcome::ArenaPanicked(_) => "ARENA_PANICKED",
            Outcome::Setup(_) => "setup_failed",
        }
    }
}

fn block_info(format: wgpu::TextureFormat, aspect: wgpu::TextureAspect) -> (u32, u32, u32) {
    let block = format.block_copy_size(Some(aspect)).unwrap_or(
        format
            .block_copy_size(Some(wgpu::TextureAspect::StencilOnly))
            .unwrap_or(4),
    );
    let (bw, bh) = format.block_dimensions();
    (block, bw, bh)
}

/// Texel bytes that are never NaN/Inf for float formats (copies are
/// bitwise anyway; this only avoids any canonicalisation doubt).
fn random_bytes(rng: &mut SmallRng, format: wgpu::TextureFormat, n: usize) -> Vec<u8> {
    let mut bytes: Vec<u8> = (0..n).map(|_| rng.random()).collect();
    use wgpu::TextureFormat as F;
    match format {
        F::R32Float | F::Rg32Float | F::Rgba32Float => {
            for i in (3..n).step_by(4) {
                bytes[i] &= 0xBF;
            }
        }
        F::R16Float | F::Rg16Float | F::Rgba16Float => {
            for i in (1..n).step_by(2) {
                bytes[i] &= 0xBF;
            }
        }
        F::Depth16Unorm => {}
        _ => {}
    }
    bytes
}

fn upload_as<'a, E: Pod>(
    frame: &mut tickarena::gpu::UploadFrame<'a>,
    bytes: &[u8],
) -> Result<tickarena::gpu::Upload<'a>, UploadError> {
    let elems: Vec<E> = bytes
        .chunks_exact(size_of::<E>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    let mut writer = frame.upload::<E>()?;
    // Mix push and extend_from_slice.
    let half = elems.len() / 2;
    for e in &elems[..half] {
        writer.push(*e)?;
    }
    writer.extend_from_slice(&elems[half..])?;
    Ok(writer.finish())
}

fn mip_extent(case: &Case) -> wgpu::Extent3d {
    let desc = texture_desc(case);
    desc.mip_level_size(case.mip)
        .unwrap_or(wgpu::Extent3d {
            width: 1,
            height: 1,
            depth_or_array_layers: 1,
        })
        .physical_size(case.format)
}

fn texture_desc(case: &Case) -> wgpu::TextureDescriptor<'static> {
    let mut usage = wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC;
    if case.sample_count > 1 {
        usage |= wgpu::TextureUsages::RENDER_ATTACHMENT;
    }
    wgpu::TextureDescriptor {
        label: Some("copy_to_texture"),
        size: case.tex,
        mip_level_count: case.mips,
        sample_count: case.sample_count,
        dimension: case.dimension,
        format: case.format,
        usage,
        view_formats: &[],
    }
}

/// The bytes the upload holds for the copy: rows `bytes_per_row` apart,
/// `rows_per_image * layers` rows, the last one full stride (so a split
/// anywhere stays inside the upload).
fn upload_len(case: &Case) -> usize {
    let (block, bw, bh) = block_info(case.format, case.aspect);
    let _ = (block, bw);
    let rows = case.size.height.div_ceil(bh) as usize * case.size.depth_or_array_layers as usize;
    let len = rows * case.bytes_per_row as usize;
    // whole elements
    len.next_multiple_of(case.elem).max(case.elem)
}

fn run_case(device: &wgpu::Device, queue: &wgpu::Queue, case: &Case, seed: u64) -> Outcome {
    let mut rng = SmallRng::seed_from_u64(seed);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let texture = device.create_texture(&texture_desc(case));
    if let Some(e) = ready(scope.pop()) {
        return Outcome::Setup(format!("texture: {e}"));
    }
    let len = upload_len(case);
    let data = random_bytes(&mut rng, case.format, len);
    let mut arena = UploadArena::new(
        device,
        UploadConfig {
            chunk_size: case.chunk,
            ..Default::default()
        },
    );
    let mut frame = arena.begin_frame().unwrap();
    if case.prefix > 0 {
        let _ = frame
            .upload_slice(&vec![0xEEEE_EEEEu32; case.prefix])
            .unwrap();
    }
    let upload = match case.elem {
        1 => upload_as::<u8>(&mut frame, &data),
        2 => upload_as::<u16>(&mut frame, &data),
        4 => upload_as::<u32>(&mut frame, &data),
        8 => upload_as::<[u32; 2]>(&mut frame, &data),
        16 => upload_as::<[u32; 4]>(&mut frame, &data),
        _ => unreachable!(),
    };
    let upload = match upload {
        Ok(u) => u,
        Err(e) => return Outcome::Setup(format!("upload: {e}")),
    };
    let segments: Vec<_> = frame.segments(&upload).unwrap().collect();
    let start_in_chunk = segments.first().map_or(0, |s| s.offset);
    let dst = wgpu::TexelCopyTextureInfo {
        texture: &texture,
        mip_level: case.mip,
        origin: case.origin,
        aspect: case.aspect,
    };
    let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        frame.copy_to_texture(&upload, dst, case.bytes_per_row, case.size)
    }));
    let asked = match asked {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Outcome::ArenaPanicked(msg);
        }
    };
    if let Err(error) = asked {
        frame.discard();
        // Would wgpu refuse the same copy from one contiguous buffer with
        // the data at the same chunk offset?
        let offset = start_in_chunk;
        let src = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (offset + len as u64).next_multiple_of(4).max(4),
            usage: wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: &src,
                layout: wgpu::TexelCopyBufferLayout {
                    offset,
                    bytes_per_row: Some(case.bytes_per_row),
                    rows_per_image: Some(
                        case.size.height.div_ceil(case.format.block_dimensions().1),
                    ),
                },
            },
            dst,
            case.size,
        );
        queue.submit([encoder.finish()]);
        return match ready(scope.pop()) {
            Some(e) => Outcome::RefusedWgpuAgrees(format!("{error} / wgpu: {}", first_line(&e))),
            None => Outcome::RefusedWgpuWouldAccept(format!("{error}")),
        };
    }
    // Accepted: finish, read the whole mip level back, compare.
    let extent = mip_extent(case);
    let (block, bw, bh) = block_info(case.format, case.aspect);
    let row_blocks = extent.width.div_ceil(bw);
    let read_bpr = (row_blocks * block).next_multiple_of(256);
    let read_rows = extent.height.div_ceil(bh);
    let read_layers = match case.dimension {
        wgpu::TextureDimension::D3 => extent.depth_or_array_layers,
        _ => case.tex.depth_or_array_layers,
    };
    let read_len = u64::from(read_bpr) * u64::from(read_rows) * u64::from(read_layers);
    let read = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: read_len,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    frame.finish(&mut encoder);
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: case.mip,
            origin: wgpu::Origin3d::ZERO,
            aspect: case.aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &read,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(read_bpr),
                rows_per_image: Some(read_rows),
            },
        },
        wgpu::Extent3d {
            width: extent.width,
            height: extent.height,
            depth_or_array_layers: read_layers,
        },
    );
    let cb = encoder.finish();
    let index = queue.submit([cb]);
    arena.submitted(index);
    if let Some(e) = ready(scope.pop()) {
        return Outcome::AcceptedButWgpuRefused(first_line(&e));
    }
    read.map_async(wgpu::MapMode::Read, .., |r| r.unwrap());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let got = read.get_mapped_range(..).unwrap().to_vec();
    read.unmap();
    // Expected.
    let rpi = case.size.height.div_ceil(bh) as usize;
    let (ox, oy, oz) = (
        (case.origin.x / bw) as usize,
        (case.origin.y / bh) as usize,
        case.origin.z as usize,
    );
    let (cw, ch, cd) = (
        case.size.width.div_ceil(bw) as usize,
        rpi,
        case.size.depth_or_array_layers as usize,
    );
    let block = block as usize;
    let mut bad = 0usize;
    let mut first_bad = String::new();
    for z in 0..read_layers as usize {
        for y in 0..read_rows as usize {
            for x in 0..row_blocks as usize {
                let at = (z * read_rows as usize + y) * read_bpr as usize + x * block;
                let inside = (ox..ox + cw).contains(&x)
                    && (oy..oy + ch).contains(&y)
                    && (oz..oz + cd).contains(&z);
                let expected: &[u8] = if inside {
                    let (ux, uy, uz) = (x - ox, y - oy, z - oz);
                    let from = (uz * rpi + uy) * case.bytes_per_row as usize + ux * block;
                    &data[from..from + block]
                } else {
                    &[0u8; 16][..block]
                };
                if got[at..at + block] != *expected {
                    if bad == 0 {
                        first_bad = format!(
                            "block ({x},{y},{z}) inside={inside}: got {:?} expected {:?}",
                            &got[at..at + block],
                            expected
                        );
                    }
                    bad += 1;
                }
            }
        }
    }
    if bad > 0 {
        Outcome::Mismatch(format!("{bad} blocks differ; first {first_bad}"))
    } else {
        Outcome::Ok
    }
}

fn first_line(e: &wgpu::Error) -> String {
    let s = format!("{e}");
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
        .chars()
        .take(300)
        .collect()
}

fn ext(width: u32, height: u32, depth_or_array_layers: u32) -> wgpu::Extent3d {
    wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers,
    }
}

fn org(x: u32, y: u32, z: u32) -> wgpu::Origin3d {
    wgpu::Origin3d { x, y, z }
}

fn base(format: wgpu::TextureFormat, w: u32, h: u32) -> Case {
    let block = format.block_copy_size(None).unwrap_or(2);
    Case {
        format,
        dimension: wgpu::TextureDimension::D2,
        tex: ext(w, h, 1),
        mips: 1,
        mip: 0,
        origin: org(0, 0, 0),
        size: ext(w, h, 1),
        bytes_per_row: (w.div_ceil(format.block_dimensions().0) * block).next_multiple_of(256),
        prefix: 0,
        elem: block.min(16) as usize,
        chunk: 1 << 20,
        aspect: wgpu::TextureAspect::All,
        sample_count: 1,
    }
}

const FORMATS: &[(wgpu::TextureFormat, usize)] = &[
    (wgpu::TextureFormat::R8Unorm, 1),
    (wgpu::TextureFormat::Rg8Unorm, 2),
    (wgpu::TextureFormat::Rgba8Unorm, 4),
    (wgpu::TextureFormat::R32Float, 4),
    (wgpu::TextureFormat::Rgba16Float, 8),
    (wgpu::TextureFormat::Rgba32Float, 16),
];

/// Random valid requests (inside the texture), chunk sizes small enough to
/// split uploads, several per row. All must be `ok`, or refusals wgpu
/// agrees with; anything else is reported.
#[test]
fn random_texture_copies_land_byte_for_byte() {
    let (device, queue, _bc) = device();
    let cases: usize = std::env::var("TICKARENA_TEXTURE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rng = SmallRng::seed_from_u64(0x5EED);
    let mut tally: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut examples: BTreeMap<String, (Case, Outcome)> = BTreeMap::new();
    let mut split_ok = 0;
    for i in 0..cases {
        let (format, block) = FORMATS[rng.random_range(0..FORMATS.len())];
        let dim = rng.random_range(0..10);
        let (dimension, mut tex) = match dim {
            0 => (
                wgpu::TextureDimension::D1,
                ext(rng.random_range(1..200), 1, 1),
            ),
            1 => (
                wgpu::TextureDimension::D3,
                ext(
                    rng.random_range(1..80),
                    rng.random_range(1..12),
                    rng.random_range(1..4),
                ),
            ),
            2 | 3 => (
                wgpu::TextureDimension::D2,
                ext(
                    rng.random_range(1..80),
                    rng.random_range(1..12),
                    rng.random_range(2..4),
                ),
            ),
            _ => (
                wgpu::TextureDimension::D2,
                ext(rng.random_range(1..150), rng.random_range(1..21), 1),
            ),
        };
        let max_mips = if dimension == wgpu::TextureDimension::D1 {
            1
        } else {
            tex.max_mips(dimension)
        };
        let mips = rng.random_range(1..=max_mips.min(4));
        let mip = rng.random_range(0..mips);
        let desc = wgpu::TextureDescriptor {
            label: None,
            size: tex,
            mip_level_count: mips,
            sample_count: 1,
            dimension,
            format,
            usage: wgpu::TextureUsages::empty(),
            view_formats: &[],
        };
        let level = desc.mip_level_size(mip).unwrap();
        // A box inside the level.
        let w = rng.random_range(1..=level.width);
        let h = rng.random_range(1..=level.height);
        let d = rng.random_range(1..=level.depth_or_array_layers);
        // Layers > 1 in a quarter of the cases that can have them.
        let d = if rng.random_range(0..4) == 0 { d } else { 1 };
        let origin = org(
            rng.random_range(0..=level.width - w),
            rng.random_range(0..=level.height - h),
            rng.random_range(0..=level.depth_or_array_layers - d),
        );
        if dimension == wgpu::TextureDimension::D1 {
            tex.height = 1;
        }
        let row = w as usize * block;
        let pad = rng.random_range(0..3u32);
        let bytes_per_row = (row as u32).next_multiple_of(256) + 256 * pad;
        // Element: the texel size or a divisor of it (u8 / u16 / u32 ...).
        let elems: Vec<usize> = [1, 2, 4, 8, 16]
            .into_iter()
            .filter(|e| *e <= block.max(4) && (block % e == 0 || *e == 4))
            .collect();
        let elem = elems[rng.random_range(0..elems.len())];
        let total = (h as u64 * d as u64) * u64::from(bytes_per_row);
        // Chunk small enough to split mid-row, at least one unit (16).
        let chunk = match rng.random_range(0..4) {
            0 => 1 << 20,
            1 => rng.random_range(16..=64) * 4,
            _ => rng.random_range(4..=(total / 4).max(4) + 64) * 4,
        };
        let case = Case {
            format,
            dimension,
            tex,
            mips,
            mip,
            origin,
            size: ext(w, h, d),
            bytes_per_row,
            prefix: rng.random_range(0..80),
            elem,
            chunk,
            aspect: wgpu::TextureAspect::All,
            sample_count: 1,
        };
        let outcome = run_case(&device, &queue, &case, i as u64);
        if outcome == Outcome::Ok && case.chunk < total {
            split_ok += 1;
        }
        *tally.entry(outcome.key()).or_default() += 1;
        let detail = match &outcome {
            Outcome::Ok => String::new(),
            Outcome::Mismatch(s)
            | Outcome::AcceptedButWgpuRefused(s)
            | Outcome::RefusedWgpuAgrees(s)
            | Outcome::RefusedWgpuWouldAccept(s)
            | Outcome::ArenaPanicked(s)
            | Outcome::Setup(s) => s.chars().take(90).collect(),
        };
        let key = format!("{} {}", outcome.key(), detail);
        examples.entry(key).or_insert((case, outcome));
    }
    eprintln!(
        "tally over {cases} random cases: {tally:?} (ok with a chunk smaller than the copy: {split_ok})"
    );
    for (key, (case, _)) in &examples {
        if key.starts_with("ok") {
            continue;
        }
        eprintln!("--- {key}\n    {case:?}");
    }
    let bad: Vec<_> = examples
        .keys()
        .filter(|k| {
            k.starts_with("MISMATCH") || k.starts_with("ACCEPTED") || k.starts_with("ARENA")
        })
        .collect();
    assert!(bad.is_empty(), "bad outcomes: {bad:#?}");
}

/// Hand-picked cases: each printed with its outcome; the test fails on
/// any MISMATCH / ACCEPTED_BUT_WGPU_REFUSED / ARENA_PANICKED.
#[test]
#[allow(
    clippy::vec_init_then_push,
    reason = "one case a push, each with its comment"
)]
fn edge_cases_of_copy_to_texture() {
    use wgpu::TextureFormat as F;
    let (device, queue, bc) = device();
    let mut cases: Vec<(&str, Case)> = Vec::new();
    // 1. Depth16Unorm, one segment: whole subresource.
    cases.push(("depth16 whole, one segment", base(F::Depth16Unorm, 64, 8)));
    // 2. Depth16Unorm crossing chunk ends (partial copies).
    cases.push((
        "depth16 whole, split across chunks",
        Case {
            chunk: 300,
            elem: 2,
            ..base(F::Depth16Unorm, 64, 8)
        },
    ));
    // 3. Stencil8 crossing chunk ends.
    cases.push((
        "stencil8 whole, split across chunks",
        Case {
            chunk: 300,
            elem: 1,
            ..base(F::Stencil8, 100, 8)
        },
    ));
    // 4. Depth32Float: never a copy destination.
    cases.push((
        "depth32float (CopyToForbiddenTextureFormat)",
        base(F::Depth32Float, 64, 4),
    ));
    // 5. Depth24PlusStencil8 depth aspect: forbidden.
    cases.push((
        "depth24plus-stencil8 DepthOnly",
        Case {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..base(F::Depth24PlusStencil8, 64, 4)
        },
    ));
    // 6. Colour format with DepthOnly aspect.
    cases.push((
        "rgba8 with DepthOnly aspect",
        Case {
            aspect: wgpu::TextureAspect::DepthOnly,
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 7. Copy larger than the texture (overrun).
    cases.push((
        "rgba8 copy overruns the texture",
        Case {
            size: ext(64, 8, 1),
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 8. Origin past the end.
    cases.push((
        "rgba8 origin.x + width past the end",
        Case {
            origin: org(10, 0, 0),
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 9. Mip level past the count.
    cases.push((
        "rgba8 mip_level 1 of a 1-mip texture",
        Case {
            mip: 1,
            size: ext(32, 2, 1),
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 10. Multisampled destination.
    cases.push((
        "rgba8 sample_count 4",
        Case {
            sample_count: 4,
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 11. Array layers, split across chunk ends (refused by the arena).
    cases.push((
        "rgba8 3 layers split across chunks",
        Case {
            tex: ext(64, 4, 3),
            size: ext(64, 4, 3),
            chunk: 1024,
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 12. Rgba32Float after a 4-byte prefix: start off the block size.
    cases.push((
        "rgba32float after a 1-word prefix",
        Case {
            prefix: 1,
            ..base(F::Rgba32Float, 16, 4)
        },
    ));
    // 13. Rgba32Float from u8 elements split inside a texel.
    cases.push((
        "rgba32float from u8 elements, chunk 1000",
        Case {
            elem: 1,
            chunk: 1000,
            ..base(F::Rgba32Float, 16, 4)
        },
    ));
    // 14. Zero-size copy into a texture lacking nothing.
    cases.push((
        "width 0",
        Case {
            size: ext(0, 4, 1),
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 15. bytes_per_row 256 with width 64 rgba8 but height 1 and
    // bytes_per_row 0 (wgpu allows bytes_per_row None for one row; the
    // arena requires Some multiple of 256).
    cases.push((
        "height 1, bytes_per_row 0",
        Case {
            size: ext(64, 1, 1),
            bytes_per_row: 0,
            ..base(F::Rgba8Unorm, 64, 4)
        },
    ));
    // 16. Origin at a mip > 0, split mid-row.
    cases.push((
        "rgba8 mip 2 origin (3,1) split mid-row",
        Case {
            tex: ext(200, 40, 1),
            mips: 3,
            mip: 2,
            origin: org(3, 1, 0),
            size: ext(47, 9, 1),
            chunk: 200,
            prefix: 7,
            ..base(F::Rgba8Unorm, 200, 40)
        },
    ));
    // 17. 3D texture depth 3, one segment.
    cases.push((
        "rgba16float 3D depth 3, one segment",
        Case {
            dimension: wgpu::TextureDimension::D3,
            tex: ext(30, 5, 3),
            size: ext(30, 5, 3),
            ..base(F::Rgba16Float, 30, 5)
        },
    ));
    if bc {
        // 18. BC1 (8-byte 4x4 blocks): 64x64, split mid-row.
        cases.push((
            "bc1 64x64 split mid-row",
            Case {
                chunk: 200,
                elem: 8,
                bytes_per_row: 256,
                ..base(F::Bc1RgbaUnorm, 64, 64)
            },
        ));
        // 19. BC1 at mip 3 of 32x32 (4x4), mip 4 (2x2 virtual, 4x4 physical).
        cases.push((
            "bc1 mip 4 (2x2 virtual) copy 4x4 physical",
            Case {
                tex: ext(32, 32, 1),
                mips: 6,
                mip: 4,
                size: ext(4, 4, 1),
                elem: 8,
                bytes_per_row: 256,
                ..base(F::Bc1RgbaUnorm, 32, 32)
            },
        ));
        // 20. BC3 (16-byte blocks) 40x12, split.
        cases.push((
            "bc3 40x12 split",
            Case {
                chunk: 300,
                elem: 16,
                bytes_per_row: 256,
                ..base(F::Bc3RgbaUnorm, 40, 12)
            },
        ));
        // 21. BC1 with height not a multiple of the block (wgpu refuses).
        cases.push((
            "bc1 copy height 6",
            Case {
                size: ext(16, 6, 1),
                elem: 8,
                bytes_per_row: 256,
                ..base(F::Bc1RgbaUnorm, 16, 16)
            },
        ));
    }
    let mut bad = Vec::new();
    for (i, (name, case)) in cases.iter().enumerate() {
        let outcome = run_case(&device, &queue, case, 1000 + i as u64);
        eprintln!("[{name}] => {outcome:?}");
        if matches!(
            outcome,
            Outcome::Mismatch(_) | Outcome::AcceptedButWgpuRefused(_) | Outcome::ArenaPanicked(_)
        ) {
            bad.push(*name);
        }
    }
    assert!(bad.is_empty(), "bad: {bad:?}");
}

/// Arithmetic on a huge (invalid) extent: an overflow panic in the arena
/// instead of an error.
#[test]
fn huge_extent_is_an_error_not_a_panic() {
    let (device, _queue, _) = device();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: ext(64, 4, 1),
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut arena = UploadArena::new(&device, UploadConfig::default());
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[0u32; 256]).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        frame.copy_to_texture(
            &upload,
            texture.as_image_copy(),
            256 * 1024,
            ext(64, u32::MAX, u32::MAX),
        )
    }));
    eprintln!("huge extent: {r:?}");
    assert!(r.is_ok(), "copy_to_texture panicked on a huge extent");
}
