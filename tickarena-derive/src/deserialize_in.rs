//! `#[derive(DeserializeIn)]`: structs and enums whose nested data (strings,
//! lists, boxes) is deserialized into a frame arena, in the encoding serde's
//! own derive reads and writes (structs as maps or sequences, enums
//! externally tagged), so one type can derive serde's `Serialize` beside it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Data, DeriveInput, Error, Fields, GenericParam, Ident, Lifetime};

use crate::model::{
    Errors, FieldAttrs, crate_path, frame_lifetime, mentions, serde_attrs, serde_name,
};

/// One field, read and checked.
struct Field {
    /// The name in the constructor (`name`), or the index of a tuple field.
    member: syn::Member,
    ty: syn::Type,
    /// The key in a map.
    key: String,
    attrs: FieldAttrs,
    /// Whether the type mentions the arena's lifetime: read through
    /// `InArena`, else through the type's own `Deserialize`.
    in_arena: bool,
}

/// The fields of a struct or a variant.
enum Shape {
    Named(Vec<Field>),
    Tuple(Vec<Field>),
    Unit,
}

fn read_fields(
    fields: &Fields,
    lifetime: Option<&Lifetime>,
    this: &TokenStream,
    errors: &mut Errors,
) -> Shape {
    let read = |index: usize, field: &syn::Field, errors: &mut Errors| {
        let attrs = serde_attrs(&field.attrs, "field", errors);
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
        Field {
            member,
            key: attrs.rename.clone().unwrap_or(name),
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
    // `#[serde(rename = "..")]` on the type: its name in the formats that
    // write it; nothing else is followed.
    let container = serde_attrs(&input.attrs, "type", &mut errors);
    let krate = crate_path(input, &mut errors);
    let no_heap = crate::no_heap::requested(&input.attrs, &mut errors);
    let name = &input.ident;
    let arena_lifetime = lifetime
        .clone()
        .unwrap_or_else(|| Lifetime::new("'__arena", Span::call_site()));
    // `HEAP_FREE`: every field read; `no_heap` asserts it field by field.
    let (mut heap_free, mut no_heap_checks) = (Vec::new(), Vec::new());
    let mut check_fields = |shape: &Shape, variant: Option<&Ident>| {
        let (Shape::Named(fields) | Shape::Tuple(fields)) = shape else {
            return;
        };
        for field in fields.iter().filter(|f| !f.attrs.skip) {
            let at = quote!(#arena_lifetime);
            heap_free.push(crate::no_heap::heap_free(
                &field.ty,
                field.in_arena,
                name,
                &at,
            ));
            if no_heap {
                let member = &field.member;
                let member = quote!(#member).to_string();
                let shown = variant.map_or(member.clone(), |v| format!("{v}::{member}"));
                no_heap_checks.push(crate::no_heap::check(
                    &shown,
                    &field.ty,
                    field.in_arena,
                    name,
                    lifetime.as_ref(),
                ));
            }
        }
    };
    // The name the format is told (`deserialize_struct("Name", ..)`): the
    // `rename`, else the name without `r#`.
    let type_name = container.rename.unwrap_or_else(|| serde_name(name));
    let ty = match &lifetime {
        Some(lifetime) => quote!(#name<#lifetime>),
        None => quote!(#name),
    };
    let body = match &input.data {
        Data::Struct(data) => {
            let shape = read_fields(&data.fields, lifetime.as_ref(), &ty, &mut errors);
            check_fields(&shape, None);
            errors.finish()?;
            struct_body(&ty, &quote!(#name), &type_name, &shape, &arena_lifetime)
        }
        Data::Enum(data) => {
            let mut variants = Vec::new();
            for variant in &data.variants {
                let attrs = serde_attrs(&variant.attrs, "variant", &mut errors);
                let shape = read_fields(&variant.fields, lifetime.as_ref(), &ty, &mut errors);
                check_fields(&shape, Some(&variant.ident));
                let key = attrs.rename.unwrap_or_else(|| serde_name(&variant.ident));
                variants.push((variant.ident.clone(), key, shape));
            }
            errors.finish()?;
            enum_body(&ty, name, &type_name, &variants, &arena_lifetime)
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
    Ok(quote! {
        const _: () = {
            use #krate as __tickarena;
            use __tickarena::serde::__private::serde as __serde;
            #(#no_heap_checks)*
            impl<#arena_lifetime> __tickarena::serde::DeserializeIn<#arena_lifetime> for #ty {
                const HEAP_FREE: bool = true #(&& #heap_free)*;

                // No `#[inline]`, as serde's derive: a recursive type's level
                // then takes one frame, not its lists' loops inlined into it.
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

/// The seed that reads `field`: `InArena` for arena data, the type's own
/// `Deserialize` otherwise. Spanned on the field's type, so that rustc
/// names a type that is neither there, not at the derive.
fn seed(field: &Field, arena: &TokenStream) -> TokenStream {
    let ty = &field.ty;
    let span = syn::spanned::Spanned::span(ty);
    if field.in_arena {
        quote_spanned!(span=> __tickarena::serde::InArena::<#ty>::new(#arena))
    } else {
        quote_spanned!(span=> ::core::marker::PhantomData::<#ty>)
    }
}

/// A visitor type `visitor` building `path` from `shape`, with its
/// `visit_seq` (and `visit_map` for named fields).
fn fields_visitor(
    visitor: &Ident,
    ty: &TokenStream,
    path: &TokenStream,
    expecting: &str,
    shape: &Shape,
    lifetime: &Lifetime,
) -> TokenStream {
    let arena = quote!(self.arena);
    let fields: &[Field] = match shape {
        Shape::Named(fields) | Shape::Tuple(fields) => fields,
        Shape::Unit => &[],
    };
    let locals: Vec<Ident> = (0..fields.len()).map(|i| format_ident!("__f{i}")).collect();
    // serde's derive's message for a sequence that ends early: the shape
    // with its count of fields read ("struct Msg with 7 elements").
    let read = fields.iter().filter(|f| !f.attrs.skip).count();
    let plural = if read == 1 { "" } else { "s" };
    let expecting_len = format!("{expecting} with {read} element{plural}");
    let build = {
        let members = fields.iter().map(|f| &f.member);
        quote!(#path { #(#members: #locals),* })
    };
    // Sequence form: the fields in order, skipped ones left out.
    let mut read_seq = Vec::new();
    let mut position = 0usize;
    let last_read = fields.iter().rposition(|f| !f.attrs.skip);
    let is_last = |field: &Field| last_read.is_some_and(|i| core::ptr::eq(field, &fields[i]));
    // The skipped fields after the last one read, defaulted where it is.
    let skipped_after: Vec<TokenStream> = match last_read {
        Some(i) => locals[i + 1..]
            .iter()
            .map(|local| quote!(let #local = ::core::default::Default::default();))
            .collect(),
        None => Vec::new(),
    };
    for (field, local) in fields.iter().zip(&locals) {
        if field.attrs.skip {
            read_seq.push(quote!(let #local = ::core::default::Default::default();));
            continue;
        }
        let seed = seed(field, &arena);
        let missing = if field.attrs.default {
            // Under the field's type: a type without `Default` (an arena
            // box) is rustc's error there, not at the derive.
            let span = syn::spanned::Spanned::span(&field.ty);
            quote_spanned!(span=> ::core::default::Default::default())
        } else {
            quote!(return ::core::result::Result::Err(
                __serde::de::Error::invalid_length(#position, &#expecting_len)
            ))
        };
        // Spanned on the field's type, as the seed is (see `seed`).
        // `__seq` keeps the derive's own span (declared by `visit_seq`
        // under it): under the field's, a type declared by a caller's
        // `macro_rules!` would look for it in the caller's hygiene.
        let span = syn::spanned::Spanned::span(&field.ty);
        let seq = Ident::new("__seq", Span::call_site());
        let next =
            quote_spanned!(span=> __serde::de::SeqAccess::next_element_seed(&mut #seq, #seed));
        // One match, not `?` and a match: a debug build keeps `?`'s
        // temporaries (the value once more) in this frame, which a
        // recursive type's every level holds across its fields' decode.
        if is_last(field) {
            // The last field read goes from its `Result` into the value
            // this returns, with no copy of it in between: a recursive
            // type's list field would otherwise take two more slots in
            // every level's frame.
            let rest = &skipped_after[..];
            let missing_arm = if field.attrs.default {
                quote!({
                    let #local = #missing;
                    #(#rest)*
                    ::core::result::Result::Ok(#build)
                })
            } else {
                quote!(::core::result::Result::Err(
                    __serde::de::Error::invalid_length(#position, &#expecting_len)
                ))
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
    let visit_map = match shape {
        Shape::Named(fields) => map_form(fields, &locals, &build, &arena),
        _ => quote!(),
    };
    quote! {
        #[allow(dead_code)] // a type with no arena data does not read it
        struct #visitor<#lifetime> {
            arena: &#lifetime __tickarena::FrameArena,
        }
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for #visitor<#lifetime> {
            type Value = #ty;

            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }

            #[inline]
            fn visit_seq<__S>(self, mut __seq: __S) -> ::core::result::Result<#ty, __S::Error>
            where
                __S: __serde::de::SeqAccess<'__de>,
            {
                #(#read_seq)*
                #tail
            }

            #visit_map
        }
    }
}

/// `visit_map` for named fields: keys by name (or index), in any order,
/// unknown ones skipped, each field at most once.
fn map_form(
    fields: &[Field],
    locals: &[Ident],
    build: &TokenStream,
    arena: &TokenStream,
) -> TokenStream {
    let read: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, field)| !field.attrs.skip)
        .collect();
    let keys: Vec<&str> = read.iter().map(|(_, f)| f.key.as_str()).collect();
    let indices: Vec<usize> = (0..read.len()).collect();
    let indices64: Vec<u64> = (0..read.len() as u64).collect();
    let slots: Vec<&Ident> = read.iter().map(|(i, _)| &locals[*i]).collect();
    let types: Vec<&syn::Type> = read.iter().map(|(_, f)| &f.ty).collect();
    // Spanned on the field's type, as the seed is (see `seed`).
    let reads: Vec<TokenStream> = read
        .iter()
        .map(|(_, f)| {
            let seed = seed(f, arena);
            let span = syn::spanned::Spanned::span(&f.ty);
            // `__map` keeps the derive's own span, as `__seq` (see above).
            let map = Ident::new("__map", Span::call_site());
            quote_spanned!(span=> __serde::de::MapAccess::next_value_seed(&mut #map, #seed)?)
        })
        .collect();
    let finish = fields.iter().zip(locals).map(|(field, local)| {
        let key = &field.key;
        if field.attrs.skip {
            quote!(let #local = ::core::default::Default::default();)
        } else if field.attrs.default {
            let span = syn::spanned::Spanned::span(&field.ty);
            quote_spanned! {span=>
                let #local = match #local {
                    ::core::option::Option::Some(value) => value,
                    ::core::option::Option::None => ::core::default::Default::default(),
                };
            }
        } else {
            // serde's rule: the field's own type reads "nothing here",
            // so an `Option` (also inside a `FrameBox`) is `None` and
            // everything else the format's `missing_field` error.
            let seed = seed(field, arena);
            let span = syn::spanned::Spanned::span(&field.ty);
            let read = quote_spanned! {span=>
                __serde::de::DeserializeSeed::deserialize(
                    #seed,
                    __tickarena::serde::__private::MissingField::<__M::Error>::new(#key),
                )?
            };
            quote! {
                let #local = match #local {
                    ::core::option::Option::Some(value) => value,
                    ::core::option::Option::None => #read,
                };
            }
        }
    });
    quote! {
        #[inline]
        fn visit_map<__M>(self, mut __map: __M) -> ::core::result::Result<Self::Value, __M::Error>
        where
            __M: __serde::de::MapAccess<'__de>,
        {
            /// Which field a key names: its index, or none (skipped).
            struct __Key(::core::option::Option<usize>);
            // A seed, not a `Deserialize` impl: rustc's "the following
            // other types implement `Deserialize`" would list it.
            struct __KeySeed;
            impl<'__de> __serde::de::DeserializeSeed<'__de> for __KeySeed {
                type Value = __Key;
                #[inline]
                fn deserialize<__K>(self, deserializer: __K) -> ::core::result::Result<__Key, __K::Error>
                where
                    __K: __serde::Deserializer<'__de>,
                {
                    struct __KeyVisitor;
                    impl<'__de> __serde::de::Visitor<'__de> for __KeyVisitor {
                        type Value = __Key;
                        fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            formatter.write_str("field identifier")
                        }
                        fn visit_u64<__E: __serde::de::Error>(self, index: u64) -> ::core::result::Result<__Key, __E> {
                            ::core::result::Result::Ok(__Key(match index {
                                #(#indices64 => ::core::option::Option::Some(#indices),)*
                                _ => ::core::option::Option::None,
                            }))
                        }
                        #[inline]
                        fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<__Key, __E> {
                            ::core::result::Result::Ok(__Key(match key {
                                #(#keys => ::core::option::Option::Some(#indices),)*
                                _ => ::core::option::Option::None,
                            }))
                        }
                        fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<__Key, __E> {
                            match ::core::str::from_utf8(key) {
                                ::core::result::Result::Ok(key) => self.visit_str(key),
                                ::core::result::Result::Err(_) => ::core::result::Result::Ok(__Key(::core::option::Option::None)),
                            }
                        }
                    }
                    __serde::Deserializer::deserialize_identifier(deserializer, __KeyVisitor)
                }
            }
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
            #(#finish)*
            ::core::result::Result::Ok(#build)
        }
    }
}

/// The body of `deserialize_in` for a struct.
fn struct_body(
    ty: &TokenStream,
    path: &TokenStream,
    type_name: &str,
    shape: &Shape,
    lifetime: &Lifetime,
) -> TokenStream {
    let visitor = format_ident!("__Visitor");
    // serde's derive's messages name the Rust type, whatever its `rename`.
    let rust_name = path.to_string();
    let unit_expecting = format!("unit struct {rust_name}");
    match shape {
        Shape::Unit => quote! {
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
        },
        // One unnamed field: serde's newtype struct (the field alone in
        // most formats).
        Shape::Tuple(fields) if fields.len() == 1 && !fields[0].attrs.skip => {
            let seed = seed(&fields[0], &quote!(__arena));
            quote! {
                __serde::de::DeserializeSeed::deserialize(#seed, __deserializer).map(#path)
            }
        }
        Shape::Tuple(fields) => {
            let len = fields.iter().filter(|f| !f.attrs.skip).count();
            let expecting = format!("tuple struct {rust_name}");
            let visitor_def = fields_visitor(&visitor, ty, path, &expecting, shape, lifetime);
            quote! {
                #visitor_def
                __serde::Deserializer::deserialize_tuple_struct(
                    __deserializer, #type_name, #len, #visitor { arena: __arena },
                )
            }
        }
        Shape::Named(fields) => {
            let keys = fields.iter().filter(|f| !f.attrs.skip).map(|f| &f.key);
            let expecting = format!("struct {rust_name}");
            let visitor_def = fields_visitor(&visitor, ty, path, &expecting, shape, lifetime);
            quote! {
                #visitor_def
                const __FIELDS: &[&str] = &[#(#keys),*];
                __serde::Deserializer::deserialize_struct(
                    __deserializer, #type_name, __FIELDS, #visitor { arena: __arena },
                )
            }
        }
    }
}

/// The body of `deserialize_in` for an enum, externally tagged: the tag
/// (the variant's index, or its name), then the variant's fields.
fn enum_body(
    ty: &TokenStream,
    name: &Ident,
    type_name: &str,
    variants: &[(Ident, String, Shape)],
    lifetime: &Lifetime,
) -> TokenStream {
    let keys: Vec<&str> = variants.iter().map(|(_, key, _)| key.as_str()).collect();
    let indices: Vec<usize> = (0..variants.len()).collect();
    let indices64: Vec<u64> = (0..variants.len() as u64).collect();
    let index_expecting = format!("variant index 0 <= i < {}", variants.len());
    let mut visitors = Vec::new();
    let arms = variants.iter().enumerate().map(|(index, (ident, _, shape))| {
        let path = quote!(#name::#ident);
        match shape {
            Shape::Unit => quote! {
                ::core::result::Result::Ok((__Tag(#index), __variant)) => {
                    __serde::de::VariantAccess::unit_variant(__variant)?;
                    ::core::result::Result::Ok(#path)
                }
            },
            Shape::Tuple(fields) if fields.len() == 1 && !fields[0].attrs.skip => {
                let seed = seed(&fields[0], &quote!(self.arena));
                quote! {
                    ::core::result::Result::Ok((__Tag(#index), __variant)) => __serde::de::VariantAccess::newtype_variant_seed(__variant, #seed).map(#path)
                }
            }
            Shape::Tuple(fields) => {
                let visitor = format_ident!("__Variant{index}");
                let expecting = format!("tuple variant {name}::{ident}");
                visitors.push(fields_visitor(&visitor, ty, &path, &expecting, shape, lifetime));
                let len = fields.iter().filter(|f| !f.attrs.skip).count();
                quote! {
                    ::core::result::Result::Ok((__Tag(#index), __variant)) => __serde::de::VariantAccess::tuple_variant(
                        __variant, #len, #visitor { arena: self.arena },
                    )
                }
            }
            Shape::Named(fields) => {
                let visitor = format_ident!("__Variant{index}");
                let expecting = format!("struct variant {name}::{ident}");
                visitors.push(fields_visitor(&visitor, ty, &path, &expecting, shape, lifetime));
                let keys = fields.iter().filter(|f| !f.attrs.skip).map(|f| &f.key);
                quote! {
                    ::core::result::Result::Ok((__Tag(#index), __variant)) => {
                        const __FIELDS: &[&str] = &[#(#keys),*];
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
    quote! {
        /// Which variant a tag names.
        struct __Tag(usize);
        // A seed, as `__KeySeed` is.
        struct __TagSeed;
        impl<'__de> __serde::de::DeserializeSeed<'__de> for __TagSeed {
            type Value = __Tag;
            fn deserialize<__K>(self, deserializer: __K) -> ::core::result::Result<__Tag, __K::Error>
            where
                __K: __serde::Deserializer<'__de>,
            {
                struct __TagVisitor;
                impl<'__de> __serde::de::Visitor<'__de> for __TagVisitor {
                    type Value = __Tag;
                    fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        formatter.write_str("variant identifier")
                    }
                    fn visit_u64<__E: __serde::de::Error>(self, index: u64) -> ::core::result::Result<__Tag, __E> {
                        match index {
                            #(#indices64 => ::core::result::Result::Ok(__Tag(#indices)),)*
                            _ => ::core::result::Result::Err(__serde::de::Error::invalid_value(
                                __serde::de::Unexpected::Unsigned(index),
                                &#index_expecting,
                            )),
                        }
                    }
                    fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<__Tag, __E> {
                        match key {
                            #(#keys => ::core::result::Result::Ok(__Tag(#indices)),)*
                            _ => ::core::result::Result::Err(__serde::de::Error::unknown_variant(key, __VARIANTS)),
                        }
                    }
                    fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<__Tag, __E> {
                        match ::core::str::from_utf8(key) {
                            ::core::result::Result::Ok(key) => self.visit_str(key),
                            ::core::result::Result::Err(_) => ::core::result::Result::Err(
                                __serde::de::Error::invalid_value(__serde::de::Unexpected::Bytes(key), &self),
                            ),
                        }
                    }
                }
                __serde::Deserializer::deserialize_identifier(deserializer, __TagVisitor)
            }
        }
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
        const __VARIANTS: &[&str] = &[#(#keys),*];
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
