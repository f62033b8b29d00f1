//! In steady state a tick makes no heap allocation: after warm-up, 1000
//! ticks of a loop that formats strings, boxes actions and builds scratch
//! vectors, all in the frame arena, leave the global allocator untouched;
//! so do ticks that fan work out to worker threads through `ThreadArenas`.
//!
//! Its own test binary: the counting `#[global_allocator]` sees every
//! thread, and counts the threads a test has enrolled (its own, its
//! workers): never libtest's, which allocates to start the next test and
//! report the last one while a test is measuring. The tests take turns
//! (`ONE_AT_A_TIME`) so that each counts only its own allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{Action, FixedTimestep, Frame, FrameLoop, Game};

#[allow(
    dead_code,
    reason = "shared with the example, which reads other fields"
)]
#[path = "../examples/support/first_game.rs"]
mod first_game;
#[allow(
    dead_code,
    reason = "shared with the example, which reads the process's"
)]
#[path = "../examples/support/page_faults.rs"]
mod page_faults;
use page_faults::minor_faults_of_this_thread;
use tickarena::{FrameArena, SegmentedList, Tag, format_in};

/// Counts allocations made by enrolled threads.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations count. `const` and without a
    /// destructor: reading it never allocates, even while the thread exits.
    static ENROLLED: Cell<bool> = const { Cell::new(false) };
}

/// Counts the calling thread's allocations from now on.
fn enroll_this_thread() {
    ENROLLED.with(|enrolled| enrolled.set(true));
}

fn count_one() {
    if ENROLLED.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Held by each test, so the counts of one are not the allocations of another.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Enrolled rayon workers not yet ended. A pool's threads end after the
/// pool is dropped, on their own time: a test waits for its workers to end
/// before it lets the next test count (their last allocations, rayon's and
/// crossbeam's teardown, once landed in the next test's count).
static RAYON_WORKERS: AtomicUsize = AtomicUsize::new(0);

/// A pool of two rayon workers, enrolled while they run.
fn enrolled_pool_of_two() -> rayon::ThreadPool {
    RAYON_WORKERS.fetch_add(2, Ordering::SeqCst);
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| enroll_this_thread())
        .exit_handler(|_| {
            ENROLLED.with(|enrolled| enrolled.set(false));
            RAYON_WORKERS.fetch_sub(1, Ordering::SeqCst);
        })
        .build()
        .unwrap()
}

/// Waits until every enrolled rayon worker has ended (its pool dropped).
fn wait_for_rayon_workers_to_end() {
    while RAYON_WORKERS.load(Ordering::SeqCst) > 0 {
        std::thread::yield_now();
    }
}

// SAFETY: forwards to `System`, which upholds the `GlobalAlloc` contract;
// the counter is an atomic and the flag a `const` thread-local, so counting
// never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

struct World {
    entities: SegmentedList<[f32; 4]>,
    checksum: u64,
}

/// The commands' allocations: a tag with a budget that every frame goes
/// over, so that recording, checking and reporting run every tick.
const COMMANDS: Tag = Tag::new("commands");
const VISIBILITY: Tag = Tag::new("visibility");
static BREACHES: AtomicU64 = AtomicU64::new(0);

fn count_breach(_: &tickarena::Breach) {
    BREACHES.fetch_add(1, Ordering::Relaxed);
}

enum Event {
    Spawn(f32),
    Command(u32),
}

struct Spawn(f32);

impl Action<World> for Spawn {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        if world.entities.len() < 500 {
            world.entities.push([self.0; 4]);
        } else {
            world.entities.swap_remove(0);
        }
    }
}

struct Run<'f> {
    command: tickarena::String<&'f FrameArena>,
    arguments: Vec<tickarena::String<&'f FrameArena>, &'f FrameArena>,
}

impl Action<World> for Run<'_> {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        world.checksum +=
            self.command.len() as u64 + self.arguments.iter().map(|a| a.len() as u64).sum::<u64>();
    }
}

impl Game for World {
    type Event = Event;
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, event: Event, frame: &mut Frame<'f, Self>) {
        match event {
            Event::Spawn(x) => frame.push(Spawn(x)),
            Event::Command(n) => {
                let arena = frame.arena();
                let _commands = arena.tag(COMMANDS);
                let mut arguments = Vec::new_in(arena);
                for i in 0..3 {
                    arguments.push(format_in!(arena, "--flag-{i}={n}"));
                }
                let command = format_in!(arena, "ls -a | sed -n {n}p | xargs rm -rf");
                frame.push(Run { command, arguments });
            }
        }
    }

    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let _visibility = frame.arena().tag(VISIBILITY);
        let mut visible = Vec::new_in(frame.arena());
        visible.extend(self.entities.iter().filter(|e| e[0] > 0.5).map(|e| e[1]));
        self.checksum += visible.len() as u64;
    }
}

