//! What a derive needs of its input, read and checked once: the frame
//! lifetime (at most one), the type's other generics, and its shape.

use proc_macro2::Span;
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

/// A `rename_all` rule: how serde's derive turns a Rust name (a variant's
/// `PascalCase`, a field's `snake_case`) into the name a format reads.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub enum RenameRule {
    /// No rule: the name as written.
    #[default]
    None,
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// The rules by the names serde gives them.
const RENAME_RULES: [(&str, RenameRule); 8] = [
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    fn parse(name: &syn::LitStr) -> syn::Result<Self> {
        let value = name.value();
        RENAME_RULES
            .iter()
            .find(|(rule, _)| *rule == value)
            .map(|(_, rule)| *rule)
            .ok_or_else(|| {
                let known: Vec<String> =
                    RENAME_RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
                Error::new(
                    name.span(),
                    format!(
                        "unknown rename rule `rename_all = {value:?}`, expected one of {}",
                        known.join(", ")
                    ),
                )
            })
    }

    /// This rule, or `other` where this is none (a variant's `rename_all`
    /// over the type's `rename_all_fields`).
    pub fn or(self, other: Self) -> Self {
        if self == RenameRule::None {
            other
        } else {
            self
        }
    }

    /// A variant's name (`PascalCase` in Rust) under this rule.
    pub fn apply_to_variant(self, variant: &str) -> String {
        use RenameRule::*;
        match self {
            None | Pascal => variant.to_owned(),
            Lower => variant.to_ascii_lowercase(),
            Upper => variant.to_ascii_uppercase(),
            Camel => {
                let mut chars = variant.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            Snake => {
                let mut snake = String::new();
                for (at, c) in variant.char_indices() {
                    if at > 0 && c.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(c.to_ascii_lowercase());
                }
                snake
            }
            ScreamingSnake => Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Kebab => Snake.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }

    /// A field's name (`snake_case` in Rust) under this rule.
    pub fn apply_to_field(self, field: &str) -> String {
        use RenameRule::*;
        match self {
            None | Lower | Snake => field.to_owned(),
            Upper | ScreamingSnake => field.to_ascii_uppercase(),
            Pascal => {
                let (mut pascal, mut capital) = (String::new(), true);
                for c in field.chars() {
                    if c == '_' {
                        capital = true;
                    } else if capital {
                        pascal.push(c.to_ascii_uppercase());
                        capital = false;
                    } else {
                        pascal.push(c);
                    }
                }
                pascal
            }
            Camel => {
                let pascal = Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            Kebab => field.replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_field(field).replace('_', "-"),
        }
    }
}

/// `default` on a type or a field: none, `Default::default()`, or a
/// function (`default = "path"`, called with no arguments).
#[derive(Clone, Default)]
pub enum DefaultAttr {
    #[default]
    None,
    Default,
    Path(syn::ExprPath),
}

impl DefaultAttr {
    pub fn is_none(&self) -> bool {
        matches!(self, DefaultAttr::None)
    }
}

/// `#[serde(..)]` on the type, as serde's derive reads it for
/// deserializing. Every serde container attribute is read here (what the
/// serializing side alone reads is checked and dropped); `deserialize_in`
/// decides which it follows. A flag keeps the span of the word that set
/// it, for a refusal under it.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `rename = ".."` or `rename(deserialize = "..")`: the name the
    /// format is told.
    pub rename: Option<String>,
    /// `rename_all = ".."` or `rename_all(deserialize = "..")`: the
    /// fields' (a struct) or the variants' (an enum) names.
    pub rename_all: RenameRule,
    /// `rename_all_fields` (an enum): the fields of every struct variant
    /// without a `rename_all` of its own.
    pub rename_all_fields: RenameRule,
    /// `deny_unknown_fields`: an unknown key is an error.
    pub deny_unknown_fields: Option<Span>,
    /// `transparent`: the type is its one field read.
    pub transparent: Option<Span>,
    /// `default` / `default = "path"` (a struct): where a field is
    /// missing, the one of this value.
    pub default: DefaultAttr,
    /// `bound = ".."` or `bound(deserialize = "..")`: the where clauses
    /// of the impl.
    pub bound: Option<Vec<syn::WherePredicate>>,
    /// `tag = ".."`: internally tagged (with `content`: adjacently).
    pub tag: Option<syn::LitStr>,
    /// `content = ".."`, with `tag`.
    pub content: Option<syn::LitStr>,
    /// `untagged` (an enum).
    pub untagged: Option<Span>,
    /// `from = "Type"`: read a `Type`, then `From`.
    pub from: Option<syn::Type>,
    /// `try_from = "Type"`: read a `Type`, then `TryFrom`.
    pub try_from: Option<syn::Type>,
    /// `expecting = ".."`: the visitor's `expecting` text.
    pub expecting: Option<String>,
    /// `remote = ".."`: a derive for a type of another crate.
    pub remote: Option<Span>,
    /// `field_identifier` or `variant_identifier`.
    pub identifier: Option<Span>,
    /// Which of the two `identifier` is: `field_identifier`.
    pub field_identifier: bool,
}

/// `#[serde(..)]` on a field, as serde's derive reads it for
/// deserializing.
#[derive(Default)]
pub struct FieldAttrs {
    /// `rename = ".."` or `rename(deserialize = "..")`: the key in a map.
    pub rename: Option<String>,
    /// `alias = ".."`, each: other keys read as this field.
    pub aliases: Vec<String>,
    /// `default` / `default = "path"`: what a missing field is.
    pub default: DefaultAttr,
    /// `skip` or `skip_deserializing`: never read; the default (the
    /// field's, or the type's `default`).
    pub skip: bool,
    /// `deserialize_with = "path"`, or `with = "module"`'s
    /// `module::deserialize` (not `tickarena::serde::..`'s, which serialize
    /// only).
    pub deserialize_with: Option<syn::ExprPath>,
    /// `flatten`.
    pub flatten: Option<Span>,
    /// `bound = ".."` or `bound(deserialize = "..")`.
    pub bound: Option<Vec<syn::WherePredicate>>,
}

/// `#[serde(..)]` on an enum's variant, as serde's derive reads it for
/// deserializing.
#[derive(Default)]
pub struct VariantAttrs {
    /// `rename = ".."` or `rename(deserialize = "..")`: the variant's tag.
    pub rename: Option<String>,
    /// `alias = ".."`, each: other tags read as this variant.
    pub aliases: Vec<String>,
    /// `rename_all = ".."`: the names of a struct variant's fields.
    pub rename_all: RenameRule,
    /// `skip` or `skip_deserializing`: never read (its tag is unknown).
    pub skip: bool,
    /// `other`: a unit variant read for every unknown tag.
    pub other: Option<Span>,
    /// `untagged`: tried, untagged, after the tagged variants.
    pub untagged: Option<Span>,
    /// `deserialize_with = "path"` or `with = "module"`: the variant's
    /// fields read by that function, as one value (a tuple for several).
    pub deserialize_with: Option<syn::ExprPath>,
    /// `bound = ".."` or `bound(deserialize = "..")`.
    pub bound: Option<Vec<syn::WherePredicate>>,
}

/// The string of `= ".."`.
fn lit_str(meta: &syn::meta::ParseNestedMeta) -> syn::Result<syn::LitStr> {
    meta.value()?.parse()
}

/// `name = ".."` or `name(serialize = "..", deserialize = "..")`: the
/// deserializing side's value (a single one is both sides').
fn deserialize_side(
    meta: &syn::meta::ParseNestedMeta,
    name: &'static str,
    seen: &mut Seen,
) -> syn::Result<Option<syn::LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        seen.once(meta, name, Side::Serialize)?;
        seen.once(meta, name, Side::Deserialize)?;
        return lit_str(meta).map(Some);
    }
    let mut de = None;
    meta.parse_nested_meta(|side| {
        let value = lit_str(&side)?;
        if side.path.is_ident("deserialize") {
            seen.once(&side, name, Side::Deserialize)?;
            de = Some(value);
        } else if side.path.is_ident("serialize") {
            seen.once(&side, name, Side::Serialize)?;
        } else {
            return Err(side.error(format!(
                "malformed {name} attribute, expected `{name}(serialize = ..., deserialize = ...)`"
            )));
        }
        Ok(())
    })?;
    Ok(de)
}

