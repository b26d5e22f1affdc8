//! Supporting records the forms need (`decisions.md` § Supporting resources): companies,
//! projects and users, with their creation bodies; the master data of issue 9 (contract
//! § Company, § Person, § Project, § Deal). The rules over the bodies live in
//! [`crate::master_data`].

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn yes() -> bool {
    true
}

/// Correspondence language of a company's documents (issue 9): `de` (default) or `en`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// German.
    #[default]
    De,
    /// English.
    En,
}

impl Language {
    /// Wire name (`"de"`, `"en"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Language::De => "de",
            Language::En => "en",
        }
    }

    /// Parses a wire name (exactly `de` or `en`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "de" => Some(Language::De),
            "en" => Some(Language::En),
            _ => None,
        }
    }
}

/// How a customer's invoices are delivered by e-mail (issue 10 contract § New fields for
/// e-invoices): `pdf` (default; a Factur-X PDF when the account's `factur_x` is on),
/// `xrechnung_cii` or `xrechnung_ubl` (the XRechnung XML in that syntax attached; the PDF
/// stays as a readable copy, and finalizing needs what XRechnung requires).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EinvoiceFormat {
    /// The PDF (Factur-X when the account enables it).
    #[default]
    Pdf,
    /// XRechnung 3.0 in the CII syntax.
    XrechnungCii,
    /// XRechnung 3.0 in the UBL syntax.
    XrechnungUbl,
}

impl EinvoiceFormat {
    /// Wire and column name (`pdf`, `xrechnung_cii`, `xrechnung_ubl`).
    pub fn as_str(self) -> &'static str {
        match self {
            EinvoiceFormat::Pdf => "pdf",
            EinvoiceFormat::XrechnungCii => "xrechnung_cii",
            EinvoiceFormat::XrechnungUbl => "xrechnung_ubl",
        }
    }

    /// Parses a wire name; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        [
            EinvoiceFormat::Pdf,
            EinvoiceFormat::XrechnungCii,
            EinvoiceFormat::XrechnungUbl,
        ]
        .into_iter()
        .find(|f| f.as_str() == text)
    }

    /// Whether invoices go out as XRechnung XML (either syntax).
    pub fn is_xrechnung(self) -> bool {
        self != EinvoiceFormat::Pdf
    }
}

/// A contact person's gender as MOCO writes it: `F`, `M` or `U` (unknown / diverse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Gender {
    /// Female.
    F,
    /// Male.
    M,
    /// Unknown or diverse.
    U,
}

impl Gender {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Gender::F => "F",
            Gender::M => "M",
            Gender::U => "U",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "F" => Some(Gender::F),
            "M" => Some(Gender::M),
            "U" => Some(Gender::U),
            _ => None,
        }
    }
}

/// The company's billing contact: `{id, name, email}` (the contract's `{id, name}` plus the
/// person's e-mail, which the default invoice recipients use).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BillingContact {
    /// Person id.
    pub id: i64,
    /// First and last name.
    pub name: String,
    /// The person's e-mail.
    pub email: Option<String>,
}

/// A reference to a record by id and name: `{id, name}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IdName {
    /// Record id.
    pub id: i64,
    /// Display name.
    pub name: String,
}

/// A company as a picker lists it: `{id, name, email}`, read from a company of
/// GET /companies (its other fields are ignored). The list filters' pickers decode this
/// instead of whole companies (issue 13 § Make the main module small).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompanyRef {
    /// Record id.
    pub id: i64,
    /// The company's name.
    pub name: String,
    /// Its e-mail address, shown beside the name; `None` when it has none.
    pub email: Option<String>,
}

/// A user reference: `{id, firstname, lastname}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserRef {
    /// User id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
}

/// Company role: `customer`, `supplier` or `organization`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CompanyType {
    /// Someone we invoice.
    Customer,
    /// Someone we buy from.
    Supplier,
    /// Neither (or both).
    Organization,
}

impl CompanyType {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            CompanyType::Customer => "customer",
            CompanyType::Supplier => "supplier",
            CompanyType::Organization => "organization",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Self> {
        [
            CompanyType::Customer,
            CompanyType::Supplier,
            CompanyType::Organization,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }
}

/// A customer's default VAT treatment: `{tax, reverse_charge, intra_eu}` (tax in percent).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomerVat {
    /// Default tax rate in percent; `null` → the form's default.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// Reverse charge applies to this customer.
    #[serde(default)]
    pub reverse_charge: bool,
    /// Intra-EU customer.
    #[serde(default)]
    pub intra_eu: bool,
}