#[test]
fn steady_ticks_make_no_heap_allocation() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    enroll_this_thread();
    // Tags, a budget breached every frame and its hook: recording them
    // makes no allocation either.
    let arena = FrameArena::builder()
        .budget(COMMANDS, 1024)
        .budget_policy(tickarena::BudgetPolicy::Hook(count_breach))
        .build()
        .unwrap();
    let world = World {
        entities: SegmentedList::new(),
        checksum: 0,
    };
    let mut game = FrameLoop::with_parts(world, arena, FixedTimestep::default(), 240);
    let step = game.step();
    let events = |tick: u32| {
        (0..200u32).map(move |i| {
            if i % 2 == 0 {
                Event::Spawn((i % 7) as f32 / 7.0)
            } else {
                Event::Command(tick + i)
            }
        })
    };
    // Warm-up: the world's list reaches its size, the arena commits its pages.
    for tick in 0..200 {
        game.tick(events(tick), step);
    }
    let before = allocations();
    for tick in 200..1200 {
        game.tick(events(tick), step);
    }
    let during = allocations() - before;
    assert_eq!(
        during, 0,
        "1000 steady ticks made {during} heap allocations"
    );
    assert!(game.world().checksum > 0);
    assert!(game.history().high_water() > 0);
    let latest = game.history().latest().unwrap().tags;
    assert!(latest.peak(COMMANDS) > 1024 && latest.peak(VISIBILITY) > 0);
    assert_eq!(BREACHES.load(Ordering::Relaxed), 1200);
    assert_eq!(game.arena().stats().over_budget, 1200);
}

/// Steers a field of points on worker threads: each worker builds a grid of
/// its points in its own arena and hands back a slice of new positions.
struct Field {
    points: Vec<[f32; 2]>,
    pool: Option<rayon::ThreadPool>,
}

impl Field {
    fn new(pool: Option<rayon::ThreadPool>) -> Field {
        let points = (0..4096)
            .map(|i| [(i % 64) as f32, (i / 64) as f32])
            .collect();
        Field { points, pool }
    }
}

impl Game for Field {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}

    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        use rayon::prelude::*;
        let threads = frame.threads();
        // Frozen into a slice: an arena `Vec` cannot be shared with workers.
        let chunks: &[&[[f32; 2]]] = {
            let mut chunks = Vec::new_in(frame.arena());
            chunks.extend(self.points.chunks(512));
            chunks.leak()
        };
        let moved = frame
            .arena()
            .alloc_slice_fill_with(chunks.len(), |_| &[][..]);
        match &self.pool {
            Some(pool) => pool.install(|| {
                chunks
                    .par_iter()
                    .zip(moved.par_iter_mut())
                    .for_each(|(chunk, out)| *out = spread(threads, chunk));
            }),
            None => std::thread::scope(|scope| {
                let half = chunks.len() / 2;
                for (chunks, outs) in chunks.chunks(half).zip(moved.chunks_mut(half)) {
                    scope.spawn(move || {
                        enroll_this_thread();
                        for (chunk, out) in chunks.iter().zip(outs) {
                            *out = spread(threads, chunk);
                        }
                    });
                }
            }),
        }
        let new_points = moved.iter().flat_map(|chunk| chunk.iter().copied());
        for (point, new) in self.points.iter_mut().zip(new_points) {
            *point = new;
        }
    }
}

/// On the calling worker: a grid of `chunk` in the worker's arena, and the
/// points moved away from crowded cells, handed back as a slice.
fn spread<'a>(threads: &'a tickarena::ThreadArenas, chunk: &[[f32; 2]]) -> &'a [[f32; 2]] {
    let arena = threads.local();
    let grid = arena.alloc_slice_fill_with(64 * 64, |_| 0u16);
    for p in chunk {
        grid[(p[1] as usize % 64) * 64 + p[0] as usize % 64] += 1;
    }
    arena.alloc_slice_fill_with(chunk.len(), |i| {
        let [x, y] = chunk[i];
        let crowd = f32::from(grid[(y as usize % 64) * 64 + x as usize % 64]);
        [(x + 0.5 * crowd) % 64.0, y]
    })
}

