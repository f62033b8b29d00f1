//! The errors of a key or a tag given as bytes that name nothing, as
//! serde's derive gives them: the bytes read as UTF-8, lossily (an invalid
//! sequence is `�`), in serde's "unknown field" and "unknown variant"
//! messages.

use alloc::string::String;

use ::serde::de::Error;

/// "unknown field `key`, expected one of .." for a key given as bytes
/// (`#[serde(deny_unknown_fields)]`).
#[doc(hidden)]
#[cold]
pub fn unknown_field_bytes<E: Error>(key: &[u8], fields: &'static [&'static str]) -> E {
    E::unknown_field(&String::from_utf8_lossy(key), fields)
}

/// "unknown variant `tag`, expected one of .." for a tag given as bytes.
#[doc(hidden)]
#[cold]
pub fn unknown_variant_bytes<E: Error>(tag: &[u8], variants: &'static [&'static str]) -> E {
    E::unknown_variant(&String::from_utf8_lossy(tag), variants)
}
