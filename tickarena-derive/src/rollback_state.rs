//! `#[derive(RollbackState)]`: `Clone`, with a `clone_from` that goes
//! field by field, so each field reuses what it holds (a `Vec`'s buffer, a
//! `String`'s) instead of being replaced by a fresh clone.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Error, Fields, GenericParam, parse_quote};

use crate::model::{Errors, crate_path};

pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    // The code below names only `core`; `#[tickarena(crate = "..")]` is
    // checked all the same, so one attribute serves every derive on a type.
    let mut errors = Errors::default();
    crate_path(input, &mut errors);
    errors.finish()?;
    let name = &input.ident;
    let mut generics = input.generics.clone();
    for param in &mut generics.params {
        if let GenericParam::Type(param) = param {
            param.bounds.push(parse_quote!(::core::clone::Clone));
        }
    }
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let (clone, clone_from) = match &input.data {
        Data::Struct(data) => {
            let (pattern, fields) = bind(&data.fields, "a");
            let (source, source_fields) = bind(&data.fields, "b");
            let clones = fields
                .iter()
                .map(|f| quote!(::core::clone::Clone::clone(#f)));
            let built = build(quote!(#name), &data.fields, clones);
            let pairs = fields.iter().zip(&source_fields);
            let each = pairs.map(|(a, b)| quote!(::core::clone::Clone::clone_from(#a, #b);));
            (
                quote! { let #name #pattern = self; #built },
                quote! {
                    let #name #pattern = self;
                    let #name #source = source;
                    #(#each)*
                },
            )
        }
        Data::Enum(data) => {
            let mut clones = Vec::new();
            let mut same_variant = Vec::new();
            for variant in &data.variants {
                let ident = &variant.ident;
                let (pattern, fields) = bind(&variant.fields, "a");
                let (source, source_fields) = bind(&variant.fields, "b");
                let cloned = fields
                    .iter()
                    .map(|f| quote!(::core::clone::Clone::clone(#f)));
                let built = build(quote!(#name::#ident), &variant.fields, cloned);
                clones.push(quote!(#name::#ident #pattern => #built,));
                let each = fields
                    .iter()
                    .zip(&source_fields)
                    .map(|(a, b)| quote!(::core::clone::Clone::clone_from(#a, #b);));
                same_variant.push(quote! {
                    (#name::#ident #pattern, #name::#ident #source) => { #(#each)* }
                });
            }
            (
                quote! { match self { #(#clones)* } },
                quote! {
                    match (&mut *self, source) {
                        #(#same_variant)*
                        // Another variant: nothing of this one to reuse.
                        #[allow(unreachable_patterns)]
                        _ => *self = ::core::clone::Clone::clone(source),
                    }
                },
            )
        }
        Data::Union(data) => {
            return Err(Error::new_spanned(
                data.union_token,
                "#[derive(RollbackState)] cannot clone a union field by field: derive it on \
                 a struct or an enum, or implement `Clone` by hand",
            ));
        }
    };
    Ok(quote! {
        impl #impl_generics ::core::clone::Clone for #name #type_generics #where_clause {
            #[inline]
            fn clone(&self) -> Self {
                #clone
            }

            #[inline]
            fn clone_from(&mut self, source: &Self) {
                #clone_from
            }
        }
    })
}

/// A pattern binding every field of `fields` to `prefix0`, `prefix1`, ..,
/// and those names in order.
fn bind(fields: &Fields, prefix: &str) -> (TokenStream, Vec<syn::Ident>) {
    let names: Vec<_> = (0..fields.len())
        .map(|i| format_ident!("{prefix}{i}"))
        .collect();
    let pattern = match fields {
        Fields::Named(named) => {
            let idents = named.named.iter().map(|f| &f.ident);
            quote!({ #(#idents: #names),* })
        }
        Fields::Unnamed(_) => quote!(( #(#names),* )),
        Fields::Unit => quote!(),
    };
    (pattern, names)
}

/// `path` built from `values`, one per field in order.
fn build(
    path: TokenStream,
    fields: &Fields,
    values: impl Iterator<Item = TokenStream>,
) -> TokenStream {
    match fields {
        Fields::Named(named) => {
            let idents = named.named.iter().map(|f| &f.ident);
            quote!(#path { #(#idents: #values),* })
        }
        Fields::Unnamed(_) => quote!(#path( #(#values),* )),
        Fields::Unit => path,
    }
}
