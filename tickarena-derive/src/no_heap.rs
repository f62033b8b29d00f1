//! `#[deserialize_in(no_heap)]` on a `#[derive(DeserializeIn)]` type: a
//! field read through its own `serde::Deserialize` (one whose type does
//! not mention the arena's lifetime) is refused at compile time if its
//! type needs dropping, since such a field (a `String`, a `Vec`, a `Box`,
//! a type holding one) owns heap memory that the decode allocates.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::Attribute;
use syn::spanned::Spanned;

use crate::model::Errors;

/// Whether the type asks for the check (`#[deserialize_in(no_heap)]`).
pub fn requested(attrs: &[Attribute], errors: &mut Errors) -> bool {
    let mut requested = false;
    for attr in attrs
        .iter()
        .filter(|attr| attr.path().is_ident("deserialize_in"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("no_heap") {
                requested = true;
                Ok(())
            } else {
                Err(meta.error(
                    "#[deserialize_in(..)] knows only `no_heap` (refuse fields that would \
                     own heap memory)",
                ))
            }
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    requested
}

/// The compile-time check that `ty`, a field read through its own
/// `Deserialize`, owns nothing on the heap; under the field's type.
pub fn check(ty: &syn::Type) -> TokenStream {
    quote_spanned! {ty.span()=>
        const _: () = ::core::assert!(
            !::core::mem::needs_drop::<#ty>(),
            "#[deserialize_in(no_heap)]: this field is read by its own `serde::Deserialize` and \
             needs dropping, so it owns heap memory (a `String`, `Vec` or `Box`): use `&'a str`, \
             `FrameString<'a>`, `&'a [T]` or `FrameVec<'a, T>`, in the arena",
        );
    }
}
