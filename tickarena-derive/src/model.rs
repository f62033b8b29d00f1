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
    /// `rename = ".."` or `rename(deserialize = "..")`: the key in a map
    /// (and nothing else).
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
                if meta.input.peek(syn::Token![=]) {
                    let value: syn::LitStr = meta.value()?.parse()?;
                    out.rename = Some(value.value());
                } else {
                    // `rename(deserialize = "..", serialize = "..")`, as
                    // serde's derive reads it: the key read is the
                    // `deserialize` one; `serialize` is serde's business.
                    meta.parse_nested_meta(|side| {
                        let value: syn::LitStr = side.value()?.parse()?;
                        if side.path.is_ident("deserialize") {
                            out.rename = Some(value.value());
                        } else if !side.path.is_ident("serialize") {
                            return Err(side.error(
                                "`rename(..)` takes `deserialize = \"..\"` and \
                                 `serialize = \"..\"`",
                            ));
                        }
                        Ok(())
                    })?;
                }
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
            } else if ((path.is_ident("serialize_with") || path.is_ident("skip_serializing"))
                && what != "type")
                || (path.is_ident("skip_serializing_if") && what == "field")
            {
                // The serializing side's, on a field or a variant: serde's
                // `Serialize` (derived beside this) reads them; the decode
                // has nothing to do.
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
                let accepted = match what {
                    "field" => {
                        "`rename = \"..\"`, `default`, `skip`, `borrow`, and the serializing \
                         side's `serialize_with`, `skip_serializing`, `skip_serializing_if` and \
                         `with = \"tickarena::serde::..\"`"
                    }
                    "variant" => {
                        "`rename = \"..\"`, and the serializing side's `serialize_with` and \
                         `skip_serializing`"
                    }
                    _ => "`rename = \"..\"`",
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

/// The name serde gives a field or variant: its identifier without `r#`
/// (`r#type` is `"type"`), as serde's derive names it.
pub fn serde_name(ident: &syn::Ident) -> String {
    use syn::ext::IdentExt;
    ident.unraw().to_string()
}

/// The path the generated code names tickarena by: `#[tickarena(crate =
/// "..")]` on the type when given (serde's `#[serde(crate = "..")]` is the
/// model); else `::tickarena`, or `::tickarena_bevy::tickarena` for a crate
/// that depends on tickarena-bevy and not on tickarena itself (see
/// [`default_crate_path`]).
pub fn crate_path(input: &DeriveInput, errors: &mut Errors) -> proc_macro2::TokenStream {
    let mut named = None;
    for attr in input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("tickarena"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let value: syn::LitStr = meta.value()?.parse()?;
                let path: syn::Path = value.parse().map_err(|error| {
                    Error::new(
                        value.span(),
                        format!(
                            "`crate = \"..\"` takes a path (`tickarena_bevy::tickarena`): {error}"
                        ),
                    )
                })?;
                named = Some(quote::quote!(#path));
                Ok(())
            } else {
                Err(meta.error(
                    "unknown tickarena option: the one option is `crate = \"..\"` \
                     (`#[tickarena(crate = \"my_reexport::tickarena\")]`, the path tickarena is \
                     reached by)",
                ))
            }
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    named.unwrap_or_else(default_crate_path)
}

/// `::tickarena`, unless the crate being compiled depends on tickarena-bevy
/// and not on tickarena (its `Cargo.toml` counts on one and not the other,
/// see [`depends_on`]: an optional tickarena may be off):
/// then `::tickarena_bevy::tickarena`, tickarena-bevy's re-export, so
/// `#[derive(FrameData)]` from `tickarena_bevy` works in a game whose only
/// tickarena dependency is tickarena-bevy (Bevy's own derives find `bevy`
/// the same way). A renamed dependency is not followed: name the path with
/// `#[tickarena(crate = "..")]`.
fn default_crate_path() -> proc_macro2::TokenStream {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").and_then(|dir| {
        std::fs::read_to_string(std::path::Path::new(&dir).join("Cargo.toml")).ok()
    });
    match manifest {
        Some(manifest)
            if !depends_on(&manifest, "tickarena") && depends_on(&manifest, "tickarena-bevy") =>
        {
            quote::quote!(::tickarena_bevy::tickarena)
        }
        _ => quote::quote!(::tickarena),
    }
}

/// Whether `manifest` counts on the package `name`: names it as a
/// dependency that is not optional (a normal, dev or build one, for any
/// target: `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`,
/// `[target.'..'.dependencies]`, their `[..dependencies.name]` tables and
/// dotted keys), or is that package. `[workspace.dependencies]` lists what
/// the members may use, not what this package does, and is not counted.
fn depends_on(manifest: &str, name: &str) -> bool {
    // Each dependency table that names `name` (its path, as `dependencies`
    // or `target.'cfg(unix)'.dev-dependencies`), and whether it says
    // `optional = true` there.
    let mut found: Vec<(String, bool)> = Vec::new();
    let mut note = |path: &[String], value: Option<&str>| {
        let rest = match path {
            [target, _, rest @ ..] if target == "target" => rest,
            rest => rest,
        };
        let [kind, key, more @ ..] = rest else {
            return;
        };
        let kinds = [
            "dependencies",
            "dev-dependencies",
            "build-dependencies",
            "dev_dependencies",
            "build_dependencies",
        ];
        if !kinds.contains(&kind.as_str()) || key != name {
            return;
        }
        let table = path[..path.len() - more.len() - 1].join(".");
        let compact = value.map(|v| v.replace(char::is_whitespace, ""));
        let optional = match (more, compact.as_deref()) {
            // `name = { .., optional = true }`
            ([], Some(value)) => value.contains("optional=true"),
            // `name.optional = true`, or `optional = true` in its table
            ([field], Some("true")) => field == "optional",
            _ => false,
        };
        match found.iter_mut().find(|(seen, _)| *seen == table) {
            Some((_, seen_optional)) => *seen_optional |= optional,
            None => found.push((table, optional)),
        }
    };
    let mut table: Vec<String> = Vec::new();
    for line in manifest.lines() {
        let line = without_comment(line).trim();
        if let Some(header) = line.strip_prefix('[') {
            table = dotted(header.trim_matches(|c| c == '[' || c == ']'));
            note(&table, None);
            continue;
        }
        let Some((key, value)) = split_key(line) else {
            continue;
        };
        let path: Vec<String> = table.iter().cloned().chain(dotted(key)).collect();
        if table == ["package"] && path.len() == 2 && path[1] == "name" {
            if value.trim().trim_matches('"') == name {
                return true;
            }
            continue;
        }
        note(&path, Some(value.trim()));
    }
    found.iter().any(|(_, optional)| !optional)
}

/// `line` without a `#` comment (one outside a string).
fn without_comment(line: &str) -> &str {
    let mut quote = None;
    for (at, c) in line.char_indices() {
        match (c, quote) {
            ('"' | '\'', None) => quote = Some(c),
            (c, Some(open)) if c == open => quote = None,
            ('#', None) => return &line[..at],
            _ => {}
        }
    }
    line
}

/// A `key = value` line, split at its first `=` outside a quoted key.
fn split_key(line: &str) -> Option<(&str, &str)> {
    let mut quote = None;
    for (at, c) in line.char_indices() {
        match (c, quote) {
            ('"' | '\'', None) => quote = Some(c),
            (c, Some(open)) if c == open => quote = None,
            ('=', None) => return Some((&line[..at], &line[at + 1..])),
            _ => {}
        }
    }
    None
}

/// The parts of a dotted TOML key (`target.'cfg(x = "a.b")'.dependencies`),
/// trimmed and unquoted.
fn dotted(key: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut part, mut quote) = (String::new(), None);
    for c in key.chars() {
        match (c, quote) {
            ('"' | '\'', None) => quote = Some(c),
            (c, Some(open)) if c == open => quote = None,
            ('.', None) => parts.push(std::mem::take(&mut part)),
            (c, _) => part.push(c),
        }
    }
    parts.push(part);
    parts.into_iter().map(|p| p.trim().to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::depends_on;

    #[test]
    fn a_dependency_is_found_in_every_form_cargo_takes() {
        let forms = [
            "[dependencies]\ntickarena = \"0.1\"",
            "[dependencies]\ntickarena = { path = \"..\", features = [\"derive\"] }",
            "[dependencies]\ntickarena.workspace = true",
            "[dependencies.tickarena]\nversion = \"0.1\"",
            "[dev-dependencies]\n\"tickarena\" = \"0.1\"",
            "[target.'cfg(unix)'.dependencies]\ntickarena = \"0.1\" # comment",
            "[target.'cfg(unix)'.dependencies.tickarena]\nversion = \"0.1\"",
            "[target.'cfg(target_feature = \"sse4.2\")'.build-dependencies]\ntickarena = \"0.1\"",
            "[build_dependencies]\ntickarena = \"0.1\"",
            "dependencies.tickarena = \"0.1\"\n[package]\nname = \"x\"",
            "[dependencies]\ntickarena-bevy = \"0.1\"\n[dependencies.tickarena]",
            "[package]\nname = \"tickarena\"",
        ];
        for manifest in forms {
            assert!(depends_on(manifest, "tickarena"), "{manifest}");
        }
    }

    /// A workspace root that lists tickarena for its members (in
    /// `[workspace.dependencies]`) and depends only on tickarena-bevy.
    #[test]
    fn workspace_dependencies_are_the_members_not_the_roots() {
        let root = "[package]\nname = \"game\"\n\n[workspace]\nmembers = [\"net\"]\n\n\
                    [workspace.dependencies]\ntickarena = \"0.1\"\n\
                    tickarena-bevy = { version = \"0.1\" }\n\n\
                    [workspace.dependencies.serde]\nversion = \"1\"\n\n\
                    [dependencies]\ntickarena-bevy = { workspace = true }\n";
        assert!(!depends_on(root, "tickarena"), "{root}");
        assert!(depends_on(root, "tickarena-bevy"), "{root}");
        let dotted = "workspace.dependencies.tickarena = \"0.1\"\n[dependencies]\n\
                      tickarena-bevy.workspace = true\n";
        assert!(!depends_on(dotted, "tickarena"), "{dotted}");
        assert!(depends_on(dotted, "tickarena-bevy"), "{dotted}");
    }

    /// An optional tickarena may be off: the crate cannot count on it.
    #[test]
    fn an_optional_dependency_is_not_counted_on() {
        let optional = [
            "[dependencies]\ntickarena = { version = \"0.1\", optional = true }",
            "[dependencies]\ntickarena = { workspace = true, optional=true }",
            "[dependencies]\ntickarena.version = \"0.1\"\ntickarena.optional = true",
            "[dependencies.tickarena]\nversion = \"0.1\"\noptional = true\n[features]\nx = []",
            "[target.'cfg(target_feature = \"sse4.2\")'.dependencies]\n\
             tickarena = { version = \"0.1\", optional = true }",
        ];
        for manifest in optional {
            assert!(!depends_on(manifest, "tickarena"), "{manifest}");
        }
        let both = "[dependencies]\ntickarena = { version = \"0.1\", optional = true }\n\
                    [dev-dependencies]\ntickarena = \"0.1\"";
        assert!(
            depends_on(both, "tickarena"),
            "a dev-dependency that is not optional"
        );
        let other = "[dependencies]\ntickarena = { version = \"0.1\", optional = false }\n\
                     tickarena-bevy = { version = \"0.1\", optional = true }";
        assert!(depends_on(other, "tickarena"), "{other}");
        assert!(!depends_on(other, "tickarena-bevy"), "{other}");
    }

    #[test]
    fn a_neighbour_or_a_key_elsewhere_is_not_a_dependency() {
        let others = [
            "[dependencies]\ntickarena-bevy = \"0.1\"",
            "[dependencies]\nbevy = { version = \"0.20\" } # tickarena = \"0.1\"",
            "[features]\ntickarena = []",
            "[package]\nname = \"tickarena-bevy\"",
            "[dependencies.tickarena-bevy]\nversion = \"0.1\"",
        ];
        for manifest in others {
            assert!(!depends_on(manifest, "tickarena"), "{manifest}");
        }
        assert!(depends_on(others[0], "tickarena-bevy"));
    }
}
