//! serde's deserialize cases (see `main.rs`) that use `adjacently_tagged` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 17 cases, 37 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod at_unit_map_str_tag_only {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 1,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_map_int_tag_only {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 1,
                },
                Token::U16(0),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_map_bytes_tag_only {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 1,
                },
                Token::Bytes(b"t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 1,
                },
                Token::BorrowedBytes(b"t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_map_str_tag_content {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::Str("c"),
                Token::Unit,
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::Unit,
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("f"),
                Token::Unit,
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::Str("g"),
                Token::Unit,
                Token::Str("c"),
                Token::Unit,
                Token::Str("h"),
                Token::Unit,
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_map_int_tag_content {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::U8(0),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::U8(1),
                Token::Unit,
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::U64(1),
                Token::Unit,
                Token::U64(0),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_map_bytes_tag_content {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::BorrowedBytes(b"t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::BorrowedBytes(b"c"),
                Token::Unit,
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Bytes(b"c"),
                Token::Unit,
                Token::Bytes(b"t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_unit_seq_tag_content {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Seq { len: Some(2) },
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::Unit,
                Token::SeqEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Seq { len: None },
                Token::Str("Unit"), // tag
                Token::Unit,        // content
                Token::SeqEnd,
            ]);
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Seq { len: None },
                Token::BorrowedStr("Unit"), // tag
                Token::Unit,                // content
                Token::SeqEnd,
            ]);
        }
    }
}

mod at_newtype_map_tag_only {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(Option<u8>),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Newtype(None), &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 1,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Newtype",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_newtype_map_tag_content {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Newtype(1);
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Newtype",
                },
                Token::Str("c"),
                Token::U8(1),
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::U8(1),
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Newtype",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_newtype_seq {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Newtype(1);
            ok!(AdjacentlyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Newtype",
                },
                Token::U8(1),
                Token::SeqEnd,
            ]);
            ok!(AdjacentlyTagged, value, &[
                Token::Seq { len: None },
                Token::Str("Newtype"), // tag
                Token::U8(1),          // content
                Token::SeqEnd,
            ]);
            ok!(AdjacentlyTagged, value, &[
                Token::Seq { len: None },
                Token::BorrowedStr("Newtype"), // tag
                Token::U8(1),                  // content
                Token::SeqEnd,
            ]);
        }
    }
}

mod at_newtype_with_newtype {
    use super::*;

    case! {
        data {
            struct NewtypeStruct(u32);

            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(NewtypeStruct),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Newtype(NewtypeStruct(5)), &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::NewtypeStruct {
                    name: "NewtypeStruct",
                },
                Token::U32(5),
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Newtype",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_tuple_map {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Tuple(1, 1);
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Tuple",
                },
                Token::Str("c"),
                Token::Tuple { len: 2 },
                Token::U8(1),
                Token::U8(1),
                Token::TupleEnd,
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::Tuple { len: 2 },
                Token::U8(1),
                Token::U8(1),
                Token::TupleEnd,
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Tuple",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_tuple_seq {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Tuple(1, 1);
            ok!(AdjacentlyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Tuple",
                },
                Token::Tuple { len: 2 },
                Token::U8(1),
                Token::U8(1),
                Token::TupleEnd,
                Token::SeqEnd,
            ]);
        }
    }
}

mod at_struct_map {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Struct { f: 1 };
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Struct",
                },
                Token::Str("c"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::StructEnd,
            ]);
            ok!(AdjacentlyTagged, value, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Struct",
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod at_struct_seq {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = AdjacentlyTagged::Struct { f: 1 };
            ok!(AdjacentlyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Struct",
                },
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::SeqEnd,
            ]);
        }
    }
}

mod at_expecting_message {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag", content = "content")]
            #[serde(expecting = "something strange...")]
            enum Enum {
                    AdjacentlyTagged,
                }

            #[serde(tag = "t", content = "c")]
            enum AdjacentlyTagged {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            err!(Enum, &[Token::Str("AdjacentlyTagged")], r#"invalid type: string "AdjacentlyTagged", expected something strange..."#);
            err!(Enum, &[Token::Map { len: None }, Token::Unit], r#"invalid type: unit value, expected "tag", "content", or other ignored fields"#);
            err!(Enum, &[Token::Map { len: None }, Token::Str("tag"), Token::Unit], "invalid type: unit value, expected variant of enum Enum");
        }
    }
}

mod at_deny_unknown_fields {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c", deny_unknown_fields)]
            enum AdjacentlyTagged {
                    Unit,
                }
        }
        shared {

        }
        test {
            ok!(AdjacentlyTagged, AdjacentlyTagged::Unit, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::Str("c"),
                Token::Unit,
                Token::StructEnd,
            ]);
            err!(AdjacentlyTagged, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::Str("c"),
                Token::Unit,
                Token::Str("h"),
            ], r#"invalid value: string "h", expected "t" or "c""#);
            err!(AdjacentlyTagged, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("h"),
            ], r#"invalid value: string "h", expected "t" or "c""#);
            err!(AdjacentlyTagged, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Str("c"),
                Token::Unit,
                Token::Str("h"),
            ], r#"invalid value: string "h", expected "t" or "c""#);
            err!(AdjacentlyTagged, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::U64(0), // tag field
                Token::UnitVariant {
                    name: "AdjacentlyTagged",
                    variant: "Unit",
                },
                Token::U64(3),
            ], r#"invalid value: integer `3`, expected "t" or "c""#);
            err!(AdjacentlyTagged, &[
                Token::Struct {
                    name: "AdjacentlyTagged",
                    len: 2,
                },
                Token::Bytes(b"c"),
                Token::Unit,
                Token::Bytes(b"h"),
            ], r#"invalid value: byte array, expected "t" or "c""#);
        }
    }
}
