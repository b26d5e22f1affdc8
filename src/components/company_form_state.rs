//! The state of a company form (the Customers / Suppliers create and edit pages and the
//! "New customer…" dialog): one signal per field, the body it sends, and the checks
//! before sending — the model's `validate_company` (the same rules the server applies)
//! plus numbers that do not read as numbers.

use crate::components::locale::{format_input, parse_typed};
use kontor_model::error::FieldErrors;
use kontor_model::party::{Company, CompanyType, CustomerVat, EinvoiceFormat, NewCompany};
use leptos::prelude::*;

/// Every editable field of a company as text (numbers as typed, in the user's locale).
#[derive(Clone, Copy)]
pub struct CompanyFormState {
    /// Role (fixed by the page: customer or supplier).
    pub kind: RwSignal<CompanyType>,
    /// Name (required).
    pub name: RwSignal<String>,
    /// Postal address lines (without the name).
    pub address: RwSignal<String>,
    /// ISO 3166-1 alpha-2 code, empty when unknown.
    pub country_code: RwSignal<String>,
    /// Billing e-mail.
    pub email: RwSignal<String>,
    /// Billing CC, `;`-separated.
    pub billing_email_cc: RwSignal<String>,
    /// Phone.
    pub phone: RwSignal<String>,
    /// Website.
    pub website: RwSignal<String>,
    /// VAT ID (USt-IdNr.), e.g. `DE123456789`.
    pub vat_identifier: RwSignal<String>,
    /// Tax number (Steuernummer).
    pub tax_number: RwSignal<String>,
    /// IBAN.
    pub iban: RwSignal<String>,
    /// BIC.
    pub bic: RwSignal<String>,
    /// Preferred currency, empty for the account's default.
    pub currency: RwSignal<String>,
    /// Payment term in days, as typed.
    pub due_days: RwSignal<String>,
    /// Default discount in percent, as typed.
    pub discount: RwSignal<String>,
    /// Default cash discount in percent, as typed.
    pub cash_discount: RwSignal<String>,
    /// Days within which the cash discount applies, as typed.
    pub cash_discount_days: RwSignal<String>,
    /// Default tax in percent, as typed (empty: the account's default).
    pub tax: RwSignal<String>,
    /// Reverse charge by default.
    pub reverse_charge: RwSignal<bool>,
    /// Intra-EU by default.
    pub intra_eu: RwSignal<bool>,
    /// A consumer, not a business (issue 14: default interest + 5 points, no flat fee).
    pub consumer: RwSignal<bool>,
    /// Correspondence language of documents: `de` or `en`.
    pub language: RwSignal<String>,
    /// Tags, comma-separated.
    pub tags: RwSignal<String>,
    /// Free text.
    pub info: RwSignal<String>,
    /// Custom properties as Name / Value rows, in the order shown (sent as the full map,
    /// which replaces the stored one on PUT, so a removed row removes the property).
    pub custom_properties: RwSignal<Vec<PropertyRow>>,
    /// Buyer reference (BT-10, the Leitweg-ID of public customers).
    pub buyer_reference: RwSignal<String>,
    /// Electronic address for e-invoices (BT-49); empty → the billing e-mail.
    pub electronic_address: RwSignal<String>,
    /// How invoices are delivered (PDF, XRechnung CII or UBL).
    pub einvoice_format: RwSignal<EinvoiceFormat>,
    /// SEPA direct debit mandate reference (BT-89).
    pub sepa_mandate_reference: RwSignal<String>,
    /// DATEV debtor number as typed (issue 11; empty: the export's default).
    pub debtor_number: RwSignal<String>,
    /// DATEV creditor number as typed.
    pub creditor_number: RwSignal<String>,
}

/// One Name / Value row of the custom properties editor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropertyRow {
    /// Identity of the row for the list (unique within the form).
    pub key: u64,
    /// The property's name as typed.
    pub name: RwSignal<String>,
    /// The property's value as typed.
    pub value: RwSignal<String>,
}

