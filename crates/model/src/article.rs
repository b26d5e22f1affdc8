//! The catalogue of issue 33 (`docs/decisions.md` § Articles and text snippets (issue 33)):
//! **articles** — priced services and goods a position can be filled from, like MOCO's
//! `catalog_services` — and **text snippets** — named salutations, footers and e-mail
//! texts per language. Wire types, creation bodies and the rules over them, shared by the
//! server (`/articles`, `/text_snippets`) and a future form.
//!
//! The rules return [`FieldErrors`] keyed by the body's wire names (`unit_price`,
//! `language`); what needs the database or the account is added by the server: that no
//! other article has the number ([`article_number_key`] is what must be unique) and which
//! currencies the account has (passed in as `currencies`).
//!
//! A document never refers to an article: a position made from one copies its values, so
//! changing or deleting an article leaves every invoice and offer as it was.

use crate::error::messages;
use crate::error::{push_error, require_text, FieldErrors};
use crate::limits::{check_price, percent, MAX_TEXT};
use crate::party::Language;
use crate::position_vat::TaxCategory;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

fn yes() -> bool {
    true
}

/// Longest article `title`, in characters (after trimming).
pub const MAX_ARTICLE_TITLE: usize = 200;
/// Longest article `number`, in characters (after trimming).
pub const MAX_ARTICLE_NUMBER: usize = 50;
/// Longest article `unit` (`h`, `Stk.`, `Tag`), in characters (after trimming). Shorter
/// than a position's unit ([`crate::limits::MAX_LINE`]), so a copied unit always fits.
pub const MAX_ARTICLE_UNIT: usize = 20;
/// Longest article `description` (HTML, like a position's), in characters.
pub const MAX_ARTICLE_DESCRIPTION: usize = MAX_TEXT;
/// The currency of an article when neither the body nor the account names one.
pub const FALLBACK_CURRENCY: &str = "EUR";

/// An article (`GET /articles/{id}`): a service or good with its price, ready to be
/// copied into an invoice or offer position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Article {
    /// Record id.
    pub id: i64,
    /// The article's own number (`"B-100"`), unique among articles regardless of case;
    /// `null` when it has none.
    pub number: Option<String>,
    /// What a position made from it is titled (1–200 characters).
    pub title: String,
    /// The position's description (HTML, sanitized like a position's); `null` when none.
    pub description: Option<String>,
    /// Unit of the quantity (`h`, `Stk.`; ≤ 20 characters); `null` when none.
    pub unit: Option<String>,
    /// Net price of one unit in `currency` units (decimal, at most the currency's minor
    /// unit + 4 places, strictly between −10^15 and 10^15); `null` when the article has
    /// no fixed price.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub unit_price: Option<Decimal>,
    /// ISO 4217 code of `unit_price`, one of the account's currencies.
    pub currency: String,
    /// The position's VAT category (the values positions take); `null`: derived from the
    /// document, as for a position.
    pub tax_category: Option<TaxCategory>,
    /// The position's VAT rate in percent (0–100, at most 4 places); `null`: the
    /// document's rate, as for a position.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// `false` once archived (kept, but no longer offered for new positions).
    #[serde(default = "yes")]
    pub active: bool,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// `POST /articles` body, and the fields a `PUT /articles/{id}` changes (absent:
/// unchanged; `null`: cleared, except [`ARTICLE_KEEP_ON_NULL`]). Every field is optional
/// in the type so that a missing `title` is a 422 naming it ([`validate_article`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewArticle {
    /// Optional number, ≤ 50 characters, unique among articles regardless of case
    /// (422 on `number` when another article has it). Blank: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// Required: title, 1–200 characters (trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description (HTML, ≤ 20,000 characters). Blank: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Unit, ≤ 20 characters. Blank: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Net unit price in currency units (a JSON number; the range and places of a
    /// position's unit price in `currency`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::decimal_option"
    )]
    pub unit_price: Option<Decimal>,
    /// One of the account's currencies; default the account's default currency (else
    /// EUR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// VAT category (`standard`, `reduced`, `zero`, `exempt`, `reverse_charge`,
    /// `intra_eu`, `export`); absent: derived from the document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_category: Option<TaxCategory>,
    /// VAT rate in percent, 0–100 with at most 4 places; absent: the document's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::decimal_option"
    )]
    pub tax: Option<Decimal>,
    /// `false` archives, `true` restores; default (create) `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

impl From<&Article> for NewArticle {
    /// The full body of a stored article (the base a partial update is merged onto).
    fn from(a: &Article) -> Self {
        NewArticle {
            number: a.number.clone(),
            title: Some(a.title.clone()),
            description: a.description.clone(),
            unit: a.unit.clone(),
            unit_price: a.unit_price,
            currency: Some(a.currency.clone()),
            tax_category: a.tax_category,
            tax: a.tax,
            active: Some(a.active),
        }
    }
}

