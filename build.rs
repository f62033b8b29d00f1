//! Sets `cfg(tickarena_asan)` when the crate is built with
//! `-Zsanitizer=address`, so that the arena poisons the memory it takes
//! back (see `src/asan.rs`). rustc's own `cfg(sanitize = "address")` is
//! unstable; cargo hands build scripts the target's cfgs, that one
//! included, as `CARGO_CFG_SANITIZE`, on every toolchain.

fn main() {
    println!("cargo::rerun-if-env-changed=CARGO_CFG_SANITIZE");
    let sanitizers = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
    if sanitizers
        .split(',')
        .any(|sanitizer| sanitizer == "address")
    {
        println!("cargo::rustc-cfg=tickarena_asan");
    }
}
