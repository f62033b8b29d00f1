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

/// How a field is read, for what it may own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// Through `DeserializeIn` (its type names the arena's lifetime).
    InArena,
    /// Through `DeserializeIn` where its type has it, else its own
    /// `Deserialize` (a type without the arena's lifetime): decided by
    /// method resolution on `FieldProbe` where the code is compiled.
    Probed,
    /// By its own `Deserialize` or a function of the user's
    /// (`deserialize_with`), or not at all (a type read through another,
    /// `from`): judged by whether it needs dropping.
    Own,
}

/// What a field of type `ty` owns, as a constant expression of
/// `FieldHeap` at the arena lifetime `lifetime`: `needs_drop` for a field
/// read by its own `Deserialize`, its type's `HEAP_FREE` and
/// `HEAP_CAUSE` for one read in the arena (`name`, the type itself,
/// standing for `Recursion` there, so that a recursive type's constant
/// does not name itself), and for a probed one whichever way method
/// resolution reads it (a closure that is never called; see
/// `tickarena::serde::__private::FieldProbe`). The type is named once,
/// so that one that cannot be read is one error here.
pub fn field_heap(ty: &syn::Type, read: Read, name: &Ident, lifetime: &TokenStream) -> TokenStream {
    let ty = without_recursion(ty, name);
    match read {
        Read::InArena => quote_spanned! {ty.span()=>
            __tickarena::serde::__private::field_heap::<#lifetime, #ty>()
        },
        Read::Probed => quote_spanned! {ty.span()=>
            __tickarena::serde::__private::kind_field_heap(|| {
                __tickarena::serde::__private::FieldProbe::<#ty>::REF.kind()
            })
        },
        Read::Own => quote_spanned! {ty.span()=>
            __tickarena::serde::__private::own_field_heap::<#ty>()
        },
    }
}

/// The type's `HEAP_CAUSE`: that of the first field (in `fields`: its
/// name as a message shows it, its type, how it is read) that is not heap
/// free, the way through it included; none if every field is (then the
/// type is heap free: `HEAP_FREE` is whether this is none).
pub fn type_cause(
    name: &Ident,
    fields: &[(String, &syn::Type, Read)],
    lifetime: &TokenStream,
) -> TokenStream {
    let type_name = crate::model::serde_name(name);
    let mut cause = quote!(__tickarena::serde::__private::HeapCause::NONE);
    for (field, ty, read) in fields.iter().rev() {
        let heap = field_heap(ty, *read, name, lifetime);
        let shown = shown_type(ty);
        // Each value in a local, borrowed there: a borrowed temporary of
        // a constant expression would be promoted, that is evaluated
        // wherever the constant is compiled, and two types that hold each
        // other would be a cycle even without `no_heap`.
        cause = quote! {{
            let __heap = #heap;
            let __cause = __heap.cause_at(#type_name, #field, #shown);
            if __cause.is_none() { #cause } else { __cause }
        }};
    }
    cause
}

/// A type as a user writes it (`FrameVec<'a, Input>`), not as tokens
/// print (`FrameVec < 'a , Input >`).
fn shown_type(ty: &syn::Type) -> String {
    let mut out = String::new();
    for piece in quote!(#ty).to_string().split(' ') {
        let glued = out.ends_with(['<', '&', '(', '[', ':'])
            || piece.starts_with(['<', '>', ',', ')', ']', ':', ';']);
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(piece);
    }
    out
}

/// The compile-time check of `no_heap` on one field (`field`, its name in
/// the message): its [`field_heap`] at `'static`, asserted under the
/// field's type, with a message that names the cause inside the field's
/// type where it is there (`` `Input::inner` → `Deep::text` (`String`)
/// ``), not only the field.
pub fn check(
    field: &str,
    ty: &syn::Type,
    read: Read,
    name: &Ident,
    lifetime: Option<&Lifetime>,
) -> TokenStream {
    let ty = lifetime.map_or_else(|| ty.clone(), |lifetime| at_static(ty, lifetime));
    let heap = field_heap(&ty, read, name, &quote!('static));
    quote_spanned! {ty.span()=>
        const _: () = {
            let __heap = #heap;
            if !__heap.free {
                ::core::panic!("{}", __heap.refusal(#field).as_str())
            }
        };
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