impl PropertyRow {
    /// A row holding `name` and `value`.
    pub fn new(name: &str, value: &str) -> Self {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(1);
        PropertyRow {
            key: NEXT.fetch_add(1, Ordering::Relaxed),
            name: RwSignal::new(name.to_string()),
            value: RwSignal::new(value.to_string()),
        }
    }
}

fn opt(text: &Option<String>) -> String {
    text.clone().unwrap_or_default()
}

impl CompanyFormState {
    /// An empty form for a new company of `kind` (language German).
    pub fn blank(kind: CompanyType) -> Self {
        let s = || RwSignal::new(String::new());
        CompanyFormState {
            kind: RwSignal::new(kind),
            name: s(),
            address: s(),
            country_code: s(),
            email: s(),
            billing_email_cc: s(),
            phone: s(),
            website: s(),
            vat_identifier: s(),
            tax_number: s(),
            iban: s(),
            bic: s(),
            currency: s(),
            due_days: s(),
            discount: s(),
            cash_discount: s(),
            cash_discount_days: s(),
            tax: s(),
            reverse_charge: RwSignal::new(false),
            intra_eu: RwSignal::new(false),
            consumer: RwSignal::new(false),
            language: RwSignal::new("de".into()),
            tags: s(),
            info: s(),
            custom_properties: RwSignal::new(Vec::new()),
            buyer_reference: s(),
            electronic_address: s(),
            einvoice_format: RwSignal::new(EinvoiceFormat::Pdf),
            sepa_mandate_reference: s(),
            debtor_number: s(),
            creditor_number: s(),
        }
    }

    /// The form filled from `company` (editing).
    pub fn from_company(company: &Company) -> Self {
        let s = Self::blank(company.kind);
        let number = |d: Option<rust_decimal::Decimal>| {
            d.map(|d| format_input(d.normalize())).unwrap_or_default()
        };
        s.name.set(company.name.clone());
        s.address.set(company.address.clone());
        s.country_code.set(opt(&company.country_code));
        s.email.set(opt(&company.email));
        s.billing_email_cc.set(opt(&company.billing_email_cc));
        s.phone.set(opt(&company.phone));
        s.website.set(opt(&company.website));
        s.vat_identifier.set(opt(&company.vat_identifier));
        s.tax_number.set(opt(&company.tax_number));
        s.iban.set(opt(&company.iban));
        s.bic.set(opt(&company.bic));
        s.currency.set(opt(&company.currency));
        s.due_days.set(
            company
                .default_invoice_due_days
                .or(company.payment_term_days)
                .map(|d| d.to_string())
                .unwrap_or_default(),
        );
        s.discount.set(number(company.default_discount));
        s.cash_discount.set(number(company.default_cash_discount));
        s.cash_discount_days.set(
            company
                .default_cash_discount_days
                .map(|d| d.to_string())
                .unwrap_or_default(),
        );
        s.tax.set(number(company.customer_vat.tax));
        s.reverse_charge.set(company.customer_vat.reverse_charge);
        s.intra_eu.set(company.customer_vat.intra_eu);
        s.consumer.set(company.consumer);
        s.language.set(company.language.as_str().to_string());
        s.tags.set(company.tags.join(", "));
        s.info.set(opt(&company.info));
        s.buyer_reference.set(opt(&company.buyer_reference));
        s.electronic_address.set(opt(&company.electronic_address));
        s.einvoice_format.set(company.einvoice_format);
        s.sepa_mandate_reference
            .set(opt(&company.sepa_mandate_reference));
        let account = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
        s.debtor_number.set(account(company.debit_number));
        s.creditor_number.set(account(company.credit_number));
        s.custom_properties.set(
            company
                .custom_properties
                .iter()
                .map(|(name, value)| PropertyRow::new(name, value))
                .collect(),
        );
        s
    }

