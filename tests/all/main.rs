//! All integration tests in one binary (one link instead of one per file),
//! a module per topic.

#![feature(allocator_api, btreemap_alloc)]

mod arena_collections;
mod arena_errors;
mod arena_frames;
mod arena_model;
mod compile_fail;
mod segmented_drops;
mod segmented_misc;
mod segmented_model;
mod string_format;
mod string_model;
mod string_traits;
