//! What a document (invoice or offer PDF) prints about the account (issue 9 § Documents
//! show it): the sender, the legal footer of § 14 UStG, bank, register, contact, the
//! default texts and the logo's bytes. One read of the settings row plus the logo file.

use super::repo;
use crate::http::error::ApiResult;
use crate::store::storage::{Area, FileStore};
use kontor_model::account::DocumentTexts;
use rust_decimal::Decimal;

/// The logo as stored: a PNG or an already sanitized SVG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogoFile {
    /// `image/png` or `image/svg+xml`.
    pub content_type: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Everything a document needs about the account. Optional texts are `None` when not
/// set (print nothing for them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AccountProfile {
    /// Full name of the supplier (§ 14 UStG).
    pub name: String,
    /// Full address, lines separated by `\n` (§ 14 UStG).
    pub address: String,
    /// Country of the address (ISO 3166-1 alpha-2).
    pub country_code: Option<String>,
    /// VAT ID (§ 14 UStG: this or the tax number).
    pub vat_identifier: Option<String>,
    /// Tax number (Steuernummer).
    pub tax_number: Option<String>,
    /// Register court.
    pub register_court: Option<String>,
    /// Register number.
    pub register_number: Option<String>,
    /// Managing directors.
    pub managing_directors: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// E-mail.
    pub email: Option<String>,
    /// Website.
    pub website: Option<String>,
    /// Bank account holder.
    pub account_holder: Option<String>,
    /// IBAN, upper case without spaces (group it by four for print).
    pub iban: Option<String>,
    /// BIC.
    pub bic: Option<String>,
    /// Bank name.
    pub bank_name: Option<String>,
    /// Default VAT rate in percent.
    pub default_tax: Decimal,
    /// Default payment term in days.
    pub default_invoice_due_days: i64,
    /// Default salutation and footer texts per language.
    pub document_texts: DocumentTexts,
    /// The logo, `None` when none is set (or its file has gone missing, which is logged).
    pub logo: Option<LogoFile>,
    /// Whether EUR invoices and reminders print a GiroCode (issue 32; Settings, default on).
    pub girocode: bool,
}

/// The account as documents print it, read from the database and the file store
/// (`files`, where the logo lives). Errors: 500 when the settings row is missing or
/// corrupt, or the store fails; a missing logo file is only logged.
pub async fn document_profile(
    pool: &crate::sql::Db,
    files: &FileStore,
) -> ApiResult<AccountProfile> {
    let settings = repo::load(pool).await?;
    let logo = match &settings.logo {
        Some(stored) => match files.get(Area::AccountLogo, &stored.key).await? {
            Some(bytes) => Some(LogoFile {
                content_type: stored.content_type.clone(),
                bytes,
            }),
            None => {
                tracing::warn!(key = %stored.key, "the account logo file is missing");
                None
            }
        },
        None => None,
    };
    let a = settings.account;
    Ok(AccountProfile {
        name: a.name,
        address: a.address,
        country_code: a.country_code,
        vat_identifier: a.vat_identifier,
        tax_number: a.tax_number,
        register_court: a.register_court,
        register_number: a.register_number,
        managing_directors: a.managing_directors,
        phone: a.phone,
        email: a.email,
        website: a.website,
        account_holder: a.account_holder,
        iban: a.iban,
        bic: a.bic,
        bank_name: a.bank_name,
        default_tax: a.default_tax,
        default_invoice_due_days: a.default_invoice_due_days,
        document_texts: a.document_texts,
        logo,
        girocode: a.girocode,
    })
}