/// A company (customer, supplier or organization).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Company {
    /// Record id.
    pub id: i64,
    /// Role.
    #[serde(rename = "type")]
    pub kind: CompanyType,
    /// Name.
    pub name: String,
    /// Postal address, lines separated by `\n` (without the name).
    pub address: String,
    /// Billing e-mail (default invoice recipient).
    pub email: Option<String>,
    /// Billing CC addresses, `;`-separated.
    pub billing_email_cc: Option<String>,
    /// Preferred currency.
    pub currency: Option<String>,
    /// Payment term in days used to pre-fill the due date.
    pub payment_term_days: Option<i64>,
    /// IBAN (suppliers).
    pub iban: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Default VAT treatment.
    pub customer_vat: CustomerVat,
    /// `false` once archived (hidden from pickers; still listed with `active=false`).
    #[serde(default = "yes")]
    pub active: bool,
    /// ISO 3166-1 alpha-2 code, upper case (`"DE"`).
    pub country_code: Option<String>,
    /// Phone number (free text).
    pub phone: Option<String>,
    /// Website (`https://…` or a bare host name).
    pub website: Option<String>,
    /// VAT identifier in compact form (`"DE136308783"`, [`crate::vat_id`]).
    pub vat_identifier: Option<String>,
    /// Tax number (Steuernummer, free text).
    pub tax_number: Option<String>,
    /// BIC (8 or 11 characters).
    pub bic: Option<String>,
    /// Free-text notes.
    pub info: Option<String>,
    /// Payment term in days (0–365); the same value as `payment_term_days`.
    pub default_invoice_due_days: Option<i64>,
    /// Default discount in percent (0–100).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub default_discount: Option<Decimal>,
    /// Default cash discount (Skonto) in percent (0–100).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub default_cash_discount: Option<Decimal>,
    /// Days within which the cash discount applies (0–365).
    pub default_cash_discount_days: Option<i64>,
    /// Correspondence language of documents.
    #[serde(default)]
    pub language: Language,
    /// Custom properties (name → value).
    #[serde(default)]
    pub custom_properties: BTreeMap<String, String>,
    /// The person marked as billing contact, if any.
    pub billing_contact: Option<BillingContact>,
    /// Buyer reference (BT-10; the Leitweg-ID of public customers), at most 200
    /// characters; an invoice's own `buyer_reference` wins (issue 10).
    pub buyer_reference: Option<String>,
    /// Electronic address for e-invoices (BT-49), at most 200 characters; `null` → `email`.
    pub electronic_address: Option<String>,
    /// How invoices are delivered by e-mail (default `pdf`).
    #[serde(default)]
    pub einvoice_format: EinvoiceFormat,
    /// SEPA direct debit mandate reference (BT-89), at most 35 characters of the SEPA
    /// character set; with it, invoices default to direct debit from `iban`.
    pub sepa_mandate_reference: Option<String>,
    /// Debtor number: the customer's bookkeeping (DATEV) account, an integer
    /// 10000–69999, unique among companies ([`AccountKind::Debit`], issue 31; issue 11
    /// called it `debtor_number`). `null` → the exports use 10000 + id
    /// ([`crate::datev::debtor_account`]).
    pub debit_number: Option<i64>,
    /// Creditor number: the supplier's bookkeeping account, an integer 70000–99999,
    /// unique among companies ([`AccountKind::Credit`]); `null` → 70000 + id.
    pub credit_number: Option<i64>,
    /// Issue 11's name of `debit_number`, answered too with the same value, so clients of
    /// either interface version read it.
    #[serde(default)]
    pub debtor_number: Option<i64>,
    /// Issue 11's name of `credit_number`, answered too with the same value.
    #[serde(default)]
    pub creditor_number: Option<i64>,
    /// A consumer, not a business: default interest is the base rate + 5 points instead of
    /// + 9, and no § 288 (5) BGB flat fee (issue 14). Default false.
    #[serde(default)]
    pub consumer: bool,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// What a customer's master data gives every new invoice of theirs (issue 29 § Books that
/// stay whole: "customer defaults reach every invoice however it is made" — the form,
/// "Create invoice" from an offer, the API, recurring invoices).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvoiceDefaults {
    /// Payment term in days (the due date is the invoice date plus these).
    pub due_days: Option<i64>,
    /// Discount in percent.
    pub discount: Option<Decimal>,
    /// Cash discount (Skonto) in percent.
    pub cash_discount: Option<Decimal>,
    /// Days within which the cash discount applies.
    pub cash_discount_days: Option<i64>,
}

impl Company {
    /// The defaults this customer gives new invoices: `default_invoice_due_days` (else
    /// `payment_term_days`), `default_discount`, `default_cash_discount`,
    /// `default_cash_discount_days`.
    pub fn invoice_defaults(&self) -> InvoiceDefaults {
        InvoiceDefaults {
            due_days: self.default_invoice_due_days.or(self.payment_term_days),
            discount: self.default_discount,
            cash_discount: self.default_cash_discount,
            cash_discount_days: self.default_cash_discount_days,
        }
    }

    /// The recipient address block for documents: name, then the address lines.
    pub fn recipient_address(&self) -> String {
        if self.address.trim().is_empty() {
            self.name.clone()
        } else {
            format!("{}\n{}", self.name, self.address.trim())
        }
    }
}

