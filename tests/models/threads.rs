//! `ThreadArenas` and its `Collector` from several threads, against a
//! model: frames of jobs on up to four threads, each allocating blocks
//! with a pattern of its own and pushing values to a collector; while the
//! frame lives every block keeps its bytes, the set's `used` holds them,
//! the collector gives back exactly what was pushed; then the set is reset
//! and the next frame reuses the arenas. Blocks under [`JOBS`], whose
//! budget the set's builder gives, are a budget on the frame's sum over
//! the threads: the set's table, its policy's count and the table's
//! `over_budget` all agree with the model's sum.

use tickarena::{BudgetPolicy, FrameArena, Tag, ThreadArenas};

/// The tag of [`Op::Tagged`] blocks, and its budget on the set.
pub const JOBS: Tag = Tag::new("jobs");
const JOBS_BUDGET: usize = 6000;

/// One job's step. Threads and sizes are reduced by [`run`].
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    /// On thread `.0`: a block of `.1` bytes.
    Alloc(u8, u16),
    /// On thread `.0`: a block of `.1` bytes under [`JOBS`].
    Tagged(u8, u16),
    /// On thread `.0`: push `.1` to the frame's collector.
    Push(u8, u32),
    /// Ends the frame: checks it, resets the set.
    Reset,
}

const THREADS: usize = 4;

/// Runs `ops` as frames (each ends at a `Reset`, and at the end).
pub fn run(ops: &[Op]) {
    let builder = FrameArena::builder()
        .budget(JOBS, JOBS_BUDGET)
        .budget_policy(BudgetPolicy::Count);
    let mut arenas = ThreadArenas::with_builder(builder);
    let (mut frames, mut breaches) = (0, 0);
    for frame in ops.split(|op| matches!(op, Op::Reset)) {
        one_frame(&arenas, frame);
        let jobs: usize = frame
            .iter()
            .map(|op| match *op {
                Op::Tagged(_, bytes) => usize::from(bytes % 4096),
                _ => 0,
            })
            .sum();
        let table = arenas.tag_bytes();
        assert_eq!((table.get(JOBS), table.peak(JOBS)), (jobs, jobs));
        arenas.reset();
        frames += 1;
        breaches += u64::from(jobs > JOBS_BUDGET);
        assert_eq!(arenas.used(), 0);
        assert_eq!(arenas.stats().frames, frames);
        let last = arenas.last_frame_tag_bytes();
        let over: Vec<_> = last.over_budget().collect();
        let expected: &[_] = if jobs > JOBS_BUDGET {
            &[(JOBS, jobs, JOBS_BUDGET)]
        } else {
            &[]
        };
        assert_eq!(over, expected, "the last frame's table over its budget");
        assert_eq!(
            arenas.stats().over_budget,
            breaches,
            "the breaches the policy counted"
        );
    }
}

fn one_frame(arenas: &ThreadArenas, ops: &[Op]) {
    let mut collector = arenas.collector::<u32>();
    let blocks: Vec<Vec<(&[u8], u8)>> = std::thread::scope(|scope| {
        let jobs: Vec<_> = (0..THREADS)
            .map(|thread| {
                let collector = &collector;
                scope.spawn(move || {
                    let pattern = 0x11 * (thread as u8 + 1);
                    let mut blocks = Vec::new();
                    for op in ops {
                        match *op {
                            Op::Alloc(on, bytes) if usize::from(on) % THREADS == thread => {
                                let len = usize::from(bytes % 4096);
                                let block = arenas.local().alloc_slice_fill_with(len, |_| pattern);
                                blocks.push((&*block, pattern));
                            }
                            Op::Tagged(on, bytes) if usize::from(on) % THREADS == thread => {
                                let len = usize::from(bytes % 4096);
                                let arena = arenas.local();
                                let _jobs = arena.tag(JOBS);
                                let block = arena.alloc_slice_fill_with(len, |_| pattern);
                                blocks.push((&*block, pattern));
                            }
                            Op::Push(on, value) if usize::from(on) % THREADS == thread => {
                                collector.push(value);
                            }
                            _ => {}
                        }
                    }
                    blocks
                })
            })
            .collect();
        jobs.into_iter().map(|job| job.join().unwrap()).collect()
    });
    let bytes: usize = blocks.iter().flatten().map(|(block, _)| block.len()).sum();
    // The blocks', and the collector's chunks (in the pushing threads'
    // arenas) and table.
    assert!(
        arenas.used() >= bytes,
        "the set holds fewer bytes than its blocks"
    );
    for (block, pattern) in blocks.iter().flatten() {
        assert!(
            block.iter().all(|b| b == pattern),
            "a block's bytes changed"
        );
    }
    let mut pushed: Vec<u32> = ops
        .iter()
        .filter_map(|op| match *op {
            Op::Push(_, value) => Some(value),
            _ => None,
        })
        .collect();
    let mut collected: Vec<u32> = collector.drain().collect();
    pushed.sort_unstable();
    collected.sort_unstable();
    assert_eq!(collected, pushed, "the collector gave back what was pushed");
}
