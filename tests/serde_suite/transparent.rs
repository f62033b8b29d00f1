//! serde's deserialize cases (see `main.rs`) that use `transparent` (a case with several of serde's attributes is filed under the first of: flatten, untagged, tag + content, tag, deny_unknown_fields, alias, rename_all, other, transparent, from, expecting, with, defaults, skip, identifier): 2 cases, 2 decodes.

use crate::prelude::*;
use crate::tokens::Token;
use std::collections::{BTreeMap, HashMap};

mod a_transparent_struct {
    use super::*;

    case! {
        data {
            #[serde(transparent)]
            struct Transparent {
                    #[serde(skip)]
                    a: bool,
                    b: u32,
                    #[serde(skip)]
                    c: bool,
                    d: PhantomData<()>,
                }
        }
        shared {

        }
        test {
            ok!(Transparent, Transparent {
                a: false,
                b: 1,
                c: false,
                d: PhantomData,
            }, &[Token::U32(1)]);
        }
    }
}

mod a_transparent_tuple_struct {
    use super::*;

    case! {
        data {
            #[serde(transparent)]
            struct Transparent(
                    #[serde(skip)] bool,
                    u32,
                    #[serde(skip)] bool,
                    PhantomData<()>,
                );
        }
        shared {

        }
        test {
            ok!(Transparent, Transparent(false, 1, false, PhantomData), &[Token::U32(1)]);
        }
    }
}
