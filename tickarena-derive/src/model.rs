//! What a derive needs of its input, read and checked once: the frame
//! lifetime (at most one), the type's other generics, and its shape.

use syn::{DeriveInput, Error, Generics, Lifetime};

/// Errors collected while reading an input: every refusal is reported, not
/// only the first.
#[derive(Default)]
pub struct Errors(Option<Error>);

impl Errors {
    pub fn push(&mut self, error: Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// The lifetime a type's data borrows from the frame arena: its one
/// lifetime parameter, if it has one. A second one is refused.
pub fn frame_lifetime(input: &DeriveInput, derive: &str, errors: &mut Errors) -> Option<Lifetime> {
    let mut lifetimes = input.generics.lifetimes();
    let first = lifetimes.next().map(|param| param.lifetime.clone());
    for extra in lifetimes {
        errors.push(Error::new_spanned(
            &extra.lifetime,
            format!(
                "#[derive({derive})] takes at most one lifetime, the frame arena's \
                 (`struct {}<'f>`): borrow everything from that one arena, or derive \
                 by hand",
                input.ident
            ),
        ));
    }
    first
}

/// `generics` with the frame lifetime taken out (what the impl declares).
pub fn without_lifetime(generics: &Generics) -> Generics {
    let mut rest = generics.clone();
    rest.params = generics
        .params
        .iter()
        .filter(|param| !matches!(param, syn::GenericParam::Lifetime(_)))
        .cloned()
        .collect();
    rest
}
