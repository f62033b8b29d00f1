//! All integration tests in one binary (one link instead of one per file),
//! a module per topic.

#![cfg_attr(
    feature = "nightly",
    feature(
        allocator_ext,
        btreemap_alloc,
        drain_keep_rest,
        iter_advance_by,
        iter_next_chunk,
        slice_partition_dedup,
        try_reserve_kind,
        vec_peek_mut
    )
)]

#[path = "../models/mod.rs"]
mod models;

mod arena_buffer;
mod arena_collections;
mod arena_commit_refused;
mod arena_errors;
mod arena_frames;
mod arena_model;
mod arena_uninit;
mod arena_windows;
mod asan_poison;
#[cfg(feature = "chart")]
mod chart;
// Used by the tests that need a child process, none of which runs under Miri.
#[cfg(not(miri))]
mod child_process;
mod collection_out_of_arena;
mod collector;
mod compile_fail;
mod frame_loop;
mod frame_source;
mod hashbrown_model;
mod panic_locations;
mod review4;
mod review48;
#[cfg(not(miri))]
mod review_nests;

mod rows;
mod rows_out_of_arena;
mod rows_ranked;
mod rows_writer;
mod scopes;
mod sealed;
mod segmented_drops;
mod segmented_misc;
mod segmented_model;
mod segmented_pointers;
mod serde_arena;
mod serde_attributes;
mod serde_attrs_oracle;
mod serde_bound;
mod serde_buffer;
mod serde_bytes;
mod serde_cautious;
mod serde_compose;
mod serde_depth;
mod serde_derive_rules;
mod serde_drops;
mod serde_flatten;
mod serde_lend;
mod serde_macro_declared;
mod serde_messages;
mod serde_oracle;
mod serde_refused;
mod serde_review50;
mod serde_review50b;
mod serde_review6;
mod serde_tagged;
mod serde_tokens;
mod serde_untagged;
mod serde_weight;
mod sizing_report;
mod std_string;
mod std_vec;
mod string_format;
mod string_model;
mod string_panics;
mod string_traits;
mod tags;
mod threads;
mod web_backend;

/// How many cases a property test runs: `default`, fewer under Miri, or
/// `TICKARENA_PROPTEST_CASES` when set (the slow checkers in `.ci/run`).
pub fn proptest_cases(default: u32) -> u32 {
    let scaled = if cfg!(miri) { 4 } else { default };
    std::env::var("TICKARENA_PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(scaled)
}
