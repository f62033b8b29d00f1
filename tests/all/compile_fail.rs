//! The borrow-checked guarantees, as programs the compiler must reject.
//! Each case lives in `tests/trybuild/compile_fail/<concept>/` with the
//! expected compiler message beside it.

#[cfg(not(miri))]
#[test]
fn misuse_is_rejected_by_the_compiler() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/trybuild/compile_fail/*/*.rs");
}
