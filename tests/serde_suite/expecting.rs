//! serde's deserialize cases (see `main.rs`) that use `expecting` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 2 cases, 6 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_expecting_message {
    use super::*;

    case! {
        data {
            #[serde(expecting = "something strange...")]
            struct Unit;

            #[serde(expecting = "something strange...")]
            struct Newtype(bool);

            #[serde(expecting = "something strange...")]
            struct Tuple(u32, bool);

            #[serde(expecting = "something strange...")]
            struct Struct {
                    #[allow(dead_code)]
                    question: String,
                    #[allow(dead_code)]
                    answer: u32,
                }
        }
        shared {

        }
        test {
            err!(Unit, &[Token::Str("Unit")], r#"invalid type: string "Unit", expected something strange..."#);
            err!(Newtype, &[Token::Str("Newtype")], r#"invalid type: string "Newtype", expected something strange..."#);
            err!(Tuple, &[Token::Str("Tuple")], r#"invalid type: string "Tuple", expected something strange..."#);
            err!(Struct, &[Token::Str("Struct")], r#"invalid type: string "Struct", expected something strange..."#);
        }
    }
}

mod a_expecting_message_externally_tagged_enum {
    use super::*;

    case! {
        data {
            #[serde(expecting = "something strange...")]
            enum Enum {
                    ExternallyTagged,
                }
        }
        shared {

        }
        test {
            err!(Enum, &[Token::Str("ExternallyTagged")], r#"invalid type: string "ExternallyTagged", expected something strange..."#);
            err!(Enum, &[Token::Enum { name: "Enum" }, Token::Unit], "invalid type: unit value, expected variant identifier");
        }
    }
}
