//! serde's deserialize cases (see `main.rs`) that use `untagged` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 23 cases, 54 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_partially_untagged_enum {
    use super::*;

    case! {
        data {
            enum Exp {
                Lambda(u32, Box<Exp>),
                #[serde(untagged)]
                App(Box<Exp>, Box<Exp>),
                #[serde(untagged)]
                Var(u32),
            }
        }
        shared {}
        test {
            // In the test, not beside the types: a glob of the variants of
            // a type the macro declares is ambiguous there (E0659).
            use Exp::*;
            let data = Lambda(0, Box::new(App(Box::new(Var(0)), Box::new(Var(0)))));
            ok!(Exp, data, &[
                Token::TupleVariant {
                    name: "Exp",
                    variant: "Lambda",
                    len: 2,
                },
                Token::U32(0),
                Token::Tuple { len: 2 },
                Token::U32(0),
                Token::U32(0),
                Token::TupleEnd,
                Token::TupleVariantEnd,
            ]);
        }
    }
}

mod a_partially_untagged_internally_tagged_enum {
    use super::*;

    case! {
        data {
            #[serde(tag = "t")]
            enum Data {
                    A,
                    B,
                    #[serde(untagged)]
                    Var(u32),
                }
        }
        shared {

        }
        test {
            let data = Data::A;
            ok!(Data, data, &[
                Token::Map { len: None },
                Token::Str("t"),
                Token::Str("A"),
                Token::MapEnd,
            ]);
            let data = Data::Var(42);
            ok!(Data, data, &[Token::U32(42)]);
        }
    }
}

mod it_untagged_variant {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            enum InternallyTagged {
                    Tagged {
                        a: u8,
                    },
                    #[serde(untagged)]
                    Untagged {
                        tag: String,
                        b: u8,
                    },
                }

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            ok!(InternallyTagged, InternallyTagged::Tagged { a: 1 }, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("Tagged"),
                Token::Str("a"),
                Token::U8(1),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Tagged { a: 1 }, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Tagged"),
                Token::Str("a"),
                Token::U8(1),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Untagged {
                tag: "Foo".to_owned(),
                b: 2,
            }, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("Foo"),
                Token::Str("b"),
                Token::U8(2),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Untagged {
                tag: "Foo".to_owned(),
                b: 2,
            }, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Foo"),
                Token::Str("b"),
                Token::U8(2),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Untagged {
                tag: "Tagged".to_owned(),
                b: 2,
            }, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Tagged"),
                Token::Str("b"),
                Token::U8(2),
                Token::StructEnd,
            ]);
        }
    }
}

mod at_partially_untagged {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum Data {
                    A(u32),
                    B,
                    #[serde(untagged)]
                    Var(u32),
                }
        }
        shared {

        }
        test {
            let data = Data::A(7);
            ok!(Data, data, &[
                Token::Map { len: None },
                Token::Str("t"),
                Token::Str("A"),
                Token::Str("c"),
                Token::U32(7),
                Token::MapEnd,
            ]);
            let data = Data::Var(42);
            ok!(Data, data, &[Token::U32(42)]);
        }
    }
}

mod ut_complex {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Untagged {
                    A { a: u8 },
                    B { b: u8 },
                    C,
                    D(u8),
                    E(String),
                    F(u8, u8),
                }
        }
        shared {

        }
        test {
            ok!(Untagged, Untagged::A { a: 1 }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("a"),
                Token::U8(1),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::B { b: 2 }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("b"),
                Token::U8(2),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::C, &[Token::Unit]);
            ok!(Untagged, Untagged::C, &[Token::None]);
            ok!(Untagged, Untagged::D(4), &[Token::U8(4)]);
            ok!(Untagged, Untagged::E("e".to_owned()), &[Token::Str("e")]);
            ok!(Untagged, Untagged::F(1, 2), &[
                Token::Tuple { len: 2 },
                Token::U8(1),
                Token::U8(2),
                Token::TupleEnd,
            ]);
            err!(Untagged, &[Token::Tuple { len: 1 }, Token::U8(1), Token::TupleEnd], "data did not match any variant of untagged enum Untagged");
            err!(Untagged, &[
                Token::Tuple { len: 3 },
                Token::U8(1),
                Token::U8(2),
                Token::U8(3),
                Token::TupleEnd,
            ], "data did not match any variant of untagged enum Untagged");
        }
    }
}

