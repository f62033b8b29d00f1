//! `#[deserialize_in(no_heap)]` on a `#[derive(DeserializeIn)]` type, and
//! the `HEAP_FREE` constant every derived type gets: whether a decoded
//! value owns nothing on the heap. A field read through its own
//! `serde::Deserialize` (one whose type does not mention the arena's
//! lifetime) is heap free if its type needs no dropping (a `String`, a
//! `Vec`, a `Box`, a type holding one, owns heap memory that the decode
//! allocates); a field read in the arena is heap free if its type's
//! `HEAP_FREE` says so, which reaches the types nested in it. `no_heap`
//! asserts it for every field, in a constant that `cargo check` evaluates.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Lifetime};

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

/// Whether a field of type `ty` owns nothing on the heap, as a constant
/// expression at the arena lifetime `lifetime`: `!needs_drop` for a field
/// read by its own `Deserialize`, its type's `HEAP_FREE` for one read in
/// the arena (`name`, the type itself, standing for `Recursion` there, so
/// that a recursive type's constant does not name itself).
pub fn heap_free(
    ty: &syn::Type,
    in_arena: bool,
    name: &Ident,
    lifetime: &TokenStream,
) -> TokenStream {
    if in_arena {
        let ty = without_recursion(ty, name);
        quote_spanned! {ty.span()=>
            __tickarena::serde::__private::heap_free::<#lifetime, #ty>()
        }
    } else {
        quote_spanned!(ty.span()=> !::core::mem::needs_drop::<#ty>())
    }
}

/// The compile-time check of `no_heap` on one field (`field`, its name in
/// the message): its [`heap_free`] at `'static`, asserted under the
/// field's type.
pub fn check(
    field: &str,
    ty: &syn::Type,
    in_arena: bool,
    name: &Ident,
    lifetime: Option<&Lifetime>,
) -> TokenStream {
    let ty = lifetime.map_or_else(|| ty.clone(), |lifetime| at_static(ty, lifetime));
    let heap_free = heap_free(&ty, in_arena, name, &quote!('static));
    let message = if in_arena {
        format!(
            "#[deserialize_in(no_heap)]: field `{field}` owns heap memory through a type nested \
             in it (a `String`, `Vec` or `Box` there, read by its own `serde::Deserialize`): use \
             `&'a str`, `FrameString<'a>`, `&'a [T]` or `FrameVec<'a, T>` in that type, in the \
             arena"
        )
    } else {
        format!(
            "#[deserialize_in(no_heap)]: field `{field}` is read by its own `serde::Deserialize` \
             and needs dropping, so it owns heap memory (a `String`, `Vec` or `Box`): use `&'a \
             str`, `FrameString<'a>`, `&'a [T]` or `FrameVec<'a, T>`, in the arena"
        )
    };
    quote_spanned! {ty.span()=>
        const _: () = ::core::assert!(#heap_free, #message);
    }
}

/// `ty` with the lifetime `lifetime` replaced by `'static`: a constant
/// outside the impl has no lifetime to name, and a type of the derive's
/// (one lifetime, no type parameters) at `'static` is the type at any.
fn at_static(ty: &syn::Type, lifetime: &Lifetime) -> syn::Type {
    fn walk(tokens: TokenStream, name: &Ident) -> TokenStream {
        let mut out = Vec::new();
        let mut quote = false;
        for token in tokens {
            let token = match token {
                TokenTree::Group(group) => {
                    let mut inner =
                        proc_macro2::Group::new(group.delimiter(), walk(group.stream(), name));
                    inner.set_span(group.span());
                    TokenTree::Group(inner)
                }
                TokenTree::Ident(ident) if quote && ident == *name => {
                    TokenTree::Ident(Ident::new("static", ident.span()))
                }
                other => other,
            };
            quote = matches!(&token, TokenTree::Punct(p) if p.as_char() == '\'');
            out.push(token);
        }
        out.into_iter().collect()
    }
    syn::parse2(walk(quote!(#ty), &lifetime.ident)).unwrap_or_else(|_| ty.clone())
}

/// `ty` with the type `name` (and its lifetime argument) replaced by
/// `Recursion`, where it is named by itself (not `path::Name`, another
/// module's type perhaps).
fn without_recursion(ty: &syn::Type, name: &Ident) -> syn::Type {
    fn walk(tokens: TokenStream, name: &Ident) -> TokenStream {
        let mut out: Vec<TokenTree> = Vec::new();
        let mut tokens = tokens.into_iter().peekable();
        while let Some(token) = tokens.next() {
            match token {
                TokenTree::Ident(ident)
                    if ident == *name
                        && !matches!(out.last(), Some(TokenTree::Punct(p)) if p.as_char() == ':') =>
                {
                    out.extend(quote!(__tickarena::serde::__private::Recursion));
                    // Its generic arguments (`<'a>`) go with it.
                    if matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '<') {
                        let mut depth = 0usize;
                        for token in tokens.by_ref() {
                            if let TokenTree::Punct(p) = &token {
                                match p.as_char() {
                                    '<' => depth += 1,
                                    '>' => depth -= 1,
                                    _ => {}
                                }
                            }
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                }
                TokenTree::Group(group) => {
                    let mut inner =
                        proc_macro2::Group::new(group.delimiter(), walk(group.stream(), name));
                    inner.set_span(group.span());
                    out.push(TokenTree::Group(inner));
                }
                other => out.push(other),
            }
        }
        out.into_iter().collect()
    }
    syn::parse2(walk(quote!(#ty), name)).unwrap_or_else(|_| ty.clone())
}
