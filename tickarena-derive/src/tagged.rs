//! `#[derive(DeserializeIn)]` for the enums serde's derive reads through a
//! buffer: internally tagged (`#[serde(tag = "t")]`), adjacently tagged
//! (`tag` + `content`), untagged (`#[serde(untagged)]` on the type), and
//! those whose last variants are `#[serde(untagged)]` (tried, on the same
//! buffer, after the tagged ones fail). The code follows serde's derive
//! step by step (the same order of tries, the same messages); the buffer
//! is the arena's (`tickarena::serde::__private::Content`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DataEnum, Error, Ident, Lifetime};

use crate::deserialize_in::{
    Rules, Shape, Variant as Read, enum_body as external_body, fields_visitor_with, seed,
    skipped_value, unwrap_variant, with_seed,
};
use crate::identifier::variant_tag_seed;
use crate::model::{ContainerAttrs, Errors, VariantAttrs};

/// A variant, as `deserialize_in.rs` read it, and its index in the enum.
struct Variant<'v> {
    index: usize,
    ident: &'v Ident,
    names: &'v [String],
    shape: &'v Shape,
    attrs: &'v VariantAttrs,
}

/// How the tagged variants are told apart.
enum Tagging<'c> {
    External,
    Internal(&'c str),
    Adjacent(&'c str, &'c str),
    /// `#[serde(untagged)]` on the type.
    None,
}

/// The body of `deserialize_in` for an enum with `tag`, `tag` + `content`
/// or `untagged` (on the type or on its last variants); `None` for an
/// externally tagged enum without untagged variants (`deserialize_in.rs`).
pub(crate) fn enum_body(
    ty: &TokenStream,
    name: &Ident,
    type_name: &str,
    data: &DataEnum,
    read: &[Read],
    container: &ContainerAttrs,
    rules: &Rules<'_>,
) -> syn::Result<Option<TokenStream>> {
    let mut errors = Errors::default();
    let variants: Vec<Variant<'_>> = read
        .iter()
        .enumerate()
        .map(|(index, v)| Variant {
            index,
            ident: &v.ident,
            names: &v.names,
            shape: &v.shape,
            attrs: &v.attrs,
        })
        .collect();
    let tag = container.tag.as_ref().map(syn::LitStr::value);
    let content = container.content.as_ref().map(syn::LitStr::value);
    let tagging = match (container.untagged, &tag, &content) {
        (None, None, None) => Tagging::External,
        (Some(_), None, None) => Tagging::None,
        (None, Some(tag), None) => Tagging::Internal(tag),
        (None, Some(tag), Some(content)) => Tagging::Adjacent(tag, content),
        (untagged, tag_set, _) => {
            // serde's messages.
            let message = match (untagged.is_some(), tag_set.is_some()) {
                (true, true) if content.is_some() => {
                    "untagged enum cannot have #[serde(tag = \"...\", content = \"...\")]"
                }
                (true, true) => "enum cannot be both untagged and internally tagged",
                (true, false) => "untagged enum cannot have #[serde(content = \"...\")]",
                (false, _) => "#[serde(tag = \"...\", content = \"...\")] must be used together",
            };
            let span = match (&container.content, untagged) {
                (Some(content), _) => content.span(),
                (None, Some(span)) => span,
                (None, None) => proc_macro2::Span::call_site(),
            };
            errors.push(Error::new(span, message));
            Tagging::External
        }
    };
    if let (Tagging::Adjacent(tag, content), Some(lit)) = (&tagging, &container.content)
        && tag == content
    {
        errors.push(Error::new(
            lit.span(),
            format!("enum tags `{tag}` for type and content conflict with each other"),
        ));
    }
    check(&variants, data, &tagging, &mut errors);
    errors.finish()?;

    let split = variants
        .iter()
        .position(|v| v.attrs.untagged.is_some())
        .unwrap_or(variants.len());
    let (tagged, untagged) = variants.split_at(split);
    let rust_name = name.to_string();
    let cx = Cx {
        ty,
        name,
        rust_name: &rust_name,
        type_name,
        rules,
    };
    let body = match tagging {
        Tagging::External if untagged.is_empty() => return Ok(None),
        Tagging::External => {
            let tagged_frag = external_body(ty, name, type_name, &read[..split], rules);
            untagged_body(&cx, untagged, Some(tagged_frag))
        }
        Tagging::Internal(tag) if untagged.is_empty() => internal_body(&cx, tagged, tag),
        Tagging::Internal(tag) => {
            untagged_body(&cx, untagged, Some(internal_body(&cx, tagged, tag)))
        }
        Tagging::Adjacent(tag, content) if untagged.is_empty() => {
            adjacent_body(&cx, tagged, tag, content)
        }
        Tagging::Adjacent(tag, content) => untagged_body(
            &cx,
            untagged,
            Some(adjacent_body(&cx, tagged, tag, content)),
        ),
        // Every variant is untagged.
        Tagging::None => untagged_body(&cx, &variants, None),
    };
    Ok(Some(body))
}