    /// The body to send (every field, so an edit can also clear one: empty text is sent
    /// as `""`… except numbers, sent as `null`), plus errors for numbers that do not read.
    pub fn body(&self) -> (NewCompany, FieldErrors) {
        let mut errors = FieldErrors::new();
        let text = |s: RwSignal<String>| Some(s.get_untracked().trim().to_string());
        let mut decimal =
            |s: RwSignal<String>, field: &str| match s.with_untracked(|t| parse_typed(t)) {
                Ok(v) => v,
                Err(message) => {
                    errors.entry(field.to_string()).or_default().push(message);
                    None
                }
            };
        let discount = decimal(self.discount, "default_discount");
        let cash_discount = decimal(self.cash_discount, "default_cash_discount");
        let tax = decimal(self.tax, "customer_vat.tax");
        let mut account = |s: RwSignal<String>, field: &str| {
            let t = s.get_untracked();
            let t = t.trim();
            if t.is_empty() {
                return None;
            }
            t.parse::<i64>().map(Some).unwrap_or_else(|_| {
                errors.entry(field.to_string()).or_default().push(
                    kontor_model::error::Message::verbatim(
                        crate::i18n::t().form_common().whole_number,
                    ),
                );
                None
            })
        };
        let debtor_number = account(self.debtor_number, "debit_number");
        let creditor_number = account(self.creditor_number, "credit_number");
        let mut whole = |s: RwSignal<String>, field: &str| {
            let t = s.get_untracked();
            let t = t.trim();
            if t.is_empty() {
                return None;
            }
            match t.parse::<i64>() {
                Ok(v) => Some(v),
                Err(_) => {
                    errors.entry(field.to_string()).or_default().push(
                        kontor_model::error::Message::verbatim(
                            crate::i18n::t().form_common().whole_days,
                        ),
                    );
                    None
                }
            }
        };
        let due_days = whole(self.due_days, "default_invoice_due_days");
        let cash_days = whole(self.cash_discount_days, "default_cash_discount_days");
        let tags: Vec<String> =
            kontor_model::query::split_list(&self.tags.get_untracked()).collect();
        let nonempty = |s: RwSignal<String>| text(s).filter(|t| !t.is_empty());
        let rows: Vec<(String, String)> = self.custom_properties.with_untracked(|rows| {
            rows.iter()
                .map(|r| (r.name.get_untracked(), r.value.get_untracked()))
                .collect()
        });
        let custom_properties = match kontor_model::master_data::custom_properties_from_rows(&rows)
        {
            Ok(map) => Some(map),
            Err(message) => {
                errors
                    .entry("custom_properties".to_string())
                    .or_default()
                    .push(kontor_model::error::Message::verbatim(message));
                None
            }
        };
        let body = NewCompany {
            kind: Some(self.kind.get_untracked()),
            name: text(self.name),
            address: text(self.address),
            country_code: nonempty(self.country_code).map(|c| c.to_uppercase()),
            email: text(self.email),
            billing_email_cc: text(self.billing_email_cc),
            phone: text(self.phone),
            website: text(self.website),
            vat_identifier: text(self.vat_identifier).map(|v| v.replace(' ', "").to_uppercase()),
            tax_number: text(self.tax_number),
            iban: text(self.iban).map(|v| v.replace(' ', "").to_uppercase()),
            bic: text(self.bic).map(|v| v.replace(' ', "").to_uppercase()),
            currency: nonempty(self.currency),
            default_invoice_due_days: due_days,
            default_discount: discount,
            default_cash_discount: cash_discount,
            default_cash_discount_days: cash_days,
            customer_vat: Some(CustomerVat {
                tax,
                reverse_charge: self.reverse_charge.get_untracked(),
                intra_eu: self.intra_eu.get_untracked(),
            }),
            language: kontor_model::party::Language::parse(&self.language.get_untracked()),
            tags: Some(tags),
            info: text(self.info),
            custom_properties,
            buyer_reference: text(self.buyer_reference),
            electronic_address: text(self.electronic_address),
            einvoice_format: Some(self.einvoice_format.get_untracked()),
            sepa_mandate_reference: text(self.sepa_mandate_reference),
            consumer: Some(self.consumer.get_untracked()),
            debit_number: debtor_number,
            credit_number: creditor_number,
            ..Default::default()
        };
        (body, errors)
    }