/// Allocations of `ticks` ticks of `game` after 100 ticks of warm-up.
fn steady_allocations(game: &mut FrameLoop<Field>, ticks: u32) -> u64 {
    let step = game.step();
    for _ in 0..100 {
        game.tick([], step);
    }
    let before = allocations();
    for _ in 0..ticks {
        let record = game.tick([], step);
        assert!(record.arena_bytes > 4096 * 8, "the workers' bytes count");
    }
    allocations() - before
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn steady_ticks_on_two_rayon_workers_make_no_heap_allocation() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    enroll_this_thread();
    use rayon::prelude::*;
    let pool = enrolled_pool_of_two();
    // rayon's injector (crossbeam's `Injector`) allocates a block for every
    // 63 jobs sent into the pool from outside: the same 1000 `install`s and
    // parallel loops without arena work are the baseline.
    let rayon_only = {
        let mut slots = [0u64; 8];
        for _ in 0..100 {
            pool.install(|| slots.par_iter_mut().for_each(|slot| *slot += 1));
        }
        let before = allocations();
        for _ in 0..1000 {
            pool.install(|| slots.par_iter_mut().for_each(|slot| *slot += 1));
        }
        allocations() - before
    };
    let mut game = FrameLoop::new(Field::new(Some(pool)));
    // Work stealing gives a busy machine's idle worker nothing now and
    // then: tick until both workers have taken part (each has its arena),
    // so that the count below is of two workers' arenas.
    let step = game.step();
    for _ in 0..10_000 {
        if game.threads().len() >= 2 {
            break;
        }
        game.tick([], step);
    }
    let during = steady_allocations(&mut game, 1000);
    // At most rayon's own, give or take its noise: where the injector's
    // blocks start, and crossbeam-epoch's deferred frees of old blocks,
    // which now and then allocate a garbage bag (17 instead of 16 blocks
    // was seen under load).
    const RAYON_NOISE: u64 = 2;
    assert!(
        during <= rayon_only + RAYON_NOISE,
        "1000 steady ticks on 2 rayon workers made {during} heap allocations; \
         rayon alone makes {rayon_only}"
    );
    assert!(
        rayon_only <= 1000 / 63 + 1 + RAYON_NOISE,
        "rayon's own: {rayon_only}"
    );
    assert!(
        game.threads().len() >= 2,
        "the work ran on both of the pool's threads"
    );
    drop(game);
    wait_for_rayon_workers_to_end();
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn scoped_workers_allocate_only_what_spawning_them_does() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    enroll_this_thread();
    // Spawning scoped threads allocates in std (the thread's handle and
    // name); the same two spawns with no arena work are the baseline.
    let spawn_only = {
        let before = allocations();
        for _ in 0..100 {
            std::thread::scope(|scope| {
                scope.spawn(enroll_this_thread);
                scope.spawn(enroll_this_thread);
            });
        }
        (allocations() - before) / 100
    };
    let mut game = FrameLoop::new(Field::new(None));
    let during = steady_allocations(&mut game, 100);
    assert_eq!(
        during,
        100 * spawn_only,
        "100 ticks on 2 new scoped threads each: {during} allocations, of which \
         spawning accounts for {} ({spawn_only} per tick)",
        100 * spawn_only
    );
    assert!(
        game.threads().len() <= 2,
        "new threads took over the arenas"
    );
}

/// The newcomer's game (`examples/first_game.rs`): actions from events,
/// from `update` and from other actions, a per-frame hash map, a visible
/// list handed from `update` to `end_frame`, text; no heap allocation in a
/// steady tick.
#[test]
fn the_first_game_makes_no_heap_allocation_in_steady_ticks() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    enroll_this_thread();
    let mut game = FrameLoop::new(first_game::Arena2d::default());
    let step = game.step();
    // 100 events per tick (the example runs 200).
    // Warm-up: the entity list reaches its working size, the arena its pages.
    for tick in 0..200 {
        game.tick(first_game::script(tick, 100), step);
    }
    let before = allocations();
    let (mut actions, mut arena_bytes) = (0, 0);
    for tick in 200..400 {
        let record = game.tick(first_game::script(tick, 100), step);
        actions += record.actions;
        arena_bytes = arena_bytes.max(record.arena_bytes);
    }
    let during = allocations() - before;
    assert_eq!(
        during, 0,
        "the first game allocated {during} times in 200 steady ticks"
    );
    // And it did its work: every path of the data flow ran.
    let world = game.world();
    assert!(actions > 200 * 100 / 2, "{actions} actions");
    assert!(world.collisions > 0, "update pushed collision damage");
    assert!(
        world.despawned > 0,
        "actions pushed their follow-up despawns"
    );
    assert!(
        world.visible_last_tick > 0,
        "the visible list reached end_frame"
    );
    assert!(
        world.drawn_bytes > 0 && world.said_bytes > 0,
        "text was made"
    );
    assert!(arena_bytes > 0);
}

