//! The seeds that read a map's key (which field) and an enum's tag (which
//! variant), as serde's derive reads them: by name or any alias, as a
//! string or bytes, or by index; an unknown one skipped, refused, or (a
//! tag, with `#[serde(other)]`) read as the `other` variant. And the body
//! of an identifier enum (`field_identifier`, `variant_identifier`), which
//! reads one such identifier as itself.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// `__Key(Option<usize>)` and `__KeySeed`, which reads a key: the index of
/// the field among `names` (each field's names, in order) it names, or none
/// for a key to skip. With `deny_unknown_fields` an unknown key is serde's
/// error instead (naming the const `__FIELDS`, which the caller declares).
pub fn field_key_seed(names: &[&[String]], deny_unknown_fields: bool) -> TokenStream {
    let indices: Vec<usize> = (0..names.len()).collect();
    let indices64: Vec<u64> = (0..names.len() as u64).collect();
    let strs: Vec<TokenStream> = names.iter().map(|n| str_pattern(n)).collect();
    let bytes: Vec<TokenStream> = names.iter().map(|n| bytes_pattern(n)).collect();
    let (index_unknown, str_unknown, bytes_unknown) = if deny_unknown_fields {
        let index_expecting = format!("field index 0 <= i < {}", names.len());
        (
            quote!(::core::result::Result::Err(__serde::de::Error::invalid_value(
                __serde::de::Unexpected::Unsigned(index),
                &#index_expecting,
            ))),
            quote!(::core::result::Result::Err(
                __serde::de::Error::unknown_field(key, __FIELDS)
            )),
            quote!(::core::result::Result::Err(
                __tickarena::serde::__private::unknown_field_bytes(key, __FIELDS)
            )),
        )
    } else {
        let skip = quote!(::core::result::Result::Ok(__Key(
            ::core::option::Option::None
        )));
        (skip.clone(), skip.clone(), skip)
    };
    quote! {
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
                        match index {
                            #(#indices64 => ::core::result::Result::Ok(__Key(::core::option::Option::Some(#indices))),)*
                            _ => #index_unknown,
                        }
                    }
                    #[inline]
                    fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<__Key, __E> {
                        match key {
                            #(#strs => ::core::result::Result::Ok(__Key(::core::option::Option::Some(#indices))),)*
                            _ => #str_unknown,
                        }
                    }
                    fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<__Key, __E> {
                        match key {
                            #(#bytes => ::core::result::Result::Ok(__Key(::core::option::Option::Some(#indices))),)*
                            _ => #bytes_unknown,
                        }
                    }
                }
                __serde::Deserializer::deserialize_identifier(deserializer, __KeyVisitor)
            }
        }
    }
}

/// `__Tag(usize)` and `__TagSeed`, which reads a tag: the variant (its
/// index among all variants) that `variants` (each read variant's index
/// and names, in order) says it names. An index counts the variants read
/// (a skipped one takes none), as serde's derive counts. An unknown tag is
/// the `other` variant if there is one, else serde's error (naming the
/// const `__VARIANTS`, which the caller declares).
pub fn variant_tag_seed(variants: &[(usize, &[String])], other: Option<usize>) -> TokenStream {
    let tags: Vec<usize> = variants.iter().map(|(index, _)| *index).collect();
    let indices64: Vec<u64> = (0..variants.len() as u64).collect();
    let strs: Vec<TokenStream> = variants.iter().map(|(_, n)| str_pattern(n)).collect();
    let bytes: Vec<TokenStream> = variants.iter().map(|(_, n)| bytes_pattern(n)).collect();
    let (index_unknown, str_unknown, bytes_unknown) = match other {
        Some(other) => {
            let tag = quote!(::core::result::Result::Ok(__Tag(#other)));
            (tag.clone(), tag.clone(), tag)
        }
        None => {
            let index_expecting = format!("variant index 0 <= i < {}", variants.len());
            (
                quote!(::core::result::Result::Err(__serde::de::Error::invalid_value(
                    __serde::de::Unexpected::Unsigned(index),
                    &#index_expecting,
                ))),
                quote!(::core::result::Result::Err(
                    __serde::de::Error::unknown_variant(key, __VARIANTS)
                )),
                quote!(::core::result::Result::Err(
                    __tickarena::serde::__private::unknown_variant_bytes(key, __VARIANTS)
                )),
            )
        }
    };
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
                            #(#indices64 => ::core::result::Result::Ok(__Tag(#tags)),)*
                            _ => #index_unknown,
                        }
                    }
                    fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<__Tag, __E> {
                        match key {
                            #(#strs => ::core::result::Result::Ok(__Tag(#tags)),)*
                            _ => #str_unknown,
                        }
                    }
                    fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<__Tag, __E> {
                        match key {
                            #(#bytes => ::core::result::Result::Ok(__Tag(#tags)),)*
                            _ => #bytes_unknown,
                        }
                    }
                }
                __serde::Deserializer::deserialize_identifier(deserializer, __TagVisitor)
            }
        }
    }
}

