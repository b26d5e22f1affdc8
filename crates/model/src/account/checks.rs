//! The checks of a `PUT /account` body against the stored account
//! ([`validate_account_update`]): lengths, countries, VAT identifiers, phone numbers,
//! currencies, due days, SMTP settings. Errors name the field (`company_name`,
//! `smtp.port`, …).

use super::*;
use crate::error::messages;

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
fn vat_id_error(id: &str) -> Option<crate::error::Message> {
    crate::vat_id::check_vat_identifier(id)
        .err()
        .map(|e| e.message())
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
        push_error(e, field, messages::MUST_BE_AT_MOST_N_CHARACTERS.with([max]));
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
            push_error(&mut e, "name", messages::IS_REQUIRED);
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
            push_error(&mut e, "country_code", messages::MUST_BE_COUNTRY_CODE);
        }
    }
    if let Some(id) = given(&update.vat_identifier) {
        if let Some(message) = vat_id_error(&id) {
            push_error(&mut e, "vat_identifier", message);
        }
    }
    if let Some(iban) = given(&update.iban) {
        if !crate::sepa::is_valid_iban(&iban) {
            push_error(&mut e, "iban", messages::IS_NOT_VALID_IBAN_FORMAT);
        }
    }
    if let Some(bic) = given(&update.bic) {
        if !crate::master_data::is_bic(&compact_upper(&bic)) {
            push_error(&mut e, "bic", messages::MUST_BE_BIC);
        }
    }
    if let Some(email) = given(&update.email) {
        if !crate::email::is_address(&email) {
            push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS);
        }
    }
    if let Some(website) = given(&update.website) {
        if !crate::master_data::is_website(&website) {
            push_error(&mut e, "website", messages::IS_NOT_WEB_ADDRESS);
        }
    }
    if let Some(phone) = given(&update.phone) {
        if !is_phone(&phone) {
            push_error(&mut e, "phone", messages::IS_NOT_PHONE_NUMBER);
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
                messages::MUST_BE_BETWEEN_0_AND_N_DAYS.with([MAX_DUE_DAYS]),
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
        (
            "credit_note_number_format",
            &update.credit_note_number_format,
        ),
    ] {
        if let Some(message) = value.as_deref().and_then(crate::number_format::check) {
            push_error(&mut e, field, crate::error::Message::verbatim(message));
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
            push_error(e, "currencies", messages::MUST_LIST_AT_LEAST_ONE_CURRENCY);
        }
        let mut seen: Vec<String> = Vec::new();
        for c in list {
            let code = c.trim().to_ascii_uppercase();
            if !is_code(&code) {
                push_error(
                    e,
                    "currencies",
                    crate::error::messages::N_IS_NOT_CURRENCY_CODE.with([format!("{c:?}")]),
                );
            } else if seen.contains(&code) {
                push_error(e, "currencies", messages::N_IS_LISTED_TWICE.with([&code]));
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
            push_error(e, "default_currency", messages::IS_NOT_CURRENCY_CODE);
        } else if !currencies.is_empty() && !currencies.contains(&default) {
            push_error(
                e,
                "default_currency",
                messages::N_IS_NOT_ACCOUNT_CURRENCY.with([default]),
            );
        }
    }
}

/// Whether `h` (trimmed) can be a mail server's host name or address: at most 253
/// characters of letters, digits, `.`, `-`, `_` and `:` (IPv6) — the SMTP server's
/// (`smtp.host`) and the inbox's (`host`, issue 36) rule.
pub fn is_host_name(h: &str) -> bool {
    h.len() <= 253
        && h.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
}

fn check_smtp(e: &mut FieldErrors, smtp: &SmtpUpdate, configured: bool) {
    let is_host = is_host_name;
    match smtp.host.as_deref().map(str::trim) {
        Some("") | None if !configured || smtp.host.is_some() => {
            push_error(e, "smtp.host", messages::IS_REQUIRED);
        }
        Some(host) if !is_host(host) => push_error(e, "smtp.host", messages::IS_NOT_HOST_NAME),
        _ => {}
    }
    if smtp.port == Some(0) {
        push_error(
            e,
            "smtp.port",
            crate::error::messages::MUST_BE_BETWEEN_N_AND_N.with([1, 65535]),
        );
    }
    if let Some(user) = &smtp.user {
        check_length(e, "smtp.user", user, MAX_SETTING_LINE);
    }
    if let Some(password) = &smtp.password {
        check_length(e, "smtp.password", password, MAX_SETTING_LINE);
    }
}