struct Sprites;
impl tickarena::FrameData for Sprites {
    type Of<'f> = (&'f [[f32; 2]], &'f str);
}

/// Three arenas circling between a producer and a consumer thread: after
/// warm-up, a frame (build a render list with text, seal it, hand it
/// over, read it, reclaim the arena, give it back) allocates nothing.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn frames_in_flight_make_no_heap_allocation_in_steady_state() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    enroll_this_thread();
    let (mut producer, mut consumer) = tickarena::in_flight::channel::<Sprites>(3);
    let simulation = std::thread::spawn(move || {
        enroll_this_thread();
        for frame in 0..3000u32 {
            producer
                .produce(|arena| {
                    let sprites = arena.alloc_slice_fill_with(1000, |i| [frame as f32, i as f32]);
                    let title = format_in!(arena, "frame {frame}: {} sprites", sprites.len());
                    (&*sprites, &*title.leak())
                })
                .unwrap();
        }
    });
    let (mut frame, mut before, mut during) = (0u32, 0, 0);
    while let Some(title_len) = consumer.consume(|(sprites, title)| {
        assert_eq!(sprites[999], [frame as f32, 999.0]);
        title.len()
    }) {
        assert!(title_len > 0);
        frame += 1;
        // Counted over frames 1000..2000: both threads are in their loops.
        if frame == 1000 {
            before = allocations();
        } else if frame == 2000 {
            during = allocations() - before;
        }
    }
    simulation.join().unwrap();
    assert_eq!(frame, 3000);
    assert_eq!(during, 0, "1000 frames in flight allocated {during} times");
}

/// Scopes after warm-up, each building 1–64 KiB of temporaries (nested one
/// deep every 8th) and keeping 16 bytes in the frame: no heap allocation,
/// no page fault. `TICKARENA_STEADY_SCOPES` sets how many (10^4), for
/// `scripts/steady-frame-costs`, which counts their system calls.
#[test]
fn steady_scopes_make_no_heap_allocation_and_no_page_fault() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scopes: u64 = std::env::var("TICKARENA_STEADY_SCOPES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let mut frame = FrameArena::new();
    let run = |frame: &FrameArena, count: u64| {
        let mut checksum = 0u64;
        for i in 0..count {
            let kept = tickarena::scoped(|temp| {
                let len = 128 + (i as usize * 977) % 8064; // 1–64 KiB of u64
                let values = temp.alloc_slice_fill_with(len, |k| (k as u64) ^ i);
                let inner = if i % 8 == 0 {
                    tickarena::scoped(|deeper| deeper.alloc_slice_copy(&values[..64]).len())
                } else {
                    0
                };
                frame.alloc([values[len - 1], inner as u64])
            });
            checksum = checksum.wrapping_add(kept[0] + kept[1]);
        }
        checksum
    };
    // Warm-up: every depth's arena made and its pages touched, and the
    // frame's pages for what the scopes keep.
    run(&frame, scopes);
    frame.reset();
    // Reading the fault count allocates: outside the counted stretch.
    let faults_before = minor_faults_of_this_thread();
    enroll_this_thread();
    let allocations_before = allocations();
    let checksum = run(&frame, scopes);
    let during = allocations() - allocations_before;
    let faults = minor_faults_of_this_thread() - faults_before;
    assert_eq!(
        during, 0,
        "{scopes} steady scopes made {during} heap allocations"
    );
    // 0 on a quiet machine (scripts/steady-frame-costs); the kernel may
    // still take back and fault in a page or two under memory pressure
    // from other processes, which this thread cannot prevent. A scope that
    // touched fresh pages would fault thousands of times here.
    assert!(
        faults <= scopes / 1000,
        "{scopes} steady scopes took {faults} minor page faults"
    );
    assert!(checksum > 0);
    assert!(
        frame.used() as u64 <= scopes * 16,
        "16 bytes kept per scope"
    );
}

