//! The account and the session (`decisions.md` § Account, § Authentication and keys;
//! issue 9 § The account's own data, `docs/decisions.md` § Account settings (issue 9)).
//!
//! [`Account`] is what `GET /account` answers; [`AccountUpdate`] is the partial body of
//! `PUT /account`, checked by [`validate_account_update`] (422 naming each bad field, the
//! same rules on the Settings page) and merged by [`apply_account_update`].

use crate::error::{push_error, FieldErrors};
use crate::party::Language;
use rust_decimal::Decimal;
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};

/// A configured letter paper: `{id, name, default}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LetterPaper {
    /// Letter paper id (`letter_paper_id`).
    pub id: i64,
    /// Name shown in choices.
    pub name: String,
    /// The default letter paper.
    pub default: bool,
}

/// The default texts of one language's documents (plain text, line breaks kept).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentText {
    /// Salutation above an invoice's positions.
    #[serde(default)]
    pub invoice_salutation: String,
    /// Footer text below an invoice's positions.
    #[serde(default)]
    pub invoice_footer: String,
    /// Salutation above an offer's positions.
    #[serde(default)]
    pub offer_salutation: String,
    /// Footer text below an offer's positions.
    #[serde(default)]
    pub offer_footer: String,
}

/// Default document texts per correspondence language: `{"de": {...}, "en": {...}}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentTexts {
    /// German documents.
    #[serde(default)]
    pub de: DocumentText,
    /// English documents.
    #[serde(default)]
    pub en: DocumentText,
}

impl DocumentTexts {
    /// The texts of `language` (`"en"`; anything else is German, the default).
    pub fn for_language(&self, language: &str) -> &DocumentText {
        if language == "en" {
            &self.en
        } else {
            &self.de
        }
    }

    /// The default `(salutation, footer)` of a new `kind` document for a customer whose
    /// correspondence language is `language` (issue 9 § The account's own data;
    /// `docs/decisions.md` § Default document texts (issue 9)). The texts are given in the
    /// notation of the document's salutation and footer (simple HTML): a text without any
    /// markup (no `<`) is plain text and its line breaks become `<br>` so they survive on
    /// the PDF; a text with markup is taken as it is. Empty texts stay empty. Never fails.
    pub fn defaults_for(&self, language: Language, kind: DocumentKind) -> (String, String) {
        let text = match language {
            Language::De => &self.de,
            Language::En => &self.en,
        };
        let (salutation, footer) = match kind {
            DocumentKind::Invoice => (&text.invoice_salutation, &text.invoice_footer),
            DocumentKind::Offer => (&text.offer_salutation, &text.offer_footer),
        };
        (as_document_html(salutation), as_document_html(footer))
    }
}

/// Which document a default text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    /// An invoice (`invoice_salutation`, `invoice_footer`).
    Invoice,
    /// An offer (`offer_salutation`, `offer_footer`).
    Offer,
}

/// A settings text in the salutation/footer notation: plain text (no `<`) gets `<br>` for
/// its line breaks (`\r\n` or `\n`); text with markup is kept.
fn as_document_html(text: &str) -> String {
    if text.contains('<') {
        text.to_owned()
    } else {
        text.replace("\r\n", "\n").replace('\n', "<br>")
    }
}

/// The account's logo: `{content_type, file_url}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Logo {
    /// `image/png` or `image/svg+xml` (a sanitized SVG).
    pub content_type: String,
    /// Signed link, valid for 15 minutes, that needs no key.
    pub file_url: String,
}

/// How the mail server is reached: STARTTLS (default, port 587), implicit TLS (465) or
/// plain (local relays and tests only, 25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// STARTTLS upgrade (port 587).
    #[default]
    Starttls,
    /// Implicit TLS (port 465).
    Tls,
    /// No encryption.
    None,
}