/// POST /companies body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewCompany {
    /// Role; default `customer`.
    #[serde(rename = "type", default)]
    pub kind: Option<CompanyType>,
    /// Required: name.
    pub name: Option<String>,
    /// Address lines.
    pub address: Option<String>,
    /// Billing e-mail.
    pub email: Option<String>,
    /// Billing CC, `;`-separated.
    pub billing_email_cc: Option<String>,
    /// Preferred currency (one of the account's).
    pub currency: Option<String>,
    /// Payment term in days.
    pub payment_term_days: Option<i64>,
    /// IBAN.
    pub iban: Option<String>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Default VAT treatment.
    pub customer_vat: Option<CustomerVat>,
    /// `false` archives, `true` restores; default (create) `true`.
    pub active: Option<bool>,
    /// ISO 3166-1 alpha-2 code (upper case).
    pub country_code: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Website.
    pub website: Option<String>,
    /// VAT identifier (checked per country, stored compact).
    pub vat_identifier: Option<String>,
    /// Tax number (Steuernummer).
    pub tax_number: Option<String>,
    /// BIC.
    pub bic: Option<String>,
    /// Free-text notes.
    pub info: Option<String>,
    /// Payment term in days (0–365); wins over `payment_term_days` when both are sent.
    pub default_invoice_due_days: Option<i64>,
    /// Default discount in percent (0–100).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub default_discount: Option<Decimal>,
    /// Default cash discount in percent (0–100).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub default_cash_discount: Option<Decimal>,
    /// Cash discount days (0–365).
    pub default_cash_discount_days: Option<i64>,
    /// Correspondence language; default `de`.
    pub language: Option<Language>,
    /// Custom properties (name → value).
    pub custom_properties: Option<BTreeMap<String, String>>,
    /// Buyer reference (BT-10, Leitweg-ID), ≤ 200 characters.
    pub buyer_reference: Option<String>,
    /// Electronic address (BT-49), ≤ 200 characters; an e-mail address when it has `@`.
    pub electronic_address: Option<String>,
    /// How invoices are delivered; default (create) `pdf`.
    pub einvoice_format: Option<EinvoiceFormat>,
    /// SEPA mandate reference (BT-89), ≤ 35 characters of the SEPA character set.
    pub sepa_mandate_reference: Option<String>,
    /// Debtor number (integer, 10000–69999, not another company's; issue 31). Empty on
    /// creation with `datev.assign_account_numbers` on: a customer gets the next free
    /// number ([`next_account_number`]). Issue 11's name `debtor_number` is read too.
    #[serde(default, alias = "debtor_number")]
    pub debit_number: Option<i64>,
    /// Creditor number (integer, 70000–99999, not another company's); assigned to a new
    /// supplier like `debit_number`. Issue 11's name `creditor_number` is read too.
    #[serde(default, alias = "creditor_number")]
    pub credit_number: Option<i64>,
    /// A consumer, not a business (issue 14); absent keeps the stored value (false for a
    /// new company).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumer: Option<bool>,
}

impl NewCompany {
    /// The payment term in days: `default_invoice_due_days`, else `payment_term_days`.
    pub fn due_days(&self) -> Option<i64> {
        self.default_invoice_due_days.or(self.payment_term_days)
    }
}

impl From<&Company> for NewCompany {
    /// The full body of a stored company (the base a partial update is merged onto).
    fn from(c: &Company) -> Self {
        NewCompany {
            kind: Some(c.kind),
            name: Some(c.name.clone()),
            address: Some(c.address.clone()),
            email: c.email.clone(),
            billing_email_cc: c.billing_email_cc.clone(),
            currency: c.currency.clone(),
            payment_term_days: None,
            iban: c.iban.clone(),
            tags: Some(c.tags.clone()),
            customer_vat: Some(c.customer_vat.clone()),
            active: Some(c.active),
            country_code: c.country_code.clone(),
            phone: c.phone.clone(),
            website: c.website.clone(),
            vat_identifier: c.vat_identifier.clone(),
            tax_number: c.tax_number.clone(),
            bic: c.bic.clone(),
            info: c.info.clone(),
            default_invoice_due_days: c.default_invoice_due_days.or(c.payment_term_days),
            default_discount: c.default_discount,
            default_cash_discount: c.default_cash_discount,
            default_cash_discount_days: c.default_cash_discount_days,
            language: Some(c.language),
            custom_properties: Some(c.custom_properties.clone()),
            buyer_reference: c.buyer_reference.clone(),
            electronic_address: c.electronic_address.clone(),
            einvoice_format: Some(c.einvoice_format),
            sepa_mandate_reference: c.sepa_mandate_reference.clone(),
            debit_number: c.debit_number,
            credit_number: c.credit_number,
            consumer: Some(c.consumer),
        }
    }
}

mod accounts;
mod contacts;
mod projects;

pub use accounts::*;
pub use contacts::*;
pub use projects::*;

#[cfg(test)]
mod tests;
