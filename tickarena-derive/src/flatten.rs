//! `#[derive(DeserializeIn)]` for a struct with `#[serde(flatten)]`
//! fields, as serde's derive reads it: a map only, its own fields read as
//! they come, every other entry buffered in the arena
//! (`tickarena::serde::__private::Collected`), then each flattened field
//! read from what is left, in order; with `deny_unknown_fields`, an entry
//! no flattened field took is an error (serde's messages).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{Error, Ident, Lifetime};

use crate::deserialize_in::{Field, Rules, Shape, finish_field, let_default, seed, visitor_struct};

/// Whether `shape` has a flattened field that is read (serde's
/// `has_flatten`).
pub(crate) fn has_flatten(shape: &Shape) -> bool {
    match shape {
        Shape::Named(fields) | Shape::Tuple(fields) => fields
            .iter()
            .any(|f| f.attrs.flatten.is_some() && !f.attrs.skip),
        Shape::Unit => false,
    }
}

/// The body of `deserialize_in` for a struct with flattened fields: read
/// as a map, whatever the format's hint.
pub(crate) fn struct_body(
    ty: &TokenStream,
    name: &Ident,
    shape: &Shape,
    rules: &Rules<'_>,
) -> syn::Result<TokenStream> {
    if let Shape::Tuple(fields) = shape {
        return Err(tuple_refused(fields));
    }
    let visitor = Ident::new("__Visitor", proc_macro2::Span::call_site());
    let expecting = format!("struct {name}");
    let def = visitor_def(&visitor, ty, &quote!(#name), &expecting, shape, rules);
    Ok(quote! {
        #def
        __serde::Deserializer::deserialize_map(__deserializer, #visitor { arena: __arena })
    })
}

/// serde's refusal of `flatten` among `fields`, a tuple struct's (or a
/// tuple variant's), under the flattened field.
pub(crate) fn tuple_refused(fields: &[Field]) -> Error {
    let message = if fields.len() == 1 {
        "#[serde(flatten)] cannot be used on newtype structs"
    } else {
        "#[serde(flatten)] cannot be used on tuple structs"
    };
    let span = fields
        .iter()
        .find_map(|f| f.attrs.flatten)
        .unwrap_or_else(proc_macro2::Span::call_site);
    Error::new(span, message)
}

/// The visitor `visitor` (`struct visitor { arena }`) of a struct, or a
/// struct variant (`path`), with flattened fields: `visit_map` only, and a
/// `DeserializeSeed` that asks for a map (what an externally tagged
/// variant is read through, as serde's).
pub(crate) fn visitor_def(
    visitor: &Ident,
    ty: &TokenStream,
    path: &TokenStream,
    expecting: &str,
    shape: &Shape,
    rules: &Rules<'_>,
) -> TokenStream {
    let lifetime: &Lifetime = rules.lifetime;
    let fields = shape.fields();
    let arena = quote!(__arena);
    let locals: Vec<Ident> = (0..fields.len()).map(|i| format_ident!("__f{i}")).collect();
    let is_own = |f: &Field| f.attrs.flatten.is_none() && !f.attrs.skip;
    let own: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| is_own(f))
        .collect();
    // Each key (and alias) of the struct's own fields, with its field.
    let (mut keys, mut key_fields) = (Vec::new(), Vec::new());
    for (index, field) in &own {
        for key in &field.names {
            keys.push(key.clone());
            key_fields.push(*index);
        }
    }
    let key_bytes: Vec<syn::LitByteStr> = keys
        .iter()
        .map(|k| syn::LitByteStr::new(k.as_bytes(), proc_macro2::Span::call_site()))
        .collect();
    let slots: Vec<&Ident> = own.iter().map(|(i, _)| &locals[*i]).collect();
    let types: Vec<&syn::Type> = own.iter().map(|(_, f)| &f.ty).collect();
    let indices: Vec<usize> = own.iter().map(|(i, _)| *i).collect();
    let own_keys: Vec<&str> = own.iter().map(|(_, f)| f.key.as_str()).collect();
    // The derive's own names, made here under its own span and
    // interpolated under the fields' (a type declared by a caller's
    // `macro_rules!` would look for them in the caller's hygiene).
    let (map, collect, access) = (quote!(__map), quote!(__collect), quote!(__M));
    let reads = own.iter().map(|(_, f)| {
        let seed = seed(f, &arena, rules);
        let span = syn::spanned::Spanned::span(&f.ty);
        quote_spanned!(span=> __serde::de::MapAccess::next_value_seed(&mut #map, #seed)?)
    });
    let finish = fields.iter().zip(&locals).map(|(field, local)| {
        if field.attrs.flatten.is_some() && !field.attrs.skip {
            // Read from what the struct's own fields left, in order.
            let seed = seed(field, &arena, rules);
            let span = syn::spanned::Spanned::span(&field.ty);
            quote_spanned! {span=>
                let #local = __serde::de::DeserializeSeed::deserialize(
                    #seed,
                    #collect.deserializer::<#access::Error>(),
                )?;
            }
        } else {
            finish_field(field, local, &arena, rules)
        }
    });
    // The own fields' missing ones first, then the flattened ones (serde's
    // order of errors).
    let (finish_flat, finish_own): (Vec<_>, Vec<_>) = finish
        .zip(fields)
        .partition(|(_, field)| field.attrs.flatten.is_some() && !field.attrs.skip);
    let finish_own = finish_own.into_iter().map(|(tokens, _)| tokens);
    let finish_flat = finish_flat.into_iter().map(|(tokens, _)| tokens);
    let deny_unknown = rules
        .deny_unknown_fields
        .then(|| quote!(__collect.deny_unknown::<__M::Error>()?;));
    let default = let_default(ty, rules, &arena);
    let members = fields.iter().map(|f| &f.member);
    let build = quote!(#path { #(#members: #locals),* });
    let expecting = rules.expecting.unwrap_or(expecting);
    let visitor_struct = visitor_struct(visitor, lifetime);
    quote! {
        #visitor_struct
        impl<'__de, #lifetime> __serde::de::DeserializeSeed<'__de> for #visitor<#lifetime> {
            type Value = #ty;
            fn deserialize<__D>(self, __deserializer: __D) -> ::core::result::Result<#ty, __D::Error>
            where
                __D: __serde::Deserializer<'__de>,
            {
                __serde::Deserializer::deserialize_map(__deserializer, self)
            }
        }
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for #visitor<#lifetime> {
            type Value = #ty;

            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }

            fn visit_map<__M>(self, mut __map: __M) -> ::core::result::Result<#ty, __M::Error>
            where
                __M: __serde::de::MapAccess<'__de>,
            {
                use __tickarena::serde::__private::{Content, ContentSeed};
                let __arena = self.arena;
                /// A key: one of the struct's own fields, or another,
                /// buffered for the flattened ones.
                enum __Key<#lifetime> {
                    Field(usize),
                    Other(Content<#lifetime>),
                }
                struct __KeySeed<#lifetime>(&#lifetime __tickarena::FrameArena);
                impl<'__de, #lifetime> __serde::de::DeserializeSeed<'__de> for __KeySeed<#lifetime> {
                    type Value = __Key<#lifetime>;
                    fn deserialize<__K>(self, deserializer: __K) -> ::core::result::Result<Self::Value, __K::Error>
                    where
                        __K: __serde::Deserializer<'__de>,
                    {
                        __serde::Deserializer::deserialize_identifier(deserializer, self)
                    }
                }
                macro_rules! __other {
                    ($($method:ident($ty:ty) => $variant:ident,)*) => {$(
                        fn $method<__E: __serde::de::Error>(self, value: $ty) -> ::core::result::Result<Self::Value, __E> {
                            ::core::result::Result::Ok(__Key::Other(Content::$variant(value)))
                        }
                    )*};
                }
                impl<'__de, #lifetime> __serde::de::Visitor<'__de> for __KeySeed<#lifetime> {
                    type Value = __Key<#lifetime>;
                    fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        formatter.write_str("field identifier")
                    }
                    __other! {
                        visit_bool(bool) => Bool,
                        visit_i8(i8) => I8,
                        visit_i16(i16) => I16,
                        visit_i32(i32) => I32,
                        visit_i64(i64) => I64,
                        visit_u8(u8) => U8,
                        visit_u16(u16) => U16,
                        visit_u32(u32) => U32,
                        visit_u64(u64) => U64,
                        visit_f32(f32) => F32,
                        visit_f64(f64) => F64,
                        visit_char(char) => Char,
                    }
                    fn visit_unit<__E: __serde::de::Error>(self) -> ::core::result::Result<Self::Value, __E> {
                        ::core::result::Result::Ok(__Key::Other(Content::Unit))
                    }
                    fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<Self::Value, __E> {
                        match key {
                            #(#keys => ::core::result::Result::Ok(__Key::Field(#key_fields)),)*
                            _ => __serde::de::Visitor::<'__de>::visit_str(ContentSeed::new(self.0), key).map(__Key::Other),
                        }
                    }
                    fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<Self::Value, __E> {
                        match key {
                            #(#key_bytes => ::core::result::Result::Ok(__Key::Field(#key_fields)),)*
                            _ => __serde::de::Visitor::<'__de>::visit_bytes(ContentSeed::new(self.0), key).map(__Key::Other),
                        }
                    }
                }
                #(let mut #slots: ::core::option::Option<#types> = ::core::option::Option::None;)*
                let mut __collect = __tickarena::serde::__private::Collected::new(__arena);
                while let ::core::option::Option::Some(__key) =
                    __serde::de::MapAccess::next_key_seed(&mut __map, __KeySeed(__arena))?
                {
                    match __key {
                        #(__Key::Field(#indices) => {
                            if #slots.is_some() {
                                return ::core::result::Result::Err(
                                    <__M::Error as __serde::de::Error>::duplicate_field(#own_keys),
                                );
                            }
                            #slots = ::core::option::Option::Some(#reads);
                        })*
                        __Key::Other(__name) => {
                            let __value = __serde::de::MapAccess::next_value_seed(&mut __map, ContentSeed::new(__arena))?;
                            __collect.push::<__M::Error>(__name, __value)?;
                        }
                        #[allow(unreachable_patterns)]
                        __Key::Field(_) => ::core::unreachable!(),
                    }
                }
                #default
                #(#finish_own)*
                #(#finish_flat)*
                #deny_unknown
                ::core::result::Result::Ok(#build)
            }
        }
    }
}
