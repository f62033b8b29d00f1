//! serde's deserialize cases (see `main.rs`) that use `internally_tagged` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 22 cases, 88 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod it_unit {
    use super::*;

    case! {
        data {
            struct Unit;

            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::Str("tag"),
                Token::Str("Unit"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Unit"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("Unit"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Map { len: Some(1) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Unit"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Seq { len: Some(1) },
                Token::Str("Unit"), // tag
                Token::SeqEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Unit, &[
                Token::Seq { len: Some(1) },
                Token::BorrowedStr("Unit"), // tag
                Token::SeqEnd,
            ]);
        }
    }
}

mod it_newtype_unit {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeUnit(());
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("NewtypeUnit"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeUnit"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::Str("tag"),
                Token::Str("NewtypeUnit"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeUnit"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_newtype_unit_struct {
    use super::*;

    case! {
        data {
            struct Unit;

            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeUnitStruct(Unit);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("NewtypeUnitStruct"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeUnitStruct"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::Str("tag"),
                Token::Str("NewtypeUnitStruct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 1,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeUnitStruct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(1) },
                Token::Str("NewtypeUnitStruct"), // tag
                Token::SeqEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(1) },
                Token::BorrowedStr("NewtypeUnitStruct"), // tag
                Token::SeqEnd,
            ]);
        }
    }
}

mod it_newtype_newtype {
    use super::*;

    case! {
        data {
            struct Newtype(BTreeMap<String, String>);

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Struct {
                f: u8,
            }

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            ok!(InternallyTagged, InternallyTagged::NewtypeNewtype(Newtype(BTreeMap::new())), &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("NewtypeNewtype"),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_newtype_map {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);

            struct Struct {
                f: u8,
            }

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeMap(BTreeMap::new());
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("NewtypeMap"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(1) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeMap"),
                Token::MapEnd,
            ]);
            let value = InternallyTagged::NewtypeMap(BTreeMap::from_iter([(
                "field".to_string(),
                "value".to_string(),
            )]));
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeMap"),
                Token::Str("field"),
                Token::Str("value"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeMap"),
                Token::BorrowedStr("field"),
                Token::BorrowedStr("value"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("field"),
                Token::Str("value"),
                Token::Str("tag"),
                Token::Str("NewtypeMap"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("field"),
                Token::BorrowedStr("value"),
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeMap"),
                Token::MapEnd,
            ]);
            err!(InternallyTagged, &[
                Token::Seq { len: Some(2) },
                Token::Str("NewtypeMap"), // tag
                Token::Map { len: Some(0) },
                Token::MapEnd,
                Token::SeqEnd,
            ], "invalid type: sequence, expected a map");
        }
    }
}

mod it_newtype_struct {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeStruct(Struct { f: 6 });
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("NewtypeStruct"),
                Token::Str("f"),
                Token::U8(6),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeStruct"),
                Token::BorrowedStr("f"),
                Token::U8(6),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::Str("f"),
                Token::U8(6),
                Token::Str("tag"),
                Token::Str("NewtypeStruct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "Struct",
                    len: 2,
                },
                Token::BorrowedStr("f"),
                Token::U8(6),
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeStruct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::Str("NewtypeStruct"), // tag
                Token::U8(6),
                Token::SeqEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::BorrowedStr("NewtypeStruct"), // tag
                Token::U8(6),
                Token::SeqEnd,
            ]);
        }
    }
}

mod it_newtype_enum_unit {
    use super::*;