/// Which side of serde's derive an attribute sets: `rename = ".."` sets
/// both, `rename(deserialize = "..")` one, `skip` both skips.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Serialize,
    Deserialize,
    /// An attribute with no sides.
    Both,
}

/// The attributes one item (the type, a field, a variant) has set so far:
/// serde's derive refuses one set twice ("duplicate serde attribute"),
/// where the last would otherwise win unseen. `alias` may repeat.
#[derive(Default)]
struct Seen(Vec<(&'static str, Side)>);

impl Seen {
    /// Notes `name` (on `side`) set by `meta`: an error, serde's, if it
    /// was set before.
    fn once(
        &mut self,
        meta: &syn::meta::ParseNestedMeta,
        name: &'static str,
        side: Side,
    ) -> syn::Result<()> {
        if self.0.contains(&(name, side)) {
            return Err(meta.error(format!("duplicate serde attribute `{name}`")));
        }
        self.0.push((name, side));
        Ok(())
    }
}

fn parse_path(value: &syn::LitStr) -> syn::Result<syn::ExprPath> {
    value.parse().map_err(|_| {
        Error::new(
            value.span(),
            format!("failed to parse path: {:?}", value.value()),
        )
    })
}

fn parse_type(value: &syn::LitStr, attr: &str) -> syn::Result<syn::Type> {
    value.parse().map_err(|_| {
        Error::new(
            value.span(),
            format!("failed to parse type: {attr} = {:?}", value.value()),
        )
    })
}

/// `bound = ".."` or `bound(deserialize = "..")`: the predicates.
fn parse_bound(
    meta: &syn::meta::ParseNestedMeta,
    seen: &mut Seen,
) -> syn::Result<Option<Vec<syn::WherePredicate>>> {
    let Some(value) = deserialize_side(meta, "bound", seen)? else {
        return Ok(None);
    };
    let predicates = value.parse_with(
        syn::punctuated::Punctuated::<syn::WherePredicate, syn::Token![,]>::parse_terminated,
    )?;
    Ok(Some(predicates.into_iter().collect()))
}

/// `default` or `default = "path"`.
fn parse_default(meta: &syn::meta::ParseNestedMeta) -> syn::Result<DefaultAttr> {
    if meta.input.peek(syn::Token![=]) {
        Ok(DefaultAttr::Path(parse_path(&lit_str(meta)?)?))
    } else {
        Ok(DefaultAttr::Default)
    }
}

/// `with = "module"`: its `module::deserialize`.
fn with_module(value: &syn::LitStr) -> syn::Result<syn::ExprPath> {
    let mut path = parse_path(value)?;
    path.path
        .segments
        .push(syn::Ident::new("deserialize", value.span()).into());
    Ok(path)
}

/// Whether `with = ".."` names one of tickarena's serializing modules
/// (`tickarena::serde::vec`, `boxed`): the decode reads the field through
/// `DeserializeIn`, as those modules' types are read.
fn is_tickarena_module(value: &syn::LitStr) -> bool {
    let path = value.value().replace(' ', "");
    path.starts_with("tickarena::serde::") || path.contains("::tickarena::serde::")
}

/// An attribute that takes `= ".."` and is the serializing side's alone
/// (or a no-op for the decode): its value checked and dropped.
fn ignore_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::LitStr = lit_str(meta)?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|side| {
            let _: syn::LitStr = lit_str(&side)?;
            Ok(())
        })?;
    }
    Ok(())
}

