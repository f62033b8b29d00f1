//! A token-based serde format, for the tests: a document is a list of
//! [`Token`]s (the serde data model's events, the way `serde_test` writes
//! them), read by [`Deserializer`].
//!
//! It behaves like `serde_test`'s deserializer (whose `Deserializer` is not
//! public): it *marks* newtypes (`Token::NewtypeStruct` goes to
//! `visit_newtype_struct`, as RON does), checks the names of structs,
//! newtypes, tuple structs and enums against what the type asks for, and
//! answers `deserialize_any` on a variant as a one-entry map (what
//! untagged and flattened types see). Its errors are `serde_test`'s: a
//! token no visitor expects is "deserialization did not expect this
//! token: ..", a name that does not match is "expected Token::.. but
//! deserialization wants Token::..", and an early end is "ran out of
//! tokens to deserialize". The tests compare serde's derive and
//! `DeserializeIn` on the same tokens: the same value or the same message.

use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, BytesDeserializer, U32Deserializer};
use serde::de::{
    self, Deserialize, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde::ser;
use tickarena::FrameArena;
use tickarena::serde::{DeserializeIn, InArena};

/// One event of the serde data model, as `serde_test` names them.
#[derive(Copy, Clone, PartialEq, Debug)]
#[allow(dead_code)] // Not every test uses every token.
pub enum Token {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    /// A string the visitor may not keep (`visit_str`).
    Str(&'static str),
    /// A string that lives as long as the input (`visit_borrowed_str`).
    BorrowedStr(&'static str),
    /// An owned string (`visit_string`).
    String(&'static str),
    Bytes(&'static [u8]),
    BorrowedBytes(&'static [u8]),
    ByteBuf(&'static [u8]),
    None,
    /// Followed by the value.
    Some,
    Unit,
    UnitStruct {
        name: &'static str,
    },
    /// Followed by the value.
    NewtypeStruct {
        name: &'static str,
    },
    Seq {
        len: Option<usize>,
    },
    SeqEnd,
    Tuple {
        len: usize,
    },
    TupleEnd,
    TupleStruct {
        name: &'static str,
        len: usize,
    },
    TupleStructEnd,
    Map {
        len: Option<usize>,
    },
    MapEnd,
    Struct {
        name: &'static str,
        len: usize,
    },
    StructEnd,
    /// Followed by the variant (a `Str`, `U32` or `Bytes`) and its value
    /// (`Unit` for a unit variant).
    Enum {
        name: &'static str,
    },
    UnitVariant {
        name: &'static str,
        variant: &'static str,
    },
    /// Followed by the value.
    NewtypeVariant {
        name: &'static str,
        variant: &'static str,
    },
    TupleVariant {
        name: &'static str,
        variant: &'static str,
        len: usize,
    },
    TupleVariantEnd,
    StructVariant {
        name: &'static str,
        variant: &'static str,
        len: usize,
    },
    StructVariantEnd,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// An error of the token format: its message, nothing else (what the tests
/// compare).
#[derive(Clone, PartialEq, Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

fn unexpected(token: Token) -> Error {
    de::Error::custom(format_args!(
        "deserialization did not expect this token: {token}"
    ))
}

fn end_of_tokens() -> Error {
    de::Error::custom("ran out of tokens to deserialize")
}

/// Reads a value from a list of tokens.
pub struct Deserializer<'de> {
    tokens: &'de [Token],
    human_readable: bool,
}

impl<'de> Deserializer<'de> {
    /// A deserializer of `tokens`, human readable (what serde_json says).
    pub fn new(tokens: &'de [Token]) -> Self {
        Deserializer {
            tokens,
            human_readable: true,
        }
    }

    /// A deserializer of `tokens` that says it is not human readable (what
    /// postcard says).
    #[allow(dead_code)]
    pub fn compact(tokens: &'de [Token]) -> Self {
        Deserializer {
            tokens,
            human_readable: false,
        }
    }

    /// How many tokens are left unread.
    pub fn remaining(&self) -> usize {
        self.tokens.len()
    }

    fn peek_token_opt(&self) -> Option<Token> {
        self.tokens.first().copied()
    }

    fn peek_token(&self) -> Result<Token, Error> {
        self.peek_token_opt().ok_or_else(end_of_tokens)
    }

    fn next_token_opt(&mut self) -> Option<Token> {
        let (&first, rest) = self.tokens.split_first()?;
        self.tokens = rest;
        Some(first)
    }

    fn next_token(&mut self) -> Result<Token, Error> {
        self.next_token_opt().ok_or_else(end_of_tokens)
    }

    fn assert_next_token(&mut self, expected: Token) -> Result<(), Error> {
        match self.next_token_opt() {
            Some(token) if token == expected => Ok(()),
            Some(other) => Err(de::Error::custom(format_args!(
                "expected Token::{other} but deserialization wants Token::{expected}"
            ))),
            None => Err(de::Error::custom(format_args!(
                "end of tokens but deserialization wants Token::{expected}"
            ))),
        }
    }

    fn visit_seq<V: Visitor<'de>>(
        &mut self,
        len: Option<usize>,
        end: Token,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let value = visitor.visit_seq(SeqReader { de: self, len, end })?;
        self.assert_next_token(end)?;
        Ok(value)
    }

    fn visit_map<V: Visitor<'de>>(
        &mut self,
        len: Option<usize>,
        end: Token,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let value = visitor.visit_map(MapReader { de: self, len, end })?;
        self.assert_next_token(end)?;
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit seq map identifier ignored_any
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let token = self.next_token()?;
        match token {
            Token::Bool(v) => visitor.visit_bool(v),
            Token::I8(v) => visitor.visit_i8(v),
            Token::I16(v) => visitor.visit_i16(v),
            Token::I32(v) => visitor.visit_i32(v),
            Token::I64(v) => visitor.visit_i64(v),
            Token::I128(v) => visitor.visit_i128(v),
            Token::U8(v) => visitor.visit_u8(v),
            Token::U16(v) => visitor.visit_u16(v),
            Token::U32(v) => visitor.visit_u32(v),
            Token::U64(v) => visitor.visit_u64(v),
            Token::U128(v) => visitor.visit_u128(v),
            Token::F32(v) => visitor.visit_f32(v),
            Token::F64(v) => visitor.visit_f64(v),
            Token::Char(v) => visitor.visit_char(v),
            Token::Str(v) => visitor.visit_str(v),
            Token::BorrowedStr(v) => visitor.visit_borrowed_str(v),
            Token::String(v) => visitor.visit_string(v.to_owned()),
            Token::Bytes(v) => visitor.visit_bytes(v),
            Token::BorrowedBytes(v) => visitor.visit_borrowed_bytes(v),
            Token::ByteBuf(v) => visitor.visit_byte_buf(v.to_vec()),
            Token::None => visitor.visit_none(),
            Token::Some => visitor.visit_some(self),
            Token::Unit | Token::UnitStruct { .. } => visitor.visit_unit(),
            Token::NewtypeStruct { .. } => visitor.visit_newtype_struct(self),
            Token::Seq { len } => self.visit_seq(len, Token::SeqEnd, visitor),
            Token::Tuple { len } => self.visit_seq(Some(len), Token::TupleEnd, visitor),
            Token::TupleStruct { len, .. } => {
                self.visit_seq(Some(len), Token::TupleStructEnd, visitor)
            }
            Token::Map { len } => self.visit_map(len, Token::MapEnd, visitor),
            Token::Struct { len, .. } => self.visit_map(Some(len), Token::StructEnd, visitor),
            Token::Enum { .. } => {
                let variant = self.next_token()?;
                let next = self.peek_token()?;
                match (variant, next) {
                    (Token::Str(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_str(variant)
                    }
                    (Token::BorrowedStr(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_borrowed_str(variant)
                    }
                    (Token::String(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_string(variant.to_owned())
                    }
                    (Token::Bytes(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_bytes(variant)
                    }
                    (Token::BorrowedBytes(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_borrowed_bytes(variant)
                    }
                    (Token::ByteBuf(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_byte_buf(variant.to_vec())
                    }
                    (Token::U8(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_u8(variant)
                    }
                    (Token::U16(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_u16(variant)
                    }
                    (Token::U32(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_u32(variant)
                    }
                    (Token::U64(variant), Token::Unit) => {
                        self.next_token()?;
                        visitor.visit_u64(variant)
                    }
                    (variant, Token::Unit) => Err(unexpected(variant)),
                    (variant, _) => visitor.visit_map(EnumAsMap {
                        de: self,
                        variant: Some(variant),
                        format: EnumFormat::Any,
                    }),
                }
            }
            Token::UnitVariant { variant, .. } => visitor.visit_str(variant),
            Token::NewtypeVariant { variant, .. } => visitor.visit_map(EnumAsMap {
                de: self,
                variant: Some(Token::Str(variant)),
                format: EnumFormat::Any,
            }),
            Token::TupleVariant { variant, .. } => visitor.visit_map(EnumAsMap {
                de: self,
                variant: Some(Token::Str(variant)),
                format: EnumFormat::Seq,
            }),
            Token::StructVariant { variant, .. } => visitor.visit_map(EnumAsMap {
                de: self,
                variant: Some(Token::Str(variant)),
                format: EnumFormat::Map,
            }),
            Token::SeqEnd
            | Token::TupleEnd
            | Token::TupleStructEnd
            | Token::MapEnd
            | Token::StructEnd
            | Token::TupleVariantEnd
            | Token::StructVariantEnd => Err(unexpected(token)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::Unit | Token::None => {
                self.next_token()?;
                visitor.visit_none()
            }
            Token::Some => {
                self.next_token()?;
                visitor.visit_some(self)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::Enum { name: n } if name == n => {
                self.next_token()?;
                visitor.visit_enum(EnumReader { de: self })
            }
            Token::UnitVariant { name: n, .. }
            | Token::NewtypeVariant { name: n, .. }
            | Token::TupleVariant { name: n, .. }
            | Token::StructVariant { name: n, .. }
                if name == n =>
            {
                visitor.visit_enum(EnumReader { de: self })
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::UnitStruct { .. } => {
                self.assert_next_token(Token::UnitStruct { name })?;
                visitor.visit_unit()
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::NewtypeStruct { .. } => {
                self.assert_next_token(Token::NewtypeStruct { name })?;
                visitor.visit_newtype_struct(self)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::Unit | Token::UnitStruct { .. } => {
                self.next_token()?;
                visitor.visit_unit()
            }
            Token::Seq { .. } => {
                self.next_token()?;
                self.visit_seq(Some(len), Token::SeqEnd, visitor)
            }
            Token::Tuple { .. } => {
                self.next_token()?;
                self.visit_seq(Some(len), Token::TupleEnd, visitor)
            }
            Token::TupleStruct { .. } => {
                self.next_token()?;
                self.visit_seq(Some(len), Token::TupleStructEnd, visitor)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::Unit => {
                self.next_token()?;
                visitor.visit_unit()
            }
            Token::UnitStruct { .. } => {
                self.assert_next_token(Token::UnitStruct { name })?;
                visitor.visit_unit()
            }
            Token::Seq { .. } => {
                self.next_token()?;
                self.visit_seq(Some(len), Token::SeqEnd, visitor)
            }
            Token::Tuple { .. } => {
                self.next_token()?;
                self.visit_seq(Some(len), Token::TupleEnd, visitor)
            }
            Token::TupleStruct { len: n, .. } => {
                self.assert_next_token(Token::TupleStruct { name, len: n })?;
                self.visit_seq(Some(len), Token::TupleStructEnd, visitor)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.peek_token()? {
            Token::Struct { len: n, .. } => {
                self.assert_next_token(Token::Struct { name, len: n })?;
                self.visit_map(Some(fields.len()), Token::StructEnd, visitor)
            }
            Token::Map { .. } => {
                self.next_token()?;
                self.visit_map(Some(fields.len()), Token::MapEnd, visitor)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

/// The elements of a sequence, up to its end token.
struct SeqReader<'s, 'de> {
    de: &'s mut Deserializer<'de>,
    len: Option<usize>,
    end: Token,
}

impl<'de> SeqAccess<'de> for SeqReader<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.de.peek_token_opt() == Some(self.end) {
            return Ok(None);
        }
        self.len = self.len.map(|len| len.saturating_sub(1));
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        self.len
    }
}

/// The entries of a map or struct, up to its end token.
struct MapReader<'s, 'de> {
    de: &'s mut Deserializer<'de>,
    len: Option<usize>,
    end: Token,
}

impl<'de> MapAccess<'de> for MapReader<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.de.peek_token_opt() == Some(self.end) {
            return Ok(None);
        }
        self.len = self.len.map(|len| len.saturating_sub(1));
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        self.len
    }
}

/// An enum read through `deserialize_enum`.
struct EnumReader<'s, 'de> {
    de: &'s mut Deserializer<'de>,
}

impl<'de, 's> EnumAccess<'de> for EnumReader<'s, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        match self.de.peek_token()? {
            Token::UnitVariant { variant, .. }
            | Token::NewtypeVariant { variant, .. }
            | Token::TupleVariant { variant, .. }
            | Token::StructVariant { variant, .. } => {
                let value = seed.deserialize(BorrowedStrDeserializer::<Error>::new(variant))?;
                Ok((value, self))
            }
            _ => {
                let value = seed.deserialize(&mut *self.de)?;
                Ok((value, self))
            }
        }
    }
}

impl<'de> VariantAccess<'de> for EnumReader<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.de.peek_token()? {
            Token::UnitVariant { .. } => {
                self.de.next_token()?;
                Ok(())
            }
            _ => de::Deserialize::deserialize(self.de),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        if let Token::NewtypeVariant { .. } = self.de.peek_token()? {
            self.de.next_token()?;
        }
        seed.deserialize(self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.de.peek_token()? {
            Token::TupleVariant { len: enum_len, .. } => {
                let token = self.de.next_token()?;
                if len == enum_len {
                    self.de
                        .visit_seq(Some(len), Token::TupleVariantEnd, visitor)
                } else {
                    Err(unexpected(token))
                }
            }
            Token::Seq {
                len: Some(enum_len),
            } => {
                let token = self.de.next_token()?;
                if len == enum_len {
                    self.de.visit_seq(Some(len), Token::SeqEnd, visitor)
                } else {
                    Err(unexpected(token))
                }
            }
            _ => de::Deserializer::deserialize_any(self.de, visitor),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.de.peek_token()? {
            Token::StructVariant { len: enum_len, .. } => {
                let token = self.de.next_token()?;
                if fields.len() == enum_len {
                    self.de
                        .visit_map(Some(fields.len()), Token::StructVariantEnd, visitor)
                } else {
                    Err(unexpected(token))
                }
            }
            Token::Map {
                len: Some(enum_len),
            } => {
                let token = self.de.next_token()?;
                if fields.len() == enum_len {
                    self.de
                        .visit_map(Some(fields.len()), Token::MapEnd, visitor)
                } else {
                    Err(unexpected(token))
                }
            }
            _ => de::Deserializer::deserialize_any(self.de, visitor),
        }
    }
}

/// How a variant's value is read when the variant is seen as a map.
enum EnumFormat {
    Seq,
    Map,
    Any,
}

/// A variant read through `deserialize_any`: a map of one entry, the
/// variant's name to its value.
struct EnumAsMap<'s, 'de> {
    de: &'s mut Deserializer<'de>,
    variant: Option<Token>,
    format: EnumFormat,
}

impl<'de> MapAccess<'de> for EnumAsMap<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.variant.take() {
            Some(Token::Str(variant) | Token::BorrowedStr(variant) | Token::String(variant)) => {
                seed.deserialize(BorrowedStrDeserializer::<Error>::new(variant))
                    .map(Some)
            }
            Some(Token::Bytes(variant)) => seed
                .deserialize(BytesDeserializer::<Error>::new(variant))
                .map(Some),
            Some(Token::U32(variant)) => {
                let de: U32Deserializer<Error> = variant.into_deserializer();
                seed.deserialize(de).map(Some)
            }
            Some(other) => Err(unexpected(other)),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.format {
            EnumFormat::Seq => {
                let value = seed.deserialize(de::value::SeqAccessDeserializer::new(SeqReader {
                    de: &mut *self.de,
                    len: None,
                    end: Token::TupleVariantEnd,
                }))?;
                self.de.assert_next_token(Token::TupleVariantEnd)?;
                Ok(value)
            }
            EnumFormat::Map => {
                let value = seed.deserialize(de::value::MapAccessDeserializer::new(MapReader {
                    de: &mut *self.de,
                    len: None,
                    end: Token::StructVariantEnd,
                }))?;
                self.de.assert_next_token(Token::StructVariantEnd)?;
                Ok(value)
            }
            EnumFormat::Any => seed.deserialize(&mut *self.de),
        }
    }
}

/// `tokens` read by serde's `Deserialize` (the heap type), every token
/// used: what serde_test's `assert_de_tokens` checks, as a `Result` (the
/// tokens left over are an error, "N remaining tokens").
pub fn heap<'de, T: Deserialize<'de>>(tokens: &'de [Token]) -> Result<T, String> {
    let mut de = Deserializer::new(tokens);
    let value = T::deserialize(&mut de).map_err(|error| error.0)?;
    match de.remaining() {
        0 => Ok(value),
        n => Err(format!("{n} remaining tokens")),
    }
}

/// `tokens` read by `DeserializeIn` into `arena`, every token used; the
/// same errors as [`heap`].
pub fn arena<'a, T: DeserializeIn<'a>>(
    arena: &'a FrameArena,
    tokens: &[Token],
) -> Result<T, String> {
    let mut de = Deserializer::new(tokens);
    let value: T = InArena::new(arena)
        .deserialize(&mut de)
        .map_err(|error| error.0)?;
    match de.remaining() {
        0 => Ok(value),
        n => Err(format!("{n} remaining tokens")),
    }
}

/// The strings and byte strings [`intern`] and [`intern_bytes`] keep, in
/// a `static`: still reachable at exit (in a thread-local they would be
/// lost with the thread, which valgrind reports as a leak).
static KEPT: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<&'static [u8]>>> =
    std::sync::LazyLock::new(Default::default);

/// A string kept for the rest of the process: the tokens of a serialized
/// value hold `&'static str` (as serde_test's do). Each distinct string is
/// kept once.
fn intern(text: &str) -> &'static str {
    let kept = intern_bytes(text.as_bytes());
    // The bytes of a `str`, kept as they were.
    std::str::from_utf8(kept).expect("kept from a str")
}

/// The bytes counterpart of [`intern`].
fn intern_bytes(bytes: &[u8]) -> &'static [u8] {
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match kept.get(bytes) {
        Some(&known) => known,
        None => {
            let leaked: &'static [u8] = Box::leak(bytes.to_vec().into_boxed_slice());
            kept.insert(leaked);
            leaked
        }
    }
}

/// The tokens `value` serializes to, as serde_test's serializer writes
/// them (`Struct { name, len }`, `Str` keys, `NewtypeStruct`, variants
/// with their names). Strings are `Str`.
pub fn to_tokens<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<Token>, Error> {
    let mut out = Serializer(Vec::new());
    value.serialize(&mut out)?;
    Ok(out.0)
}

/// Writes a value as tokens (see [`to_tokens`]).
struct Serializer(Vec<Token>);

impl ser::Serializer for &mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.0.push(Token::Bool(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.0.push(Token::I8(v));
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.0.push(Token::I16(v));
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.0.push(Token::I32(v));
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.0.push(Token::I64(v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.0.push(Token::I128(v));
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.0.push(Token::U8(v));
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.0.push(Token::U16(v));
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.0.push(Token::U32(v));
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.0.push(Token::U64(v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.0.push(Token::U128(v));
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.0.push(Token::F32(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.0.push(Token::F64(v));
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.0.push(Token::Char(v));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.push(Token::Str(intern(v)));
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.0.push(Token::Bytes(intern_bytes(v)));
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.0.push(Token::None);
        Ok(())
    }
    fn serialize_some<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.0.push(Token::Some);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.0.push(Token::Unit);
        Ok(())
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<(), Error> {
        self.0.push(Token::UnitStruct { name });
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.push(Token::UnitVariant { name, variant });
        Ok(())
    }
    fn serialize_newtype_struct<T: serde::Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.0.push(Token::NewtypeStruct { name });
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: serde::Serialize + ?Sized>(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.0.push(Token::NewtypeVariant { name, variant });
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        self.0.push(Token::Seq { len });
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, Error> {
        self.0.push(Token::Tuple { len });
        Ok(self)
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self, Error> {
        self.0.push(Token::TupleStruct { name, len });
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Error> {
        self.0.push(Token::TupleVariant { name, variant, len });
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Error> {
        self.0.push(Token::Map { len });
        Ok(self)
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self, Error> {
        self.0.push(Token::Struct { name, len });
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Error> {
        self.0.push(Token::StructVariant { name, variant, len });
        Ok(self)
    }
}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// The compound serializers that write each element as it comes, then
/// their end token.
macro_rules! elements_then_end {
    ($($trait:ident::$method:ident => $end:ident,)*) => {$(
        impl ser::$trait for &mut Serializer {
            type Ok = ();
            type Error = Error;
            fn $method<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Error> {
                self.0.push(Token::$end);
                Ok(())
            }
        }
    )*};
}

elements_then_end! {
    SerializeSeq::serialize_element => SeqEnd,
    SerializeTuple::serialize_element => TupleEnd,
    SerializeTupleStruct::serialize_field => TupleStructEnd,
    SerializeTupleVariant::serialize_field => TupleVariantEnd,
}

impl ser::SerializeMap for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: serde::Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Error> {
        self.0.push(Token::MapEnd);
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: serde::Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.0.push(Token::Str(key));
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Error> {
        self.0.push(Token::StructEnd);
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Serializer {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: serde::Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.0.push(Token::Str(key));
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Error> {
        self.0.push(Token::StructVariantEnd);
        Ok(())
    }
}
