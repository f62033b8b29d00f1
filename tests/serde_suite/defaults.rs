//! serde's deserialize cases (see `main.rs`) that use `defaults` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 5 cases, 10 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_default_struct {
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
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("a3"),
                Token::I32(3),
                Token::Str("a4"),
                Token::I32(4),
                Token::Str("a5"),
                Token::I32(5),
                Token::StructEnd,
            ]);
            ok!(DefaultStruct, DefaultStruct {
                a1: 1,
                a2: 0,
                a3: 123,
                a4: 0,
                a5: 123,
            }, &[
                Token::Struct {
                    name: "DefaultStruct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::StructEnd,
            ]);
        }
    }
}

mod a_default_tuple {
    use super::*;

    case! {
        data {
            struct DefaultTupleStruct(
                i32,
                #[serde(default)] i32,
                #[serde(default = "MyDefault::my_default")] i32,
            ) ;
        }
        shared {

        }
        test {
            ok!(DefaultTupleStruct, DefaultTupleStruct(1, 2, 3), &[
                Token::TupleStruct {
                    name: "DefaultTupleStruct",
                    len: 3,
                },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::TupleStructEnd,
            ]);
            ok!(DefaultTupleStruct, DefaultTupleStruct(1, 0, 123), &[
                Token::TupleStruct {
                    name: "DefaultTupleStruct",
                    len: 3,
                },
                Token::I32(1),
                Token::TupleStructEnd,
            ]);
        }
    }
}

mod a_default_struct_variant {
    use super::*;

    case! {
        data {
            enum DefaultStructVariant {
                Struct {
                    a1: i32,
                    #[serde(default)]
                    a2: i32,
                    #[serde(default = "MyDefault::my_default")]
                    a3: i32,
                    #[serde(skip_deserializing)]
                    a4: i32,
                    #[serde(skip_deserializing, default = "MyDefault::my_default")]
                    a5: i32,
                },
            }
        }
        shared {

        }
        test {
            ok!(DefaultStructVariant, DefaultStructVariant::Struct {
                a1: 1,
                a2: 2,
                a3: 3,
                a4: 0,
                a5: 123,
            }, &[
                Token::StructVariant {
                    name: "DefaultStructVariant",
                    variant: "Struct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("a3"),
                Token::I32(3),
                Token::Str("a4"),
                Token::I32(4),
                Token::Str("a5"),
                Token::I32(5),
                Token::StructVariantEnd,
            ]);
            ok!(DefaultStructVariant, DefaultStructVariant::Struct {
                a1: 1,
                a2: 0,
                a3: 123,
                a4: 0,
                a5: 123,
            }, &[
                Token::StructVariant {
                    name: "DefaultStructVariant",
                    variant: "Struct",
                    len: 3,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::StructVariantEnd,
            ]);
        }
    }
}

mod a_default_tuple_variant {
    use super::*;

    case! {
        data {
            enum DefaultTupleVariant {
                Tuple(
                    i32,
                    #[serde(default)] i32,
                    #[serde(default = "MyDefault::my_default")] i32,
                ),
            }
        }
        shared {

        }
        test {
            ok!(DefaultTupleVariant, DefaultTupleVariant::Tuple(1, 2, 3), &[
                Token::TupleVariant {
                    name: "DefaultTupleVariant",
                    variant: "Tuple",
                    len: 3,
                },
                Token::I32(1),
                Token::I32(2),
                Token::I32(3),
                Token::TupleVariantEnd,
            ]);
            ok!(DefaultTupleVariant, DefaultTupleVariant::Tuple(1, 0, 123), &[
                Token::TupleVariant {
                    name: "DefaultTupleVariant",
                    variant: "Tuple",
                    len: 3,
                },
                Token::I32(1),
                Token::TupleVariantEnd,
            ]);
        }
    }
}

mod a_no_std_default {
    use super::*;

    case! {
        data {
            struct NoStdDefault(i8);

            struct ContainsNoStdDefault {
                #[serde(default = "MyDefault::my_default")]
                a: NoStdDefault,
            }
        }
        shared {
            impl MyDefault for NoStdDefault {
                fn my_default() -> Self {
                    NoStdDefault(123)
                }
            }
        }
        test {
            ok!(ContainsNoStdDefault, ContainsNoStdDefault {
                a: NoStdDefault(123),
            }, &[
                Token::Struct {
                    name: "ContainsNoStdDefault",
                    len: 1,
                },
                Token::StructEnd,
            ]);
            ok!(ContainsNoStdDefault, ContainsNoStdDefault { a: NoStdDefault(8) }, &[
                Token::Struct {
                    name: "ContainsNoStdDefault",
                    len: 1,
                },
                Token::Str("a"),
                Token::NewtypeStruct {
                    name: "NoStdDefault",
                },
                Token::I8(8),
                Token::StructEnd,
            ]);
        }
    }
}
