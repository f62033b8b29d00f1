//! serde's deserialize cases (see `main.rs`) that use `flatten` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 30 cases, 62 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_collect_other {
    use super::*;

    case! {
        data {
            struct CollectOther {
                a: u32,
                b: u32,
                #[serde(flatten)]
                extra: HashMap<String, u32>,
            }
        }
        shared {

        }
        test {
            let mut extra = HashMap::new();
            extra.insert("c".into(), 3);
            ok!(CollectOther, CollectOther { a: 1, b: 2, extra }, &[
                Token::Map { len: None },
                Token::Str("a"),
                Token::U32(1),
                Token::Str("b"),
                Token::U32(2),
                Token::Str("c"),
                Token::U32(3),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_complex {
    use super::*;

    case! {
        data {
            struct Outer {
                y: u32,
                #[serde(flatten)]
                first: First,
                #[serde(flatten)]
                second: Second,
                z: u32,
            }

            struct First {
                a: u32,
                b: bool,
                c: Vec<String>,
                d: String,
                e: Option<u64>,
            }

            struct Second {
                f: u32,
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer {
                y: 0,
                first: First {
                    a: 1,
                    b: true,
                    c: vec!["a".into(), "b".into()],
                    d: "c".into(),
                    e: Some(2),
                },
                second: Second { f: 3 },
                z: 4,
            }, &[
                Token::Map { len: None },
                Token::Str("y"),
                Token::U32(0),
                Token::Str("a"),
                Token::U32(1),
                Token::Str("b"),
                Token::Bool(true),
                Token::Str("c"),
                Token::Seq { len: Some(2) },
                Token::Str("a"),
                Token::Str("b"),
                Token::SeqEnd,
                Token::Str("d"),
                Token::Str("c"),
                Token::Str("e"),
                Token::U64(2),
                Token::Str("f"),
                Token::U32(3),
                Token::Str("z"),
                Token::U32(4),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_map_twice {
    use super::*;

    case! {
        data {
            struct Outer {
                #[serde(flatten)]
                first: BTreeMap<String, String>,
                #[serde(flatten)]
                between: Inner,
                #[serde(flatten)]
                second: BTreeMap<String, String>,
            }

            struct Inner {
                y: String,
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer {
                first: {
                    let mut first = BTreeMap::new();
                    first.insert("x".to_owned(), "X".to_owned());
                    first.insert("y".to_owned(), "Y".to_owned());
                    first
                },
                between: Inner { y: "Y".to_owned() },
                second: {
                    let mut second = BTreeMap::new();
                    second.insert("x".to_owned(), "X".to_owned());
                    second
                },
            }, &[
                Token::Map { len: None },
                Token::Str("x"),
                Token::Str("X"),
                Token::Str("y"),
                Token::Str("Y"),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_unsupported_type {
    use super::*;

    case! {
        data {
            struct Outer {
                outer: String,
                #[serde(flatten)]
                inner: String,
            }
        }
        shared {

        }
        test {
            err!(Outer, &[
                Token::Map { len: None },
                Token::Str("outer"),
                Token::Str("foo"),
                Token::Str("a"),
                Token::Str("b"),
                Token::MapEnd,
            ], "can only flatten structs and maps");
        }
    }
}

mod a_flatten_unknown_field {
    use super::*;

    case! {
        data {
            #[serde(deny_unknown_fields)]
            struct Outer {
                        dummy: String,
                        #[serde(flatten)]
                        inner: Inner,
                    }

            struct Inner {
                foo: HashMap<String, u32>,
            }
        }
        shared {

        }
        test {
            err!(Outer, &[
                Token::Struct {
                    name: "Outer",
                    len: 1,
                },
                Token::Str("dummy"),
                Token::Str("23"),
                Token::Str("foo"),
                Token::Map { len: None },
                Token::Str("a"),
                Token::U32(1),
                Token::Str("b"),
                Token::U32(2),
                Token::MapEnd,
                Token::Str("bar"),
                Token::U32(23),
                Token::StructEnd,
            ], "unknown field `bar`");
        }
    }
}

mod a_flatten_non_string_keys {
    use super::*;

    case! {
        data {
            struct TestStruct {
                name: String,
                age: u32,
                #[serde(flatten)]
                mapping: HashMap<u32, u32>,
            }
        }
        shared {

        }
        test {
            let mut mapping = HashMap::new();
            mapping.insert(0, 42);
            ok!(TestStruct, TestStruct {
                name: "peter".into(),
                age: 3,
                mapping,
            }, &[
                Token::Map { len: None },
                Token::Str("name"),
                Token::Str("peter"),
                Token::Str("age"),
                Token::U32(3),
                Token::U32(0),
                Token::U32(42),
                Token::MapEnd,
            ]);
        }
    }
}

/// Written out by hand, not by [`case!`]: the arena twins of the borrowed
/// maps are `FrameHashMap`s (a std `HashMap` has no arena reading).
mod a_flatten_lifetime_propagation {
    use super::*;

    #[derive(::serde::Deserialize, Debug, PartialEq)]
    struct A {
        #[serde(flatten)]
        t: HashMap<String, u32>,
    }

    #[derive(::serde::Deserialize, Debug, PartialEq)]
    struct B<'a> {
        #[serde(flatten, borrow)]
        t: HashMap<&'a str, u32>,
    }

    #[derive(::serde::Deserialize, Debug, PartialEq)]
    struct C<'a> {
        #[serde(flatten, borrow)]
        t: HashMap<&'a [u8], u32>,
    }

    mod arena {
        use tickarena::FrameHashMap;

        use super::*;

        #[derive(::tickarena::DeserializeIn, Debug)]
        struct A {
            #[serde(flatten)]
            t: HashMap<String, u32>,
        }

        #[derive(::tickarena::DeserializeIn, Debug)]
        struct B<'a> {
            #[serde(flatten, borrow)]
            t: FrameHashMap<'a, &'a str, u32>,
        }

        /// serde's `&'a [u8]`: bytes (`deserialize_bytes`), copied into
        /// the arena.
        #[derive(::tickarena::DeserializeIn, Debug)]
        struct C<'a> {
            #[serde(flatten, borrow)]
            t: FrameHashMap<'a, &'a [u8], u32>,
        }

        mod t {
            use super::super::*;

            #[test]
            fn case() {
                let mut owned_map = HashMap::new();
                owned_map.insert("x".to_string(), 42u32);
                ok!(
                    A,
                    A { t: owned_map },
                    &[
                        Token::Map { len: None },
                        Token::Str("x"),
                        Token::U32(42),
                        Token::MapEnd,
                    ]
                );
                let mut borrowed_map = HashMap::new();
                borrowed_map.insert("x", 42u32);
                ok!(
                    B,
                    B { t: borrowed_map },
                    &[
                        Token::Map { len: None },
                        Token::BorrowedStr("x"),
                        Token::U32(42),
                        Token::MapEnd,
                    ]
                );
                let mut borrowed_map = HashMap::new();
                borrowed_map.insert(&b"x"[..], 42u32);
                ok!(
                    C,
                    C { t: borrowed_map },
                    &[
                        Token::Map { len: None },
                        Token::BorrowedBytes(b"x"),
                        Token::U32(42),
                        Token::MapEnd,
                    ]
                );
            }
        }
    }
}

mod a_flatten_enum_tuple_and_struct {
    use super::*;

    case! {
        data {
            enum Outer {
                Tuple(f64, i32),
                Flatten {
                    #[serde(flatten)]
                    nested: Nested,
                },
            }

            struct Nested {
                a: i32,
                b: i32,
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer::Tuple(1.2, 3), &[
                Token::TupleVariant {
                    name: "Outer",
                    variant: "Tuple",
                    len: 2,
                },
                Token::F64(1.2),
                Token::I32(3),
                Token::TupleVariantEnd,
            ]);
            ok!(Outer, Outer::Flatten {
                nested: Nested { a: 1, b: 2 },
            }, &[
                Token::NewtypeVariant {
                    name: "Outer",
                    variant: "Flatten",
                },
                Token::Map { len: None },
                Token::Str("a"),
                Token::I32(1),
                Token::Str("b"),
                Token::I32(2),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_option {
    use super::*;

    case! {
        data {
            struct Outer {
                #[serde(flatten)]
                inner1: Option<Inner1>,
                #[serde(flatten)]
                inner2: Option<Inner2>,
            }

            struct Inner1 {
                inner1: i32,
            }

            struct Inner2 {
                inner2: i32,
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer {
                inner1: Some(Inner1 { inner1: 1 }),
                inner2: Some(Inner2 { inner2: 2 }),
            }, &[
                Token::Map { len: None },
                Token::Str("inner1"),
                Token::I32(1),
                Token::Str("inner2"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Outer, Outer {
                inner1: Some(Inner1 { inner1: 1 }),
                inner2: None,
            }, &[
                Token::Map { len: None },
                Token::Str("inner1"),
                Token::I32(1),
                Token::MapEnd,
            ]);
            ok!(Outer, Outer {
                inner1: None,
                inner2: Some(Inner2 { inner2: 2 }),
            }, &[
                Token::Map { len: None },
                Token::Str("inner2"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Outer, Outer {
                inner1: None,
                inner2: None,
            }, &[Token::Map { len: None }, Token::MapEnd]);
        }
    }
}

mod a_flatten_ignored_any {
    use super::*;

    case! {
        data {
            struct Outer {
                #[serde(flatten)]
                inner: IgnoredAny,
            }
        }
        shared {

        }
        test {
            ok!(Outer, Outer { inner: IgnoredAny }, &[Token::Map { len: None }, Token::MapEnd]);
            ok!(Outer, Outer { inner: IgnoredAny }, &[
                Token::Struct {
                    name: "DoNotMatter",
                    len: 0,
                },
                Token::StructEnd,
            ]);
        }
    }
}

mod a_flatten_flatten_any_after_flatten_struct {
    use super::*;

    case! {
        data {
            struct Outer {
                #[serde(flatten)]
                inner: Inner,
                #[serde(flatten)]
                extra: Any,
            }

            struct Inner {
                inner: i32,
            }
        }
        shared {
            #[derive(PartialEq, Debug)]
            struct Any;

            impl<'de> Deserialize<'de> for Any {
                fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
                where
                    D: Deserializer<'de>,
                {
                    struct AnyVisitor;

                    impl<'de> Visitor<'de> for AnyVisitor {
                        type Value = Any;

                        fn expecting(&self, _formatter: &mut fmt::Formatter) -> fmt::Result {
                            unimplemented!()
                        }

                        fn visit_map<M>(self, mut map: M) -> Result<Self::Value, M::Error>
                        where
                            M: MapAccess<'de>,
                        {
                            while let Some((Any, Any)) = map.next_entry()? {}
                            Ok(Any)
                        }
                    }

                    deserializer.deserialize_any(AnyVisitor)
                }
            }
        }
        test {
            let s = Outer {
                inner: Inner { inner: 0 },
                extra: Any,
            };
            ok!(Outer, s, &[
                Token::Map { len: None },
                Token::Str("inner"),
                Token::I32(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_alias {
    use super::*;

    case! {
        data {
            struct Outer {
                #[serde(flatten)]
                a: AliasStruct,
                b: i32,
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
            ok!(Outer, Outer {
                a: AliasStruct {
                    a1: 1,
                    a2: 2,
                    a4: 4,
                },
                b: 7,
            }, &[
                Token::Struct {
                    name: "Outer",
                    len: 4,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("a5"),
                Token::I32(4),
                Token::Str("b"),
                Token::I32(7),
                Token::StructEnd,
            ]);
            ok!(Outer, Outer {
                a: AliasStruct {
                    a1: 1,
                    a2: 2,
                    a4: 4,
                },
                b: 7,
            }, &[
                Token::Struct {
                    name: "Outer",
                    len: 4,
                },
                Token::Str("a1"),
                Token::I32(1),
                Token::Str("a2"),
                Token::I32(2),
                Token::Str("a6"),
                Token::I32(4),
                Token::Str("b"),
                Token::I32(7),
                Token::StructEnd,
            ]);
        }
    }
}

mod a_flatten_unit_unit {
    use super::*;

    case! {
        data {
            struct Response {
                #[serde(flatten)]
                data: (),
                status: usize,
            }
        }
        shared {

        }
        test {
            ok!(Response, Response {
                data: (),
                status: 0,
            }, &[
                Token::Map { len: None },
                Token::Str("status"),
                Token::U64(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_unit_unit_struct {
    use super::*;

    case! {
        data {
            struct Response {
                #[serde(flatten)]
                data: Unit,
                status: usize,
            }

            struct Unit;
        }
        shared {

        }
        test {
            ok!(Response, Response {
                data: Unit,
                status: 0,
            }, &[
                Token::Map { len: None },
                Token::Str("status"),
                Token::U64(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_straightforward {
    use super::*;

    case! {
        data {
            enum Data {
                A {
                    a: i32,
                    #[serde(flatten)]
                    flat: Flat,
                },
            }

            struct Flat {
                b: i32,
            }
        }
        shared {

        }
        test {
            let data = Data::A {
                a: 0,
                flat: Flat { b: 0 },
            };
            ok!(Data, data, &[
                Token::NewtypeVariant {
                    name: "Data",
                    variant: "A",
                },
                Token::Map { len: None },
                Token::Str("a"),
                Token::I32(0),
                Token::Str("b"),
                Token::I32(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_unit {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,

                #[serde(flatten)]
                extra: HashMap<String, String>,
            }

            enum Enum {
                Unit,
                Newtype(HashMap<String, String>),
                Tuple(u32, u32),
                Struct { index: u32, value: u32 },
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                data: Enum::Unit,
                extra: HashMap::from_iter([("extra_key".into(), "extra value".into())]),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // data
                Token::Str("Unit"), // variant
                Token::Unit,
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                // data
                Token::Str("Unit"), // variant
                Token::Unit,
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_newtype {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,

                #[serde(flatten)]
                extra: HashMap<String, String>,
            }

            enum Enum {
                Unit,
                Newtype(HashMap<String, String>),
                Tuple(u32, u32),
                Struct { index: u32, value: u32 },
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                data: Enum::Newtype(HashMap::from_iter([("key".into(), "value".into())])),
                extra: HashMap::from_iter([("extra_key".into(), "extra value".into())]),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // data
                Token::Str("Newtype"), // variant
                Token::Map { len: Some(1) },
                Token::Str("key"),
                Token::Str("value"),
                Token::MapEnd,
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                // data
                Token::Str("Newtype"), // variant
                Token::Map { len: Some(1) },
                Token::Str("key"),
                Token::Str("value"),
                Token::MapEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_tuple {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,

                #[serde(flatten)]
                extra: HashMap<String, String>,
            }

            enum Enum {
                Unit,
                Newtype(HashMap<String, String>),
                Tuple(u32, u32),
                Struct { index: u32, value: u32 },
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                data: Enum::Tuple(0, 42),
                extra: HashMap::from_iter([("extra_key".into(), "extra value".into())]),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // data
                Token::Str("Tuple"), // variant
                Token::Seq { len: Some(2) },
                Token::U32(0),
                Token::U32(42),
                Token::SeqEnd,
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                // data
                Token::Str("Tuple"), // variant
                Token::Seq { len: Some(2) },
                Token::U32(0),
                Token::U32(42),
                Token::SeqEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_struct_from_seq {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,

                #[serde(flatten)]
                extra: HashMap<String, String>,
            }

            enum Enum {
                Unit,
                Newtype(HashMap<String, String>),
                Tuple(u32, u32),
                Struct { index: u32, value: u32 },
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                data: Enum::Struct {
                    index: 0,
                    value: 42,
                },
                extra: HashMap::from_iter([("extra_key".into(), "extra value".into())]),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // data
                Token::Str("Struct"), // variant
                Token::Seq { len: Some(2) },
                Token::U32(0),  // index
                Token::U32(42), // value
                Token::SeqEnd,
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                // data
                Token::Str("Struct"), // variant
                Token::Seq { len: Some(2) },
                Token::U32(0),  // index
                Token::U32(42), // value
                Token::SeqEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_externally_tagged_struct_from_map {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,

                #[serde(flatten)]
                extra: HashMap<String, String>,
            }

            enum Enum {
                Unit,
                Newtype(HashMap<String, String>),
                Tuple(u32, u32),
                Struct { index: u32, value: u32 },
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                data: Enum::Struct {
                    index: 0,
                    value: 42,
                },
                extra: HashMap::from_iter([("extra_key".into(), "extra value".into())]),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // data
                Token::Str("Struct"), // variant
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // extra
                Token::Str("extra_key"),
                Token::Str("extra value"),
                // data
                Token::Str("Struct"), // variant
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_adjacently_tagged_unit {
    use super::*;

    case! {
        data {
            struct Flatten {
                outer: u32,

                #[serde(flatten)]
                data: NewtypeWrapper,
            }

            struct NewtypeWrapper(pub Enum);

            #[serde(tag = "tag", content = "content")]
            enum Enum {
                            Unit,
                            Newtype(NewtypeVariant),
                            Struct { index: u32, value: u32 },
                        }

            struct NewtypeVariant {
                value: u32,
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                outer: 42,
                data: NewtypeWrapper(Enum::Unit),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // content missing
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // content missing
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // content
                Token::Str("content"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Unit,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // content
                Token::Str("content"),
                Token::Unit,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Unit,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Unit,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Unit,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Unit",
                },
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_adjacently_tagged_newtype {
    use super::*;

    case! {
        data {
            struct Flatten {
                outer: u32,

                #[serde(flatten)]
                data: NewtypeWrapper,
            }

            struct NewtypeWrapper(pub Enum);

            #[serde(tag = "tag", content = "content")]
            enum Enum {
                            Unit,
                            Newtype(NewtypeVariant),
                            Struct { index: u32, value: u32 },
                        }

            struct NewtypeVariant {
                value: u32,
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                outer: 42,
                data: NewtypeWrapper(Enum::Newtype(NewtypeVariant { value: 23 })),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 1,
                    name: "NewtypeVariant",
                },
                Token::Str("value"),
                Token::U32(23),
                Token::StructEnd,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Newtype",
                },
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_adjacently_tagged_struct_ {
    use super::*;

    case! {
        data {
            struct Flatten {
                outer: u32,

                #[serde(flatten)]
                data: NewtypeWrapper,
            }

            struct NewtypeWrapper(pub Enum);

            #[serde(tag = "tag", content = "content")]
            enum Enum {
                            Unit,
                            Newtype(NewtypeVariant),
                            Struct { index: u32, value: u32 },
                        }

            struct NewtypeVariant {
                value: u32,
            }
        }
        shared {

        }
        test {
            let value = Flatten {
                outer: 42,
                data: NewtypeWrapper(Enum::Struct {
                    index: 0,
                    value: 42,
                }),
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // content
                Token::Str("content"),
                Token::Struct {
                    len: 2,
                    name: "Struct",
                },
                Token::Str("index"),
                Token::U32(0),
                Token::Str("value"),
                Token::U32(42),
                Token::StructEnd,
                // outer
                Token::Str("outer"),
                Token::U32(42),
                // tag
                Token::Str("tag"),
                Token::UnitVariant {
                    name: "Enum",
                    variant: "Struct",
                },
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_internally_tagged_structs {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                x: X,
                #[serde(flatten)]
                y: Y,
            }

            #[serde(tag = "typeX")]
            enum X {
                                A { a: i32 },
                                B { b: i32 },
                            }

            #[serde(tag = "typeY")]
            enum Y {
                                C { c: i32 },
                                D { d: i32 },
                            }
        }
        shared {

        }
        test {
            let value = Flatten {
                x: X::B { b: 1 },
                y: Y::D { d: 2 },
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // x
                Token::Str("typeX"),
                Token::Str("B"),
                Token::Str("b"),
                Token::I32(1),
                // y
                Token::Str("typeY"),
                Token::Str("D"),
                Token::Str("d"),
                Token::I32(2),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // y
                Token::Str("typeY"),
                Token::Str("D"),
                Token::Str("d"),
                Token::I32(2),
                // x
                Token::Str("typeX"),
                Token::Str("B"),
                Token::Str("b"),
                Token::I32(1),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_internally_tagged_unit_enum_with_unknown_fields {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                x: X,
                #[serde(flatten)]
                y: Y,
            }

            #[serde(tag = "typeX")]
            enum X {
                                A,
                            }

            #[serde(tag = "typeY")]
            enum Y {
                                B { c: u32 },
                            }
        }
        shared {

        }
        test {
            let value = Flatten {
                x: X::A,
                y: Y::B { c: 0 },
            };
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // x
                Token::Str("typeX"),
                Token::Str("A"),
                // y
                Token::Str("typeY"),
                Token::Str("B"),
                Token::Str("c"),
                Token::U32(0),
                Token::MapEnd,
            ]);
            ok!(Flatten, value, &[
                Token::Map { len: None },
                // y
                Token::Str("typeY"),
                Token::Str("B"),
                Token::Str("c"),
                Token::U32(0),
                // x
                Token::Str("typeX"),
                Token::Str("A"),
                Token::MapEnd,
            ]);
        }
    }
}

mod a_flatten_enum_untagged_struct_ {
    use super::*;

    case! {
        data {
            struct Flatten {
                #[serde(flatten)]
                data: Enum,
            }

            #[serde(untagged)]
            enum Enum {
                            Struct { a: i32 },
                        }
        }
        shared {

        }
        test {
            ok!(Flatten, Flatten {
                data: Enum::Struct { a: 0 },
            }, &[
                Token::Map { len: None },
                Token::Str("a"),
                Token::I32(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod it_containing_flatten {
    use super::*;

    case! {
        data {
            #[serde(tag = "tag")]
            enum Data {
                    A {
                        a: i32,
                        #[serde(flatten)]
                        flat: Flat,
                    },
                }

            struct Flat {
                b: i32,
            }
        }
        shared {

        }
        test {
            let data = Data::A {
                a: 0,
                flat: Flat { b: 0 },
            };
            ok!(Data, data, &[
                Token::Map { len: None },
                Token::Str("tag"),
                Token::Str("A"),
                Token::Str("a"),
                Token::I32(0),
                Token::Str("b"),
                Token::I32(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod at_struct_with_flatten {
    use super::*;

    case! {
        data {
            #[serde(tag = "t", content = "c")]
            enum Data {
                    A {
                        a: i32,
                        #[serde(flatten)]
                        flat: Flat,
                    },
                }

            struct Flat {
                b: i32,
            }
        }
        shared {

        }
        test {
            let data = Data::A {
                a: 0,
                flat: Flat { b: 0 },
            };
            ok!(Data, data, &[
                Token::Struct {
                    name: "Data",
                    len: 2,
                },
                Token::Str("t"),
                Token::UnitVariant {
                    name: "Data",
                    variant: "A",
                },
                Token::Str("c"),
                Token::Map { len: None },
                Token::Str("a"),
                Token::I32(0),
                Token::Str("b"),
                Token::I32(0),
                Token::MapEnd,
                Token::StructEnd,
            ]);
        }
    }
}

mod ut_contains_flatten {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Data {
                    A {
                        a: i32,
                        #[serde(flatten)]
                        flat: Flat,
                    },
                }

            struct Flat {
                b: i32,
            }
        }
        shared {

        }
        test {
            let data = Data::A {
                a: 0,
                flat: Flat { b: 0 },
            };
            ok!(Data, data, &[
                Token::Map { len: None },
                Token::Str("a"),
                Token::I32(0),
                Token::Str("b"),
                Token::I32(0),
                Token::MapEnd,
            ]);
        }
    }
}

mod ut_contains_flatten_with_integer_key {
    use super::*;

    case! {
        data {
            #[serde(untagged)]
            enum Untagged {
                    Variant {
                        #[serde(flatten)]
                        map: BTreeMap<u64, String>,
                    },
                }
        }
        shared {

        }
        test {
            ok!(Untagged, Untagged::Variant {
                map: {
                    let mut map = BTreeMap::new();
                    map.insert(100, "BTreeMap".to_owned());
                    map
                },
            }, &[
                Token::Map { len: None },
                Token::U64(100),
                Token::Str("BTreeMap"),
                Token::MapEnd,
            ]);
        }
    }
}