impl SmtpSecurity {
    /// The wire and column text: `starttls`, `tls`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            SmtpSecurity::Starttls => "starttls",
            SmtpSecurity::Tls => "tls",
            SmtpSecurity::None => "none",
        }
    }

    /// Reads the text [`SmtpSecurity::as_str`] writes.
    pub fn parse(text: &str) -> Option<SmtpSecurity> {
        match text {
            "starttls" => Some(SmtpSecurity::Starttls),
            "tls" => Some(SmtpSecurity::Tls),
            "none" => Some(SmtpSecurity::None),
            _ => None,
        }
    }

    /// The usual port of this security: 587, 465 or 25.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpSecurity::Starttls => 587,
            SmtpSecurity::Tls => 465,
            SmtpSecurity::None => 25,
        }
    }
}

/// The SMTP settings as `GET /account` shows them: the password never, only whether one
/// is set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmtpSettings {
    /// Server host name.
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// Transport security.
    pub security: SmtpSecurity,
    /// Login name, if the server wants one.
    pub user: Option<String>,
    /// Whether a password is stored (it is write-only).
    pub password_set: bool,
}

/// The account as the app's frame shows it: only its name, read from GET /account (the
/// other fields are ignored), so the first screen decodes no settings (issue 13).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountHead {
    /// The account's (company's) name.
    pub name: String,
}

/// GET /account: name, address, currencies (the default first), letter papers, and the
/// account's own data of issue 9 (legal, bank, contact, defaults, texts, number formats,
/// logo, SMTP), and the e-invoice fields of issue 10. Optional texts are `null` when not
/// set. `Account::default()` is an empty account with `factur_x` on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Account {
    /// Account (company) name, the sender on every document.
    pub name: String,
    /// Sender address, lines separated by `\n`.
    pub address: String,
    /// Country of the address, ISO 3166-1 alpha-2 upper case (`"DE"`).
    #[serde(default)]
    pub country_code: Option<String>,
    /// VAT identification number (USt-IdNr.), e.g. `DE123456789`, without spaces.
    #[serde(default)]
    pub vat_identifier: Option<String>,
    /// Tax number (Steuernummer) as the tax office writes it.
    #[serde(default)]
    pub tax_number: Option<String>,
    /// Register court (`Amtsgericht Berlin-Charlottenburg`).
    #[serde(default)]
    pub register_court: Option<String>,
    /// Register number (`HRB 123456`).
    #[serde(default)]
    pub register_number: Option<String>,
    /// Managing directors, as printed (`Anna Muster, Ben Beispiel`).
    #[serde(default)]
    pub managing_directors: Option<String>,
    /// Phone number.
    #[serde(default)]
    pub phone: Option<String>,
    /// E-mail address; also the sender (`From`) of e-mails.
    #[serde(default)]
    pub email: Option<String>,
    /// Website (`https://kontor.example` or `kontor.example`).
    #[serde(default)]
    pub website: Option<String>,
    /// Bank account holder.
    #[serde(default)]
    pub account_holder: Option<String>,
    /// IBAN, upper case without spaces.
    #[serde(default)]
    pub iban: Option<String>,
    /// BIC (8 or 11 characters), upper case.
    #[serde(default)]
    pub bic: Option<String>,
    /// Name of the bank.
    #[serde(default)]
    pub bank_name: Option<String>,
    /// Valid currency codes (ISO 4217); the first is the default.
    pub currencies: Vec<String>,
    /// The default currency.
    pub default_currency: String,
    /// Default VAT rate of new documents, in percent (0–100).
    #[serde(default, with = "crate::wire::decimal")]
    pub default_tax: Decimal,
    /// Default payment term of new invoices, in days (0–365).
    #[serde(default)]
    pub default_invoice_due_days: i64,
    /// Default salutation and footer texts per language.
    #[serde(default)]
    pub document_texts: DocumentTexts,
    /// Invoice number pattern (`crate::number_format`), default `R{YY}{MM}-{NNN}`.
    #[serde(default)]
    pub invoice_number_format: String,
    /// Offer number pattern, default `A{YY}{MM}-{NNN}`.
    #[serde(default)]
    pub offer_number_format: String,
    /// Purchase number pattern, default `E{YY}{MM}-{NNNN}`.
    #[serde(default)]
    pub purchase_number_format: String,
    /// Letter papers.
    pub letter_papers: Vec<LetterPaper>,
    /// The logo, `null` when none is set.
    #[serde(default)]
    pub logo: Option<Logo>,
    /// SMTP settings, `null` when messages go to the server's outbox.
    #[serde(default)]
    pub smtp: Option<SmtpSettings>,
    /// Electronic address of the seller for e-invoices (BT-34), at most 200 characters;
    /// `null` → `email` (issue 10 contract § New fields for e-invoices).
    #[serde(default)]
    pub electronic_address: Option<String>,
    /// SEPA creditor identifier (BT-90, e.g. `DE98ZZZ09999999999`), upper case without
    /// spaces; needed for direct-debit invoices ([`crate::sepa::creditor_identifier_error`]).
    #[serde(default)]
    pub sepa_creditor_identifier: Option<String>,
    /// Invoice PDFs are Factur-X (PDF/A-3b with `factur-x.xml`) whenever the invoice has
    /// what EN 16931 needs; default `true`.
    #[serde(default = "yes")]
    pub factur_x: bool,
    /// DATEV settings of the exports (issue 11): consultant and client number, fiscal
    /// year start, account length, revenue accounts (SKR03 defaults).
    #[serde(default)]
    pub datev: crate::datev::DatevSettings,
    /// Who may delete a finalized invoice that was neither sent nor paid: `admins` (with a
    /// reason; the default) or `never` (issue 29, GoBD; [`crate::status::check_invoice_delete`]).
    #[serde(default)]
    pub finalized_invoice_deletion: crate::status::FinalizedDeletion,
}

