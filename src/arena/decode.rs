//! [`DecodeState`]: what a serde decode into the arena (`crate::serde`)
//! keeps on the arena while it runs, since every nested value's seed is
//! made afresh from the arena alone: how deeply its lists, maps and boxes
//! nest now, how deep they may, how much stack they may take, how many
//! bytes of the arena (held by the arena's ceiling, see `ceiling`), and
//! whether the arena or that bound refused it. Plain
//! cells here (each read and written alone: no copies of the whole on a
//! recursive decode's stack); `serde/limits.rs` gives them their meaning.
//! Never touched by an allocation.

use core::cell::Cell;
use core::ptr::NonNull;

use super::FrameArena;

/// The depth bound of lists decoded with no seed's decode running (a
/// `DeserializeIn` called directly): `serde::DEFAULT_MAX_DEPTH`, which
/// `serde` asserts. Kept in the state as the bound while no decode runs,
/// so that a level reads its bound without asking whether one does.
pub(crate) const NO_SEED_MAX_DEPTH: u32 = 128;

/// The stack bound likewise: `serde::DEFAULT_MAX_STACK`.
pub(crate) const NO_SEED_MAX_STACK: usize = 512 << 10;

/// The state of the decode running in an arena, if one is.
#[derive(Debug)]
pub(crate) struct DecodeState {
    /// A decode started by a seed is running (nested seeds keep its
    /// settings).
    pub(crate) active: Cell<bool>,
    /// Whether the arena refused the last decode started by a seed.
    pub(crate) refused: Cell<bool>,
    /// Whether the last decode started by a seed met its byte bound.
    pub(crate) over_bound: Cell<bool>,
    /// Whether the last decode started by a seed met its depth or stack
    /// bound.
    pub(crate) too_deep: Cell<bool>,
    /// How many bytes of the arena the decode may take, while `active`
    /// (the arena's ceiling holds it; kept here for the message).
    pub(crate) max_bytes: Cell<usize>,
    /// Lists, maps and boxes open inside each other now.
    pub(crate) depth: Cell<u32>,
    /// How many may be: the running decode's bound, [`NO_SEED_MAX_DEPTH`]
    /// while none is `active`.
    pub(crate) max_depth: Cell<u32>,
    /// The stack's address where the outermost list, map or box opened.
    pub(crate) stack_base: Cell<usize>,
    /// The stack's address where the latest level opened: a level far
    /// from it is on another stack segment (see `serde/limits.rs`).
    pub(crate) stack_last: Cell<usize>,
    /// How many bytes of stack the levels may take below it: the running
    /// decode's bound, [`NO_SEED_MAX_STACK`] while none is `active`.
    pub(crate) max_stack: Cell<usize>,
    /// What a part of the decode is asking the deserializer it calls to
    /// lend rather than give a copy of, if that deserializer reads back a
    /// buffer of this arena (`serde/content.rs`): a kind of value, 0 for
    /// nothing.
    pub(crate) lend_wanted: Cell<u8>,
    /// The value lent in answer, for the length of one call.
    pub(crate) lent: Lent,
}

/// The address of a value lent for the length of one call, with its kind
/// (`serde/content.rs` says what each kind points to and who reads it):
/// set before the call, cleared when it returns or unwinds, and taken
/// only by a reader of the same kind.
#[derive(Debug, Default)]
pub(crate) struct Lent(Cell<Option<(u8, NonNull<()>)>>);

impl Lent {
    /// Lends `value`, of kind `kind`, until the guard returned is dropped
    /// (which the borrow of `value` outlives).
    #[inline]
    pub(crate) fn lend<'l, T>(&'l self, kind: u8, value: &'l T) -> LentUntil<'l> {
        self.0.set(Some((kind, NonNull::from(value).cast())));
        LentUntil(self)
    }

    /// The value of kind `kind` lent now, if one is, as the lender's
    /// address; it is no longer lent after this. A value of another kind
    /// stays lent.
    #[inline]
    pub(crate) fn take(&self, kind: u8) -> Option<NonNull<()>> {
        match self.0.get() {
            Some((lent, value)) if lent == kind => {
                self.0.set(None);
                Some(value)
            }
            _ => None,
        }
    }
}

/// Clears a [`Lent`] when dropped (the call it was lent for ended).
pub(crate) struct LentUntil<'l>(&'l Lent);

impl Drop for LentUntil<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.0.set(None);
    }
}

impl DecodeState {
    /// No decode running, none refused.
    pub(crate) const fn new() -> DecodeState {
        DecodeState {
            active: Cell::new(false),
            refused: Cell::new(false),
            over_bound: Cell::new(false),
            too_deep: Cell::new(false),
            max_bytes: Cell::new(usize::MAX),
            depth: Cell::new(0),
            max_depth: Cell::new(NO_SEED_MAX_DEPTH),
            stack_base: Cell::new(0),
            stack_last: Cell::new(0),
            max_stack: Cell::new(NO_SEED_MAX_STACK),
            lend_wanted: Cell::new(0),
            lent: Lent(Cell::new(None)),
        }
    }
}

impl FrameArena {
    /// The decode state (see [`DecodeState`]).
    #[inline(always)]
    pub(crate) fn decode_state(&self) -> &DecodeState {
        &self.decode
    }
}

/// Where the stack stands now, as a number (never used as a pointer): the
/// stack pointer itself where it can be read, so that a sanitizer that
/// moves locals off the stack (AddressSanitizer's fake stack for
/// use-after-return, on by default on Linux) cannot hide the stack a
/// decode takes. Inlined there: the caller's own stack pointer, in a
/// register.
#[cfg(all(
    not(miri),
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv32",
        target_arch = "riscv64"
    )
))]
#[inline(always)]
pub(crate) fn stack_address() -> usize {
    let sp: usize;
    // SAFETY: copies the stack pointer register into `sp`; reads and writes
    // no memory, leaves the stack and the flags as they were.
    unsafe {
        #[cfg(target_arch = "x86_64")]
        core::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags));
        #[cfg(target_arch = "x86")]
        core::arch::asm!("mov {}, esp", out(reg) sp, options(nomem, nostack, preserves_flags));
        #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
        #[cfg(any(target_arch = "riscv32", target_arch = "riscv64"))]
        core::arch::asm!("mv {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
    }
    sp
}

/// Where the stack stands now, where no instruction reads the stack
/// pointer (wasm32, Miri): the address of a local of this function's own
/// frame, just below its caller's. Out of line, so that the caller (a
/// level of a recursive decode) keeps no slot for the local: it gets the
/// number in a register.
#[cfg(not(all(
    not(miri),
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv32",
        target_arch = "riscv64"
    )
)))]
#[inline(never)]
pub(crate) fn stack_address() -> usize {
    let marker = 0u8;
    core::hint::black_box(core::ptr::addr_of!(marker)).addr()
}
