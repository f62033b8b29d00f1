//! serde's deserialize cases (see `main.rs`) that use `skip` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 21 cases, 36 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_invalid_length_enum {
    use super::*;

    case! {
        data {
            enum InvalidLengthEnum {
                A(i32, i32, i32),
                B(#[serde(skip_deserializing)] i32, i32, i32),
            }
        }
        shared {

        }
        test {
            err!(InvalidLengthEnum, &[
                Token::TupleVariant {
                    name: "InvalidLengthEnum",
                    variant: "A",
                    len: 3,
                },
                Token::I32(1),
                Token::TupleVariantEnd,
            ], "invalid length 1, expected tuple variant InvalidLengthEnum::A with 3 elements");
            err!(InvalidLengthEnum, &[
                Token::TupleVariant {
                    name: "InvalidLengthEnum",
                    variant: "B",
                    len: 2,
                },
                Token::I32(1),
                Token::TupleVariantEnd,
            ], "invalid length 1, expected tuple variant InvalidLengthEnum::B with 2 elements");
        }
    }
}

mod de_struct {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }
        }
        shared {

        }
        test {
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U8(0),
                Token::I32(1),
                Token::U8(1),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U16(0),
                Token::I32(1),
                Token::U16(1),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U32(0),
                Token::I32(1),
                Token::U32(1),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U64(0),
                Token::I32(1),
                Token::U64(1),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U8(0),
                Token::I32(1),
                Token::U64(1),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U8(0),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::StructEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Seq { len: Some(3) },
                Token::I32(1),
                Token::I32(2),
                Token::SeqEnd,
            ]);
        }
    }
}

mod de_struct_borrowed_keys {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }
        }
        shared {

        }
        test {
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::BorrowedStr("a"),
                Token::I32(1),
                Token::BorrowedStr("b"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::BorrowedStr("a"),
                Token::I32(1),
                Token::BorrowedStr("b"),
                Token::I32(2),
                Token::StructEnd,
            ]);
        }
    }
}

mod de_struct_owned_keys {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }
        }
        shared {

        }
        test {
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::String("a"),
                Token::I32(1),
                Token::String("b"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::String("a"),
                Token::I32(1),
                Token::String("b"),
                Token::I32(2),
                Token::StructEnd,
            ]);
        }
    }
}

mod de_struct_with_skip {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }
        }
        shared {

        }
        test {
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::Str("c"),
                Token::I32(3),
                Token::Str("d"),
                Token::I32(4),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Map { len: Some(3) },
                Token::U8(0),
                Token::I32(1),
                Token::U16(1),
                Token::I32(2),
                Token::U32(2),
                Token::I32(3),
                Token::U64(3),
                Token::I32(4),
                Token::MapEnd,
            ]);
            ok!(Struct, Struct { a: 1, b: 2, c: 0 }, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::Str("c"),
                Token::I32(3),
                Token::Str("d"),
                Token::I32(4),
                Token::StructEnd,
            ]);
        }
    }
}

mod de_struct_skip_all {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            struct StructSkipAll {
                #[serde(skip_deserializing)]
                a: i32,
            }
        }
        shared {

        }
        test {
            ok!(StructSkipAll, StructSkipAll { a: 0 }, &[
                Token::Struct {
                    name: "StructSkipAll",
                    len: 0,
                },
                Token::StructEnd,
            ]);
            ok!(StructSkipAll, StructSkipAll { a: 0 }, &[
                Token::Struct {
                    name: "StructSkipAll",
                    len: 0,
                },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::StructEnd,
            ]);
        }
    }
}