fn yes() -> bool {
    true
}

impl Default for Account {
    /// An empty account: no texts, no currencies, `factur_x` on.
    fn default() -> Self {
        Account {
            name: String::new(),
            address: String::new(),
            country_code: None,
            vat_identifier: None,
            tax_number: None,
            register_court: None,
            register_number: None,
            managing_directors: None,
            phone: None,
            email: None,
            website: None,
            account_holder: None,
            iban: None,
            bic: None,
            bank_name: None,
            currencies: Vec::new(),
            default_currency: String::new(),
            default_tax: Decimal::ZERO,
            default_invoice_due_days: 0,
            document_texts: DocumentTexts::default(),
            invoice_number_format: String::new(),
            offer_number_format: String::new(),
            purchase_number_format: String::new(),
            letter_papers: Vec::new(),
            logo: None,
            smtp: None,
            electronic_address: None,
            sepa_creditor_identifier: None,
            factur_x: true,
            datev: crate::datev::DatevSettings::default(),
            finalized_invoice_deletion: crate::status::FinalizedDeletion::Admins,
        }
    }
}

/// The texts of one language in [`AccountUpdate`]: only the given ones change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentTextUpdate {
    /// New invoice salutation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_salutation: Option<String>,
    /// New invoice footer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_footer: Option<String>,
    /// New offer salutation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_salutation: Option<String>,
    /// New offer footer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_footer: Option<String>,
}

/// `document_texts` in [`AccountUpdate`]: only the given languages and texts change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentTextsUpdate {
    /// German texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub de: Option<DocumentTextUpdate>,
    /// English texts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en: Option<DocumentTextUpdate>,
}

/// `smtp` in [`AccountUpdate`]: the given fields change; `host` is required when no SMTP
/// server is set yet. `password`: absent keeps the stored one, `""` removes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmtpUpdate {
    /// Server host name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// TCP port (1–65535); absent on a new setting → the security's usual port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// Transport security; absent on a new setting → `starttls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security: Option<SmtpSecurity>,
    /// Login name; `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// Password (write-only); `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
}

