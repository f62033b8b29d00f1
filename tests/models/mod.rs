//! Models shared by the property tests (`tests/all`) and the fuzz targets
//! (`fuzz/`): a sequence of operations, applied to a tickarena type and to
//! the std type (or a model of the arena), checked after every step.
//!
//! The operations derive `Arbitrary` when built by `cargo fuzz`; the
//! property tests build them with proptest strategies.

pub mod arena;
pub mod byte_edit;
pub mod rows;
pub mod scopes;
pub mod segmented;
pub mod serde_attrs_decode;
pub mod serde_decode;
pub mod string;
pub mod tags;
pub mod threads;
pub mod tokens;
