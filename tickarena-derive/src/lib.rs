//! Derives for [tickarena](https://docs.rs/tickarena), re-exported at its
//! root with its `derive` feature: use them as `tickarena::FrameData`,
//! `tickarena::RollbackState` and `tickarena::DeserializeIn`, not from
//! this crate.
//!
//! Each derive reads its input into a small model ([`model`]), checks it
//! (every refusal a compile error under the token that caused it, all of
//! them at once), then generates code that names every path absolutely.
//!
//! The generated code reaches tickarena at `::tickarena`, or at the path
//! `#[tickarena(crate = "..")]` on the type names (serde's
//! `#[serde(crate = "..")]` is the model), for a crate that reaches it
//! through a re-export. A crate whose `Cargo.toml` depends on tickarena-bevy
//! and not on tickarena gets `::tickarena_bevy::tickarena` without asking.

mod deserialize_in;
mod flatten;
mod frame_data;
mod identifier;
mod model;
mod no_heap;
mod rollback_state;
mod tagged;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// `#[derive(FrameData)]` on a type with at most one lifetime, the frame
/// arena's: implements `tickarena::FrameData` for the type at `'static`
/// (`type Of<'f>` = the type at `'f`), and `CovariantFrameData`, which
/// compiles only if the type is covariant in that lifetime. See
/// `tickarena::FrameData`.
#[proc_macro_derive(FrameData, attributes(frame_data, tickarena))]
pub fn derive_frame_data(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    frame_data::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `#[derive(RollbackState)]`: `Clone` with a `clone_from` that calls
/// `clone_from` on every field, so a rollback save reuses the slot's
/// capacity. See `tickarena::rollback::RollbackGame`.
#[proc_macro_derive(RollbackState, attributes(tickarena))]
pub fn derive_rollback_state(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    rollback_state::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `#[derive(DeserializeIn)]` on a struct or an enum with at most one
/// lifetime, the arena's: deserializes it with its nested data (strings,
/// lists, boxes) in a `tickarena::FrameArena`. See
/// `tickarena::serde::DeserializeIn`.
#[proc_macro_derive(DeserializeIn, attributes(serde, tickarena, deserialize_in))]
pub fn derive_deserialize_in(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    deserialize_in::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
