//! Sealed frames and frames in flight: data sealed on one thread and read
//! intact on another, arenas circling between a producer and a consumer,
//! destructors run exactly once on every way out (also a panicking
//! reader). Miri and ThreadSanitizer run these too.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, FrameData, SegmentedList, format_in, in_flight};

/// A render list: sprites, text and a frozen segmented list, all in the
/// frame's arena, none of it holding the arena.
struct RenderList<'f> {
    frame: u64,
    sprites: &'f [[f32; 2]],
    labels: &'f [&'f str],
    entities: &'f [&'f mut [u32]],
}
struct Render;
impl FrameData for Render {
    type Of<'f> = RenderList<'f>;
}

fn build_render_list(arena: &FrameArena, frame: u64, sprites: usize) -> RenderList<'_> {
    let labels: &mut [&str] =
        arena.alloc_slice_fill_with(4, |i| &*format_in!(arena, "frame {frame} label {i}").leak());
    let mut entities = SegmentedList::new_in(arena);
    entities.extend((0..100).map(|i| i + frame as u32));
    RenderList {
        frame,
        sprites: arena.alloc_slice_fill_with(sprites, |i| [frame as f32, i as f32]),
        labels,
        entities: entities.leak(),
    }
}

/// Checks a render list made by `build_render_list(_, frame, sprites)`.
fn check_render_list(list: &RenderList<'_>, frame: u64, sprites: usize) {
    assert_eq!(list.frame, frame);
    assert_eq!(list.sprites.len(), sprites);
    for (i, sprite) in list.sprites.iter().enumerate() {
        assert_eq!(
            *sprite,
            [frame as f32, i as f32],
            "frame {frame} sprite {i}"
        );
    }
    assert_eq!(list.labels[3], format!("frame {frame} label 3"));
    let entities: Vec<u32> = list
        .entities
        .iter()
        .flat_map(|s| s.iter().copied())
        .collect();
    assert_eq!(
        entities,
        (0..100).map(|i| i + frame as u32).collect::<Vec<_>>()
    );
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn data_sealed_on_one_thread_is_read_intact_on_another() {
    let sealed = FrameArena::new().seal::<Render>(|arena| build_render_list(arena, 7, 500));
    let used = sealed.used();
    assert!(used >= 500 * 8);
    let arena = std::thread::spawn(move || {
        sealed.with(|list| check_render_list(list, 7, 500));
        sealed.unseal()
    })
    .join()
    .unwrap();
    assert_eq!(arena.used(), used, "unseal keeps the frame's bytes");
    let arena = arena.reclaim();
    assert_eq!(arena.used(), 0);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn a_sealed_frame_with_sync_data_is_read_from_several_threads() {
    let sealed = FrameArena::new().seal::<Render>(|arena| build_render_list(arena, 3, 64));
    let sealed = &sealed;
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(move || sealed.with(|list| check_render_list(list, 3, 64)));
        }
    });
}

/// Counts drops of the values it is part of.
struct Counted(Arc<AtomicUsize>);
impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

struct Owned;
impl FrameData for Owned {
    type Of<'f> = (Counted, &'f [u8]);
}

