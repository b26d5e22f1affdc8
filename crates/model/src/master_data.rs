//! Rules of the master data (issue 9 § Master data; contract § Company, § Person,
//! § Project, § Deal), shared by the forms and the server: normalizing and checking the
//! bodies of companies, contact people, projects and deals, the BIC and website forms, and
//! partial updates (a PUT body merged onto the stored record).
//!
//! Checks return [`FieldErrors`] keyed by the body's wire names (`vat_identifier`,
//! `customer_vat.tax`, `tags[1]`); a blank optional text counts as absent. What needs the
//! database or the account (does the company exist, is the currency one of the account's)
//! is checked by the server on top.

use crate::country::is_country_code;
use crate::email::{is_address, split_addresses};
use crate::error::messages;
use crate::error::{push_error, require_text, FieldErrors};
use crate::limits::{percent, MAX_LINE, MAX_TEXT};
use crate::party::{
    check_account_number, AccountKind, NewCompany, NewDeal, NewPerson, NewProject, DEAL_STATUSES,
};
use crate::sepa::is_valid_iban;
use crate::vat_id::{check_vat_identifier, normalize_vat_identifier};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Longest payment term or cash discount period, in days.
pub const MAX_DAYS: i64 = 365;

/// Whether `bic` is a BIC (ISO 9362): 4 letters (bank), an ISO 3166-1 country code,
/// 2 letters or digits (location) and optionally 3 letters or digits (branch) — 8 or 11
/// characters, upper case, no spaces.
pub fn is_bic(bic: &str) -> bool {
    let b = bic.as_bytes();
    bic.is_ascii()
        && (b.len() == 8 || b.len() == 11)
        && b[..4].iter().all(u8::is_ascii_uppercase)
        && is_country_code(&bic[4..6])
        && b[6..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// Whether `url` is a website address: optionally `http://` or `https://`, then a host name
/// with at least one dot (labels of letters, digits and `-`, not starting or ending with
/// `-`; a top-level label of at least 2 letters), an optional port and an optional path;
/// no spaces, at most [`MAX_LINE`] characters. `example.com`, `https://www.example.com/de`
/// pass; `ftp://x.example`, `localhost`, `http://` and `bad host.com` do not.
pub fn is_website(url: &str) -> bool {
    if url.is_empty() || url.chars().count() > MAX_LINE || url.contains(char::is_whitespace) {
        return false;
    }
    let lower = url.to_ascii_lowercase();
    let rest = if let Some(r) = lower.strip_prefix("https://") {
        r
    } else if let Some(r) = lower.strip_prefix("http://") {
        r
    } else if lower.contains("://") {
        return false;
    } else {
        &lower
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (host, port) = match authority.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    };
    if port.is_some_and(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 5) {
        return false;
    }
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld = labels[labels.len() - 1];
    labels.iter().all(label_ok) && tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic)
}

/// `Some(trimmed)` for a text with content, `None` for absent or blank.
fn filled(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// Brings a company body into its stored form: texts trimmed and blank optional texts
/// absent; `country_code` and `bic` upper case; `iban` upper case without spaces;
/// `vat_identifier` in compact form ([`normalize_vat_identifier`]); tags trimmed, blank
/// and repeated ones dropped; `default_invoice_due_days` filled from `payment_term_days`;
/// the e-invoice texts (`buyer_reference`, `electronic_address`, `sepa_mandate_reference`)
/// trimmed, blank ones absent.
pub fn normalize_company(body: &mut NewCompany) {
    body.name = body.name.as_deref().map(|n| n.trim().to_string());
    body.address = body.address.as_deref().map(|a| a.trim().to_string());
    for field in [
        &mut body.email,
        &mut body.billing_email_cc,
        &mut body.phone,
        &mut body.website,
        &mut body.tax_number,
        &mut body.info,
        &mut body.currency,
        &mut body.buyer_reference,
        &mut body.electronic_address,
        &mut body.sepa_mandate_reference,
    ] {
        *field = filled(field);
    }
    body.country_code = filled(&body.country_code).map(|c| c.to_uppercase());
    body.bic = filled(&body.bic).map(|b| b.replace(' ', "").to_uppercase());
    body.iban = filled(&body.iban).map(|i| i.replace(' ', "").to_uppercase());
    body.vat_identifier = filled(&body.vat_identifier)
        .map(|v| normalize_vat_identifier(&v))
        .filter(|v| !v.is_empty());
    if let Some(tags) = &mut body.tags {
        let mut out: Vec<String> = Vec::new();
        for t in tags.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
            if !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
        *tags = out;
    }
    body.default_invoice_due_days = body.due_days();
    body.payment_term_days = None;
}

fn days(e: &mut FieldErrors, field: &str, value: Option<i64>) {
    if value.is_some_and(|d| !(0..=MAX_DAYS).contains(&d)) {
        push_error(
            e,
            field,
            crate::error::messages::MUST_BE_BETWEEN_N_AND_N
                .with(["0".to_string(), MAX_DAYS.to_string()]),
        );
    }
}

fn max_len(e: &mut FieldErrors, field: &str, value: Option<&str>, max: usize) {
    if value.is_some_and(|v| v.chars().count() > max) {
        push_error(e, field, messages::MUST_BE_AT_MOST_N_CHARACTERS.with([max]));
    }
}

fn address_list(e: &mut FieldErrors, field: &str, value: Option<&str>) {
    for address in split_addresses(value.unwrap_or(""))
        .iter()
        .filter(|a| !is_address(a))
    {
        push_error(e, field, messages::N_IS_NOT_E_MAIL_ADDRESS.with([address]));
    }
}

/// Checks a company body (create, or a partial update merged onto the stored company):
/// `name` required (≤ 500 characters); `country_code` an ISO 3166-1 alpha-2 code;
/// `email` an address and `billing_email_cc` a list of addresses; `website`
/// ([`is_website`]); `vat_identifier` ([`check_vat_identifier`]); `iban` (mod 97,
/// [`is_valid_iban`]); `bic` ([`is_bic`]); `payment_term_days`,
/// `default_invoice_due_days`, `default_cash_discount_days` 0–365; `default_discount`,
/// `default_cash_discount` and `customer_vat.tax` percentages 0–100; tags at most 500
/// characters (blank ones are dropped), custom-property names not blank; the e-invoice
/// fields of issue 10 ([`crate::sepa::check_einvoice_fields`]: `buyer_reference` and
/// `electronic_address` ≤ 200 characters, the latter an e-mail address when it has `@`;
/// `sepa_mandate_reference` ≤ 35 SEPA characters); the DATEV accounts of issue 11
/// (`debit_number` 10000–69999, `credit_number` 70000–99999, issue 31's names;
/// [`crate::party::check_account_number`]; that no other company has the number is the
/// server's check). Blank optional
/// texts are not checked. The currency
/// (one of the account's) is the server's check.
pub fn validate_company(body: &NewCompany) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    max_len(&mut e, "name", body.name.as_deref(), MAX_LINE);
    max_len(&mut e, "address", body.address.as_deref(), MAX_TEXT);
    max_len(&mut e, "info", body.info.as_deref(), MAX_TEXT);
    for (field, value) in [("phone", &body.phone), ("tax_number", &body.tax_number)] {
        max_len(&mut e, field, value.as_deref(), MAX_LINE);
    }
    if let Some(c) = filled(&body.country_code) {
        if !is_country_code(&c.to_uppercase()) {
            push_error(
                &mut e,
                "country_code",
                messages::MUST_BE_COUNTRY_CODE_ALPHA_2,
            );
        }
    }
    if let Some(m) = filled(&body.email) {
        if !is_address(&m) {
            push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS);
        }
    }
    address_list(&mut e, "billing_email_cc", body.billing_email_cc.as_deref());
    if let Some(w) = filled(&body.website) {
        if !is_website(&w) {
            push_error(&mut e, "website", messages::MUST_BE_WEB_ADDRESS);
        }
    }
    if let Some(v) = filled(&body.vat_identifier) {
        if let Err(err) = check_vat_identifier(&v) {
            push_error(&mut e, "vat_identifier", err.message());
        }
    }
    if let Some(i) = filled(&body.iban) {
        if !is_valid_iban(&i) {
            push_error(&mut e, "iban", messages::IS_NOT_VALID_IBAN);
        }
    }
    if let Some(b) = filled(&body.bic) {
        if !is_bic(&b.replace(' ', "").to_uppercase()) {
            push_error(&mut e, "bic", messages::MUST_BE_BIC_EXAMPLE);
        }
    }
    days(&mut e, "payment_term_days", body.payment_term_days);
    days(
        &mut e,
        "default_invoice_due_days",
        body.default_invoice_due_days,
    );
    days(
        &mut e,
        "default_cash_discount_days",
        body.default_cash_discount_days,
    );
    percent(&mut e, "default_discount", body.default_discount);
    percent(&mut e, "default_cash_discount", body.default_cash_discount);
    if let Some(vat) = &body.customer_vat {
        percent(&mut e, "customer_vat.tax", vat.tax);
    }
    crate::sepa::check_einvoice_fields(
        &mut e,
        &crate::sepa::EinvoiceTexts {
            buyer_reference: body.buyer_reference.as_deref(),
            electronic_address: body.electronic_address.as_deref(),
            sepa_mandate_reference: body.sepa_mandate_reference.as_deref(),
            sepa_creditor_identifier: None,
        },
    );
    for (kind, value) in [
        (AccountKind::Debit, body.debit_number),
        (AccountKind::Credit, body.credit_number),
    ] {
        check_account_number(&mut e, kind.field(), kind, value);
    }
    for (i, tag) in body.tags.iter().flatten().enumerate() {
        max_len(&mut e, &format!("tags[{i}]"), Some(tag.trim()), MAX_LINE);
    }
    for (name, value) in body.custom_properties.iter().flatten() {
        if name.trim().is_empty() {
            push_error(
                &mut e,
                "custom_properties",
                messages::NAMES_MUST_NOT_BE_BLANK,
            );
        }
        max_len(
            &mut e,
            &format!("custom_properties.{name}"),
            Some(value),
            MAX_TEXT,
        );
    }
    e
}