/// The body of `deserialize_in` for an identifier enum: one identifier
/// (`deserialize_identifier`) read as the variant `variants` (each unit
/// variant's name and names, in order) says it names, by name, alias or
/// index; an unknown one is `other` (a `field_identifier`'s last variant),
/// else serde's "unknown field" (`field_identifier`) or "unknown variant"
/// message, as serde's derive reads it.
pub fn identifier_enum_body(
    ty: &TokenStream,
    name: &syn::Ident,
    variants: &[(&syn::Ident, &[String])],
    other: Option<&syn::Ident>,
    is_field: bool,
    expecting: Option<&str>,
    lifetime: &syn::Lifetime,
) -> TokenStream {
    let idents: Vec<&syn::Ident> = variants.iter().map(|(ident, _)| *ident).collect();
    let indices64: Vec<u64> = (0..variants.len() as u64).collect();
    let strs: Vec<TokenStream> = variants.iter().map(|(_, n)| str_pattern(n)).collect();
    let bytes: Vec<TokenStream> = variants.iter().map(|(_, n)| bytes_pattern(n)).collect();
    let all_names = variants.iter().flat_map(|(_, n)| n.iter());
    let what = if is_field { "field" } else { "variant" };
    let expecting = expecting.map_or_else(|| format!("{what} identifier"), str::to_owned);
    let (names_const, index_unknown, str_unknown, bytes_unknown) = match other {
        Some(other) => {
            let value = quote!(::core::result::Result::Ok(#name::#other));
            (quote!(), value.clone(), value.clone(), value)
        }
        None => {
            let index_expecting = format!("{what} index 0 <= i < {}", variants.len());
            let (unknown, unknown_bytes) = if is_field {
                (
                    quote!(__serde::de::Error::unknown_field),
                    quote!(__tickarena::serde::__private::unknown_field_bytes),
                )
            } else {
                (
                    quote!(__serde::de::Error::unknown_variant),
                    quote!(__tickarena::serde::__private::unknown_variant_bytes),
                )
            };
            (
                quote!(const __NAMES: &[&str] = &[#(#all_names),*];),
                quote!(::core::result::Result::Err(__serde::de::Error::invalid_value(
                    __serde::de::Unexpected::Unsigned(index),
                    &#index_expecting,
                ))),
                quote!(::core::result::Result::Err(#unknown(key, __NAMES))),
                quote!(::core::result::Result::Err(#unknown_bytes(key, __NAMES))),
            )
        }
    };
    quote! {
        #names_const
        struct __Identifier<#lifetime>(::core::marker::PhantomData<&#lifetime ()>);
        impl<'__de, #lifetime> __serde::de::Visitor<'__de> for __Identifier<#lifetime> {
            type Value = #ty;
            fn expecting(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(#expecting)
            }
            fn visit_u64<__E: __serde::de::Error>(self, index: u64) -> ::core::result::Result<#ty, __E> {
                match index {
                    #(#indices64 => ::core::result::Result::Ok(#name::#idents),)*
                    _ => #index_unknown,
                }
            }
            fn visit_str<__E: __serde::de::Error>(self, key: &str) -> ::core::result::Result<#ty, __E> {
                match key {
                    #(#strs => ::core::result::Result::Ok(#name::#idents),)*
                    _ => #str_unknown,
                }
            }
            fn visit_bytes<__E: __serde::de::Error>(self, key: &[u8]) -> ::core::result::Result<#ty, __E> {
                match key {
                    #(#bytes => ::core::result::Result::Ok(#name::#idents),)*
                    _ => #bytes_unknown,
                }
            }
        }
        let _ = __arena;
        __serde::Deserializer::deserialize_identifier(
            __deserializer,
            __Identifier(::core::marker::PhantomData),
        )
    }
}

/// `"a" | "b"`: a field's or a variant's names as a string pattern.
fn str_pattern(names: &[String]) -> TokenStream {
    let names = names.iter().map(String::as_str);
    quote!(#(#names)|*)
}

/// `b"a" | b"b"`: the same names as a byte-string pattern.
fn bytes_pattern(names: &[String]) -> TokenStream {
    let names = names.iter().map(|n| Literal::byte_string(n.as_bytes()));
    quote!(#(#names)|*)
}