/// serde's refusals for these enums.
fn check(variants: &[Variant<'_>], data: &DataEnum, tagging: &Tagging<'_>, errors: &mut Errors) {
    let mut seen_untagged = false;
    for (variant, syn_variant) in variants.iter().zip(&data.variants) {
        if let (Tagging::None, Some(span)) = (tagging, variant.attrs.other) {
            errors.push(Error::new(
                span,
                "#[serde(other)] cannot appear on untagged enum",
            ));
        }
        if variant.attrs.untagged.is_some() {
            seen_untagged = true;
        } else if seen_untagged {
            errors.push(Error::new_spanned(
                variant.ident,
                "all variants with the #[serde(untagged)] attribute must be placed at the end of \
                 the enum",
            ));
        }
        // `flatten` in a tuple variant: serde's refusal.
        if let Shape::Tuple(fields) = variant.shape
            && fields.iter().any(|f| f.attrs.flatten.is_some())
        {
            errors.push(crate::flatten::tuple_refused(fields));
        }
        if let Tagging::Internal(tag) = tagging {
            match variant.shape {
                Shape::Tuple(fields) if fields.len() != 1 => errors.push(Error::new_spanned(
                    syn_variant,
                    "#[serde(tag = \"...\")] cannot be used with tuple variants",
                )),
                // An untagged variant is read without the tag: its fields
                // may take the tag's name (serde's rule).
                Shape::Named(fields) if variant.attrs.untagged.is_none() => {
                    let conflict = fields
                        .iter()
                        .filter(|f| !f.attrs.skip)
                        .any(|f| f.names.iter().any(|name| name == tag));
                    if conflict {
                        errors.push(Error::new_spanned(
                            syn_variant,
                            format!("variant field name `{tag}` conflicts with internal tag"),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
}

/// What every part of the generated code names.
struct Cx<'c> {
    ty: &'c TokenStream,
    name: &'c Ident,
    /// The Rust name, which serde's messages use.
    rust_name: &'c str,
    /// The name the format is told.
    type_name: &'c str,
    rules: &'c Rules<'c>,
}

impl Cx<'_> {
    /// The `expecting = ".."` of the type, else `default`.
    fn expecting(&self, default: String) -> String {
        self.rules.expecting.map_or(default, str::to_owned)
    }

    fn lifetime(&self) -> &Lifetime {
        self.rules.lifetime
    }
}

/// The variant's path (`Enum::Variant`).
fn path(cx: &Cx<'_>, variant: &Variant<'_>) -> TokenStream {
    let (name, ident) = (cx.name, variant.ident);
    quote!(#name::#ident)
}

/// How a variant reads: serde's `effective_style` (a newtype whose one
/// field is skipped reads as a unit).
enum Style<'s> {
    /// `deserialize_with`: the variant's fields read by that function.
    With(&'s syn::ExprPath),
    /// A unit variant, or a newtype of a skipped field (its default).
    Unit(Option<TokenStream>),
    Newtype(&'s crate::deserialize_in::Field),
    Tuple(usize),
    Struct,
}

fn style<'s>(cx: &Cx<'_>, variant: &'s Variant<'_>) -> Style<'s> {
    if let Some(path) = &variant.attrs.deserialize_with {
        return Style::With(path);
    }
    match variant.shape {
        Shape::Unit => Style::Unit(None),
        Shape::Tuple(fields) if fields.len() == 1 && fields[0].attrs.skip => {
            let default = skipped_value(&fields[0], cx.rules, &quote!(__arena));
            Style::Unit(Some(quote!((#default))))
        }
        Shape::Tuple(fields) if fields.len() == 1 => Style::Newtype(&fields[0]),
        Shape::Tuple(fields) => Style::Tuple(fields.iter().filter(|f| !f.attrs.skip).count()),
        Shape::Named(_) => Style::Struct,
    }
}

/// The visitor of a tuple or struct variant's fields (`__Variant{index}`),
/// with `visit_seq` for a tuple, and for a struct if `struct_seq`.
fn variant_visitor(cx: &Cx<'_>, variant: &Variant<'_>, struct_seq: bool) -> TokenStream {
    let visitor = format_ident!("__Variant{}", variant.index);
    let path = path(cx, variant);
    let ident = variant.ident;
    match style(cx, variant) {
        // Flattened fields: a map only (serde's).
        Style::Struct if crate::flatten::has_flatten(variant.shape) => {
            let expecting = format!("struct variant {}::{ident}", cx.rust_name);
            crate::flatten::visitor_def(&visitor, cx.ty, &path, &expecting, variant.shape, cx.rules)
        }
        style @ (Style::Tuple(_) | Style::Struct) => {
            let (kind, visit_seq) = match style {
                Style::Tuple(_) => ("tuple", true),
                _ => ("struct", struct_seq),
            };
            let expecting = cx.expecting(format!("{kind} variant {}::{ident}", cx.rust_name));
            fields_visitor_with(
                &visitor,
                cx.ty,
                &path,
                &expecting,
                variant.shape,
                cx.rules,
                false,
                visit_seq,
            )
        }
        Style::With(_) | Style::Unit(_) | Style::Newtype(_) => quote!(),
    }
}

/// The identifier of the variants (`__Tag`, its seed `__TagSeed`, as the
/// externally tagged derive reads it) and `__VARIANTS`, as serde's: names
/// and aliases of the variants not skipped, an `other` variant for any
/// other name.
fn tag_seed(variants: &[Variant<'_>]) -> TokenStream {
    let read: Vec<&Variant<'_>> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let tags: Vec<(usize, &[String])> = read.iter().map(|v| (v.index, v.names)).collect();
    let other = read
        .iter()
        .find(|v| v.attrs.other.is_some())
        .map(|v| v.index);
    let seed = variant_tag_seed(&tags, other);
    let names = read.iter().flat_map(|v| v.names);
    quote! {
        #seed
        const __VARIANTS: &[&str] = &[#(#names),*];
    }
}

/// A variant read by its `deserialize_with` from `__deserializer`.
fn with_variant(cx: &Cx<'_>, variant: &Variant<'_>, with: &syn::ExprPath) -> TokenStream {
    let path = path(cx, variant);
    let types = variant.shape.fields().iter().map(|f| &f.ty);
    let seed = with_seed(with, &quote!((#(#types),*)), cx.lifetime());
    let unwrap = unwrap_variant(&path, variant.shape);
    quote!(::core::result::Result::map(
        __serde::de::DeserializeSeed::deserialize(#seed, __deserializer),
        #unwrap,
    ))
}

/// An internally tagged enum: the tag and the rest of the map (or
/// sequence) buffered, then the variant read from the rest.
fn internal_body(cx: &Cx<'_>, variants: &[Variant<'_>], tag: &str) -> TokenStream {
    let tag_seed = tag_seed(variants);
    let expecting = cx.expecting(format!("internally tagged enum {}", cx.rust_name));
    let visitors = variants.iter().map(|v| variant_visitor(cx, v, true));
    let arms = variants.iter().filter(|v| !v.attrs.skip).map(|variant| {
        let (index, path) = (variant.index, path(cx, variant));
        let read = match style(cx, variant) {
            Style::Unit(default) => {
                let (type_name, variant_name) = (cx.rust_name, variant.ident.to_string());
                quote!({
                    __serde::Deserializer::deserialize_any(
                        __deserializer,
                        __tickarena::serde::__private::InternallyTaggedUnitVisitor::new(#type_name, #variant_name),
                    )?;
                    ::core::result::Result::Ok(#path #default)
                })
            }
            Style::Newtype(field) => {
                let seed = seed(field, &quote!(__arena), cx.rules);
                quote!(__serde::de::DeserializeSeed::deserialize(#seed, __deserializer).map(#path))
            }
            Style::With(with) => with_variant(cx, variant, with),
            Style::Struct | Style::Tuple(_) => {
                let visitor = format_ident!("__Variant{}", variant.index);
                quote!(__serde::Deserializer::deserialize_any(__deserializer, #visitor { arena: __arena }))
            }
        };
        quote!(__Tag(#index) => #read,)
    });
    quote!({
        #tag_seed
        #(#visitors)*
        let __error = __tickarena::serde::__private::error_of(&__deserializer);
        let (__tag, __content) = __serde::Deserializer::deserialize_any(
            __deserializer,
            __tickarena::serde::__private::TaggedContentVisitor::new(__arena, #tag, #expecting, __TagSeed),
        )?;
        let __deserializer = __tickarena::serde::__private::ContentDeserializer::lending_once_as(&__content, __error);
        match __tag {
            #(#arms)*
            _ => ::core::unreachable!(),
        }
    })
}

/// A variant read from `__deserializer` as an untagged enum reads it (also
/// an adjacently tagged enum's content): serde's `deserialize_variant`.
fn untagged_variant(cx: &Cx<'_>, variant: &Variant<'_>) -> TokenStream {
    let path = path(cx, variant);
    match style(cx, variant) {
        Style::Unit(default) => {
            let (type_name, variant_name) = (cx.rust_name, variant.ident.to_string());
            quote! {
                match __serde::Deserializer::deserialize_any(
                    __deserializer,
                    __tickarena::serde::__private::UntaggedUnitVisitor::new(#type_name, #variant_name),
                ) {
                    ::core::result::Result::Ok(()) => ::core::result::Result::Ok(#path #default),
                    ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
                }
            }
        }
        Style::Newtype(field) => {
            let seed = seed(field, &quote!(__arena), cx.rules);
            quote!(__serde::de::DeserializeSeed::deserialize(#seed, __deserializer).map(#path))
        }
        Style::With(with) => with_variant(cx, variant, with),
        Style::Tuple(len) => {
            let visitor = format_ident!("__Variant{}", variant.index);
            quote!(__serde::Deserializer::deserialize_tuple(__deserializer, #len, #visitor { arena: __arena }))
        }
        Style::Struct => {
            let visitor = format_ident!("__Variant{}", variant.index);
            quote!(__serde::Deserializer::deserialize_any(__deserializer, #visitor { arena: __arena }))
        }
    }
}

/// An untagged enum (or the untagged variants after `tagged`, which is
/// tried first): the input buffered, then each variant tried on it in
/// order, the first that reads it wins.
fn untagged_body(
    cx: &Cx<'_>,
    variants: &[Variant<'_>],
    tagged: Option<TokenStream>,
) -> TokenStream {
    let ty = cx.ty;
    let visitors = variants.iter().map(|v| variant_visitor(cx, v, false));
    let attempts = variants
        .iter()
        .filter(|v| !v.attrs.skip)
        .map(|v| untagged_variant(cx, v));
    // An attempt the arena refused ends the decode with the arena's error
    // (`arena_refused`), not "did not match" or a later variant's value.
    let refused = quote! {
        if __tickarena::serde::__private::refused_since(__arena, __refused_before) {
            return ::core::result::Result::Err(
                __tickarena::serde::__private::refused_error(__arena),
            );
        }
    };
    let first = tagged.map(|tagged| {
        quote! {
            // The tagged variants first, on the buffer; their error is
            // dropped, to fall through to the untagged ones (serde's).
            if let ::core::result::Result::Ok(__ok) =
                (|| -> ::core::result::Result<#ty, __tickarena::serde::__private::Discarded> { #tagged })()
            {
                return ::core::result::Result::Ok(__ok);
            }
            #refused
        }
    });
    let message = cx.expecting(format!(
        "data did not match any variant of untagged enum {}",
        cx.rust_name
    ));
    quote!({
        #(#visitors)*
        let __content = __serde::de::DeserializeSeed::deserialize(
            __tickarena::serde::__private::BufferSeed::new(__arena),
            __deserializer,
        )?;
        // Each try's error is dropped (serde's): the cheap `Discarded`.
        let __deserializer = __tickarena::serde::__private::ContentDeserializer::<
            __tickarena::serde::__private::Discarded,
        >::lending(&__content);
        let __refused_before = __tickarena::serde::__private::refused_before(__arena);
        #first
        #(
            if let ::core::result::Result::Ok(__ok) = #attempts {
                return ::core::result::Result::Ok(__ok);
            }
            #refused
        )*
        ::core::result::Result::Err(__serde::de::Error::custom(#message))
    })
}

/// An adjacently tagged enum: a map (or a two-element sequence) of the tag
/// and the content, in either order; the content buffered when it comes
/// first. serde's generated code, step by step.
fn adjacent_body(cx: &Cx<'_>, variants: &[Variant<'_>], tag: &str, content: &str) -> TokenStream {
    let (ty, lifetime) = (cx.ty, cx.lifetime());
    let tag_seed = tag_seed(variants);
    let visitors = variants.iter().map(|v| variant_visitor(cx, v, false));
    let read: Vec<&Variant<'_>> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let arms = read.iter().map(|variant| {
        let index = variant.index;
        let read = untagged_variant(cx, variant);
        quote!(__Tag(#index) => #read,)
    });
    // The content key missing: a unit variant is fine, a newtype reads
    // "nothing here" (an `Option` is `None`), the others are an error.
    let mut missing_arms = Vec::new();
    // `__Tag` holds any index: the arms cover those of the variants read.
    let mut missing_fallthrough = quote!(_ => ::core::unreachable!(),);
    let missing_content = quote!(::core::result::Result::Err(
        <__A::Error as __serde::de::Error>::missing_field(#content)
    ));
    for variant in &read {
        let (index, path) = (variant.index, path(cx, variant));
        let arm = match variant.shape {
            Shape::Unit => quote!(::core::result::Result::Ok(#path)),
            Shape::Tuple(fields)
                if fields.len() == 1 && variant.attrs.deserialize_with.is_none() =>
            {
                let seed = seed(&fields[0], &quote!(__arena), cx.rules);
                quote! {
                    __serde::de::DeserializeSeed::deserialize(
                        #seed,
                        __tickarena::serde::__private::MissingField::<__A::Error>::new(#content),
                    ).map(#path)
                }
            }
            _ => {
                missing_fallthrough = quote!(_ => #missing_content,);
                continue;
            }
        };
        missing_arms.push(quote!(__Tag(#index) => #arm,));
    }
    let missing = if missing_arms.is_empty() {
        missing_content.clone()
    } else {
        quote! {
            match __field {
                #(#missing_arms)*
                #missing_fallthrough
            }
        }
    };
    let rust_name = cx.rust_name;
    let type_name = cx.type_name;
    let expecting = cx.expecting(format!("adjacently tagged enum {rust_name}"));
    let deny_unknown = cx.rules.deny_unknown_fields;
    let keys = quote! {
        __tickarena::serde::__private::TagContentOtherSeed {
            tag: #tag,
            content: #content,
            deny_unknown: #deny_unknown,
        }
    };
    let next_relevant = quote!((#keys).next_relevant(&mut __map)?);
    let variant_from_map = quote! {
        __serde::de::MapAccess::next_value_seed(
            &mut __map,
            __tickarena::serde::__private::AdjacentTagSeed {
                enum_name: #rust_name,
                variants: __VARIANTS,
                seed: __TagSeed,
            },
        )?
    };
    let remaining = quote! {
        match #next_relevant {
            ::core::option::Option::Some(__tickarena::serde::__private::TagContentOther::Tag) => {
                ::core::result::Result::Err(<__A::Error as __serde::de::Error>::duplicate_field(#tag))
            }
            ::core::option::Option::Some(_) => {
                ::core::result::Result::Err(<__A::Error as __serde::de::Error>::duplicate_field(#content))
            }
            ::core::option::Option::None => ::core::result::Result::Ok(__ret),
        }
    };
    quote!({
        #tag_seed
        #(#visitors)*
        /// Reads the content of the variant a tag named.
        struct __Seed<#lifetime> {
            variant: __Tag,
            arena: &#lifetime __tickarena::FrameArena,
        }
        impl<'__de, #lifetime> __serde::de::DeserializeSeed<'__de> for __Seed<#lifetime> {
            type Value = #ty;
            fn deserialize<__C>(self, __deserializer: __C) -> ::core::result::Result<#ty, __C::Error>
            where
                __C: __serde::Deserializer<'__de>,
            {
                let __arena = self.arena;
                match self.variant {
                    #(#arms)*
                    _ => ::core::unreachable!(),
                }
            }
        }
        struct __Adjacent<#lifetime> {
            arena: &#lifetime __tickarena::FrameArena,
        }
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for __Adjacent<#lifetime> {
            type Value = #ty;
            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }
            fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<#ty, __A::Error>
            where
                __A: __serde::de::MapAccess<'__de>,
            {
                use __tickarena::serde::__private::TagContentOther;
                let __arena = self.arena;
                match #next_relevant {
                    // The tag first: then the content, read as its variant.
                    ::core::option::Option::Some(TagContentOther::Tag) => {
                        let __field = #variant_from_map;
                        match #next_relevant {
                            ::core::option::Option::Some(TagContentOther::Tag) => {
                                ::core::result::Result::Err(<__A::Error as __serde::de::Error>::duplicate_field(#tag))
                            }
                            ::core::option::Option::Some(_) => {
                                let __ret = __serde::de::MapAccess::next_value_seed(
                                    &mut __map,
                                    __Seed { variant: __field, arena: __arena },
                                )?;
                                #remaining
                            }
                            ::core::option::Option::None => #missing,
                        }
                    }
                    // The content first: buffered until the tag says what it is.
                    ::core::option::Option::Some(_) => {
                        let __content = __serde::de::MapAccess::next_value_seed(
                            &mut __map,
                            __tickarena::serde::__private::BufferSeed::new(__arena),
                        )?;
                        match #next_relevant {
                            ::core::option::Option::Some(TagContentOther::Tag) => {
                                let __seed = __Seed { variant: #variant_from_map, arena: __arena };
                                let __deserializer = __tickarena::serde::__private::ContentDeserializer::<__A::Error>::lending_once(&__content);
                                let __ret = __serde::de::DeserializeSeed::deserialize(__seed, __deserializer)?;
                                #remaining
                            }
                            ::core::option::Option::Some(_) => {
                                ::core::result::Result::Err(<__A::Error as __serde::de::Error>::duplicate_field(#content))
                            }
                            ::core::option::Option::None => {
                                ::core::result::Result::Err(<__A::Error as __serde::de::Error>::missing_field(#tag))
                            }
                        }
                    }
                    ::core::option::Option::None => {
                        ::core::result::Result::Err(<__A::Error as __serde::de::Error>::missing_field(#tag))
                    }
                }
            }
            fn visit_seq<__A>(self, mut __seq: __A) -> ::core::result::Result<#ty, __A::Error>
            where
                __A: __serde::de::SeqAccess<'__de>,
            {
                match __serde::de::SeqAccess::next_element_seed(&mut __seq, __TagSeed)? {
                    ::core::option::Option::Some(__variant) => {
                        match __serde::de::SeqAccess::next_element_seed(
                            &mut __seq,
                            __Seed { variant: __variant, arena: self.arena },
                        )? {
                            ::core::option::Option::Some(__ret) => ::core::result::Result::Ok(__ret),
                            ::core::option::Option::None => {
                                ::core::result::Result::Err(__serde::de::Error::invalid_length(1, &self))
                            }
                        }
                    }
                    ::core::option::Option::None => {
                        ::core::result::Result::Err(__serde::de::Error::invalid_length(0, &self))
                    }
                }
            }
        }
        const __FIELDS: &[&str] = &[#tag, #content];
        __serde::Deserializer::deserialize_struct(
            __deserializer, #type_name, __FIELDS, __Adjacent { arena: __arena },
        )
    })
}