/// The custom properties a form's Name / Value rows give (issue 9, Companies:
/// `custom_properties`, a `{string: string}` map): names trimmed; a row with a blank name
/// and a blank value is ignored. Errors (one message for the field `custom_properties`):
/// a blank name with a value (the server's rule in [`validate_company`]: names must not be
/// blank), or two rows with the same name (a map cannot hold both). Values are kept as
/// typed; their length is [`validate_company`]'s check.
pub fn custom_properties_from_rows(
    rows: &[(String, String)],
) -> Result<BTreeMap<String, String>, String> {
    let mut map = BTreeMap::new();
    for (name, value) in rows {
        let name = name.trim();
        if name.is_empty() {
            if value.trim().is_empty() {
                continue;
            }
            return Err("names must not be blank".into());
        }
        if map.insert(name.to_string(), value.clone()).is_some() {
            return Err(format!("the name \"{name}\" is used twice"));
        }
    }
    Ok(map)
}

/// Brings a person body into its stored form: names trimmed, blank optional texts absent.
pub fn normalize_person(body: &mut NewPerson) {
    body.firstname = body.firstname.as_deref().map(|n| n.trim().to_string());
    body.lastname = body.lastname.as_deref().map(|n| n.trim().to_string());
    for field in [
        &mut body.email,
        &mut body.salutation,
        &mut body.job_position,
        &mut body.phone,
    ] {
        *field = filled(field);
    }
}

