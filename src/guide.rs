//! Guides that are part of the documentation, with examples the test suite
//! compiles (and, for the errors, checks that they fail to compile).
//!
//! * [`errors`]: the compiler errors and runtime messages a newcomer meets
//!   first, what each says, and the fix.
//!
//! # Example
//!
//! The guides hold no code; the crate's own docs start at [`crate`].
//!
//! ```
//! let arena = tickarena::FrameArena::new();
//! assert_eq!(arena.used(), 0);
//! ```

#[doc = include_str!("guide/errors.md")]
pub mod errors {}
