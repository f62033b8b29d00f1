//! serde's deserialize cases (see `main.rs`) that use `deny_unknown_fields` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 9 cases, 20 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_ignore_unknown {
    use super::*;

    case! {
        data {
            struct DefaultStruct {
                a1: i32,
                #[serde(default)]
                a2: i32,
                #[serde(default = "MyDefault::my_default")]
                a3: i32,
                #[serde(skip_deserializing)]
                a4: i32,
                #[serde(skip_deserializing, default = "MyDefault::my_default")]
                a5: i32,
            }

            #[serde(deny_unknown_fields)]
            struct DenyUnknown {
                a1: i32,
            }
        }
        shared {

        }
        test {
            ok!(DefaultStruct, DefaultStruct {
                a1: 1,
                a2: 2,
                a3: 3,
                a4: 0,
                a5: 123,
            }, &[
                Token::Struct {
                    name: "DefaultStruct",
                    len: 3,
                },
                Token::Str("whoops1"),
                Token::I32(2),
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("whoops2"),
                Token::Seq { len: Some(1) },
                Token::I32(2),
                Token::SeqEnd,
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("whoops3"),
                Token::I32(2),
                Token::Str("a3"),
                Token::I32(3),
                Token::StructEnd,
            ]);
            err!(DenyUnknown, &[
                Token::Struct {
                    name: "DenyUnknown",
                    len: 1,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("whoops"),
            ], "unknown field `whoops`, expected `a1`");
        }
    }
}

mod a_rename_struct {
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

            #[serde(deny_unknown_fields)]
            struct AliasStruct {
                a1: i32,
                #[serde(alias = "a3")]
                a2: i32,
                #[serde(alias = "a5", rename = "a6")]
                a4: i32,
            }
        }
        shared {

        }
        test {
            ok!(RenameStruct, RenameStruct { a1: 1, a2: 2 }, &[
                Token::Struct {
                    name: "Superhero",
                    len: 2,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a3"),
                Token::I32(2),
                Token::StructEnd,
            ]);
            ok!(RenameStructSerializeDeserialize, RenameStructSerializeDeserialize { a1: 1, a2: 2 }, &[
                Token::Struct {
                    name: "SuperheroDe",
                    len: 2,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a5"),
                Token::I32(2),
                Token::StructEnd,
            ]);
            ok!(AliasStruct, AliasStruct {
                a1: 1,
                a2: 2,
                a4: 3,
            }, &[
                Token::Struct {
                    name: "AliasStruct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("a5"),
                Token::I32(3),
                Token::StructEnd,
            ]);
            ok!(AliasStruct, AliasStruct {
                a1: 1,
                a2: 2,
                a4: 3,
            }, &[
                Token::Struct {
                    name: "AliasStruct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a3"),
                Token::I32(2),
                Token::Str("a6"),
                Token::I32(3),
                Token::StructEnd,
            ]);
        }
    }
}

mod a_unknown_field_rename_struct {
    use super::*;

    case! {
        data {
            #[serde(deny_unknown_fields)]
            struct AliasStruct {
                a1: i32,
                #[serde(alias = "a3")]
                a2: i32,
                #[serde(alias = "a5", rename = "a6")]
                a4: i32,
            }
        }
        shared {

        }
        test {
            err!(AliasStruct, &[
                Token::Struct {
                    name: "AliasStruct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a3"),
                Token::I32(2),
                Token::Str("a4"),
                Token::I32(3),
            ], "unknown field `a4`, expected one of `a1`, `a2`, `a3`, `a5`, `a6`");
        }
    }
}

mod a_rename_enum {
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
                    b: String,
                },
            }

            #[serde(deny_unknown_fields)]
            enum AliasEnum {
                #[serde(rename = "sailor_moon", alias = "usagi_tsukino")]
                SailorMoon {
                    a: i8,
                    #[serde(alias = "c")]
                    b: i8,
                    #[serde(alias = "e", rename = "f")]
                    d: i8,
                },
            }
        }
        shared {

        }
        test {
            ok!(RenameEnum, RenameEnum::Batman, &[Token::UnitVariant {
                name: "Superhero",
                variant: "bruce_wayne",
            }]);
            ok!(RenameEnum, RenameEnum::Superman(0), &[
                Token::NewtypeVariant {
                    name: "Superhero",
                    variant: "clark_kent",
                },
                Token::I8(0),
            ]);
            ok!(RenameEnum, RenameEnum::WonderWoman(0, 1), &[
                Token::TupleVariant {
                    name: "Superhero",
                    variant: "diana_prince",
                    len: 2,
                },
                Token::I8(0),
                Token::I8(1),
                Token::TupleVariantEnd,
            ]);
            ok!(RenameEnum, RenameEnum::Flash { a: 1 }, &[
                Token::StructVariant {
                    name: "Superhero",
                    variant: "barry_allan",
                    len: 1,
                },
                Token::Str("b"),
                Token::I32(1),
                Token::StructVariantEnd,
            ]);
            ok!(RenameEnumSerializeDeserialize, RenameEnumSerializeDeserialize::Robin {
                a: 0,
                b: String::new(),
            }, &[
                Token::StructVariant {
                    name: "SuperheroDe",
                    variant: "jason_todd",
                    len: 2,
                },
                Token::Str("a"),
                Token::I8(0),
                Token::Str("d"),
                Token::Str(""),
                Token::StructVariantEnd,
            ]);
            ok!(AliasEnum, AliasEnum::SailorMoon { a: 0, b: 1, d: 2 }, &[
                Token::StructVariant {
                    name: "AliasEnum",
                    variant: "sailor_moon",
                    len: 5,
                },
                Token::Str("a"),
                Token::I8(0),
                Token::Str("b"),
                Token::I8(1),
                Token::Str("e"),
                Token::I8(2),
                Token::StructVariantEnd,
            ]);
            ok!(AliasEnum, AliasEnum::SailorMoon { a: 0, b: 1, d: 2 }, &[
                Token::StructVariant {
                    name: "AliasEnum",
                    variant: "usagi_tsukino",
                    len: 5,
                },
                Token::Str("a"),
                Token::I8(0),
                Token::Str("c"),
                Token::I8(1),
                Token::Str("f"),
                Token::I8(2),
                Token::StructVariantEnd,
            ]);
        }
    }
}