fn unknown(meta: &syn::meta::ParseNestedMeta, what: &str) -> Error {
    use quote::ToTokens;
    let path = meta.path.to_token_stream().to_string().replace(' ', "");
    meta.error(format!(
        "#[derive(DeserializeIn)]: unknown serde {what} attribute `{path}`"
    ))
}

/// Each `#[serde(..)]` among `attrs`, its items handed to `item` (an empty
/// `#[serde()]` is nothing, as serde reads it).
fn each_item(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
    mut item: impl FnMut(&syn::meta::ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        if let syn::Meta::List(list) = &attr.meta
            && list.tokens.is_empty()
        {
            continue;
        }
        if let Err(error) = attr.parse_nested_meta(|meta| item(&meta)) {
            errors.push(error);
        }
    }
}

/// Notes the attribute `meta` names among `names` (those serde's derive
/// sets once, with no sides) in `seen`: serde's error if it is set twice.
fn once_of(
    meta: &syn::meta::ParseNestedMeta,
    names: &[&'static str],
    seen: &mut Seen,
) -> syn::Result<()> {
    match names.iter().find(|name| meta.path.is_ident(name)) {
        Some(name) => seen.once(meta, name, Side::Both),
        None => Ok(()),
    }
}

/// `skip` (both skips) and `with` (both functions): each side noted in
/// `seen` under its own name, as serde's derive sets it.
fn once_both_sides(meta: &syn::meta::ParseNestedMeta, seen: &mut Seen) -> syn::Result<()> {
    let sides: &[&'static str] = if meta.path.is_ident("skip") {
        &["skip_serializing", "skip_deserializing"]
    } else if meta.path.is_ident("with") {
        &["serialize_with", "deserialize_with"]
    } else {
        &[]
    };
    for side in sides {
        seen.once(meta, side, Side::Both)?;
    }
    Ok(())
}

/// The type's `#[serde(..)]`.
pub fn container_attrs(input: &DeriveInput, errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    let is_enum = matches!(input.data, syn::Data::Enum(_));
    let mut seen = Seen::default();
    each_item(&input.attrs, errors, |meta| {
        once_of(
            meta,
            &[
                "deny_unknown_fields",
                "transparent",
                "default",
                "tag",
                "content",
                "untagged",
                "from",
                "try_from",
                "into",
                "expecting",
                "remote",
                "crate",
                "field_identifier",
                "variant_identifier",
            ],
            &mut seen,
        )?;
        let path = &meta.path;
        let span = syn::spanned::Spanned::span(path);
        if path.is_ident("rename") {
            if let Some(name) = deserialize_side(meta, "rename", &mut seen)? {
                out.rename = Some(name.value());
            }
        } else if path.is_ident("rename_all") {
            if let Some(rule) = deserialize_side(meta, "rename_all", &mut seen)? {
                out.rename_all = RenameRule::parse(&rule)?;
            }
        } else if path.is_ident("rename_all_fields") {
            if !is_enum {
                return Err(meta.error("#[serde(rename_all_fields)] can only be used on enums"));
            }
            if let Some(rule) = deserialize_side(meta, "rename_all_fields", &mut seen)? {
                out.rename_all_fields = RenameRule::parse(&rule)?;
            }
        } else if path.is_ident("deny_unknown_fields") {
            out.deny_unknown_fields = Some(span);
        } else if path.is_ident("transparent") {
            out.transparent = Some(span);
        } else if path.is_ident("default") {
            if is_enum {
                return Err(meta.error(if meta.input.peek(syn::Token![=]) {
                    "#[serde(default = \"...\")] can only be used on structs"
                } else {
                    "#[serde(default)] can only be used on structs"
                }));
            }
            out.default = parse_default(meta)?;
        } else if path.is_ident("bound") {
            out.bound = parse_bound(meta, &mut seen)?;
        } else if path.is_ident("tag") {
            out.tag = Some(lit_str(meta)?);
        } else if path.is_ident("content") {
            out.content = Some(lit_str(meta)?);
        } else if path.is_ident("untagged") {
            if !is_enum {
                return Err(meta.error("#[serde(untagged)] can only be used on enums"));
            }
            out.untagged = Some(span);
        } else if path.is_ident("from") {
            out.from = Some(parse_type(&lit_str(meta)?, "from")?);
        } else if path.is_ident("try_from") {
            out.try_from = Some(parse_type(&lit_str(meta)?, "try_from")?);
        } else if path.is_ident("expecting") {
            out.expecting = Some(lit_str(meta)?.value());
        } else if path.is_ident("remote") {
            let _: syn::LitStr = lit_str(meta)?;
            out.remote = Some(span);
        } else if path.is_ident("field_identifier") || path.is_ident("variant_identifier") {
            if out.identifier.is_some() {
                return Err(meta.error(
                    "#[serde(field_identifier)] and #[serde(variant_identifier)] cannot both be set",
                ));
            }
            if !is_enum {
                return Err(meta.error(if path.is_ident("field_identifier") {
                    "#[serde(field_identifier)] can only be used on an enum"
                } else {
                    "#[serde(variant_identifier)] can only be used on an enum"
                }));
            }
            out.identifier = Some(span);
            out.field_identifier = path.is_ident("field_identifier");
        } else if path.is_ident("into") || path.is_ident("crate") {
            // `into`: the serializing side's. `crate`: serde's path, which
            // the generated code does not name (it reaches serde through
            // tickarena; see `#[tickarena(crate = "..")]`).
            let _: syn::LitStr = lit_str(meta)?;
        } else {
            return Err(unknown(meta, "container"));
        }
        Ok(())
    });
    out
}

/// A field's `#[serde(..)]`.
pub fn field_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    let mut seen = Seen::default();
    each_item(attrs, errors, |meta| {
        once_of(
            meta,
            &[
                "default",
                "skip_serializing",
                "skip_deserializing",
                "skip_serializing_if",
                "serialize_with",
                "deserialize_with",
                "flatten",
                "getter",
                "borrow",
            ],
            &mut seen,
        )?;
        once_both_sides(meta, &mut seen)?;
        let path = &meta.path;
        if path.is_ident("rename") {
            if let Some(name) = deserialize_side(meta, "rename", &mut seen)? {
                out.rename = Some(name.value());
            }
        } else if path.is_ident("alias") {
            out.aliases.push(lit_str(meta)?.value());
        } else if path.is_ident("default") {
            out.default = parse_default(meta)?;
        } else if path.is_ident("skip") || path.is_ident("skip_deserializing") {
            out.skip = true;
        } else if path.is_ident("deserialize_with") {
            out.deserialize_with = Some(parse_path(&lit_str(meta)?)?);
        } else if path.is_ident("with") {
            let module = lit_str(meta)?;
            if !is_tickarena_module(&module) {
                out.deserialize_with = Some(with_module(&module)?);
            }
        } else if path.is_ident("flatten") {
            out.flatten = Some(syn::spanned::Spanned::span(path));
        } else if path.is_ident("bound") {
            out.bound = parse_bound(meta, &mut seen)?;
        } else if path.is_ident("skip_serializing")
            || path.is_ident("skip_serializing_if")
            || path.is_ident("serialize_with")
            || path.is_ident("getter")
            || path.is_ident("borrow")
        {
            // The serializing side's, and `borrow` (serde's `Deserialize`
            // borrowing from the input; `DeserializeIn` copies into the
            // arena): nothing for the decode to do.
            ignore_value(meta)?;
        } else {
            return Err(unknown(meta, "field"));
        }
        Ok(())
    });
    out
}

