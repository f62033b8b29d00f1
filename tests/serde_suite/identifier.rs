//! serde's deserialize cases (see `main.rs`) that use `identifier` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 1 cases, 4 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_expecting_message_identifier_enum {
    use super::*;

    case! {
        data {
            #[serde(field_identifier)]
            #[serde(expecting = "something strange...")]
            enum FieldEnum {
                    Field,
                }

            #[serde(variant_identifier)]
            #[serde(expecting = "something strange...")]
            enum VariantEnum {
                    Variant,
                }
        }
        shared {

        }
        test {
            err!(FieldEnum, &[Token::Unit], "invalid type: unit value, expected something strange...");
            err!(FieldEnum, &[
                Token::Enum { name: "FieldEnum" },
                Token::Str("Unknown"),
                Token::None,
            ], "invalid type: map, expected something strange...");
            err!(VariantEnum, &[Token::Unit], "invalid type: unit value, expected something strange...");
            err!(VariantEnum, &[
                Token::Enum {
                    name: "VariantEnum",
                },
                Token::Str("Unknown"),
                Token::None,
            ], "invalid type: map, expected something strange...");
        }
    }
}