mod ut_newtype_unit_and_empty_map {
    use super::*;

    case! {
        data {
            struct Unit;

            #[serde(untagged)]
            enum Message {
                    Unit(Unit),
                    Map(BTreeMap<String, String>),
                }
        }
        shared {

        }
        test {
            ok!(Message, Message::Map(BTreeMap::new()), &[Token::Map { len: Some(0) }, Token::MapEnd]);
        }
    }
}

mod ut_newtype_struct {
    use super::*;

    case! {
        data {
            struct NewtypeStruct(u32);

            #[serde(untagged)]
            enum E {
                    Newtype(NewtypeStruct),
                    Null,
                }
        }
        shared {

        }
        test {
            let value = E::Newtype(NewtypeStruct(5));
            ok!(E, value, &[
                Token::NewtypeStruct {
                    name: "NewtypeStruct",
                },
                Token::U32(5),
            ]);
            ok!(E, value, &[Token::U32(5)]);
        }
    }
}

mod ut_newtype_enum_unit {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Unit), &[Token::UnitVariant {
                name: "Inner",
                variant: "Unit",
            }]);
        }
    }
}

mod ut_newtype_enum_newtype {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Newtype(1)), &[
                Token::NewtypeVariant {
                    name: "Inner",
                    variant: "Newtype",
                },
                Token::U8(1),
            ]);
        }
    }
}

mod ut_newtype_enum_tuple0 {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Tuple0()), &[
                Token::TupleVariant {
                    name: "Inner",
                    variant: "Tuple0",
                    len: 0,
                },
                Token::TupleVariantEnd,
            ]);
        }
    }
}

mod ut_newtype_enum_tuple2 {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Tuple2(1, 1)), &[
                Token::TupleVariant {
                    name: "Inner",
                    variant: "Tuple2",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(1),
                Token::TupleVariantEnd,
            ]);
        }
    }
}

mod ut_newtype_enum_struct_from_map {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Struct { f: 1 }), &[
                Token::StructVariant {
                    name: "Inner",
                    variant: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructVariantEnd,
            ]);
        }
    }
}

mod ut_newtype_enum_struct_from_seq {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::Struct { f: 1 }), &[
                Token::Map { len: Some(1) },
                // tag
                Token::Str("Struct"),
                // content
                Token::Seq { len: Some(1) },
                Token::U8(1),
                Token::SeqEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod ut_newtype_enum_empty_struct_from_map {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::EmptyStruct {}), &[
                Token::Map { len: Some(1) },
                // tag
                Token::Str("EmptyStruct"),
                // content
                Token::Map { len: Some(0) },
                Token::MapEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod ut_newtype_enum_empty_struct_from_seq {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Outer {
                    Inner(Inner),
                }

            enum Inner {
                Unit,
                Newtype(u8),
                Tuple0(),
                Tuple2(u8, u8),
                Struct { f: u8 },
                EmptyStruct {},
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Inner(Inner::EmptyStruct {}), &[
                Token::Map { len: Some(1) },
                // tag
                Token::Str("EmptyStruct"),
                // content
                Token::Seq { len: Some(0) },
                Token::SeqEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod ut_with_optional_field_some {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Enum {
                    Struct { optional: Option<u32> },
                    Null,
                }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Struct { optional: Some(42) }, &[
                Token::Struct {
                    name: "Enum",
                    len: 1,
                },
                Token::Str("optional"),
                Token::Some,
                Token::U32(42),
                Token::StructEnd,
            ]);
        }
    }
}

mod ut_with_optional_field_some_without_marker {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Enum {
                    Struct { optional: Option<u32> },
                    Null,
                }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Struct { optional: Some(42) }, &[
                Token::Struct {
                    name: "Enum",
                    len: 1,
                },
                Token::Str("optional"),
                Token::U32(42),
                Token::StructEnd,
            ]);
        }
    }
}

mod ut_with_optional_field_none {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Enum {
                    Struct { optional: Option<u32> },
                    Null,
                }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Struct { optional: None }, &[
                Token::Struct {
                    name: "Enum",
                    len: 1,
                },
                Token::Str("optional"),
                Token::None,
                Token::StructEnd,
            ]);
        }
    }
}