/// Checks a contact person body: `firstname` and `lastname` required; `email` an
/// address; texts at most 500 characters. Whether `company_id` exists is the server's
/// check.
pub fn validate_person(body: &NewPerson) -> FieldErrors {
    let mut e = FieldErrors::new();
    for (field, value) in [("firstname", &body.firstname), ("lastname", &body.lastname)] {
        require_text(&mut e, field, value.as_ref());
        max_len(&mut e, field, value.as_deref(), MAX_LINE);
    }
    if let Some(m) = filled(&body.email) {
        if !is_address(&m) {
            push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS);
        }
    }
    for (field, value) in [
        ("salutation", &body.salutation),
        ("job_position", &body.job_position),
        ("phone", &body.phone),
    ] {
        max_len(&mut e, field, value.as_deref(), MAX_LINE);
    }
    if body.billing_contact == Some(true) && body.company_id.is_none() {
        push_error(
            &mut e,
            "billing_contact",
            messages::BILLING_CONTACT_MUST_BE_AT_COMPANY,
        );
    }
    e
}

/// Checks a project body: `name` and `customer_id` required; `billing_email_to` and
/// `billing_email_cc` lists of addresses; the billing address at most 20,000 characters.
/// Whether the customer exists and the currency is the account's are the server's checks.
pub fn validate_project(body: &NewProject) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    max_len(&mut e, "name", body.name.as_deref(), MAX_LINE);
    if body.customer_id.is_none() {
        push_error(&mut e, "customer_id", messages::IS_REQUIRED);
    }
    address_list(&mut e, "billing_email_to", body.billing_email_to.as_deref());
    address_list(&mut e, "billing_email_cc", body.billing_email_cc.as_deref());
    max_len(
        &mut e,
        "billing_address",
        body.billing_address.as_deref(),
        MAX_TEXT,
    );
    e
}

