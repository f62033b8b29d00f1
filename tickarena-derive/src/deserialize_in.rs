//! `#[derive(DeserializeIn)]`: structs and enums whose nested data (strings,
//! lists, boxes) is deserialized into a frame arena, in the encoding serde's
//! own derive reads and writes (structs as maps or sequences, enums
//! externally tagged), so one type can derive serde's `Serialize` beside it.
//! serde's attributes mean what they mean to serde's derive (see
//! [`crate::model`] for how they are read, and `refuse_*` below for the
//! ones this derive does not follow).

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Data, DeriveInput, Error, Fields, GenericParam, Ident, Lifetime};

use crate::identifier::{field_key_seed, variant_tag_seed};
use crate::model::{
    ContainerAttrs, DefaultAttr, Errors, FieldAttrs, RenameRule, VariantAttrs, container_attrs,
    crate_path, field_attrs, frame_lifetime, mentions, serde_name, variant_attrs,
};
use crate::no_heap::Read;

/// One field, read and checked.
pub(crate) struct Field {
    /// The name in the constructor (`name`), or the index of a tuple field.
    pub(crate) member: syn::Member,
    pub(crate) ty: syn::Type,
    /// The key in a map (after `rename` and `rename_all`).
    pub(crate) key: String,
    /// Every key read as this field: `key` and its aliases, in serde's
    /// order (sorted), which its "expected one of" messages list.
    pub(crate) names: Vec<String>,
    pub(crate) attrs: FieldAttrs,
    /// Whether the type mentions the arena's lifetime: read through
    /// `InArena`, else through the type's own `Deserialize`.
    pub(crate) in_arena: bool,
}

/// The fields of a struct or a variant.
pub(crate) enum Shape {
    Named(Vec<Field>),
    Tuple(Vec<Field>),
    Unit,
}

impl Shape {
    pub(crate) fn fields(&self) -> &[Field] {
        match self {
            Shape::Named(fields) | Shape::Tuple(fields) => fields,
            Shape::Unit => &[],
        }
    }
}

/// One variant, read and checked.
pub(crate) struct Variant {
    pub(crate) ident: Ident,
    /// Every tag read as this variant: its name (after `rename` and the
    /// type's `rename_all`) and its aliases, sorted as serde sorts them.
    pub(crate) names: Vec<String>,
    pub(crate) shape: Shape,
    pub(crate) attrs: VariantAttrs,
}

/// What the type's attributes say to every visitor it generates.
pub(crate) struct Rules<'r> {
    /// The type's `default` (a struct's): a missing field is this value's.
    pub(crate) default: &'r DefaultAttr,
    /// `deny_unknown_fields`: an unknown key is an error.
    pub(crate) deny_unknown_fields: bool,
    /// `expecting = ".."`: every visitor's `expecting` text.
    pub(crate) expecting: Option<&'r str>,
    /// The arena's lifetime, as the generated items declare it.
    pub(crate) lifetime: &'r Lifetime,
}

/// `name` and `aliases`, deduplicated and sorted (serde's `BTreeSet`).
fn names(name: String, aliases: &[String]) -> Vec<String> {
    let set: BTreeSet<String> = std::iter::once(name)
        .chain(aliases.iter().cloned())
        .collect();
    set.into_iter().collect()
}

fn read_fields(
    fields: &Fields,
    lifetime: Option<&Lifetime>,
    this: &TokenStream,
    rule: RenameRule,
    errors: &mut Errors,
) -> Shape {
    let read = |index: usize, field: &syn::Field, errors: &mut Errors| {
        let attrs = field_attrs(&field.attrs, errors);
        refuse_field(&attrs, errors);
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(index.into()),
        };
        let name = field
            .ident
            .as_ref()
            .map_or_else(|| index.to_string(), serde_name);
        // The generated visitors are types of their own, where `Self`
        // would name the visitor: name the type instead.
        let ty = without_self(&field.ty, this);
        let key = attrs
            .rename
            .clone()
            .unwrap_or_else(|| rule.apply_to_field(&name));
        Field {
            member,
            names: names(key.clone(), &attrs.aliases),
            key,
            in_arena: lifetime.is_some_and(|l| mentions(&ty, l)),
            ty,
            attrs,
        }
    };
    match fields {
        Fields::Named(named) => Shape::Named(
            named
                .named
                .iter()
                .enumerate()
                .map(|(i, f)| read(i, f, errors))
                .collect(),
        ),
        Fields::Unnamed(unnamed) => Shape::Tuple(
            unnamed
                .unnamed
                .iter()
                .enumerate()
                .map(|(i, f)| read(i, f, errors))
                .collect(),
        ),
        Fields::Unit => Shape::Unit,
    }
}