mod ut_with_optional_field_unit {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Enum {
                    Struct { optional: Option<u32> },
                    Null,
                }
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Struct { optional: None }, &[
                Token::Map { len: None },
                Token::Str("optional"),
                Token::Unit,
                Token::MapEnd,
            ]);
        }
    }
}

mod ut_string_and_bytes {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Untagged {
                    String {
                        string: String,
                    },
                    Bytes {
                        #[serde(with = "bytes")]
                        bytes: Vec<u8>,
                    },
                }
        }
        shared {

        }
        test {
            ok!(Untagged, Untagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("string"),
                Token::Str("\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("string"),
                Token::String("\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("string"),
                Token::Bytes(b"\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("string"),
                Token::ByteBuf(b"\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("bytes"),
                Token::Str("\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("bytes"),
                Token::String("\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("bytes"),
                Token::Bytes(b"\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("bytes"),
                Token::ByteBuf(b"\0"),
                Token::StructEnd,
            ]);
            ok!(Untagged, Untagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Untagged",
                    len: 1,
                },
                Token::Str("bytes"),
                Token::Seq { len: Some(1) },
                Token::U8(0),
                Token::SeqEnd,
                Token::StructEnd,
            ]);
        }
    }
}

mod ut_expecting_message {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            #[serde(expecting = "something strange...")]
            enum Enum {
                    Untagged,
                }
        }
        shared {

        }
        test {
            err!(Enum, &[Token::Str("Untagged")], "something strange...");
        }
    }
}

/// serde's `test_partially_untagged_enum_generic`, its `E<(), bool, u32>`
/// written out (the arena derive takes no type parameters): `A` reads the
/// associated `u32`, the untagged `B` the `bool`.
mod a_partially_untagged_enum_generic {
    use super::*;

    case! {
        data {
            enum E {
                A(u32),
                #[serde(untagged)]
                B(bool),
            }
        }
        shared {}
        test {
            ok!(E, E::B(true), &[Token::Bool(true)]);
            ok!(E, E::A(5), &[
                Token::NewtypeVariant {
                    name: "E",
                    variant: "A",
                },
                Token::U32(5),
            ]);
        }
    }
}

/// serde's `test_partially_untagged_enum_desugared`: the partially
/// untagged enum, and its desugaring (an untagged enum whose first
/// variant is the tagged part, named `Test` as serde's is by its module),
/// read alike from the same tokens.
mod a_partially_untagged_enum_desugared {
    use super::*;

    case! {
        data {
            enum Test {
                A(u32, u32),
                B(u32),
                #[serde(untagged)]
                C(u32),
                #[serde(untagged)]
                D(u32, u32),
            }

            #[serde(rename = "Test")]
            enum TestTagged {
                A(u32, u32),
                B(u32),
            }

            #[serde(untagged)]
            enum TestUntagged {
                Tagged(TestTagged),
                C(u32),
                D(u32, u32),
            }
        }
        shared {}
        test {
            let a = &[
                Token::TupleVariant {
                    name: "Test",
                    variant: "A",
                    len: 2,
                },
                Token::U32(0),
                Token::U32(1),
                Token::TupleVariantEnd,
            ];
            ok!(Test, Test::A(0, 1), a);
            ok!(TestUntagged, TestUntagged::Tagged(TestTagged::A(0, 1)), a);
            let b = &[
                Token::NewtypeVariant {
                    name: "Test",
                    variant: "B",
                },
                Token::U32(1),
            ];
            ok!(Test, Test::B(1), b);
            ok!(TestUntagged, TestUntagged::Tagged(TestTagged::B(1)), b);
            ok!(Test, Test::C(2), &[Token::U32(2)]);
            ok!(TestUntagged, TestUntagged::C(2), &[Token::U32(2)]);
            let d = &[
                Token::Tuple { len: 2 },
                Token::U32(3),
                Token::U32(5),
                Token::TupleEnd,
            ];
            ok!(Test, Test::D(3, 5), d);
            ok!(TestUntagged, TestUntagged::D(3, 5), d);
        }
    }
}