/// Reads a field that distinguishes absent (`None`) from `null` (`Some(None)`).
fn double_option<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// PUT /account: a partial update; absent fields (and `null`, `decisions.md` § Success
/// responses) stay as they are, an empty string removes an optional text. Exception:
/// `"smtp": null` removes the SMTP settings (messages go to the outbox again).
/// Letter papers, the logo (`PUT /account/logo`) are not changed here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountUpdate {
    /// Account name (required, cannot be emptied).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Sender address, lines separated by `\n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// ISO 3166-1 alpha-2 code (lower case accepted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    /// VAT ID (spaces dropped, upper-cased).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat_identifier: Option<String>,
    /// Tax number (Steuernummer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_number: Option<String>,
    /// Register court.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub register_court: Option<String>,
    /// Register number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub register_number: Option<String>,
    /// Managing directors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managing_directors: Option<String>,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// E-mail address (sender of e-mails).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Website.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website: Option<String>,
    /// Bank account holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_holder: Option<String>,
    /// IBAN (spaces dropped, upper-cased).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iban: Option<String>,
    /// BIC (upper-cased).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bic: Option<String>,
    /// Name of the bank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_name: Option<String>,
    /// Currency codes (at least one; upper-cased).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currencies: Option<Vec<String>>,
    /// The default currency; must be one of the currencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_currency: Option<String>,
    /// Default VAT rate in percent (0–100, at most 4 decimal places).
    #[serde(
        default,
        with = "crate::wire::decimal_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub default_tax: Option<Decimal>,
    /// Default payment term in days (0–365).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_invoice_due_days: Option<i64>,
    /// Default texts per language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_texts: Option<DocumentTextsUpdate>,
    /// Invoice number pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_number_format: Option<String>,
    /// Offer number pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_number_format: Option<String>,
    /// Purchase number pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_number_format: Option<String>,
    /// SMTP: absent = unchanged, `null` = removed (outbox), an object = changed.
    #[serde(
        default,
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub smtp: Option<Option<SmtpUpdate>>,
    /// Electronic address (BT-34), ≤ 200 characters; an e-mail address when it has `@`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub electronic_address: Option<String>,
    /// SEPA creditor identifier (BT-90; spaces dropped, upper-cased; check digits checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sepa_creditor_identifier: Option<String>,
    /// Factur-X PDFs on or off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factur_x: Option<bool>,
    /// DATEV settings (partial, [`crate::datev::DatevUpdate`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datev: Option<crate::datev::DatevUpdate>,
    /// Who may delete finalized invoices (`admins` or `never`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalized_invoice_deletion: Option<crate::status::FinalizedDeletion>,
}

/// Longest accepted single-line setting (name, register, bank name…), in characters.
pub const MAX_SETTING_LINE: usize = 200;
/// Longest accepted multi-line setting (address, document texts), in characters.
pub const MAX_SETTING_TEXT: usize = 20_000;
/// Most days a default payment term may have.
pub const MAX_DUE_DAYS: i64 = 365;

/// The text as stored: trimmed, `None` when empty.
pub fn clean(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// `text` without whitespace, upper-cased (IBAN, VAT ID, BIC, country code).
pub fn compact_upper(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether `code` is an ISO 3166-1 alpha-2 country code (upper case).
fn is_country(code: &str) -> bool {
    crate::country::is_country_code(code)
}

/// Why `id` is not a VAT ID (`crate::vat_id`), `None` when it is one.
fn vat_id_error(id: &str) -> Option<String> {
    crate::vat_id::check_vat_identifier(id)
        .err()
        .map(|e| e.to_string())
}

/// Whether `phone` is a phone number as people write it: digits with `+`, spaces,
/// `-`, `/`, `(`, `)`, at least 3 digits.
pub fn is_phone(phone: &str) -> bool {
    phone.chars().filter(char::is_ascii_digit).count() >= 3
        && phone
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '/' | '(' | ')' | '.'))
}

fn check_length(e: &mut FieldErrors, field: &str, value: &str, max: usize) {
    if value.chars().count() > max {
        push_error(e, field, format!("must be at most {max} characters"));
    }
}