/// A `bound` predicate that names serde's `'de` (`T: Deserialize<'de>`)
/// holds for every `'de` (`for<'de> T: Deserialize<'de>`): the impl
/// declares no `'de` of its own (`deserialize_in` is generic over it).
fn bound_predicate(mut predicate: syn::WherePredicate) -> syn::WherePredicate {
    if let syn::WherePredicate::Type(typed) = &mut predicate {
        let de = Lifetime::new("'de", Span::call_site());
        let names_de = crate::model::tokens_mention(quote!(#typed), "de");
        let declares_de = typed
            .lifetimes
            .as_ref()
            .is_some_and(|l| l.lifetimes.iter().any(|p| quote!(#p).to_string() == "'de"));
        if names_de && !declares_de {
            let bound: syn::BoundLifetimes = syn::parse_quote!(for<#de>);
            match &mut typed.lifetimes {
                Some(lifetimes) => lifetimes.lifetimes.extend(bound.lifetimes),
                None => typed.lifetimes = Some(bound),
            }
        }
    }
    predicate
}

pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let lifetime = frame_lifetime(input, "DeserializeIn", &mut errors);
    for param in &input.generics.params {
        if !matches!(param, GenericParam::Lifetime(_)) {
            errors.push(Error::new_spanned(
                param,
                "#[derive(DeserializeIn)] takes no type or const parameters: one lifetime, the \
                 arena's (`struct Packet<'a>`); name the concrete types in the fields",
            ));
        }
    }
    let container = container_attrs(input, &mut errors);
    refuse_container(input, &container, &mut errors);
    let krate = crate_path(input, &mut errors);
    let no_heap = crate::no_heap::requested(&input.attrs, &mut errors);
    let name = &input.ident;
    let arena_lifetime = lifetime
        .clone()
        .unwrap_or_else(|| Lifetime::new("'__arena", Span::call_site()));
    // `HEAP_CAUSE`: the first field read that is not heap free, and what
    // is inside it (`HEAP_FREE`: none is); `no_heap` asserts it field by
    // field.
    let (mut cause_fields, mut no_heap_checks) = (Vec::new(), Vec::new());
    // `bound`: the type's, and its fields' and variants'.
    let mut bounds: Vec<syn::WherePredicate> = container.bound.clone().unwrap_or_default();
    let mut variant_bounds = Vec::new();
    let converted = container.from.is_some() || container.try_from.is_some();
    let mut check_fields = |shape: &Shape, variant: Option<&Ident>| {
        for field in shape.fields() {
            bounds.extend(field.attrs.bound.iter().flatten().cloned());
        }
        for field in shape.fields().iter().filter(|f| !f.attrs.skip) {
            // A field its own function reads, or any field of a type
            // converted from another (`from`, `try_from`), need not be
            // `DeserializeIn`: judged as a plain field (whether it needs
            // dropping).
            let read = if field.attrs.deserialize_with.is_some() || converted {
                Read::Own
            } else if field.in_arena {
                Read::InArena
            } else {
                Read::Probed
            };
            let member = &field.member;
            let member = quote!(#member).to_string();
            let shown = variant.map_or(member.clone(), |v| format!("{v}::{member}"));
            if no_heap {
                no_heap_checks.push(crate::no_heap::check(
                    &shown,
                    &field.ty,
                    read,
                    name,
                    lifetime.as_ref(),
                ));
            }
            cause_fields.push((shown, field.ty.clone(), read));
        }
    };
    // The name the format is told (`deserialize_struct("Name", ..)`): the
    // `rename`, else the name without `r#`.
    let type_name = container.rename.clone().unwrap_or_else(|| serde_name(name));
    let ty = match &lifetime {
        Some(lifetime) => quote!(#name<#lifetime>),
        None => quote!(#name),
    };
    let rules = Rules {
        default: &container.default,
        deny_unknown_fields: container.deny_unknown_fields.is_some(),
        expecting: container.expecting.as_deref(),
        lifetime: &arena_lifetime,
    };
    // `from` / `try_from`: the whole decode is the other type's.
    let conversion = |errors: Errors| -> syn::Result<Option<TokenStream>> {
        errors.finish()?;
        Ok(converted_body(&container, lifetime.as_ref(), &ty))
    };
    let body = match &input.data {
        Data::Struct(data) => {
            let shape = read_fields(
                &data.fields,
                lifetime.as_ref(),
                &ty,
                container.rename_all,
                &mut errors,
            );
            check_fields(&shape, None);
            if container.default.is_none() {
                refuse_default_gap(&shape, &mut errors);
            }
            let transparent = container
                .transparent
                .map(|span| transparent_field(&shape, span, &mut errors));
            match conversion(errors)? {
                Some(body) => body,
                None => match transparent {
                    Some(field) => transparent_body(&quote!(#name), &shape, field.unwrap(), &rules),
                    // `flatten`: `flatten.rs`.
                    None if crate::flatten::has_flatten(&shape) => {
                        crate::flatten::struct_body(&ty, name, &shape, &rules)?
                    }
                    None => struct_body(&ty, &quote!(#name), &type_name, &shape, &rules),
                },
            }
        }
        Data::Enum(data) => {
            let mut variants = Vec::new();
            for variant in &data.variants {
                let attrs = variant_attrs(&variant.attrs, &mut errors);
                refuse_variant(variant, &attrs, &mut errors);
                let rule = attrs.rename_all.or(container.rename_all_fields);
                let shape = read_fields(&variant.fields, lifetime.as_ref(), &ty, rule, &mut errors);
                refuse_variant_with_skips(variant, &attrs, &shape, &mut errors);
                check_fields(&shape, Some(&variant.ident));
                variant_bounds.extend(attrs.bound.iter().flatten().cloned());
                let key = attrs.rename.clone().unwrap_or_else(|| {
                    container
                        .rename_all
                        .apply_to_variant(&serde_name(&variant.ident))
                });
                variants.push(Variant {
                    ident: variant.ident.clone(),
                    names: names(key, &attrs.aliases),
                    shape,
                    attrs,
                });
            }
            refuse_other_placement(&variants, &mut errors);
            if container.identifier.is_some() {
                refuse_identifier(&variants, container.field_identifier, &mut errors);
            }
            match conversion(errors)? {
                Some(body) => body,
                None if container.identifier.is_some() => {
                    // `other` is the last variant (checked), matched by
                    // nothing of its own.
                    let other = variants.last().filter(|v| v.attrs.other.is_some());
                    let named: Vec<(&Ident, &[String])> = variants
                        .iter()
                        .filter(|v| v.attrs.other.is_none())
                        .map(|v| (&v.ident, v.names.as_slice()))
                        .collect();
                    crate::identifier::identifier_enum_body(
                        &ty,
                        name,
                        &named,
                        other.map(|v| &v.ident),
                        container.field_identifier,
                        rules.expecting,
                        &arena_lifetime,
                    )
                }
                // Tagged or untagged (`tag`, `tag` + `content`,
                // `untagged`): `tagged.rs`; else externally tagged.
                None => match crate::tagged::enum_body(
                    &ty, name, &type_name, data, &variants, &container, &rules,
                )? {
                    Some(body) => body,
                    None => enum_body(&ty, name, &type_name, &variants, &rules),
                },
            }
        }
        Data::Union(data) => {
            errors.push(Error::new_spanned(
                data.union_token,
                "#[derive(DeserializeIn)] cannot read a union (no format says which field is \
                 set): use an enum",
            ));
            errors.finish()?;
            unreachable!()
        }
    };
    let bounds = bounds
        .into_iter()
        .chain(variant_bounds)
        .map(bound_predicate);
    let cause_fields: Vec<(String, &syn::Type, Read)> = cause_fields
        .iter()
        .map(|(field, ty, read)| (field.clone(), ty, *read))
        .collect();
    let heap_cause = crate::no_heap::type_cause(name, &cause_fields, &quote!(#arena_lifetime));
    // A type whose fields name it (a tree's children, a boxed command) is
    // read level by level: not inlined, as serde's derive, so that a level
    // takes one frame, not its lists' loops inlined into it (the stack a
    // deep message takes), and its lists made out of line
    // (`NESTS_ITSELF`). Any other type is inlined into the one that
    // holds it, as its fields' reads are: a call per entity and per
    // component cost the snapshot's postcard decode a quarter more
    // instructions (`scripts/decode-instructions`).
    let nests_itself = cause_fields.iter().any(|(_, ty, _)| names_type(ty, name));
    let (nests, inline) = if nests_itself {
        (
            quote!(
                const NESTS_ITSELF: bool = true;
            ),
            quote!(),
        )
    } else {
        (quote!(), quote!(#[inline]))
    };
    Ok(quote! {
        const _: () = {
            use #krate as __tickarena;
            use __tickarena::serde::__private::serde as __serde;
            #[allow(unused_imports)] // a type with no defaulted arena field
            use __tickarena::serde::__private::{ViaDefault as _, ViaDefaultIn as _};
            #[allow(unused_imports)] // a type whose fields all name the arena's lifetime
            use __tickarena::serde::__private::{ViaDeserialize as _, ViaDeserializeIn as _};
            #(#no_heap_checks)*
            impl<#arena_lifetime> __tickarena::serde::DeserializeIn<#arena_lifetime> for #ty
            where
                #(#bounds,)*
            {
                // Through a call, as every constant of a field's type is
                // named (see `tickarena::serde::__private::field_heap`).
                const HEAP_FREE: bool = __tickarena::serde::__private::no_heap_cause::<#arena_lifetime, Self>();
                const HEAP_CAUSE: __tickarena::serde::__private::HeapCause = #heap_cause;
                #nests

                #inline
                fn deserialize_in<'__de, __D>(
                    __arena: &#arena_lifetime __tickarena::FrameArena,
                    __deserializer: __D,
                ) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: __serde::Deserializer<'__de>,
                {
                    #body
                }
            }
        };
    })
}

/// Whether `ty` names `name` (or `Self`) anywhere in it: a field of a
/// type that holds itself. Recursion through another type (A holds B
/// holds A) or an alias is not seen: such types are inlined, and their
/// levels take more stack, which the stack bound still measures.
fn names_type(ty: &syn::Type, name: &Ident) -> bool {
    fn any(tokens: TokenStream, name: &Ident) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => ident == *name || ident == "Self",
            proc_macro2::TokenTree::Group(group) => any(group.stream(), name),
            _ => false,
        })
    }
    any(quote!(#ty), name)
}

/// The seed that reads a value of `ty`: `InArena` for arena data, the
/// type's own `Deserialize` otherwise. Spanned on the type, so that rustc
/// names a type that is neither there, not at the derive.
fn type_seed(ty: &syn::Type, in_arena: bool, arena: &TokenStream) -> TokenStream {
    let span = syn::spanned::Spanned::span(ty);
    if in_arena {
        quote_spanned!(span=> __tickarena::serde::InArena::<#ty>::new(#arena))
    } else {
        // A type without the arena's lifetime: its own `Deserialize` where
        // it has one (a number, a heap `String`: as serde's derive reads
        // it, at the same cost), else its `DeserializeIn` (a `Pos { x: f32,
        // y: f32 }` deriving only that), picked by method resolution. A
        // protocol deriving `DeserializeIn` on every type composes without
        // serde's `Deserialize`. The choice is made in a constant, and the
        // seed built with no call: see `FieldProbe`.
        quote_spanned!(span=> __tickarena::serde::__private::FieldSeed(#arena, const {
            __tickarena::serde::__private::kind_of(|| {
                __tickarena::serde::__private::FieldProbe::<#ty>::REF.kind()
            })
        }))
    }
}

/// A seed of `value` (a type naming the arena's lifetime `lifetime`, or
/// not) that calls `path` with serde's signature, `fn<'de, D:
/// Deserializer<'de>>(D) -> Result<value, D::Error>`: `deserialize_with`
/// and `with`. The function gets no arena: a field that borrows the arena
/// gets what the function returns (data it builds elsewhere, or borrows
/// for longer).
pub(crate) fn with_seed(
    path: &syn::ExprPath,
    value: &TokenStream,
    lifetime: &Lifetime,
) -> TokenStream {
    // Under the path, as serde's derive spans it: a function of the wrong
    // signature is rustc's error at `with = ".."`.
    // The generated code's own names (`__deserializer` here) are
    // interpolated, never written inside a `quote_spanned!` under a span
    // of the input: such a span carries the hygiene of a `macro_rules!`
    // that wrote the type, where the derive's locals do not resolve.
    let deserializer = quote!(__deserializer);
    let call = quote_spanned!(syn::spanned::Spanned::span(path)=> #path(#deserializer));
    quote!({
        struct __DeserializeWith<#lifetime>(::core::marker::PhantomData<&#lifetime ()>);
        impl<'__de, #lifetime> __serde::de::DeserializeSeed<'__de> for __DeserializeWith<#lifetime> {
            type Value = #value;
            #[inline]
            fn deserialize<__W>(self, __deserializer: __W) -> ::core::result::Result<#value, __W::Error>
            where
                __W: __serde::Deserializer<'__de>,
            {
                #call
            }
        }
        __DeserializeWith(::core::marker::PhantomData)
    })
}

/// The seed that reads `field`: its `deserialize_with`, else its type's
/// (see [`type_seed`]).
pub(crate) fn seed(field: &Field, arena: &TokenStream, rules: &Rules<'_>) -> TokenStream {
    match &field.attrs.deserialize_with {
        Some(path) => {
            let ty = &field.ty;
            with_seed(path, &quote!(#ty), rules.lifetime)
        }
        None => type_seed(&field.ty, field.in_arena, arena),
    }
}

/// A missing field's value: its `default`'s (`Default::default()`, or the
/// function of `default = "path"`). Under the field's type (the path's for
/// a function, as serde's derive): a type without `Default` (an arena box)
/// is rustc's error there, not at the derive.
pub(crate) fn default_value(field: &Field, rules: &Rules<'_>, arena: &TokenStream) -> TokenStream {
    match &field.attrs.default {
        DefaultAttr::Path(path) => {
            quote_spanned!(syn::spanned::Spanned::span(path)=> #path())
        }
        // A type of the arena's lifetime: its `DefaultIn` where it has one
        // (an arena container, which has no `Default`), else its `Default`.
        DefaultAttr::Default | DefaultAttr::None if field.in_arena => {
            let ty = &field.ty;
            let span = syn::spanned::Spanned::span(ty);
            let probed = lifetime_inferred(quote!(#ty), rules.lifetime);
            quote_spanned!(span=> (&&__tickarena::serde::__private::DefaultProbe::<#probed>::new())
                .default_for(#arena))
        }
        DefaultAttr::Default | DefaultAttr::None => {
            let span = syn::spanned::Spanned::span(&field.ty);
            quote_spanned!(span=> ::core::default::Default::default())
        }
    }
}

/// `ty` with the arena's `lifetime` left to inference (`'_`), for the
/// default probe's type: a `Default` implemented for the `'static` type
/// only (`impl Default for Label<'static>`) then serves a `Label<'a>`, as
/// `Default::default()` does in serde's derive (the `'static` value is a
/// `Label<'a>` too), where naming `'a` would ask `'a` to be `'static`.
fn lifetime_inferred(ty: TokenStream, lifetime: &Lifetime) -> TokenStream {
    use proc_macro2::{Group, Punct, Spacing, TokenTree};
    let mut out = Vec::new();
    let mut tokens = ty.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(tick) if tick.as_char() == '\'' => match tokens.peek() {
                Some(TokenTree::Ident(name)) if *name == lifetime.ident => {
                    let underscore = Ident::new("_", name.span());
                    tokens.next();
                    let mut quote = Punct::new('\'', Spacing::Joint);
                    quote.set_span(tick.span());
                    out.push(TokenTree::Punct(quote));
                    out.push(TokenTree::Ident(underscore));
                }
                _ => out.push(TokenTree::Punct(tick)),
            },
            TokenTree::Group(group) => {
                let mut inner = Group::new(
                    group.delimiter(),
                    lifetime_inferred(group.stream(), lifetime),
                );
                inner.set_span(group.span());
                out.push(TokenTree::Group(inner));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// The value of a field the type's or the field's `default` fills when it
/// is missing (serde's order: the field's own `default`, then the type's
/// `__default`), or none.
pub(crate) fn defaulted(
    field: &Field,
    rules: &Rules<'_>,
    arena: &TokenStream,
) -> Option<TokenStream> {
    if !field.attrs.default.is_none() {
        return Some(default_value(field, rules, arena));
    }
    if !rules.default.is_none() {
        let member = &field.member;
        return Some(quote!(__default.#member));
    }
    None
}

/// A skipped field's value: its default, else the type's, else the
/// field's `Default`.
pub(crate) fn skipped_value(field: &Field, rules: &Rules<'_>, arena: &TokenStream) -> TokenStream {
    defaulted(field, rules, arena).unwrap_or_else(|| default_value(field, rules, arena))
}

/// `let __default = ..;`: the type's `default`, which missing fields are
/// taken from (nothing without one).
pub(crate) fn let_default(ty: &TokenStream, rules: &Rules<'_>, arena: &TokenStream) -> TokenStream {
    match rules.default {
        DefaultAttr::None => quote!(),
        // The type's `DefaultIn` where it has one (a type holding arena
        // containers, which have no `Default`), else its `Default`.
        DefaultAttr::Default => {
            let probed = lifetime_inferred(ty.clone(), rules.lifetime);
            quote! {
                let __default: #ty =
                    (&&__tickarena::serde::__private::DefaultProbe::<#probed>::new())
                        .default_for(#arena);
            }
        }
        DefaultAttr::Path(path) => {
            let default = quote!(__default);
            quote_spanned!(syn::spanned::Spanned::span(path)=> let #default: #ty = #path();)
        }
    }
}

/// The body of `deserialize_in` for `from = "Type"` or `try_from =
/// "Type"`: a `Type` read (through `InArena` if it mentions the arena's
/// lifetime, else its own `Deserialize`, as a field is), then converted;
/// `try_from`'s error is the format's custom error. None without either.
fn converted_body(
    container: &ContainerAttrs,
    lifetime: Option<&Lifetime>,
    this: &TokenStream,
) -> Option<TokenStream> {
    let (from, fallible) = match (&container.from, &container.try_from) {
        (Some(from), _) => (from, false),
        (None, Some(from)) => (from, true),
        (None, None) => return None,
    };
    let from = without_self(from, this);
    let in_arena = lifetime.is_some_and(|l| mentions(&from, l));
    let seed = type_seed(&from, in_arena, &quote!(__arena));
    let convert = if fallible {
        quote!(match ::core::convert::TryFrom::try_from(__from) {
            ::core::result::Result::Ok(__value) => ::core::result::Result::Ok(__value),
            ::core::result::Result::Err(__error) => {
                ::core::result::Result::Err(__serde::de::Error::custom(__error))
            }
        })
    } else {
        quote!(::core::result::Result::Ok(::core::convert::From::from(
            __from
        )))
    };
    Some(quote! {
        match __serde::de::DeserializeSeed::deserialize(#seed, __deserializer) {
            ::core::result::Result::Ok(__from) => #convert,
            ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
        }
    })
}

/// The one field a `transparent` struct is: the field read (not skipped,
/// not a `PhantomData`), as serde's derive picks it. Its index, or none
/// (with an error: no such field, or two).
fn transparent_field(shape: &Shape, span: Span, errors: &mut Errors) -> Option<usize> {
    let phantom = |ty: &syn::Type| {
        matches!(ty, syn::Type::Path(path)
            if path.path.segments.last().is_some_and(|s| s.ident == "PhantomData"))
    };
    let read: Vec<usize> = (0..shape.fields().len())
        .filter(|&i| !shape.fields()[i].attrs.skip && !phantom(&shape.fields()[i].ty))
        .collect();
    let message = match (shape, read.as_slice()) {
        (Shape::Unit, _) => "#[serde(transparent)] is not allowed on a unit struct",
        (_, [one]) => return Some(*one),
        (_, []) => "#[serde(transparent)] requires at least one field that is not skipped",
        _ => "#[serde(transparent)] requires struct to have at most one transparent field",
    };
    errors.push(Error::new(span, message));
    None
}

/// The body of `deserialize_in` for a `transparent` struct: its one field
/// read from the deserializer, the others their defaults.
fn transparent_body(
    path: &TokenStream,
    shape: &Shape,
    one: usize,
    rules: &Rules<'_>,
) -> TokenStream {
    let fields = shape.fields();
    let seed = seed(&fields[one], &quote!(__arena), rules);
    let values = fields.iter().enumerate().map(|(i, field)| {
        let member = &field.member;
        if i == one {
            quote!(#member: __transparent)
        } else {
            let value = default_value(field, rules, &quote!(__arena));
            quote!(#member: #value)
        }
    });
    quote! {
        match __serde::de::DeserializeSeed::deserialize(#seed, __deserializer) {
            ::core::result::Result::Ok(__transparent) => ::core::result::Result::Ok(#path { #(#values),* }),
            ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
        }
    }
}

/// A visitor type `visitor` building `path` from `shape`, with its
/// `visit_seq` (and `visit_map` for named fields, `visit_newtype_struct`
/// for a newtype struct).
fn fields_visitor(
    visitor: &Ident,
    ty: &TokenStream,
    path: &TokenStream,
    expecting: &str,
    shape: &Shape,
    rules: &Rules<'_>,
    newtype: bool,
) -> TokenStream {
    fields_visitor_with(visitor, ty, path, expecting, shape, rules, newtype, true)
}

/// [`fields_visitor`], with its `visit_seq` only if `with_seq` (serde's
/// untagged struct variants read a map only: `tagged.rs`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fields_visitor_with(
    visitor: &Ident,
    ty: &TokenStream,
    path: &TokenStream,
    expecting: &str,
    shape: &Shape,
    rules: &Rules<'_>,
    newtype: bool,
    with_seq: bool,
) -> TokenStream {
    let lifetime = rules.lifetime;
    let arena = quote!(self.arena);
    // Interpolated under the fields' spans (see `with_seed`).
    let seq_local = quote!(__seq);
    let fields = shape.fields();
    let locals: Vec<Ident> = (0..fields.len()).map(|i| format_ident!("__f{i}")).collect();
    // serde's derive's message for a sequence that ends early: the shape
    // with its count of fields read ("struct Msg with 7 elements"), or the
    // type's `expecting`.
    let read = fields.iter().filter(|f| !f.attrs.skip).count();
    let plural = if read == 1 { "" } else { "s" };
    let expecting_len = format!("{expecting} with {read} element{plural}");
    let expecting_len = rules.expecting.unwrap_or(&expecting_len);
    let expecting = rules.expecting.unwrap_or(expecting);
    let build = {
        let members = fields.iter().map(|f| &f.member);
        quote!(#path { #(#members: #locals),* })
    };
    // Sequence form: the fields in order, skipped ones left out.
    let mut read_seq = vec![let_default(ty, rules, &arena)];
    let mut position = 0usize;
    let last_read = fields.iter().rposition(|f| !f.attrs.skip);
    let is_last = |field: &Field| last_read.is_some_and(|i| core::ptr::eq(field, &fields[i]));
    // The skipped fields after the last one read, defaulted where it is.
    let skipped_after: Vec<TokenStream> = match last_read {
        Some(i) => fields[i + 1..]
            .iter()
            .zip(&locals[i + 1..])
            .map(|(field, local)| {
                let value = skipped_value(field, rules, &arena);
                quote!(let #local = #value;)
            })
            .collect(),
        None => Vec::new(),
    };
    for (field, local) in fields.iter().zip(&locals) {
        if field.attrs.skip {
            let value = skipped_value(field, rules, &arena);
            read_seq.push(quote!(let #local = #value;));
            continue;
        }
        let seed = seed(field, &arena, rules);
        let missing = defaulted(field, rules, &arena);
        // Spanned on the field's type, as the seed is (see `seed`).
        // `__seq` keeps the derive's own span (declared by `visit_seq`
        // under it): under the field's, a type declared by a caller's
        // `macro_rules!` would look for it in the caller's hygiene.
        let span = syn::spanned::Spanned::span(&field.ty);
        let next = quote_spanned!(span=> __serde::de::SeqAccess::next_element_seed(&mut #seq_local, #seed));
        // One match, not `?` and a match: a debug build keeps `?`'s
        // temporaries (the value once more) in this frame, which a
        // recursive type's every level holds across its fields' decode.
        if is_last(field) {
            // The last field read goes from its `Result` into the value
            // this returns, with no copy of it in between: a recursive
            // type's list field would otherwise take two more slots in
            // every level's frame.
            let rest = &skipped_after[..];
            let missing_arm = match &missing {
                Some(missing) => quote!({
                    let #local = #missing;
                    #(#rest)*
                    ::core::result::Result::Ok(#build)
                }),
                None => quote!(::core::result::Result::Err(
                    __serde::de::Error::invalid_length(#position, &#expecting_len)
                )),
            };
            // The body's last expression: the skipped fields after this
            // one are defaulted in its arms.
            read_seq.push(quote! {
                match #next {
                    ::core::result::Result::Ok(::core::option::Option::Some(#local)) => {
                        #(#rest)*
                        ::core::result::Result::Ok(#build)
                    }
                    ::core::result::Result::Ok(::core::option::Option::None) => #missing_arm,
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            });
            break;
        }
        let missing = missing.unwrap_or_else(|| {
            quote!(return ::core::result::Result::Err(
                __serde::de::Error::invalid_length(#position, &#expecting_len)
            ))
        });
        read_seq.push(quote! {
            let #local = match #next {
                ::core::result::Result::Ok(::core::option::Option::Some(value)) => value,
                ::core::result::Result::Ok(::core::option::Option::None) => #missing,
                ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
            };
        });
        position += 1;
    }
    // Built in the last field's match, if a field is read.
    let tail = if last_read.is_some() {
        quote!()
    } else {
        quote!(::core::result::Result::Ok(#build))
    };
    let seq = if last_read.is_some() {
        quote!(mut __seq)
    } else {
        quote!(_)
    };
    let visit_map = match shape {
        Shape::Named(fields) => map_form(fields, &locals, &build, ty, &arena, rules),
        _ => quote!(),
    };
    let visit_seq = with_seq.then(|| {
        quote! {
            #[inline]
            fn visit_seq<__S>(self, #seq: __S) -> ::core::result::Result<#ty, __S::Error>
            where
                __S: __serde::de::SeqAccess<'__de>,
            {
                #(#read_seq)*
                #tail
            }
        }
    });
    // A newtype struct marked as one (serde_test's tokens, RON): its field
    // read from the deserializer given, as serde's derive reads it (even
    // a skipped one).
    let visit_newtype = if newtype {
        let seed = seed(&fields[0], &arena, rules);
        let member = &fields[0].member;
        quote! {
            #[inline]
            fn visit_newtype_struct<__N>(self, __e: __N) -> ::core::result::Result<#ty, __N::Error>
            where
                __N: __serde::Deserializer<'__de>,
            {
                match __serde::de::DeserializeSeed::deserialize(#seed, __e) {
                    ::core::result::Result::Ok(__field) => ::core::result::Result::Ok(#path { #member: __field }),
                    ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
                }
            }
        }
    } else {
        quote!()
    };
    let visitor_struct = visitor_struct(visitor, lifetime);
    quote! {
        #visitor_struct
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for #visitor<#lifetime> {
            type Value = #ty;

            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }

            #visit_newtype

            #visit_seq

            #visit_map
        }
    }
}

/// `visit_map` for named fields: keys by name, alias or index, in any
/// order, unknown ones skipped (or refused), each field at most once.
fn map_form(
    fields: &[Field],
    locals: &[Ident],
    build: &TokenStream,
    ty: &TokenStream,
    arena: &TokenStream,
    rules: &Rules<'_>,
) -> TokenStream {
    let read: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, field)| !field.attrs.skip)
        .collect();
    let keys: Vec<&str> = read.iter().map(|(_, f)| f.key.as_str()).collect();
    let names: Vec<&[String]> = read.iter().map(|(_, f)| f.names.as_slice()).collect();
    let all_names = names.iter().flat_map(|n| n.iter());
    let key_seed = field_key_seed(&names, rules.deny_unknown_fields);
    let fields_const = if rules.deny_unknown_fields {
        quote!(const __FIELDS: &[&str] = &[#(#all_names),*];)
    } else {
        quote!()
    };
    let indices: Vec<usize> = (0..read.len()).collect();
    let slots: Vec<&Ident> = read.iter().map(|(i, _)| &locals[*i]).collect();
    let types: Vec<&syn::Type> = read.iter().map(|(_, f)| &f.ty).collect();
    // Spanned on the field's type, as the seed is (see `seed`).
    let reads: Vec<TokenStream> = read
        .iter()
        .map(|(_, f)| {
            let seed = seed(f, arena, rules);
            let span = syn::spanned::Spanned::span(&f.ty);
            let map = quote!(__map);
            quote_spanned!(span=> __serde::de::MapAccess::next_value_seed(&mut #map, #seed)?)
        })
        .collect();
    let finish = fields
        .iter()
        .zip(locals)
        .map(|(field, local)| finish_field(field, local, arena, rules));
    let default = let_default(ty, rules, arena);
    quote! {
        #[inline]
        fn visit_map<__M>(self, mut __map: __M) -> ::core::result::Result<Self::Value, __M::Error>
        where
            __M: __serde::de::MapAccess<'__de>,
        {
            #fields_const
            #key_seed
            #(let mut #slots: ::core::option::Option<#types> = ::core::option::Option::None;)*
            while let ::core::option::Option::Some(__Key(key)) = __serde::de::MapAccess::next_key_seed(&mut __map, __KeySeed)? {
                match key {
                    #(::core::option::Option::Some(#indices) => {
                        if #slots.is_some() {
                            return ::core::result::Result::Err(__serde::de::Error::duplicate_field(#keys));
                        }
                        #slots = ::core::option::Option::Some(#reads);
                    })*
                    _ => {
                        __serde::de::MapAccess::next_value::<__serde::de::IgnoredAny>(&mut __map)?;
                    }
                }
            }
            #default
            #(#finish)*
            ::core::result::Result::Ok(#build)
        }
    }
}

/// `struct visitor { arena }`: a visitor (or seed), holding the arena that
/// what it reads goes into.
pub(crate) fn visitor_struct(visitor: &Ident, lifetime: &Lifetime) -> TokenStream {
    quote! {
        #[allow(dead_code)] // a type with no arena data does not read it
        struct #visitor<#lifetime> {
            arena: &#lifetime __tickarena::FrameArena,
        }
    }
}

/// `let local = ..;`: a map-read field's value once the map is done, from
/// its slot `local` (an `Option`), or, where the map had no such key, what
/// serde's derive takes: a skipped field's value, the `default`, a
/// `missing_field` error for a `deserialize_with` field, else what the
/// field's type reads from "nothing here". Shared by the flattened form.
pub(crate) fn finish_field(
    field: &Field,
    local: &Ident,
    arena: &TokenStream,
    rules: &Rules<'_>,
) -> TokenStream {
    let key = &field.key;
    if field.attrs.skip {
        let value = skipped_value(field, rules, arena);
        quote!(let #local = #value;)
    } else if let Some(value) = defaulted(field, rules, arena) {
        quote! {
            let #local = match #local {
                ::core::option::Option::Some(value) => value,
                ::core::option::Option::None => #value,
            };
        }
    } else if field.attrs.deserialize_with.is_some() {
        // serde's derive: a field read by a function of its own is
        // missing, whatever its type.
        quote! {
            let #local = match #local {
                ::core::option::Option::Some(value) => value,
                ::core::option::Option::None => return ::core::result::Result::Err(
                    __serde::de::Error::missing_field(#key),
                ),
            };
        }
    } else {
        // serde's rule: the field's own type reads "nothing here",
        // so an `Option` (also inside a `FrameBox`) is `None` and
        // everything else the format's `missing_field` error.
        let seed = seed(field, arena, rules);
        let span = syn::spanned::Spanned::span(&field.ty);
        let error = quote!(__M::Error);
        let read = quote_spanned! {span=>
            __serde::de::DeserializeSeed::deserialize(
                #seed,
                __tickarena::serde::__private::MissingField::<#error>::new(#key),
            )?
        };
        quote! {
            let #local = match #local {
                ::core::option::Option::Some(value) => value,
                ::core::option::Option::None => #read,
            };
        }
    }
}

/// The body of `deserialize_in` for a struct.
fn struct_body(
    ty: &TokenStream,
    path: &TokenStream,
    type_name: &str,
    shape: &Shape,
    rules: &Rules<'_>,
) -> TokenStream {
    let visitor = format_ident!("__Visitor");
    // serde's derive's messages name the Rust type, whatever its `rename`.
    let rust_name = path.to_string();
    match shape {
        Shape::Unit => {
            let unit_expecting = format!("unit struct {rust_name}");
            let unit_expecting = rules.expecting.unwrap_or(&unit_expecting);
            quote! {
                struct __Unit;
                impl<'__de> __serde::de::Visitor<'__de> for __Unit {
                    type Value = ();
                    fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        formatter.write_str(#unit_expecting)
                    }
                    fn visit_unit<__E: __serde::de::Error>(self) -> ::core::result::Result<(), __E> {
                        ::core::result::Result::Ok(())
                    }
                }
                let _ = __arena;
                __serde::Deserializer::deserialize_unit_struct(__deserializer, #type_name, __Unit)?;
                ::core::result::Result::Ok(#path)
            }
        }
        // One unnamed field: serde's newtype struct, read through
        // `deserialize_newtype_struct` (the field alone in most formats,
        // marked in some, a sequence of one in others).
        Shape::Tuple(fields) if fields.len() == 1 => {
            let expecting = format!("tuple struct {rust_name}");
            let visitor_def = fields_visitor(&visitor, ty, path, &expecting, shape, rules, true);
            quote! {
                #visitor_def
                __serde::Deserializer::deserialize_newtype_struct(
                    __deserializer, #type_name, #visitor { arena: __arena },
                )
            }
        }
        Shape::Tuple(fields) => {
            let len = fields.iter().filter(|f| !f.attrs.skip).count();
            let expecting = format!("tuple struct {rust_name}");
            let visitor_def = fields_visitor(&visitor, ty, path, &expecting, shape, rules, false);
            quote! {
                #visitor_def
                __serde::Deserializer::deserialize_tuple_struct(
                    __deserializer, #type_name, #len, #visitor { arena: __arena },
                )
            }
        }
        Shape::Named(fields) => {
            let names = fields
                .iter()
                .filter(|f| !f.attrs.skip)
                .flat_map(|f| &f.names);
            let expecting = format!("struct {rust_name}");
            let visitor_def = fields_visitor(&visitor, ty, path, &expecting, shape, rules, false);
            quote! {
                #visitor_def
                const __FIELDS: &[&str] = &[#(#names),*];
                __serde::Deserializer::deserialize_struct(
                    __deserializer, #type_name, __FIELDS, #visitor { arena: __arena },
                )
            }
        }
    }
}

/// The closure that builds `path` from what a variant's
/// `deserialize_with` returns: `()` for no field, the field for one, a
/// tuple of them for more (serde's derive's shapes).
pub(crate) fn unwrap_variant(path: &TokenStream, shape: &Shape) -> TokenStream {
    let fields = shape.fields();
    let members: Vec<&syn::Member> = fields.iter().map(|f| &f.member).collect();
    let at: Vec<syn::Index> = (0..fields.len()).map(syn::Index::from).collect();
    match (shape, fields.len()) {
        (Shape::Unit, _) => quote!(|()| #path),
        (Shape::Named(_), 1) => quote!(|__wrap| #path { #(#members: __wrap),* }),
        (Shape::Named(_), _) => quote!(|__wrap| #path { #(#members: __wrap.#at),* }),
        (Shape::Tuple(_), 1) => quote!(|__wrap| #path(__wrap)),
        (Shape::Tuple(_), _) => quote!(|__wrap| #path(#(__wrap.#at),*)),
    }
}

/// The body of `deserialize_in` for an enum, externally tagged: the tag
/// (the variant's index, its name or an alias), then the variant's fields.
pub(crate) fn enum_body(
    ty: &TokenStream,
    name: &Ident,
    type_name: &str,
    variants: &[Variant],
    rules: &Rules<'_>,
) -> TokenStream {
    let read: Vec<(usize, &Variant)> = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.attrs.skip)
        .collect();
    let tags: Vec<(usize, &[String])> =
        read.iter().map(|(i, v)| (*i, v.names.as_slice())).collect();
    let other = read
        .iter()
        .find(|(_, v)| v.attrs.other.is_some())
        .map(|(i, _)| *i);
    let tag_seed = variant_tag_seed(&tags, other);
    let all_names = read.iter().flat_map(|(_, v)| &v.names);
    let mut visitors = Vec::new();
    let arms = read.iter().map(|&(index, variant)| {
        let ident = &variant.ident;
        let path = quote!(#name::#ident);
        let shape = &variant.shape;
        let fields = shape.fields();
        let arm = quote!(::core::result::Result::Ok((__Tag(#index), __variant)));
        if let Some(with) = &variant.attrs.deserialize_with {
            // The variant's fields, read by the function as one value.
            let types = fields.iter().map(|f| &f.ty);
            let seed = with_seed(with, &quote!((#(#types),*)), rules.lifetime);
            let unwrap = unwrap_variant(&path, shape);
            return quote! {
                #arm => ::core::result::Result::map(
                    __serde::de::VariantAccess::newtype_variant_seed(__variant, #seed),
                    #unwrap,
                )
            };
        }
        match shape {
            Shape::Unit => quote! {
                #arm => {
                    __serde::de::VariantAccess::unit_variant(__variant)?;
                    ::core::result::Result::Ok(#path)
                }
            },
            // One field, skipped: serde's derive reads a unit variant.
            Shape::Tuple(fields) if fields.len() == 1 && fields[0].attrs.skip => {
                let value = skipped_value(&fields[0], rules, &quote!(self.arena));
                quote! {
                    #arm => {
                        __serde::de::VariantAccess::unit_variant(__variant)?;
                        ::core::result::Result::Ok(#path(#value))
                    }
                }
            }
            Shape::Tuple(fields) if fields.len() == 1 => {
                let seed = seed(&fields[0], &quote!(self.arena), rules);
                quote! {
                    #arm => __serde::de::VariantAccess::newtype_variant_seed(__variant, #seed).map(#path)
                }
            }
            Shape::Tuple(fields) => {
                let visitor = format_ident!("__Variant{index}");
                let expecting = format!("tuple variant {name}::{ident}");
                visitors.push(fields_visitor(&visitor, ty, &path, &expecting, shape, rules, false));
                let len = fields.iter().filter(|f| !f.attrs.skip).count();
                quote! {
                    #arm => __serde::de::VariantAccess::tuple_variant(
                        __variant, #len, #visitor { arena: self.arena },
                    )
                }
            }
            // Flattened fields: a map only, through the variant's
            // newtype (serde's): `flatten.rs`.
            Shape::Named(_) if crate::flatten::has_flatten(shape) => {
                let visitor = format_ident!("__Variant{index}");
                let expecting = format!("struct variant {name}::{ident}");
                visitors.push(crate::flatten::visitor_def(&visitor, ty, &path, &expecting, shape, rules));
                quote! {
                    #arm => __serde::de::VariantAccess::newtype_variant_seed(
                        __variant, #visitor { arena: self.arena },
                    )
                }
            }
            Shape::Named(fields) => {
                let visitor = format_ident!("__Variant{index}");
                let expecting = format!("struct variant {name}::{ident}");
                visitors.push(fields_visitor(&visitor, ty, &path, &expecting, shape, rules, false));
                let names = fields.iter().filter(|f| !f.attrs.skip).flat_map(|f| &f.names);
                quote! {
                    #arm => {
                        const __FIELDS: &[&str] = &[#(#names),*];
                        __serde::de::VariantAccess::struct_variant(
                            __variant, __FIELDS, #visitor { arena: self.arena },
                        )
                    }
                }
            }
        }
    });
    let arms: Vec<TokenStream> = arms.collect();
    let expecting = format!("enum {name}");
    let expecting = rules.expecting.unwrap_or(&expecting);
    let lifetime = rules.lifetime;
    quote! {
        #tag_seed
        #(#visitors)*
        #[allow(dead_code)] // an enum with no arena data does not read it
        struct __Enum<#lifetime> {
            arena: &#lifetime __tickarena::FrameArena,
        }
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for __Enum<#lifetime> {
            type Value = #ty;
            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }
            #[inline]
            fn visit_enum<__E>(self, __data: __E) -> ::core::result::Result<#ty, __E::Error>
            where
                __E: __serde::de::EnumAccess<'__de>,
            {
                // One match on the tag and the variant, not `?` and a
                // `let`: a debug build keeps those temporaries in this
                // frame, which a recursive type's every level holds across
                // its variant's decode.
                match __serde::de::EnumAccess::variant_seed(__data, __TagSeed) {
                    #(#arms,)*
                    ::core::result::Result::Ok(_) => ::core::unreachable!(),
                    ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
                }
            }
        }
        const __VARIANTS: &[&str] = &[#(#all_names),*];
        __serde::Deserializer::deserialize_enum(
            __deserializer, #type_name, __VARIANTS, __Enum { arena: __arena },
        )
    }
}

/// `ty` with every `Self` replaced by `this` (`<this>::X` for `Self::X`).
fn without_self(ty: &syn::Type, this: &TokenStream) -> syn::Type {
    use proc_macro2::{Group, TokenTree};
    fn walk(tokens: TokenStream, this: &TokenStream) -> TokenStream {
        let mut out = Vec::new();
        let mut tokens = tokens.into_iter().peekable();
        while let Some(token) = tokens.next() {
            match token {
                TokenTree::Ident(ident) if ident == "Self" => {
                    let path =
                        matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                    if path {
                        out.extend(quote!(<#this>));
                    } else {
                        out.extend(this.clone());
                    }
                }
                TokenTree::Group(group) => {
                    let mut inner = Group::new(group.delimiter(), walk(group.stream(), this));
                    inner.set_span(group.span());
                    out.push(TokenTree::Group(inner));
                }
                other => out.push(other),
            }
        }
        out.into_iter().collect()
    }
    let tokens = walk(quote!(#ty), this);
    syn::parse2(tokens).unwrap_or_else(|_| ty.clone())
}

/// The type's attributes this derive refuses, and serde's derive's own
/// checks of them.
fn refuse_container(input: &DeriveInput, attrs: &ContainerAttrs, errors: &mut Errors) {
    // `tag`, `content`, `untagged`: followed (and checked) in `tagged.rs`.
    if let Some(span) = attrs.remote {
        errors.push(Error::new(
            span,
            "#[derive(DeserializeIn)] cannot derive for a type of another crate \
             (`#[serde(remote = \"..\")]`): `DeserializeIn` is implemented on the type itself; \
             wrap the foreign type in a newtype of your own and derive on that, or read it with \
             `#[serde(from = \"..\")]`",
        ));
    }
    let span = input.ident.span();
    if attrs.transparent.is_some() {
        if matches!(input.data, Data::Enum(_)) {
            errors.push(Error::new(
                span,
                "#[serde(transparent)] is not allowed on an enum",
            ));
        }
        if attrs.from.is_some() {
            errors.push(Error::new(
                span,
                "#[serde(transparent)] is not allowed with #[serde(from = \"...\")]",
            ));
        }
        if attrs.try_from.is_some() {
            errors.push(Error::new(
                span,
                "#[serde(transparent)] is not allowed with #[serde(try_from = \"...\")]",
            ));
        }
    }
    if attrs.from.is_some() && attrs.try_from.is_some() {
        errors.push(Error::new(
            span,
            "#[serde(from = \"...\")] and #[serde(try_from = \"...\")] conflict with each other",
        ));
    }
    if let Data::Struct(data) = &input.data
        && matches!(data.fields, Fields::Unit)
        && !attrs.default.is_none()
    {
        errors.push(Error::new(
            span,
            "#[serde(default)] can only be used on structs that have fields",
        ));
    }
}

/// serde's derive's rules for an identifier enum's variants: unit ones,
/// `other` only in a `field_identifier` (and, as in every enum, last and on
/// a unit variant: [`refuse_other_placement`], [`refuse_variant`]). The newtype
/// variant serde's derive takes last in a `field_identifier` (which keeps
/// an unknown key, through serde's private buffer) is refused.
fn refuse_identifier(variants: &[Variant], is_field: bool, errors: &mut Errors) {
    let last = variants.len().saturating_sub(1);
    for (i, variant) in variants.iter().enumerate() {
        let at = variant.ident.span();
        if variant.attrs.other.is_some() && !is_field {
            errors.push(Error::new(
                at,
                "#[serde(other)] may not be used on a variant identifier",
            ));
            continue;
        }
        match (&variant.shape, is_field) {
            (Shape::Unit, _) => {}
            (Shape::Tuple(fields), true) if fields.len() == 1 && i == last => {
                errors.push(Error::new(
                    at,
                    "#[derive(DeserializeIn)] does not keep an unknown key in a newtype \
                     variant of a `field_identifier` enum: end it with a `#[serde(other)]` \
                     unit variant, or derive serde's `Deserialize` on the enum (it holds no \
                     arena data)",
                ));
            }
            (Shape::Tuple(fields), true) if fields.len() == 1 => {
                errors.push(Error::new(
                    at,
                    format!("`{}` must be the last variant", variant.ident),
                ));
            }
            (_, true) => errors.push(Error::new(
                at,
                "#[serde(field_identifier)] may only contain unit variants",
            )),
            (_, false) => errors.push(Error::new(
                at,
                "#[serde(variant_identifier)] may only contain unit variants",
            )),
        }
    }
}

/// serde's derive's rule: `other` (on a unit variant) is the last
/// variant.
fn refuse_other_placement(variants: &[Variant], errors: &mut Errors) {
    let last = variants.len().saturating_sub(1);
    for (i, variant) in variants.iter().enumerate() {
        if let Some(span) = variant.attrs.other
            && i < last
            && matches!(variant.shape, Shape::Unit)
        {
            errors.push(Error::new(
                span,
                "#[serde(other)] must be on the last variant",
            ));
        }
    }
}

/// A field's attributes this derive refuses: none now (`flatten` is
/// followed, and checked, in `flatten.rs`).
fn refuse_field(_attrs: &FieldAttrs, _errors: &mut Errors) {}

/// A variant's attributes this derive refuses, and serde's derive's own
/// checks of them.
/// serde's check: a variant read by its own function cannot skip itself
/// or any of its fields (the function reads them all).
fn refuse_variant_with_skips(
    variant: &syn::Variant,
    attrs: &VariantAttrs,
    shape: &Shape,
    errors: &mut Errors,
) {
    if attrs.deserialize_with.is_none() {
        return;
    }
    let ident = &variant.ident;
    if attrs.skip {
        errors.push(Error::new_spanned(
            variant,
            format!(
                "variant `{ident}` cannot have both #[serde(deserialize_with)] and \
                 #[serde(skip_deserializing)]"
            ),
        ));
    }
    for field in shape.fields().iter().filter(|f| f.attrs.skip) {
        let member = match &field.member {
            syn::Member::Named(name) => format!("`{name}`"),
            syn::Member::Unnamed(index) => format!("#{}", index.index),
        };
        errors.push(Error::new_spanned(
            variant,
            format!(
                "variant `{ident}` cannot have both #[serde(deserialize_with)] and a field \
                 {member} marked with #[serde(skip_deserializing)]"
            ),
        ));
    }
}

/// serde's check of a tuple struct without a `default` of its own: a field
/// with `default` is read only where the sequence ends early, so every
/// field after it needs one too (skipped fields aside).
fn refuse_default_gap(shape: &Shape, errors: &mut Errors) {
    let Shape::Tuple(fields) = shape else {
        return;
    };
    let mut first_default = None;
    for (index, field) in fields.iter().enumerate().filter(|(_, f)| !f.attrs.skip) {
        if !field.attrs.default.is_none() {
            first_default.get_or_insert(index);
        } else if let Some(first) = first_default {
            errors.push(Error::new_spanned(
                &field.ty,
                format!(
                    "field must have #[serde(default)] because previous field {first} has \
                     #[serde(default)]"
                ),
            ));
        }
    }
}

fn refuse_variant(variant: &syn::Variant, attrs: &VariantAttrs, errors: &mut Errors) {
    // `untagged`: followed (and checked) in `tagged.rs`.
    if let Some(span) = attrs.other
        && !matches!(variant.fields, Fields::Unit)
    {
        errors.push(Error::new(
            span,
            "#[serde(other)] must be on a unit variant",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::names_type;

    #[test]
    fn a_field_that_names_its_type_or_self_is_found_at_any_depth() {
        let name: syn::Ident = syn::parse_quote!(Tree);
        let named: [syn::Type; 4] = [
            syn::parse_quote!(&'a [Tree<'a>]),
            syn::parse_quote!(Option<FrameBox<'a, Tree<'a>>>),
            syn::parse_quote!(Box<Self>),
            syn::parse_quote!((u32, [Tree<'a>; 2])),
        ];
        for ty in &named {
            assert!(names_type(ty, &name), "{}", quote::quote!(#ty));
        }
        let other: [syn::Type; 3] = [
            syn::parse_quote!(&'a [Trees<'a>]),
            syn::parse_quote!(u32),
            syn::parse_quote!(tree::Leaf),
        ];
        for ty in &other {
            assert!(!names_type(ty, &name), "{}", quote::quote!(#ty));
        }
    }
}
