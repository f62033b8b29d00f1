//! The ways a frame's instances reach the GPU: each builds the frame's
//! instances from their index (all of them, or those that survive a
//! culling: `Work`), uploads them into the destination buffer and submits
//! the frame. `queue.write_buffer_with` and `StagingBelt` are told the
//! frame's size before it is built (they cannot be used without it: a
//! culled frame is given its candidates' size, the most it can need);
//! tickarena's upload arena and the `Vec`s are not: they grow as the
//! instances are pushed.
//!
//! Shared by `examples/gpu_upload` and `benches/gpu_upload.rs`.

use bytemuck::{Pod, Zeroable};

use crate::gpu::Gpu;

/// One instance of a sprite, 32 bytes, as a renderer's vertex buffer
/// holds it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Instance {
    pub position: [f32; 2],
    pub velocity: [f32; 2],
    pub size: f32,
    pub rotation: f32,
    pub color: u32,
    pub id: u32,
}

const _: () = assert!(size_of::<Instance>() == 32);

impl Instance {
    /// Instance `i`, built cheaply (a few multiplications): the data is
    /// not the point, its way to the GPU is.
    #[inline]
    pub fn from_index(i: u32) -> Instance {
        let f = i as f32;
        Instance {
            position: [f * 0.5, f * 0.25],
            velocity: [1.0, -1.0],
            size: 1.0 + (i & 7) as f32,
            rotation: f * 0.01,
            color: i.wrapping_mul(0x9E37_79B9),
            id: i,
        }
    }
}

/// A frame's work: `candidates` instances built from their index, of
/// which, where `cull` is set, a quarter are culled as they are built (as
/// a renderer culls: the count is known only at the end).
#[derive(Clone, Copy, Debug)]
pub struct Work {
    pub candidates: u32,
    pub cull: bool,
}

impl Work {
    /// Whether candidate `i` survives the culling.
    #[inline]
    pub fn kept(self, i: u32) -> bool {
        !self.cull || i % 4 != 3
    }

    /// The instances that survive, in order.
    #[inline]
    pub fn instances(self) -> impl Iterator<Item = Instance> {
        (0..self.candidates)
            .filter(move |&i| self.kept(i))
            .map(Instance::from_index)
    }
}

/// One way to upload a frame.
pub trait Contender: Sized {
    /// The contender's name on the command line and in the output.
    const NAME: &'static str;

    /// Whether it waits for its frames in flight itself (the arena's
    /// `begin_frame` does); the others are waited for by the measuring
    /// loop, as a renderer using them waits.
    const WAITS_ITSELF: bool = false;

    fn new(gpu: &Gpu, instances: u32) -> Self;

    /// Builds the frame's instances, uploads them into `dst` (from offset
    /// 0) and submits the frame.
    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex;

    /// Heap allocations so far inside tickarena's calls (`begin_frame` to
    /// `finish`, and `submitted`), wgpu's inside them included, counted with `count` (the
    /// calling thread's allocations); 0 for the others.
    fn allocations_in_calls(&self) -> u64 {
        0
    }

    /// Staging buffers the contender created so far, where it counts
    /// them (tickarena's arena does); `None` where it does not say.
    fn buffers_created(&self) -> Option<u64> {
        None
    }

    /// What the contender says of itself after its frames (the arena's
    /// statistics).
    fn details(&self) -> Option<String> {
        None
    }
}

/// The names of the contenders, in the order the example runs them.
pub const NAMES: [&str; 6] = [
    UploadArena::<false>::NAME,
    UploadArenaPush::NAME,
    WriteBufferWith::NAME,
    Belt::NAME,
    ReusedVec::NAME,
    FreshVec::NAME,
];

/// Writes the frame's instances into mapped memory, whose length is its
/// candidates', through wgpu's write-only view: all of them through
/// `write_iter`, or, culled, one slot per survivor in a plain loop (as a
/// renderer writes them; the rest of the memory is left as it was).
fn write_instances(out: wgpu::WriteOnly<'_, [u8]>, work: Work) {
    let (slots, rest) = out.into_chunks::<{ size_of::<Instance>() }>();
    debug_assert!(rest.is_empty());
    if !work.cull {
        slots.write_iter((0..work.candidates).map(|i| bytemuck::cast(Instance::from_index(i))));
        return;
    }
    let mut slots = slots.into_iter();
    for i in 0..work.candidates {
        if work.kept(i)
            && let Some(slot) = slots.next()
        {
            slot.write(bytemuck::cast(Instance::from_index(i)));
        }
    }
}

fn bytes(n: u32) -> wgpu::BufferSize {
    wgpu::BufferSize::new(u64::from(n) * size_of::<Instance>() as u64)
        .expect("at least one instance")
}

fn submit(gpu: &Gpu, encoder: wgpu::CommandEncoder) -> wgpu::SubmissionIndex {
    gpu.queue.submit([encoder.finish()])
}

fn encoder(gpu: &Gpu) -> wgpu::CommandEncoder {
    gpu.device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None })
}

/// `queue.write_buffer_with`: wgpu's staging memory, mapped, the size
/// given first.
pub struct WriteBufferWith;

impl Contender for WriteBufferWith {
    const NAME: &'static str = "write_buffer_with";