/// Checks every field `update` gives (issue 9 § Bad input), against the current
/// `account` for the rules that span fields (the default currency must be one of the
/// currencies after the change; SMTP needs a host). Field paths are the wire names
/// (`iban`, `document_texts.de.invoice_footer`, `smtp.port`); empty strings are valid
/// for optional texts (they remove the value). Returns no errors when all is well.
pub fn validate_account_update(update: &AccountUpdate, account: &Account) -> FieldErrors {
    let mut e = FieldErrors::new();
    if let Some(name) = &update.name {
        if name.trim().is_empty() {
            push_error(&mut e, "name", "is required");
        }
        check_length(&mut e, "name", name, MAX_SETTING_LINE);
    }
    if let Some(address) = &update.address {
        check_length(&mut e, "address", address, MAX_SETTING_TEXT);
    }
    let lines = [
        ("tax_number", &update.tax_number),
        ("register_court", &update.register_court),
        ("register_number", &update.register_number),
        ("managing_directors", &update.managing_directors),
        ("account_holder", &update.account_holder),
        ("bank_name", &update.bank_name),
        ("phone", &update.phone),
        ("email", &update.email),
        ("website", &update.website),
    ];
    for (field, value) in lines {
        if let Some(v) = value {
            check_length(&mut e, field, v, MAX_SETTING_LINE);
        }
    }
    let given = |v: &Option<String>| v.as_deref().and_then(clean);
    if let Some(code) = given(&update.country_code) {
        if !is_country(&code.to_ascii_uppercase()) {
            push_error(
                &mut e,
                "country_code",
                "must be an ISO 3166-1 country code such as DE",
            );
        }
    }
    if let Some(id) = given(&update.vat_identifier) {
        if let Some(message) = vat_id_error(&id) {
            push_error(&mut e, "vat_identifier", message);
        }
    }
    if let Some(iban) = given(&update.iban) {
        if !crate::purchase::is_valid_iban(&iban) {
            push_error(
                &mut e,
                "iban",
                "is not a valid IBAN (country, check digits, account)",
            );
        }
    }
    if let Some(bic) = given(&update.bic) {
        if !crate::master_data::is_bic(&compact_upper(&bic)) {
            push_error(&mut e, "bic", "must be a BIC of 8 or 11 characters");
        }
    }
    if let Some(email) = given(&update.email) {
        if !crate::email::is_address(&email) {
            push_error(&mut e, "email", "is not an e-mail address");
        }
    }
    if let Some(website) = given(&update.website) {
        if !crate::master_data::is_website(&website) {
            push_error(&mut e, "website", "is not a web address");
        }
    }
    if let Some(phone) = given(&update.phone) {
        if !is_phone(&phone) {
            push_error(&mut e, "phone", "is not a phone number");
        }
    }
    crate::sepa::check_einvoice_fields(
        &mut e,
        &crate::sepa::EinvoiceTexts {
            electronic_address: update.electronic_address.as_deref(),
            sepa_creditor_identifier: update.sepa_creditor_identifier.as_deref(),
            ..Default::default()
        },
    );
    check_currencies(&mut e, update, account);
    crate::validation::percent(&mut e, "default_tax", update.default_tax);
    if let Some(days) = update.default_invoice_due_days {
        if !(0..=MAX_DUE_DAYS).contains(&days) {
            push_error(
                &mut e,
                "default_invoice_due_days",
                format!("must be between 0 and {MAX_DUE_DAYS} days"),
            );
        }
    }
    if let Some(texts) = &update.document_texts {
        for (language, t) in [("de", &texts.de), ("en", &texts.en)] {
            let Some(t) = t else { continue };
            for (name, value) in [
                ("invoice_salutation", &t.invoice_salutation),
                ("invoice_footer", &t.invoice_footer),
                ("offer_salutation", &t.offer_salutation),
                ("offer_footer", &t.offer_footer),
            ] {
                if let Some(v) = value {
                    let field = format!("document_texts.{language}.{name}");
                    check_length(&mut e, &field, v, MAX_SETTING_TEXT);
                }
            }
        }
    }
    for (field, value) in [
        ("invoice_number_format", &update.invoice_number_format),
        ("offer_number_format", &update.offer_number_format),
        ("purchase_number_format", &update.purchase_number_format),
    ] {
        if let Some(message) = value.as_deref().and_then(crate::number_format::check) {
            push_error(&mut e, field, message);
        }
    }
    if let Some(Some(smtp)) = &update.smtp {
        check_smtp(&mut e, smtp, account.smtp.is_some());
    }
    if let Some(datev) = &update.datev {
        crate::datev::check_update(&mut e, datev, &account.datev);
    }
    e
}