/// Checks a deal body: `name` and `company_id` required; `status` one of
/// [`DEAL_STATUSES`] (`open`, `won`, `lost`).
pub fn validate_deal(body: &NewDeal) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    max_len(&mut e, "name", body.name.as_deref(), MAX_LINE);
    if body.company_id.is_none() {
        push_error(&mut e, "company_id", messages::IS_REQUIRED);
    }
    if body
        .status
        .as_deref()
        .is_some_and(|s| !DEAL_STATUSES.contains(&s))
    {
        push_error(&mut e, "status", messages::MUST_BE_OPEN_WON_OR_LOST);
    }
    e
}

/// Fields of a company body that cannot be empty: `null` for them in a partial update
/// leaves the stored value (for every other field `null` clears it).
pub const COMPANY_KEEP_ON_NULL: &[&str] = &[
    "type",
    "name",
    "address",
    "active",
    "language",
    "tags",
    "customer_vat",
    "custom_properties",
    "einvoice_format",
];
/// [`COMPANY_KEEP_ON_NULL`] for people.
pub const PERSON_KEEP_ON_NULL: &[&str] = &["firstname", "lastname", "billing_contact"];
/// [`COMPANY_KEEP_ON_NULL`] for projects.
pub const PROJECT_KEEP_ON_NULL: &[&str] = &["name", "customer_id", "active"];
/// [`COMPANY_KEEP_ON_NULL`] for deals.
pub const DEAL_KEEP_ON_NULL: &[&str] = &["name", "company_id", "status"];

/// A partial update (contract: "partial update, same field rules as creation"): `patch`
/// (a JSON object) merged onto `stored`. A field the patch does not name keeps its stored
/// value; a named field replaces it as a whole (objects such as `customer_vat` or
/// `custom_properties` included); `null` clears it, except for the `keep_on_null` fields
/// that cannot be empty, where `null` means "unchanged". Errors: `patch` is not an object,
/// or the merged body does not read as `T` (then the patch itself has a field of the wrong
/// type; read the patch as `T` first to name it).
pub fn merge_patch<T: Serialize + DeserializeOwned>(
    stored: &T,
    patch: &Value,
    keep_on_null: &[&str],
) -> Result<T, String> {
    let Value::Object(fields) = patch else {
        return Err("the body must be a JSON object".into());
    };
    let mut base = serde_json::to_value(stored).map_err(|e| e.to_string())?;
    let Value::Object(target) = &mut base else {
        return Err("the stored record is not an object".into());
    };
    for (key, value) in fields {
        match value {
            Value::Null if keep_on_null.contains(&key.as_str()) => {}
            Value::Null => {
                target.remove(key);
            }
            v => {
                target.insert(key.clone(), v.clone());
            }
        }
    }
    // `payment_term_days` is the older name of `default_invoice_due_days`: sent alone, it
    // replaces the stored term.
    if fields.contains_key("payment_term_days") && !fields.contains_key("default_invoice_due_days")
    {
        target.remove("default_invoice_due_days");
    }
    crate::wire::from_value(&base).map_err(|e| e.to_string())
}

/// Keeps only the errors of fields a partial update names (`customer_vat.tax` and
/// `tags[0]` belong to `customer_vat` and `tags`), so a stored value from before a rule
/// existed never blocks an unrelated change such as archiving.
pub fn errors_of_patch(errors: FieldErrors, patch: &Value) -> FieldErrors {
    let Value::Object(fields) = patch else {
        return errors;
    };
    errors
        .into_iter()
        .filter(|(path, _)| {
            let top = path.split(['.', '[']).next().unwrap_or(path);
            fields.contains_key(top)
                || (top == "default_invoice_due_days" && fields.contains_key("payment_term_days"))
        })
        .collect()
}

#[cfg(test)]
mod tests;
