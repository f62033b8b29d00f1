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
