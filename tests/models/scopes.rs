//! Scopes nested and unwound, against a model of what each level holds:
//! every level's allocations keep their bytes while scopes inside it open,
//! allocate and close, and a closed scope gives its bytes back (the level
//! around it is where it was). Scopes of the thread (`tickarena::scoped`)
//! and a checkpoint of the outer arena (`FrameArena::scoped`) alike.

use tickarena::FrameArena;

/// One step. Sizes are reduced by [`run`], so any value is valid.
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    /// Allocates this many bytes at the current level, filled with a
    /// pattern of the level's own.
    Alloc(u16),
    /// Opens a scope of the thread inside the current level.
    Open,
    /// At the outermost level: a scope on the outer arena itself.
    OpenOnArena,
    /// Closes the current scope (nothing at the outermost level).
    Close,
    /// Panics in the current scope, caught by the scope around it (not
    /// under the fuzzer, whose panics abort).
    Unwind,
}

/// A level's allocations: each slice and the byte it was filled with.
struct Level<'a> {
    blocks: Vec<(&'a [u8], u8)>,
    pattern: u8,
}

impl Level<'_> {
    fn check(&self) {
        for (block, byte) in &self.blocks {
            assert!(block.iter().all(|b| b == byte), "a level's bytes changed");
        }
    }
}

/// Runs `ops` from the outermost level of a fresh arena.
pub fn run(ops: &[Op]) {
    let mut arena = FrameArena::builder().reserve(16 << 20).build().unwrap();
    let mut next = 0;
    while next < ops.len() {
        if let Op::OpenOnArena = ops[next] {
            next += 1;
            let used = arena.used();
            next = arena.scoped(|temp| level(ops, next, temp, 1));
            assert_eq!(arena.used(), used, "the arena's scope left bytes behind");
        } else {
            let outer = &arena;
            let mut top = Level {
                blocks: Vec::new(),
                pattern: 1,
            };
            next = step(ops, next, outer, &mut top, 0);
            top.check();
        }
    }
}

/// Runs the ops of one level from `next` until it closes; the index after.
fn level(ops: &[Op], mut next: usize, arena: &FrameArena, depth: u8) -> usize {
    let mut this = Level {
        blocks: Vec::new(),
        pattern: depth.wrapping_mul(37) | 1,
    };
    while next < ops.len() {
        if let Op::Close = ops[next] {
            this.check();
            return next + 1;
        }
        next = step(ops, next, arena, &mut this, depth);
    }
    this.check();
    next
}

/// Runs op `next` at a level; the index after (past the scopes it opened).
fn step<'a>(
    ops: &[Op],
    next: usize,
    arena: &'a FrameArena,
    this: &mut Level<'a>,
    depth: u8,
) -> usize {
    match ops[next] {
        Op::Alloc(bytes) => {
            // Blocks under 2 KiB (256 bytes interpreted: every block is
            // written, then read back after each scope).
            let most = if cfg!(miri) { 256 } else { 2048 };
            let block = arena.alloc_slice_fill_with(usize::from(bytes) % most, |_| this.pattern);
            this.blocks.push((block, this.pattern));
            next + 1
        }
        Op::Open if depth < 24 => {
            let used = arena.used();
            let after = tickarena::scoped(|temp| level(ops, next + 1, temp, depth + 1));
            assert_eq!(
                arena.used(),
                used,
                "a scope of the thread moved the level around it"
            );
            this.check();
            after
        }
        #[cfg(not(fuzzing))]
        Op::Unwind if depth > 0 => {
            // Unwinds out of a scope opened for it; the rest of the level
            // goes on.
            let used = arena.used();
            let caught = std::panic::catch_unwind(|| {
                tickarena::scoped(|temp| {
                    temp.alloc_slice_fill_with(64, |_| 0xEE_u8);
                    panic!("unwinding a scope")
                })
            });
            assert!(caught.is_err());
            assert_eq!(arena.used(), used);
            this.check();
            next + 1
        }
        _ => next + 1,
    }
}
