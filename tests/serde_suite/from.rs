//! serde's deserialize cases (see `main.rs`) that use `from` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 1 cases, 4 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_from_into_traits {
    use super::*;

    case! {
        data {
            #[serde(into = "EnumToU32", from = "EnumToU32")]
            struct StructFromEnum(Option<u32>);

            #[serde(into = "Option<u32>", from = "Option<u32>")]
            enum EnumToU32 {
                One,
                Two,
                Three,
                Four,
                Nothing,
            }

            #[serde(try_from = "u32")]
            enum TryFromU32 {
                One,
                Two,
            }
        }
        shared {
            impl Into<EnumToU32> for StructFromEnum {
                fn into(self) -> EnumToU32 {
                    match self {
                        StructFromEnum(v) => v.into(),
                    }
                }
            }

            impl From<EnumToU32> for StructFromEnum {
                fn from(v: EnumToU32) -> Self {
                    StructFromEnum(v.into())
                }
            }

            impl Into<Option<u32>> for EnumToU32 {
                fn into(self) -> Option<u32> {
                    match self {
                        EnumToU32::One => Some(1),
                        EnumToU32::Two => Some(2),
                        EnumToU32::Three => Some(3),
                        EnumToU32::Four => Some(4),
                        EnumToU32::Nothing => None,
                    }
                }
            }

            impl From<Option<u32>> for EnumToU32 {
                fn from(v: Option<u32>) -> Self {
                    match v {
                        Some(1) => EnumToU32::One,
                        Some(2) => EnumToU32::Two,
                        Some(3) => EnumToU32::Three,
                        Some(4) => EnumToU32::Four,
                        _ => EnumToU32::Nothing,
                    }
                }
            }

            impl TryFrom<u32> for TryFromU32 {
                type Error = String;

                fn try_from(value: u32) -> Result<Self, Self::Error> {
                    match value {
                        1 => Ok(TryFromU32::One),
                        2 => Ok(TryFromU32::Two),
                        _ => Err("out of range".to_owned()),
                    }
                }
            }
        }
        test {
            ok!(EnumToU32, EnumToU32::Two, &[Token::Some, Token::U32(2)]);
            ok!(StructFromEnum, StructFromEnum(Some(2)), &[Token::Some, Token::U32(2)]);
            ok!(TryFromU32, TryFromU32::Two, &[Token::U32(2)]);
            err!(TryFromU32, &[Token::U32(5)], "out of range");
        }
    }
}
