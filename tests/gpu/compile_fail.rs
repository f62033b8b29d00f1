//! The upload arena's borrow-checked guarantees, as programs the compiler
//! must reject: `tests/trybuild/compile_fail_gpu/<concept>/`, each with
//! its expected message beside it. Their error codes are checked on every
//! toolchain (they do not change between toolchains); the whole messages
//! are not compared here, which would build wgpu a second time for
//! trybuild (the `.stderr` files are the compiler's messages as the pinned
//! toolchain wrote them, for the reader).

#[path = "../trybuild/harness.rs"]
#[allow(dead_code)] // the message check of `tests/all` is not used here
mod harness;

#[test]
fn misuse_of_the_upload_arena_is_rejected_by_the_compiler() {
    harness::check_codes(
        "tests/trybuild/compile_fail_gpu",
        "\"wgpu\"",
        "compile-fail-gpu-codes",
        9,
    );
}
