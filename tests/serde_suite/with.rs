//! serde's deserialize cases (see `main.rs`) that use `with` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 4 cases, 9 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_elt_not_deserialize {
    use super::*;

    case! {
        data {
            struct ContainsNotDeserialize {
                #[serde(skip_deserializing)]
                a: NotDeserializeStruct,
                #[serde(skip_deserializing, default)]
                b: NotDeserializeStruct,
                #[serde(deserialize_with = "DeserializeWith::deserialize_with", default)]
                c: NotDeserializeStruct,
                #[serde(skip_deserializing, default = "MyDefault::my_default")]
                e: NotDeserializeEnum,
            }
        }
        shared {

        }
        test {
            ok!(ContainsNotDeserialize, ContainsNotDeserialize {
                a: NotDeserializeStruct(123),
                b: NotDeserializeStruct(123),
                c: NotDeserializeStruct(123),
                e: NotDeserializeEnum::Trouble,
            }, &[
                Token::Struct {
                    name: "ContainsNotDeserialize",
                    len: 1,
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod a_deserialize_with_variant {
    use super::*;

    case! {
        data {
            enum WithVariant {
                #[serde(serialize_with = "serialize_unit_variant_as_i8")]
                #[serde(deserialize_with = "deserialize_i8_as_unit_variant")]
                Unit,

                #[serde(serialize_with = "SerializeWith::serialize_with")]
                #[serde(deserialize_with = "DeserializeWith::deserialize_with")]
                Newtype(i32),

                #[serde(serialize_with = "serialize_variant_as_string")]
                #[serde(deserialize_with = "deserialize_string_as_variant")]
                Tuple(String, u8),

                #[serde(serialize_with = "serialize_variant_as_string")]
                #[serde(deserialize_with = "deserialize_string_as_variant")]
                Struct { f1: String, f2: u8 },
            }
        }
        shared {

        }
        test {
            ok!(WithVariant, WithVariant::Unit, &[
                Token::NewtypeVariant {
                    name: "WithVariant",
                    variant: "Unit",
                },
                Token::I8(0),
            ]);
            ok!(WithVariant, WithVariant::Newtype(123), &[
                Token::NewtypeVariant {
                    name: "WithVariant",
                    variant: "Newtype",
                },
                Token::Bool(true),
            ]);
            ok!(WithVariant, WithVariant::Tuple("hello".into(), 0), &[
                Token::NewtypeVariant {
                    name: "WithVariant",
                    variant: "Tuple",
                },
                Token::Str("hello;0"),
            ]);
            ok!(WithVariant, WithVariant::Struct {
                f1: "world".into(),
                f2: 1,
            }, &[
                Token::NewtypeVariant {
                    name: "WithVariant",
                    variant: "Struct",
                },
                Token::Str("world;1"),
            ]);
        }
    }
}

mod a_deserialize_with_struct {
    use super::*;

    case! {
        data {
            struct DeserializeWithStruct {
                a: i8,
                #[serde(deserialize_with = "DeserializeWith::deserialize_with")]
                b: i32,
            }
        }
        shared {

        }
        test {
            ok!(DeserializeWithStruct, DeserializeWithStruct { a: 1, b: 2 }, &[
                Token::Struct {
                    name: "DeserializeWithStruct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(1),
                Token::Str("b"),
                Token::Bool(false),
                Token::StructEnd,
            ]);
            ok!(DeserializeWithStruct, DeserializeWithStruct { a: 1, b: 123 }, &[
                Token::Struct {
                    name: "DeserializeWithStruct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(1),
                Token::Str("b"),
                Token::Bool(true),
                Token::StructEnd,
            ]);
        }
    }
}

mod a_deserialize_with_enum {
    use super::*;

    case! {
        data {
            enum DeserializeWithEnum {
                Struct {
                    a: i8,
                    #[serde(deserialize_with = "DeserializeWith::deserialize_with")]
                    b: i32,
                },
            }
        }
        shared {

        }
        test {
            ok!(DeserializeWithEnum, DeserializeWithEnum::Struct { a: 1, b: 2 }, &[
                Token::StructVariant {
                    name: "DeserializeWithEnum",
                    variant: "Struct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(1),
                Token::Str("b"),
                Token::Bool(false),
                Token::StructVariantEnd,
            ]);
            ok!(DeserializeWithEnum, DeserializeWithEnum::Struct { a: 1, b: 123 }, &[
                Token::StructVariant {
                    name: "DeserializeWithEnum",
                    variant: "Struct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(1),
                Token::Str("b"),
                Token::Bool(true),
                Token::StructVariantEnd,
            ]);
        }
    }
}