fn check_currencies(e: &mut FieldErrors, update: &AccountUpdate, account: &Account) {
    let is_code = |c: &str| c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic());
    if let Some(list) = &update.currencies {
        if list.is_empty() {
            push_error(e, "currencies", "must list at least one currency");
        }
        let mut seen: Vec<String> = Vec::new();
        for c in list {
            let code = c.trim().to_ascii_uppercase();
            if !is_code(&code) {
                push_error(
                    e,
                    "currencies",
                    format!("{c:?} is not a currency code such as EUR"),
                );
            } else if seen.contains(&code) {
                push_error(e, "currencies", format!("{code} is listed twice"));
            }
            seen.push(code);
        }
    }
    let currencies: Vec<String> = match &update.currencies {
        Some(list) => list.iter().map(|c| c.trim().to_ascii_uppercase()).collect(),
        None => account.currencies.clone(),
    };
    let default = update
        .default_currency
        .as_deref()
        .map(|c| c.trim().to_ascii_uppercase())
        .unwrap_or_else(|| account.default_currency.clone());
    if update.default_currency.is_some() || update.currencies.is_some() {
        if !is_code(&default) {
            push_error(e, "default_currency", "is not a currency code such as EUR");
        } else if !currencies.is_empty() && !currencies.contains(&default) {
            push_error(
                e,
                "default_currency",
                format!("{default} is not one of the account's currencies"),
            );
        }
    }
}

fn check_smtp(e: &mut FieldErrors, smtp: &SmtpUpdate, configured: bool) {
    let is_host = |h: &str| {
        h.len() <= 253
            && h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
    };
    match smtp.host.as_deref().map(str::trim) {
        Some("") | None if !configured || smtp.host.is_some() => {
            push_error(e, "smtp.host", "is required");
        }
        Some(host) if !is_host(host) => push_error(e, "smtp.host", "is not a host name"),
        _ => {}
    }
    if smtp.port == Some(0) {
        push_error(e, "smtp.port", "must be between 1 and 65535");
    }
    if let Some(user) = &smtp.user {
        check_length(e, "smtp.user", user, MAX_SETTING_LINE);
    }
    if let Some(password) = &smtp.password {
        check_length(e, "smtp.password", password, MAX_SETTING_LINE);
    }
}

/// Sets `target` from a given optional text: absent keeps it, empty removes it;
/// `normalize` shapes what is stored.
fn set_optional(
    target: &mut Option<String>,
    value: &Option<String>,
    normalize: fn(&str) -> String,
) {
    if let Some(v) = value {
        *target = clean(v).map(|v| normalize(&v));
    }
}

fn keep(text: &str) -> String {
    text.to_string()
}

fn set_text(target: &mut String, value: &Option<String>) {
    if let Some(v) = value {
        *target = v.clone();
    }
}

