//! `PUT /account`'s body ([`AccountUpdate`]: present fields change, `null` clears an
//! optional one) and how it is applied to the stored account ([`apply_account_update`]).

use super::*;

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
    /// Credit note number pattern (issue 33).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_note_number_format: Option<String>,
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
    /// Order confirmation created and sent automatically on online signing (issue 31).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_confirmation_on_approval: Option<bool>,
    /// The GiroCode on EUR invoices and reminders (issue 32); `null` keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub girocode: Option<bool>,
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
    if let Some(on) = update.girocode {
        account.girocode = on;
    }
    if let Some(on) = update.offer_confirmation_on_approval {
        account.offer_confirmation_on_approval = on;
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
        (
            &update.credit_note_number_format,
            &mut account.credit_note_number_format,
        ),
    ] {
        if let Some(f) = given {
            *target = f.trim().to_string();
        }
    }
}