/// A burst every 30 frames (16 MiB above a 1 MiB retained size), in an
/// arena whose window is 60 frames: after the first bursts the next ones
/// fault no page in (their pages stayed); once bursts stop, the pages go
/// back within two windows and the process's resident memory is what it
/// was before the bursts.
#[test]
#[cfg(target_os = "linux")]
fn periodic_bursts_keep_their_pages_and_give_them_back_when_they_stop() {
    const BURST: usize = 16 << 20;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut arena = FrameArena::builder()
        .retain(1 << 20)
        .release_after(60)
        .build()
        .unwrap();
    let frame = |arena: &mut FrameArena, burst: bool| {
        let bytes = if burst { BURST } else { 64 << 10 };
        let touched = arena.alloc_slice_fill_with(bytes / 8, |i| i as u64);
        std::hint::black_box(&touched[..]);
        arena.reset();
    };
    let resident_before = resident_bytes();
    let mut faults_per_burst = Vec::new();
    for period in 0..8 {
        let faults_before = minor_faults_of_this_thread();
        frame(&mut arena, true);
        faults_per_burst.push(minor_faults_of_this_thread() - faults_before);
        for _ in 1..30 {
            frame(&mut arena, false);
        }
        if period >= 1 {
            assert!(arena.stats().committed >= BURST, "the burst's pages stayed");
        }
    }
    let pages = (BURST / 4096) as u64;
    assert!(
        faults_per_burst[0] >= pages / 2,
        "the first burst faults its pages in: {faults_per_burst:?}"
    );
    // 0 on a quiet machine; the kernel may take back a page or two under
    // memory pressure from other processes. Given back, a burst would
    // fault in thousands.
    assert!(
        faults_per_burst[2..]
            .iter()
            .all(|&faults| faults <= pages / 100),
        "bursts after the second fault no page in: {faults_per_burst:?}"
    );
    let resident_during = resident_bytes();
    for _ in 0..120 {
        frame(&mut arena, false);
    }
    assert!(arena.stats().committed <= 1 << 20, "the pages went back");
    let resident_after = resident_bytes();
    assert!(
        resident_during >= resident_after + BURST / 2,
        "resident memory fell by the burst: {resident_during} -> {resident_after}"
    );
    assert!(
        resident_after <= resident_before + BURST / 4,
        "resident memory came back: {resident_before} before, {resident_after} after"
    );
}

/// The process's resident memory (`VmRSS`), in bytes.
#[cfg(target_os = "linux")]
fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// A tagged frame with at most 32 runs of one tag's bytes live at once
/// makes no heap allocation, even the first; a deeper one grows the tag
/// ledger's run stack the first time only (`guide::budgets`).
#[test]
fn the_tag_ledger_allocates_only_for_a_frame_deeper_than_any_before() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    const AI: Tag = Tag::new("ai");
    const UI: Tag = Tag::new("ui");
    /// `runs` runs live at once (AI's and UI's bytes in turn, the untagged
    /// list of temporaries between), then frees at the top back through
    /// the newest half of them.
    fn frame(arena: &FrameArena, runs: usize) {
        let kept = runs / 2;
        for i in 0..kept {
            let _tag = arena.tag([AI, UI][i % 2]);
            arena.alloc(i as u64);
        }
        let mut temps = Vec::with_capacity_in(runs - kept - 1, arena);
        for i in 0..temps.capacity() {
            let _tag = arena.tag([AI, UI][i % 2]);
            temps.push(Vec::<u8, _>::with_capacity_in(8, arena));
        }
        while let Some(temp) = temps.pop() {
            drop(temp);
        }
    }
    let mut arena = FrameArena::new();
    enroll_this_thread();
    let mut counted = |runs: usize| {
        let before = allocations();
        frame(&arena, runs);
        arena.reset();
        allocations() - before
    };
    assert_eq!(counted(32), 0, "32 runs: the ledger keeps them inline");
    assert!(counted(33) > 0, "33 runs: the ledger's stack grows");
    assert!(counted(400) > 0, "400 runs: it grows again");
    for _ in 0..100 {
        assert_eq!(counted(400), 0, "no deeper than before");
        assert_eq!(counted(64), 0);
    }
}

/// A network packet of the kind serde users write: an internally tagged
/// event (`tag = ".."`), a struct with a flattened part, an untagged value;
/// each of which serde's derive buffers, on the heap. The arena derive
/// buffers in the arena (`guide::serde`).
mod buffered {
    use tickarena::FrameVec;

