//! serde's deserialize cases (see `main.rs`) that use `other` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 2 cases, 10 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod de_enum_other_unit {
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

            enum EnumOther {
                Unit,
                #[serde(other)]
                Other,
            }
        }
        shared {

        }
        test {
            ok!(EnumOther, EnumOther::Unit, &[
                Token::Enum { name: "EnumOther" },
                Token::Str("Unit"),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Unit, &[Token::Enum { name: "EnumOther" }, Token::U8(0), Token::Unit]);
            ok!(EnumOther, EnumOther::Unit, &[
                Token::Enum { name: "EnumOther" },
                Token::U16(0),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Unit, &[
                Token::Enum { name: "EnumOther" },
                Token::U32(0),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Unit, &[
                Token::Enum { name: "EnumOther" },
                Token::U64(0),
                Token::Unit,
            ]);
        }
    }
}

mod de_enum_other {
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

            enum EnumOther {
                Unit,
                #[serde(other)]
                Other,
            }
        }
        shared {

        }
        test {
            ok!(EnumOther, EnumOther::Other, &[
                Token::Enum { name: "EnumOther" },
                Token::Str("Foo"),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Other, &[
                Token::Enum { name: "EnumOther" },
                Token::U8(42),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Other, &[
                Token::Enum { name: "EnumOther" },
                Token::U16(42),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Other, &[
                Token::Enum { name: "EnumOther" },
                Token::U32(42),
                Token::Unit,
            ]);
            ok!(EnumOther, EnumOther::Other, &[
                Token::Enum { name: "EnumOther" },
                Token::U64(42),
                Token::Unit,
            ]);
        }
    }
}
