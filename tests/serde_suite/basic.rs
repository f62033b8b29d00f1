//! serde's deserialize cases (see `main.rs`) that use only what `DeserializeIn` accepted before issue 50 (`rename`, `default`, `skip`): 8 cases, 15 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_skip_struct {
    use super::*;

    case! {
        data {
            struct SkipStruct {
                a: i8,
                #[serde(skip)]
                b: i32,
            }
        }
        shared {

        }
        test {
            ok!(SkipStruct, SkipStruct { a: 1, b: 0 }, &[
                Token::Struct {
                    name: "SkipStruct",
                    len: 1,
                },
                Token::Str("a"),
                Token::I8(1),
                Token::StructEnd,
            ]);
        }
    }
}

mod a_missing_renamed_field_struct {
    use super::*;

    case! {
        data {
            #[serde(rename = "Superhero")]
            struct RenameStruct {
                a1: i32,
                #[serde(rename = "a3")]
                a2: i32,
            }

            #[serde(rename(serialize = "SuperheroSer", deserialize = "SuperheroDe"))]
            struct RenameStructSerializeDeserialize {
                a1: i32,
                #[serde(rename(serialize = "a4", deserialize = "a5"))]
                a2: i32,
            }
        }
        shared {

        }
        test {
            err!(RenameStruct, &[
                Token::Struct {
                    name: "Superhero",
                    len: 2,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::StructEnd,
            ], "missing field `a3`");
            err!(RenameStructSerializeDeserialize, &[
                Token::Struct {
                    name: "SuperheroDe",
                    len: 2,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::StructEnd,
            ], "missing field `a5`");
        }
    }
}

mod a_missing_renamed_field_enum {
    use super::*;

    case! {
        data {
            #[serde(rename = "Superhero")]
            enum RenameEnum {
                #[serde(rename = "bruce_wayne")]
                Batman,
                #[serde(rename = "clark_kent")]
                Superman(i8),
                #[serde(rename = "diana_prince")]
                WonderWoman(i8, i8),
                #[serde(rename = "barry_allan")]
                Flash {
                    #[serde(rename = "b")]
                    a: i32,
                },
            }

            #[serde(rename(serialize = "SuperheroSer", deserialize = "SuperheroDe"))]
            enum RenameEnumSerializeDeserialize {
                #[serde(rename(serialize = "dick_grayson", deserialize = "jason_todd"))]
                Robin {
                    a: i8,
                    #[serde(rename(serialize = "c"))]
                    #[serde(rename(deserialize = "d"))]
                    b: i8,
                },
            }
        }
        shared {

        }
        test {
            err!(RenameEnum, &[
                Token::StructVariant {
                    name: "Superhero",
                    variant: "barry_allan",
                    len: 1,
                },
                Token::StructVariantEnd,
            ], "missing field `b`");
            err!(RenameEnumSerializeDeserialize, &[
                Token::StructVariant {
                    name: "SuperheroDe",
                    variant: "jason_todd",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(0),
                Token::StructVariantEnd,
            ], "missing field `d`");
        }
    }
}

mod de_unit_struct {
    use super::*;

    case! {
        data {
            struct UnitStruct;
        }
        shared {

        }
        test {
            ok!(UnitStruct, UnitStruct, &[Token::Unit]);
            ok!(UnitStruct, UnitStruct, &[Token::UnitStruct { name: "UnitStruct" }]);
        }
    }
}

mod de_generic_unit_struct {
    use super::*;

    case! {
        data {
            struct UnitStruct;

            struct GenericUnitStruct;
        }
        shared {

        }
        test {
            ok!(GenericUnitStruct, GenericUnitStruct, &[Token::Unit]);
            ok!(GenericUnitStruct, GenericUnitStruct, &[Token::UnitStruct {
                name: "GenericUnitStruct",
            }]);
        }
    }
}

mod de_newtype_struct {
    use super::*;

    case! {
        data {
            struct NewtypeStruct(i32);
        }
        shared {

        }
        test {
            ok!(NewtypeStruct, NewtypeStruct(1), &[
                Token::NewtypeStruct {
                    name: "NewtypeStruct",
                },
                Token::I32(1),
            ]);
        }
    }
}

mod de_tuple_struct {
    use super::*;

    case! {
        data {
            struct TupleStruct(i32, i32, i32);
        }
        shared {

        }
        test {
            ok!(TupleStruct, TupleStruct(1, 2, 3), &[
                Token::Seq { len: Some(3) },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::SeqEnd,
            ]);
            ok!(TupleStruct, TupleStruct(1, 2, 3), &[
                Token::Seq { len: None },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::SeqEnd,
            ]);
            ok!(TupleStruct, TupleStruct(1, 2, 3), &[
                Token::TupleStruct {
                    name: "TupleStruct",
                    len: 3,
                },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::TupleStructEnd,
            ]);
            ok!(TupleStruct, TupleStruct(1, 2, 3), &[
                Token::TupleStruct {
                    name: "TupleStruct",
                    len: 3,
                },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::TupleStructEnd,
            ]);
        }
    }
}

mod err_unit_struct_from_seq {
    use super::*;

    case! {
        data {
            struct UnitStruct;
        }
        shared {

        }
        test {
            err!(UnitStruct, &[Token::Seq { len: Some(0) }, Token::SeqEnd], "invalid type: sequence, expected unit struct UnitStruct");
        }
    }
}