    case! {
        data {
            struct Unit;

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeEnum(Enum::Unit);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::Str("Unit"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("Unit"),
                Token::Unit,
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_newtype_enum_newtype {
    use super::*;

    case! {
        data {
            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeEnum(Enum::Newtype(1));
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::Str("Newtype"),
                Token::U8(1),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::BorrowedStr("Newtype"),
                Token::U8(1),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("Newtype"),
                Token::U8(1),
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("Newtype"),
                Token::U8(1),
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_newtype_enum_tuple {
    use super::*;

    case! {
        data {
            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeEnum(Enum::Tuple(1, 1));
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::Str("Tuple"),
                Token::TupleStruct {
                    name: "Tuple",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(1),
                Token::TupleStructEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::BorrowedStr("Tuple"),
                Token::TupleStruct {
                    name: "Tuple",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(1),
                Token::TupleStructEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("Tuple"),
                Token::TupleStruct {
                    name: "Tuple",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(1),
                Token::TupleStructEnd,
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("Tuple"),
                Token::TupleStruct {
                    name: "Tuple",
                    len: 2,
                },
                Token::U8(1),
                Token::U8(1),
                Token::TupleStructEnd,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_newtype_enum_struct_ {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);
        }
        shared {

        }
        test {
            let value = InternallyTagged::NewtypeEnum(Enum::Struct { f: 1 });
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::Str("Struct"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::BorrowedStr("Struct"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::BorrowedStr("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("Struct"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::Str("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("Struct"),
                Token::Struct {
                    name: "Struct",
                    len: 1,
                },
                Token::BorrowedStr("f"),
                Token::U8(1),
                Token::StructEnd,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::Str("Struct"),
                Token::Seq { len: Some(1) },
                Token::U8(1), // f
                Token::SeqEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::BorrowedStr("Struct"),
                Token::Seq { len: Some(1) },
                Token::U8(1), // f
                Token::SeqEnd,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("Struct"),
                Token::Seq { len: Some(1) },
                Token::U8(1), // f
                Token::SeqEnd,
                Token::Str("tag"),
                Token::Str("NewtypeEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("Struct"),
                Token::Seq { len: Some(1) },
                Token::U8(1), // f
                Token::SeqEnd,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("NewtypeEnum"),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_struct_ {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Unit;

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::Struct { a: 1 };
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Struct"),
                Token::Str("a"),
                Token::U8(1),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Struct"),
                Token::BorrowedStr("a"),
                Token::U8(1),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("a"),
                Token::U8(1),
                Token::Str("tag"),
                Token::Str("Struct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::BorrowedStr("a"),
                Token::U8(1),
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Struct"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("Struct"),
                Token::Str("a"),
                Token::U8(1),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Struct"),
                Token::BorrowedStr("a"),
                Token::U8(1),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("a"),
                Token::U8(1),
                Token::Str("tag"),
                Token::Str("Struct"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("a"),
                Token::U8(1),
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Struct"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::Str("Struct"), // tag
                Token::U8(1),
                Token::SeqEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::BorrowedStr("Struct"), // tag
                Token::U8(1),
                Token::SeqEnd,
            ]);
        }
    }
}

mod it_struct_enum_unit {
    use super::*;

    case! {
        data {
            struct Unit;

            struct Struct {
                f: u8,
            }

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);
        }
        shared {

        }
        test {
            ok!(Enum, Enum::Unit, &[
                Token::Enum { name: "Enum" },
                Token::BorrowedStr("Unit"),
                Token::Unit,
            ]);
            let value = InternallyTagged::StructEnum { enum_: Enum::Unit };
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("StructEnum"),
                Token::Str("enum_"),
                Token::Enum { name: "Enum" },
                Token::Str("Unit"),
                Token::Unit,
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("StructEnum"),
                Token::BorrowedStr("enum_"),
                Token::Enum { name: "Enum" },
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::Str("enum_"),
                Token::Enum { name: "Enum" },
                Token::Str("Unit"),
                Token::Unit,
                Token::Str("tag"),
                Token::Str("StructEnum"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Struct {
                    name: "InternallyTagged",
                    len: 2,
                },
                Token::BorrowedStr("enum_"),
                Token::Enum { name: "Enum" },
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("StructEnum"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("tag"),
                Token::Str("StructEnum"),
                Token::Str("enum_"),
                Token::Enum { name: "Enum" },
                Token::Str("Unit"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("StructEnum"),
                Token::BorrowedStr("enum_"),
                Token::Enum { name: "Enum" },
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::Str("enum_"),
                Token::Enum { name: "Enum" },
                Token::Str("Unit"),
                Token::Unit,
                Token::Str("tag"),
                Token::Str("StructEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Map { len: Some(2) },
                Token::BorrowedStr("enum_"),
                Token::Enum { name: "Enum" },
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("StructEnum"),
                Token::MapEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::Str("StructEnum"),     // tag
                Token::Enum { name: "Enum" }, // enum_
                Token::Str("Unit"),
                Token::Unit,
                Token::SeqEnd,
            ]);
            ok!(InternallyTagged, value, &[
                Token::Seq { len: Some(2) },
                Token::BorrowedStr("StructEnum"), // tag
                Token::Enum { name: "Enum" },     // enum_
                Token::BorrowedStr("Unit"),
                Token::Unit,
                Token::SeqEnd,
            ]);
        }
    }
}

mod it_wrong_tag {
    use super::*;

    case! {
        data {
            struct Unit;

            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            err!(InternallyTagged, &[Token::Map { len: Some(0) }, Token::MapEnd], "missing field `tag`");
            err!(InternallyTagged, &[
                Token::Map { len: Some(1) },
                Token::Str("tag"),
                Token::Str("Z"),
                Token::MapEnd,
            ], "unknown variant `Z`, expected one of \
            `Unit`, \
            `NewtypeUnit`, \
            `NewtypeUnitStruct`, \
            `NewtypeNewtype`, \
            `NewtypeMap`, \
            `NewtypeStruct`, \
            `NewtypeEnum`, \
            `Struct`, \
            `StructEnum`");
        }
    }
}

mod it_string_and_bytes_string_from_string {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
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
            ok!(InternallyTagged, InternallyTagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "String",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("String"),
                Token::Str("string"),
                Token::Str("\0"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "String",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("String"),
                Token::Str("string"),
                Token::String("\0"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_string_and_bytes_string_from_bytes {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
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
            ok!(InternallyTagged, InternallyTagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "String",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("String"),
                Token::Str("string"),
                Token::Bytes(b"\0"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::String {
                string: "\0".to_owned(),
            }, &[
                Token::Struct {
                    name: "String",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("String"),
                Token::Str("string"),
                Token::ByteBuf(b"\0"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_string_and_bytes_bytes_from_string {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
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
            ok!(InternallyTagged, InternallyTagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Bytes",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Bytes"),
                Token::Str("bytes"),
                Token::Str("\0"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Bytes",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Bytes"),
                Token::Str("bytes"),
                Token::String("\0"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_string_and_bytes_bytes_from_bytes {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
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
            ok!(InternallyTagged, InternallyTagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Bytes",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Bytes"),
                Token::Str("bytes"),
                Token::Bytes(b"\0"),
                Token::StructEnd,
            ]);
            ok!(InternallyTagged, InternallyTagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Bytes",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Bytes"),
                Token::Str("bytes"),
                Token::ByteBuf(b"\0"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_string_and_bytes_bytes_from_seq {
    use super::*;

    case! {
        data {
            struct Struct {
                f: u8,
            }

            #[serde(tag = "tag")]
            enum InternallyTagged {
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
            ok!(InternallyTagged, InternallyTagged::Bytes { bytes: vec![0] }, &[
                Token::Struct {
                    name: "Bytes",
                    len: 2,
                },
                Token::Str("tag"),
                Token::Str("Bytes"),
                Token::Str("bytes"),
                Token::Seq { len: Some(1) },
                Token::U8(0),
                Token::SeqEnd,
                Token::StructEnd,
            ]);
        }
    }
}

mod it_borrow {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            enum Input<'a> {
                    Package { name: &'a str },
                }

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            ok!(Input, Input::Package { name: "borrowed" }, &[
                Token::Struct {
                    name: "Input",
                    len: 2,
                },
                Token::BorrowedStr("tag"),
                Token::BorrowedStr("Package"),
                Token::BorrowedStr("name"),
                Token::BorrowedStr("borrowed"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_with_skipped_conflict {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            enum Data {
                    A,
                    #[serde(skip)]
                    #[allow(dead_code)]
                    B {
                        t: String,
                    },
                    C {
                        #[serde(default, skip)]
                        t: String,
                    },
                }

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            let data = Data::C { t: String::new() };
            ok!(Data, data, &[
                Token::Struct {
                    name: "Data",
                    len: 1,
                },
                Token::Str("tag"),
                Token::Str("C"),
                Token::StructEnd,
            ]);
        }
    }
}

mod it_unit_variant_with_unknown_fields {
    use super::*;

    case! {
        data {
            struct Unit;

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            struct Struct {
                f: u8,
            }

            enum Enum {
                Unit,
                Newtype(u8),
                Tuple(u8, u8),
                Struct { f: u8 },
            }
        }
        shared {

        }
        test {
            let value = InternallyTagged::Unit;
            ok!(InternallyTagged, value, &[
                Token::Map { len: None },
                Token::Str("tag"),
                Token::Str("Unit"),
                Token::Str("b"),
                Token::I32(0),
                Token::MapEnd,
            ]);
            err!(InternallyTagged, &[
                Token::Seq { len: None },
                Token::Str("Unit"), // tag
                Token::I32(0),
                Token::SeqEnd,
            ], "invalid length 1, expected 0 elements in sequence");
        }
    }
}

mod it_expecting_message {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            #[serde(expecting = "something strange...")]
            enum Enum {
                    InternallyTagged,
                }

            struct Unit;

            #[serde(tag = "tag")]
            enum InternallyTagged {
                Unit,
                NewtypeUnit(()),
                NewtypeUnitStruct(Unit),
                NewtypeNewtype(Newtype),
                NewtypeMap(BTreeMap<String, String>),
                NewtypeStruct(Struct),
                NewtypeEnum(Enum),
                Struct { a: u8 },
                StructEnum { enum_: Enum },
            }

            struct Newtype(BTreeMap<String, String>);

            struct Struct {
                f: u8,
            }
        }
        shared {

        }
        test {
            err!(Enum, &[Token::Str("InternallyTagged")], r#"invalid type: string "InternallyTagged", expected something strange..."#);
            err!(Enum, &[Token::Map { len: None }, Token::Str("tag"), Token::Unit], "invalid type: unit value, expected variant identifier");
        }
    }
}