    /// [`Self::body`] plus the model's company rules (`validate_company`, the server's
    /// own): the errors to show before sending, keyed by wire path.
    pub fn checked_body(&self) -> (NewCompany, FieldErrors) {
        let (body, mut errors) = self.body();
        for (field, messages) in kontor_model::master_data::validate_company(&body) {
            errors.entry(field).or_default().extend(messages);
        }
        (body, errors)
    }
}

/// The wire paths of company fields as the server may name them, mapped to the field the
/// form shows them at (`payment_term_days` is the older name of
/// `default_invoice_due_days`; `tags[2]` shows at the tags field).
pub fn form_path(path: &str) -> String {
    match path {
        "payment_term_days" => "default_invoice_due_days".into(),
        p if p.starts_with("tags[") => "tags".into(),
        p if p.starts_with("custom_properties") => "custom_properties".into(),
        p => p.to_string(),
    }
}

/// A 422's field errors keyed by the form's paths ([`form_path`]).
pub fn form_errors(errors: &FieldErrors) -> FieldErrors {
    let mut out = FieldErrors::new();
    for (path, messages) in errors {
        out.entry(form_path(path))
            .or_default()
            .extend(messages.iter().cloned());
    }
    out
}

/// Declares [`TypedCompany`] and its two conversions once from the list of the form's text
/// fields (each kept exactly as typed).
macro_rules! typed_company {
    ($($field:ident),* $(,)?) => {
        /// The company form as typed, for its local draft
        /// ([`crate::components::local_draft`], issue 37 "Drafts never lost"): each text
        /// field of [`CompanyFormState`] under its own name, the switches, the e-invoice
        /// format and the custom properties as (name, value) pairs in their order.
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct TypedCompany {
            $(
                #[doc = concat!("`", stringify!($field), "` as typed.")]
                pub $field: String,
            )*
            /// Reverse charge by default.
            pub reverse_charge: bool,
            /// Intra-EU by default.
            pub intra_eu: bool,
            /// A consumer.
            pub consumer: bool,
            /// How invoices are delivered.
            pub einvoice_format: Option<EinvoiceFormat>,
            /// Custom properties, (name, value) as typed.
            pub custom_properties: Vec<(String, String)>,
        }

        impl CompanyFormState {
            /// Everything as typed.
            pub fn typed(&self) -> TypedCompany {
                TypedCompany {
                    $($field: self.$field.get_untracked(),)*
                    reverse_charge: self.reverse_charge.get_untracked(),
                    intra_eu: self.intra_eu.get_untracked(),
                    consumer: self.consumer.get_untracked(),
                    einvoice_format: Some(self.einvoice_format.get_untracked()),
                    custom_properties: self.custom_properties.with_untracked(|rows| {
                        rows.iter()
                            .map(|r| (r.name.get_untracked(), r.value.get_untracked()))
                            .collect()
                    }),
                }
            }

            /// Fills every field from `typed` (a restored local draft); the role stays the
            /// page's.
            pub fn restore_typed(&self, typed: &TypedCompany) {
                $(self.$field.set(typed.$field.clone());)*
                self.reverse_charge.set(typed.reverse_charge);
                self.intra_eu.set(typed.intra_eu);
                self.consumer.set(typed.consumer);
                if let Some(format) = typed.einvoice_format {
                    self.einvoice_format.set(format);
                }
                self.custom_properties.set(
                    typed
                        .custom_properties
                        .iter()
                        .map(|(name, value)| PropertyRow::new(name, value))
                        .collect(),
                );
            }
        }
    };
}

typed_company!(
    name,
    address,
    country_code,
    email,
    billing_email_cc,
    phone,
    website,
    vat_identifier,
    tax_number,
    iban,
    bic,
    currency,
    due_days,
    discount,
    cash_discount,
    cash_discount_days,
    tax,
    language,
    tags,
    info,
    buyer_reference,
    electronic_address,
    sepa_mandate_reference,
    debtor_number,
    creditor_number,
);
