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

/// What `#[serde(..)]` on a field says, as serde's derive reads it.
#[derive(Default)]
pub struct FieldAttrs {
    /// `rename = ".."`: the key in a map (and nothing else).
    pub rename: Option<String>,
    /// `default`: a missing field is `Default::default()`.
    pub default: bool,
    /// `skip`: never read; always `Default::default()`.
    pub skip: bool,
}

/// The serde attributes the derives accept on a field or variant; the
/// others would change the encoding in ways the derive cannot follow.
pub fn serde_attrs(attrs: &[syn::Attribute], what: &str, errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let parsed = attr.parse_nested_meta(|meta| {
            let path = &meta.path;
            if path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                out.rename = Some(value.value());
            } else if path.is_ident("default") && what == "field" {
                if meta.input.peek(syn::Token![=]) {
                    return Err(meta.error(
                        "#[derive(DeserializeIn)] takes `#[serde(default)]` (the field's \
                         `Default`), not a function: implement `Default` for the field's type",
                    ));
                }
                out.default = true;
            } else if path.is_ident("skip") && what == "field" {
                out.skip = true;
            } else if path.is_ident("borrow") && what == "field" {
                // serde's `Deserialize` borrowing from the input: nothing
                // to do here (`DeserializeIn` copies into the arena).
                if meta.input.peek(syn::Token![=]) {
                    let _: syn::LitStr = meta.value()?.parse()?;
                }
            } else if (path.is_ident("serialize_with") || path.is_ident("skip_serializing"))
                && what == "field"
            {
                // Serialization only.
                if meta.input.peek(syn::Token![=]) {
                    let _: syn::LitStr = meta.value()?.parse()?;
                }
            } else if path.is_ident("with") && what == "field" {
                let value: syn::LitStr = meta.value()?.parse()?;
                if !value.value().starts_with("tickarena::serde::") {
                    return Err(syn::Error::new_spanned(
                        value,
                        "#[derive(DeserializeIn)] cannot call a `with` module's `deserialize`: \
                         it reads the field's own type (through DeserializeIn or Deserialize); \
                         use `serialize_with` for the serializing side",
                    ));
                }
            } else {
                let name = path
                    .get_ident()
                    .map_or_else(|| "this".to_owned(), ToString::to_string);
                let accepted = if what == "field" {
                    "`rename = \"..\"`, `default`, `skip`, `borrow`, and the serializing \
                     side's `serialize_with`, `skip_serializing` and \
                     `with = \"tickarena::serde::..\"`"
                } else {
                    "`rename = \"..\"`"
                };
                return Err(meta.error(format!(
                    "#[derive(DeserializeIn)] does not know `#[serde({name})]` on a {what}: it \
                     accepts {accepted}"
                )));
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    out
}

/// Whether `ty` mentions `lifetime` anywhere (`&'a str`, `FrameVec<'a, T>`,
/// `Option<&'a [u8]>`).
pub fn mentions(ty: &syn::Type, lifetime: &Lifetime) -> bool {
    use quote::ToTokens;
    fn walk(tokens: proc_macro2::TokenStream, name: &str) -> bool {
        let mut previous_quote = false;
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Group(group) => {
                    if walk(group.stream(), name) {
                        return true;
                    }
                    previous_quote = false;
                }
                proc_macro2::TokenTree::Punct(punct) => previous_quote = punct.as_char() == '\'',
                proc_macro2::TokenTree::Ident(ident) => {
                    if previous_quote && ident == name {
                        return true;
                    }
                    previous_quote = false;
                }
                proc_macro2::TokenTree::Literal(_) => previous_quote = false,
            }
        }
        false
    }
    walk(ty.to_token_stream(), &lifetime.ident.to_string())
}
