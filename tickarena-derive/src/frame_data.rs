//! `#[derive(FrameData)]`: the type at `'static` names the kind of frame
//! data; `Of<'f>` is the type at `'f`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, GenericParam, Lifetime};

use crate::model::{Errors, crate_path, frame_lifetime, without_lifetime};

/// What `#[frame_data(..)]` says.
#[derive(Default)]
struct Options {
    /// `not_covariant`: no `CovariantFrameData` (data with a `Cell` or a
    /// `&mut` in it, read only through a closure).
    not_covariant: bool,
}

fn options(input: &DeriveInput, errors: &mut Errors) -> Options {
    let mut options = Options::default();
    for attr in input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("frame_data"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("not_covariant") {
                options.not_covariant = true;
                Ok(())
            } else {
                Err(meta.error(
                    "unknown frame_data option: the one option is `not_covariant` \
                     (`#[frame_data(not_covariant)]`, for data that is not covariant in its \
                     lifetime)",
                ))
            }
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    options
}

pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let lifetime = frame_lifetime(input, "FrameData", &mut errors);
    let options = options(input, &mut errors);
    let krate = crate_path(input, &mut errors);
    errors.finish()?;

    let name = &input.ident;
    let impl_generics = without_lifetime(&input.generics);
    let (impl_generics, _, where_clause) = impl_generics.split_for_impl();
    // The type with its frame lifetime replaced by `at`.
    let at = |at: &Lifetime| {
        let args = input.generics.params.iter().map(|param| match param {
            GenericParam::Lifetime(_) => quote!(#at),
            GenericParam::Type(param) => {
                let ident = &param.ident;
                quote!(#ident)
            }
            GenericParam::Const(param) => {
                let ident = &param.ident;
                quote!(#ident)
            }
        });
        if input.generics.params.is_empty() {
            quote!(#name)
        } else {
            quote!(#name<#(#args),*>)
        }
    };
    let span = lifetime.as_ref().map_or(name.span(), |l| l.span());
    let life = |name: &str| Lifetime::new(name, span);
    let (kind, frame, short, long) = (
        at(&life("'static")),
        at(&life("'__frame")),
        at(&life("'__short")),
        at(&life("'__long")),
    );
    let (l_short, l_long, l_frame) = (life("'__short"), life("'__long"), life("'__frame"));

    let frame_data = quote! {
        impl #impl_generics #krate::FrameData for #kind #where_clause {
            type Of<#l_frame> = #frame;
        }
    };
    if options.not_covariant {
        return Ok(frame_data);
    }
    // `{ data }` compiles only if the type is covariant in its lifetime:
    // the check `CovariantFrameData` asks of a hand-written impl. Spanned
    // on the lifetime, so rustc's "lifetime may not live long enough"
    // points at it.
    // The parameter is named with the same span as its use: a span from
    // the input carries the hygiene of a `macro_rules!` that wrote the type,
    // which a `data` of the derive's own would not resolve under.
    let data = proc_macro2::Ident::new("data", span);
    Ok(quote! {
        #frame_data
        impl #impl_generics #krate::CovariantFrameData for #kind #where_clause {
            fn shorten<#l_short, #l_long: #l_short>(#data: &#l_short #long) -> &#l_short #short {
                #data
            }
        }
    })
}