mod de_struct_skip_default {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(default)]
            struct StructSkipDefault {
                #[serde(skip_deserializing)]
                a: i32,
            }
        }
        shared {
            impl Default for StructSkipDefault {
                fn default() -> Self {
                    StructSkipDefault { a: 16 }
                }
            }
        }
        test {
            ok!(StructSkipDefault, StructSkipDefault { a: 16 }, &[
                Token::Struct {
                    name: "StructSkipDefault",
                    len: 0,
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod de_struct_default {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(default)]
            struct StructDefault {
                a: i32,
                b: String,
            }
        }
        shared {
            impl Default for StructDefault {
                fn default() -> Self {
                    StructDefault {
                        a: 100,
                        b: "default".to_string(),
                    }
                }
            }
        }
        test {
            ok!(StructDefault, StructDefault {
                a: 50,
                b: "overwritten".to_string(),
            }, &[
                Token::Struct {
                    name: "StructDefault",
                    len: 2,
                },
                Token::Str("a"),
                Token::I32(50),
                Token::Str("b"),
                Token::String("overwritten"),
                Token::StructEnd,
            ]);
            ok!(StructDefault, StructDefault {
                a: 100,
                b: "default".to_string(),
            }, &[
                Token::Struct {
                    name: "StructDefault",
                    len: 2,
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod de_enum_unit {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Unit, &[Token::UnitVariant {
                name: "Enum",
                variant: "Unit",
            }]);
        }
    }
}

mod de_enum_simple {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Simple(1), &[
                Token::NewtypeVariant {
                    name: "Enum",
                    variant: "Simple",
                },
                Token::I32(1),
            ]);
        }
    }
}

mod de_enum_simple_with_skipped {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::SimpleWithSkipped(NotDeserializable), &[Token::UnitVariant {
                name: "Enum",
                variant: "SimpleWithSkipped",
            }]);
        }
    }
}

mod de_enum_seq {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Seq(1, 2, 3), &[
                Token::TupleVariant {
                    name: "Enum",
                    variant: "Seq",
                    len: 3,
                },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::TupleVariantEnd,
            ]);
        }
    }
}

mod de_enum_map {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Map { a: 1, b: 2, c: 3 }, &[
                Token::StructVariant {
                    name: "Enum",
                    variant: "Map",
                    len: 3,
                },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::Str("c"),
                Token::I32(3),
                Token::StructVariantEnd,
            ]);
        }
    }
}

mod de_enum_unit_usize {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Unit, &[Token::Enum { name: "Enum" }, Token::U32(0), Token::Unit]);
        }
    }
}

mod de_enum_unit_bytes {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Unit, &[
                Token::Enum { name: "Enum" },
                Token::Bytes(b"Unit"),
                Token::Unit,
            ]);
        }
    }
}

mod err_unknown_variant {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            err!(Enum, &[
                Token::UnitVariant { name: "Enum", variant: "Foo" },
            ], "unknown variant `Foo`, expected one of `Unit`, `Simple`, `Seq`, `Map`, `SimpleWithSkipped`");
        }
    }
}

mod err_enum_skipped_variant {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            err!(Enum, &[
                Token::UnitVariant { name: "Enum", variant: "Skipped" },
            ], "unknown variant `Skipped`, expected one of `Unit`, `Simple`, `Seq`, `Map`, `SimpleWithSkipped`");
        }
    }
}

mod err_enum_skip_all {
    use super::*;

    case! {
        data {
            enum EnumSkipAll {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
            }
        }
        shared {

        }
        test {
            err!(EnumSkipAll, &[Token::UnitVariant {
                name: "EnumSkipAll",
                variant: "Skipped",
            }], "unknown variant `Skipped`, there are no variants");
        }
    }
}

mod err_duplicate_field_struct {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }
        }
        shared {

        }
        test {
            err!(Struct, &[
                Token::Map { len: Some(3) },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("a"),
            ], "duplicate field `a`");
        }
    }
}

mod err_duplicate_field_enum {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            err!(Enum, &[
                Token::StructVariant {
                    name: "Enum",
                    variant: "Map",
                    len: 3,
                },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("a"),
            ], "duplicate field `a`");
        }
    }
}

mod err_enum_out_of_range {
    use super::*;

    case! {
        data {
            enum Enum {
                #[allow(dead_code)]
                #[serde(skip_deserializing)]
                Skipped,
                Unit,
                Simple(i32),
                Seq(i32, i32, i32),
                Map {
                    a: i32,
                    b: i32,
                    c: i32,
                },
                SimpleWithSkipped(#[serde(skip_deserializing)] NotDeserializable),
            }
        }
        shared {

        }
        test {
            err!(Enum, &[Token::Enum { name: "Enum" }, Token::U32(5), Token::Unit], "invalid value: integer `5`, expected variant index 0 <= i < 5");
        }
    }
}
