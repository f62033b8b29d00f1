//! tickarena's benches: criterion targets in this folder, run with
//! `cargo bench -p tickarena-benches` on the pinned nightly. This library
//! is empty; the bench targets share code through `support/`.