/// Fields of an article body that cannot be empty: `null` for them in a partial update
/// leaves the stored value (for every other field `null` clears it).
pub const ARTICLE_KEEP_ON_NULL: &[&str] = &["title", "currency", "active"];

/// `Some(trimmed)` for a text with content, `None` for absent or blank.
fn filled(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

fn max_chars(e: &mut FieldErrors, field: &str, value: Option<&str>, max: usize) {
    if value.is_some_and(|v| v.chars().count() > max) {
        push_error(e, field, messages::MUST_BE_AT_MOST_N_CHARACTERS.with([max]));
    }
}

/// Brings an article body into its stored form: `title`, `number`, `unit` and `currency`
/// trimmed; blank `number`, `unit`, `description` and `currency` absent. Run after
/// [`validate_article`] accepted the body.
pub fn normalize_article(body: &mut NewArticle) {
    body.title = body.title.as_deref().map(|t| t.trim().to_string());
    for field in [
        &mut body.number,
        &mut body.unit,
        &mut body.currency,
        &mut body.description,
    ] {
        *field = filled(field);
    }
}

/// The currency an article body is stored in: the body's (trimmed, when not blank), else
/// the account's default (the first of `currencies`), else [`FALLBACK_CURRENCY`].
pub fn article_currency(body: &NewArticle, currencies: &[String]) -> String {
    filled(&body.currency)
        .or_else(|| currencies.first().cloned())
        .unwrap_or_else(|| FALLBACK_CURRENCY.to_string())
}

/// The form of an article number that must be unique: trimmed and in lower case
/// (Unicode included), so `b-100`, ` B-100 ` and `B-100` are one number. `None` for a
/// blank or absent number (any number of articles may have none).
pub fn article_number_key(number: Option<&str>) -> Option<String> {
    number
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_lowercase)
}

/// Checks an article body (create, or a partial update merged onto the stored article)
/// against the account's `currencies` (its default first):
///
/// - `title` required and not blank (`is_required`), at most [`MAX_ARTICLE_TITLE`]
///   characters after trimming;
/// - `number` at most [`MAX_ARTICLE_NUMBER`], `unit` at most [`MAX_ARTICLE_UNIT`],
///   `description` at most [`MAX_ARTICLE_DESCRIPTION`] characters;
/// - `currency`, when given, one of `currencies`;
/// - `unit_price`: the rule of a position's unit price ([`check_price`]: strictly between
///   −10^15 and 10^15, at most the currency's minor unit + 4 places) in the article's
///   currency ([`article_currency`]);
/// - `tax`: the rule of a position's `tax` ([`percent`]: 0–100, at most 4 places), and —
///   as for a position — a given category that charges VAT (`standard`, `reduced`)
///   needs a rate above 0 when a rate is given, the other categories a rate of 0.
///
/// Unknown `tax_category` words are refused when the body is read (422 naming the
/// field); that the number is free is the server's check.
pub fn validate_article(body: &NewArticle, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "title", body.title.as_ref());
    max_chars(
        &mut e,
        "title",
        body.title.as_deref().map(str::trim),
        MAX_ARTICLE_TITLE,
    );
    max_chars(
        &mut e,
        "number",
        body.number.as_deref().map(str::trim),
        MAX_ARTICLE_NUMBER,
    );
    max_chars(
        &mut e,
        "unit",
        body.unit.as_deref().map(str::trim),
        MAX_ARTICLE_UNIT,
    );
    max_chars(
        &mut e,
        "description",
        body.description.as_deref(),
        MAX_ARTICLE_DESCRIPTION,
    );
    if let Some(c) = filled(&body.currency) {
        if !currencies.contains(&c) {
            push_error(
                &mut e,
                "currency",
                messages::MUST_BE_ACCOUNT_CURRENCY_OF_N.with([currencies.join(", ")]),
            );
        }
    }
    check_price(
        &mut e,
        "unit_price",
        body.unit_price,
        &article_currency(body, currencies),
    );
    let before = e.len();
    percent(&mut e, "tax", body.tax);
    if e.len() == before {
        check_tax_and_category(&mut e, body.tax, body.tax_category);
    }
    e
}

/// A given rate against a given category, with the messages positions use: above 0 for
/// `standard` and `reduced`, 0 for every other category. Nothing to check while either
/// is absent (the document supplies it when the article becomes a position).
fn check_tax_and_category(
    e: &mut FieldErrors,
    tax: Option<Decimal>,
    category: Option<TaxCategory>,
) {
    let (Some(tax), Some(category)) = (tax, category) else {
        return;
    };
    if category.charges_tax() && tax <= Decimal::ZERO {
        push_error(
            e,
            "tax",
            messages::MUST_BE_GREATER_THAN_0_FOR_N_POSITION.with([category]),
        );
    } else if !category.charges_tax() && tax > Decimal::ZERO {
        push_error(
            e,
            "tax",
            messages::MUST_BE_0_FOR_N_POSITION.with([category]),
        );
    }
}

