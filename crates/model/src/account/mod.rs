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
    /// Credit note number pattern, default `G{YY}{MM}-{NNN}` (issue 33).
    #[serde(default)]
    pub credit_note_number_format: String,
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
    /// When the customer signs an offer online, create its order confirmation and e-mail
    /// it to the offer's default recipients at once (issue 31); default `false`.
    #[serde(default)]
    pub offer_confirmation_on_approval: bool,
    /// Whether EUR invoices and reminders print a GiroCode (EPC QR code) beside the payment
    /// line when the account has an IBAN (issue 32, [`crate::girocode`]); default `true`.
    #[serde(default = "yes")]
    pub girocode: bool,
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
            credit_note_number_format: String::new(),
            letter_papers: Vec::new(),
            logo: None,
            smtp: None,
            electronic_address: None,
            sepa_creditor_identifier: None,
            factur_x: true,
            datev: crate::datev::DatevSettings::default(),
            finalized_invoice_deletion: crate::status::FinalizedDeletion::Admins,
            offer_confirmation_on_approval: false,
            girocode: true,
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

mod checks;
mod update;

pub use checks::*;
pub use update::*;

#[cfg(test)]
mod tests;