/// Merges a checked `update` into `account` (everything except `smtp`, `logo` and
/// `letter_papers`, which the server keeps): texts trimmed (multi-line texts kept as
/// given), optional texts emptied to `None`, codes upper-cased and IBAN / VAT ID / BIC
/// without spaces, the default currency moved to the front of `currencies`.
pub fn apply_account_update(update: &AccountUpdate, account: &mut Account) {
    if let Some(name) = &update.name {
        account.name = name.trim().to_string();
    }
    set_text(&mut account.address, &update.address);
    set_optional(
        &mut account.country_code,
        &update.country_code,
        compact_upper,
    );
    set_optional(
        &mut account.vat_identifier,
        &update.vat_identifier,
        crate::vat_id::normalize_vat_identifier,
    );
    set_optional(&mut account.tax_number, &update.tax_number, keep);
    set_optional(&mut account.register_court, &update.register_court, keep);
    set_optional(&mut account.register_number, &update.register_number, keep);
    set_optional(
        &mut account.managing_directors,
        &update.managing_directors,
        keep,
    );
    set_optional(&mut account.phone, &update.phone, keep);
    set_optional(&mut account.email, &update.email, keep);
    set_optional(&mut account.website, &update.website, keep);
    set_optional(&mut account.account_holder, &update.account_holder, keep);
    set_optional(&mut account.iban, &update.iban, compact_upper);
    set_optional(&mut account.bic, &update.bic, compact_upper);
    set_optional(&mut account.bank_name, &update.bank_name, keep);
    set_optional(
        &mut account.electronic_address,
        &update.electronic_address,
        keep,
    );
    set_optional(
        &mut account.sepa_creditor_identifier,
        &update.sepa_creditor_identifier,
        crate::sepa::normalize_creditor_identifier,
    );
    if let Some(on) = update.factur_x {
        account.factur_x = on;
    }
    if let Some(policy) = update.finalized_invoice_deletion {
        account.finalized_invoice_deletion = policy;
    }
    if let Some(datev) = &update.datev {
        crate::datev::apply_update(datev, &mut account.datev);
    }
    if let Some(list) = &update.currencies {
        account.currencies = list.iter().map(|c| c.trim().to_ascii_uppercase()).collect();
    }
    if let Some(default) = &update.default_currency {
        account.default_currency = default.trim().to_ascii_uppercase();
    }
    if !account.currencies.contains(&account.default_currency) {
        account.default_currency = account.currencies.first().cloned().unwrap_or_default();
    }
    let default = account.default_currency.clone();
    account.currencies.retain(|c| *c != default);
    account.currencies.insert(0, default);
    if let Some(tax) = update.default_tax {
        account.default_tax = tax;
    }
    if let Some(days) = update.default_invoice_due_days {
        account.default_invoice_due_days = days;
    }
    if let Some(texts) = &update.document_texts {
        for (given, target) in [
            (&texts.de, &mut account.document_texts.de),
            (&texts.en, &mut account.document_texts.en),
        ] {
            if let Some(t) = given {
                set_text(&mut target.invoice_salutation, &t.invoice_salutation);
                set_text(&mut target.invoice_footer, &t.invoice_footer);
                set_text(&mut target.offer_salutation, &t.offer_salutation);
                set_text(&mut target.offer_footer, &t.offer_footer);
            }
        }
    }
    for (given, target) in [
        (
            &update.invoice_number_format,
            &mut account.invoice_number_format,
        ),
        (
            &update.offer_number_format,
            &mut account.offer_number_format,
        ),
        (
            &update.purchase_number_format,
            &mut account.purchase_number_format,
        ),
    ] {
        if let Some(f) = given {
            *target = f.trim().to_string();
        }
    }
}

/// GET /session: `{"id": <user id>, "uuid": "<key uuid>"}` plus the key's name and access.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Session {
    /// The user the key acts for.
    pub id: i64,
    /// The key's public uuid.
    pub uuid: String,
    /// The key's name (shown in the top bar).
    #[serde(default)]
    pub name: String,
    /// True for a read-only key.
    #[serde(default)]
    pub read_only: bool,
    /// The user the key acts for (issue 12); `None` in older answers.
    #[serde(default)]
    pub user: Option<crate::users::User>,
    /// `session` (from sign-in) or `api` (issue 12); `None` in older answers.
    #[serde(default)]
    pub kind: Option<String>,
}

#[cfg(test)]
mod tests;