    fn new(_: &Gpu, _: u32) -> Self {
        WriteBufferWith
    }

    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex {
        let mut view = gpu
            .queue
            .write_buffer_with(dst, 0, bytes(work.candidates))
            .expect("a write within the destination");
        write_instances(view.slice(..), work);
        drop(view);
        submit(gpu, encoder(gpu))
    }
}

/// `wgpu::util::StagingBelt`, sized by hand as a careful programmer
/// sizes it: its chunks hold the largest frame (a burst's, where there
/// are bursts), recalled after each submit.
pub struct Belt(wgpu::util::StagingBelt);

impl Contender for Belt {
    const NAME: &'static str = "staging_belt";

    fn new(gpu: &Gpu, instances: u32) -> Self {
        Belt(wgpu::util::StagingBelt::new(
            gpu.device.clone(),
            bytes(instances).get(),
        ))
    }

    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex {
        let mut encoder = encoder(gpu);
        let mut view = self
            .0
            .write_buffer(&mut encoder, dst, 0, bytes(work.candidates));
        write_instances(view.slice(..), work);
        drop(view);
        self.0.finish();
        let index = submit(gpu, encoder);
        self.0.recall();
        index
    }
}

/// A `Vec` kept across frames, cleared and filled, then
/// `queue.write_buffer` (which copies it into wgpu's staging memory).
pub struct ReusedVec(Vec<Instance>);

impl Contender for ReusedVec {
    const NAME: &'static str = "reused_vec";

    fn new(_: &Gpu, _: u32) -> Self {
        ReusedVec(Vec::new())
    }

    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex {
        self.0.clear();
        for i in 0..work.candidates {
            if work.kept(i) {
                self.0.push(Instance::from_index(i));
            }
        }
        gpu.queue
            .write_buffer(dst, 0, bytemuck::cast_slice(&self.0));
        submit(gpu, encoder(gpu))
    }
}

/// A new `Vec` each frame, grown as it is filled, then
/// `queue.write_buffer`.
pub struct FreshVec;

impl Contender for FreshVec {
    const NAME: &'static str = "fresh_vec";

    fn new(_: &Gpu, _: u32) -> Self {
        FreshVec
    }

    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex {
        let mut instances = Vec::new();
        for i in 0..work.candidates {
            if work.kept(i) {
                instances.push(Instance::from_index(i));
            }
        }
        gpu.queue
            .write_buffer(dst, 0, bytemuck::cast_slice(&instances));
        submit(gpu, encoder(gpu))
    }
}

/// tickarena's upload arena (`tickarena::gpu`), its default settings
/// (chunks from 1 MiB, growing to fit the frame; 2 frames in flight): the
/// instances written straight into mapped staging memory, the size not
/// given. `PUSH`: one `push` per
/// instance; otherwise `extend` from an iterator (which the arena writes
/// into the open segment's free room, one slot of the element's size each,
/// never asking its length).
pub struct UploadArena<const PUSH: bool = false> {
    arena: tickarena::gpu::UploadArena,
    count: fn() -> u64,
    allocations_in_calls: u64,
}

/// The arena, one `push` per instance.
pub type UploadArenaPush = UploadArena<true>;

impl<const PUSH: bool> UploadArena<PUSH> {
    /// `count` reads the calling thread's heap allocations (the benches,
    /// which do not count, pass `|| 0`).
    pub fn with_counter(gpu: &Gpu, _instances: u32, count: fn() -> u64) -> Self {
        UploadArena {
            arena: tickarena::gpu::UploadArena::new(&gpu.device, Default::default()),
            count,
            allocations_in_calls: 0,
        }
    }
}

impl<const PUSH: bool> Contender for UploadArena<PUSH> {
    const NAME: &'static str = if PUSH { "arena_push" } else { "arena" };
    const WAITS_ITSELF: bool = true;

    fn new(gpu: &Gpu, instances: u32) -> Self {
        UploadArena::with_counter(gpu, instances, || 0)
    }

    fn frame(&mut self, gpu: &Gpu, work: Work, dst: &wgpu::Buffer) -> wgpu::SubmissionIndex {
        let mut encoder = encoder(gpu);
        // tickarena's calls, from `begin_frame` to `finish`, counted.
        let before = (self.count)();
        let mut frame = self
            .arena
            .begin_frame()
            .expect("a frame of the upload arena");
        let mut instances = frame.upload::<Instance>().expect("an upload");
        if PUSH {
            for i in 0..work.candidates {
                if work.kept(i) {
                    instances
                        .push(Instance::from_index(i))
                        .expect("room for the frame");
                }
            }
        } else {
            instances
                .extend(work.instances())
                .expect("room for the frame");
        }
        let instances = instances.finish();
        frame
            .copy_to(&instances, dst, 0)
            .expect("a copy within the destination");
        frame.finish(&mut encoder);
        self.allocations_in_calls += (self.count)() - before;
        let index = submit(gpu, encoder);
        // Told the submission, the arena maps the frame's chunks again
        // itself (counted as tickarena's call too).
        let before = (self.count)();
        self.arena.submitted(index.clone());
        self.allocations_in_calls += (self.count)() - before;
        index
    }

    fn allocations_in_calls(&self) -> u64 {
        self.allocations_in_calls
    }

    fn buffers_created(&self) -> Option<u64> {
        Some(self.arena.stats().buffers_created)
    }

    fn details(&self) -> Option<String> {
        Some(format!("{:?}", self.arena.stats()))
    }
}