fn seal_counted(drops: &Arc<AtomicUsize>) -> tickarena::Sealed<Owned> {
    let counted = Counted(Arc::clone(drops));
    FrameArena::new().seal::<Owned>(move |arena| (counted, &*arena.alloc_slice_copy(&[1u8; 32])))
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn sealed_data_is_dropped_once_on_unseal_reclaim_and_drop() {
    let drops = Arc::new(AtomicUsize::new(0));
    let arena = seal_counted(&drops).unseal();
    assert_eq!(drops.load(Ordering::Relaxed), 1, "unseal");
    assert!(arena.used() >= 32);
    drop(arena);
    seal_counted(&drops).reclaim();
    assert_eq!(drops.load(Ordering::Relaxed), 2, "reclaim");
    drop(seal_counted(&drops));
    assert_eq!(drops.load(Ordering::Relaxed), 3, "drop");
    // A panic while reading drops the sealed frame once, while unwinding.
    let sealed = seal_counted(&drops);
    let caught = catch_unwind(AssertUnwindSafe(move || {
        sealed.with(|(_, bytes)| assert_eq!(bytes.len(), 0, "reader panics"));
    }));
    assert!(caught.is_err());
    assert_eq!(drops.load(Ordering::Relaxed), 4, "panic");
}

/// Invariant data (a `Cell` of a frame reference) is fine: `with` lends it
/// to a closure generic over the frame's lifetime.
struct Cursor;
impl FrameData for Cursor {
    type Of<'f> = (Cell<&'f str>, &'f str);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn invariant_data_can_be_sealed_and_swapped_within_its_frame() {
    let sealed = FrameArena::new().seal::<Cursor>(|arena| {
        let (first, second) = (arena.alloc_str("first"), arena.alloc_str("second"));
        (Cell::new(&*first), &*second)
    });
    sealed.with(|(cursor, other)| cursor.set(other));
    assert_eq!(sealed.with(|(cursor, _)| cursor.get().to_owned()), "second");
    // A `'static` value outlives any frame, so it may go in too (the
    // sealed module's docs, point 3); it is read back after a move.
    sealed.with(|(cursor, _)| cursor.set("static"));
    let moved = std::thread::spawn(move || sealed.with(|(cursor, _)| cursor.get().len()));
    assert_eq!(moved.join().unwrap(), 6);
}

/// Frames a circle test runs: fewer interpreted.
const CIRCLE_FRAMES: u64 = if cfg!(miri) { 40 } else { 10_000 };

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn three_arenas_circle_between_a_producer_and_a_consumer() {
    let (mut producer, mut consumer) = in_flight::channel::<Render>(3);
    let simulation = std::thread::spawn(move || {
        let mut committed = Vec::with_capacity(CIRCLE_FRAMES as usize);
        for frame in 0..CIRCLE_FRAMES {
            producer
                .produce(|arena| {
                    assert_eq!(arena.used(), 0, "each frame starts on a reclaimed arena");
                    committed.push(arena.stats().committed);
                    build_render_list(arena, frame, 200)
                })
                .unwrap();
            assert!(producer.in_flight() <= 3);
        }
        committed
    });
    let mut read = 0;
    while let Some(()) = consumer.consume(|list| check_render_list(list, read, 200)) {
        read += 1;
    }
    assert_eq!(read, CIRCLE_FRAMES, "every frame, in order");
    assert_eq!(consumer.in_flight(), 0, "every arena came back");
    let committed = simulation.join().unwrap();
    // Each arena commits on its first frame (the same for the same
    // work), then stays flat: after the warm-up every frame sees it.
    let warm_up = (CIRCLE_FRAMES / 4) as usize;
    let settled = committed[warm_up];
    assert!(settled > 0);
    let moved: Vec<(usize, usize)> = committed[warm_up..]
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != settled)
        .map(|(i, &c)| (i + warm_up, c))
        .collect();
    assert!(
        moved.is_empty(),
        "committed bytes moved after warm-up: {moved:?} (settled {settled})"
    );
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_panicking_reader_drops_the_frame_once_and_the_circle_goes_on() {
    let drops = Arc::new(AtomicUsize::new(0));
    let (mut producer, mut consumer) = in_flight::channel::<Owned>(2);
    for frame in 0..4u8 {
        let counted = Counted(Arc::clone(&drops));
        producer
            .produce(move |arena| (counted, &*arena.alloc_slice_copy(&[frame; 8])))
            .unwrap();
        let caught = catch_unwind(AssertUnwindSafe(|| {
            consumer.consume(|(_, bytes)| assert!(bytes[0] % 2 == 0, "odd frame"))
        }));
        assert_eq!(caught.is_err(), frame % 2 == 1);
        assert_eq!(drops.load(Ordering::Relaxed), usize::from(frame) + 1);
        assert_eq!(consumer.in_flight(), 0, "the arena went back");
    }
    // A panicking builder gives its arena back too.
    let caught = catch_unwind(AssertUnwindSafe(|| {
        producer.produce(|_| -> (Counted, &[u8]) { panic!("builder fails") })
    }));
    assert!(caught.is_err());
    assert_eq!(producer.in_flight(), 0);
    drop(producer);
    assert!(consumer.is_finished());
    assert_eq!(drops.load(Ordering::Relaxed), 4);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn the_producer_waits_while_every_frame_is_in_flight() {
    fn make(arena: &FrameArena) -> (Cell<&str>, &str) {
        let s = &*arena.alloc_str("x");
        (Cell::new(s), s)
    }
    let (mut producer, mut consumer) = in_flight::channel::<Cursor>(2);
    producer.produce(make).unwrap();
    producer.produce(make).unwrap();
    let third = std::thread::spawn(move || {
        producer.produce(make).unwrap(); // waits for the consumer
        producer
    });
    // The third frame can only be built once one is read.
    assert_eq!(consumer.consume(|(c, _)| c.get().len()), Some(1));
    let producer = third.join().unwrap();
    assert_eq!(producer.in_flight(), 2);
    drop(consumer);
    let mut producer = producer;
    assert_eq!(producer.produce(make), Err(in_flight::Disconnected));
}