/// A variant's `#[serde(..)]`.
pub fn variant_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    let mut seen = Seen::default();
    each_item(attrs, errors, |meta| {
        once_of(
            meta,
            &[
                "skip_serializing",
                "skip_deserializing",
                "serialize_with",
                "deserialize_with",
                "other",
                "untagged",
                "borrow",
            ],
            &mut seen,
        )?;
        once_both_sides(meta, &mut seen)?;
        let path = &meta.path;
        let span = syn::spanned::Spanned::span(path);
        if path.is_ident("rename") {
            if let Some(name) = deserialize_side(meta, "rename", &mut seen)? {
                out.rename = Some(name.value());
            }
        } else if path.is_ident("alias") {
            out.aliases.push(lit_str(meta)?.value());
        } else if path.is_ident("rename_all") {
            if let Some(rule) = deserialize_side(meta, "rename_all", &mut seen)? {
                out.rename_all = RenameRule::parse(&rule)?;
            }
        } else if path.is_ident("skip") || path.is_ident("skip_deserializing") {
            out.skip = true;
        } else if path.is_ident("other") {
            out.other = Some(span);
        } else if path.is_ident("untagged") {
            out.untagged = Some(span);
        } else if path.is_ident("deserialize_with") {
            out.deserialize_with = Some(parse_path(&lit_str(meta)?)?);
        } else if path.is_ident("with") {
            out.deserialize_with = Some(with_module(&lit_str(meta)?)?);
        } else if path.is_ident("bound") {
            out.bound = parse_bound(meta, &mut seen)?;
        } else if path.is_ident("skip_serializing")
            || path.is_ident("serialize_with")
            || path.is_ident("borrow")
        {
            ignore_value(meta)?;
        } else {
            return Err(unknown(meta, "variant"));
        }
        Ok(())
    });
    out
}