    #[derive(tickarena::DeserializeIn, Debug, PartialEq)]
    pub struct Packet<'a> {
        pub seq: u64,
        pub events: FrameVec<'a, Event<'a>>,
    }

    #[derive(tickarena::DeserializeIn, Debug, PartialEq)]
    #[serde(tag = "type")]
    pub enum Event<'a> {
        Move { entity: u32, to: [f32; 3] },
        Chat(Chat<'a>),
        Set { key: &'a str, value: Value<'a> },
    }

    #[derive(tickarena::DeserializeIn, Debug, PartialEq)]
    pub struct Chat<'a> {
        pub from: &'a str,
        pub text: &'a str,
        #[serde(flatten)]
        pub meta: Meta<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug, PartialEq)]
    pub struct Meta<'a> {
        pub channel: &'a str,
        pub ttl: Option<u16>,
    }

    #[derive(tickarena::DeserializeIn, Debug, PartialEq)]
    #[serde(untagged)]
    pub enum Value<'a> {
        Num(f64),
        Text(&'a str),
        List(FrameVec<'a, Value<'a>>),
    }
}

/// The same packet without buffering: externally tagged, nothing
/// flattened or untagged.
#[allow(dead_code, reason = "decoded for its arena bytes, not read")]
mod plain {
    use tickarena::FrameVec;

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Packet<'a> {
        pub seq: u64,
        pub events: FrameVec<'a, Event<'a>>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub enum Event<'a> {
        Move { entity: u32, to: [f32; 3] },
        Chat(Chat<'a>),
        Set { key: &'a str, value: Value<'a> },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Chat<'a> {
        pub from: &'a str,
        pub text: &'a str,
        pub meta: Meta<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Meta<'a> {
        pub channel: &'a str,
        pub ttl: Option<u16>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub enum Value<'a> {
        Num(f64),
        Text(&'a str),
        List(FrameVec<'a, Value<'a>>),
    }
}

/// The buffered packet's JSON: 24 events, 8 of each kind.
fn buffered_packet() -> String {
    let mut events = Vec::new();
    for i in 0..8 {
        events.push(format!(
            r#"{{"type":"Move","entity":{i},"to":[1.5,{i}.25,-3.0]}}"#
        ));
        events.push(format!(
            r#"{{"text":"hello there, player {i}","type":"Chat","from":"ann","channel":"team","ttl":30}}"#
        ));
        events.push(format!(
            r#"{{"type":"Set","key":"volume","value":[{i}.5,"loud",[1,2]]}}"#
        ));
    }
    format!(r#"{{"seq":7,"events":[{}]}}"#, events.join(","))
}

/// The plain packet's JSON: the same data, externally tagged and nested.
fn plain_packet() -> String {
    let mut events = Vec::new();
    for i in 0..8 {
        events.push(format!(
            r#"{{"Move":{{"entity":{i},"to":[1.5,{i}.25,-3.0]}}}}"#
        ));
        events.push(format!(
            r#"{{"Chat":{{"from":"ann","text":"hello there, player {i}","meta":{{"channel":"team","ttl":30}}}}}}"#
        ));
        events.push(format!(
            r#"{{"Set":{{"key":"volume","value":{{"List":[{{"Num":{i}.5}},{{"Text":"loud"}},{{"List":[{{"Num":1}},{{"Num":2}}]}}]}}}}}}"#
        ));
    }
    format!(r#"{{"seq":7,"events":[{}]}}"#, events.join(","))
}

/// `decode` run 10 times (warm-up: the arena commits its pages), then 1000
/// times counted: no heap allocation.
fn assert_steady_decodes_allocate_nothing(
    arena: &mut FrameArena,
    mut decode: impl FnMut(&mut FrameArena),
) {
    for _ in 0..10 {
        decode(arena);
    }
    enroll_this_thread();
    let before = allocations();
    for _ in 0..1000 {
        decode(arena);
    }
    let during = allocations() - before;
    ENROLLED.with(|enrolled| enrolled.set(false));
    assert_eq!(
        during, 0,
        "1000 steady decodes made {during} heap allocations"
    );
}

/// A steady decode of a packet that buffers (internally tagged events, a
/// flattened part, untagged values) into a reset arena makes no heap
/// allocation: the buffer is in the arena.
#[test]
fn steady_buffered_serde_decodes_make_no_heap_allocation() {
    use serde::de::DeserializeSeed;
    use tickarena::serde::InArena;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let json = buffered_packet();
    let mut arena = FrameArena::new();
    let decode = |arena: &mut FrameArena| {
        arena.reset();
        let mut input = serde_json::Deserializer::from_str(&json);
        let packet = InArena::<buffered::Packet<'_>>::new(arena)
            .deserialize(&mut input)
            .unwrap();
        assert_eq!(packet.events.len(), 24);
        match &packet.events[1] {
            buffered::Event::Chat(chat) => {
                assert_eq!(
                    (chat.from, chat.meta.channel, chat.meta.ttl),
                    ("ann", "team", Some(30))
                );
            }
            other => panic!("not a chat: {other:?}"),
        }
        match &packet.events[2] {
            buffered::Event::Set {
                value: buffered::Value::List(items),
                ..
            } => {
                assert_eq!(items[1], buffered::Value::Text("loud"));
            }
            other => panic!("not a list: {other:?}"),
        }
    };
    assert_steady_decodes_allocate_nothing(&mut arena, decode);
}

/// What buffering costs in the arena, for the packet above: its bytes
/// beside the same data decoded without buffering (printed; run with
/// `--nocapture` to read them).
#[test]
fn buffering_costs_arena_bytes_and_says_how_many() {
    use serde::de::DeserializeSeed;
    use tickarena::serde::InArena;
    let (buffered_json, plain_json) = (buffered_packet(), plain_packet());
    let arena = FrameArena::new();
    let mut input = serde_json::Deserializer::from_str(&buffered_json);
    let packet = InArena::<buffered::Packet<'_>>::new(&arena)
        .deserialize(&mut input)
        .unwrap();
    assert_eq!(packet.events.len(), 24);
    let buffered_bytes = arena.used();
    let arena = FrameArena::new();
    let mut input = serde_json::Deserializer::from_str(&plain_json);
    let packet = InArena::<plain::Packet<'_>>::new(&arena)
        .deserialize(&mut input)
        .unwrap();
    assert_eq!(packet.events.len(), 24);
    let plain_bytes = arena.used();
    eprintln!(
        "24 events, {} bytes of JSON: {buffered_bytes} arena bytes with tag/flatten/untagged, \
         {plain_bytes} without ({} bytes of buffer, {:.0} a buffered event)",
        buffered_json.len(),
        buffered_bytes - plain_bytes,
        (buffered_bytes - plain_bytes) as f64 / 24.0,
    );
    assert!(buffered_bytes > plain_bytes, "the buffer is in the arena");
}

/// A message with serde's attributes, decoded from JSON and postcard into
/// the arena every tick: after warm-up, no heap allocation (the attributes
/// need no buffering; `deserialize_with` and `try_from` here allocate
/// nothing of their own). Fields are read by the test or by `Debug`.
#[allow(dead_code)]
mod attributed {
    use serde::{Deserialize, Deserializer};
    use tickarena::{DeserializeIn, FrameVec};

    pub fn doubled<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        u32::deserialize(d).map(|n| n * 2)
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(rename_all = "camelCase", deny_unknown_fields, default)]
    pub struct Settings<'a> {
        pub player_name: &'a str,
        #[serde(alias = "vol")]
        pub sound_volume: u8,
        #[serde(skip)]
        pub derived: u32,
    }

    impl Default for Settings<'_> {
        fn default() -> Self {
            Settings {
                player_name: "anon",
                sound_volume: 50,
                derived: 1,
            }
        }
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(transparent)]
    pub struct Scores<'a>(pub FrameVec<'a, u32>);

    #[derive(DeserializeIn, Debug)]
    #[serde(try_from = "FrameVec<'a, &'a str>")]
    pub struct Words<'a>(pub FrameVec<'a, &'a str>);

    impl<'a> TryFrom<FrameVec<'a, &'a str>> for Words<'a> {
        type Error = &'static str;
        fn try_from(words: FrameVec<'a, &'a str>) -> Result<Self, &'static str> {
            if words.is_empty() {
                Err("no words")
            } else {
                Ok(Words(words))
            }
        }
    }

    #[derive(DeserializeIn, Debug)]
    #[serde(rename_all = "snake_case", expecting = "a message")]
    pub enum Message<'a> {
        #[serde(alias = "hi")]
        Hello {
            settings: Settings<'a>,
            scores: Scores<'a>,
        },
        Chat(Words<'a>),
        Points(#[serde(deserialize_with = "doubled")] u32),
        Ping(#[serde(skip_deserializing)] u8),
        #[serde(other)]
        Unknown,
    }
}

#[test]
fn steady_decodes_of_attributed_messages_make_no_heap_allocation() {
    use serde::de::DeserializeSeed;
    use tickarena::serde::InArena;

    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let json = [
        r#"{"hi": {"settings": {"playerName": "ann", "vol": 3}, "scores": [1, 2, 3]}}"#,
        r#"{"chat": ["a", "b"]}"#,
        r#"{"points": 21}"#,
        r#""ping""#,
        r#""whatever""#,
    ];
    // postcard: `Hello` with its two fields, `Points`.
    let postcard = [&[0u8, 3, b'b', b'o', b'b', 9, 2, 4, 5][..], &[2, 7]];
    let mut arena = FrameArena::new();
    let decode_all = |arena: &FrameArena| {
        let mut decoded = 0;
        for doc in json {
            let mut de = serde_json::Deserializer::from_str(doc);
            let message: attributed::Message<'_> =
                InArena::new(arena).deserialize(&mut de).unwrap();
            // Only the last document is none of the variants.
            decoded +=
                usize::from(matches!(message, attributed::Message::Unknown) == (doc == json[4]));
        }
        for bytes in postcard {
            let mut de = postcard::Deserializer::from_bytes(bytes);
            let _: attributed::Message<'_> = InArena::new(arena).deserialize(&mut de).unwrap();
            decoded += 1;
        }
        decoded
    };
    // Warm-up: the arena reaches its pages.
    for _ in 0..10 {
        assert_eq!(decode_all(&arena), 7);
        arena.reset();
    }
    enroll_this_thread();
    let before = allocations();
    for _ in 0..1000 {
        decode_all(&arena);
        arena.reset();
    }
    let during = allocations() - before;
    assert_eq!(during, 0, "1000 steady decodes allocated {during} times");
    // And they read what they should.
    let mut de = serde_json::Deserializer::from_str(json[0]);
    let message: attributed::Message<'_> = InArena::new(&arena).deserialize(&mut de).unwrap();
    let attributed::Message::Hello { settings, scores } = message else {
        panic!("{message:?}");
    };
    assert_eq!(
        (
            settings.player_name,
            settings.sound_volume,
            settings.derived
        ),
        ("ann", 3, 1)
    );
    assert_eq!(scores.0[..], [1, 2, 3]);
    let mut de = postcard::Deserializer::from_bytes(postcard[0]);
    let message: attributed::Message<'_> = InArena::new(&arena).deserialize(&mut de).unwrap();
    assert!(
        matches!(&message, attributed::Message::Hello { settings, scores }
            if settings.player_name == "bob" && settings.sound_volume == 9 && scores.0[..] == [4, 5]),
        "{message:?}"
    );
    let mut de = postcard::Deserializer::from_bytes(postcard[1]);
    let message: attributed::Message<'_> = InArena::new(&arena).deserialize(&mut de).unwrap();
    assert!(
        matches!(message, attributed::Message::Points(14)),
        "{message:?}"
    );
}

/// More buffered shapes, each with an attempt that fails (which serde's
/// derive pays for with an error message on the heap): a flattened
/// `Option` whose part is absent (`None`), an adjacently tagged enum, an
/// untagged list longer than the buffer's 8 inline elements, read after a
/// variant that does not match.
#[allow(dead_code)]
mod attempts {
    use tickarena::FrameVec;

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Msg<'a> {
        pub id: u32,
        #[serde(flatten)]
        pub extra: Option<Extra<'a>>,
        pub body: Body<'a>,
        pub list: Long<'a>,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    pub struct Extra<'a> {
        pub note: &'a str,
        pub level: u8,
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Body<'a> {
        Text(&'a str),
        Pair(u8, u8),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Long<'a> {
        Text(&'a str),
        Nums(FrameVec<'a, u16>),
    }
}

#[test]
fn steady_buffered_decodes_with_failed_attempts_make_no_heap_allocation() {
    use serde::de::DeserializeSeed;
    use tickarena::serde::InArena;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let json = r#"{"id":3,"level":2,"body":{"c":[1,2],"t":"Pair"},
        "list":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}"#;
    let mut arena = FrameArena::new();
    let decode = |arena: &mut FrameArena| {
        arena.reset();
        let mut input = serde_json::Deserializer::from_str(json);
        let msg = InArena::<attempts::Msg<'_>>::new(arena)
            .deserialize(&mut input)
            .unwrap();
        assert!(msg.extra.is_none(), "no `note`: {msg:?}");
        assert!(matches!(msg.body, attempts::Body::Pair(1, 2)), "{msg:?}");
        assert!(
            matches!(&msg.list, attempts::Long::Nums(n) if n.len() == 20),
            "{msg:?}"
        );
    };
    assert_steady_decodes_allocate_nothing(&mut arena, decode);
}