/// The errors of an article's partial update that the patch is answerable for: those of
/// the fields it names, as for master data ([`crate::master_data::errors_of_patch`]);
/// and, when it changes `currency`, those of the stored `unit_price` too (its places
/// depend on the currency), and when it changes `tax_category`, those of `tax`.
pub fn errors_of_article_patch(errors: FieldErrors, patch: &Value) -> FieldErrors {
    let Value::Object(fields) = patch else {
        return errors;
    };
    errors
        .into_iter()
        .filter(|(path, _)| {
            fields.contains_key(path.as_str())
                || (path == "unit_price" && fields.contains_key("currency"))
                || (path == "tax" && fields.contains_key("tax_category"))
        })
        .collect()
}

/// What a text snippet is for: a document's salutation or footer (HTML, like the fields
/// of an invoice or offer) or an e-mail's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SnippetKind {
    /// The text above a document's positions.
    Salutation,
    /// The text below a document's positions.
    Footer,
    /// The text of an e-mail (`send_email`'s `text`).
    Email,
}

impl SnippetKind {
    /// All kinds, in the order a form offers them.
    pub const ALL: [SnippetKind; 3] = [
        SnippetKind::Salutation,
        SnippetKind::Footer,
        SnippetKind::Email,
    ];

    /// The wire name (`"salutation"`).
    pub fn as_str(self) -> &'static str {
        match self {
            SnippetKind::Salutation => "salutation",
            SnippetKind::Footer => "footer",
            SnippetKind::Email => "email",
        }
    }

    /// Parses a wire name (exactly `salutation`, `footer` or `email`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// Longest text snippet `name`, in characters (after trimming).
pub const MAX_SNIPPET_NAME: usize = 100;
/// Longest text snippet `text`, in characters.
pub const MAX_SNIPPET_TEXT: usize = 10_000;

/// A text snippet (`GET /text_snippets/{id}`): a named text to put into a document's
/// salutation or footer, or an e-mail, in one language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TextSnippet {
    /// Record id.
    pub id: i64,
    /// The name a person picks it by (1–100 characters).
    pub name: String,
    /// What it is for: `salutation`, `footer` or `email`.
    pub kind: SnippetKind,
    /// Its language: `de` or `en`.
    pub language: Language,
    /// The text as written (1–10,000 characters; salutations and footers in the simple
    /// HTML of those fields).
    pub text: String,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// `POST /text_snippets` body, and the fields a `PUT /text_snippets/{id}` changes
/// (absent or `null`: unchanged — no field of a snippet can be empty).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewTextSnippet {
    /// Required: name, 1–100 characters (trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Required: `salutation`, `footer` or `email` (another word: 422 on `kind`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<SnippetKind>,
    /// Required: `de` or `en` (another word: 422 on `language`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Required: the text, not blank, at most 10,000 characters; stored as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl From<&TextSnippet> for NewTextSnippet {
    /// The full body of a stored snippet (the base a partial update is merged onto).
    fn from(s: &TextSnippet) -> Self {
        NewTextSnippet {
            name: Some(s.name.clone()),
            kind: Some(s.kind),
            language: Some(s.language),
            text: Some(s.text.clone()),
        }
    }
}

/// Every field of a snippet is required, so `null` in a partial update leaves each one.
pub const TEXT_SNIPPET_KEEP_ON_NULL: &[&str] = &["name", "kind", "language", "text"];

/// Checks a text snippet body (create, or a partial update merged onto the stored
/// snippet): `name` required and not blank, at most [`MAX_SNIPPET_NAME`] characters after
/// trimming; `kind` and `language` required; `text` required and not blank, at most
/// [`MAX_SNIPPET_TEXT`] characters. A `kind` or `language` outside its words is refused
/// when the body is read (422 naming the field).
pub fn validate_text_snippet(body: &NewTextSnippet) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    max_chars(
        &mut e,
        "name",
        body.name.as_deref().map(str::trim),
        MAX_SNIPPET_NAME,
    );
    if body.kind.is_none() {
        push_error(&mut e, "kind", messages::IS_REQUIRED);
    }
    if body.language.is_none() {
        push_error(&mut e, "language", messages::IS_REQUIRED);
    }
    require_text(&mut e, "text", body.text.as_ref());
    max_chars(&mut e, "text", body.text.as_deref(), MAX_SNIPPET_TEXT);
    e
}

/// Brings a snippet body into its stored form: the name trimmed (the text stays as
/// written).
pub fn normalize_text_snippet(body: &mut NewTextSnippet) {
    body.name = body.name.as_deref().map(|n| n.trim().to_string());
}

/// A text field's text `current` with text snippet `snippet` put in (issue 33: snippets
/// are offered in the forms): the snippet alone when `current` is blank, else below the
/// text already there after a blank line — a snippet never replaces what was typed.
pub fn insert_snippet(current: &str, snippet: &str) -> String {
    if current.trim().is_empty() {
        snippet.to_string()
    } else {
        format!("{}\n\n{snippet}", current.trim_end())
    }
}

#[cfg(test)]
mod tests;