/// Whether `ty` mentions `lifetime` anywhere (`&'a str`, `FrameVec<'a, T>`,
/// `Option<&'a [u8]>`).
pub fn mentions(ty: &syn::Type, lifetime: &Lifetime) -> bool {
    use quote::ToTokens;
    tokens_mention(ty.to_token_stream(), &lifetime.ident.to_string())
}

/// Whether `tokens` name the lifetime `'name` anywhere.
pub fn tokens_mention(tokens: proc_macro2::TokenStream, name: &str) -> bool {
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
    walk(tokens, name)
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
    use super::{RenameRule, depends_on};

    /// Every style on a variant's name and a field's (serde's tables).
    #[test]
    fn rename_rules_follow_serdes_styles() {
        use RenameRule::*;
        let cases = [
            (None, "VeryTasty", "very_tasty"),
            (Lower, "verytasty", "very_tasty"),
            (Upper, "VERYTASTY", "VERY_TASTY"),
            (Pascal, "VeryTasty", "VeryTasty"),
            (Camel, "veryTasty", "veryTasty"),
            (Snake, "very_tasty", "very_tasty"),
            (ScreamingSnake, "VERY_TASTY", "VERY_TASTY"),
            (Kebab, "very-tasty", "very-tasty"),
            (ScreamingKebab, "VERY-TASTY", "VERY-TASTY"),
        ];
        for (rule, variant, field) in cases {
            assert_eq!(rule.apply_to_variant("VeryTasty"), variant, "{rule:?}");
            assert_eq!(rule.apply_to_field("very_tasty"), field, "{rule:?}");
        }
        assert_eq!(Camel.apply_to_variant("A"), "a");
        assert_eq!(Snake.apply_to_variant("A"), "a");
        assert_eq!(Pascal.apply_to_field("a"), "A");
        assert_eq!(Camel.apply_to_field(""), "");
        assert_eq!(None.or(Kebab), Kebab);
        assert_eq!(Lower.or(Kebab), Lower);
    }

    #[test]
    fn an_unknown_rule_names_the_known_ones() {
        let error = RenameRule::parse(&syn::parse_quote!("Title Case")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown rename rule `rename_all = \"Title Case\"`, expected one of \"lowercase\", \
             \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \
             \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\""
        );
    }

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