mod a_unknown_field_rename_enum {
    use super::*;

    case! {
        data {
            #[serde(deny_unknown_fields)]
            enum AliasEnum {
                #[serde(rename = "sailor_moon", alias = "usagi_tsukino")]
                SailorMoon {
                    a: i8,
                    #[serde(alias = "c")]
                    b: i8,
                    #[serde(alias = "e", rename = "f")]
                    d: i8,
                },
            }
        }
        shared {

        }
        test {
            err!(AliasEnum, &[Token::StructVariant {
                name: "AliasEnum",
                variant: "SailorMoon",
                len: 3,
            }], "unknown variant `SailorMoon`, expected `sailor_moon` or `usagi_tsukino`");
            err!(AliasEnum, &[
                Token::StructVariant {
                    name: "AliasEnum",
                    variant: "usagi_tsukino",
                    len: 5,
                },
                Token::Str("a"),
                Token::I8(0),
                Token::Str("c"),
                Token::I8(1),
                Token::Str("d"),
                Token::I8(2),
            ], "unknown field `d`, expected one of `a`, `b`, `c`, `e`, `f`");
        }
    }
}

mod de_struct_skip_all_deny_unknown {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(deny_unknown_fields)]
            struct StructSkipAllDenyUnknown {
                #[serde(skip_deserializing)]
                a: i32,
            }
        }
        shared {

        }
        test {
            ok!(StructSkipAllDenyUnknown, StructSkipAllDenyUnknown { a: 0 }, &[
                Token::Struct {
                    name: "StructSkipAllDenyUnknown",
                    len: 0,
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod err_unknown_field {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(deny_unknown_fields)]
            struct StructDenyUnknown {
                a: i32,
                #[serde(skip_deserializing)]
                b: i32,
            }
        }
        shared {

        }
        test {
            err!(StructDenyUnknown, &[
                Token::Struct {
                    name: "StructDenyUnknown",
                    len: 1,
                },
                Token::Str("a"),
                Token::I32(0),
                Token::Str("d"),
            ], "unknown field `d`, expected `a`");
        }
    }
}

mod err_skipped_field_is_unknown {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(deny_unknown_fields)]
            struct StructDenyUnknown {
                a: i32,
                #[serde(skip_deserializing)]
                b: i32,
            }
        }
        shared {

        }
        test {
            err!(StructDenyUnknown, &[
                Token::Struct {
                    name: "StructDenyUnknown",
                    len: 1,
                },
                Token::Str("b"),
            ], "unknown field `b`, expected `a`");
        }
    }
}

mod err_skip_all_deny_unknown {
    use super::*;

    case! {
        data {
            struct Struct {
                a: i32,
                b: i32,
                #[serde(skip_deserializing)]
                c: i32,
            }

            #[serde(deny_unknown_fields)]
            struct StructSkipAllDenyUnknown {
                #[serde(skip_deserializing)]
                a: i32,
            }
        }
        shared {

        }
        test {
            err!(StructSkipAllDenyUnknown, &[
                Token::Struct {
                    name: "StructSkipAllDenyUnknown",
                    len: 0,
                },
                Token::Str("a"),
            ], "unknown field `a`, there are no fields");
        }
    }
}
